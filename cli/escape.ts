/**
 * The one escaping function for text that reaches a terminal. Control
 * characters (C0, DEL, C1), bidirectional and invisible formatting characters,
 * line/paragraph separators, tag characters and lone surrogates are written as
 * escapes, so nothing from input can move the cursor, recolour the screen or
 * reorder what a reader sees.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { escapeTerminal, quote } from "./escape.ts";
 * assert.equal(escapeTerminal("a\u001b[31mb"), "a\\u001b[31mb");
 * assert.equal(quote("x\ny"), "\"x\\ny\"");
 * ```
 * @module
 */

const UNSAFE =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufeff\uffa0\ufff9-\ufffb\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]|[\ud800-\udfff]/gu;

// The same set without C0 controls: JSON.stringify already escapes those inside strings, and the
// line breaks of pretty-printed JSON are structure, not data.
const JSON_UNSAFE = new RegExp(UNSAFE.source.replace("\\u0000-\\u001f", ""), "gu");

/** Any character at or past U+007F (no `u` flag: a plain scan, fast on megabytes of ASCII). */
const BEYOND_ASCII = /[\u007f-\uffff]/;

const SHORT: Record<string, string> = {
  "\b": "\\b",
  "\t": "\\t",
  "\n": "\\n",
  "\f": "\\f",
  "\r": "\\r",
};

function escapeChar(ch: string): string {
  const short = SHORT[ch];
  if (short !== undefined) return short;
  const cp = ch.codePointAt(0)!;
  return cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, "0")}`;
}

/**
 * Escapes `text` for a terminal without adding quotes (table cells, messages).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(escapeTerminal("ok"), "ok");
 * ```
 */
export function escapeTerminal(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/**
 * Quotes `text` JSON-style (`"` and `\` escaped) with every unsafe character
 * escaped too, for input-derived values in human output.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(quote('a "b"'), "\"a \\\"b\\\"\"");
 * ```
 */
export function quote(text: string): string {
  return `"${escapeTerminal(text.replace(/["\\]/g, "\\$&"))}"`;
}

/**
 * Pretty JSON for stdout, with every character that {@linkcode escapeTerminal}
 * treats as unsafe written as a `\uXXXX` escape (still valid JSON, and the
 * same value after parsing), so `--json` output cannot drive a terminal either.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(jsonText({ name: "a\u009bb" }), '{\n  "name": "a\\u009bb"\n}\n');
 * ```
 */
export function jsonText(value: unknown): string {
  const text = JSON.stringify(value, null, 2);
  // Every unsafe character is at or past U+007F: ASCII output (the common case) is done.
  if (!BEYOND_ASCII.test(text)) return text + "\n";
  return text.replace(
    JSON_UNSAFE,
    (ch) =>
      Array.from(
        { length: ch.length },
        (_, i) => `\\u${ch.charCodeAt(i).toString(16).padStart(4, "0")}`,
      ).join(""),
  ) + "\n";
}
