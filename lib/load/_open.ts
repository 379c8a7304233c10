/**
 * Opening one skill for a consumer (the MCP server, the dsh tools): a fresh
 * bounded read, the author's opt-out read from disk again, the reviewer's
 * pins (an expected SKILL.md digest, bundle digest and source commit), the
 * rendered text and a load receipt. Failures are values with a `kind`
 * ({@linkcode LoadFailureKind}) and never carry instruction text; each
 * surface words them for its own users.
 *
 * The phases run in this order, and a later one never runs when an earlier
 * one failed (so a rejected digest never runs git):
 *
 * 1. fresh read: read and parse SKILL.md (or read the whole bundle and take
 *    SKILL.md from the same bytes);
 * 2. opt-out: the author's `disable-model-invocation`, as the file says now;
 * 3. digests: SKILL.md, then the bundle;
 * 4. commit: the one source-commit probe, checked against the pin;
 * 5. render and receipt.
 *
 * @example
 * ```ts
 * import { openSkill } from "./_open.ts";
 * const result = await openSkill({
 *   name: "pdf",
 *   path: "/home/me/.claude/skills/pdf/SKILL.md",
 *   directory: "/home/me/.claude/skills/pdf",
 *   source: "anywhere-user",
 *   origin: { kind: "agent", agent: "claude-code", scope: "user" },
 * }, { lenient: true, expectedSha256: "0".repeat(64) });
 * if (result.ok) console.log(result.skill.text);
 * else console.log(result.kind); // "sha-mismatch"
 * ```
 * @module
 */
import { basename } from "node:path";
import { BundleError, type BundleManifest } from "../bundle/mod.ts";
import { readBundle } from "../bundle/mod.ts";
import type { Origin } from "../catalog/mod.ts";
import { type Failure, failure } from "../errors.ts";
import { ReadError } from "../fs/mod.ts";
import { sha256Hex } from "../hash.ts";
import type { ParsedSkill } from "../skill/mod.ts";
import { TOOL_NAME, VERSION } from "../version.ts";
import { disabledByAuthor } from "./_find.ts";
import { parseSkillBytes, readSkillNow, staysInside } from "./_fresh.ts";
import { renderSkill, type RenderWords } from "./_render.ts";
import type { FromSchema, LOAD_RECEIPT_SCHEMA, LOADED_SKILL_SCHEMA } from "./_schema.ts";
import { sourceCommit } from "./_source_commit.ts";

export { renderSkill } from "./_render.ts";

/** The catalog facts a load starts from. */
export interface LoadTarget {
  /** The published name (after collision renaming). */
  name: string;
  /** Absolute path of the Markdown file. */
  path: string;
  /** The skill directory. */
  directory: string;
  /** The catalog's source label, such as `anywhere-user`. */
  source: string;
  /** Where the skill was found. */
  origin: Origin;
  /** The real directory no link may leave (the discovered skill's boundary, when it has one). */
  confineTo?: string;
}

/** Options of {@linkcode openSkill}. */
export interface OpenOptions {
  /** Parse leniently (the catalog's setting). */
  lenient: boolean;
  /** Inspect the whole skill directory and return its manifest. */
  includeBundle?: boolean;
  /** Refuse unless SKILL.md's bytes hash to this (64 lowercase hex). */
  expectedSha256?: string;
  /** Refuse unless the directory's bundle digest is this (implies `includeBundle`). */
  expectedBundleSha256?: string;
  /**
   * Refuse unless the skill's Git checkout is provably at this commit (40 lowercase hex):
   * its own git dir says so and no file under the skill differs from that commit.
   */
  expectedSourceCommit?: string;
  /** The SHA-256 of the lock file that enforced this load, for the receipt's `lock_sha256`. */
  lockSha256?: string;
  /** Which lock enforced this load (`project` or `user`), for the receipt's `lock`. */
  lock?: "project" | "user";
  /** The allowed signer whose signature the lock required, for the receipt's `signer`. */
  signer?: { principal: string; fingerprint: string };
  /** Load even when the author disabled model invocation (for a person reading it, not a model). */
  includeDisabled?: boolean;
  /** Look up `source_commit` for the receipt (Git-source skills only). */
  sourceCommit?: { cacheDir: string; warn?: (message: string) => void };
  /**
   * The surface's words in the rendered text.
   *
   * @default neutral ones
   */
  words?: RenderWords;
  /**
   * Where a reader that cannot see this machine's paths (a remote client) finds the skill: shown
   * instead of the directory and the path in the result, its text and its refusals (default:
   * the paths). The paths still go to `warn`.
   *
   * @default the paths
   */
  location?: { directory: string; path: string };
  /**
   * Told why SKILL.md cannot be read now (the reader's or the parser's words,
   * with the path) before the load is refused as `unreadable`; the refusal
   * itself never carries the file's words.
   */
  warn?: (message: string) => void;
}

/** The `skills-anywhere-load-1` receipt: what was loaded, never the text itself. */
export type LoadReceipt = FromSchema<typeof LOAD_RECEIPT_SCHEMA>;

/** A successful load: its facts ({@linkcode LOADED_SKILL_SCHEMA}) and the text an agent reads. */
export type LoadedSkill = FromSchema<typeof LOADED_SKILL_SCHEMA> & { text: string };

/** Why a load was refused. */
export type LoadFailureKind =
  /** SKILL.md is gone or no longer a usable skill. */
  | "unreadable"
  /** The author disabled model invocation. */
  | "disabled"
  /** SKILL.md's digest is not the expected one. */
  | "sha-mismatch"
  /** The bundle digest is not the expected one. */
  | "bundle-mismatch"
  /** The skill has no readable bundle (a flat file, or the bundle reader refused it). */
  | "bundle-invalid"
  /** A commit was expected of a skill that is not from a Git source. */
  | "not-git"
  /** The checkout's commit could not be proven. */
  | "commit-unproven"
  /** The checkout is at another commit. */
  | "commit-mismatch";

/** The outcome of {@linkcode openSkill}. */
export type LoadResult = { ok: true; skill: LoadedSkill } | Failure<LoadFailureKind>;

/** The skill as read now, with its SKILL.md bytes and, when asked for, its bundle. */
interface FreshSkill {
  skill: ParsedSkill;
  bytes: Uint8Array;
  bundle?: BundleManifest;
}

type Phase<T> = { ok: true; value: T } | Failure<LoadFailureKind>;

/** Phase 1 for a bundle load: the whole directory, SKILL.md taken from the same bytes. */
async function readWithBundle(
  target: LoadTarget,
  options: OpenOptions,
): Promise<Phase<FreshSkill>> {
  const { name, path, directory } = target;
  if (basename(path) !== "SKILL.md") {
    return failure(
      "bundle-invalid",
      `skill "${name}" is a single Markdown file, not a SKILL.md directory; it has no bundle`,
    );
  }
  if (!staysInside(directory, target.confineTo)) {
    return unreadable(target, "the skill folder leaves its boundary", options);
  }
  try {
    const read = await readBundle(directory);
    const now = parseSkillBytes(read.skillBytes, parseOptions(target, options.lenient));
    if (!now.ok) return unreadable(target, now.message, options);
    return { ok: true, value: { skill: now.skill, bytes: now.bytes, bundle: read.manifest } };
  } catch (error) {
    if (error instanceof BundleError) return failure("bundle-invalid", error.message);
    throw error;
  }
}

/** Phase 1 for a plain load: SKILL.md alone. */
function readAlone(target: LoadTarget, options: OpenOptions): Phase<FreshSkill> {
  try {
    const now = readSkillNow(target.path, parseOptions(target, options.lenient));
    return now.ok
      ? { ok: true, value: { skill: now.skill, bytes: now.bytes } }
      : unreadable(target, now.message, options);
  } catch (error) {
    if (error instanceof ReadError) return unreadable(target, error.message, options);
    throw error;
  }
}

function parseOptions(target: LoadTarget, lenient: boolean) {
  return { fallbackName: target.name, lenient, confineTo: target.confineTo };
}

/** The `unreadable` refusal; `why` goes to `options.warn` only. */
function unreadable(target: LoadTarget, why: string, options: OpenOptions): Failure<"unreadable"> {
  options.warn?.(`cannot read ${target.path}: ${why}`);
  const at = options.location?.path ?? target.path;
  return failure("unreadable", `skill "${target.name}" is no longer readable at ${at}`);
}

/** Phase 3: the reviewer's digest pins, SKILL.md first. */
function checkDigests(
  fresh: FreshSkill,
  sha256: string,
  options: OpenOptions,
): Failure<LoadFailureKind> | undefined {
  if (options.expectedSha256 !== undefined && options.expectedSha256 !== sha256) {
    return failure("sha-mismatch", "SKILL.md changed: its SHA-256 is not the expected one");
  }
  const expected = options.expectedBundleSha256;
  if (expected !== undefined && expected !== fresh.bundle?.sha256) {
    return failure(
      "bundle-mismatch",
      "the skill bundle changed: its digest is not the expected one",
    );
  }
  return undefined;
}

/**
 * Phase 4: the one commit probe. `undefined` when nobody asked; `null` when
 * the receipt claims no commit; else the proven commit. A failed probe is
 * reported through `warn` and refuses the load only when a commit was expected.
 */
async function checkCommit(
  target: LoadTarget,
  options: OpenOptions,
): Promise<Phase<string | null | undefined>> {
  const expected = options.expectedSourceCommit;
  const lookup = options.sourceCommit;
  if (expected === undefined && lookup === undefined) return { ok: true, value: undefined };
  const { name, origin } = target;
  if (origin.kind !== "source") {
    if (expected === undefined) return { ok: true, value: null };
    return failure(
      "not-git",
      `skill "${name}" is not from a Git source; its commit cannot be checked`,
    );
  }
  const probe = lookup === undefined
    ? failure("missing", "no source cache is configured")
    : origin.checkout === undefined
    ? failure("missing", "the checkout of the source is not known")
    : await sourceCommit(target.directory, {
      checkout: origin.checkout,
      cacheDir: lookup.cacheDir,
    });
  if (!probe.ok) {
    lookup?.warn?.(`source commit unavailable for ${name}: ${probe.message}`);
    if (expected === undefined) return { ok: true, value: null };
    return failure(
      "commit-unproven",
      `the Git source commit of "${name}" could not be proven: ${probe.message}`,
    );
  }
  if (expected !== undefined && probe.commit !== expected) {
    return failure(
      "commit-mismatch",
      `Git source commit changed for "${name}": expected ${expected}, found ${probe.commit}`,
    );
  }
  return { ok: true, value: probe.commit };
}

/** Phase 5: the receipt. */
function receiptOf(
  name: string,
  fresh: FreshSkill,
  tools: string[],
  commit: string | null | undefined,
  enforced: Pick<OpenOptions, "lockSha256" | "lock" | "signer">,
): LoadReceipt {
  const receipt: LoadReceipt = {
    schema: "skills-anywhere-load-1",
    load_id: crypto.randomUUID(),
    loaded_at: new Date().toISOString(),
    provider: TOOL_NAME,
    provider_version: VERSION,
    name,
    skill_sha256: sha256Hex(fresh.bytes),
    content_sha256: sha256Hex(fresh.skill.content),
    bundle_sha256: fresh.bundle?.sha256 ?? null,
    declared_tools: tools.length > 0 ? [...tools] : null,
    permissions_enforced: false,
  };
  if (commit !== undefined) receipt.source_commit = commit;
  if (enforced.lockSha256 !== undefined) {
    receipt.lock = enforced.lock ?? "project";
    receipt.lock_sha256 = enforced.lockSha256;
  }
  if (enforced.signer !== undefined) {
    receipt.signer = {
      principal: enforced.signer.principal,
      fingerprint: enforced.signer.fingerprint,
    };
  }
  return receipt;
}

/** Phase 5: the loaded skill, rendered. */
function loadedOf(
  target: LoadTarget,
  fresh: FreshSkill,
  commit: string | null | undefined,
  options: OpenOptions,
): LoadedSkill {
  const { name } = target;
  const { directory, path } = options.location ?? target;
  const { skill } = fresh;
  const tools = skill.allowedTools ?? [];
  const content = skill.content;
  const loaded: LoadedSkill = {
    name,
    description: skill.description,
    directory,
    path,
    source: target.source,
    content,
    sha256: sha256Hex(fresh.bytes),
    receipt: receiptOf(name, fresh, tools, commit, options),
    text: renderSkill({ name, directory, content, declaredTools: tools }, options.words),
  };
  if (tools.length > 0) loaded.declared_tools = tools;
  if (fresh.bundle !== undefined) loaded.bundle = fresh.bundle;
  return loaded;
}

/**
 * Opens one skill; see the module doc for the phases. Never throws for bad files.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { openSkill } from "./_open.ts";
 * const target = {
 *   name: "gone",
 *   path: "/nowhere/gone/SKILL.md",
 *   directory: "/nowhere/gone",
 *   source: "anywhere-user",
 *   origin: { kind: "agent", agent: "codex", scope: "user" },
 * } as const;
 * const result = await openSkill(target, { lenient: true });
 * assert.equal(result.ok ? result.skill.name : result.kind, "unreadable");
 * ```
 */
export async function openSkill(target: LoadTarget, options: OpenOptions): Promise<LoadResult> {
  const wantBundle = options.includeBundle === true || options.expectedBundleSha256 !== undefined;
  const read = wantBundle ? await readWithBundle(target, options) : readAlone(target, options);
  if (!read.ok) return read;
  const fresh = read.value;
  if (!fresh.skill.invocation.modelInvocable && options.includeDisabled !== true) {
    return disabledByAuthor(target.name);
  }
  const refused = checkDigests(fresh, sha256Hex(fresh.bytes), options);
  if (refused !== undefined) return refused;
  const commit = await checkCommit(target, options);
  if (!commit.ok) return commit;
  return { ok: true, skill: loadedOf(target, fresh, commit.value, options) };
}
