// Property-based tests (fast-check) of terminal escaping and JSON text. A fixed seed and a bounded
// number of runs (see fuzz_helpers.ts).
import { deepEqual, equal, ok } from "node:assert/strict";
import fc from "fast-check";
import { escapeTerminal, jsonText, quote } from "../cli/escape.ts";
import { anyString, anyUnit, bounded, PARAMS } from "./fuzz_helpers.ts";

// ---------------------------------------------------------------------------
// (e) terminal escaping

/**
 * What must never reach a terminal raw: C0 (`allowNewline` keeps LF, the structure of pretty
 * JSON), DEL, C1, bidi controls, zero-width and invisible formatting characters, line and
 * paragraph separators, tag characters and lone surrogates.
 */
function rawUnsafe(text: string, allowNewline = false): string | undefined {
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const bad = (cp < 0x20 && !(allowNewline && cp === 0x0a)) ||
      (cp >= 0x7f && cp <= 0x9f) ||
      cp === 0x061c || cp === 0x200e || cp === 0x200f ||
      (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) ||
      (cp >= 0x200b && cp <= 0x200d) || (cp >= 0x2060 && cp <= 0x2064) || cp === 0xfeff ||
      cp === 0x00ad || cp === 0x034f || cp === 0x180e || cp === 0x115f || cp === 0x1160 ||
      cp === 0x3164 || cp === 0xffa0 ||
      cp === 0x2028 || cp === 0x2029 ||
      (cp >= 0xe0000 && cp <= 0xe007f) ||
      (cp >= 0xd800 && cp <= 0xdfff);
    if (bad) return `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
  }
  return undefined;
}

/** Escaped by the library too, though not required by the rule above. */
const ALSO_ESCAPED = /[\u2065-\u206f\ufff9-\ufffb\u{e0100}-\u{e01ef}]/u;

Deno.test("fuzz: escapeTerminal and quote never output a control, bidi, invisible or tag character", () => {
  fc.assert(
    fc.property(anyString(200), (text) => {
      const escaped = bounded("escapeTerminal", () => escapeTerminal(text));
      const quoted = bounded("quote", () => quote(text));
      equal(rawUnsafe(escaped), undefined, `escapeTerminal(${JSON.stringify(text)})`);
      equal(rawUnsafe(quoted), undefined, `quote(${JSON.stringify(text)})`);
      ok(quoted.startsWith('"') && quoted.endsWith('"'));
      // Text that is already safe passes unchanged.
      if (rawUnsafe(text) === undefined && !ALSO_ESCAPED.test(text)) equal(escaped, text);
      // Without astral escapes (tags, variation selectors) the quoted form is a JSON string of the text.
      if (!/[\u{e0000}-\u{e01ef}]/u.test(text)) equal(JSON.parse(quoted), text);
    }),
    PARAMS,
  );
});

Deno.test("fuzz: jsonText parses back to the same value and carries no raw unsafe character", () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 4, stringUnit: anyUnit }), (value) => {
      const text = bounded("jsonText", () => jsonText(value));
      ok(text.endsWith("\n"));
      deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(value)));
      equal(rawUnsafe(text, true), undefined, text);
    }),
    PARAMS,
  );
});
