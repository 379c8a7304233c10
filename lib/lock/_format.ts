/**
 * The `skills-anywhere-lock-1` format: what a project reviewed, one committed
 * file that diffs well.
 *
 * A lock is a JSON object with exactly three keys, and an optional fourth,
 * `signers`, right after `schema`:
 *
 *     {"schema": "skills-anywhere-lock-1", "signers": {...}, "skills": [...], "sources": [...]}
 *
 * `signers` (optional) names the reviewers the project trusts:
 * `{"allowed_signers": <path>, "require": <boolean>}`, exactly those two keys
 * in that order. The path is the project's allowed-signers file (the
 * `ssh-keygen` ALLOWED SIGNERS format), relative to the project root:
 * `/`-separated, no empty, `.` or `..` segment, not absolute, no drive or
 * backslash (see {@linkcode isSignersPath}); where it may be read from is
 * checked again at read time (`./signers.ts`).
 *
 * Each entry of `skills` (sorted by `name`, code-unit order, names unique):
 *
 * - `name`: the published name;
 * - `origin`: where it came from, an object with a string `kind` (`agent`
 *   with `agent` and `scope`, `custom` with `scope`, `claude-plugins` with
 *   `marketplace` and `plugin`, `source` with `repo`), keys sorted; no
 *   absolute path (a source's checkout folder is left out);
 * - `path`: its SKILL.md (or flat file) below its root, `/`-separated;
 * - `skill_sha256`: the SHA-256 of that file's bytes;
 * - `bundle_sha256`: the `skills-anywhere-bundle-1` digest of its directory
 *   (see `../bundle/manifest.ts`), or `null` with `bundle_error_kind`, why it
 *   could not be bundled (one of {@linkcode UNBUNDLABLE_KINDS}: `flat-file`
 *   or the bundle reader's refusal kind, such as `link`, `skill-too-large`,
 *   `too-many-files`, `file-too-large`), `bundle_error`, the reason in words,
 *   and no `files`. `bundle_error_kind` is optional when reading (locks
 *   written before it existed) and always written; neither field is trusted
 *   by `verify`, which reads the directory again and reports any entry
 *   without a digest (a flat file aside) as `unverifiable`;
 * - `files`: the bundle's rows `{path, bytes, sha256}` in bundle order, whose
 *   digest must equal `bundle_sha256` (a lock whose rows disagree with its
 *   digest is refused, so a hand-edited row cannot pass for reviewed);
 * - `source` (Git-source skills only): `{url, ref, commit}`, `ref` and
 *   `commit` `null` when unknown.
 *
 * Each entry of `sources` (sorted by `key`, unique): `{key, url, ref,
 * commit}`. Serialised as 2-space JSON with a final newline, keys in the
 * order above, so the same inputs give the same bytes.
 *
 * The parser's rule for one entry is {@linkcode skillEntryFault} (with
 * {@linkcode checkLockSkill} for the digest) and {@linkcode isLockSource}:
 * `lock` keeps only the entries they accept ({@linkcode splitLockable}), so
 * the lock it writes always parses.
 *
 * The module has no `node:` imports.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseLock, serialiseLock } from "./_format.ts";
 * const text = serialiseLock({ schema: "skills-anywhere-lock-1", skills: [], sources: [] });
 * const parsed = await parseLock(new TextEncoder().encode(text));
 * assert.equal(parsed.ok, true);
 * ```
 * @module
 */
import { type Failure, failure } from "../errors.ts";
import {
  BUNDLE_LIMITS,
  bundleDigest,
  type BundleFile,
  type BundleReadErrorKind,
  type BundleSizeKind,
  isBundlePath,
} from "../bundle/portable.ts";
import {
  formatBytes,
  MAX_BUNDLE_FILE_BYTES,
  MAX_BUNDLE_SKILL_BYTES,
  MAX_BUNDLE_TOTAL_BYTES,
  MAX_LOCK_BYTES,
} from "../limits.ts";
import { compareCodeUnits, isPlainObject, tryParseJsonBytes } from "../util.ts";

/** The schema literal of a lock. */
export const LOCK_SCHEMA = "skills-anywhere-lock-1";

/** The file name of a project's lock, at its root. */
export const LOCK_FILE_NAME = "skills-anywhere.lock.json";

/** A locked origin: a string `kind` and string fields, keys sorted. */
export type LockOrigin = Readonly<Record<string, string>> & { readonly kind: string };

/** Where a Git-source skill was checked out from. */
export interface LockSkillSource {
  url: string;
  ref: string | null;
  commit: string | null;
}

/**
 * Why a skill could not be bundled: `flat-file` (a `<name>.md` file, not a
 * directory) or a refusal kind of the bundle reader (`../bundle/read.ts`).
 */
export type UnbundlableKind = "flat-file" | BundleReadErrorKind | BundleSizeKind | "no-skill";

/**
 * Each {@linkcode UnbundlableKind} as what the skill is or holds, in neutral
 * words that follow "it" (`it holds a link inside its folder`).
 */
export const UNBUNDLABLE_REASONS: Readonly<Record<UnbundlableKind, string>> = {
  "flat-file": "is a flat file, not a skill directory",
  link: "holds a link inside its folder",
  "not-regular": "holds a pipe, socket or device",
  "skill-too-large": `holds a SKILL.md over ${formatBytes(MAX_BUNDLE_SKILL_BYTES)}`,
  "file-too-large": `holds a file over ${formatBytes(MAX_BUNDLE_FILE_BYTES)}`,
  "too-large": `holds over ${formatBytes(MAX_BUNDLE_TOTAL_BYTES)} of files in all`,
  "too-many-files": `holds more than ${BUNDLE_LIMITS.maxFiles} files`,
  "too-deep":
    `holds more than ${BUNDLE_LIMITS.maxEntries} entries or ${BUNDLE_LIMITS.maxDepth} levels`,
  "unsupported-path":
    "holds a file name a bundle cannot hold (a control character, backslash or colon)",
  "skill-not-utf8": "holds a SKILL.md that is not valid UTF-8",
  unreadable: "holds a file that cannot be read",
  changed: "changed while it was read",
  grew: "holds a file that grew while it was read",
  "not-directory": "is not a folder",
  "no-skill": "holds no SKILL.md",
};

/** Every {@linkcode UnbundlableKind}, the values `bundle_error_kind` may take. */
export const UNBUNDLABLE_KINDS: readonly UnbundlableKind[] = Object.keys(
  UNBUNDLABLE_REASONS,
) as UnbundlableKind[];

/**
 * Whether `kind` is an {@linkcode UnbundlableKind}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isUnbundlableKind } from "./_format.ts";
 * assert.equal(isUnbundlableKind("link"), true);
 * assert.equal(isUnbundlableKind("digest-mismatch"), false);
 * ```
 */
export function isUnbundlableKind(kind: unknown): kind is UnbundlableKind {
  return typeof kind === "string" && Object.hasOwn(UNBUNDLABLE_REASONS, kind);
}

/** One locked skill. */
export interface LockSkill {
  name: string;
  origin: LockOrigin;
  path: string;
  skill_sha256: string;
  bundle_sha256: string | null;
  /** Why it could not be bundled (with `bundle_sha256: null`; absent in older locks). */
  bundle_error_kind?: UnbundlableKind;
  bundle_error?: string;
  files: BundleFile[];
  source?: LockSkillSource;
}

/** One locked Git source. */
export interface LockSource {
  key: string;
  url: string;
  ref: string | null;
  commit: string | null;
}

/** The reviewers a project trusts: its allowed-signers file, and whether a signature is required. */
export interface LockSigners {
  /** The allowed-signers file, relative to the project root, `/`-separated. */
  allowed_signers: string;
  /** Whether every locked skill needs a valid signature by one of them. */
  require: boolean;
}

/** A `skills-anywhere-lock-1` document. */
export interface ProjectLock {
  schema: typeof LOCK_SCHEMA;
  /** The trusted signers, when the project names any. */
  signers?: LockSigners;
  skills: LockSkill[];
  sources: LockSource[];
}

/** Why a lock is refused. */
export type LockErrorKind =
  | "too-large"
  | "not-utf8"
  | "not-json"
  | "wrong-schema"
  | "bad-skill"
  | "bad-source"
  | "bad-signers"
  | "unsorted"
  | "digest-mismatch";

/** The sentence of each refusal; `%` is replaced by the entry's name or key (JSON-quoted). */
const MESSAGES: Readonly<Record<LockErrorKind, string>> = {
  "too-large": `larger than ${formatBytes(MAX_LOCK_BYTES)}`,
  "not-utf8": "not valid UTF-8",
  "not-json": "not valid JSON",
  "wrong-schema":
    `not a ${LOCK_SCHEMA} document (expected exactly "schema", "skills" and "sources", and optionally "signers")`,
  "bad-skill": "skill entry % is malformed",
  "bad-signers":
    `"signers" must be {"allowed_signers": <a relative path inside the project, "/"-separated, without "..">, "require": true or false}`,
  "bad-source": "source entry % is malformed",
  unsorted: "entries are not sorted by name (or key), or one appears twice",
  "digest-mismatch": "skill % has files that do not add up to its bundle_sha256",
};

function refuse(kind: LockErrorKind, subject?: unknown): Failure<LockErrorKind> {
  const what = typeof subject === "string" ? JSON.stringify(subject) : "#?";
  return failure(kind, MESSAGES[kind].replace("%", what));
}

/** The result of {@linkcode parseLock}. */
export type LockParse = { ok: true; lock: ProjectLock } | Failure<LockErrorKind>;

const HEX64 = /^[0-9a-f]{64}$/;

function isHex(value: unknown): value is string {
  return typeof value === "string" && HEX64.test(value);
}

function isText(value: unknown): value is string {
  return typeof value === "string" && value !== "";
}

function isNullableText(value: unknown): value is string | null {
  return value === null || isText(value);
}

function hasKeys(value: Record<string, unknown>, required: string[], optional: string[] = []) {
  const keys = Object.keys(value);
  return required.every((k) => Object.hasOwn(value, k)) &&
    keys.every((k) => required.includes(k) || optional.includes(k));
}

function isOrigin(value: unknown): value is LockOrigin {
  return isPlainObject(value) && isText(value.kind) &&
    Object.values(value).every((v) => isText(v));
}

function isRow(value: unknown): value is BundleFile {
  return isPlainObject(value) && hasKeys(value, ["path", "bytes", "sha256"]) &&
    isBundlePath(value.path) && Number.isSafeInteger(value.bytes) && Number(value.bytes) >= 0 &&
    isHex(value.sha256);
}

function isSkillSource(value: unknown): value is LockSkillSource {
  return isPlainObject(value) && hasKeys(value, ["url", "ref", "commit"]) && isText(value.url) &&
    isNullableText(value.ref) && isNullableText(value.commit);
}

function sortedUnique(keys: readonly string[]): boolean {
  return keys.every((key, i) => i === 0 || compareCodeUnits(keys[i - 1], key) < 0);
}

/** The keys every skill entry has, in format order. */
const LOCK_SKILL_KEYS = [
  "name",
  "origin",
  "path",
  "skill_sha256",
  "bundle_sha256",
  "files",
] as const;

/** The part of a skill entry the parser refuses first ({@linkcode skillEntryFault}). */
export type SkillEntryFault =
  | "keys"
  | "name"
  | "origin"
  | "path"
  | "skill_sha256"
  | "source"
  | "files"
  | "bundle";

/** Each {@linkcode SkillEntryFault} in words, as `lock` says why it left an entry out. */
export const SKILL_ENTRY_FAULTS: Readonly<Record<SkillEntryFault, string>> = {
  keys: "not an object with exactly the entry's keys",
  name: "its name is empty",
  origin: "its origin has an empty field",
  path:
    "its path holds what a lock cannot hold: a control character, backslash, colon or U+FFFD, an empty, . or .. segment, or over 1,024 bytes",
  skill_sha256: "its SKILL.md digest is not a SHA-256",
  source: "its Git source has an empty URL, ref or commit",
  files: "its file rows are malformed or unsorted",
  bundle: "its bundle digest, reason and rows disagree",
};

/**
 * The part of `value` that makes it an invalid skill entry, or undefined when
 * its shape is valid (its rows are checked against its digest apart, by
 * {@linkcode checkLockSkill}). The one rule for an entry's shape: the parser
 * and `lock` both use it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { skillEntryFault } from "./_format.ts";
 * assert.equal(skillEntryFault({ name: "pdf" }), "keys");
 * ```
 */
export function skillEntryFault(value: unknown): SkillEntryFault | undefined {
  const optional = ["bundle_error_kind", "bundle_error", "source"];
  if (!isPlainObject(value) || !hasKeys(value, [...LOCK_SKILL_KEYS], optional)) return "keys";
  const { name, origin, path, skill_sha256, bundle_sha256, bundle_error, files } = value;
  if (!isText(name)) return "name";
  if (!isOrigin(origin)) return "origin";
  if (!isBundlePath(path)) return "path";
  if (!isHex(skill_sha256)) return "skill_sha256";
  if (value.source !== undefined && !isSkillSource(value.source)) return "source";
  if (!Array.isArray(files) || !files.every(isRow)) return "files";
  if (!sortedUnique(files.map((f: BundleFile) => f.path))) return "files";
  const kind = value.bundle_error_kind;
  const bundled = bundle_sha256 === null
    ? isText(bundle_error) && (kind === undefined || isUnbundlableKind(kind)) &&
      files.length === 0
    : isHex(bundle_sha256) && bundle_error === undefined && kind === undefined &&
      files.length > 0;
  return bundled ? undefined : "bundle";
}

/**
 * Checks one skill entry as the parser does: its shape
 * ({@linkcode skillEntryFault}), then its rows against its `bundle_sha256`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkLockSkill } from "./_format.ts";
 * const refused = await checkLockSkill({ name: "pdf" });
 * assert.equal(refused?.kind, "bad-skill");
 * ```
 */
export async function checkLockSkill(value: unknown): Promise<Failure<LockErrorKind> | undefined> {
  const fault = skillEntryFault(value);
  if (fault !== undefined) {
    const refused = refuse("bad-skill", isPlainObject(value) ? value.name : undefined);
    return { ...refused, message: `${refused.message} (${SKILL_ENTRY_FAULTS[fault]})` };
  }
  const skill = value as LockSkill;
  if (skill.bundle_sha256 !== null && await bundleDigest(skill.files) !== skill.bundle_sha256) {
    return refuse("digest-mismatch", skill.name);
  }
  return undefined;
}

/**
 * Whether `path` may name a project's allowed-signers file: relative,
 * `/`-separated, every segment non-empty and neither `.` nor `..`, no
 * backslash, colon or control character (so no drive, no UNC path).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isSignersPath } from "./_format.ts";
 * assert.equal(isSignersPath(".github/allowed_signers"), true);
 * assert.equal(isSignersPath("../../etc/passwd"), false);
 * ```
 */
export function isSignersPath(path: unknown): path is string {
  // deno-lint-ignore no-control-regex
  if (typeof path !== "string" || path === "" || /[\\:\u0000-\u001f\u007f]/.test(path)) {
    return false;
  }
  return path.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..");
}

function isSigners(value: unknown): value is LockSigners {
  return isPlainObject(value) && hasKeys(value, ["allowed_signers", "require"]) &&
    isSignersPath(value.allowed_signers) && typeof value.require === "boolean";
}

/**
 * Whether `value` is a valid entry of a lock's `sources` (the parser's rule,
 * which `lock` applies before writing).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isLockSource } from "./_format.ts";
 * assert.equal(isLockSource({ key: "o/r", url: "https://example.com/o/r", ref: null, commit: null }), true);
 * assert.equal(isLockSource({ key: "o/r", url: "", ref: null, commit: null }), false);
 * ```
 */
export function isLockSource(value: unknown): value is LockSource {
  return isPlainObject(value) && hasKeys(value, ["key", "url", "ref", "commit"]) &&
    isText(value.key) && isText(value.url) && isNullableText(value.ref) &&
    isNullableText(value.commit);
}

/**
 * Validates a parsed lock: exactly the three keys, the schema literal, every
 * entry well formed, entries sorted and unique, and every skill's rows adding
 * up to its `bundle_sha256`. Returns the lock re-serialisable in canonical form.
 *
 * @example
 * ```ts
 * import { validateLock } from "./_format.ts";
 * const result = await validateLock({ schema: "skills-anywhere-lock-1", skills: [], sources: [] });
 * if (!result.ok) console.log(result.kind);
 * ```
 */
export async function validateLock(value: unknown): Promise<LockParse> {
  if (
    !isPlainObject(value) || !hasKeys(value, ["schema", "skills", "sources"], ["signers"]) ||
    value.schema !== LOCK_SCHEMA || !Array.isArray(value.skills) || !Array.isArray(value.sources)
  ) return refuse("wrong-schema");
  if (value.signers !== undefined && !isSigners(value.signers)) return refuse("bad-signers");
  for (const entry of value.skills) {
    const refused = await checkLockSkill(entry);
    if (refused !== undefined) return refused;
  }
  for (const entry of value.sources) {
    if (!isLockSource(entry)) return refuse("bad-source", isPlainObject(entry) ? entry.key : "");
  }
  const skills = value.skills as LockSkill[];
  const sources = value.sources as LockSource[];
  if (!sortedUnique(skills.map((s) => s.name)) || !sortedUnique(sources.map((s) => s.key))) {
    return refuse("unsorted");
  }
  const signers = value.signers as LockSigners | undefined;
  return {
    ok: true,
    lock: { schema: LOCK_SCHEMA, ...(signers === undefined ? {} : { signers }), skills, sources },
  };
}

/**
 * Parses lock bytes: at most {@linkcode MAX_LOCK_BYTES}, strict UTF-8, JSON,
 * then {@linkcode validateLock}.
 *
 * @example
 * ```ts
 * import { parseLock } from "./_format.ts";
 * const result = await parseLock(new TextEncoder().encode("{}"));
 * if (!result.ok) console.log(result.kind); // "wrong-schema"
 * ```
 */
export async function parseLock(bytes: Uint8Array): Promise<LockParse> {
  if (bytes.length > MAX_LOCK_BYTES) return refuse("too-large");
  const read = tryParseJsonBytes(bytes);
  if (!read.ok) return refuse(read.kind);
  return await validateLock(read.value);
}

/** A skill entry with its keys in format order (origin keys sorted). */
function canonicalSkill(skill: LockSkill): LockSkill {
  const origin = Object.fromEntries(
    Object.entries(skill.origin).sort(([a], [b]) => compareCodeUnits(a, b)),
  ) as LockOrigin;
  return {
    name: skill.name,
    origin,
    path: skill.path,
    skill_sha256: skill.skill_sha256,
    bundle_sha256: skill.bundle_sha256,
    ...(skill.bundle_error_kind === undefined
      ? {}
      : { bundle_error_kind: skill.bundle_error_kind }),
    ...(skill.bundle_error === undefined ? {} : { bundle_error: skill.bundle_error }),
    files: skill.files.map(({ path, bytes, sha256 }) => ({ path, bytes, sha256 })),
    ...(skill.source === undefined ? {} : {
      source: { url: skill.source.url, ref: skill.source.ref, commit: skill.source.commit },
    }),
  };
}

/**
 * The lock's bytes as text: entries sorted, keys in format order, 2-space
 * JSON and a final newline. The same lock always gives the same text.
 *
 * @example
 * ```ts
 * import { serialiseLock } from "./_format.ts";
 * serialiseLock({ schema: "skills-anywhere-lock-1", skills: [], sources: [] });
 * // '{\n  "schema": "skills-anywhere-lock-1",\n  "skills": [],\n  "sources": []\n}\n'
 * ```
 */
export function serialiseLock(lock: ProjectLock): string {
  const skills = lock.skills.map(canonicalSkill).sort((a, b) => compareCodeUnits(a.name, b.name));
  const sources = lock.sources
    .map(({ key, url, ref, commit }) => ({ key, url, ref, commit }))
    .sort((a, b) => compareCodeUnits(a.key, b.key));
  const signers = lock.signers === undefined ? {} : {
    signers: { allowed_signers: lock.signers.allowed_signers, require: lock.signers.require },
  };
  return JSON.stringify({ schema: LOCK_SCHEMA, ...signers, skills, sources }, null, 2) + "\n";
}

/** An entry {@linkcode splitLockable} left out: its list, its index there, and why. */
export interface RefusedEntry {
  list: "skills" | "sources";
  /** Its index in the given lock's list. */
  index: number;
  /** The parser's refusal of it, in one sentence (names are JSON-quoted). */
  message: string;
}

/**
 * Splits `lock` into the lock its own parser accepts and the entries it would
 * refuse: each entry, as it would be written, goes through the parser's rule
 * ({@linkcode checkLockSkill}, {@linkcode isLockSource}); an entry whose name
 * (or key) an earlier kept entry has is left out too. The lock returned
 * serialises to bytes {@linkcode parseLock} accepts, size aside.
 *
 * @example
 * ```ts
 * import { splitLockable } from "./_format.ts";
 * const { lock, refused } = await splitLockable({
 *   schema: "skills-anywhere-lock-1",
 *   skills: [],
 *   sources: [{ key: "o/r", url: "", ref: null, commit: null }],
 * });
 * console.log(lock.sources.length, refused[0].list); // 0 "sources"
 * ```
 */
export async function splitLockable(
  lock: ProjectLock,
): Promise<{ lock: ProjectLock; refused: RefusedEntry[] }> {
  const refused: RefusedEntry[] = [];
  const skills: LockSkill[] = [];
  const names = new Set<string>();
  for (const [index, skill] of lock.skills.entries()) {
    const written = canonicalSkill(skill);
    const failed = await checkLockSkill(written);
    if (failed !== undefined || names.has(written.name)) {
      const message = failed?.message ??
        `skill entry ${JSON.stringify(written.name)} has the name of another entry`;
      refused.push({ list: "skills", index, message });
      continue;
    }
    names.add(written.name);
    skills.push(skill);
  }
  const sources: LockSource[] = [];
  const keys = new Set<string>();
  for (const [index, source] of lock.sources.entries()) {
    const { key, url, ref, commit } = source;
    const written = { key, url, ref, commit };
    if (!isLockSource(written) || keys.has(key)) {
      const message = isLockSource(written)
        ? `source entry ${JSON.stringify(key)} has the key of another entry`
        : MESSAGES["bad-source"].replace("%", JSON.stringify(key));
      refused.push({ list: "sources", index, message });
      continue;
    }
    keys.add(key);
    sources.push(source);
  }
  return { lock: { ...lock, skills, sources }, refused };
}

/**
 * The lock's text ({@linkcode serialiseLock}) only when {@linkcode parseLock}
 * accepts its bytes: the last guard before a lock is written, so a lock that
 * its own parser would refuse (an entry, or the size) is never written.
 *
 * @example
 * ```ts
 * import { checkedLockText } from "./_format.ts";
 * const checked = await checkedLockText({ schema: "skills-anywhere-lock-1", skills: [], sources: [] });
 * console.log(checked.ok ? checked.text.length : checked.message);
 * ```
 */
export async function checkedLockText(
  lock: ProjectLock,
): Promise<{ ok: true; text: string } | Failure<LockErrorKind>> {
  const text = serialiseLock(lock);
  const parsed = await parseLock(new TextEncoder().encode(text));
  return parsed.ok ? { ok: true, text } : parsed;
}
