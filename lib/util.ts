/**
 * Small helpers every package needs, defined once. Browser-safe: this module
 * imports nothing (hashing with `node:crypto` and path containment live in
 * `lib/fs/`).
 *
 * @example
 * ```ts
 * import { compareCodeUnits } from "./util.ts";
 * console.log(["b", "B", "a"].sort(compareCodeUnits)); // ["B", "a", "b"]
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
 * import { compareCodeUnits } from "./util.ts";
 * console.log(compareCodeUnits("a", "b")); // -1
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

/** What {@linkcode tryParseJsonBytes} gives: the value, or which step refused the bytes. */
export type JsonBytes = { ok: true; value: unknown } | { ok: false; kind: "not-utf8" | "not-json" };

/**
 * Strict UTF-8 ({@linkcode tryDecodeUtf8}), then JSON: the one way a small
 * document received as bytes (a manifest, a lock, a Sigstore bundle) is
 * read; each caller words the refusal in its own table.
 *
 * @example
 * ```ts
 * import { tryParseJsonBytes } from "./util.ts";
 * const read = tryParseJsonBytes(new TextEncoder().encode('{"a":1}'));
 * console.log(read.ok ? read.value : read.kind); // { a: 1 }
 * ```
 */
export function tryParseJsonBytes(bytes: Uint8Array): JsonBytes {
  const text = tryDecodeUtf8(bytes);
  if (text === undefined) return { ok: false, kind: "not-utf8" };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, kind: "not-json" };
  }
}
