// parseFrontmatterYaml: the YAML 1.2 core schema, every scalar as a string on request, and the
// rules for hostile or broken frontmatter (bounds on aliases and nesting, duplicate keys, file
// line numbers, prototype keys), directly and as parseSkillMarkdown applies them, and the lenient
// retry of values holding an unquoted ": ".
import { deepStrictEqual, equal, match, ok, strictEqual } from "node:assert/strict";
import { splitFrontmatter } from "../lib/skill/_frontmatter.ts";
import { MAX_ALIASES, parseFrontmatterYaml, quoteColonValues } from "../lib/skill/_yaml.ts";
import { parseSkillMarkdown } from "../lib/skill/_parse.ts";
import {
  BILLION_LAUGHS,
  doc,
  failure,
  GUIDE_COLON_LINE,
  lenient,
  parsed,
  strict,
} from "./skill_fixtures.ts";

Deno.test("yaml: YAML 1.2 core schema (yes/on are strings, no timestamps)", () => {
  const result = parseFrontmatterYaml(
    "a: yes\nb: on\nc: 1.0\nd: 0x1F\ne: 2001-12-14\nf: ~\ng: true",
  );
  ok(result.ok);
  deepStrictEqual(result.value, {
    a: "yes",
    b: "on",
    c: 1,
    d: 31,
    e: "2001-12-14",
    f: null,
    g: true,
  });
});

Deno.test("yaml: scalarsAsStrings reads every scalar as a string", () => {
  const result = parseFrontmatterYaml("a: 1.0\nb: true\nc: [1, 2]", { scalarsAsStrings: true });
  ok(result.ok);
  deepStrictEqual(result.value, { a: "1.0", b: "true", c: ["1", "2"] });
});

Deno.test("yaml: modest alias use still parses", () => {
  const result = parseFrontmatterYaml("base: &b [x, y]\nuse: *b\nagain: *b");
  ok(result.ok);
  deepStrictEqual(result.value, { base: ["x", "y"], use: ["x", "y"], again: ["x", "y"] });
});

Deno.test("yaml: moderate nesting is fine", () => {
  const result = parseFrontmatterYaml("a: " + "[".repeat(20) + "x" + "]".repeat(20));
  ok(result.ok);
});

Deno.test("yaml: broken YAML fails in both modes and names the file line", () => {
  // the bad indentation is on file line 4 (line 3 of the YAML)
  const raw = doc(["name: demo", "description: x", "  bad: indent"]);
  for (const options of [strict, lenient]) {
    const reason = failure(parseSkillMarkdown(raw, options));
    ok(reason.startsWith("invalid YAML frontmatter: "), reason);
    match(reason, /\bline 4\b/);
  }
});

Deno.test("yaml: unclosed flow collection names its file line", () => {
  const reason = failure(parseSkillMarkdown(doc(["name: demo", "description: [oops"]), lenient));
  ok(reason.startsWith("invalid YAML frontmatter: "), reason);
  match(reason, /\bline 3\b/);
});

Deno.test("yaml: line numbers count the BOM document's lines from the file", () => {
  const reason = failure(parseSkillMarkdown(
    "\uFEFF---\r\nname: demo\r\ndescription: ok\r\nlist: [a,\r\n---\r\nBody",
    lenient,
  ));
  ok(reason.startsWith("invalid YAML frontmatter: "), reason);
  match(reason, /\bline [45]\b/);
});

Deno.test("yaml: list frontmatter is not a mapping", () => {
  for (const options of [strict, lenient]) {
    strictEqual(
      failure(parseSkillMarkdown(doc(["- name: demo", "- description: d"]), options)),
      "frontmatter must be a YAML mapping",
    );
  }
});

Deno.test("yaml: scalar frontmatter is not a mapping", () => {
  strictEqual(
    failure(parseSkillMarkdown(doc(["just a string"]), lenient)),
    "frontmatter must be a YAML mapping",
  );
  strictEqual(
    failure(parseSkillMarkdown(doc(["42"]), strict)),
    "frontmatter must be a YAML mapping",
  );
});

Deno.test("yaml: empty, whitespace and null frontmatter are `{}`", () => {
  for (const yaml of ["", "   ", "~", "null"]) {
    const raw = `---\n${yaml}\n---\nUse this skill.`;
    strictEqual(
      failure(parseSkillMarkdown(raw, strict)),
      "frontmatter requires name",
      `yaml ${JSON.stringify(yaml)}`,
    );
    const skill = parsed(parseSkillMarkdown(raw, { fallbackName: "empty", lenient: true }));
    strictEqual(skill.name, "empty");
    strictEqual(skill.description, "Use this skill.");
    deepStrictEqual(skill.warnings, [
      'name missing or invalid; using "empty" from the directory',
      "description missing; derived from the first paragraph",
    ]);
  }
  const bare = splitFrontmatter("---\n---\nx");
  ok(bare);
  deepStrictEqual(parseFrontmatterYaml(bare.yaml), { ok: true, value: null });
});

Deno.test("yaml: duplicate keys are rejected and the message names the file line", () => {
  const direct = parseFrontmatterYaml("a: 1\nb: 2\na: 3", { firstLine: 2 });
  ok(!direct.ok);
  equal(direct.kind, "invalid");
  equal(direct.line, 4);
  match(direct.message, /duplicated mapping key/);
  match(direct.message, /\bline 4\b/);

  // through the parser: the second `name` is on file line 4
  const raw = doc(["name: demo", "description: d", "name: other"]);
  for (const options of [strict, lenient]) {
    const reason = failure(parseSkillMarkdown(raw, options));
    ok(reason.startsWith("invalid YAML frontmatter: "), reason);
    match(reason, /duplicated mapping key/);
    match(reason, /\bline 4\b/);
  }
});

Deno.test("yaml: duplicate keys in nested mappings are rejected too", () => {
  const reason = failure(parseSkillMarkdown(
    doc(["name: demo", "description: d", "metadata:", "  a: x", "  a: y"]),
    lenient,
  ));
  match(reason, /^invalid YAML frontmatter: duplicated mapping key/);
  match(reason, /\bline 6\b/);
});

Deno.test("yaml: a billion-laughs alias bomb fails", () => {
  const direct = parseFrontmatterYaml(BILLION_LAUGHS.join("\n"), { firstLine: 2 });
  ok(!direct.ok);
  equal(direct.kind, "invalid");
  match(direct.message, /alias/);
  for (const options of [strict, lenient]) {
    const reason = failure(parseSkillMarkdown(
      doc(["name: demo", "description: d", ...BILLION_LAUGHS]),
      options,
    ));
    ok(reason.startsWith("invalid YAML frontmatter: "), reason);
    match(reason, /alias/);
  }
});

Deno.test("yaml: few aliases that expand too far fail", () => {
  // 40 aliases (under the alias limit), 10^5 nodes once expanded
  const lines = [
    "a: &a [x,x,x,x,x,x,x,x,x,x]",
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]",
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]",
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]",
    "e: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]",
  ];
  ok(40 <= MAX_ALIASES);
  const direct = parseFrontmatterYaml(lines.join("\n"));
  ok(!direct.ok);
  equal(direct.kind, "expands-too-far");
  match(direct.message, /aliases expand/);
  const reason = failure(parseSkillMarkdown(doc(["name: demo", "description: d", ...lines])));
  ok(reason.startsWith("invalid YAML frontmatter: "), reason);
});

Deno.test("yaml: deeply nested documents fail cleanly", () => {
  // flow nesting, far deeper than any stack would tolerate unbounded
  const flow = parseFrontmatterYaml("a: " + "[".repeat(100_000) + "]".repeat(100_000));
  ok(!flow.ok);
  equal(flow.kind, "invalid");
  match(flow.message, /nesting|depth/);

  // block nesting through the parser
  let block = "";
  for (let i = 0; i < 200; i++) block += " ".repeat(i) + "k:\n";
  block += " ".repeat(200) + "v";
  const raw = `---\nname: demo\ndescription: d\nmetadata:\n${
    block.split("\n").map((l) => "  " + l).join("\n")
  }\n---\nBody`;
  for (const options of [strict, lenient]) {
    const reason = failure(parseSkillMarkdown(raw, options));
    ok(reason.startsWith("invalid YAML frontmatter: "), reason);
    match(reason, /nesting|depth/);
    match(reason, /\bline \d+\b/);
  }
});

Deno.test("yaml: `__proto__` keys do not pollute prototypes", () => {
  const raw = doc([
    "name: demo",
    "description: d",
    "__proto__:",
    "  polluted: top",
    "metadata:",
    "  __proto__:",
    "    polluted: nested",
    "  author: me",
    "constructor: scalar",
  ]);
  for (const options of [strict, lenient]) {
    const skill = parsed(parseSkillMarkdown(raw, options));
    strictEqual(({} as Record<string, unknown>).polluted, undefined);
    strictEqual((Object.prototype as Record<string, unknown>).polluted, undefined);
    strictEqual(Object.getPrototypeOf(skill.metadata), Object.prototype);
    strictEqual((skill.metadata as Record<string, unknown>).polluted, undefined);
    strictEqual(skill.metadata.author, "me");
    // the nested key is kept as an ordinary own key, not a prototype
    ok(Object.hasOwn(skill.metadata, "__proto__"));
    deepStrictEqual(Object.getOwnPropertyDescriptor(skill.metadata, "__proto__")?.value, {
      polluted: "nested",
    });
    // the top-level `__proto__` mapping and `constructor` are unknown keys, kept as own keys
    ok(Object.hasOwn(skill.extraFields, "__proto__"));
    strictEqual(Object.getPrototypeOf(skill.extraFields), Object.prototype);
    strictEqual(skill.extraFields.constructor, "scalar");
  }
  const direct = parseFrontmatterYaml("__proto__: {polluted: yes}\nname: x");
  ok(direct.ok);
  const value = direct.value as Record<string, unknown>;
  strictEqual(Object.getPrototypeOf(value), Object.prototype);
  strictEqual(value.polluted, undefined);
  ok(Object.hasOwn(value, "__proto__"));
  strictEqual(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("yaml: a scalar or list `__proto__` key is kept as a plain frontmatter key", () => {
  for (const [yaml, expected] of [["hello", "hello"], ["[a, b]", ["a", "b"]]] as const) {
    const skill = parsed(parseSkillMarkdown(
      doc(["name: demo", "description: d", `__proto__: ${yaml}`]),
      strict,
    ));
    const extra = skill.extraFields;
    strictEqual(Object.getPrototypeOf(extra), Object.prototype);
    ok(Object.hasOwn(extra, "__proto__"));
    deepStrictEqual(Object.getOwnPropertyDescriptor(extra, "__proto__")?.value, expected);
  }
});

Deno.test("colon retry: the client guide's `description: Use this skill when: …` (lenient repairs, strict fails)", () => {
  const raw = doc(["name: pdf-processing", GUIDE_COLON_LINE]);
  const skill = parsed(parseSkillMarkdown(raw, lenient));
  strictEqual(skill.description, "Use this skill when: the user asks about PDFs");
  deepStrictEqual(skill.warnings, [
    'line 3: value holding an unquoted ": " read as a quoted string',
  ]);
  const result = parseSkillMarkdown(raw, strict);
  equal(result.ok ? "ok" : result.kind, "yaml");
  match(failure(result), /^invalid YAML frontmatter: .* at line 3, column \d+$/);
});

Deno.test("colon retry: continuation lines fold in, a comment stays, block scalars are untouched", () => {
  const raw = doc([
    "name: pdf-processing",
    "description: Use this skill when: the user asks about PDFs",
    "  or forms # written for another client",
    "compatibility: >-",
    "  Needs: python3",
    "metadata:",
    "  note: see: README",
  ]);
  const skill = parsed(parseSkillMarkdown(raw, lenient));
  strictEqual(skill.description, "Use this skill when: the user asks about PDFs or forms");
  strictEqual(skill.compatibility, "Needs: python3");
  deepStrictEqual(skill.metadata, { note: "see: README" });
  deepStrictEqual(skill.warnings, [
    'line 3: value holding an unquoted ": " read as a quoted string',
    'line 8: value holding an unquoted ": " read as a quoted string',
  ]);
});

Deno.test("colon retry: other YAML errors keep their first message", () => {
  const raw = doc(["name: demo", "description: when: x", "tags: [a"]);
  const first = failure(parseSkillMarkdown(raw, strict));
  strictEqual(failure(parseSkillMarkdown(raw, lenient)), first);
  const unrelated = doc(["name: [oops", "description: d"]);
  equal(
    failure(parseSkillMarkdown(unrelated, lenient)),
    failure(parseSkillMarkdown(unrelated, strict)),
  );
});

Deno.test("quoteColonValues: only plain values holding `: ` change", () => {
  const text = [
    "a: plain",
    'b: "quoted: already"',
    "c: 'single: quoted'",
    "d: [x, y]",
    "e: http://example.com/x",
    "f: one: two # note",
    "- g: item: no",
  ].join("\n");
  const { text: out, lines } = quoteColonValues(text, { firstLine: 2 });
  deepStrictEqual(out.split("\n"), [
    "a: plain",
    'b: "quoted: already"',
    "c: 'single: quoted'",
    "d: [x, y]",
    "e: http://example.com/x",
    'f: "one: two" # note',
    "- g: item: no",
  ]);
  deepStrictEqual(lines, [7]);
});
