// parseSkillMarkdown: strict and lenient modes, names, descriptions, invocation flags,
// metadata, legacy keys and the kind of every failure. The YAML rules (bounds, duplicate keys,
// file line numbers, prototype keys) are in skill_yaml_test.ts.
import { deepStrictEqual, equal, ok, strictEqual } from "node:assert/strict";
import { codePointLength, deriveDescription } from "../lib/skill/_description.ts";
import {
  type ParseFailureKind,
  type ParseOptions,
  parseSkillMarkdown,
} from "../lib/skill/_parse.ts";
import {
  CITATION_MANAGEMENT,
  DATABASE_LOOKUP,
  DATABASE_LOOKUP_DESCRIPTION,
  doc,
  failure,
  lenient,
  parsed,
  strict,
} from "./skill_fixtures.ts";

const SPEC_CLEAN = doc([
  "name: pdf-processing",
  "description: Extract text and tables from PDF files. Use when working with PDFs.",
  "license: Apache-2.0",
  "compatibility: Requires python3",
  "allowed-tools: Bash(git:*) Read",
  "metadata:",
  "  author: example-org",
  '  version: "1.0"',
  'argument-hint: "[file]"',
], "\n# PDF processing\n\nRun the script.\n");

const DERIVE_BODY = "# Title\n\nUse **this** when things happen.\nSecond line.\n\nMore.";

Deno.test("parseSkillMarkdown: CRLF, BOM and `...` through the parser", () => {
  const skill = parsed(
    parseSkillMarkdown(
      "\uFEFF---\r\nname: demo\r\ndescription: CRLF works\r\n...\r\n\r\nLine one\r\nLine two\r\n",
      strict,
    ),
  );
  strictEqual(skill.name, "demo");
  strictEqual(skill.description, "CRLF works");
  strictEqual(skill.content, "Line one\nLine two");
  deepStrictEqual(skill.warnings, []);
});

Deno.test("parseSkillMarkdown: unclosed frontmatter is treated as no frontmatter", () => {
  const raw = "---\nname: demo\ndescription: never closed\n";
  strictEqual(failure(parseSkillMarkdown(raw, strict)), "missing YAML frontmatter");
  const skill = parsed(parseSkillMarkdown(raw, { fallbackName: "demo", lenient: true }));
  strictEqual(skill.name, "demo");
  strictEqual(skill.warnings[0], "missing YAML frontmatter; derived name and description");
});

Deno.test("parseSkillMarkdown: exact metadata object and no warnings", () => {
  for (const options of [strict, lenient]) {
    const skill = parsed(parseSkillMarkdown(SPEC_CLEAN, options));
    strictEqual(skill.name, "pdf-processing");
    strictEqual(
      skill.description,
      "Extract text and tables from PDF files. Use when working with PDFs.",
    );
    deepStrictEqual(skill.metadata, { author: "example-org", version: "1.0" });
    strictEqual(skill.license, "Apache-2.0");
    strictEqual(skill.compatibility, "Requires python3");
    deepStrictEqual(skill.allowedTools, ["Bash(git:*)", "Read"]);
    deepStrictEqual(skill.extraFields, { "argument-hint": "[file]" });
    deepStrictEqual(skill.warnings, []);
    deepStrictEqual(skill.invocation, { modelInvocable: true, userInvocable: true });
    strictEqual(skill.content, "# PDF processing\n\nRun the script.");
    strictEqual(skill.whenToUse, undefined);
    ok(!("whenToUse" in skill));
  }
});

Deno.test("metadata: K-Dense citation-management's fields are typed; `metadata` as written", () => {
  for (const options of [strict, lenient]) {
    const skill = parsed(parseSkillMarkdown(doc(CITATION_MANAGEMENT), options));
    strictEqual(skill.license, "MIT License");
    deepStrictEqual(skill.allowedTools, ["Read", "Write", "Edit", "Bash"]);
    deepStrictEqual(skill.metadata, { "skill-author": "K-Dense Inc." });
    deepStrictEqual(skill.extraFields, {});
    deepStrictEqual(skill.warnings, []);
  }
});

Deno.test("metadata: a top-level license does not hide metadata.license; tools come only from allowed-tools", () => {
  const [name, description, , license, ...rest] = CITATION_MANAGEMENT;
  const skill = parsed(parseSkillMarkdown(
    doc([
      name,
      description,
      license,
      ...rest,
      "    license: CC-BY-4.0",
      "    allowedTools: [Bash]",
    ]),
    strict,
  ));
  strictEqual(skill.license, "MIT License");
  strictEqual(skill.allowedTools, undefined);
  deepStrictEqual(skill.metadata, {
    "skill-author": "K-Dense Inc.",
    license: "CC-BY-4.0",
    allowedTools: ["Bash"],
  });
});

Deno.test("metadata: allowed-tools forms", () => {
  const tools = (value: string) =>
    parsed(parseSkillMarkdown(doc(["name: demo", "description: d", `allowed-tools: ${value}`])))
      .allowedTools;
  deepStrictEqual(tools('"  Read   Write\tBash  "'), ["Read", "Write", "Bash"]);
  deepStrictEqual(tools("[Read, Write]"), ["Read", "Write"]);
  strictEqual(tools('""'), undefined);
  strictEqual(tools('"   "'), undefined);
});

Deno.test("known fields of the wrong type: strict fails `invalid-field`, lenient ignores and says so", () => {
  const cases: [string, string[], string][] = [
    ["allowed-tools: [Read, 3, Write, {a: b}]", ["Read", "Write"], "a list of strings"],
    ["allowed-tools: {Bash: true}", [], "a string or a list of strings"],
    ["metadata: just a string", [], "a mapping"],
    ["license: [MIT, Apache-2.0]", [], "a string"],
    ["compatibility: {python: 3}", [], "a string"],
  ];
  for (const [line, tools, expected] of cases) {
    const raw = doc(["name: demo", "description: d", line]);
    const key = line.slice(0, line.indexOf(":"));
    const result = parseSkillMarkdown(raw, strict);
    equal(result.ok ? "ok" : result.kind, "invalid-field", line);
    strictEqual(failure(result), `frontmatter field "${key}" must be ${expected}`);
    const skill = parsed(parseSkillMarkdown(raw, lenient));
    deepStrictEqual(skill.allowedTools ?? [], tools, line);
    deepStrictEqual(skill.metadata, {});
    strictEqual(skill.license, undefined);
    strictEqual(skill.compatibility, undefined);
    deepStrictEqual(skill.warnings, [`frontmatter field "${key}" is not ${expected}; ignored`]);
  }
});

Deno.test("extraFields: unknown top-level keys are kept as written, metadata stays empty", () => {
  const skill = parsed(parseSkillMarkdown(
    doc([
      "name: demo",
      "description: d",
      "custom-flag: true",
      "custom-list: [a, b]",
      "custom-number: 7",
      "custom-null: ~",
      "custom-map: {a: b}",
      "whenToUse: when needed",
      "disable-model-invocation: false",
    ]),
    strict,
  ));
  deepStrictEqual(skill.metadata, {});
  deepStrictEqual(skill.extraFields, {
    "custom-flag": true,
    "custom-list": ["a", "b"],
    "custom-number": 7,
    "custom-null": null,
    "custom-map": { a: "b" },
  });
});

Deno.test("extraFields and metadata: a `__proto__` key stays a plain own key, no prototype changes", () => {
  const skill = parsed(parseSkillMarkdown(
    doc([
      "name: demo",
      "description: d",
      "__proto__:",
      "  polluted: yes",
      "metadata:",
      "  __proto__: {polluted: yes}",
      "  author: me",
    ]),
    strict,
  ));
  deepStrictEqual(Object.keys(skill.extraFields), ["__proto__"]);
  deepStrictEqual(Object.getOwnPropertyDescriptor(skill.extraFields, "__proto__")?.value, {
    polluted: "yes",
  });
  deepStrictEqual(Object.keys(skill.metadata), ["__proto__", "author"]);
  strictEqual(Object.getPrototypeOf(skill.extraFields), Object.prototype);
  strictEqual(Object.getPrototypeOf(skill.metadata), Object.prototype);
  strictEqual(({} as Record<string, unknown>).polluted, undefined);
});

Deno.test("metadata: no `metadata` and no other keys give empty objects", () => {
  const skill = parsed(parseSkillMarkdown(doc(["name: demo", "description: d"]), strict));
  deepStrictEqual(skill.metadata, {});
  deepStrictEqual(skill.extraFields, {});
});

Deno.test("string fields: numbers become strings, strings are trimmed, others are absent", () => {
  const skill = parsed(parseSkillMarkdown(
    doc(["name: 123", 'description: "   padded text   "', "license: 2.5"]),
    strict,
  ));
  strictEqual(skill.name, "123");
  strictEqual(skill.description, "padded text");
  strictEqual(skill.license, "2.5");
  // a boolean name is absent: strict requires a name
  strictEqual(
    failure(parseSkillMarkdown(doc(["name: true", "description: d"]), strict)),
    "frontmatter requires name",
  );
  // a whitespace-only description is absent
  strictEqual(
    failure(parseSkillMarkdown(doc(["name: demo", 'description: "   "']), strict)),
    "frontmatter requires description",
  );
  // a list description is absent
  strictEqual(
    failure(parseSkillMarkdown(doc(["name: demo", "description: [a, b]"]), strict)),
    "frontmatter requires description",
  );
});

Deno.test("whenToUse: camelCase key wins over when-to-use; both are trimmed", () => {
  const both = parsed(parseSkillMarkdown(
    doc(["name: demo", "description: d", "whenToUse: '  camel  '", "when-to-use: kebab"]),
    strict,
  ));
  strictEqual(both.whenToUse, "camel");
  const kebab = parsed(parseSkillMarkdown(
    doc(["name: demo", "description: d", "when-to-use: kebab"]),
    strict,
  ));
  strictEqual(kebab.whenToUse, "kebab");
  const blank = parsed(parseSkillMarkdown(
    doc(["name: demo", "description: d", "whenToUse: ''", "when-to-use: kebab"]),
    strict,
  ));
  strictEqual(blank.whenToUse, "kebab");
});

Deno.test("invocation: true/yes/on/1 disable model invocation", () => {
  for (const value of ["true", "yes", "on", "1", "TRUE", "Yes", '" On "', '"1"', "True"]) {
    for (const options of [strict, lenient]) {
      const skill = parsed(parseSkillMarkdown(
        doc(["name: demo", "description: d", `disable-model-invocation: ${value}`]),
        options,
      ));
      strictEqual(skill.invocation.modelInvocable, false, `value ${value}`);
      strictEqual(skill.invocation.userInvocable, true);
      deepStrictEqual(skill.warnings, [], "coercions are not warnings");
    }
  }
});

Deno.test("invocation: false/off (and no/0) keep the model invocable", () => {
  for (const value of ["false", "off", "no", "0", "FALSE", "Off", '"0"']) {
    const skill = parsed(parseSkillMarkdown(
      doc(["name: demo", "description: d", `disable-model-invocation: ${value}`]),
      strict,
    ));
    strictEqual(skill.invocation.modelInvocable, true, `value ${value}`);
    deepStrictEqual(skill.warnings, []);
  }
});

Deno.test("invocation: user-invocable coercions", () => {
  const user = (value: string) =>
    parsed(parseSkillMarkdown(
      doc(["name: demo", "description: d", `user-invocable: ${value}`]),
      strict,
    )).invocation;
  deepStrictEqual(user("false"), { modelInvocable: true, userInvocable: false });
  deepStrictEqual(user("off"), { modelInvocable: true, userInvocable: false });
  deepStrictEqual(user("0"), { modelInvocable: true, userInvocable: false });
  deepStrictEqual(user("yes"), { modelInvocable: true, userInvocable: true });
  deepStrictEqual(user("~"), { modelInvocable: true, userInvocable: true });
});

Deno.test("invocation: `user-invocable: maybe` fails in both modes", () => {
  for (const options of [strict, lenient]) {
    strictEqual(
      failure(parseSkillMarkdown(
        doc(["name: demo", "description: d", "user-invocable: maybe"]),
        options,
      )),
      'frontmatter field "user-invocable" must be a boolean',
    );
  }
});

Deno.test("invocation: other non-boolean values fail", () => {
  for (const value of ["2", "-1", "[true]", "{a: b}", '"enabled"', "1.5"]) {
    strictEqual(
      failure(parseSkillMarkdown(
        doc(["name: demo", "description: d", `disable-model-invocation: ${value}`]),
        lenient,
      )),
      'frontmatter field "disable-model-invocation" must be a boolean',
      `value ${value}`,
    );
  }
});

Deno.test("name: lenient missing name uses the directory `My Dir`", () => {
  const skill = parsed(parseSkillMarkdown(
    doc(["description: d"]),
    { fallbackName: "My Dir", lenient: true },
  ));
  strictEqual(skill.name, "my-dir");
  deepStrictEqual(skill.warnings, ['name missing or invalid; using "my-dir" from the directory']);
  ok(skill.warnings[0].includes("from the directory"));
});

Deno.test("name: strict missing name fails", () => {
  strictEqual(
    failure(
      parseSkillMarkdown(doc(["description: d"]), { fallbackName: "My Dir", lenient: false }),
    ),
    "frontmatter requires name",
  );
});

Deno.test("name: Code_Review normalised (lenient) vs invalid (strict)", () => {
  const raw = doc(["name: Code_Review", "description: Reviews code."]);
  const skill = parsed(parseSkillMarkdown(raw, lenient));
  strictEqual(skill.name, "code-review");
  deepStrictEqual(skill.warnings, ['name "Code_Review" normalised to "code-review"']);
  ok(skill.warnings[0].includes("normalised"));
  strictEqual(failure(parseSkillMarkdown(raw, strict)), 'invalid skill name "Code_Review"');
});

Deno.test("name: lenient un-normalisable name falls back to the directory", () => {
  const skill = parsed(parseSkillMarkdown(
    doc(["name: 日本語", "description: d"]),
    { fallbackName: "My Dir", lenient: true },
  ));
  strictEqual(skill.name, "my-dir");
  deepStrictEqual(skill.warnings, ['name missing or invalid; using "my-dir" from the directory']);
});

Deno.test("name: lenient with no usable name anywhere fails naming both", () => {
  strictEqual(
    failure(parseSkillMarkdown(
      doc(["name: 日本語", "description: d"]),
      { fallbackName: "###", lenient: true },
    )),
    'no usable skill name (frontmatter: "日本語", directory: "###")',
  );
});

Deno.test("name: a valid frontmatter name wins over the directory, without warnings", () => {
  const skill = parsed(parseSkillMarkdown(
    doc(["name: real-name", "description: d"]),
    { fallbackName: "Other Dir", lenient: true },
  ));
  strictEqual(skill.name, "real-name");
  deepStrictEqual(skill.warnings, []);
});

Deno.test("description: lenient derives the first paragraph", () => {
  const skill = parsed(parseSkillMarkdown(doc(["name: demo"], DERIVE_BODY), lenient));
  strictEqual(skill.description, "Use this when things happen. Second line.");
  deepStrictEqual(skill.warnings, ["description missing; derived from the first paragraph"]);
  strictEqual(skill.content, DERIVE_BODY);
});

Deno.test("description: strict requires a description", () => {
  strictEqual(
    failure(parseSkillMarkdown(doc(["name: demo"], DERIVE_BODY), strict)),
    "frontmatter requires description",
  );
});

Deno.test("no frontmatter: lenient derives name and description", () => {
  const raw = "# My Notes\r\n\r\nUse this for notes.\r\nAnd more.\r\n";
  const skill = parsed(parseSkillMarkdown(raw, { fallbackName: "My Dir", lenient: true }));
  strictEqual(skill.name, "my-dir");
  strictEqual(skill.description, "Use this for notes. And more.");
  deepStrictEqual(skill.warnings, ["missing YAML frontmatter; derived name and description"]);
  ok(skill.warnings[0].includes("missing YAML frontmatter"));
  deepStrictEqual(skill.invocation, { modelInvocable: true, userInvocable: true });
  deepStrictEqual(skill.metadata, {});
  strictEqual(skill.content, "# My Notes\n\nUse this for notes.\nAnd more.");
});

Deno.test("no frontmatter: strict fails", () => {
  strictEqual(
    failure(parseSkillMarkdown("# My Notes\n\nUse this.", { fallbackName: "x", lenient: false })),
    "missing YAML frontmatter",
  );
});

Deno.test("no frontmatter: lenient with unusable directory or empty body fails", () => {
  strictEqual(
    failure(parseSkillMarkdown("Use this.", { fallbackName: "###", lenient: true })),
    'no usable skill name (frontmatter: undefined, directory: "###")',
  );
  strictEqual(
    failure(parseSkillMarkdown("# Only a heading\n", { fallbackName: "x", lenient: true })),
    "no description in frontmatter and no body text to derive one from",
  );
});

Deno.test("parseSkillMarkdown: default mode is lenient", () => {
  const skill = parsed(parseSkillMarkdown("Plain text.", { fallbackName: "plain" }));
  strictEqual(skill.name, "plain");
});

Deno.test("legacy: disableModelInvocation lenient warns, strict fails", () => {
  const raw = doc(["name: demo", "description: d", "disableModelInvocation: true"]);
  const skill = parsed(parseSkillMarkdown(raw, lenient));
  strictEqual(skill.invocation.modelInvocable, false);
  deepStrictEqual(skill.warnings, ['legacy frontmatter field "disableModelInvocation" accepted']);
  strictEqual(
    failure(parseSkillMarkdown(raw, strict)),
    'frontmatter field "disableModelInvocation" is unsupported',
  );
});

Deno.test("legacy: modelInvocable is inverted, userInvocable maps directly", () => {
  const skill = parsed(parseSkillMarkdown(
    doc(["name: demo", "description: d", "modelInvocable: false", "userInvocable: no"]),
    lenient,
  ));
  deepStrictEqual(skill.invocation, { modelInvocable: false, userInvocable: false });
  deepStrictEqual(skill.warnings, [
    'legacy frontmatter field "modelInvocable" accepted',
    'legacy frontmatter field "userInvocable" accepted',
  ]);
  strictEqual(
    failure(parseSkillMarkdown(
      doc(["name: demo", "description: d", "userInvocable: false"]),
      strict,
    )),
    'frontmatter field "userInvocable" is unsupported',
  );
  strictEqual(
    failure(parseSkillMarkdown(
      doc(["name: demo", "description: d", "modelInvocable: true"]),
      strict,
    )),
    'frontmatter field "modelInvocable" is unsupported',
  );
});

Deno.test("legacy: the kebab key wins when both are set", () => {
  const skill = parsed(parseSkillMarkdown(
    doc([
      "name: demo",
      "description: d",
      "disable-model-invocation: false",
      "disableModelInvocation: true",
      "user-invocable: true",
      "userInvocable: false",
    ]),
    lenient,
  ));
  deepStrictEqual(skill.invocation, { modelInvocable: true, userInvocable: true });
});

Deno.test("legacy: a non-boolean legacy value fails in lenient mode", () => {
  strictEqual(
    failure(parseSkillMarkdown(
      doc(["name: demo", "description: d", "disableModelInvocation: sometimes"]),
      lenient,
    )),
    'frontmatter field "disableModelInvocation" must be a boolean',
  );
});

Deno.test("description: K-Dense database-lookup's 1,929 characters fail strict, lenient truncates", () => {
  const raw = doc(DATABASE_LOOKUP);
  const result = parseSkillMarkdown(raw, strict);
  equal(result.ok ? "ok" : result.kind, "description-too-long");
  strictEqual(failure(result), "description is 1929 characters; at most 1024 are allowed");
  const skill = parsed(parseSkillMarkdown(raw, lenient));
  strictEqual(skill.description, DATABASE_LOOKUP_DESCRIPTION.slice(0, 1024));
  deepStrictEqual(skill.warnings, ["description longer than 1024 characters; truncated"]);
});

Deno.test("description: exactly 1024 chars is kept without a warning", () => {
  const skill = parsed(parseSkillMarkdown(
    doc(["name: demo", `description: ${"y".repeat(1024)}`]),
    strict,
  ));
  strictEqual(skill.description.length, 1024);
  deepStrictEqual(skill.warnings, []);
});

Deno.test("description: the limit counts code points; truncation never splits a pair", () => {
  const long = doc(["name: demo", `description: ${"😀".repeat(1100)}`]);
  const skill = parsed(parseSkillMarkdown(long, lenient));
  strictEqual(codePointLength(skill.description), 1024);
  strictEqual(skill.description, "😀".repeat(1024));
  deepStrictEqual(skill.warnings, ["description longer than 1024 characters; truncated"]);
  strictEqual(
    failure(parseSkillMarkdown(long, strict)),
    "description is 1100 characters; at most 1024 are allowed",
  );
  const exact = parsed(parseSkillMarkdown(
    doc(["name: demo", `description: ${"😀".repeat(1024)}`]),
    strict,
  ));
  deepStrictEqual(exact.warnings, []);
});

Deno.test("name: fallback `###` with no name fails", () => {
  strictEqual(
    failure(parseSkillMarkdown(doc(["description: d"]), { fallbackName: "###", lenient: true })),
    'no usable skill name (frontmatter: undefined, directory: "###")',
  );
});

Deno.test("description: heading-only body without description fails", () => {
  strictEqual(
    failure(parseSkillMarkdown(
      doc(["name: demo"], "# Heading\n\n## Another heading\n"),
      lenient,
    )),
    "no description in frontmatter and no body text to derive one from",
  );
});

Deno.test("description: unterminated `<!-- draft` after a paragraph", () => {
  const body = "Real paragraph here.\n\n<!-- draft\n\nSecret draft text.\n\nMore secret.";
  const skill = parsed(parseSkillMarkdown(doc(["name: demo"], body), lenient));
  strictEqual(skill.description, "Real paragraph here.");
  strictEqual(deriveDescription(body), "Real paragraph here.");
  // the unterminated comment hides everything after it, even with no paragraph before
  strictEqual(deriveDescription("# T\n\n<!-- draft\n\nSecret."), undefined);
  // a terminated comment hides only itself
  strictEqual(deriveDescription("<!-- note -->\n\nVisible."), "Visible.");
  equal(deriveDescription("Before <!-- hidden --> after."), "Before after.");
});

Deno.test("parseSkillMarkdown: every failure carries its kind", () => {
  const cases: [string, ParseOptions, ParseFailureKind][] = [
    ["Body only.", strict, "no-frontmatter"],
    [doc(["name: [oops"]), lenient, "yaml"],
    [doc(["- a"]), lenient, "not-mapping"],
    [doc(["description: D."]), strict, "missing-field"],
    [doc(["name: Bad_Name", "description: D."]), strict, "invalid-name"],
    [doc(["name: ok", "description: D.", "modelInvocable: false"]), strict, "unsupported-field"],
    [doc(["name: ok", "description: D.", "user-invocable: maybe"]), lenient, "not-boolean"],
    [doc(["description: D."]), { fallbackName: "###" }, "no-name"],
    [doc(["name: ok"], "# Heading only"), lenient, "no-description"],
    [doc(["name: ok", `description: ${"d".repeat(1025)}`]), strict, "description-too-long"],
    [doc(["name: ok", "description: D.", "metadata: [a]"]), strict, "invalid-field"],
    ["# Todo\n\n- buy milk\n", { ...lenient, requireNamedFrontmatter: true }, "note"],
  ];
  for (const [raw, options, kind] of cases) {
    const result = parseSkillMarkdown(raw, options);
    equal(result.ok ? "ok" : result.kind, kind, raw);
  }
});

Deno.test("parseSkillMarkdown: requireNamedFrontmatter needs a name or a description as text", () => {
  const named = (options: ParseOptions): ParseOptions => ({
    ...options,
    requireNamedFrontmatter: true,
  });
  for (const options of [strict, lenient]) {
    for (
      const raw of [
        "Plain notes.\n",
        doc(["tags: [a]"]),
        doc(["name: ' '"]),
        doc(["- a"]),
        "---\n---\nx",
      ]
    ) {
      const result = parseSkillMarkdown(raw, named(options));
      equal(result.ok ? "ok" : result.kind, "note", raw);
    }
  }
  // A name or a description as text is enough; broken YAML is left to the usual rules.
  ok(parseSkillMarkdown(doc(["description: Fills PDF forms."]), named(lenient)).ok);
  ok(parseSkillMarkdown(doc(["name: pdf-forms", "description: D."]), named(strict)).ok);
  const broken = parseSkillMarkdown(doc(["name: [oops"]), named(strict));
  equal(broken.ok ? "ok" : broken.kind, "yaml");
  // Without the option a plain text is a lenient skill, as before.
  ok(parseSkillMarkdown("Plain notes.\n", lenient).ok);
});
