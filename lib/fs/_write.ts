/**
 * The only code that writes files (the counterpart of the one reader in
 * `./mod.ts`). Every file the tool writes — a project's lock, a signature, a
 * sources file, the trust, lock and failures state, a SARIF report — is
 * written whole by {@linkcode writeWhole}; a file another program hands over
 * to be appended to (a CI runner's step files) by {@linkcode appendText}.
 *
 * How a file is written whole:
 *
 * 1. **The folder.** With a root (`within`: the project root, the DSH home,
 *    the workspace), the target must lie inside it and each folder from the
 *    root down is looked at with `lstat`: a missing one is created (`mkdir`
 *    never follows a link), a link is resolved and its real path must stay
 *    inside the real root, anything else is refused. Without a root the same
 *    walk starts at the top of the filesystem, so links the user made are
 *    followed but nothing is created through one. The folder's real path is
 *    never under `/proc`, `/sys` or `/dev`.
 * 2. **The target.** A target that is a symbolic link is refused (kind
 *    `symlink`), whatever it leads to, and so is a folder (`not-regular`);
 *    the link and what it leads to are left untouched. A pipe, socket or
 *    device in its place is replaced like a missing file (the rename never
 *    opens it), so a broken state file heals.
 * 3. **The temporary file.** `.<name>.<24 random hex digits>.tmp` in the
 *    target's real folder, created exclusively and without following a link
 *    (`O_CREAT | O_EXCL | O_NOFOLLOW`): a name nobody can plant in advance,
 *    and a file nobody else opened. It is created with the final file's
 *    permissions (an existing target's exact mode, else `mode`, default
 *    0o644, less the umask), so it is never more open than the result.
 * 4. **Write, `fsync`, rename** over the target (after one more look that it
 *    has not become a link), then `fsync` the folder where the system allows
 *    it. A reader sees the old file or the new one, never half of one; on any
 *    failure the temporary file is removed.
 *
 * Every refusal is a {@linkcode WriteError} with a `kind` and one line naming
 * the path as the caller gave it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtempSync, readFileSync, rmSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { writeWhole } from "./_write.ts";
 * const app = mkdtempSync(join(tmpdir(), "app-"));
 * await writeWhole(join(app, "skills-anywhere.lock.json"), "{}\n", {
 *   within: app,
 *   rootWords: "the project",
 * });
 * assert.equal(readFileSync(join(app, "skills-anywhere.lock.json"), "utf8"), "{}\n");
 * rmSync(app, { recursive: true });
 * ```
 * @module
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  renameSync,
  type Stats,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, parse, relative, resolve, sep } from "node:path";
import { errorText, KindError } from "../errors.ts";
import { randomHex } from "../hash.ts";
import { isSystemPath, isWithin } from "./_read.ts";

/** Why a write was refused or failed. */
export type WriteErrorKind =
  | "symlink"
  | "not-regular"
  | "not-folder"
  | "outside"
  | "unwritable";

/** The kinds that are a refusal ("refusing to write"), not a failure ("cannot write"). */
const REFUSALS: readonly WriteErrorKind[] = ["symlink", "not-regular", "outside"];

/**
 * A write that was refused or failed; `kind` tells callers which words to show. The message is
 * one line naming the path: `refusing to write <path>: <reason>` for a refusal, `cannot write
 * <path>: <reason>` for a failure (`append to` for {@linkcode appendText}).
 */
export class WriteError extends KindError<WriteErrorKind> {
  /** The path as the caller named it. */
  readonly path: string;
  /** Why, in words, without the path (for a caller that names the file itself). */
  readonly reason: string;
  /** The underlying system error code, when there was one. */
  readonly code?: string;

  /** Builds a write error of the given kind for `path`. */
  constructor(
    kind: WriteErrorKind,
    path: string,
    reason: string,
    options: { append?: boolean; code?: string } = {},
  ) {
    const verb = options.append ? "append to" : "write";
    const lead = REFUSALS.includes(kind) ? `refusing to ${verb}` : `cannot ${verb}`;
    super(kind, `${lead} ${path}: ${reason}`);
    this.path = path;
    this.reason = reason;
    if (options.code !== undefined) this.code = options.code;
  }
}

/** Options of {@linkcode writeWhole} and {@linkcode makeFolder}. */
export interface WriteOptions {
  /**
   * A folder the target must lie in, through every link (default: none, any
   * folder but `/proc`, `/sys` and "/dev"). Created when missing.
   *
   * @default none
   */
  within?: string;
  /** How messages name `within` (default: its path), as in "leads outside the project". */
  rootWords?: string;
  /**
   * Permission bits of a new file, less the umask; an existing file keeps its own.
   *
   * @default {0o644}
   */
  mode?: number;
}

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW;

function codeOf(error: unknown): string | undefined {
  return (error as { code?: string })?.code;
}

/** A system error while writing `path`, as a {@linkcode WriteError}. */
function failed(path: string, error: unknown, append = false): WriteError {
  if (error instanceof WriteError) return error;
  const code = codeOf(error);
  if (code === "ELOOP" || code === "EMLINK") {
    return new WriteError("symlink", path, "it is a symbolic link", { append, code });
  }
  if (code === "ENOTDIR") {
    return new WriteError("not-folder", path, "a folder on its path is not a folder", {
      append,
      code,
    });
  }
  return new WriteError("unwritable", path, errorText(error), { append, code });
}

function lstatOrNone(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if (codeOf(error) === "ENOENT") return undefined;
    throw error;
  }
}

/** The real path a folder link leads to, checked against the root; refuses a dangling one. */
function followFolderLink(
  link: string,
  target: string,
  root: { real: string; words: string } | undefined,
): string {
  let real: string;
  try {
    real = realpathSync(link);
  } catch {
    throw new WriteError("not-folder", target, `${link} is a link that leads nowhere`);
  }
  if (root !== undefined && !isWithin(real, root.real, { allowSame: true })) {
    throw new WriteError("outside", target, `${link} leads outside ${root.words} (to ${real})`);
  }
  return real;
}

/**
 * Walks from `start` (a real folder) down `parts`, creating what is missing
 * and resolving links (each checked against `root`); the real folder reached.
 */
function walkDown(
  start: string,
  parts: readonly string[],
  target: string,
  root: { real: string; words: string } | undefined,
): string {
  let current = start;
  for (const part of parts) {
    const next = join(current, part);
    let info = lstatOrNone(next);
    if (info === undefined) {
      try {
        mkdirSync(next);
      } catch (error) {
        if (codeOf(error) !== "EEXIST") throw failed(target, error);
      }
      info = lstatSync(next);
    }
    if (info.isSymbolicLink()) {
      current = followFolderLink(next, target, root);
      if (!lstatSync(current).isDirectory()) {
        throw new WriteError("not-folder", target, `${next} is not a folder`);
      }
    } else if (info.isDirectory()) {
      current = next;
    } else {
      throw new WriteError("not-folder", target, `${next} is not a folder`);
    }
  }
  return current;
}

/** The folder parts of `dir` below `base` (both absolute, `dir` inside `base`). */
function partsBelow(dir: string, base: string): string[] {
  const rel = relative(base, dir);
  return rel === "" ? [] : rel.split(sep);
}

/**
 * The real folder `folder` for a write of `target`: created where missing
 * without following a link, confined to the real root when one is given
 * (see the module doc).
 */
function realFolder(folder: string, target: string, options: WriteOptions): string {
  try {
    let real: string;
    if (options.within !== undefined) {
      const rootPath = resolve(options.within);
      const words = options.rootWords ?? rootPath;
      if (!isWithin(folder, rootPath, { allowSame: true })) {
        throw new WriteError("outside", target, `it lies outside ${words}`);
      }
      mkdirSync(rootPath, { recursive: true });
      const root = { real: realpathSync(rootPath), words };
      real = walkDown(root.real, partsBelow(folder, rootPath), target, root);
    } else {
      const top = parse(folder).root;
      real = walkDown(top, partsBelow(folder, top), target, undefined);
    }
    if (isSystemPath(real)) {
      throw new WriteError("outside", target, "its folder lies in /proc, /sys or /dev");
    }
    return real;
  } catch (error) {
    throw failed(target, error);
  }
}

/**
 * Creates `path` and its missing parents as {@linkcode writeWhole} does
 * (never through a link, confined to `within` when given) and returns its
 * real path.
 *
 * @throws {WriteError} When the file cannot be written (its `kind` says why).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtempSync, statSync, rmSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { makeFolder } from "./_write.ts";
 * const home = mkdtempSync(join(tmpdir(), "home-"));
 * const cache = await makeFolder(join(home, ".dsh/skills-anywhere/cache"));
 * assert.ok(statSync(cache).isDirectory());
 * rmSync(home, { recursive: true });
 * ```
 */
export function makeFolder(path: string, options: WriteOptions = {}): Promise<string> {
  try {
    const folder = resolve(path);
    return Promise.resolve(realFolder(folder, folder, options));
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * The existing target at `dest`: its mode when it is a regular file, undefined when there is
 * none or it is a pipe, socket or device (replaced like a missing file: a rename never opens
 * what it replaces); refuses a link and a folder.
 */
function existingMode(dest: string, target: string): number | undefined {
  const info = lstatOrNone(dest);
  if (info === undefined) return undefined;
  if (info.isSymbolicLink()) {
    throw new WriteError("symlink", target, "it is a symbolic link");
  }
  if (info.isDirectory()) {
    throw new WriteError("not-regular", target, "it is a folder");
  }
  return info.isFile() ? info.mode & 0o7777 : undefined;
}

/**
 * The writer's refusal of the target at `path` as it stands now (a symbolic link or a folder in
 * its place), without writing anything; undefined when {@linkcode writeWhole} would not refuse
 * the target itself. For a command that must refuse in that one line before it reads or says
 * anything else about the file.
 *
 * @example
 * ```ts
 * import { targetRefusal } from "./_write.ts";
 * const refusal = targetRefusal("/work/app/skills-anywhere.lock.json");
 * if (refusal !== undefined) throw refusal;
 * ```
 */
export function targetRefusal(path: string): WriteError | undefined {
  const target = resolve(path);
  try {
    existingMode(target, target);
    return undefined;
  } catch (error) {
    if (error instanceof WriteError) return error;
    return undefined; // Not readable now: the write itself says why.
  }
}

/** A temporary name in `folder` for `name` that nobody can guess. */
function tempName(folder: string, name: string): string {
  return join(folder, `.${name.slice(0, 64)}.${randomHex(12)}.tmp`);
}

/** Creates a fresh temporary file exclusively, without following a link; its path and handle. */
function createTemp(folder: string, name: string, mode: number): { temp: string; fd: number } {
  for (let attempt = 0;; attempt++) {
    const temp = tempName(folder, name);
    try {
      return { temp, fd: openSync(temp, CREATE_FLAGS, mode) };
    } catch (error) {
      if (codeOf(error) !== "EEXIST" || attempt >= 4) throw error;
    }
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
}

/** Flushes a folder's entries to disk where the system allows it (not on Windows). */
function syncFolder(folder: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(folder, constants.O_RDONLY | O_DIRECTORY);
    fsyncSync(fd);
  } catch {
    // Best effort: the rename itself is already atomic.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * {@linkcode writeWhole} with synchronous system calls (what it runs on).
 *
 * @throws {WriteError} When the file cannot be written (its `kind` says why).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtempSync, readFileSync, rmSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { writeWholeSync } from "./_write.ts";
 * const state = mkdtempSync(join(tmpdir(), "state-"));
 * writeWholeSync(join(state, "trust.json"), "{}\n");
 * assert.equal(readFileSync(join(state, "trust.json"), "utf8"), "{}\n");
 * rmSync(state, { recursive: true });
 * ```
 */
export function writeWholeSync(
  path: string,
  data: string | Uint8Array,
  options: WriteOptions = {},
): void {
  const target = resolve(path);
  const name = basename(target);
  if (name === "" || name === "." || name === "..") {
    throw new WriteError("not-regular", path, "not a file name");
  }
  const folder = realFolder(dirname(target), target, options);
  const dest = join(folder, name);
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  let temp: string | undefined;
  try {
    const kept = existingMode(dest, target);
    const created = createTemp(folder, name, kept ?? options.mode ?? 0o644);
    temp = created.temp;
    try {
      if (kept !== undefined) fchmodSync(created.fd, kept);
      if (!fstatSync(created.fd).isFile()) {
        throw new WriteError("not-regular", target, "not a regular file");
      }
      writeAll(created.fd, bytes);
      fsyncSync(created.fd);
    } finally {
      closeSync(created.fd);
    }
    existingMode(dest, target);
    renameSync(temp, dest);
    temp = undefined;
    syncFolder(folder);
  } catch (error) {
    throw failed(target, error);
  } finally {
    if (temp !== undefined) {
      try {
        unlinkSync(temp);
      } catch {
        // Already gone.
      }
    }
  }
}

/**
 * Writes `data` to `path` whole, as the module doc says: in the target's real
 * folder (created without following links, confined to `within`), through a
 * temporary file nobody can predict, created exclusively without following a
 * link, synced, then renamed over the target. A target that is a symbolic
 * link is refused; so is a folder. Throws
 * {@linkcode WriteError}.
 *
 * @throws {WriteError} When the file cannot be written (its `kind` says why).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtempSync, readFileSync, rmSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { writeWhole } from "./_write.ts";
 * const dsh = mkdtempSync(join(tmpdir(), "dsh-"));
 * await writeWhole(join(dsh, "skills-anywhere/trust.json"), "{}\n", { within: dsh });
 * assert.equal(readFileSync(join(dsh, "skills-anywhere/trust.json"), "utf8"), "{}\n");
 * rmSync(dsh, { recursive: true });
 * ```
 */
export function writeWhole(
  path: string,
  data: string | Uint8Array,
  options: WriteOptions = {},
): Promise<void> {
  try {
    writeWholeSync(path, data, options);
    return Promise.resolve();
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Options of {@linkcode appendText}. */
export interface AppendOptions {
  /** A folder the file must not lie in, through every link (the workspace a pull request fills). */
  notWithin?: string;
  /**
   * How messages name `notWithin`.
   *
   * @default its path
   */
  notWithinWords?: string;
}

/**
 * Appends `text` in one write to a file another program named and owns (a CI
 * runner's `GITHUB_OUTPUT` and `GITHUB_STEP_SUMMARY`): created if missing,
 * links followed (the path is the runner's, not the input's), but it must be
 * a regular file (a pipe or device is refused without blocking) and its real
 * path must not lie in `notWithin`. Throws {@linkcode WriteError}.
 *
 * @throws {WriteError} When the file cannot be written (its `kind` says why).
 *
 * @example
 * ```ts
 * import { appendText } from "./_write.ts";
 * // Type-checked, not run by the doc test: it appends to a GitHub runner's step summary.
 * async function example() {
 *   await appendText("/runner/_temp/step_summary", "## Report\n", { notWithin: "/runner/work/repo" });
 * }
 * ```
 */
export function appendText(
  path: string,
  text: string,
  options: AppendOptions = {},
): Promise<void> {
  const target = resolve(path);
  let fd: number | undefined;
  try {
    const real = lstatOrNone(target) === undefined
      ? join(realpathSync(dirname(target)), basename(target))
      : realpathSync(target);
    if (options.notWithin !== undefined) {
      const fence = realpathSync(options.notWithin);
      if (isWithin(real, fence, { allowSame: true })) {
        const words = options.notWithinWords ?? options.notWithin;
        throw new WriteError("outside", path, `it lies in ${words}`, { append: true });
      }
    }
    if (isSystemPath(real)) {
      throw new WriteError("outside", path, "it lies in /proc, /sys or /dev", { append: true });
    }
    fd = openSync(
      real,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | O_NONBLOCK | O_NOFOLLOW,
      0o644,
    );
    if (!fstatSync(fd).isFile()) {
      throw new WriteError("not-regular", path, "not a regular file", { append: true });
    }
    writeAll(fd, new TextEncoder().encode(text));
    return Promise.resolve();
  } catch (error) {
    return Promise.reject(failed(path, error, true));
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
