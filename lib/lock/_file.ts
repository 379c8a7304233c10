/**
 * A project's lock file on disk: `skills-anywhere.lock.json` at the project
 * root, read through the one bounded reader confined to the root (a link or a
 * folder in its place is refused) and validated by {@linkcode parseLock}.
 *
 * @example
 * ```ts
 * import { readProjectLock } from "./_file.ts";
 * const read = await readProjectLock("/repo/skills-anywhere.lock.json");
 * if (read === undefined) console.log("no lock");
 * else if (read.ok) console.log(read.lock.skills.length, read.sha256);
 * else console.log(read.kind, read.message);
 * ```
 * @module
 */
import { dirname, join } from "node:path";
import { type Failure, failure } from "../errors.ts";
import { readBounded, ReadError, type ReadErrorKind } from "../fs/mod.ts";
import { sha256Hex } from "../hash.ts";
import { MAX_LOCK_BYTES } from "../limits.ts";
import { LOCK_FILE_NAME, type LockErrorKind, parseLock, type ProjectLock } from "./_format.ts";

/** A lock read from disk: the document and the SHA-256 of its exact bytes. */
export interface ProjectLockFile {
  ok: true;
  lock: ProjectLock;
  /** The SHA-256 of the file's bytes, as a receipt names the lock it enforced. */
  sha256: string;
}

/** The result of {@linkcode readProjectLock}: undefined when there is no lock. */
export type ProjectLockRead =
  | ProjectLockFile
  | Failure<LockErrorKind | Exclude<ReadErrorKind, "missing">>
  | undefined;

/**
 * The path of the lock of the project rooted at `root`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { projectLockPath } from "./_file.ts";
 * assert.equal(projectLockPath("/repo"), "/repo/skills-anywhere.lock.json");
 * ```
 */
export function projectLockPath(root: string): string {
  return join(root, LOCK_FILE_NAME);
}

/** The file name of a person's user lock, in the tool's state folder (`~/.dsh/skills-anywhere/`). */
export const USER_LOCK_FILE_NAME = "user.lock.json";

/**
 * The path of the user lock (personal skills: user folders, plugins, user-level sources) in
 * the tool's state folder `stateDir`. Same format as a project's lock.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { userLockPath } from "./_file.ts";
 * assert.equal(userLockPath("/home/me/.dsh/skills-anywhere"), "/home/me/.dsh/skills-anywhere/user.lock.json");
 * ```
 */
export function userLockPath(stateDir: string): string {
  return join(stateDir, USER_LOCK_FILE_NAME);
}

/**
 * Reads and validates the lock at `file`: undefined when the file does not
 * exist, a failure (with the reader's or the format's `kind`) when it cannot
 * be read or is not a valid lock.
 *
 * @example
 * ```ts
 * import { readProjectLock } from "./_file.ts";
 * const read = await readProjectLock("/repo/skills-anywhere.lock.json");
 * console.log(read === undefined ? "none" : read.ok ? "valid" : read.message);
 * ```
 */
export async function readProjectLock(file: string): Promise<ProjectLockRead> {
  let bytes: Uint8Array;
  try {
    ({ bytes } = await readBounded(file, { maxBytes: MAX_LOCK_BYTES, root: dirname(file) }));
  } catch (error) {
    if (!(error instanceof ReadError)) throw error;
    if (error.kind === "missing") return undefined;
    return failure(error.kind, error.message);
  }
  const parsed = await parseLock(bytes);
  if (!parsed.ok) return parsed;
  return { ok: true, lock: parsed.lock, sha256: sha256Hex(bytes) };
}
