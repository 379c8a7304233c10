/**
 * A guard in front of the stdio transport: every input line that is not JSON
 * gets a JSON-RPC "Parse error" (-32700), and JSON that is not a JSON-RPC
 * message gets "Invalid Request" (-32600), instead of being dropped in
 * silence. Valid lines pass through unchanged, so the SDK sees exactly what
 * the client sent.
 *
 * @example
 * ```ts
 * import { guardedStdin } from "./line_filter.ts";
 * const stdin = guardedStdin(process.stdin, (line) => process.stdout.write(line));
 * ```
 * @module
 */
import { Transform } from "node:stream";
import type { Readable } from "node:stream";

/** The reply for a line that cannot be served, or `undefined` for a good line. */
export function rejectLine(line: string): string | undefined {
  if (line.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return JSON.stringify({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Parse error: the line is not JSON" },
    }) + "\n";
  }
  const message = value as Record<string, unknown> | null;
  const valid = message !== null && typeof message === "object" && !Array.isArray(message) &&
    message.jsonrpc === "2.0" &&
    (typeof message.method === "string" || "result" in message || "error" in message);
  if (valid) return undefined;
  const id = message !== null && typeof message === "object" && !Array.isArray(message) &&
      (typeof message.id === "string" || typeof message.id === "number")
    ? message.id
    : null;
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    error: { code: -32600, message: "Invalid Request: not a JSON-RPC 2.0 message" },
  }) + "\n";
}

/**
 * Wraps `input` so that unusable lines are answered through `reply` and
 * removed; everything else flows on byte for byte.
 */
export function guardedStdin(input: Readable, reply: (line: string) => void): Readable {
  let pending = "";
  const filter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      pending += chunk.toString("utf8");
      let out = "";
      let newline = pending.indexOf("\n");
      while (newline >= 0) {
        const line = pending.slice(0, newline + 1);
        pending = pending.slice(newline + 1);
        const rejection = rejectLine(line.replace(/\r?\n$/, ""));
        if (rejection === undefined) out += line;
        else reply(rejection);
        newline = pending.indexOf("\n");
      }
      callback(null, out === "" ? undefined : Buffer.from(out, "utf8"));
    },
    flush(callback) {
      const rest = pending;
      pending = "";
      const rejection = rejectLine(rest);
      if (rejection !== undefined) reply(rejection);
      callback(
        null,
        rejection === undefined && rest !== "" ? Buffer.from(rest, "utf8") : undefined,
      );
    },
  });
  input.on("error", (error) => filter.destroy(error));
  return input.pipe(filter);
}
