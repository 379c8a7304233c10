/**
 * Where command output goes. Commands write results to `out` and diagnostics
 * to `err`; tests and the browser never need a real terminal.
 *
 * Colour follows the usual conventions: `FORCE_COLOR` set to anything but
 * `0` or `false` turns it on (in pipes too), else `NO_COLOR` set to anything
 * non-empty turns it off, else a stream has colour only when it is a terminal
 * and `TERM` is not `dumb`. `--json` output never has colour.
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
  /** Whether stdin is a terminal (`mcp` then says what it is waiting for). */
  inIsTty: boolean;
  /** Whether stderr is a terminal (progress is shown only then). */
  errIsTty: boolean;
  /** Whether stdout is a terminal (tables are fitted to its width only then). */
  outIsTty: boolean;
  /** The terminal's width in columns when stdout is a terminal. */
  columns?: number;
  /** Whether text on stdout may be coloured (see the module doc). */
  color: boolean;
  /** Whether text on stderr may be coloured. */
  errColor: boolean;
}

/**
 * Whether a stream may have colour, by the conventions of the module doc.
 *
 * @example
 * ```ts
 * import { colorWanted } from "./io.ts";
 * colorWanted(true, { NO_COLOR: "1" }); // false
 * colorWanted(false, { FORCE_COLOR: "1" }); // true
 * ```
 */
export function colorWanted(isTty: boolean, env: Record<string, string | undefined>): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  if ((env.NO_COLOR ?? "") !== "") return false;
  return isTty && env.TERM !== "dumb";
}

/** The real process streams. */
export function processIo(): Io {
  const outIsTty = Boolean(process.stdout.isTTY);
  const errIsTty = Boolean(process.stderr.isTTY);
  const columns = outIsTty ? process.stdout.columns : undefined;
  return {
    out: (text) => void process.stdout.write(text),
    err: (text) => void process.stderr.write(text),
    inIsTty: Boolean(process.stdin.isTTY),
    errIsTty,
    outIsTty,
    ...(columns !== undefined && columns > 0 ? { columns } : {}),
    color: colorWanted(outIsTty, process.env),
    errColor: colorWanted(errIsTty, process.env),
  };
}
