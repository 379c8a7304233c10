/**
 * Where command output goes. Commands write results to `out` and diagnostics
 * to `err`; tests and the browser never need a real terminal.
 *
 * @example
 * ```ts
 * import { processIo } from "./io.ts";
 * processIo().out("hello\n");
 * ```
 * @module
 */
import process from "node:process";

/** The CLI's prefix on the diagnostics it writes; the core's messages carry none. */
export const PREFIX = "dsh-skills-anywhere: ";

/** Output channels of one command run. */
export interface Io {
  /** Writes to stdout (results). */
  out(text: string): void;
  /** Writes to stderr (diagnostics, usage, progress). */
  err(text: string): void;
  /** Whether stderr is a terminal (progress is shown only then). */
  errIsTty: boolean;
}

/** The real process streams. */
export function processIo(): Io {
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    errIsTty: Boolean(process.stderr.isTTY),
  };
}
