/**
 * The only code that opens skill files (and, through `./write.ts`, re-exported
 * here, the only code that writes files). Every read is bounded, refuses anything
 * that is not a regular file, opens without blocking (a named pipe never hangs
 * the reader) and, unless asked otherwise, without following a final symlink.
 *
 * Links. A read that may follow a final symlink still opens without following
 * first, so the common case (no link) costs no extra system call; only a link
 * is resolved (`realpath`) and checked by {@linkcode resolveLink}: its real
 * path must not lie under `/proc`, `/sys` or `/dev` (see
 * {@linkcode isSystemPath}) and, when the caller names a boundary (`within`, a
 * real directory), must lie inside it. The resolved path is then opened
 * without following. A refused link is a `ReadError` of kind `outside` that
 * carries the link and its target as written. A project's own files are read
 * with `root` (the project root): their real path, links in their folders
 * included, must lie inside the root's, whatever the final component is.
 *
 * Sizes. A whole-file read compares the open handle's reported size with the
 * bytes it read whenever a link was followed, the read looks unusual (nothing
 * read, or too much) or the caller asks (`verifySize`): a file whose size
 * disagrees with what it reads (procfs and sysfs report 0 or 4096 bytes, or a
 * file being written) is a `size-mismatch`, never content. Not on every read:
 * `fstat` costs several times an open under Deno's `node:fs`, and without a
 * link a file lies where the caller's walk found it, in a folder already known
 * not to be under `/proc`, `/sys` or `/dev` (discovery checks each root's real
 * path and every link it meets).
 *
 * @example
 * ```ts
 * import { decodeUtf8, readBounded } from "./_read.ts";
 * import assert from "node:assert/strict";
 * import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * const dir = mkdtempSync(join(tmpdir(), "skill-"));
 * const path = join(dir, "SKILL.md");
 * writeFileSync(path, "---\nname: demo\n---\n");
 * const { bytes } = await readBounded(path, { maxBytes: 131072, followSymlinks: true });
 * assert.equal(decodeUtf8(bytes), "---\nname: demo\n---\n");
 * rmSync(dir, { recursive: true });
 * ```
 * @module
 */
import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readlinkSync,
  readSync,
  realpathSync,
} from "node:fs";
import { lstat } from "node:fs/promises";
import { isAbsolute, relative, sep } from "node:path";
import type { BigIntStats } from "node:fs";
import { errorText, KindError } from "../errors.ts";
import { formatBytes } from "../limits.ts";
import { concatBytes, NOT_UTF8, tryDecodeUtf8 } from "../util.ts";

/** Why a bounded read failed. */
export type ReadErrorKind =
  | "missing"
  | "not-regular"
  | "symlink"
  | "too-large"
  | "not-utf8"
  | "changed"
  | "grew"
  | "outside"
  | "size-mismatch"
  | "unreadable";

/** A refused symlink: where it is, what it says, where it really leads. */
export interface RefusedLink {
  /** The link's own path (absolute). */
  path: string;
  /** Its target as written (`readlink`), or the real path when that cannot be read. */
  target: string;
  /** The real path it resolves to. */
  real: string;
}

/** A read that could not be completed; `kind` tells callers which message to show. */
export class ReadError extends KindError<ReadErrorKind> {
  /** The underlying system error code, when there was one. */
  readonly code?: string;
  /** For kind `outside`: the link that was refused. */
  readonly link?: RefusedLink;

  /** Builds a read error of the given kind. */
  constructor(kind: ReadErrorKind, message: string, code?: string, link?: RefusedLink) {
    super(kind, message);
    this.code = code;
    if (link !== undefined) this.link = link;
  }
}

/** Options of {@linkcode readBounded}. */
export interface BoundedReadOptions {
  /** The largest accepted size in bytes; one byte more is an error. */
  maxBytes: number;
  /**
   * Follow a final symlink (default `false`: refuse it). A followed link never
   * leads under `/proc`, `/sys` or `/dev`.
   *
   * @default {false}
   */
  followSymlinks?: boolean;
  /** With `followSymlinks`: a real directory a followed link must resolve inside. */
  within?: string;
  /**
   * A directory the file must really lie in, as a project's own files must
   * (settings, sources, lock, allowed signers): the file's
   * real path (every link on the way resolved, a linked folder included)
   * must be inside the real path of `root`, else a `ReadError` of kind
   * `outside`; with or without `followSymlinks`. Checked once the file is
   * open (a final link not to be followed is refused as `symlink` first).
   */
  root?: string;
  /** Always compare the handle's size with the bytes read (one more system call). */
  verifySize?: boolean;
}

/** The result of {@linkcode readBounded}. */
export interface BoundedRead {
  /** Exactly the bytes read. */
  bytes: Uint8Array<ArrayBuffer>;
}

const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const CHUNK = 64 * 1024;

/** Flags for a read-only, non-blocking open; `followSymlinks` false adds no-follow. */
function openFlags(followSymlinks: boolean): number {
  return constants.O_RDONLY | O_NONBLOCK | (followSymlinks ? 0 : O_NOFOLLOW);
}

/** Turns a system error from open/stat/read into a {@linkcode ReadError}. */
function toReadError(error: unknown): ReadError {
  if (error instanceof ReadError) return error;
  const code = (error as { code?: string })?.code;
  if (code === "ENOENT" || code === "ENOTDIR") {
    return new ReadError("missing", "no such file or directory", code);
  }
  if (code === "ELOOP" || code === "EMLINK") {
    return new ReadError("symlink", "refusing to follow a symbolic link", code);
  }
  // A directory cannot be read; a pipe or terminal opened without blocking says "try again".
  if (code === "EISDIR" || code === "EAGAIN" || code === "EWOULDBLOCK") {
    return new ReadError("not-regular", "not a regular file", code);
  }
  return new ReadError("unreadable", errorText(error), code);
}

/** The one wording of kind `too-large`, quoting the limit. */
function tooLarge(maxBytes: number): string {
  return `larger than ${formatBytes(maxBytes)}`;
}

/** The scratch buffer's first size: most SKILL.md files fit, and a small buffer is quick to make. */
const FIRST_SCRATCH_BYTES = 64 * 1024;

// Doubled while a read fills it, never past a read's limit (its cap plus the one byte that proves a
// file too large): a start-up does not pay for zeroing the 16 MiB a large cap allows.
let scratch = new Uint8Array(FIRST_SCRATCH_BYTES);

/** Pseudo-filesystems whose files are never skill text, whatever link leads there. */
const SYSTEM_DIRS: readonly string[] = ["/proc", "/sys", "/dev"];

/**
 * Whether a real path lies in a pseudo-filesystem ({@linkcode SYSTEM_DIRS}),
 * or is one of them: `/proc/123/environ` does, `/home/me/.claude/skills` not.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(isSystemPath("/proc/self/environ"), true);
 * ```
 */
export function isSystemPath(real: string): boolean {
  return SYSTEM_DIRS.some((dir) => real === dir || real.startsWith(dir + "/"));
}

/** The target of link `path` as written, or `fallback` when it cannot be read. */
function linkText(path: string, fallback: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return fallback;
  }
}

/**
 * Resolves `path` (a symlink, or a path with links in it) to its real path and
 * checks it: never under `/proc`, `/sys` or `/dev`, and inside `within` (a real
 * directory; the directory itself counts) when given. Throws a `ReadError`:
 * `outside` (with the refused link) or, when nothing is there, `missing`.
 * `link` names the link to report, when it is not `path` itself.
 *
 * @throws {ReadError} When the file cannot be read as asked (its `kind` says why).
 *
 * @example
 * ```ts
 * // Type-checked, not run by the doc test: it resolves a link in the project at /repo.
 * function example() {
 *   const real = resolveLink("/repo/.claude/skills/alias", { within: "/repo" });
 * }
 * ```
 */
export function resolveLink(
  path: string,
  options: { within?: string; link?: string } = {},
): string {
  let real: string;
  try {
    real = realpathSync(path);
  } catch (error) {
    throw toReadError(error);
  }
  const { within } = options;
  if (
    isSystemPath(real) || (within !== undefined && !isWithin(real, within, { allowSame: true }))
  ) {
    const link = options.link ?? path;
    throw new ReadError("outside", `symlink leads outside: ${linkText(link, real)}`, undefined, {
      path: link,
      target: linkText(link, real),
      real,
    });
  }
  return real;
}

/** Refuses `path` unless its real path lies inside the real path of `root` (see `root`). */
function confine(path: string, root: string): void {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch (error) {
    throw toReadError(error);
  }
  resolveLink(path, { within: realRoot });
}

function isLinkError(error: unknown): boolean {
  const code = (error as { code?: string })?.code;
  return code === "ELOOP" || code === "EMLINK";
}

/**
 * Opens `path` read-only without blocking and without following a final
 * link; with `followSymlinks`, a final link is resolved and checked by
 * {@linkcode resolveLink} and its real path opened (still without following).
 */
function openChecked(path: string, options: BoundedReadOptions): { fd: number; followed: boolean } {
  try {
    return { fd: openSync(path, openFlags(false)), followed: false };
  } catch (error) {
    if (!options.followSymlinks || !isLinkError(error)) throw toReadError(error);
  }
  const real = resolveLink(path, { within: options.within });
  try {
    return { fd: openSync(real, openFlags(false)), followed: true };
  } catch (error) {
    throw toReadError(error);
  }
}

/**
 * Reads a whole regular file of at most `maxBytes` bytes, synchronously (a
 * few direct system calls, no event-loop round trips: discovery reads
 * thousands of small files this way).
 *
 * The file is opened without blocking, so a named pipe or device never hangs
 * the reader, and without following a final link unless `followSymlinks` (see
 * the module doc). At most `maxBytes + 1` bytes are ever read. The open handle
 * is asked whether it is a regular file of the size read only when a link was
 * followed, the read looks unusual (nothing read, or too much) or
 * `verifySize` is set, which keeps the common case at open, read, read, close.
 *
 * @throws {ReadError} When the file cannot be read as asked (its `kind` says why).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * const dir = mkdtempSync(join(tmpdir(), "skill-"));
 * const path = join(dir, "SKILL.md");
 * writeFileSync(path, "---\nname: demo\n---\n");
 * const { bytes } = readBoundedSync(path, { maxBytes: 1024 });
 * assert.equal(bytes.length, 19);
 * assert.throws(() => readBoundedSync(path, { maxBytes: 10 }), { kind: "too-large" });
 * rmSync(dir, { recursive: true });
 * ```
 */
export function readBoundedSync(path: string, options: BoundedReadOptions): BoundedRead {
  // Read first: the read may replace `scratch` with a larger buffer.
  const size = readIntoScratch(path, options);
  return { bytes: scratch.slice(0, size) };
}

/**
 * {@linkcode readBoundedSync} decoded as strict UTF-8 ({@linkcode decodeUtf8}),
 * straight from the read buffer (no copy of the bytes): how discovery reads
 * thousands of skill files.
 *
 * @throws {ReadError} When the file cannot be read as asked (its `kind` says why).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * const dir = mkdtempSync(join(tmpdir(), "skill-"));
 * const path = join(dir, "SKILL.md");
 * writeFileSync(path, "---\nname: demo\n---\n");
 * assert.equal(readBoundedTextSync(path, { maxBytes: 1024 }), "---\nname: demo\n---\n");
 * rmSync(dir, { recursive: true });
 * ```
 */
export function readBoundedTextSync(path: string, options: BoundedReadOptions): string {
  const size = readIntoScratch(path, options);
  return decodeUtf8(scratch.subarray(0, size));
}

/** Reads `path` into the shared scratch buffer as {@linkcode readBoundedSync} says; the byte count. */
function readIntoScratch(path: string, options: BoundedReadOptions): number {
  const { maxBytes } = options;
  const limit = maxBytes + 1;
  const { fd, followed } = openChecked(path, options);
  try {
    // After the open: a final link is already refused (or followed and checked) by then.
    if (options.root !== undefined) confine(path, options.root);
    let total = 0;
    while (total < limit) {
      if (total === scratch.length) {
        const grown = new Uint8Array(Math.min(limit, scratch.length * 2));
        grown.set(scratch);
        scratch = grown;
      }
      const room = Math.min(limit, scratch.length) - total;
      const bytesRead = readSync(fd, scratch, total, room, null);
      if (bytesRead === 0) break;
      total += bytesRead;
    }
    if (followed || options.verifySize || total === 0 || total > maxBytes) {
      const info = fstatSync(fd);
      if (!info.isFile()) throw new ReadError("not-regular", "not a regular file");
      if (total > maxBytes) throw new ReadError("too-large", tooLarge(maxBytes));
      if (info.size !== total) {
        throw new ReadError("size-mismatch", `reports ${info.size} bytes but read ${total}`);
      }
    }
    return total;
  } catch (error) {
    throw toReadError(error);
  } finally {
    closeSync(fd);
  }
}

/**
 * {@linkcode readBoundedSync} for callers that prefer a promise.
 *
 * @throws {ReadError} Rejects with one when the file cannot be read as asked (its `kind` says why).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * const dir = mkdtempSync(join(tmpdir(), "skill-"));
 * const path = join(dir, "SKILL.md");
 * writeFileSync(path, "---\nname: demo\n---\n");
 * const { bytes } = await readBounded(path, { maxBytes: 1024 });
 * assert.equal(bytes.length, 19);
 * rmSync(dir, { recursive: true });
 * ```
 */
export function readBounded(path: string, options: BoundedReadOptions): Promise<BoundedRead> {
  try {
    return Promise.resolve(readBoundedSync(path, options));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Decodes UTF-8 strictly ({@linkcode tryDecodeUtf8}): malformed bytes are a
 * `ReadError` of kind `not-utf8`, never U+FFFD, and a leading byte-order mark
 * stays in the text.
 *
 * @throws {ReadError} When the bytes are not UTF-8 (kind `not-utf8`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeUtf8 } from "./_read.ts";
 * assert.equal(decodeUtf8(new Uint8Array([0x68, 0x69])), "hi");
 * ```
 */
export function decodeUtf8(bytes: Uint8Array): string {
  const text = tryDecodeUtf8(bytes);
  if (text === undefined) throw new ReadError("not-utf8", NOT_UTF8);
  return text;
}

/**
 * `lstat` with big-integer times, or `undefined` when nothing is there.
 *
 * @example
 * ```ts
 * const info = await lstatOrUndefined("/tmp");
 * ```
 */
export async function lstatOrUndefined(path: string): Promise<BigIntStats | undefined> {
  try {
    return await lstat(path, { bigint: true });
  } catch (error) {
    const code = (error as { code?: string })?.code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw toReadError(error);
  }
}

/**
 * Whether two stats describe the same unchanged file: device, inode, mode,
 * size, modification and change times.
 *
 * @example
 * ```ts
 * import { lstatSync } from "node:fs";
 * const before = lstatSync("/tmp", { bigint: true });
 * const after = lstatSync("/tmp", { bigint: true });
 * sameIdentity(before, after); // false after a change
 * ```
 */
export function sameIdentity(a: BigIntStats, b: BigIntStats): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.mode === b.mode && a.size === b.size &&
    a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs;
}

/** Options of {@linkcode streamRegularFile}. */
export interface StreamOptions {
  /** The largest accepted size; reading stops one byte past it. */
  maxBytes: number;
  /** The identity the caller saw (from `lstat`); the open handle must match it. */
  expected?: BigIntStats;
  /** Receives every chunk in order (for example a hash's `update`); the chunk is reused after. */
  onChunk(chunk: Uint8Array): void;
  /** Also return the bytes read. */
  keep?: boolean;
  /**
   * Check the handle's identity again after the last byte (default `true`).
   * A caller that re-checks every file itself afterwards (the bundle reader
   * re-walks the whole tree) may skip it.
   *
   * @default {true}
   */
  verifyAfter?: boolean;
}

/** The result of {@linkcode streamRegularFile}. */
export interface StreamResult {
  /** Bytes read in total. */
  size: number;
  /** The bytes, when `keep` was set. */
  bytes?: Uint8Array<ArrayBuffer>;
}

/**
 * Streams one regular file in 64 KiB chunks without following a final
 * symlink and without blocking on special files. The open handle must match
 * `expected`, must not grow past `maxBytes`, and must still have the same
 * identity (size included) after the last byte; otherwise a `changed` or
 * `grew` error. Callers that need the tree stable re-check it afterwards.
 *
 * @throws {ReadError} Rejects with one when the file cannot be read as asked (its `kind` says why).
 *
 * @example
 * ```ts
 * import { createHash } from "node:crypto";
 * import assert from "node:assert/strict";
 * import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * const dir = mkdtempSync(join(tmpdir(), "skill-"));
 * const path = join(dir, "SKILL.md");
 * writeFileSync(path, "---\nname: demo\n---\n");
 * const hash = createHash("sha256");
 * await streamRegularFile(path, { maxBytes: 1 << 20, onChunk: (c) => hash.update(c) });
 * assert.equal(hash.digest("hex").length, 64);
 * rmSync(dir, { recursive: true });
 * ```
 */
export function streamRegularFile(
  path: string,
  options: StreamOptions,
): Promise<StreamResult> {
  try {
    return Promise.resolve(streamRegularFileSync(path, options));
  } catch (error) {
    return Promise.reject(error);
  }
}

// One chunk buffer for every synchronous stream: chunks are handed to `onChunk` (which must not
// keep them) and copied when `keep` is set.
const chunkBuffer = new Uint8Array(CHUNK);

/**
 * {@linkcode streamRegularFile} with synchronous system calls (what it runs on).
 *
 * @throws {ReadError} When the file cannot be read as asked (its `kind` says why).
 *
 * @example
 * ```ts
 * import { streamRegularFileSync } from "./_read.ts";
 * import assert from "node:assert/strict";
 * import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * const dir = mkdtempSync(join(tmpdir(), "skill-"));
 * const path = join(dir, "SKILL.md");
 * writeFileSync(path, "---\nname: demo\n---\n");
 * const { size } = streamRegularFileSync(path, { maxBytes: 1 << 20, onChunk: () => {} });
 * assert.equal(size, 19);
 * rmSync(dir, { recursive: true });
 * ```
 */
export function streamRegularFileSync(path: string, options: StreamOptions): StreamResult {
  let fd: number;
  try {
    fd = openSync(path, openFlags(false));
  } catch (error) {
    throw toReadError(error);
  }
  try {
    const before = checkBefore(fd, options);
    const kept: Uint8Array[] = [];
    const size = streamChunks(
      fd,
      Number(before.size),
      options.onChunk,
      options.keep ? kept : undefined,
    );
    if (options.verifyAfter ?? true) checkAfter(fd, before, options.maxBytes);
    return options.keep ? { size, bytes: concatBytes(kept) } : { size };
  } catch (error) {
    throw toReadError(error);
  } finally {
    closeSync(fd);
  }
}

/** The open handle's identity: a regular file, the one the caller saw, within `maxBytes`. */
function checkBefore(fd: number, options: StreamOptions): BigIntStats {
  const before = fstatSync(fd, { bigint: true });
  if (!before.isFile()) throw new ReadError("not-regular", "not a regular file");
  if (options.expected !== undefined && !sameIdentity(options.expected, before)) {
    throw new ReadError("changed", "changed before it could be read");
  }
  if (before.size > BigInt(options.maxBytes)) {
    throw new ReadError("too-large", tooLarge(options.maxBytes));
  }
  return before;
}

/**
 * Reads exactly the size the handle reported, chunk by chunk. Growth is
 * caught by the identity check after the last chunk (size and times), so no
 * extra read is spent probing for the end.
 */
function streamChunks(
  fd: number,
  expectedSize: number,
  onChunk: (chunk: Uint8Array) => void,
  kept: Uint8Array[] | undefined,
): number {
  let size = 0;
  while (size < expectedSize) {
    const want = Math.min(CHUNK, expectedSize - size);
    const bytesRead = readSync(fd, chunkBuffer, 0, want, null);
    if (bytesRead === 0) break;
    size += bytesRead;
    const chunk = chunkBuffer.subarray(0, bytesRead);
    onChunk(chunk);
    kept?.push(chunk.slice());
  }
  if (size !== expectedSize) throw new ReadError("changed", "changed while being read");
  return size;
}

/** The handle after the last byte: not grown past `maxBytes`, identity unchanged. */
function checkAfter(fd: number, before: BigIntStats, maxBytes: number): void {
  const after = fstatSync(fd, { bigint: true });
  if (after.size > BigInt(maxBytes)) {
    throw new ReadError("grew", `grew past ${formatBytes(maxBytes)}`);
  }
  if (!sameIdentity(before, after)) throw new ReadError("changed", "changed while being read");
}

/**
 * Whether `child` lies inside `parent` (separator-aware: `..notes` inside
 * `parent` is inside, `../x` is not). `parent` itself counts only with
 * `allowSame`. Both paths should be absolute and, where links matter, real.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(isWithin("/a/b/..c", "/a/b"), true);
 * assert.equal(isWithin("/a/bc", "/a/b"), false);
 * ```
 */
export function isWithin(
  child: string,
  parent: string,
  options: { allowSame?: boolean } = {},
): boolean {
  const rel = relative(parent, child);
  if (rel === "") return options.allowSame ?? false;
  return rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

/**
 * A remembered `realpath`: each path is resolved once, and a path that cannot be resolved stands
 * for itself.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { realPaths } from "./_read.ts";
 * const realOf = realPaths();
 * assert.equal(realOf("/nowhere/at/all"), "/nowhere/at/all");
 * ```
 */
export function realPaths(): (path: string) => string {
  const real = new Map<string, string>();
  return (path) => {
    let known = real.get(path);
    if (known === undefined) {
      try {
        known = realpathSync(path);
      } catch {
        known = path;
      }
      real.set(path, known);
    }
    return known;
  };
}
