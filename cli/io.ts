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
 * Output is written to the descriptors themselves, synchronously (see
 * {@linkcode descriptorWriter}): a command's last line is out before it exits,
 * a pipe someone left non-blocking is waited on rather than failed with
 * `EAGAIN`, and a quick `list` does not pay for the runtime's stream objects
 * (some 3 ms of a compiled binary's start).
 *
 * @example
 * ```ts
 * import { processIo } from "./io.ts";
 * processIo().out("hello\n");
 * ```
 * @module
 */
import { fstatSync, statSync, writeSync } from "node:fs";
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

/** One writer per descriptor, however many runs share the process. */
const writers = new Map<1 | 2, (text: string) => void>();

/** The code (or, under Deno, the class name) of a failed write. */
function failure(error: unknown): string | undefined {
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  return typeof code === "string" ? code : typeof name === "string" ? name : undefined;
}

/** Whether a failed write says the reader of a pipe or socket went away. */
function readerGone(error: unknown): boolean {
  const why = failure(error);
  return why === "EPIPE" || why === "BrokenPipe";
}

/** Whether a failed write says a non-blocking pipe is full for now. */
function wouldBlock(error: unknown): boolean {
  const why = failure(error);
  return why === "EAGAIN" || why === "EWOULDBLOCK" || why === "WouldBlock";
}

/** How long a write to a full non-blocking pipe waits before it tries again (milliseconds). */
const FULL_PIPE_WAIT_MS = 1;
/** What the wait sleeps on (nothing ever wakes it: it times out). */
const sleeper = new Int32Array(new SharedArrayBuffer(4));
const encoder = new TextEncoder();
const NEWLINE = 0x0a;

/** Deno's own stdout and stderr, when running under Deno. */
const denoStdio = (globalThis as {
  Deno?: {
    stdout: { writeSync(p: Uint8Array): number };
    stderr: { writeSync(p: Uint8Array): number };
  };
}).Deno;

/**
 * The most bytes a pipe takes whole or not at all (`PIPE_BUF`: 4096 on Linux, 512 on macOS, the
 * least POSIX allows elsewhere).
 */
const PIPE_BUF = process.platform === "linux" ? 4096 : 512;
/** The line buffer of Deno's stdout (Rust's `LineWriter`), which takes shorter text unwritten. */
const DENO_LINE_BUFFER = 1024;

/**
 * One write of `bytes` to `fd`: how many were taken. Under Deno its own stdio is written, whose
 * `writeSync` is one write and a flush: `node:fs`'s loops until all is written and, failing part
 * way (`EAGAIN` on a full pipe), says nothing of what it wrote.
 */
function writeOnce(fd: 1 | 2, bytes: Uint8Array): number {
  if (denoStdio !== undefined) {
    return (fd === 1 ? denoStdio.stdout : denoStdio.stderr).writeSync(bytes);
  }
  return writeSync(fd, bytes, 0, bytes.length);
}

/**
 * Where the piece of `bytes` from `start` ends when a write may hold at most `most` bytes: after
 * its last newline when it has one, so that no piece holds a newline it does not end with.
 */
function pieceEnd(bytes: Uint8Array, start: number, most: number): number {
  const end = Math.min(bytes.length, start + most);
  const newline = bytes.lastIndexOf(NEWLINE, end - 1);
  return newline >= start ? newline + 1 : end;
}

/** An empty write: under Deno, a flush of its stdout's line buffer. */
const EMPTY = new Uint8Array(0);

/** Whether Deno's stdout takes `piece` into its line buffer (short, no newline) before it writes. */
function heldByLineBuffer(piece: Uint8Array): boolean {
  return piece.length < DENO_LINE_BUFFER && piece.lastIndexOf(NEWLINE) === -1;
}

/**
 * Writes all of `bytes` to `fd`; false when the reader went away. A full non-blocking pipe is
 * waited on and written again. Deno's stdout needs care there (one write then a flush through a
 * line buffer; a failed flush reports nothing of what the write took, and keeps the rest buffered
 * for the next write), so under Deno stdout gets pieces no pipe splits ({@linkcode PIPE_BUF}),
 * each ending at its last newline: a piece that ends at a newline, or is too long for the line
 * buffer, is written whole or not at all; a shorter piece with no newline is taken into the buffer
 * whatever the flush says, and empty writes flush it.
 */
function writeAll(fd: 1 | 2, bytes: Uint8Array): boolean {
  const lineBuffered = denoStdio !== undefined && fd === 1;
  let start = 0;
  while (start < bytes.length) {
    const end = lineBuffered ? pieceEnd(bytes, start, PIPE_BUF) : bytes.length;
    let pending = bytes.subarray(start, end);
    // Set once Deno's line buffer holds the piece: only a flush is owed.
    let flushOwed = false;
    while (flushOwed || pending.length > 0) {
      try {
        pending = pending.subarray(writeOnce(fd, pending));
        flushOwed = false;
      } catch (error) {
        if (readerGone(error)) return false;
        if (!wouldBlock(error)) throw error;
        if (lineBuffered && heldByLineBuffer(pending)) {
          flushOwed = true;
          pending = EMPTY;
        }
        Atomics.wait(sleeper, 0, 0, FULL_PIPE_WAIT_MS);
      }
    }
    start = end;
  }
  return true;
}

/**
 * A writer straight to the file descriptor `fd` (1 for stdout, 2 for stderr), synchronous: each
 * call returns once its bytes are written, so nothing is lost however the process ends, and a
 * start-up need not build the runtime's stream objects. A pipe left non-blocking by whoever shares
 * it (a write fails with `EAGAIN` while the reader is behind) is waited on and written again, as a
 * blocking write would. Once the reader goes away (`EPIPE`) the failed write and every later one
 * are dropped. Any other write error is raised. Calls with the same `fd` share one writer.
 *
 * @example
 * ```ts
 * import { descriptorWriter } from "./io.ts";
 * const out = descriptorWriter(1);
 * out("hello\n"); // nothing is raised if stdout is a pipe whose reader has closed
 * ```
 */
export function descriptorWriter(fd: 1 | 2): (text: string) => void {
  const known = writers.get(fd);
  if (known !== undefined) return known;
  let gone = false;
  const write = (text: string) => {
    if (gone || text === "") return;
    gone = !writeAll(fd, encoder.encode(text));
  };
  writers.set(fd, write);
  return write;
}

/** The device number of `/dev/null` (`undefined` where there is none), asked on first need. */
let nullDevice: number | undefined | null = null;

/**
 * Whether descriptor `fd` (0, 1 or 2) is a terminal. A descriptor that is no character device (a
 * pipe, a file, a socket) is not, and neither is `/dev/null`, which one `fstat` settles; only for
 * another character device is the runtime's stream for it made and asked.
 */
function isTerminal(fd: 0 | 1 | 2): boolean {
  try {
    const info = fstatSync(fd);
    if (!info.isCharacterDevice()) return false;
    if (nullDevice === null) nullDevice = statSync("/dev/null", { throwIfNoEntry: false })?.rdev;
    if (info.rdev === nullDevice) return false;
  } catch {
    return false;
  }
  const stream = fd === 0 ? process.stdin : fd === 1 ? process.stdout : process.stderr;
  return Boolean(stream.isTTY);
}

/**
 * The real process streams, written through {@linkcode descriptorWriter} (see the module doc for a
 * reader that goes away).
 */
export function processIo(): Io {
  const outIsTty = isTerminal(1);
  const errIsTty = isTerminal(2);
  const columns = outIsTty ? process.stdout.columns : undefined;
  return {
    out: descriptorWriter(1),
    err: descriptorWriter(2),
    inIsTty: isTerminal(0),
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
