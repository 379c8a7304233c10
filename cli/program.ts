/**
 * The program as the shell sees it: the name users type and the exit codes
 * it ends with. A leaf module (it imports nothing), so every command file can
 * name the program and its outcomes without importing the command table that
 * loads them.
 *
 * Exit codes: {@linkcode EXIT} is the one table. A command returns a named
 * outcome (`EXIT.ok`, `EXIT.failed`, `EXIT.refused`), never a bare number;
 * `mod.ts` maps each class of thrown error to one of the same outcomes.
 *
 * @example
 * ```ts
 * import { EXIT, PROGRAM } from "./program.ts";
 * console.log(`${PROGRAM} exits ${EXIT.refused} on input it cannot use`);
 * ```
 * @module
 */

/** The program's name as users type it. */
export const PROGRAM = "dsh-skills-anywhere";

/**
 * The one table of exit codes, by outcome: 0 success, 1 a checked thing
 * failed (or an unexpected error), 2 bad usage or unusable input.
 *
 * @example
 * ```ts
 * import { EXIT } from "./program.ts";
 * const matches = false;
 * const code = matches ? EXIT.ok : EXIT.failed; // 1
 * ```
 */
export const EXIT = {
  /** Done, and whatever was checked holds. */
  ok: 0,
  /** What was checked does not hold, or nothing was found (a changed bundle, an update available). */
  failed: 1,
  /** The input cannot be used: a refused bundle, signature or lock, a sources file, a remote. */
  refused: 2,
  /** A command-line mistake: an unknown command or option, a missing `--cwd` folder. */
  usage: 2,
  /** An unexpected error (a bug): its stack is printed. */
  bug: 1,
} as const;

/** One exit code of {@linkcode EXIT}. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
