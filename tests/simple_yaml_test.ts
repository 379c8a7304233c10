// The fast frontmatter reader (lib/skill/_simple_yaml.ts) against js-yaml, the full reader it
// stands in for: on generated documents built from the subset's edges (special words, colons,
// hashes, quotes, indents, tabs, non-ASCII, duplicates) and on every committed real-world
// frontmatter, whatever it returns is deep-equal to what js-yaml returns for the same text.
import { deepEqual, equal, ok } from "node:assert/strict";
import fc from "fast-check";
import { load } from "js-yaml";
import { splitFrontmatter } from "../lib/skill/_frontmatter.ts";
import { parseFrontmatterYaml } from "../lib/skill/_yaml.ts";
import { readSimpleYaml } from "../lib/skill/_simple_yaml.ts";
import { PARAMS } from "./fuzz_helpers.ts";

/** js-yaml's value for `text`, or `"refused"` when it throws. */
function full(text: string): unknown {
  try {
    return load(text);
  } catch {
    return "refused";
  }
}

/** Asserts the fast reader either declines `text` or returns exactly js-yaml's value. */
function agrees(text: string): boolean {
  const fast = readSimpleYaml(text);
  if (fast === undefined) return false;
  deepEqual(fast, full(text), `fast reader differs on ${JSON.stringify(text)}`);
  equal(Object.getPrototypeOf(fast), Object.prototype);
  return true;
}

const key = fc.constantFrom(
  "name",
  "description",
  "license",
  "metadata",
  "allowed-tools",
  "x_y",
  "a.b",
  "Null",
  "TRUE",
  "constructor",
  "__proto__",
  "1st",
  "k".repeat(300),
);
const value = fc.oneof(
  fc.constantFrom(
    "pdf",
    "Fill PDF forms. Use when asked",
    "Use it when: the user asks",
    "a:b",
    "ends with:",
    "C# and F#",
    "x #comment",
    "null",
    "Null",
    "NULL",
    "true",
    "False",
    "yes",
    "no",
    "on",
    "1.0",
    "0x1F",
    ".inf",
    "~",
    '"1.0"',
    '"quoted: with # and \' inside"',
    '"esc \\n"',
    '"unterminated',
    "'single'",
    "'it''s'",
    "'half",
    "[a, b]",
    "{a: 1}",
    "&anchor x",
    "*alias",
    "!!str x",
    "|",
    ">-",
    "- item",
    "? k",
    "@at",
    "`tick",
    "%pct",
    "Café — naïve ✓",
    "emoji 😀",
    "tab\there",
    "cr\rhere",
    "bom\ufeffhere",
    "nel\u0085here",
    "ls\u2028here",
    "with  inner  spaces",
    "trailing   ",
    "http://example.com/x?y=z",
    "a, b, c",
    "a [b] {c}",
    "",
  ),
  fc.string({ unit: "grapheme-ascii", maxLength: 16 }),
);
const separator = fc.constantFrom(": ", ":  ", ":", " : ", ":\t");
const indent = fc.constantFrom("", "", " ", "  ", "  ", "    ", "\t");
const anyLine = fc.tuple(indent, key, separator, value).map(([i, k, s, v]) => `${i}${k}${s}${v}`);
/** Mostly inside the subset: a plain, quoted or random value after a valid key. */
const plainValue = fc.oneof(
  value,
  fc.stringMatching(/^[A-Za-z][A-Za-z0-9 .,:#'"-]{0,20}$/),
  fc.stringMatching(/^"[^"\\\n]{0,12}"$/),
);
const goodLine = fc.tuple(fc.constantFrom("name", "description", "license", "x"), plainValue)
  .map(([k, v]) => `${k}: ${v}`);
const nestedBlock = fc.tuple(
  fc.constantFrom("metadata", "other"),
  fc.constantFrom(" ", "  ", "    "),
  fc.array(fc.tuple(fc.constantFrom("author", "version", "a.b", "k"), plainValue), {
    maxLength: 4,
  }),
).map(([k, i, pairs]) => [`${k}:`, ...pairs.map(([nk, v]) => `${i}${nk}: ${v}`)].join("\n"));
const extra = fc.constantFrom("", "   ", "# comment", "---", "...", "  - Bash", "    more text");
const document = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: goodLine },
    { weight: 2, arbitrary: nestedBlock },
    { weight: 2, arbitrary: anyLine },
    { weight: 1, arbitrary: extra },
  ),
  { maxLength: 8 },
).map((lines) => lines.join("\n"));

Deno.test("the fast reader returns js-yaml's value or declines, on generated frontmatter", () => {
  let accepted = 0;
  fc.assert(
    fc.property(document, (text) => {
      if (agrees(text)) accepted++;
    }),
    PARAMS,
  );
  // About one document in ten is inside the subset; fewer would leave the property idle.
  ok(
    accepted * 20 >= PARAMS.numRuns,
    `only ${accepted} generated documents were inside the subset`,
  );
});

Deno.test("the fast reader accepts the common shapes and declines the rest", () => {
  const common = 'name: pdf\ndescription: Fill PDF forms. Use when asked\nlicense: "MIT"\n' +
    'metadata:\n  author: me\n  version: "1.0"\n\nuser-invocable:\ncompatibility: Needs git';
  ok(agrees(common));
  deepEqual(readSimpleYaml(common), {
    name: "pdf",
    description: "Fill PDF forms. Use when asked",
    license: "MIT",
    metadata: { author: "me", version: "1.0" },
    "user-invocable": null,
    compatibility: "Needs git",
  });
  for (
    const declined of [
      "name: a\nname: b", // duplicate: js-yaml refuses
      "metadata:\n  a: x\n  a: y",
      "version: 1.0",
      "enabled: true",
      "description: Use it when: asked",
      "description: two\n  lines",
      "allowed-tools:\n  - Bash",
      "metadata:\n  a: x\n    b: y",
      "metadata:\n  a:\n    b: y",
      "# comment\nname: a",
      "name: a # comment",
      "name: 'it''s'",
      'name: "esc\\n"',
      "name:\tx",
      "name: [a]",
      "description: >-\n  folded",
    ]
  ) {
    equal(readSimpleYaml(declined), undefined, JSON.stringify(declined));
  }
});

Deno.test("the fast reader agrees with js-yaml on every committed real frontmatter", async () => {
  let files = 0;
  let accepted = 0;
  for await (const path of markdownFiles("testdata")) {
    const split = splitFrontmatter(await Deno.readTextFile(path));
    if (split === undefined) continue;
    files++;
    if (agrees(split.yaml)) accepted++;
  }
  ok(files >= 60, `only ${files} frontmatters found`);
  ok(accepted > 0, "the fast reader accepted none of the real frontmatters");
});

Deno.test("parseFrontmatterYaml gives the same value with and without the fast reader", () => {
  const text = 'name: demo\ndescription: A demo skill\nmetadata:\n  version: "2"';
  const parsed = parseFrontmatterYaml(text);
  ok(parsed.ok);
  deepEqual(parsed.value, full(text));
});

async function* markdownFiles(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* markdownFiles(path);
    else if (entry.isFile && entry.name.endsWith(".md")) yield path;
  }
}
