/**
 * Whether one skill can be shared as a directory of files with per-file
 * digests, and its files if so: a `SKILL.md` directory that stays inside its
 * boundary, that the bundle reader accepts (no links,
 * regular files only, at most 512 files), and whose files together stay
 * within {@linkcode MAX_SHARED_SKILL_BYTES}, and whose `SKILL.md`, parsed
 * from the bytes just read, still lets the model invoke it (the author's
 * opt-out is read fresh, never taken from the catalog). The files come from one bundle
 * read, so they are exactly the rows a bundle of that directory reports. A
 * single Markdown file (a flat `<name>.md`) is shared as a skill of one file,
 * its own bytes as `SKILL.md` (within the bundle's `SKILL.md` size limit); it
 * has no bundle digest.
 *
 * {@linkcode shareSkills} reads a whole catalog's skills this way and gives each
 * shareable one its place in the `skill://` URI space (`./uri_space.ts`), in
 * the catalog's precedence order: the one computation behind what the MCP
 * Skills extension offers and what `doctor` reports it refuses.
 * {@linkcode shareVerdict} is the one verdict on each: a skill it refuses is
 * refused by every MCP surface alike (the tools and the Skills extension),
 * with the same words, and `doctor` shows them.
 *
 * @example
 * ```ts
 * import { readShareable } from "./_share.ts";
 * import type { DiscoveredSkill } from "../catalog/mod.ts";
 * async function example(skill: DiscoveredSkill) {
 *   const shared = await readShareable(skill);
 *   if (!shared.ok) console.log(shared.kind, shared.message);
 * }
 * ```
 * @module
 */
import { basename } from "node:path";
import type { BundleFile } from "../bundle/mod.ts";
import { BundleError } from "../bundle/mod.ts";
import type { DigestCache } from "../bundle/mod.ts";
import { readBundle } from "../bundle/mod.ts";
import type { DiscoveredSkill } from "../catalog/mod.ts";
import { type Failure, failure } from "../errors.ts";
import { ReadError } from "../fs/mod.ts";
import { sha256Hex } from "../hash.ts";
import { formatBytes, MAX_BUNDLE_SKILL_BYTES, MAX_SHARED_SKILL_BYTES } from "../limits.ts";
import { parseSkillBytes, readSkillNow, staysInside } from "./_fresh.ts";
import { isSkillName } from "../skill/mod.ts";
import {
  type Placement,
  placeSkills,
  skillPath,
  type SpaceClaim,
  type SpaceRefusalKind,
} from "./_uri_space.ts";

/**
 * Every reason a skill cannot be shared, in one list (a surface's wording table over them is a
 * `Record<ShareRefusal, …>`). `too-many-files`, `too-large` and `file-too-large` (one file,
 * `SKILL.md` included, over its own limit) are the size limits ({@linkcode SIZE_REFUSAL_KINDS}).
 *
 * @example
 * ```ts
 * import { SHARE_REFUSAL_KINDS } from "./_share.ts";
 * console.log(SHARE_REFUSAL_KINDS.includes("disabled")); // true
 * ```
 */
export const SHARE_REFUSAL_KINDS = [
  "outside",
  "too-many-files",
  "too-large",
  "file-too-large",
  "bundle",
  "invalid",
  "disabled",
] as const;

/** Why a skill cannot be shared (see {@linkcode SHARE_REFUSAL_KINDS}). */
export type ShareRefusal = (typeof SHARE_REFUSAL_KINDS)[number];

/**
 * A skill that can be shared: its directory's files, their bundle digest (none for a single
 * Markdown file) and its SKILL.md bytes.
 */
export interface Shareable {
  ok: true;
  files: BundleFile[];
  bundleSha256: string | undefined;
  /** Set for a single Markdown file: its one file is this path, served as `SKILL.md`. */
  flatFile?: string;
  /**
   * The SKILL.md bytes as read; a holder that keeps the result may drop them (`undefined`) once
   * it has what it needs, so that no file text is retained.
   */
  skillBytes?: Uint8Array<ArrayBuffer>;
}

/**
 * Reads `skill`'s directory as a bundle (through `options.digests` when given), checks the
 * sharing limits and the author's opt-out (parsing leniently with `options.lenient`); see the
 * module doc.
 *
 * @example
 * ```ts
 * import { readShareable } from "./_share.ts";
 * import { DigestCache } from "../bundle/mod.ts";
 * import type { DiscoveredSkill } from "../catalog/mod.ts";
 * async function example(skill: DiscoveredSkill) {
 *   const shared = await readShareable(skill, { digests: new DigestCache() });
 *   if (shared.ok) console.log(shared.files.length);
 * }
 * ```
 */
export async function readShareable(
  skill: DiscoveredSkill,
  options: { digests?: DigestCache; lenient?: boolean } = {},
): Promise<Shareable | Failure<ShareRefusal>> {
  if (basename(skill.path) !== "SKILL.md") return readFlat(skill, options.lenient ?? false);
  if (!staysInside(skill.directory, skill.confineTo)) {
    return failure("outside", "the skill folder leaves its boundary");
  }
  try {
    const { manifest, skillBytes } = await readBundle(skill.directory, options);
    const now = parseSkillBytes(skillBytes, {
      fallbackName: skill.renamedFrom ?? skill.name,
      lenient: options.lenient ?? false,
    });
    if (!now.ok) return now;
    if (!now.skill.invocation.modelInvocable) {
      return failure("disabled", "its author disabled model invocation");
    }
    const total = manifest.files.reduce((sum, file) => sum + file.bytes, 0);
    if (total > MAX_SHARED_SKILL_BYTES) {
      return failure(
        "too-large",
        `its files hold ${total} bytes, over the ${formatBytes(MAX_SHARED_SKILL_BYTES)} limit`,
      );
    }
    return { ok: true, files: manifest.files, bundleSha256: manifest.sha256, skillBytes };
  } catch (error) {
    if (!(error instanceof BundleError)) throw error;
    const kind = error.kind === "too-many-files" || error.kind === "too-large"
      ? error.kind
      : error.kind === "skill-too-large" || error.kind === "file-too-large"
      ? "file-too-large"
      : "bundle";
    return failure(kind, error.message);
  }
}

/** A single Markdown file as a skill of one file (see the module doc). */
function readFlat(skill: DiscoveredSkill, lenient: boolean): Shareable | Failure<ShareRefusal> {
  let now;
  try {
    now = readSkillNow(skill.path, {
      fallbackName: skill.renamedFrom ?? skill.name,
      lenient,
      confineTo: skill.confineTo,
    });
  } catch (error) {
    if (error instanceof ReadError) return failure("invalid", error.message);
    throw error;
  }
  if (!now.ok) return failure("invalid", now.message);
  if (!now.skill.invocation.modelInvocable) {
    return failure("disabled", "its author disabled model invocation");
  }
  if (now.bytes.length > MAX_BUNDLE_SKILL_BYTES) {
    return failure(
      "file-too-large",
      `its file is ${now.bytes.length} bytes, over the ${
        formatBytes(MAX_BUNDLE_SKILL_BYTES)
      } a SKILL.md may hold`,
    );
  }
  const skillBytes = new Uint8Array(now.bytes);
  const files = [{ path: "SKILL.md", bytes: skillBytes.length, sha256: sha256Hex(skillBytes) }];
  return { ok: true, files, bundleSha256: undefined, flatFile: skill.path, skillBytes };
}

/** A skill's claim on the URI space, with the catalog skill it stands for. */
export interface SkillClaim extends SpaceClaim {
  skill: DiscoveredSkill;
}

/** One catalog skill as it would be shared: how reading it went, and its place if shareable. */
export interface SharedSkill {
  skill: DiscoveredSkill;
  shared: Shareable | Failure<ShareRefusal>;
  /** For a shareable skill: its place in the URI space, or why it has none. */
  place?: Placement<SkillClaim>;
}

/** Options of {@linkcode shareSkills}. */
export interface ShareOptions {
  /**
   * Digests kept by file identity across reads.
   *
   * @default none kept
   */
  digests?: DigestCache;
  /**
   * Parse leniently (the catalog's setting).
   *
   * @default {false}
   */
  lenient?: boolean;
  /**
   * Reads of skill objects seen before, reused and filled in: a catalog that keeps an unchanged
   * skill as the same object across reports has only its new or changed skills read (default:
   * every skill is read).
   *
   * @default none
   */
  known?: WeakMap<DiscoveredSkill, Shareable | Failure<ShareRefusal>>;
}

/**
 * Reads each of `skills` (in the catalog's precedence order) with {@linkcode readShareable}
 * (or takes the read `options.known` holds for that object) and places the shareable ones in
 * the `skill://` URI space, in that order (see `./uri_space.ts`); one result per skill, in the
 * same order.
 *
 * @example
 * ```ts
 * import { shareSkills } from "./_share.ts";
 * import type { DiscoveredSkill } from "../catalog/mod.ts";
 * async function example(skills: DiscoveredSkill[]) {
 *   for (const { skill, place } of await shareSkills(skills)) {
 *     if (place?.ok === false) console.log(skill.name, place.kind, place.message);
 *   }
 * }
 * ```
 */
export async function shareSkills(
  skills: readonly DiscoveredSkill[],
  options: ShareOptions = {},
): Promise<SharedSkill[]> {
  const read: SharedSkill[] = [];
  for (const skill of skills) {
    let shared = options.known?.get(skill);
    if (shared === undefined) {
      shared = await readShareable(skill, options);
      options.known?.set(skill, shared);
    }
    read.push({ skill, shared });
  }
  const claims: SkillClaim[] = [];
  for (const { skill, shared } of read) {
    if (!shared.ok) continue;
    claims.push({
      skill,
      name: skill.name,
      path: skillPath(skill),
      files: shared.files.map((f) => f.path),
    });
  }
  const places = new Map(placeSkills(claims).map((place) => [place.claim.skill, place]));
  return read.map((one) => {
    const place = places.get(one.skill);
    return place === undefined ? one : { ...one, place };
  });
}

/**
 * The refusals of {@linkcode shareVerdict} that concern sharing every file, not the skill: the
 * size limits. A surface that serves only the instructions (the MCP tools) serves such a skill.
 *
 * @example
 * ```ts
 * import { SIZE_REFUSAL_KINDS } from "./_share.ts";
 * console.log(SIZE_REFUSAL_KINDS); // ["too-many-files", "too-large", "file-too-large"]
 * ```
 */
export const SIZE_REFUSAL_KINDS = [
  "too-many-files",
  "too-large",
  "file-too-large",
] as const satisfies readonly ShareRefusal[];

/** A size-limit refusal (see {@linkcode SIZE_REFUSAL_KINDS}). */
export type SizeRefusalKind = (typeof SIZE_REFUSAL_KINDS)[number];

/**
 * {@linkcode SIZE_REFUSAL_KINDS} as a set, for asking of any kind (a string) whether it is one.
 *
 * @example
 * ```ts
 * import { SIZE_REFUSALS } from "./_share.ts";
 * console.log(SIZE_REFUSALS.has("too-large"), SIZE_REFUSALS.has("taken")); // true false
 * ```
 */
export const SIZE_REFUSALS: ReadonlySet<string> = new Set<string>(SIZE_REFUSAL_KINDS);

/**
 * Every reason a catalog skill is not served as a skill of its own: its files
 * ({@linkcode SHARE_REFUSAL_KINDS}), its place in the URI space or its name, in one list.
 *
 * @example
 * ```ts
 * import { SHARE_VERDICT_KINDS } from "./_share.ts";
 * console.log(SHARE_VERDICT_KINDS.includes("taken")); // true
 * ```
 */
export const SHARE_VERDICT_KINDS = [
  ...SHARE_REFUSAL_KINDS,
  "unnameable",
  "taken",
  "inside",
  "holds",
  "name",
] as const;

/** Why a catalog skill is not served as a skill of its own (see {@linkcode SHARE_VERDICT_KINDS}). */
export type ShareVerdictKind = (typeof SHARE_VERDICT_KINDS)[number];

// The list above holds every URI-space refusal and nothing else: a kind added there fails here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _everySpaceRefusal: Same<
  ShareVerdictKind,
  ShareRefusal | SpaceRefusalKind | "name"
> = true;
void _everySpaceRefusal;

/**
 * The one verdict on `one` (from {@linkcode shareSkills}): `undefined` when it can be served as a
 * skill with files of its own, else why not, in the words every surface shows.
 * The name checked is the last segment of the skill path, which the entry's frontmatter carries.
 *
 * @example
 * ```ts
 * import { shareSkills, shareVerdict } from "./_share.ts";
 * import type { DiscoveredSkill } from "../catalog/mod.ts";
 * async function example(skills: DiscoveredSkill[]) {
 *   for (const one of await shareSkills(skills)) {
 *     const refused = shareVerdict(one);
 *     if (refused !== undefined) console.log(one.skill.name, refused.kind, refused.message);
 *   }
 * }
 * ```
 */
export function shareVerdict(one: SharedSkill): Failure<ShareVerdictKind> | undefined {
  const { shared, place } = one;
  if (!shared.ok) return shared;
  if (place === undefined) {
    return failure("unnameable", `${skillPath(one.skill)} cannot be named by a URI`);
  }
  if (!place.ok) return failure(place.kind, place.message);
  const name = place.claim.path.split("/").pop()!;
  if (!isSkillName(name)) {
    return failure(
      "name",
      `its name "${name}" is not 1-64 lowercase letters, digits and single hyphens`,
    );
  }
  return undefined;
}
