// deriveDescription, codePointLength and truncateCodePoints: the description taken from the
// body, counted and cut in code points.
import { ok, strictEqual } from "node:assert/strict";
import { MAX_DESCRIPTION_LENGTH } from "../lib/skill/_names.ts";
import {
  codePointLength,
  deriveDescription,
  truncateCodePoints,
} from "../lib/skill/_description.ts";

const DERIVE_BODY = "# Title\n\nUse **this** when things happen.\nSecond line.\n\nMore.";

Deno.test("deriveDescription: example", () => {
  strictEqual(deriveDescription(DERIVE_BODY), "Use this when things happen. Second line.");
});

Deno.test("deriveDescription: skips fences, comments, rules and heading-only blocks", () => {
  strictEqual(
    deriveDescription(
      [
        "# Title",
        "## Subtitle",
        "",
        "---",
        "",
        "```sh",
        "not this",
        "",
        "nor this",
        "```",
        "",
        "~~~",
        "tilde fence",
        "~~~",
        "",
        "<!-- a comment",
        "",
        "spanning blocks -->",
        "",
        "> Quoted `code` and _emphasis_",
        "",
        "Later.",
      ].join("\n"),
    ),
    "Quoted code and emphasis",
  );
});

Deno.test("deriveDescription: heading lines inside the paragraph are dropped", () => {
  strictEqual(deriveDescription("## Heading\nText under it.\n"), "Text under it.");
});

Deno.test("deriveDescription: an unclosed fence runs to the end", () => {
  strictEqual(deriveDescription("```\ncode\n\nStill code."), undefined);
  strictEqual(deriveDescription("Real.\n\n```\ncode"), "Real.");
});

Deno.test("deriveDescription: CRLF and whitespace are collapsed", () => {
  strictEqual(deriveDescription("\r\n  Line   one\r\n\tline two  \r\n"), "Line one line two");
});

Deno.test("deriveDescription: capped at 1024 code points", () => {
  const out = deriveDescription("word ".repeat(500));
  ok(out !== undefined);
  strictEqual(out.length, MAX_DESCRIPTION_LENGTH);
});

Deno.test("deriveDescription: nothing to derive", () => {
  strictEqual(deriveDescription(""), undefined);
  strictEqual(deriveDescription("# Only\n\n## Headings\n\n***\n"), undefined);
  strictEqual(deriveDescription("<!-- everything is a comment -->"), undefined);
});

Deno.test("codePointLength and truncateCodePoints", () => {
  strictEqual(codePointLength(""), 0);
  strictEqual(codePointLength("abc"), 3);
  strictEqual(codePointLength("😀a😀"), 3);
  strictEqual(codePointLength("\uD800"), 1); // a lone surrogate counts once
  strictEqual(truncateCodePoints("😀😀😀", 2), "😀😀");
  strictEqual(truncateCodePoints("abc", 5), "abc");
  strictEqual(truncateCodePoints("a😀b", 2), "a😀");
});
