/**
 * Small helpers every package needs, defined once. Browser-safe: this module
 * imports nothing (hashing with `node:crypto` and path containment live in
 * `lib/fs/`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareCodeUnits } from "./util.ts";
 * assert.deepEqual(["b", "B", "a"].sort(compareCodeUnits), ["B", "a", "b"]);
 * ```
 * @module
 */

/** A diagnostic sink: `warn` lines go to stderr in the CLI, `info` only when verbose. */
export type Log = (level: "info" | "warn", message: string) => void;

/** A log that drops everything. */
export const silentLog: Log = () => {};

/**
 * Orders strings by UTF-16 code units, the same on every machine and locale
 * (never `localeCompare`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareCodeUnits } from "./util.ts";
 * assert.equal(compareCodeUnits("a", "b"), -1);
 * ```
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * True for a plain object (a YAML/JSON mapping): not null, not an array.
 *
 * @example
 * ```ts
 * import { isPlainObject } from "./util.ts";
 * console.log(isPlainObject({}), isPlainObject([]), isPlainObject(null)); // true false false
 * ```
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Joins byte chunks into one array.
 *
 * @example
 * ```ts
 * import { concatBytes } from "./util.ts";
 * console.log(concatBytes([new Uint8Array([1]), new Uint8Array([2, 3])])); // Uint8Array [1, 2, 3]
 * ```
 */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array<ArrayBuffer> {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** The one wording of malformed UTF-8 (a `ReadError` of kind `not-utf8` says the same). */
export const NOT_UTF8 = "not valid UTF-8";

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Decodes UTF-8 strictly, without `node:` (the browser page uses it):
 * malformed bytes give `undefined`, never U+FFFD; a leading byte-order mark
 * stays in the text.
 *
 * @example
 * ```ts
 * import { tryDecodeUtf8 } from "./util.ts";
 * console.log(tryDecodeUtf8(new Uint8Array([0x68, 0x69])), tryDecodeUtf8(new Uint8Array([0xff]))); // "hi" undefined
 * ```
 */
export function tryDecodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/** What {@linkcode tryParseJsonBytes} gives: the value, or which step refused the bytes and why. */
export type JsonBytes =
  | { ok: true; value: unknown }
  | { ok: false; kind: "not-utf8" | "not-json"; message: string };

/**
 * The offset of the first byte at which `text` stops being JSON (RFC 8259),
 * or `text.length` when it ends too early; `undefined` when it is JSON. A
 * plain scanner, so an error can be placed without the parser's message,
 * which quotes the input (V8: `Unexpected token 'A', "AWS_SECRET"... is not
 * valid JSON`).
 */
function jsonErrorOffset(text: string): number | undefined {
  let i = 0;
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string) => text.startsWith(word, i) ? (i += word.length) : fail();
  const string = () => {
    i++;
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) fail();
      if (text[i] === "\\") {
        i++;
        if (text[i] === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 4;
        } else if (!'"\\/bfnrt'.includes(text[i] ?? "x")) fail();
      }
      i++;
    }
    if (i >= text.length) fail();
    i++;
  };
  const value = (depth: number): void => {
    if (depth > 2000) fail(); // deeper than any config file: placed here, never a stack overflow
    space();
    const c = text[i];
    if (c === "{" || c === "[") {
      const close = c === "{" ? "}" : "]";
      i++;
      space();
      if (text[i] === close) return void i++;
      for (;;) {
        if (c === "{") {
          space();
          if (text[i] !== '"') fail();
          string();
          space();
          if (text[i] !== ":") fail();
          i++;
        }
        value(depth + 1);
        space();
        if (text[i] === ",") i++;
        else if (text[i] === close) return void i++;
        else fail();
      }
    }
    if (c === '"') return string();
    if (c === "t") return void literal("true");
    if (c === "f") return void literal("false");
    if (c === "n") return void literal("null");
    const number = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/.exec(text.slice(i));
    if (number === null) fail();
    i += number![0].length;
  };
  try {
    value(0);
    space();
    return i < text.length ? i : undefined;
  } catch (at) {
    if (typeof at === "number") return at;
    throw at;
  }
}

/**
 * The one wording of text that is not JSON: where it stops being JSON (line
 * and column, 1-based), never what is there, so a message cannot quote a
 * file's content.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { notJsonMessage } from "./util.ts";
 * assert.equal(notJsonMessage('"AWS_SECRET=x" junk'), "not valid JSON (line 1, column 16)");
 * ```
 */
export function notJsonMessage(text: string): string {
  const at = jsonErrorOffset(text);
  if (at === undefined) return "not valid JSON";
  if (at >= text.length) return "not valid JSON (it ends too early)";
  const before = text.slice(0, at);
  const line = before.split("\n").length;
  const column = at - (before.lastIndexOf("\n") + 1) + 1;
  return `not valid JSON (line ${line}, column ${column})`;
}

/**
 * Strict UTF-8 ({@linkcode tryDecodeUtf8}), then JSON: the one way a small
 * document read as bytes (a manifest, a lock, a Sigstore bundle, a settings,
 * sources or trust file) is parsed. A refusal carries its kind and a message
 * that never quotes the bytes ({@linkcode NOT_UTF8} or
 * {@linkcode notJsonMessage}); callers may word it in their own table.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { tryParseJsonBytes } from "./util.ts";
 * const read = tryParseJsonBytes(new TextEncoder().encode('{"a":1}'));
 * assert.deepEqual(read.ok ? read.value : read.message, { a: 1 });
 * ```
 */
export function tryParseJsonBytes(bytes: Uint8Array): JsonBytes {
  const text = tryDecodeUtf8(bytes);
  if (text === undefined) return { ok: false, kind: "not-utf8", message: NOT_UTF8 };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, kind: "not-json", message: notJsonMessage(text) };
  }
}
