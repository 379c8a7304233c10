/**
 * The Git source cache's rules: what sync may touch in the cache, and when a
 * cached checkout (or a local repository) may be used at all.
 *
 * The cache is hostile ground — a checkout holds whatever its repository
 * holds, symlinks included, and anyone who can write the cache folder can
 * leave anything in it — so every use of it obeys three rules:
 *
 * - **one flat folder per source**: a source's checkout is
 *   `<cache>/<checkoutName>` (see `resolve.ts`); a source whose folder name
 *   is not the one its URL and ref give is refused, and nothing is done;
 * - **touch only entries of the cache**: before any remove or rename, the
 *   entry's parent must resolve (`realpath`) to the cache folder itself and
 *   its name must hold no separator; an entry is `lstat`ed, and a symlink or
 *   file is unlinked, never followed;
 * - **a checkout is bound to its URL**: one whose `remote.origin.url` is not
 *   the source's URL (or that is not a folder, has no `.git` folder, has a
 *   `.git/index.lock`, or has no commit) is replaced, never adopted.
 *
 * New checkouts are built in staging folders,
 * `<cache>/.staging-<name>-<pid>-<random>`, and swapped in with renames (the
 * old checkout goes to `<cache>/.trash-<name>-<pid>-<random>` and is then
 * removed); the folders a process that is gone left behind are removed
 * before the next use. The sync itself (clone, fetch, the lock file) is
 * `sync.ts`.
 *
 * @example
 * ```ts
 * import { resolveSource } from "./_resolve.ts";
 * import { checkLocalRepository, purgeCheckout } from "./_cache.ts";
 * const source = resolveSource("/srv/skills", "/home/me/.dsh/skills-anywhere/cache");
 * const check = await checkLocalRepository(source);
 * if (!check.ok) console.error(check.kind);
 * await purgeCheckout(source, { lockFile: "/home/me/.dsh/skills-anywhere/lock.json" });
 * ```
 * @module
 */
import { lstat, readdir, realpath, rename, rm, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import process from "node:process";
import { type Failure, failure, KindError } from "../errors.ts";
import { randomHex } from "../hash.ts";
import { makeFolder, writeWhole } from "../fs/mod.ts";
import {
  readCommitRecord,
  readSyncFailures,
  syncFailuresFile,
  writeCommitRecord,
} from "./_files.ts";
import { checkoutName, isLocalSource, type ResolvedSource } from "./_resolve.ts";

/**
 * Where a source lives: the cache folder's real path, and the checkout's name in it.
 *
 * @example
 * ```ts
 * import type { Place } from "./_cache.ts";
 * const place: Place = { cache: "/cache", name: "o-r-1a2b", dir: "/cache/o-r-1a2b" };
 * ```
 */
export interface Place {
  /** The real path of the cache folder. */
  cache: string;
  /** The checkout's folder name. */
  name: string;
  /** `<cache>/<name>`. */
  dir: string;
}

/** The name prefix of a staging folder: `<cache>/.staging-<name>-<pid>-<random>`. */
export const STAGING = ".staging-";
/** The name prefix of a trash folder: `<cache>/.trash-<name>-<pid>-<random>`. */
export const TRASH = ".trash-";

/**
 * The source's place, after checking that its folder is the one its URL and ref give (the
 * first rule of the module doc); makes the cache folder when it is missing. Throws a
 * `KindError` of kind `not-cache-folder` otherwise, before anything is done.
 *
 * @example
 * ```ts
 * import { mkdtempSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { resolveSource } from "./_resolve.ts";
 * import { placeOf } from "./_cache.ts";
 * const cache = join(mkdtempSync(join(tmpdir(), "sources-")), "cache");
 * const place = await placeOf(resolveSource("o/r", cache));
 * console.log(place.dir);
 * ```
 */
export async function placeOf(source: ResolvedSource): Promise<Place> {
  const name = basename(source.dir);
  if (name !== checkoutName(source)) {
    throw new KindError(
      "not-cache-folder",
      `${source.dir} is not the cache folder of ${source.display}; nothing was done`,
    );
  }
  const cacheDir = dirname(source.dir);
  await makeFolder(cacheDir);
  const cache = await realpath(cacheDir);
  return { cache, name, dir: join(cache, name) };
}

/**
 * Refuses (a `KindError` of kind `not-cache-entry`) unless `target` is an entry directly in
 * the (real) cache folder: the second rule of the module doc.
 *
 * @example
 * ```ts
 * import { mkdtempSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { assertEntry, placeOf } from "./_cache.ts";
 * import { resolveSource } from "./_resolve.ts";
 * const cache = join(mkdtempSync(join(tmpdir(), "sources-")), "cache");
 * const place = await placeOf(resolveSource("o/r", cache));
 * await assertEntry(place, place.dir); // fine; "/etc" would throw
 * ```
 */
export async function assertEntry(place: Place, target: string): Promise<void> {
  const name = basename(target);
  const flat = name !== "" && name !== "." && name !== ".." && !/[/\\]/.test(name);
  if (
    !flat || join(place.cache, name) !== target || await realpath(dirname(target)) !== place.cache
  ) {
    throw new KindError(
      "not-cache-entry",
      `refusing to touch ${target}: it is not an entry of the cache folder`,
    );
  }
}

/**
 * Removes an entry of the cache: a folder recursively, a symlink or file by unlinking it (never
 * followed). Throws a `KindError` of kind `not-cache-entry` when `target` is not an entry
 * directly in the real cache folder.
 *
 * @example
 * ```ts
 * import { mkdtempSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { placeOf, removeEntry, STAGING, tempEntry } from "./_cache.ts";
 * import { resolveSource } from "./_resolve.ts";
 * const cache = join(mkdtempSync(join(tmpdir(), "sources-")), "cache");
 * const place = await placeOf(resolveSource("o/r", cache));
 * await removeEntry(place, tempEntry(place, STAGING));
 * ```
 */
export async function removeEntry(place: Place, target: string): Promise<void> {
  await assertEntry(place, target);
  const info = await lstat(target).catch(() => undefined);
  if (info === undefined) return;
  if (info.isDirectory()) await rm(target, { recursive: true, force: true });
  else await unlink(target);
}

async function renameEntry(place: Place, from: string, to: string): Promise<void> {
  await assertEntry(place, from);
  await assertEntry(place, to);
  await rename(from, to);
}

/**
 * A fresh staging or trash entry name for the place (`kind` is {@linkcode STAGING} or
 * {@linkcode TRASH}), holding this process's id and a random part.
 *
 * @example
 * ```ts
 * import { mkdtempSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { placeOf, STAGING, tempEntry } from "./_cache.ts";
 * import { resolveSource } from "./_resolve.ts";
 * const cache = join(mkdtempSync(join(tmpdir(), "sources-")), "cache");
 * const staging = tempEntry(await placeOf(resolveSource("o/r", cache)), STAGING);
 * ```
 */
export function tempEntry(place: Place, kind: string): string {
  return join(place.cache, `${kind}${place.name}-${process.pid}-${randomHex(4)}`);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === "EPERM";
  }
}

/**
 * Removes this source's staging and trash folders left by a process that is gone.
 *
 * @example
 * ```ts
 * import { mkdtempSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { cleanLeftovers, placeOf } from "./_cache.ts";
 * import { resolveSource } from "./_resolve.ts";
 * const cache = join(mkdtempSync(join(tmpdir(), "sources-")), "cache");
 * await cleanLeftovers(await placeOf(resolveSource("o/r", cache)));
 * ```
 */
export async function cleanLeftovers(place: Place): Promise<void> {
  for (const entry of await readdir(place.cache)) {
    for (const kind of [STAGING, TRASH]) {
      const prefix = `${kind}${place.name}-`;
      if (!entry.startsWith(prefix)) continue;
      const pid = Number(entry.slice(prefix.length).split("-")[0]);
      if (Number.isSafeInteger(pid) && pid > 0 && processAlive(pid)) continue;
      await removeEntry(place, join(place.cache, entry));
    }
  }
}

/**
 * Runs git on the checkout at `dir` (explicit git dir and work tree), or on no repository.
 *
 * @example
 * ```ts
 * import type { Git } from "./_cache.ts";
 * // Type-checked, not run by the doc test: it runs git on a checkout in the reader's cache.
 * async function example(git: Git) {
 *   const sha = await git(["rev-parse", "HEAD"], "/cache/o-r-1a2b");
 * }
 * ```
 */
export type Git = (args: readonly string[], dir?: string) => Promise<string>;

/**
 * What is at a source's place now: nothing, something that is not this source's checkout (and
 * why), or its checkout at a commit.
 *
 * @example
 * ```ts
 * import type { Current } from "./_cache.ts";
 * const now: Current = { state: "foreign", why: "it is a checkout of another URL" };
 * ```
 */
export type Current =
  | { state: "absent" }
  | { state: "foreign"; why: string }
  | { state: "checkout"; sha: string };

/**
 * What is at the source's place, by the third rule of the module doc: a checkout is this
 * source's only when it is a folder holding a `.git` folder, no `.git/index.lock`, a
 * `remote.origin.url` equal to the source's URL, and a commit; anything else is `foreign`
 * (to be replaced, never adopted).
 *
 * @example
 * ```ts
 * import { currentCheckout, type Git, placeOf } from "./_cache.ts";
 * import { resolveSource } from "./_resolve.ts";
 * // Type-checked, not run by the doc test: it runs git on the reader's cache.
 * async function example(git: Git) {
 *   const source = resolveSource("o/r", "/cache");
 *   const now = await currentCheckout(git, await placeOf(source), source);
 *   if (now.state === "foreign") console.log(now.why);
 * }
 * ```
 */
export async function currentCheckout(
  git: Git,
  place: Place,
  source: ResolvedSource,
): Promise<Current> {
  const info = await lstat(place.dir).catch(() => undefined);
  if (info === undefined) return { state: "absent" };
  if (!info.isDirectory()) return { state: "foreign", why: "it is not a folder" };
  const dotGit = await lstat(join(place.dir, ".git")).catch(() => undefined);
  if (dotGit === undefined || !dotGit.isDirectory()) {
    return { state: "foreign", why: "it is not a checkout" };
  }
  if (await lstat(join(place.dir, ".git", "index.lock")).then(() => true, () => false)) {
    return { state: "foreign", why: "an earlier git command was interrupted in it" };
  }
  let url: string;
  try {
    url = await git(["config", "--get", "remote.origin.url"], place.dir);
  } catch {
    return { state: "foreign", why: "it has no origin" };
  }
  if (url !== source.url) return { state: "foreign", why: "it is a checkout of another URL" };
  try {
    return {
      state: "checkout",
      sha: await git(["rev-parse", "--verify", "-q", "HEAD"], place.dir),
    };
  } catch {
    return { state: "foreign", why: "it has no commit" };
  }
}

/**
 * Puts `staging` at the source's place: the old entry goes to the trash first, then is removed;
 * when the swap fails, the old entry is put back.
 *
 * @example
 * ```ts
 * import { mkdirSync, mkdtempSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { placeOf, STAGING, swapIn, tempEntry } from "./_cache.ts";
 * import { resolveSource } from "./_resolve.ts";
 * const cache = join(mkdtempSync(join(tmpdir(), "sources-")), "cache");
 * const place = await placeOf(resolveSource("o/r", cache));
 * const staging = tempEntry(place, STAGING);
 * mkdirSync(staging);
 * await swapIn(place, staging);
 * ```
 */
export async function swapIn(place: Place, staging: string): Promise<void> {
  let trash: string | undefined;
  if (await lstat(place.dir).then(() => true, () => false)) {
    trash = tempEntry(place, TRASH);
    await renameEntry(place, place.dir, trash);
  }
  try {
    await renameEntry(place, staging, place.dir);
  } catch (error) {
    if (trash !== undefined) await renameEntry(place, trash, place.dir).catch(() => {});
    throw error;
  }
  if (trash !== undefined) await removeEntry(place, trash);
}

/** What {@linkcode purgeCheckout} did: deleted the checkout, or found none. */
export type PurgeResult = { ok: true; deleted: boolean } | Failure<"refused">;

/**
 * Deletes a source's cached checkout, by the cache rules of the module doc:
 * only the source's own flat folder directly in the (real) cache folder, and
 * only when it is a real folder — a symlink or file at its place is refused
 * and left alone, so nothing outside the cache is ever reached. A missing
 * cache or checkout is `deleted: false`. The source's lock and failure
 * entries are forgotten too, so a later `add` starts from "never synced".
 *
 * @example
 * ```ts
 * import { resolveSource } from "./_resolve.ts";
 * import { purgeCheckout } from "./_cache.ts";
 * const source = resolveSource("o/r", "/home/me/.dsh/skills-anywhere/cache");
 * const result = await purgeCheckout(source, { lockFile: "/home/me/.dsh/skills-anywhere/lock.json" });
 * if (!result.ok) console.error(result.message);
 * ```
 */
export async function purgeCheckout(
  source: ResolvedSource,
  options: { lockFile: string },
): Promise<PurgeResult> {
  const name = basename(source.dir);
  const cacheDir = dirname(source.dir);
  if (name !== checkoutName(source)) {
    return failure("refused", `${source.dir} is not the cache folder of ${source.display}`);
  }
  if (await lstat(cacheDir).then(() => false, () => true)) return { ok: true, deleted: false };
  const cache = await realpath(cacheDir);
  const place: Place = { cache, name, dir: join(cache, name) };
  const info = await lstat(place.dir).catch(() => undefined);
  let deleted = false;
  if (info !== undefined) {
    if (!info.isDirectory()) {
      return failure("refused", `${source.dir} is not a folder (a link or a file); left alone`);
    }
    await removeEntry(place, place.dir);
    deleted = true;
  }
  await forget(source.key, options.lockFile);
  return { ok: true, deleted };
}

/** Removes `key` from the commit record and failures files, writing only a file that held it. */
async function forget(key: string, lockFile: string): Promise<void> {
  const lock = await readCommitRecord(lockFile);
  if (Object.hasOwn(lock, key)) {
    delete lock[key];
    await writeCommitRecord(lockFile, lock);
  }
  const failuresFile = syncFailuresFile(lockFile);
  const failures = await readSyncFailures(failuresFile);
  if (Object.hasOwn(failures, key)) {
    delete failures[key];
    await writeWhole(failuresFile, `${JSON.stringify(failures, null, 2)}\n`);
  }
}

/** Why a local source cannot be added: its path is missing, not a folder, or not a repository. */
export type LocalRepositoryCheck =
  | { ok: true }
  | Failure<"missing" | "not-folder" | "not-repository">;

/**
 * Checks that a local source (see `isLocalSource`) names an existing Git
 * repository: a folder holding `.git` (a folder, or the file of a worktree
 * or submodule), or a bare repository (`HEAD`, `objects/` and `refs/`).
 * Any other source passes without a look at the disk.
 *
 * @example
 * ```ts
 * import { resolveSource } from "./_resolve.ts";
 * import { checkLocalRepository } from "./_cache.ts";
 * const check = await checkLocalRepository(resolveSource("/srv/skills", "/cache"));
 * if (!check.ok) console.error(check.message);
 * ```
 */
export async function checkLocalRepository(source: ResolvedSource): Promise<LocalRepositoryCheck> {
  if (!isLocalSource(source)) return { ok: true };
  const path = source.url;
  const info = await stat(path).catch(() => undefined);
  if (info === undefined) return failure("missing", `${path} does not exist`);
  if (!info.isDirectory()) return failure("not-folder", `${path} is not a folder`);
  const has = async (name: string, folder: boolean) => {
    const entry = await stat(join(path, name)).catch(() => undefined);
    return entry !== undefined && (folder ? entry.isDirectory() : true);
  };
  if (await has(".git", false)) return { ok: true };
  if (await has("HEAD", false) && await has("objects", true) && await has("refs", true)) {
    return { ok: true };
  }
  return failure("not-repository", `${path} is not a Git repository`);
}
