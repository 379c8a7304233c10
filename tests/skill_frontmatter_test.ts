// splitFrontmatter: where the YAML frontmatter starts and ends (LF, CRLF, BOM, `...`).
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { splitFrontmatter } from "../lib/skill/_frontmatter.ts";

Deno.test("splitFrontmatter: LF document", () => {
  const split = splitFrontmatter("---\nname: a\ndescription: b\n---\nBody\nmore");
  ok(split);
  strictEqual(split.yaml, "name: a\ndescription: b");
  strictEqual(split.body, "Body\nmore");
  strictEqual(split.yamlLine, 2);
  strictEqual(split.bodyLine, 5);
});

Deno.test("splitFrontmatter: CRLF lines are re-joined with LF", () => {
  const split = splitFrontmatter("---\r\nname: a\r\ndescription: b\r\n---\r\nBody\r\nmore\r\n");
  ok(split);
  strictEqual(split.yaml, "name: a\ndescription: b");
  strictEqual(split.body, "Body\nmore\n");
  ok(!split.yaml.includes("\r"));
  ok(!split.body.includes("\r"));
});

Deno.test("splitFrontmatter: leading BOM is accepted", () => {
  const split = splitFrontmatter("\uFEFF---\nname: a\n---\nBody");
  ok(split);
  strictEqual(split.yaml, "name: a");
  strictEqual(split.body, "Body");
});

Deno.test("splitFrontmatter: `...` terminator", () => {
  const split = splitFrontmatter("---\nname: a\n...\nBody");
  ok(split);
  strictEqual(split.yaml, "name: a");
  strictEqual(split.body, "Body");
});

Deno.test("splitFrontmatter: BOM + CRLF + `...` together", () => {
  const split = splitFrontmatter("\uFEFF---\r\nname: x\r\n...\r\nHi");
  ok(split);
  strictEqual(split.yaml, "name: x");
  strictEqual(split.body, "Hi");
});

Deno.test("splitFrontmatter: trailing spaces and tabs on the delimiters", () => {
  const split = splitFrontmatter("--- \t\nname: a\n---  \t\nBody");
  ok(split);
  strictEqual(split.yaml, "name: a");
  strictEqual(split.body, "Body");
});

Deno.test("splitFrontmatter: ends at the FIRST closing line", () => {
  const split = splitFrontmatter("---\nname: a\n---\nBody\n---\nafter");
  ok(split);
  strictEqual(split.yaml, "name: a");
  strictEqual(split.body, "Body\n---\nafter");
});

Deno.test("splitFrontmatter: unclosed frontmatter is none", () => {
  strictEqual(splitFrontmatter("---\nname: x\n"), undefined);
  strictEqual(splitFrontmatter("---\nname: x\ndescription: y\nBody"), undefined);
  strictEqual(splitFrontmatter("---"), undefined);
});

Deno.test("splitFrontmatter: documents that do not open with `---` have none", () => {
  strictEqual(splitFrontmatter("Body only"), undefined);
  strictEqual(splitFrontmatter(""), undefined);
  strictEqual(splitFrontmatter(" ---\nname: a\n---\n"), undefined);
  strictEqual(splitFrontmatter("\n---\nname: a\n---\n"), undefined);
  strictEqual(splitFrontmatter("----\nname: a\n---\n"), undefined);
  strictEqual(splitFrontmatter("--- x\nname: a\n---\n"), undefined);
  // a BOM is only accepted as the very first character
  strictEqual(splitFrontmatter("x\uFEFF---\nname: a\n---\n"), undefined);
  // the closer must be exactly --- or ... (plus spaces/tabs)
  strictEqual(splitFrontmatter("---\nname: a\n--- x\n"), undefined);
  strictEqual(splitFrontmatter("---\nname: a\n ---\n"), undefined);
});

Deno.test("splitFrontmatter: empty frontmatter", () => {
  const split = splitFrontmatter("---\n---\nBody");
  ok(split);
  strictEqual(split.yaml, "");
  strictEqual(split.body, "Body");
  strictEqual(split.bodyLine, 3);
});

Deno.test("splitFrontmatter splits lines on CRLF and LF alike", () => {
  deepStrictEqual(splitFrontmatter("---\r\na\nb\r\n---\nc")?.yaml, "a\nb");
});
