/**
 * Where command output goes. Commands write results to `out` and diagnostics
 * to `err`; tests and the browser never need a real terminal.
 *
 * Colour follows the usual conventions: `FORCE_COLOR` set to anything but
 * `0` or `false` turns it on (in pipes too), else `NO_COLOR` set to anything
 * non-empty turns it off, else a stream has colour only when it is a terminal
 * and `TERM` is not `dumb`. `--json` output never has colour.
 *
 * A reader that goes away (`list | head -1`: the write fails with `EPIPE`) is
 * not a failure: later output to that stream is dropped, the command ends as
 * it would have and its exit code stays its own verdict (0 for a listing, 1 for
 * a failed check), with nothing on stderr. The runtimes ignore `SIGPIPE`, so
 * the signal never kills the process (no exit 141).
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
 * import assert from "node:assert/strict";
 * import { colorWanted } from "./io.ts";
 * assert.equal(colorWanted(true, { NO_COLOR: "1" }), false);
 * assert.equal(colorWanted(false, { FORCE_COLOR: "1" }), true);
 * ```
 */
export function colorWanted(isTty: boolean, env: Record<string, string | undefined>): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  if ((env.NO_COLOR ?? "") !== "") return false;
  return isTty && env.TERM !== "dumb";
}

/** The part of a process stream {@linkcode quietWriter} uses. */
export interface OutputStream {
  /** Writes `text` (failures arrive as "error" events). */
  write(text: string): unknown;
  /** Listens for the stream's "error" events. */
  on(event: "error", listener: (error: Error) => void): unknown;
  /** How many "error" listeners the stream has. */
  listenerCount(event: "error"): number;
}

/** One writer per stream, however many runs share the process (one listener each). */
const writers = new WeakMap<OutputStream, (text: string) => void>();

/** Whether `error` says the reader of a pipe or socket went away. */
function readerGone(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "EPIPE";
}

/**
 * A writer to `stream` that stops quietly once its reader goes away (`EPIPE`): the failed write
 * and every later one are dropped (one writer per stream: calls with the same stream share it).
 * Any other write error is left to whoever else listens for
 * it (the MCP server does), else raised as before.
 *
 * @example
 * ```ts
 * import process from "node:process";
 * import { quietWriter } from "./io.ts";
 * const out = quietWriter(process.stdout);
 * out("hello\n"); // nothing is raised if stdout is a pipe whose reader has closed
 * ```
 */
export function quietWriter(stream: OutputStream): (text: string) => void {
  const known = writers.get(stream);
  if (known !== undefined) return known;
  let gone = false;
  stream.on("error", (error) => {
    if (readerGone(error)) gone = true;
    else if (stream.listenerCount("error") === 1) throw error;
  });
  const write = (text: string) => {
    if (gone) return;
    try {
      stream.write(text);
    } catch (error) {
      // A runtime that reports the closed pipe from write itself rather than as an event.
      if (!readerGone(error)) throw error;
      gone = true;
    }
  };
  writers.set(stream, write);
  return write;
}

/** The real process streams (see the module doc for a reader that goes away). */
export function processIo(): Io {
  const outIsTty = Boolean(process.stdout.isTTY);
  const errIsTty = Boolean(process.stderr.isTTY);
  const columns = outIsTty ? process.stdout.columns : undefined;
  return {
    out: quietWriter(process.stdout),
    err: quietWriter(process.stderr),
    inIsTty: Boolean(process.stdin.isTTY),
    errIsTty,
    outIsTty,
    ...(columns !== undefined && columns > 0 ? { columns } : {}),
    color: colorWanted(outIsTty, process.env),
    errColor: colorWanted(errIsTty, process.env),
  };
}

/**
 * The width human tables are fitted to: the terminal's columns when stdout is a terminal, else
 * none (piped output stays whole).
 *
 * @example
 * ```ts
 * import { processIo, tableWidth } from "./io.ts";
 * tableWidth(processIo()); // 80 on an 80-column terminal, undefined in a pipe
 * ```
 */
export function tableWidth(io: Io): number | undefined {
  return io.outIsTty ? io.columns : undefined;
}
