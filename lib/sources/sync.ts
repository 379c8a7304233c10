/**
 * Git sync: keep one shallow checkout per source in the cache, and record the
 * commits in the lock file. The only code that runs git. Git runs without a
 * shell (`spawn` with an argument list), without prompts
 * (`GIT_TERMINAL_PROMPT=0`), without LFS downloads, with a per-command timeout,
 * a 4 MiB output cap and an optional abort signal. Repository-locating
 * variables such as `GIT_DIR` are removed from its environment, so a caller
 * running inside a git hook cannot redirect it at another repository.
 *
 * A source without a checkout is cloned into `<dir>.tmp-<pid>` and renamed to
 * `<dir>` only when complete, so a failure never leaves a half clone. A
 * failure of any kind is a `failed` result, never an exception.
 *
 * @example
 * ```ts
 * import { resolveSource } from "./resolve.ts";
 * import { syncAll } from "./sync.ts";
 * const cache = "/home/me/.dsh/skills-anywhere/cache";
 * const results = await syncAll([resolveSource("anthropics/skills", cache)], {
 *   lockFile: "/home/me/.dsh/skills-anywhere/lock.json",
 * });
 * ```
 * @module
 */
import { mkdir, rename, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import process from "node:process";
import { type LockFile, readLock, writeLock } from "./files.ts";
import type { ResolvedSource } from "./resolve.ts";
import { DEFAULT_GIT_TIMEOUT_MS, GIT_MISSING, gitAvailable, GitError, runGit } from "./git.ts";

export { GIT_MISSING, gitAvailable };

/** What happened to one source. */
export type SyncStatus = "cloned" | "updated" | "unchanged" | "failed" | "skipped";

/** The result of syncing one source. */
export interface SyncResult {
  /** The source's display name. */
  source: string;
  /** The source's lock key. */
  key: string;
  status: SyncStatus;
  /** The commit checked out (40 hex), or null when the sync failed or was skipped. */
  sha: string | null;
  /** The first non-empty line of the failure, or null. */
  error: string | null;
}

/** Receives progress lines (`info`) and problems (`warn`). */
export type SyncLog = (level: "info" | "warn", message: string) => void;

/** Options of {@linkcode syncSource}. */
export interface SyncOptions {
  /** Re-fetch a source pinned to a commit even when the checkout is already there. */
  force?: boolean;
  /** Per git command, in milliseconds (default 120000). */
  timeoutMs?: number;
  /** Aborts the running git command; the source then fails. */
  signal?: AbortSignal;
  /** Progress and warning lines. */
  log?: SyncLog;
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

/** The default timeout of one git command. */
export const DEFAULT_SYNC_TIMEOUT_MS = DEFAULT_GIT_TIMEOUT_MS;

const SHA_LIKE = /^[0-9a-f]{7,40}$/i;

/**
 * Whether a ref looks like a commit: 7 to 40 hexadecimal digits.
 *
 * @example
 * ```ts
 * isShaLike("3f2a9c1"); // true
 * isShaLike("main"); // false
 * ```
 */
export function isShaLike(ref: string | undefined): boolean {
  return ref !== undefined && SHA_LIKE.test(ref);
}

async function isCheckout(dir: string): Promise<boolean> {
  try {
    return (await stat(join(dir, ".git"))).isDirectory();
  } catch {
    return false;
  }
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split(/\r?\n/).map((line) => line.trim()).find((line) => line !== "") ?? text;
}

type Git = (args: readonly string[], cwd?: string) => Promise<string>;

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

async function defaultBranch(git: Git, dir: string): Promise<string> {
  try {
    const ref = await git(["symbolic-ref", "-q", "refs/remotes/origin/HEAD"], dir);
    const prefix = "refs/remotes/origin/";
    if (ref.startsWith(prefix) && ref.length > prefix.length) return ref.slice(prefix.length);
  } catch {
    // not recorded by the clone: ask the remote
  }
  try {
    const remote = await git(["ls-remote", "--symref", "origin", "HEAD"], dir);
    for (const line of remote.split("\n")) {
      const match = /^ref: refs\/heads\/(\S+)\s+HEAD$/.exec(line.trim());
      if (match !== null) return match[1];
    }
  } catch {
    // fall back to whatever the remote's HEAD is
  }
  return "HEAD";
}

async function cloneFresh(git: Git, source: ResolvedSource): Promise<void> {
  await rm(source.dir, { recursive: true, force: true });
  await mkdir(dirname(source.dir), { recursive: true });
  const staging = `${source.dir}.tmp-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  try {
    if (source.ref !== undefined && isShaLike(source.ref)) {
      await mkdir(staging);
      await git(["init", "-q"], staging);
      await git(["remote", "add", "--", "origin", source.url], staging);
      await checkoutPinned(git, staging, source.ref);
    } else {
      const branch = source.ref !== undefined ? ["--branch", source.ref] : [];
      await git([
        "clone",
        "-q",
        "--depth",
        "1",
        "--single-branch",
        ...branch,
        "--",
        source.url,
        staging,
      ]);
    }
    await rename(staging, source.dir);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Clones or refreshes one source into `source.dir`. Never throws: a missing
 * git is `skipped`, any failure is `failed` with the first line of the reason
 * and leaves the previous checkout (or nothing) in place.
 *
 * - no checkout: clone into `<dir>.tmp-<pid>`, rename to `<dir>` → `cloned`;
 * - pinned to a commit the checkout is already at (and not `force`) → `unchanged`;
 * - otherwise fetch the ref (or the default branch) at depth 1 and check it
 *   out detached → `updated` when HEAD moved, else `unchanged`.
 *
 * @example
 * ```ts
 * import { resolveSource } from "./resolve.ts";
 * const result = await syncSource(resolveSource("o/r@v1.0.0", "/cache"), { timeoutMs: 60_000 });
 * if (result.status === "failed") console.error(result.error);
 * ```
 */
export async function syncSource(
  source: ResolvedSource,
  options: SyncOptions = {},
): Promise<SyncResult> {
  const base = { source: source.display, key: source.key };
  const gitCommand = options.git ?? "git";
  if (!(await gitAvailable(gitCommand))) {
    return { ...base, status: "skipped", sha: null, error: GIT_MISSING };
  }
  const runOptions = {
    timeoutMs: options.timeoutMs ?? DEFAULT_SYNC_TIMEOUT_MS,
    signal: options.signal,
    env: options.env,
    git: gitCommand,
    allowFileProtocol: source.url.startsWith("/") || source.url.startsWith("file:"),
  };
  const git: Git = (args, cwd) => runGit(args, { ...runOptions, cwd });
  const { ref } = source;

  try {
    if (!(await isCheckout(source.dir))) {
      await cloneFresh(git, source);
      const sha = await git(["rev-parse", "HEAD"], source.dir);
      options.log?.("info", `skills-anywhere: cloned ${source.display} @ ${sha.slice(0, 12)}`);
      return { ...base, status: "cloned", sha, error: null };
    }

    const before = await git(["rev-parse", "HEAD"], source.dir);
    if (ref !== undefined && isShaLike(ref)) {
      if (before.startsWith(ref.toLowerCase()) && options.force !== true) {
        return { ...base, status: "unchanged", sha: before, error: null };
      }
      await checkoutPinned(git, source.dir, ref);
    } else {
      const target = ref ?? await defaultBranch(git, source.dir);
      await git(["fetch", "-q", "--depth", "1", "--", "origin", target], source.dir);
      await git(["checkout", "-q", "--detach", "FETCH_HEAD"], source.dir);
    }
    const after = await git(["rev-parse", "HEAD"], source.dir);
    if (after === before) return { ...base, status: "unchanged", sha: after, error: null };
    options.log?.(
      "info",
      `skills-anywhere: updated ${source.display} ${before.slice(0, 12)} -> ${after.slice(0, 12)}`,
    );
    return { ...base, status: "updated", sha: after, error: null };
  } catch (error) {
    const reason = firstLine(error);
    options.log?.("warn", `skills-anywhere: sync of ${source.display} failed: ${reason}`);
    return { ...base, status: "failed", sha: null, error: reason };
  }
}

/**
 * Syncs sources one after another — once per lock key, so two sub-paths of
 * one checkout cost one fetch — then records every result with a commit in
 * the lock file (other entries are kept). A lock file that cannot be written
 * is a `warn` log line, not an error.
 *
 * @example
 * ```ts
 * import { resolveSource } from "./resolve.ts";
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
  if (synced.length === 0) return results;

  try {
    const lock: LockFile = await readLock(options.lockFile);
    for (const { source, sha, syncedAt } of synced) {
      lock[source.key] = {
        url: source.url,
        ...(source.ref !== undefined ? { ref: source.ref } : {}),
        sha,
        syncedAt,
      };
    }
    await writeLock(options.lockFile, lock);
  } catch (error) {
    options.log?.(
      "warn",
      `skills-anywhere: could not write ${options.lockFile}: ${firstLine(error)}`,
    );
  }
  return results;
}
