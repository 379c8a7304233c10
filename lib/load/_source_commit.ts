/**
 * Which commit a skill from a Git source was loaded at — proven, or not
 * claimed at all. The commit is asked of the checkout's own git directory
 * (`<checkout>/.git`, named explicitly, so nothing inside the skill folder can
 * pose as a repository), and it only counts while the skill's files are
 * exactly that commit's files: no lock left by an interrupted git, and
 *
 * ```sh
 * git --git-dir=<checkout>/.git --work-tree=<checkout> status --porcelain=v1 -z \
 *   --untracked-files=all --ignored=traditional -- <skill folder>
 * ```
 *
 * prints nothing (no modified, added, deleted, untracked or ignored file).
 * The checkout must be strictly inside the source cache, with a real `.git`
 * directory (not a symlink, not a gitfile), and the skill folder must resolve
 * to a place inside it.
 *
 * @example
 * ```ts
 * import { sourceCommit } from "./_source_commit.ts";
 * const result = await sourceCommit("/home/me/.dsh/skills-anywhere/cache/r-1a2b/skills/pdf", {
 *   checkout: "/home/me/.dsh/skills-anywhere/cache/r-1a2b",
 *   cacheDir: "/home/me/.dsh/skills-anywhere/cache",
 * });
 * if (result.ok) console.log(result.commit);
 * ```
 * @module
 */
import { lstat, realpath } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { errorText, type Failure, failure } from "../errors.ts";
import { isWithin } from "../fs/mod.ts";
import { runGit } from "../sources/mod.ts";

/** Why a commit cannot be proven. */
export type SourceCommitFailure =
  /** The cache, checkout or skill folder does not resolve. */
  | "missing"
  /** The checkout is not strictly inside the source cache. */
  | "outside-cache"
  /** The checkout has no `.git` directory of its own. */
  | "not-a-checkout"
  /** The skill folder resolves to a place outside its checkout. */
  | "outside-checkout"
  /** An interrupted git left a lock: the tree may be half updated. */
  | "locked"
  /** A file under the skill folder is not the commit's. */
  | "dirty"
  /** git could not answer. */
  | "git-failed";

/** The commit, or why it cannot be proven. */
export type SourceCommit = { ok: true; commit: string } | Failure<SourceCommitFailure>;

/** Where to look: the source's checkout and the cache that must hold it. */
export interface SourceCommitOptions {
  /** The source's checkout directory (the resolved source's `dir`). */
  checkout: string;
  /** The source cache; the checkout must be strictly inside it. */
  cacheDir: string;
  /**
   * Per git command, in milliseconds.
   *
   * @default {10_000}
   */
  timeoutMs?: number;
}

const TIMEOUT_MS = 10_000;
const COMMIT = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
/** Locks an interrupted checkout, reset or fetch leaves in the git dir. */
const LOCKS = ["index.lock", "HEAD.lock"];

/** The first entry of `git status -z` output (trimmed), as `XY "path"` with the path quoted. */
function firstChange(output: string): string {
  const entry = /^(\S+)\s+([^\0]*)/.exec(output);
  return entry === null ? JSON.stringify(output) : `${entry[1]} ${JSON.stringify(entry[2])}`;
}

/**
 * The HEAD commit of `checkout`, when the files under `skillDirectory` are
 * exactly that commit's; see the module doc for what is checked. Never throws.
 *
 * @example
 * ```ts
 * import { sourceCommit } from "./_source_commit.ts";
 * const result = await sourceCommit("/cache/r-1a2b/skills/pdf", {
 *   checkout: "/cache/r-1a2b",
 *   cacheDir: "/cache",
 * });
 * if (!result.ok) console.error(result.kind, result.message);
 * ```
 */
export async function sourceCommit(
  skillDirectory: string,
  options: SourceCommitOptions,
): Promise<SourceCommit> {
  const place = await checkoutOf(skillDirectory, options);
  if (!place.ok) return place;
  return await committedState(place, options.timeoutMs ?? TIMEOUT_MS);
}

/** Where git is asked: the checkout's own git dir and the skill folder inside it. */
interface Checkout {
  ok: true;
  checkout: string;
  gitDir: string;
  /** The skill folder relative to the checkout, with `/` separators (`""` for the checkout). */
  folder: string;
}

/** Resolves the cache, checkout and skill folder and checks how they nest, before any git. */
async function checkoutOf(
  skillDirectory: string,
  options: SourceCommitOptions,
): Promise<Checkout | Failure<SourceCommitFailure>> {
  let cache: string;
  let checkout: string;
  let skill: string;
  try {
    cache = await realpath(options.cacheDir);
    checkout = await realpath(options.checkout);
    skill = await realpath(skillDirectory);
  } catch (error) {
    return failure("missing", `cannot resolve the checkout (${errorText(error)})`);
  }
  if (!isWithin(checkout, cache)) {
    return failure("outside-cache", "the checkout is not inside the source cache");
  }
  const gitDir = join(checkout, ".git");
  const dotGit = await lstat(gitDir).catch(() => undefined);
  if (dotGit === undefined || !dotGit.isDirectory()) {
    return failure("not-a-checkout", "the checkout has no .git directory of its own");
  }
  if (!isWithin(skill, checkout, { allowSame: true })) {
    return failure("outside-checkout", "the skill is outside its checkout");
  }
  for (const lock of LOCKS) {
    if (await lstat(join(gitDir, lock)).then(() => true, () => false)) {
      return failure("locked", `the checkout has a ${lock} left by an unfinished git command`);
    }
  }
  return { ok: true, checkout, gitDir, folder: relative(checkout, skill).split(sep).join("/") };
}

/** Asks git for HEAD and for any difference under the skill folder. */
async function committedState(place: Checkout, timeoutMs: number): Promise<SourceCommit> {
  const { checkout, gitDir, folder } = place;
  const where = { gitDir, workTree: checkout, cwd: checkout, timeoutMs };
  let commit: string;
  let changes: string;
  try {
    commit = await runGit(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], where);
    changes = await runGit([
      "--no-optional-locks",
      "status",
      "--porcelain=v1",
      "-z",
      "--untracked-files=all",
      "--ignored=traditional",
      "--",
      folder === "" ? ":(top)" : `:(top,literal)${folder}`,
    ], where);
  } catch (error) {
    return failure("git-failed", `git failed: ${errorText(error)}`);
  }
  if (!COMMIT.test(commit)) return failure("git-failed", "HEAD is not a full commit");
  if (changes !== "") {
    return failure("dirty", `the files differ from commit ${commit}: ${firstChange(changes)}`);
  }
  return { ok: true, commit };
}
