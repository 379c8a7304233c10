/**
 * The files Git sources live in: the user and project sources files
 * (`{"sources": [...]}`, a bare array also read) and the lock file that
 * records the commit each source was last synced to.
 *
 * ```
 * <dshHome>/skills-anywhere/sources.json    user sources file
 * <projectRoot>/.dsh/skills-anywhere.json    project sources file
 * <dshHome>/skills-anywhere/lock.json        {"<key>": {url, ref?, sha, syncedAt}}
 * ```
 *
 * Files are written whole by the one writer (`../fs/write.ts`): through a
 * temporary file nobody can predict, never through a link, so a reader never
 * sees half a file. They are read through
 * the bounded reader, never past {@linkcode MAX_CONFIG_BYTES}: a file larger
 * than that, a pipe or a device is refused without reading it whole.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtempSync, rmSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { readSourcesFile, userSourcesFile, writeSourcesFile } from "./_files.ts";
 * const dsh = mkdtempSync(join(tmpdir(), "dsh-"));
 * const file = userSourcesFile(dsh);
 * await writeSourcesFile(file, [...(await readSourcesFile(file)), "anthropics/skills"]);
 * assert.deepEqual(await readSourcesFile(file), [{ repo: "anthropics/skills" }]);
 * rmSync(dsh, { recursive: true });
 * ```
 * @module
 */
import { dirname, join } from "node:path";
import { errorText } from "../errors.ts";
import { readBounded, ReadError, type WriteOptions, writeWhole } from "../fs/mod.ts";
import { MAX_CONFIG_BYTES } from "../limits.ts";
import { isPlainObject, tryParseJsonBytes } from "../util.ts";
import { comparablePath, type ResolvedSource, SourceError, type SourceSpec } from "./_resolve.ts";

/** Options of {@linkcode readConfigBytes} and {@linkcode readSourcesFile}. */
export interface ConfigReadOptions {
  /**
   * Follow a symlink named by `path` (default `false`). The user's own files
   * may be links; a project's file is read only when it is a regular file.
   *
   * @default {false}
   */
  followSymlinks?: boolean;
  /**
   * The project root a project's file must really lie in (links in its
   * folders resolved, a linked `.dsh` included); default none (the user's own
   * files).
   *
   * @default none
   */
  root?: string;
}

/** One lock entry: where a source was synced from and to which commit. */
export interface CommitEntry {
  /** The clone URL (or local path). */
  url: string;
  /** The ref, only when the source has one. */
  ref?: string;
  /** The full commit SHA checked out. */
  sha: string;
  /** When the sync finished (ISO 8601). */
  syncedAt: string;
}

/** The lock file: entries keyed by source `key` (`<id>` or `<id>@<ref>`). */
export type CommitRecord = Record<string, CommitEntry>;

/**
 * The user sources file of a dsh home.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(userSourcesFile("/home/me/.dsh"), "/home/me/.dsh/skills-anywhere/sources.json");
 * ```
 */
export function userSourcesFile(dshHome: string): string {
  return join(dshHome, "skills-anywhere", "sources.json");
}

/**
 * The project sources file of a project root.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(projectSourcesFile("/work/app"), "/work/app/.dsh/skills-anywhere.json");
 * ```
 */
export function projectSourcesFile(projectRoot: string): string {
  return join(projectRoot, ".dsh", "skills-anywhere.json");
}

function optionalString(value: unknown): boolean {
  return value === undefined || typeof value === "string";
}

/** A string or `{repo, ref?, path?, rank?}` with the right types, as a spec; else undefined. */
function toSpec(entry: unknown): SourceSpec | undefined {
  if (typeof entry === "string") return entry.trim() === "" ? undefined : { repo: entry };
  if (!isPlainObject(entry)) return undefined;
  const { repo, ref, path, rank } = entry;
  if (typeof repo !== "string" || repo.trim() === "") return undefined;
  if (!optionalString(ref) || !optionalString(path)) return undefined;
  if (rank !== undefined && (typeof rank !== "number" || !Number.isFinite(rank))) return undefined;
  return specObject({
    repo,
    ref: ref as string | undefined,
    path: path as string | undefined,
    rank: rank as number | undefined,
  });
}

/** Only the known fields, in a fixed order, undefined ones left out. */
function specObject(spec: SourceSpec): SourceSpec {
  return {
    repo: spec.repo,
    ...(spec.ref !== undefined ? { ref: spec.ref } : {}),
    ...(spec.path !== undefined ? { path: spec.path } : {}),
    ...(spec.rank !== undefined ? { rank: spec.rank } : {}),
  };
}

/**
 * Reads a small configuration file whole, through the bounded reader: its
 * exact bytes, or `undefined` when it does not exist. Throws
 * {@linkcode SourceError} `unreadable` (`cannot read <path>: <why>`, the why
 * in the read error's own words) when
 * it is larger than {@linkcode MAX_CONFIG_BYTES}, not a regular file, a
 * symlink not to be followed, out of `root` (a project's file), or
 * unreadable. No message quotes the file's content.
 *
 * @throws {SourceError} When the source cannot be read as one (its `kind` says why).
 *
 * @example
 * ```ts
 * const bytes = await readConfigBytes("/work/app/.dsh/skills-anywhere.json");
 * ```
 */
export async function readConfigBytes(
  path: string,
  options: ConfigReadOptions = {},
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  try {
    const { bytes } = await readBounded(path, {
      maxBytes: MAX_CONFIG_BYTES,
      followSymlinks: options.followSymlinks ?? false,
      ...(options.root !== undefined ? { root: options.root } : {}),
    });
    return bytes;
  } catch (error) {
    if (error instanceof ReadError && error.kind === "missing") return undefined;
    const why = error instanceof ReadError && error.kind === "outside"
      ? "it leads out of the project (a link, or in a linked folder), refused for safety"
      : errorText(error);
    throw new SourceError("unreadable", `cannot read ${path}: ${why}`, { cause: error });
  }
}

/**
 * Parses the bytes of a sources file read from `path` (named in messages):
 * `{"sources": [...]}` or a bare array; string entries become `{repo}`.
 * Throws {@linkcode SourceError} like {@linkcode readSourcesFile}.
 *
 * @throws {SourceError} When the source cannot be read as one (its `kind` says why).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseSourcesFile(new TextEncoder().encode('["o/r"]'), "sources.json"), [{ repo: "o/r" }]);
 * ```
 */
export function parseSourcesFile(bytes: Uint8Array, path: string): SourceSpec[] {
  const read = tryParseJsonBytes(bytes);
  if (!read.ok) throw new SourceError("invalid-json", `${path}: ${read.message}`);
  const parsed = read.value;
  const list = Array.isArray(parsed) ? parsed : isPlainObject(parsed) ? parsed.sources : undefined;
  if (!Array.isArray(list)) {
    throw new SourceError("invalid-shape", `${path}: not {"sources": [...]}`);
  }
  return list.map((entry: unknown, i) => {
    const spec = toSpec(entry);
    if (spec === undefined) {
      throw new SourceError(
        "invalid-entry",
        `${path}: entry ${i + 1} is not a source string or {repo, ref?, path?, rank?}`,
      );
    }
    return spec;
  });
}

/**
 * Reads a sources file. A missing file is an empty list; `{"sources": [...]}`
 * and a bare array are accepted; string entries become `{repo}`. Throws
 * {@linkcode SourceError} for an unreadable or oversized file (`unreadable`,
 * see {@linkcode readConfigBytes}), invalid JSON (`invalid-json`: `<path>: not
 * valid JSON (line <l>, column <c>)`), a wrong shape (`invalid-shape`: `<path>:
 * not {"sources": [...]}`) and an invalid entry (`invalid-entry`: `<path>:
 * entry <n> is not a source …`). No message quotes the file's content.
 *
 * @example
 * ```ts
 * const specs = await readSourcesFile("/work/app/.dsh/skills-anywhere.json");
 * ```
 */
export async function readSourcesFile(
  path: string,
  options: ConfigReadOptions = {},
): Promise<SourceSpec[]> {
  const bytes = await readConfigBytes(path, options);
  return bytes === undefined ? [] : parseSourcesFile(bytes, path);
}

/**
 * Writes a sources file as `{"sources": [...]}` (2-space JSON and a newline),
 * string entries turned into `{repo}`, parent directories created, through
 * the one writer (`options`: its root and mode; a link in place of the file
 * is refused).
 *
 * @throws {WriteError} When the file cannot be written (its `kind` says why).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtempSync, rmSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * const dir = mkdtempSync(join(tmpdir(), "sources-"));
 * await writeSourcesFile(join(dir, "sources.json"), ["o/r", { repo: "o/x", ref: "v1" }]);
 * assert.deepEqual(await readSourcesFile(join(dir, "sources.json")), [{ repo: "o/r" }, { repo: "o/x", ref: "v1" }]);
 * rmSync(dir, { recursive: true });
 * ```
 */
export async function writeSourcesFile(
  path: string,
  specs: readonly (string | SourceSpec)[],
  options: WriteOptions = {},
): Promise<void> {
  const sources = specs.map((spec) => typeof spec === "string" ? { repo: spec } : specObject(spec));
  await writeWhole(path, `${JSON.stringify({ sources }, null, 2)}\n`, options);
}

function toCommitEntry(value: unknown): CommitEntry | undefined {
  if (!isPlainObject(value)) return undefined;
  const { url, ref, sha, syncedAt } = value;
  if (typeof url !== "string" || typeof sha !== "string" || typeof syncedAt !== "string") {
    return undefined;
  }
  if (!optionalString(ref)) return undefined;
  return { url, ...(typeof ref === "string" ? { ref } : {}), sha, syncedAt };
}

/** Options of {@linkcode readCommitRecord} and {@linkcode readSyncFailures}. */
export interface StateReadOptions {
  /** Told, in one line naming the file, why an existing file was not read. */
  warn?: (message: string) => void;
}

/**
 * Reads a state file that maps source keys to entries: anything unreadable,
 * oversized or not a JSON object reads as `{}` (told to `warn` when the file
 * exists); entries `toEntry` refuses are left out.
 */
async function readKeyed<T>(
  path: string,
  toEntry: (value: unknown) => T | undefined,
  options: StateReadOptions,
): Promise<Record<string, T>> {
  let parsed: unknown;
  try {
    const bytes = await readConfigBytes(path, { followSymlinks: true });
    if (bytes === undefined) return {};
    const read = tryParseJsonBytes(bytes);
    if (!read.ok) {
      options.warn?.(`${path} is ${read.message}; it was ignored`);
      return {};
    }
    parsed = read.value;
  } catch (error) {
    if (!(error instanceof SourceError)) throw error;
    options.warn?.(error.message);
    return {};
  }
  if (!isPlainObject(parsed)) return {};
  const entries: [string, T][] = [];
  for (const [key, value] of Object.entries(parsed)) {
    const entry = toEntry(value);
    if (entry !== undefined) entries.push([key, entry]);
  }
  // fromEntries defines own properties, so a "__proto__" key stays a plain key.
  return Object.fromEntries(entries);
}

/**
 * Reads the lock file. Anything unreadable, oversized or not a JSON object
 * reads as `{}` (and is told to `warn` when the file exists); entries without
 * a string `url`, `sha` and `syncedAt` are left out.
 *
 * @example
 * ```ts
 * const lock = await readCommitRecord("/home/me/.dsh/skills-anywhere/lock.json");
 * lock["github.com/anthropics/skills"]?.sha;
 * ```
 */
export async function readCommitRecord(
  path: string,
  options: StateReadOptions = {},
): Promise<CommitRecord> {
  return await readKeyed(path, toCommitEntry, options);
}

/** The last failed sync of a source. */
export interface SyncFailure {
  /** When the sync failed (ISO 8601). */
  at: string;
  /** The first line of the reason. */
  error: string;
}

/** The failures file: the last failure of each source whose last sync failed, by `key`. */
export type SyncFailures = Record<string, SyncFailure>;

/**
 * The failures file beside a lock file: `sync-failures.json`. A source's
 * entry is written when its sync fails and removed when it next succeeds, so
 * the lock keeps only commits and a reader can tell "failed" from "never
 * synced".
 *
 * @example
 * ```ts
 * syncFailuresFile("/home/me/.dsh/skills-anywhere/lock.json");
 * // "/home/me/.dsh/skills-anywhere/sync-failures.json"
 * ```
 */
export function syncFailuresFile(lockFile: string): string {
  return join(dirname(lockFile), "sync-failures.json");
}

function toSyncFailure(value: unknown): SyncFailure | undefined {
  if (!isPlainObject(value)) return undefined;
  const { at, error } = value;
  return typeof at === "string" && typeof error === "string" ? { at, error } : undefined;
}

/**
 * Reads a failures file ({@linkcode syncFailuresFile}) as leniently as the
 * lock: unreadable or malformed reads as `{}`, bad entries are left out.
 *
 * @example
 * ```ts
 * const failures = await readSyncFailures("/home/me/.dsh/skills-anywhere/sync-failures.json");
 * failures["github.com/o/r"]?.error;
 * ```
 */
export async function readSyncFailures(
  path: string,
  options: StateReadOptions = {},
): Promise<SyncFailures> {
  return await readKeyed(path, toSyncFailure, options);
}

/**
 * Writes the lock file (2-space JSON and a newline), parent directories
 * created, through the one writer. Throws a `WriteError` when the file cannot
 * be written.
 *
 * @throws {WriteError} When the file cannot be written (its `kind` says why).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtempSync, rmSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * const dir = mkdtempSync(join(tmpdir(), "state-"));
 * await writeCommitRecord(join(dir, "lock.json"), {
 *   "github.com/o/r": { url: "https://github.com/o/r.git", sha: "0".repeat(40), syncedAt: new Date().toISOString() },
 * });
 * assert.equal((await readCommitRecord(join(dir, "lock.json")))["github.com/o/r"]?.sha, "0".repeat(40));
 * rmSync(dir, { recursive: true });
 * ```
 */
export async function writeCommitRecord(path: string, lock: CommitRecord): Promise<void> {
  await writeWhole(path, `${JSON.stringify(lock, null, 2)}\n`);
}

/**
 * Concatenates lists of resolved sources in order, keeping the first of every
 * (id, ref, path) — the path compared with empty and `.` segments dropped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveSource } from "./_resolve.ts";
 * const a = resolveSource("o/r/skills", "/cache");
 * const b = resolveSource({ repo: "o/r", path: "skills" }, "/cache");
 * assert.equal(mergeSources([a], [b]).length, 1);
 * ```
 */
export function mergeSources(...lists: readonly (readonly ResolvedSource[])[]): ResolvedSource[] {
  const seen = new Set<string>();
  const out: ResolvedSource[] = [];
  for (const list of lists) {
    for (const source of list) {
      const identity = JSON.stringify([
        source.id,
        source.ref ?? null,
        comparablePath(source.path),
      ]);
      if (seen.has(identity)) continue;
      seen.add(identity);
      out.push(source);
    }
  }
  return out;
}
