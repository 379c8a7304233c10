/**
 * A guard in front of the stdio transport: every input line that is not JSON
 * gets a JSON-RPC "Parse error" (-32700), and JSON that is not a JSON-RPC
 * message gets "Invalid Request" (-32600), instead of being dropped in
 * silence. Valid lines pass through unchanged, so the SDK sees exactly what
 * the client sent. Input is decoded as one UTF-8 stream, so a character split
 * across two reads arrives whole. A request whose `params` is not an object is
 * -32602 (see `./protocol.ts`). A JSON-RPC batch (an array) is served only
 * under the negotiated protocol version 2025-03-26, the one that has batches:
 * its messages go to the SDK one by one and their responses come back as one
 * array; under any other version, or before `initialize` is answered, a batch
 * is -32600.
 *
 * @example
 * ```ts
 * import process from "node:process";
 * import { guardedStdin } from "./line_filter.ts";
 * const stdin = guardedStdin(process.stdin, (line) => process.stdout.write(line));
 * ```
 * @module
 */
import { Transform, Writable } from "node:stream";
import type { Readable } from "node:stream";
import { isPlainObject } from "../lib/util.ts";
import { batchesAllowed, batchRefusal, isRequestId, paramsRefusal } from "./protocol.ts";

/** One JSON-RPC error line with no request to answer (or the request's `id`). */
function errorLine(code: number, message: string, id: string | number | null = null): string {
  return JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }) + "\n";
}

/** The reply for a line that cannot be served, or `undefined` for a good line. */
function rejectLine(line: string): string | undefined {
  if (line.trim() === "") return undefined;
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return errorLine(-32700, "Parse error: the line is not JSON");
  }
  if (!isPlainObject(message)) {
    return errorLine(-32600, "Invalid Request: not a JSON-RPC 2.0 message");
  }
  const id = isRequestId(message.id) ? message.id : null;
  const valid = message.jsonrpc === "2.0" &&
    (typeof message.method === "string" || "result" in message || "error" in message);
  if (!valid) return errorLine(-32600, "Invalid Request: not a JSON-RPC 2.0 message", id);
  if (typeof message.method !== "string") return undefined;
  // The SDK drops these without a word: a request's id is a string or a number, its params an
  // object (MCP); answer them here so the client is never left waiting.
  if ("id" in message && id === null) {
    return errorLine(-32600, "Invalid Request: the id must be a string or a number");
  }
  const params = paramsRefusal(message);
  return params === undefined ? undefined : JSON.stringify(params) + "\n";
}

/**
 * Requests that have been read but not yet answered. When the client closes
 * stdin right after its last request (`printf … | dsh-skills-anywhere mcp`),
 * the input is held open until those answers are written, so no response is
 * lost at the end of a pipe.
 *
 * @example
 * ```ts
 * import { PendingRequests } from "./line_filter.ts";
 * const pending = new PendingRequests();
 * pending.received('{"jsonrpc":"2.0","id":1,"method":"ping"}');
 * pending.answered('{"jsonrpc":"2.0","id":1,"result":{}}');
 * await pending.drained(1000); // resolves at once: nothing is pending
 * ```
 */
export class PendingRequests {
  readonly #ids = new Set<string>();
  #waiters: Array<() => void> = [];
  /** The id of the `initialize` request, until it is answered. */
  #initialize?: string;
  #version?: string;
  /** Batches being answered: the ids still awaited and the responses so far. */
  readonly #batches: { ids: Set<string>; replies: unknown[] }[] = [];

  /** The protocol version the `initialize` exchange agreed on; `undefined` before (or without). */
  get version(): string | undefined {
    return this.#version;
  }

  /**
   * Opens a batch awaiting the responses to `ids` (the requests it holds), with the refusals of
   * its other messages; returns the batch's answer now when nothing is awaited (`undefined`
   * when there is nothing to answer: a batch of notifications).
   */
  batch(ids: (string | number)[], refusals: unknown[]): string | undefined {
    if (ids.length === 0) {
      return refusals.length === 0 ? undefined : JSON.stringify(refusals) + "\n";
    }
    this.#batches.push({ ids: new Set(ids.map((id) => JSON.stringify(id))), replies: refusals });
    return undefined;
  }

  /**
   * What to write for an outgoing `line`: the line itself, nothing (`undefined`) for a response
   * a batch still holds, or the batch's whole answer once its last response came.
   */
  route(line: string): string | undefined {
    if (this.#batches.length === 0) return line;
    const message = parseObject(line);
    if (message === undefined || "method" in message || message.id === undefined) return line;
    const key = JSON.stringify(message.id);
    const index = this.#batches.findIndex((batch) => batch.ids.has(key));
    if (index < 0) return line;
    const batch = this.#batches[index];
    batch.ids.delete(key);
    batch.replies.push(message);
    if (batch.ids.size > 0) return undefined;
    this.#batches.splice(index, 1);
    return JSON.stringify(batch.replies);
  }

  /**
   * Notes an incoming line: a request (method and id) becomes pending; a
   * `notifications/cancelled` settles the request it names (a cancelled
   * request gets no response).
   */
  received(line: string): void {
    const message = parseObject(line);
    if (message === undefined || typeof message.method !== "string") return;
    if (isRequestId(message.id)) {
      this.#ids.add(JSON.stringify(message.id));
      if (message.method === "initialize") this.#initialize = JSON.stringify(message.id);
    } else if (message.method === "notifications/cancelled" && isPlainObject(message.params)) {
      this.#settle(message.params.requestId);
    }
  }

  /** Notes an outgoing line; a response settles its request. */
  answered(line: string): void {
    const message = parseObject(line);
    if (message && message.id !== undefined && ("result" in message || "error" in message)) {
      if (this.#initialize !== undefined && JSON.stringify(message.id) === this.#initialize) {
        this.#initialize = undefined;
        const result = message.result;
        if (isPlainObject(result) && typeof result.protocolVersion === "string") {
          this.#version = result.protocolVersion;
        }
      }
      this.#settle(message.id);
    }
  }

  /** Settles request `id`; wakes the waiters once nothing is pending. */
  #settle(id: unknown): void {
    this.#ids.delete(JSON.stringify(id));
    if (this.#ids.size === 0) {
      for (const wake of this.#waiters.splice(0)) wake();
    }
  }

  /** Stops waiting for answers that can no longer be delivered (client gone, or a signal). */
  abandon(): void {
    this.#ids.clear();
    for (const wake of this.#waiters.splice(0)) wake();
  }

  /** Resolves once nothing is pending, or after `timeoutMs`. */
  drained(timeoutMs: number): Promise<void> {
    if (this.#ids.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.#waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The longest message accepted, in UTF-16 code units (4 Mi): far above any real request. */
const MAX_LINE_CHARS = 4 * 1024 * 1024;

function tooLarge(): string {
  return errorLine(-32600, `Invalid Request: a message longer than ${MAX_LINE_CHARS} characters`);
}

/** How long the end of input waits for answers to requests already read. */
const DRAIN_MS = 30_000;

/**
 * Splits decoded input into lines and keeps those `accept` takes; a message
 * that grows past {@linkcode MAX_LINE_CHARS} without a line break is answered
 * once through `reply` and dropped up to its end.
 */
class LineGate {
  #buffered = "";
  #discarding = false;
  readonly #accept: (line: string) => string;
  readonly #reply: (line: string) => void;

  /** `accept` gives what of a line flows on ("" for nothing). */
  constructor(accept: (line: string) => string, reply: (line: string) => void) {
    this.#accept = accept;
    this.#reply = reply;
  }

  /** Takes newly decoded text; returns the accepted complete lines, line breaks included. */
  push(text: string): string {
    // A line break searched for only in what arrived: earlier text had none.
    const searched = this.#buffered.length;
    this.#buffered += text;
    let out = "";
    let newline = this.#buffered.indexOf("\n", searched);
    while (newline >= 0) {
      const line = this.#buffered.slice(0, newline + 1);
      this.#buffered = this.#buffered.slice(newline + 1);
      if (this.#discarding) this.#discarding = false; // the tail of an oversized message
      else out += this.#accept(line);
      newline = this.#buffered.indexOf("\n");
    }
    if (this.#buffered.length > MAX_LINE_CHARS) {
      // Too large to be a request this server could serve: answer once, drop it up to its end,
      // and keep serving (the SDK would otherwise close the connection at its buffer limit).
      this.#buffered = "";
      if (!this.#discarding) this.#reply(tooLarge());
      this.#discarding = true;
    }
    return out;
  }

  /** The end of input: a last line without a line break still counts as a message. */
  end(text: string): string {
    const rest = this.#discarding ? "" : this.#buffered + text;
    this.#buffered = "";
    if (rest.trim() === "") return "";
    const accepted = this.#accept(rest);
    return accepted === "" || accepted.endsWith("\n") ? accepted : accepted + "\n";
  }
}

/** The messages of a line that is a JSON array (a batch); `undefined` for any other line. */
function batchOf(line: string): unknown[] | undefined {
  if (!line.trimStart().startsWith("[")) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A batch: refused unless the negotiated version has batches; otherwise its good messages flow
 * on as lines (returned) and `pending` gathers their responses into one array.
 */
function acceptBatch(
  batch: unknown[],
  reply: (line: string) => void,
  pending: PendingRequests | undefined,
): string {
  if (pending === undefined || !batchesAllowed(pending.version)) {
    reply(JSON.stringify(batchRefusal(pending?.version)) + "\n");
    return "";
  }
  if (batch.length === 0) {
    reply(errorLine(-32600, "Invalid Request: an empty batch"));
    return "";
  }
  const refusals: unknown[] = [];
  const ids: (string | number)[] = [];
  let out = "";
  for (const message of batch) {
    const line = JSON.stringify(message);
    const refused = isPlainObject(message) && message.method === "initialize"
      ? errorLine(
        -32600,
        "Invalid Request: initialize cannot be part of a batch",
        isRequestId(message.id) ? message.id : null,
      )
      : rejectLine(line);
    if (refused !== undefined) {
      refusals.push(JSON.parse(refused));
      continue;
    }
    const request = message as Record<string, unknown>;
    if (typeof request.method === "string" && isRequestId(request.id)) ids.push(request.id);
    pending.received(line);
    out += line + "\n";
  }
  const now = pending.batch(ids, refusals);
  if (now !== undefined) reply(now);
  return out;
}

/**
 * Wraps `input` so that unusable lines are answered through `reply` and
 * removed; everything else flows on byte for byte. When `pending` is given,
 * the end of input waits until every request read so far is answered.
 *
 * @example
 * ```ts
 * import process from "node:process";
 * import { guardedStdin } from "./line_filter.ts";
 * const stdin = guardedStdin(process.stdin, (line) => process.stdout.write(line));
 * stdin.pipe(process.stdout);
 * ```
 */
export function guardedStdin(
  input: Readable,
  reply: (line: string) => void,
  pending?: PendingRequests,
): Readable {
  const decoder = new TextDecoder();
  const gate = new LineGate((line) => {
    const text = line.replace(/\r?\n$/, "");
    const batch = batchOf(text);
    if (batch !== undefined) return acceptBatch(batch, reply, pending);
    const rejection = rejectLine(text);
    if (rejection !== undefined) reply(rejection);
    else pending?.received(line);
    return rejection === undefined ? line : "";
  }, reply);
  const filter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const out = gate.push(decoder.decode(chunk, { stream: true }));
      callback(null, out === "" ? undefined : Buffer.from(out, "utf8"));
    },
    flush(callback) {
      const rest = gate.end(decoder.decode());
      if (rest !== "") this.push(Buffer.from(rest, "utf8"));
      if (pending === undefined) callback();
      else pending.drained(DRAIN_MS).then(() => callback());
    },
  });
  input.on("error", (error) => filter.destroy(error));
  return input.pipe(filter);
}

/**
 * A pass-through for stdout, line by line, that tells `pending` which requests were answered
 * (the responses of a batch are held and written as one array once all came). Once a write
 * fails (the client closed its end: EPIPE), later output is dropped instead of raising an
 * error nobody could handle; the caller learns of the failure from `output`'s "error" event.
 *
 * @example
 * ```ts
 * import process from "node:process";
 * import { PendingRequests, trackedStdout } from "./line_filter.ts";
 * const stdout = trackedStdout(process.stdout, new PendingRequests());
 * stdout.write('{"jsonrpc":"2.0","id":1,"result":{}}\n');
 * ```
 */
export function trackedStdout(output: Writable, pending: PendingRequests): Writable {
  const decoder = new TextDecoder();
  let partial = "";
  let gone = false;
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      const text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
      partial += text;
      let out = "";
      let newline = partial.indexOf("\n");
      while (newline >= 0) {
        const line = partial.slice(0, newline);
        pending.answered(line);
        const routed = pending.route(line);
        if (routed !== undefined) out += routed + "\n";
        partial = partial.slice(newline + 1);
        newline = partial.indexOf("\n");
      }
      if (gone || out === "") return callback();
      output.write(out, (error) => {
        if (error) gone = true;
        callback();
      });
    },
  });
  // The SDK's transport waits for "drain" (and listens for "error") once per message written
  // while this buffer is full: concurrent large answers each add a listener, none leaks.
  stream.setMaxListeners(0);
  return stream;
}
