// Property-based tests (SPEC §10, issue 10) with fast-check: the frontmatter splitter and parser,
// the spec checker and `checkSkill` on arbitrary text and generated YAML; strict UTF-8 decoding;
// the bundle manifest validator and comparison; the source-string parser; bundle path validation;
// terminal escaping. A fixed seed and a bounded number of runs keep CI reproducible; set
// FUZZ_SEED and FUZZ_RUNS to explore further (`deno task fuzz` runs 5,000 per property; the
// property on deliberately huge documents runs a tenth as many).
import { deepEqual, equal, notEqual, ok } from "node:assert/strict";
import { isAbsolute, relative, sep } from "node:path";
import fc from "fast-check";
import {
  buildManifest,
  BUNDLE_LIMITS,
  BundleError,
  type BundleFile,
  type BundleManifest,
  canonicalString,
  compareManifests,
  isBundlePath,
  validateManifest,
} from "../lib/bundle/manifest.ts";
import { escapeTerminal, jsonText, quote } from "../lib/cli/escape.ts";
import { decodeUtf8, ReadError } from "../lib/fs/mod.ts";
import { checkSkill } from "../lib/skill/check.ts";
import { codePointLength } from "../lib/skill/description.ts";
import { splitFrontmatter } from "../lib/skill/frontmatter.ts";
import { isSkillName, MAX_DESCRIPTION_LENGTH } from "../lib/skill/names.ts";
import { type ParseResult, parseSkillMarkdown } from "../lib/skill/parse.ts";
import { specFindings } from "../lib/skill/spec.ts";
import { resolveSource, SourceError, type SourceSpec } from "../lib/sources/resolve.ts";

const SEED = Number(Deno.env.get("FUZZ_SEED") ?? "20260710");
const RUNS = Number(Deno.env.get("FUZZ_RUNS") ?? "300");
if (!Number.isSafeInteger(SEED) || !Number.isSafeInteger(RUNS) || RUNS < 1) {
  throw new Error("FUZZ_SEED and FUZZ_RUNS must be integers (FUZZ_RUNS ≥ 1)");
}
console.log(`fuzz: seed ${SEED}, ${RUNS} runs per property (FUZZ_SEED / FUZZ_RUNS to change)`);

/** The runner parameters every property uses; a failure prints the seed and path to replay. */
const PARAMS = { seed: SEED, numRuns: RUNS } as const;
/** A generous bound per case: catches a hang or a quadratic blow-up, not a slow machine. */
const CASE_BUDGET_MS = 2000;

/** Runs `fn` and asserts it finished within the per-case budget. */
function bounded<T>(what: string, fn: () => T): T {
  const start = performance.now();
  const result = fn();
  const elapsed = performance.now() - start;
  ok(elapsed < CASE_BUDGET_MS, `${what} took ${elapsed.toFixed(0)} ms`);
  return result;
}

async function boundedAsync<T>(what: string, fn: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await fn();
  const elapsed = performance.now() - start;
  ok(elapsed < CASE_BUDGET_MS, `${what} took ${elapsed.toFixed(0)} ms`);
  return result;
}

// ---------------------------------------------------------------------------
// Generators

/** Characters a hostile input would use: controls, bidi, invisible, separators, tags, surrogates. */
const HOSTILE_CHARS = [
  "\u0000",
  "\u0007",
  "\u0008",
  "\t",
  "\n",
  "\r",
  "\u001b",
  "\u007f",
  "\u0080",
  "\u0085",
  "\u009b",
  "\u009f",
  "\u00ad",
  "\u034f",
  "\u061c",
  "\u115f",
  "\u180e",
  "\u200b",
  "\u200c",
  "\u200d",
  "\u200e",
  "\u200f",
  "\u2028",
  "\u2029",
  "\u202a",
  "\u202b",
  "\u202c",
  "\u202d",
  "\u202e",
  "\u2060",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
  "\u3164",
  "\ufeff",
  "\ufffd",
  "\ud800",
  "\udbff",
  "\udc00",
  "\udfff",
  "\u{e0001}",
  "\u{e0041}",
  "\u{e007f}",
  "\u{e0100}",
  "\u{1f600}",
  "é",
  "日",
  "\\",
  ":",
  "/",
  ".",
  '"',
  "%",
  "@",
  "#",
];

/** One UTF-16 unit of any kind: a full code point, a lone code unit, or a hostile character. */
const anyUnit = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_CHARS) },
  { weight: 3, arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }) },
);

/** Arbitrary full-Unicode strings, lone surrogates included. */
const anyString = (maxLength = 300) => fc.string({ unit: anyUnit, maxLength });

/** A YAML key: known frontmatter fields, YAML syntax fragments, or arbitrary text. */
const yamlKey = fc.oneof(
  fc.constantFrom(
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
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

// ---------------------------------------------------------------------------
// (b) bundle manifests

const SEGMENT_CHARS = [
  ..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._- ~+=,;'()[]{}",
  "é",
  "ü",
  "ñ",
  "ø",
  "日",
  "本",
  "Ａ",
  "e\u0301",
  "\u{1f600}",
  "\u{1d4b3}",
  "\u{10000}",
];
const segment = fc.string({ unit: fc.constantFrom(...SEGMENT_CHARS), minLength: 1, maxLength: 12 })
  .filter((s) => s !== "." && s !== "..");
const relPath = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join("/"));
const sha = fc.stringMatching(/^[0-9a-f]{64}$/);
const byteCount = fc.oneof(
  fc.integer({ min: 0, max: 4096 }),
  fc.integer({ min: 0, max: BUNDLE_LIMITS.maxFileBytes }),
  fc.constantFrom(0, BUNDLE_LIMITS.maxFileBytes),
);

/** No path may also be the parent directory of another. */
function dropDirectoryConflicts(paths: string[]): string[] {
  const kept: string[] = [];
  for (const path of paths) {
    const conflicts = kept.some((other) =>
      other.startsWith(`${path}/`) || path.startsWith(`${other}/`)
    );
    if (!conflicts) kept.push(path);
  }
  return kept;
}

/** A valid row set: SKILL.md ≤ 128 KiB, unique paths, no file-is-directory, total ≤ 32 MiB. */
const rowSet: fc.Arbitrary<BundleFile[]> = fc.record({
  skillBytes: fc.integer({ min: 0, max: BUNDLE_LIMITS.maxSkillBytes }),
  skillSha: sha,
  others: fc.uniqueArray(fc.tuple(relPath, byteCount, sha), {
    maxLength: 12,
    selector: ([path]) => path,
  }),
}).map(({ skillBytes, skillSha, others }) => {
  const paths = new Set(
    dropDirectoryConflicts(["SKILL.md", ...others.map(([path]) => path)]),
  );
  let total = skillBytes;
  const rows: BundleFile[] = [{ path: "SKILL.md", bytes: skillBytes, sha256: skillSha }];
  for (const [path, bytes, sha256] of others) {
    if (path === "SKILL.md" || !paths.has(path)) continue;
    const capped = Math.min(bytes, BUNDLE_LIMITS.maxTotalBytes - total);
    total += capped;
    rows.push({ path, bytes: capped, sha256 });
  }
  return rows;
});

/** The rows as a canonical multiset key (order-independent). */
function rowKey(rows: readonly BundleFile[]): string {
  const order = (x: string | number, y: string | number) => x < y ? -1 : x > y ? 1 : 0;
  return canonicalString(
    [...rows].sort((a, b) =>
      order(a.path, b.path) || order(a.sha256, b.sha256) || order(a.bytes, b.bytes)
    ),
  );
}

type Mutation = {
  what: string;
  /** The mutated document as received. */
  doc: Record<string, unknown>;
  /** The mutated rows, when the mutation is a change of the inventory. */
  rows?: BundleFile[];
};

function flipHex(hex: string, at: number): string {
  const i = at % hex.length;
  return hex.slice(0, i) + (hex[i] === "0" ? "1" : "0") + hex.slice(i + 1);
}

/** Every single mutation of `manifest`, picked by `pick`. */
function mutations(manifest: BundleManifest, pick: number, newPath: string): Mutation[] {
  const files = manifest.files.map((f) => ({ ...f }));
  const n = files.length;
  const i = pick % n;
  const j = (pick + 1) % n;
  const withFiles = (rows: BundleFile[]) => ({ ...manifest, files: rows });
  const out: Mutation[] = [];
  const changed = (row: Partial<BundleFile>) => files.map((f, k) => k === i ? { ...f, ...row } : f);

  if (!files.some((f) => f.path === newPath)) {
    const rows = changed({ path: newPath });
    out.push({ what: "path", doc: withFiles(rows), rows });
  }
  const bytes = files[i].bytes === 0 ? 1 : files[i].bytes - 1;
  const byteRows = changed({ bytes });
  out.push({ what: "bytes", doc: withFiles(byteRows), rows: byteRows });
  const shaRows = changed({ sha256: flipHex(files[i].sha256, pick) });
  out.push({ what: "sha", doc: withFiles(shaRows), rows: shaRows });
  const dropped = files.filter((_, k) => k !== i);
  out.push({ what: "drop", doc: withFiles(dropped), rows: dropped });
  const duplicated = [...files.slice(0, i + 1), { ...files[i] }, ...files.slice(i + 1)];
  out.push({ what: "duplicate", doc: withFiles(duplicated), rows: duplicated });
  if (n >= 2) {
    const swapped = files.slice();
    [swapped[i], swapped[j]] = [swapped[j], swapped[i]];
    out.push({ what: "swap", doc: withFiles(swapped), rows: swapped });
  }
  out.push({ what: "extra key", doc: { ...manifest, extra: true } });
  out.push({
    what: "extra row key",
    doc: withFiles(files.map((f, k) => k === i ? { ...f, mode: 420 } : f)),
  });
  out.push({ what: "schema", doc: { ...manifest, schema: "skills-anywhere-bundle-2" } });
  out.push({ what: "total", doc: { ...manifest, total_bytes: manifest.total_bytes + 1 } });
  out.push({ what: "digest", doc: { ...manifest, sha256: flipHex(manifest.sha256, pick) } });
  out.push({
    what: "bytes as string",
    doc: {
      ...manifest,
      files: files.map((f, k) => k === i ? { ...f, bytes: String(f.bytes) } : f),
    },
  });
  out.push({
    what: "uppercase sha",
    doc: withFiles(changed({ sha256: files[i].sha256.toUpperCase() })),
  });
  return out;
}

Deno.test("fuzz: a valid manifest round-trips through JSON and validateManifest; it matches itself", async () => {
  await fc.assert(
    fc.asyncProperty(rowSet, fc.boolean(), async (rows, reverse) => {
      const input = reverse ? [...rows].reverse() : rows;
      const manifest = await boundedAsync("buildManifest", () => buildManifest(input));
      const received = JSON.parse(JSON.stringify(manifest));
      const validated = await boundedAsync("validateManifest", () => validateManifest(received));
      deepEqual(validated, manifest);
      deepEqual(Object.keys(validated), ["schema", "sha256", "total_bytes", "files"]);
      deepEqual(await buildManifest(validated.files), manifest, "the build is deterministic");
      const self = compareManifests(manifest, validated);
      ok(self.matches);
      deepEqual([self.added, self.removed, self.changed], [[], [], []]);
    }),
    PARAMS,
  );
});

Deno.test("fuzz: every single mutation of a manifest is refused; re-digested, it changes the digest", async () => {
  await fc.assert(
    fc.asyncProperty(rowSet, fc.nat(), relPath, async (rows, pick, newPath) => {
      const manifest = await buildManifest(rows);
      for (const mutation of mutations(manifest, pick, newPath)) {
        const doc = JSON.parse(JSON.stringify(mutation.doc));
        let refused: unknown;
        try {
          await validateManifest(doc);
        } catch (error) {
          refused = error;
        }
        ok(refused instanceof BundleError, `mutation "${mutation.what}" was accepted`);
        if (mutation.rows !== undefined) {
          const rebuilt = await buildManifest(mutation.rows);
          const same = rowKey(mutation.rows) === rowKey(manifest.files);
          if (same) equal(rebuilt.sha256, manifest.sha256, mutation.what);
          else notEqual(rebuilt.sha256, manifest.sha256, `${mutation.what} kept the digest`);
          const comparison = compareManifests(manifest, rebuilt);
          equal(comparison.matches, same);
        }
      }
    }),
    PARAMS,
  );
});

Deno.test("fuzz: validateManifest on arbitrary JSON values only ever throws BundleError", async () => {
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 4, stringUnit: anyUnit }),
    fc.record({
      schema: fc.oneof(fc.constant("skills-anywhere-bundle-1"), fc.jsonValue({ maxDepth: 1 })),
      sha256: fc.oneof(sha, fc.jsonValue({ maxDepth: 1 })),
      total_bytes: fc.oneof(fc.integer(), fc.double(), fc.jsonValue({ maxDepth: 1 })),
      files: fc.oneof(
        fc.array(
          fc.record({
            path: fc.oneof(relPath, anyString(20), fc.jsonValue({ maxDepth: 1 })),
            bytes: fc.oneof(byteCount, fc.double(), fc.boolean(), fc.string()),
            sha256: fc.oneof(sha, fc.string()),
          }),
          { maxLength: 6 },
        ),
        fc.jsonValue({ maxDepth: 2 }),
      ),
    }),
  );
  await fc.assert(
    fc.asyncProperty(value, async (doc) => {
      try {
        const manifest = await validateManifest(doc);
        // Accepted: it must be exactly what buildManifest makes of its rows.
        deepEqual(manifest, await buildManifest(manifest.files));
      } catch (error) {
        ok(error instanceof BundleError, `unexpected error ${error}`);
      }
    }),
    PARAMS,
  );
});

// ---------------------------------------------------------------------------
// (c) source strings

const CACHE = "/tmp/dsa-fuzz-home/.dsh/skills-anywhere/cache";

const sourcePiece = fc.oneof(
  fc.constantFrom(
    "../",
    "./",
    "..",
    ".",
    "/",
    "//",
    "\\",
    "..\\",
    "%2e",
    "%2e%2e/",
    "%2F",
    "github:",
    "gh:",
    "git@h:",
    "git@github.com:",
    "user@host:",
    "https://github.com/",
    "http://github.com/",
    "https://x/",
    "ssh://",
    "git://",
    "file:",
    "file:///",
    "/tree/",
    "@",
    "#",
    "@v1",
    "#main",
    ".git",
    "\u0000",
    "owner",
    "repo",
    "skills",
    " ",
  ),
  fc.string({ unit: "grapheme-ascii", maxLength: 6 }),
);
const sourceWord = fc.oneof(
  fc.constantFrom("o", "owner", "r", "repo.git", "..", ".", "", "%2e%2e", "a\\b", "x\u0000", "~"),
  fc.stringMatching(/^[A-Za-z0-9_.-]{1,8}$/),
);
/** `<prefix><owner>/<repo>[/<path>][@ref|#ref]`: mostly parseable, with hostile parts. */
const structuredSource = fc.tuple(
  fc.constantFrom(
    "",
    "github:",
    "gh:",
    "https://github.com/",
    "http://github.com/",
    "https://gitlab.com/",
    "ssh://git@host/",
    "git://127.0.0.1:1/",
    "git@h:",
    "user@host:",
    "file:///tmp/",
    "/abs/",
    "./",
    "../",
  ),
  sourceWord,
  sourceWord,
  fc.array(sourceWord, { maxLength: 4 }),
  fc.boolean(),
  fc.constantFrom("", "@v1", "#main", "@..", "#../..", "@a\\b", "/"),
).map(([prefix, owner, repo, path, tree, suffix]) =>
  `${prefix}${owner}/${repo}${tree && path.length > 0 ? "/tree" : ""}${
    path.map((p) => `/${p}`).join("")
  }${suffix}`
);
const sourceString = fc.oneof(
  anyString(80),
  structuredSource,
  fc.array(sourcePiece, { maxLength: 12 }).map((parts) => parts.join("")),
  fc.tuple(fc.constantFrom("", "github:", "o/", "x/"), fc.integer({ min: 1, max: 20_000 }))
    .map(([prefix, n]) => `${prefix}${"/".repeat(n)}x`),
);
const optionalPart = fc.option(
  fc.oneof(fc.array(sourcePiece, { maxLength: 6 }).map((p) => p.join("")), anyString(20)),
  { nil: undefined },
);
const sourceSpec: fc.Arbitrary<string | SourceSpec> = fc.oneof(
  // The hostile strings of REF §4.1 step 7 and §11 #1, #2.
  fc.constantFrom<string | SourceSpec>(
    "github:../..",
    "https://github.com/../..",
    "https://x/../../../..",
    "git@h:../../..",
    "o/./r",
    "o\\r/x",
    "../..",
    { repo: "o/r", path: "../r-private" },
    { repo: "o/r", path: "../../etc" },
    { repo: "o/r", path: ".." },
    { repo: "o/r", ref: "../../.." },
  ),
  sourceString,
  fc.record({ repo: sourceString, ref: optionalPart, path: optionalPart }).map((spec) => {
    const out: SourceSpec = { repo: spec.repo };
    if (spec.ref !== undefined) out.ref = spec.ref;
    if (spec.path !== undefined) out.path = spec.path;
    return out;
  }),
);

function strictlyInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

function insideOrSame(parent: string, child: string): boolean {
  return relative(parent, child) === "" || strictlyInside(parent, child);
}

Deno.test("fuzz: resolveSource throws SourceError or resolves strictly inside the cache", () => {
  fc.assert(
    fc.property(sourceSpec, (spec) => {
      let resolved;
      try {
        resolved = bounded("resolveSource", () => resolveSource(spec, CACHE));
      } catch (error) {
        ok(error instanceof SourceError, `unexpected error ${error}`);
        ok(["unparseable", "hostile", "escapes"].includes(error.kind), error.message);
        return;
      }
      ok(strictlyInside(CACHE, resolved.dir), `dir escapes: ${resolved.dir}`);
      ok(insideOrSame(resolved.dir, resolved.scanDir), `scanDir escapes: ${resolved.scanDir}`);
      for (const part of resolved.id.split("/")) {
        ok(part !== "" && part !== "." && part !== ".." && !part.includes("\\"), resolved.id);
      }
      equal(
        resolved.key,
        resolved.ref === undefined ? resolved.id : `${resolved.id}@${resolved.ref}`,
      );
    }),
    PARAMS,
  );
});

// ---------------------------------------------------------------------------
// (d) bundle paths

/** An independent statement of the path rule (SPEC §4, REF §7.2). */
function expectedBundlePath(path: string): boolean {
  // deno-lint-ignore no-control-regex
  if (path === "" || /[\u0000-\u001f\u007f\\:\ufffd]/.test(path) || !path.isWellFormed()) {
    return false;
  }
  if (new TextEncoder().encode(path).length > 1024) return false;
  return path.split("/").every((s) => s !== "" && s !== "." && s !== "..");
}

const pathCandidate = fc.oneof(
  anyString(60),
  relPath,
  fc.array(fc.oneof(segment, fc.constantFrom("", ".", "..", "a\\b", "c:d", "\ufffd", "\u0000")), {
    minLength: 1,
    maxLength: 5,
  }).map((parts) => parts.join("/")),
  fc.tuple(fc.constantFrom("a", "é", "日", "\u{1f600}"), fc.integer({ min: 200, max: 1100 }))
    .map(([ch, n]) => ch.repeat(n)),
);

Deno.test("fuzz: isBundlePath accepts only clean relative paths of at most 1,024 UTF-8 bytes", () => {
  fc.assert(
    fc.property(pathCandidate, (path) => {
      const accepted = bounded("isBundlePath", () => isBundlePath(path));
      equal(accepted, expectedBundlePath(path), JSON.stringify(path));
      if (accepted) {
        // deno-lint-ignore no-control-regex
        ok(!/[\u0000-\u001f\u007f\\:\ufffd]/.test(path));
        ok(path.isWellFormed());
        ok(new TextEncoder().encode(path).length <= 1024);
        for (const part of path.split("/")) ok(part !== "" && part !== "." && part !== "..");
      }
    }),
    PARAMS,
  );
  for (const value of [undefined, null, 42, {}, ["a"]]) equal(isBundlePath(value), false);
});

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
