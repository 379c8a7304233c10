/**
 * Git sync: keep one shallow checkout per source in the cache, and record the
 * commits in the lock file. Every git command goes through the one runner
 * (`git.ts`): no shell, no hooks, no configuration but ours, `--` before every
 * URL or path, an explicit `--git-dir`/`--work-tree` for every command on a
 * checkout, and no repository lookup around the working directory for the
 * others (which run in the cache folder).
 *
 * The cache is hostile ground: sync obeys the cache rules of `cache.ts`
 * (one flat folder per source, touch only entries of the cache, a checkout
 * is bound to its URL), and every remove, rename and check of a cached
 * checkout goes through that module.
 *
 * Clone and update both build the new checkout in a staging folder,
 * `<cache>/.staging-<name>-<pid>-<random>`, and swap it in with renames (the
 * old checkout goes to `<cache>/.trash-<name>-<pid>-<random>` and is then
 * removed). A crash at any point leaves the previous checkout, or nothing,
 * plus staging or trash folders; the next sync removes those whose process
 * is gone and carries on. A branch or tag source asks the remote
 * (`ls-remote`) first and downloads only when the commit moved; a source
 * pinned to a commit it is already at does no network at all. A failure of
 * any kind is a `failed` result, never an exception.
 *
 * @example
 * ```ts
 * import { resolveSource } from "./_resolve.ts";
 * import { syncAll } from "./_sync.ts";
 * const cache = "/home/me/.dsh/skills-anywhere/cache";
 * const results = await syncAll([resolveSource("anthropics/skills", cache)], {
 *   lockFile: "/home/me/.dsh/skills-anywhere/lock.json",
 * });
 * ```
 * @module
 */
import { join } from "node:path";
import { errorText, KindError } from "../errors.ts";
import { WriteError, writeWhole } from "../fs/mod.ts";
import { DEFAULT_GIT_TIMEOUT_MS } from "../limits.ts";
import type { Log } from "../util.ts";
import {
  assertEntry,
  cleanLeftovers,
  type Current,
  currentCheckout,
  type Git,
  type Place,
  placeOf,
  removeEntry,
  STAGING,
  swapIn,
  tempEntry,
} from "./_cache.ts";
import {
  type CommitRecord,
  readCommitRecord,
  readSyncFailures,
  syncFailuresFile,
  writeCommitRecord,
} from "./_files.ts";
import { isLocalSource, type ResolvedSource, sourceName } from "./_resolve.ts";
import {
  GIT_MISSING,
  gitAvailable,
  GitError,
  type GitOptions,
  remoteCommit,
  runGit,
} from "./_git.ts";

/** What happened to one source. */
export type SyncStatus = "cloned" | "updated" | "unchanged" | "failed" | "skipped";

/** The reason of a sync stopped by its abort signal (a `skipped` result, never logged). */
const STOPPED = "stopped before it finished";

/** The result of syncing one source. */
export interface SyncResult {
  /** The source's one name ({@linkcode sourceName}: display name and `@<ref>`). */
  source: string;
  /** The source's lock key. */
  key: string;
  /** What the sync did. */
  status: SyncStatus;
  /** The commit checked out (40 hex), or null when the sync failed or was skipped. */
  sha: string | null;
  /** The first non-empty line of the failure, or null. */
  error: string | null;
}

/** Options of {@linkcode syncSource}. */
export interface SyncOptions {
  /** Re-fetch a source pinned to a commit even when the checkout is already there. */
  force?: boolean;
  /** Per git command, in milliseconds (default `DEFAULT_GIT_TIMEOUT_MS`, 120 s). */
  timeoutMs?: number;
  /** Aborts the running git command; the source then fails. */
  signal?: AbortSignal;
  /** Progress (`info`) and problem (`warn`) lines, without a product prefix. */
  log?: Log;
  /** Extra environment for git, on top of the process environment. */
  env?: Record<string, string>;
  /** The git executable (default `git`, looked up on PATH). */
  git?: string;
}

/** Options of {@linkcode syncAll}. */
export interface SyncAllOptions extends SyncOptions {
  /** The lock file to update with every synced commit. */
  lockFile: string;
}

const SHA_LIKE = /^[0-9a-f]{7,40}$/i;

/**
 * Whether a ref looks like a commit: 7 to 40 hexadecimal digits.
 *
 * @example
 * ```ts
 * import { isShaLike } from "./_sync.ts";
 * isShaLike("v1.0.0"); // false
 * ```
 */
export function isShaLike(ref: string | undefined): ref is string {
  return ref !== undefined && SHA_LIKE.test(ref);
}

function firstLine(error: unknown): string {
  const text = errorText(error);
  return text.split(/\r?\n/).map((line) => line.trim()).find((line) => line !== "") ?? text;
}

/**
 * Checks out the commit a SHA-like ref names. A full SHA (or a hex-named
 * branch) is fetched with depth 1; when that fails — a short SHA cannot be
 * fetched by name, and some servers refuse unadvertised commits — every
 * branch and tag is fetched in full and the ref is resolved locally.
 */
async function checkoutPinned(git: Git, dir: string, ref: string): Promise<void> {
  try {
    await git(["fetch", "-q", "--depth", "1", "--", "origin", ref], dir);
    await git(["checkout", "-q", "--detach", "FETCH_HEAD"], dir);
    return;
  } catch (error) {
    if (ref.length === 40 || !(error instanceof GitError) || error.kind !== "refused") throw error;
  }
  const shallow = await git(["rev-parse", "--is-shallow-repository"], dir) === "true";
  await git([
    "fetch",
    "-q",
    ...(shallow ? ["--unshallow"] : []),
    "--",
    "origin",
    "+refs/heads/*:refs/remotes/origin/*",
    "+refs/tags/*:refs/tags/*",
  ], dir);
  const sha = await git(["rev-parse", "--verify", "-q", `${ref}^{commit}`], dir).catch(() => {
    throw new GitError("refused", `commit ${ref} not found in the remote repository`);
  });
  await git(["checkout", "-q", "--detach", sha], dir);
}

/** Builds a fresh checkout of the source in a new staging folder and returns its path. */
async function build(git: Git, place: Place, source: ResolvedSource): Promise<string> {
  const staging = tempEntry(place, STAGING);
  await assertEntry(place, staging);
  try {
    if (isShaLike(source.ref)) {
      await git(["init", "-q", "--template=", "--", staging]);
      await git(["remote", "add", "--", "origin", source.url], staging);
      await checkoutPinned(git, staging, source.ref);
    } else {
      const branch = source.ref !== undefined ? ["--branch", source.ref] : [];
      await git([
        "clone",
        "-q",
        "--template=",
        "--depth",
        "1",
        "--single-branch",
        ...branch,
        "--",
        source.url,
        staging,
      ]);
    }
    return staging;
  } catch (error) {
    await removeEntry(place, staging).catch(() => {});
    throw error;
  }
}

/**
 * Clones or refreshes one source into `source.dir`. Never throws: a missing
 * git, or a sync stopped by `options.signal`, is `skipped` (the stop is not
 * logged: it is asked for, as when a server shuts down); any failure is
 * `failed` with the first line of the reason; both leave the previous
 * checkout (or nothing) in place.
 *
 * - no checkout, or one that is not this source's (see the module doc):
 *   build one in staging and swap it in → `cloned`;
 * - pinned to a commit the checkout is already at (and not `force`) →
 *   `unchanged`, without network;
 * - a branch or tag whose remote commit is the checkout's → `unchanged`;
 * - otherwise build the new commit in staging and swap it in → `updated`
 *   (or `unchanged` when it turns out to be the same commit).
 *
 * @example
 * ```ts
 * import { resolveSource } from "./_resolve.ts";
 * const result = await syncSource(resolveSource("o/r@v1.0.0", "/cache"), { timeoutMs: 60_000 });
 * if (result.status === "failed") console.error(result.error);
 * ```
 */
export async function syncSource(
  source: ResolvedSource,
  options: SyncOptions = {},
): Promise<SyncResult> {
  const base = { source: sourceName(source), key: source.key };
  if (!(await gitAvailable(options.git ?? "git"))) {
    return { ...base, status: "skipped", sha: null, error: GIT_MISSING };
  }
  try {
    const place = await placeOf(source);
    const git = gitAt(place, source, options);
    await cleanLeftovers(place);
    const now = await currentCheckout(git, place, source);
    if (now.state === "checkout" && await upToDate(place, source, now.sha, options)) {
      return { ...base, status: "unchanged", sha: now.sha, error: null };
    }
    if (now.state === "foreign") {
      options.log?.("info", `replacing the cached ${source.display}: ${now.why}`);
    }
    const sha = await replace(git, place, source, now);
    if (now.state !== "checkout") {
      options.log?.("info", `cloned ${source.display} @ ${sha.slice(0, 12)}`);
      return { ...base, status: "cloned", sha, error: null };
    }
    if (sha === now.sha) return { ...base, status: "unchanged", sha, error: null };
    options.log?.(
      "info",
      `updated ${source.display} ${now.sha.slice(0, 12)} -> ${sha.slice(0, 12)}`,
    );
    return { ...base, status: "updated", sha, error: null };
  } catch (error) {
    // Stopped on purpose (the server is shutting down): not a failure, nothing to report.
    if (options.signal?.aborted) return { ...base, status: "skipped", sha: null, error: STOPPED };
    const reason = firstLine(error);
    options.log?.("warn", `sync of ${source.display} failed: ${reason}`);
    return { ...base, status: "failed", sha: null, error: reason };
  }
}

/** How git runs for one source: in the cache folder, with the sync's bounds. */
function runOptionsOf(place: Place, source: ResolvedSource, options: SyncOptions): GitOptions {
  return {
    timeoutMs: options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS,
    signal: options.signal,
    env: options.env,
    git: options.git ?? "git",
    allowFileProtocol: isLocalSource(source),
    cwd: place.cache,
  };
}

/** The runner for one source: in the cache folder, on a checkout or on no repository. */
function gitAt(place: Place, source: ResolvedSource, options: SyncOptions): Git {
  const runOptions = runOptionsOf(place, source, options);
  return (args, dir) =>
    runGit(
      args,
      dir === undefined
        ? { ...runOptions, noRepository: true }
        : { ...runOptions, gitDir: join(dir, ".git"), workTree: dir },
    );
}

/**
 * Whether the checkout at `sha` is what the source names: for a commit pin,
 * without network (unless `force`); for a branch or tag, the remote's commit.
 */
async function upToDate(
  place: Place,
  source: ResolvedSource,
  sha: string,
  options: SyncOptions,
): Promise<boolean> {
  if (isShaLike(source.ref)) {
    return sha.startsWith(source.ref.toLowerCase()) && options.force !== true;
  }
  return await remoteCommit(source.url, source.ref, runOptionsOf(place, source, options)) === sha;
}

/**
 * Builds the source's commit in staging and swaps it in; returns its SHA. A
 * build that lands on the commit already checked out is removed instead.
 */
async function replace(
  git: Git,
  place: Place,
  source: ResolvedSource,
  now: Current,
): Promise<string> {
  const staging = await build(git, place, source);
  try {
    const sha = await git(["rev-parse", "--verify", "-q", "HEAD"], staging);
    if (now.state === "checkout" && sha === now.sha) await removeEntry(place, staging);
    else await swapIn(place, staging);
    return sha;
  } catch (error) {
    await removeEntry(place, staging).catch(() => {});
    throw error;
  }
}

/**
 * Syncs sources one after another — once per lock key, so two sub-paths of
 * one checkout cost one fetch — then records every result with a commit in
 * the lock file (other entries are kept) and every failure in the failures
 * file beside it (see `syncFailuresFile`; a success clears the source's
 * entry). A state file that cannot be written is a `warn` log line, not an
 * error.
 *
 * @example
 * ```ts
 * import { resolveSource } from "./_resolve.ts";
 * const results = await syncAll([resolveSource("o/r", "/cache")], { lockFile: "/state/lock.json" });
 * ```
 */
export async function syncAll(
  sources: readonly ResolvedSource[],
  options: SyncAllOptions,
): Promise<SyncResult[]> {
  const results: SyncResult[] = [];
  const synced: { source: ResolvedSource; sha: string; syncedAt: string }[] = [];
  const seen = new Set<string>();
  for (const source of sources) {
    if (seen.has(source.key)) continue;
    seen.add(source.key);
    const result = await syncSource(source, options);
    results.push(result);
    if (result.sha !== null) {
      synced.push({ source, sha: result.sha, syncedAt: new Date().toISOString() });
    }
  }
  await recordFailures(results, options);
  await recordSynced(synced, options);
  return results;
}

/** A commit a source was synced to, and when. */
export interface SyncedCommit {
  source: ResolvedSource;
  /** The commit checked out (40 hex). */
  sha: string;
  /** When (ISO 8601). */
  syncedAt: string;
}

/**
 * Records synced commits in the lock file (other entries are kept); a file
 * that cannot be written is a `warn` log line. Nothing is written for none.
 *
 * @example
 * ```ts
 * import { resolveSource } from "./_resolve.ts";
 * import { recordSynced } from "./_sync.ts";
 * const source = resolveSource("o/r", "/cache");
 * await recordSynced([{ source, sha: "a".repeat(40), syncedAt: new Date().toISOString() }], {
 *   lockFile: "/state/lock.json",
 * });
 * ```
 */
export async function recordSynced(
  synced: readonly SyncedCommit[],
  options: { lockFile: string; log?: Log },
): Promise<void> {
  if (synced.length === 0) return;
  try {
    const lock: CommitRecord = await readCommitRecord(options.lockFile, {
      warn: (message) => options.log?.("warn", message),
    });
    for (const { source, sha, syncedAt } of synced) {
      lock[source.key] = {
        url: source.url,
        ...(source.ref !== undefined ? { ref: source.ref } : {}),
        sha,
        syncedAt,
      };
    }
    await writeCommitRecord(options.lockFile, lock);
  } catch (error) {
    options.log?.("warn", notWritten(options.lockFile, error));
  }
}

/** Why a state file was not written, in one line naming it (a writer's error by its reason). */
function notWritten(file: string, error: unknown): string {
  const why = error instanceof WriteError ? error.reason : firstLine(error);
  return `could not write ${file}: ${why}`;
}

/** A checkout of one commit, built aside in the cache (or already in place), not yet in use. */
export interface StagedCommit {
  source: ResolvedSource;
  /** The commit (40 hex). */
  sha: string;
  /** `unchanged`: the checkout is already at it; else what {@linkcode StagedCommit.apply} does. */
  status: "cloned" | "updated" | "unchanged";
  /** Puts the staged checkout in place (nothing to do when `unchanged`). */
  apply(): Promise<void>;
  /** Removes the staged checkout (nothing to do when `unchanged`). */
  discard(): Promise<void>;
}

const FULL_SHA = /^[0-9a-f]{40}$/;

/**
 * Builds the source's checkout of exactly `sha` (a full commit) in a staging
 * folder of the cache, fetching that commit by name — never a branch head —
 * and leaves the checkout in use untouched until `apply`. Throws (a
 * `KindError`) when the commit cannot be had; nothing is then left behind.
 *
 * @example
 * ```ts
 * import { resolveSource } from "./_resolve.ts";
 * import { stageCommit } from "./_sync.ts";
 * // Type-checked, not run by the doc test: it fetches a commit over the network.
 * async function example() {
 *   const staged = await stageCommit(resolveSource("o/r", "/cache"), "a".repeat(40));
 *   await staged.apply();
 * }
 * ```
 */
export async function stageCommit(
  source: ResolvedSource,
  sha: string,
  options: SyncOptions = {},
): Promise<StagedCommit> {
  if (!FULL_SHA.test(sha)) {
    throw new KindError("not-commit", `${JSON.stringify(sha)} is not a full commit`);
  }
  if (!(await gitAvailable(options.git ?? "git"))) throw new GitError("stopped", GIT_MISSING);
  const place = await placeOf(source);
  const git = gitAt(place, source, options);
  await cleanLeftovers(place);
  const now = await currentCheckout(git, place, source);
  const nothing = () => Promise.resolve();
  if (now.state === "checkout" && now.sha === sha) {
    return { source, sha, status: "unchanged", apply: nothing, discard: nothing };
  }
  const staging = await build(git, place, { ...source, ref: sha }).catch((error) => {
    throw new KindError("unavailable", `commit ${sha} cannot be had: ${firstLine(error)}`);
  });
  const head = await git(["rev-parse", "--verify", "-q", "HEAD"], staging).catch(() => "");
  if (head !== sha) {
    await removeEntry(place, staging).catch(() => {});
    throw new KindError("unavailable", `commit ${sha} cannot be had from ${source.url}`);
  }
  return {
    source,
    sha,
    status: now.state === "checkout" ? "updated" : "cloned",
    apply: () => swapIn(place, staging),
    discard: () => removeEntry(place, staging),
  };
}

/**
 * Updates the failures file: each failed result's reason is recorded, each
 * synced one's entry removed. The file is written only when that changes it.
 */
async function recordFailures(results: readonly SyncResult[], options: SyncAllOptions) {
  const file = syncFailuresFile(options.lockFile);
  try {
    const failures = await readSyncFailures(file, {
      warn: (message) => options.log?.("warn", message),
    });
    let changed = false;
    const at = new Date().toISOString();
    for (const result of results) {
      if (result.status === "failed") {
        failures[result.key] = { at, error: result.error ?? "unknown error" };
        changed = true;
      } else if (result.sha !== null && Object.hasOwn(failures, result.key)) {
        delete failures[result.key];
        changed = true;
      }
    }
    if (changed) await writeWhole(file, `${JSON.stringify(failures, null, 2)}\n`);
  } catch (error) {
    options.log?.("warn", notWritten(file, error));
  }
}
