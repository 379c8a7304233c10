// Property-based tests (fast-check) of one SKILL.md: the frontmatter splitter, the strict and
// lenient parser, the spec checker and `checkSkill` on arbitrary text and generated YAML, and
// strict UTF-8 decoding. A fixed seed and a bounded number of runs keep CI reproducible (see
// fuzz_helpers.ts); the property on deliberately huge documents runs a tenth as many.
import { deepEqual, equal, ok } from "node:assert/strict";
import fc from "fast-check";
import { decodeUtf8, ReadError } from "../lib/fs/_read.ts";
import { checkSkill } from "../lib/check/_check.ts";
import { codePointLength } from "../lib/skill/_description.ts";
import { splitFrontmatter } from "../lib/skill/_frontmatter.ts";
import { isSkillName, MAX_DESCRIPTION_LENGTH } from "../lib/skill/_names.ts";
import { type ParseResult, parseSkillMarkdown } from "../lib/skill/_parse.ts";
import { SPEC_KEYS, specFindings } from "../lib/check/_spec.ts";
import { anyString, bounded, PARAMS, RUNS } from "./fuzz_helpers.ts";

// ---------------------------------------------------------------------------
// Generators

/** A YAML key: known frontmatter fields, YAML syntax fragments, or arbitrary text. */
const yamlKey = fc.oneof(
  fc.constantFrom(
    ...SPEC_KEYS,
    "disable-model-invocation",
    "user-invocable",
    "disableModelInvocation",
    "whenToUse",
    "when-to-use",
    "argument-hint",
    "<<",
    "? complex",
    '"quoted key"',
    "'single'",
    "__proto__",
    "constructor",
    "- item",
    "",
  ),
  fc.string({ unit: "grapheme-ascii", maxLength: 12 }),
  anyString(12),
);

const anchorName = fc.constantFrom("a", "b", "c", "x1");

/** A YAML value: scalars, anchors, aliases, flow collections, block scalars, tags, garbage. */
const yamlValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "",
    "~",
    "null",
    "true",
    "yes",
    "on",
    "off",
    "maybe",
    "0",
    "1",
    "-1",
    "0x1F",
    "1e309",
    ".nan",
    "[]",
    "{}",
    "[a, b, {c: d}]",
    "{a: 1, b: [x, y], c: {d: e}}",
    "[[[[[[[[[[x]]]]]]]]]]",
    "{a: [{b: [{c: [{d: 1}]}]}]}",
    "|\n  block text\n  more",
    ">-\n  folded\n  text",
    "!!binary aGVsbG8=",
    "!!str 42",
    "!custom x",
    "!!js/function 'function(){}'",
    '"esc \\u0000 \\x1b \\e \\N"',
    "'it''s'",
    "&a [x, x, x, x, x, x, x, x, x]",
    "&b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
    "&c [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
    "*undefined_alias",
    "[unclosed",
    "{unclosed: ",
    '"unclosed',
    "a: b: c",
    "- - -",
    "%YAML 1.2",
    "\t\ttabbed",
    "@reserved",
    "`reserved",
  ),
  fc.tuple(fc.constantFrom("&", "*"), anchorName, fc.constantFrom("", " value", " [1, 2]")).map((
    [sigil, name, rest],
  ) => sigil === "&" ? `&${name}${rest}` : `*${name}`),
  fc.string({ unit: "grapheme-ascii", maxLength: 40 }),
  anyString(40),
  anyString(40).map((text) => JSON.stringify(text)),
  fc.array(fc.string({ unit: "grapheme-ascii", maxLength: 8 }), { maxLength: 6 }).map((items) =>
    `[${items.join(", ")}]`
  ),
);

/** One frontmatter line: `key: value`, indented, tabbed, a list item, a comment or noise. */
const yamlLine = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(yamlKey, yamlValue).map(([k, v]) => `${k}: ${v}`) },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.constantFrom("  ", "    ", "\t", " \t"), yamlKey, yamlValue).map((
      [indent, k, v],
    ) => `${indent}${k}: ${v}`),
  },
  { weight: 1, arbitrary: yamlValue.map((v) => `  - ${v}`) },
  { weight: 1, arbitrary: anyString(30).map((c) => `# ${c}`) },
  { weight: 1, arbitrary: anyString(30) },
  { weight: 1, arbitrary: fc.constantFrom("---", "...", "--- ", "...\t", "- ", "? ", ": ") },
);

/** A whole YAML-ish document: optional BOM, `---`, lines, optional closer, body; LF or CRLF. */
const yamlDocument = fc.record({
  bom: fc.boolean(),
  crlf: fc.boolean(),
  opener: fc.oneof(
    { weight: 8, arbitrary: fc.constant("---") },
    { weight: 2, arbitrary: fc.constantFrom("--- ", "---\t", "----", " ---", "---x") },
  ),
  lines: fc.array(yamlLine, { maxLength: 14 }),
  closer: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom("---", "...") },
    { weight: 2, arbitrary: fc.constantFrom("---  ", "", "--") },
  ),
  body: anyString(200),
}).map(({ bom, crlf, opener, lines, closer, body }) => {
  const eol = crlf ? "\r\n" : "\n";
  const head = [opener, ...lines, ...(closer === "" ? [] : [closer])].join(eol);
  return `${bom ? "\ufeff" : ""}${head}${eol}${body}`;
});

/** A valid-looking SKILL.md with a random body and random extra fields. */
const skillDocument = fc.record({
  name: fc.oneof(
    fc.stringMatching(/^[a-z0-9]{1,10}(-[a-z0-9]{1,10}){0,3}$/),
    fc.string({ unit: "grapheme-ascii", maxLength: 70 }),
  ),
  description: anyString(80),
  extra: fc.array(yamlLine, { maxLength: 4 }),
  body: anyString(200),
}).map(({ name, description, extra, body }) =>
  ["---", `name: ${name}`, `description: ${JSON.stringify(description)}`, ...extra, "---", body]
    .join("\n")
);

/** Documents built to be slow or deep: nesting, long runs, alias bombs, many keys. */
const pathological = fc.tuple(
  fc.constantFrom(
    "nest-flow",
    "nest-map",
    "indent",
    "dashes",
    "bomb",
    "keys",
    "quotes",
    "comment",
    "links",
  ),
  fc.integer({ min: 1, max: 20_000 }),
).map(([kind, n]) => {
  const doc = (yaml: string, body = "Body.") => `---\n${yaml}\n---\n${body}`;
  switch (kind) {
    case "nest-flow":
      return doc(`name: x\ndescription: d\nm: ${"[".repeat(n)}${"]".repeat(n)}`);
    case "nest-map":
      return doc(`name: x\ndescription: d\nm: ${"{a: ".repeat(n)}1${"}".repeat(n)}`);
    case "indent":
      return doc(
        Array.from({ length: Math.min(n, 400) }, (_, i) => `${" ".repeat(i)}k${i}:`)
          .join("\n"),
      );
    case "dashes":
      return doc(`name: x\ndescription: ${"- ".repeat(n)}`);
    case "bomb": {
      const levels = 1 + (n % 12);
      const lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"];
      for (let i = 1; i < levels; i++) {
        lines.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(", ")}]`);
      }
      return doc(["name: x", "description: d", ...lines].join("\n"));
    }
    case "keys":
      return doc(Array.from({ length: Math.min(n, 5000) }, (_, i) => `k${i}: v`).join("\n"));
    case "quotes":
      return doc(`name: x\ndescription: "${'\\"'.repeat(n)}"`);
    case "comment":
      return doc("name: x", `${"<!--".repeat(n)} text`);
    default:
      return doc("name: x\ndescription: d", "[a](./b) ".repeat(n));
  }
});

const fallbackName = fc.oneof(
  fc.constantFrom("", "demo", "My Dir", "日本語", "---", "a".repeat(200)),
  anyString(40),
);

// ---------------------------------------------------------------------------
// Invariants

function assertParseResult(result: ParseResult, what: string): void {
  if (result.ok) {
    ok(
      isSkillName(result.skill.name),
      `${what}: invalid name ${JSON.stringify(result.skill.name)}`,
    );
    equal(typeof result.skill.description, "string");
    ok(result.skill.description.trim() !== "", `${what}: empty description`);
    ok(codePointLength(result.skill.description) <= MAX_DESCRIPTION_LENGTH, `${what}: too long`);
    equal(typeof result.skill.content, "string");
    ok(Array.isArray(result.skill.warnings));
  } else {
    equal(result.ok, false);
    ok(typeof result.message === "string" && result.message !== "", `${what}: no reason`);
  }
}

/** Every documented entry point on one text: never a throw, always a documented shape. */
function assertSkillText(text: string, fallback: string): void {
  const split = bounded("splitFrontmatter", () => splitFrontmatter(text));
  if (split !== undefined) {
    equal(typeof split.yaml, "string");
    equal(typeof split.body, "string");
    ok(split.bodyLine > split.yamlLine);
  }
  const strict = bounded(
    "strict parse",
    () => parseSkillMarkdown(text, { fallbackName: fallback, lenient: false }),
  );
  const lenient = bounded(
    "lenient parse",
    () => parseSkillMarkdown(text, { fallbackName: fallback, lenient: true }),
  );
  assertParseResult(strict, "strict");
  assertParseResult(lenient, "lenient");
  // Lenient repairs; it never refuses what strict accepts, and agrees on the name.
  if (strict.ok) {
    ok(lenient.ok, `lenient refused a strict-valid document: ${!lenient.ok && lenient.message}`);
    equal(lenient.skill.name, strict.skill.name);
  }
  if (split === undefined) ok(!strict.ok, "strict accepted a document without frontmatter");

  const spec = bounded("specFindings", () => specFindings(text, { directoryName: fallback }));
  equal(typeof spec.ok, "boolean");
  ok(Array.isArray(spec.findings));
  equal(spec.ok, !spec.findings.some((f) => f.severity === "error"));

  const report = bounded(
    "checkSkill",
    () => checkSkill(text, { fallbackName: fallback, directoryName: fallback }),
  );
  equal(report.schema, "skills-anywhere-local-check-1");
  equal(report.strict.ok, strict.ok);
  equal(report.lenient.ok, lenient.ok);
  equal(report.surface.schema, "skills-anywhere-surface-1");
  // The same text always gives the same report (no hidden state between calls).
  deepEqual(checkSkill(text, { fallbackName: fallback, directoryName: fallback }), report);
}

// ---------------------------------------------------------------------------
// (a) frontmatter, parser, spec checker, checkSkill, strict UTF-8

Deno.test("fuzz: splitter, strict/lenient parser, spec checker and checkSkill on arbitrary Unicode", () => {
  fc.assert(
    fc.property(anyString(400), fallbackName, (text, fallback) => {
      assertSkillText(text, fallback);
      // The same text behind a frontmatter opener exercises the YAML path too.
      assertSkillText(`---\n${text}\n---\n${text}`, fallback);
    }),
    PARAMS,
  );
});

Deno.test("fuzz: splitter, parser, spec checker and checkSkill on generated YAML documents", () => {
  fc.assert(
    fc.property(fc.oneof(yamlDocument, skillDocument), fallbackName, (text, fallback) => {
      assertSkillText(text, fallback);
    }),
    PARAMS,
  );
});

Deno.test("fuzz: deep, long and alias-heavy documents finish within the per-case bound", () => {
  fc.assert(
    fc.property(pathological, (text) => assertSkillText(text, "demo")),
    { ...PARAMS, numRuns: Math.max(1, Math.ceil(RUNS / 10)) },
  );
});

Deno.test("fuzz: a valid SKILL.md keeps its name in both modes whatever follows in the body", () => {
  fc.assert(
    fc.property(
      fc.stringMatching(/^[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,3}$/),
      fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 60 }).filter((d) =>
        d.trim() !== ""
      ),
      anyString(300),
      fc.boolean(),
      (name, description, body, crlf) => {
        const eol = crlf ? "\r\n" : "\n";
        // Quoted: a bare `name: 00` is the YAML number 0, as the core schema says.
        const text =
          ["---", `name: "${name}"`, `description: ${JSON.stringify(description)}`, "---"]
            .join(eol) + eol + body;
        for (const lenient of [false, true]) {
          const result = parseSkillMarkdown(text, { fallbackName: "other", lenient });
          ok(result.ok, `${lenient ? "lenient" : "strict"}: ${!result.ok && result.message}`);
          equal(result.skill.name, name);
          equal(result.skill.description, description.trim());
        }
      },
    ),
    PARAMS,
  );
});

const utf8Bytes = fc.oneof(
  fc.uint8Array({ maxLength: 200 }),
  // Valid UTF-8, then possibly cut mid-sequence or with one byte flipped.
  fc.tuple(fc.string({ unit: "binary", maxLength: 60 }), fc.nat(), fc.integer({ min: 0, max: 255 }))
    .map(([text, at, byte]) => {
      const bytes = new TextEncoder().encode(text);
      if (bytes.length === 0) return bytes;
      const copy = bytes.slice();
      if (at % 3 === 0) copy[at % copy.length] = byte;
      return at % 3 === 1 ? copy.subarray(0, at % copy.length) : copy;
    }),
  fc.constantFrom(
    new Uint8Array([0xef, 0xbb, 0xbf, 0x41]),
    new Uint8Array([0xed, 0xa0, 0x80]), // an encoded surrogate
    new Uint8Array([0xc0, 0x80]), // overlong NUL
    new Uint8Array([0xf4, 0x90, 0x80, 0x80]), // above U+10FFFF
    new Uint8Array([0xff, 0xfe]),
  ),
);

Deno.test("fuzz: decodeUtf8 returns the exact text of the bytes or throws ReadError not-utf8", () => {
  fc.assert(
    fc.property(utf8Bytes, (bytes) => {
      let text: string;
      try {
        text = bounded("decodeUtf8", () => decodeUtf8(bytes));
      } catch (error) {
        ok(error instanceof ReadError, `unexpected error ${error}`);
        equal(error.kind, "not-utf8");
        return;
      }
      // Strict: the text encodes back to exactly the same bytes (no U+FFFD, BOM kept).
      deepEqual(new TextEncoder().encode(text), bytes);
      ok(text.isWellFormed());
    }),
    PARAMS,
  );
});

/** The splitter's definition, by splitting every line (the shape it had before it scanned). */
function splitByLines(text: string) {
  if (text.indexOf("\n") < 0) return undefined;
  const lines = text.split(/\r?\n/);
  if (!/^\uFEFF?---[ \t]*$/.test(lines[0])) return undefined;
  for (let i = 1; i < lines.length; i++) {
    if (/^(?:---|\.\.\.)[ \t]*$/.test(lines[i])) {
      return {
        yaml: lines.slice(1, i).join("\n"),
        body: lines.slice(i + 1).join("\n"),
        yamlLine: 2,
        bodyLine: i + 2,
      };
    }
  }
  return undefined;
}

Deno.test("fuzz: the splitter agrees with splitting every line, on any text and line endings", () => {
  const endings = fc.constantFrom("\n", "\r\n", "\r", "\r\r\n");
  const lineText = fc.oneof(
    fc.constantFrom("---", "...", "--- ", "...\t", "----", "\ufeff---", "", "a: b", " ---"),
    anyString(20),
  );
  const document = fc.array(fc.tuple(lineText, endings), { maxLength: 12 }).chain((parts) =>
    fc.boolean().map((finalBreak) =>
      parts.map(([line, eol], i) => line + (i < parts.length - 1 || finalBreak ? eol : "")).join("")
    )
  );
  fc.assert(
    fc.property(fc.oneof(document, anyString(80)), (text) => {
      deepEqual(splitFrontmatter(text), splitByLines(text));
    }),
    { ...PARAMS, numRuns: RUNS * 3 },
  );
});
