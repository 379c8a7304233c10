/**
 * The `skill://` URI space of the shared skills: which skill, and which of its
 * files, each URI names. One copy of the rule, for every surface that offers
 * or reports the skills shared as directories of files (the MCP Skills
 * extension serves by it; `doctor` reports its refusals).
 *
 * **The URIs.** A skill's path is its frontmatter name (`pdf`), or for a
 * skill the catalog renamed for a collision the rename's prefix and that name
 * (`codex/configure`; see `renamePrefix` in `lib/catalog/_precedence.ts`),
 * never the new name. Its root URI is `skill://` and the path's segments: the
 * first (the authority) percent-encoded as `encodeURIComponent` does, each
 * other as WHATWG URL does plus `%`, `/`, `\` and the dots of `.` and `..` —
 * the MCP SDK's spelling. Each file of its folder is `<root>/<file path>`,
 * each segment encoded the same way (`skill://pdf/scripts/fill.py`). A URI the
 * WHATWG parser would spell otherwise names nothing, so a skill with such a
 * root or file gets no place (`unnameable`).
 *
 * **The rule: one URI, one file of one skill.** The skills claim their places
 * in the order given — the catalog's precedence order, so the outcome is
 * deterministic — and a skill is refused whole, never merged and never
 * written over, when
 *
 * - `taken`: one of its URIs is the URI of a file of an earlier skill (the
 *   root's own `SKILL.md` included: two skills on one root always meet here);
 * - `inside`: its root lies inside an earlier skill's root;
 * - `holds`: an earlier skill's root lies inside its root.
 *
 * So the roots of the placed skills never nest: every URI at or below a root
 * belongs to that skill alone, and no directory listing mixes two skills.
 * URIs are compared segment by segment, decoded, ignoring letter case and
 * Unicode normalisation (NFC, then lower case): two skills never differ only
 * in case, so a client that compares URIs as RFC 3986 does (its authority is
 * case-insensitive) or keeps the files on a case-insensitive disk cannot mix
 * them up. Lookups stay exact: the one spelling served is the one published.
 * Within one skill nothing is compared: its files are its own folder's.
 *
 * Pure: no I/O; the caller passes each skill's files (its bundle rows' paths).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { placeSkills } from "./_uri_space.ts";
 * const [pdf, hostile] = placeSkills([
 *   { name: "pdf", path: "pdf", files: ["SKILL.md", "scripts/fill.py"] },
 *   { name: "pdf-scripts", path: "pdf/scripts", files: ["SKILL.md", "fill.py"] },
 * ]);
 * assert.equal(pdf.ok, true);
 * if (!hostile.ok) console.log(hostile.kind, hostile.message);
 * // taken its URI skill://pdf/scripts/fill.py is taken by skill "pdf"
 * ```
 * @module
 */
import type { DiscoveredSkill } from "../catalog/mod.ts";
import { renamePrefix } from "../catalog/mod.ts";
import type { Failure } from "../errors.ts";
import { compareCodeUnits } from "../util.ts";

/** The URI scheme of shared skills, with its `//`. */
const SCHEME = "skill://";

/** Why a skill has no place in the URI space (see the module doc). */
export type SpaceRefusalKind = "unnameable" | "taken" | "inside" | "holds";

/** A skill asking for its place: its published name, its skill path and its files. */
export interface SpaceClaim {
  /** The published name (the catalog's, after renaming): how refusals name the holder. */
  name: string;
  /** The skill path, `/`-separated: `pdf`, or `codex/configure` (see {@linkcode skillPath}). */
  path: string;
  /** Its files: paths below its folder with `/` separators, `SKILL.md` among them. */
  files: readonly string[];
}

/** A skill placed in the URI space: its root URI and the URI of each file. */
export interface Placed<T extends SpaceClaim = SpaceClaim> {
  ok: true;
  claim: T;
  /** The root URI (no trailing slash): `skill://pdf`. */
  root: string;
  /** The URI of each of `claim.files`, in the same order. */
  uris: string[];
}

/** A skill refused a place, with the URI that collided and the earlier skill that holds it. */
export interface SpaceRefused<T extends SpaceClaim = SpaceClaim> extends Failure<SpaceRefusalKind> {
  claim: T;
  /** The URI that collided (a file's for `taken`, the root's otherwise); none when unspellable. */
  uri?: string;
  /** The earlier skill in whose space it falls (not for `unnameable`). */
  holder?: T;
}

/** A skill's place, or why it has none. */
export type Placement<T extends SpaceClaim = SpaceClaim> = Placed<T> | SpaceRefused<T>;

/**
 * The skill path of a catalog skill: its frontmatter name, under the rename's prefix when the
 * catalog renamed it (see the module doc).
 *
 * @example
 * ```ts
 * import { skillPath } from "./_uri_space.ts";
 * import type { DiscoveredSkill } from "../catalog/mod.ts";
 * function example(skill: DiscoveredSkill) {
 *   skillPath(skill); // "pdf", or "codex/configure" for codex's renamed "configure"
 * }
 * ```
 */
export function skillPath(skill: DiscoveredSkill): string {
  return skill.renamedFrom === undefined
    ? skill.name
    : `${renamePrefix(skill)}/${skill.renamedFrom}`;
}

/** WHATWG URL's path-segment encoding plus `%`, `/`, `\`; `.` and `..` with their dots encoded. */
function encodeSegment(segment: string): string {
  if (segment === "." || segment === "..") return segment.replaceAll(".", "%2E");
  return segment.replaceAll(/[^\w!$&'()*+,.:;=@[\]|~-]/gu, (c) => encodeURIComponent(c));
}

/** `uri` when the WHATWG parser spells it the same, else `undefined`. */
function canonical(uri: string): string | undefined {
  try {
    return new URL(uri).href === uri ? uri : undefined;
  } catch {
    return undefined;
  }
}

/** The URI of `segments` below `skill://` (the first is the authority); `undefined` if none. */
function uriOf(segments: readonly string[]): string | undefined {
  try {
    const [authority, ...path] = segments;
    return canonical(
      SCHEME + [encodeURIComponent(authority), ...path.map(encodeSegment)].join("/"),
    );
  } catch {
    return undefined; // A lone surrogate: no URI spells it.
  }
}

/**
 * The root URI of a skill path (`skill://codex/configure` for `codex/configure`); `undefined`
 * when no URI names it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { skillRootUri } from "./_uri_space.ts";
 * assert.equal(skillRootUri("codex/configure"), "skill://codex/configure");
 * assert.equal(skillRootUri("my plugin/x"), "skill://my%20plugin/x");
 * ```
 */
export function skillRootUri(path: string): string | undefined {
  return path === "" ? undefined : uriOf(path.split("/"));
}

/** A segment as URIs are compared across skills: NFC, then lower case. */
const fold = (segment: string) => segment.normalize("NFC").toLowerCase();

/** The comparison key of a path's segments (no segment holds a `/`, so the join is one-to-one). */
const keyOf = (segments: readonly string[]) => segments.map(fold).join("/");

/** The reason of each refusal, in one place. */
const MESSAGES = {
  unnameable: (what: string) => `${what} cannot be named by a URI`,
  taken: (uri: string, theirs: string, holder: string) =>
    uri === theirs
      ? `its URI ${uri} is taken by skill "${holder}"`
      : `its URI ${uri} differs only in letter case from ${theirs} of skill "${holder}"`,
  inside: (root: string, theirs: string, holder: string) =>
    `its folder ${root} is inside the folder ${theirs} of skill "${holder}"`,
  holds: (root: string, theirs: string, holder: string) =>
    `its folder ${root} would hold the folder ${theirs} of skill "${holder}"`,
} as const;

/** What the placed skills hold, by comparison key: files, roots, and the folders above roots. */
interface Space<T extends SpaceClaim> {
  files: Map<string, { uri: string; owner: Placed<T> }>;
  roots: Map<string, Placed<T>>;
  /** Every proper ancestor of a placed root (the first skill below it). */
  above: Map<string, Placed<T>>;
}

/**
 * Places each skill in the URI space, in the order given (the catalog's precedence order), and
 * returns one placement per claim, in that order: placed with its URIs, or refused with the
 * reason (see the module doc).
 *
 * @example
 * ```ts
 * import { placeSkills } from "./_uri_space.ts";
 * const [x, inner] = placeSkills([
 *   { name: "x", path: "x", files: ["SKILL.md", "a/SKILL.md"] },
 *   { name: "tools-a", path: "x/a", files: ["SKILL.md"] },
 * ]);
 * if (!inner.ok) console.log(inner.message); // its URI skill://x/a/SKILL.md is taken by skill "x"
 * ```
 */
export function placeSkills<T extends SpaceClaim>(claims: readonly T[]): Placement<T>[] {
  const space: Space<T> = { files: new Map(), roots: new Map(), above: new Map() };
  return claims.map((claim) => {
    const placement = placeOne(claim, space);
    if (placement.ok) occupy(placement, space);
    return placement;
  });
}

/** One claim against what the earlier skills hold. */
function placeOne<T extends SpaceClaim>(claim: T, space: Space<T>): Placement<T> {
  const segments = claim.path.split("/");
  const root = skillRootUri(claim.path);
  if (root === undefined) return refused(claim, "unnameable", MESSAGES.unnameable(claim.path));
  const uris: string[] = [];
  for (const file of claim.files) {
    const uri = uriOf([...segments, ...file.split("/")]);
    if (uri === undefined) return refused(claim, "unnameable", MESSAGES.unnameable(file));
    uris.push(uri);
  }
  // The most telling collision first: a file, in URI order; then the roots.
  const order = claim.files.map((_, i) => i).sort((a, b) => compareCodeUnits(uris[a], uris[b]));
  for (const i of order) {
    const held = space.files.get(keyOf([...segments, ...claim.files[i].split("/")]));
    if (held === undefined) continue;
    const message = MESSAGES.taken(uris[i], held.uri, held.owner.claim.name);
    return refused(claim, "taken", message, uris[i], held.owner.claim);
  }
  for (let length = 1; length <= segments.length; length++) {
    const outer = space.roots.get(keyOf(segments.slice(0, length)));
    if (outer === undefined) continue;
    const message = MESSAGES.inside(root, outer.root, outer.claim.name);
    return refused(claim, "inside", message, root, outer.claim);
  }
  const inner = space.above.get(keyOf(segments));
  if (inner !== undefined) {
    const message = MESSAGES.holds(root, inner.root, inner.claim.name);
    return refused(claim, "holds", message, root, inner.claim);
  }
  return { ok: true, claim, root, uris };
}

/** Records what a placed skill holds. */
function occupy<T extends SpaceClaim>(placed: Placed<T>, space: Space<T>): void {
  const segments = placed.claim.path.split("/");
  space.roots.set(keyOf(segments), placed);
  for (let length = 1; length < segments.length; length++) {
    const key = keyOf(segments.slice(0, length));
    if (!space.above.has(key)) space.above.set(key, placed);
  }
  placed.claim.files.forEach((file, i) => {
    space.files.set(keyOf([...segments, ...file.split("/")]), {
      uri: placed.uris[i],
      owner: placed,
    });
  });
}

function refused<T extends SpaceClaim>(
  claim: T,
  kind: SpaceRefusalKind,
  message: string,
  uri?: string,
  holder?: T,
): SpaceRefused<T> {
  return {
    ok: false,
    kind,
    message,
    claim,
    ...(uri === undefined ? {} : { uri }),
    ...(holder === undefined ? {} : { holder }),
  };
}
