// Agent Skills specification conformance findings and the per-file check report.
import { deepStrictEqual, match, ok, strictEqual } from "node:assert/strict";
import {
  estimateTokens,
  MAX_BODY_LINES,
  MAX_BODY_TOKENS,
  MAX_COMPATIBILITY_LENGTH,
  SPEC_KEYS,
  type SpecFinding,
  specFindings,
  type SpecReport,
  type SpecRule,
} from "../lib/check/_spec.ts";
import { checkPassed, checkSkill } from "../lib/check/_check.ts";
import { BILLION_LAUGHS } from "./skill_fixtures.ts";

// ---------------------------------------------------------------------------
// helpers

/** A document with the given frontmatter lines and body. */
function doc(frontmatter: string[], body = "\n# Title\n\nDo the thing.\n"): string {
  return `---\n${frontmatter.join("\n")}\n---\n${body}`;
}

const NAME = "name: pdf-forms";
const DESCRIPTION = "description: Fill in PDF forms. Use when the user asks to fill a PDF form.";

/** A minimal valid document plus extra frontmatter lines. */
function withFields(extra: string[], body?: string): string {
  return doc([NAME, DESCRIPTION, ...extra], body);
}

function rules(report: SpecReport): SpecRule[] {
  return report.findings.map((f) => f.rule);
}

function only(report: SpecReport, rule: SpecRule): SpecFinding {
  const found = report.findings.filter((f) => f.rule === rule);
  strictEqual(found.length, 1, `expected one ${rule}, got ${JSON.stringify(report.findings)}`);
  return found[0];
}

function assertClean(report: SpecReport): void {
  deepStrictEqual(report.findings, []);
  strictEqual(report.ok, true);
}

function assertNo(report: SpecReport, rule: SpecRule): void {
  ok(!rules(report).includes(rule), `unexpected ${rule}: ${JSON.stringify(report.findings)}`);
}

const CLEAN = doc([
  "name: pdf-forms",
  "description: Fill in PDF forms. Use when the user asks to fill a PDF form.",
  "license: Apache-2.0",
  "compatibility: Requires python3 and network access",
  "allowed-tools: Bash(python:*) Read",
  "metadata:",
  "  author: example-org",
  "  version: 1.0",
], "\n# PDF forms\n\n1. Read the form.\n2. Fill it in.\n");

// ---------------------------------------------------------------------------
// clean skill

Deno.test("spec: a spec-conformant skill has zero findings", () => {
  assertClean(specFindings(CLEAN, { directoryName: "pdf-forms" }));
  assertClean(specFindings(CLEAN));
  assertClean(specFindings(doc([NAME, DESCRIPTION], "")));
});

Deno.test("checkSkill: a clean skill passes strict, lenient and spec", () => {
  const report = checkSkill(CLEAN, { fallbackName: "pdf-forms", directoryName: "pdf-forms" });
  strictEqual(report.schema, "skills-anywhere-local-check-1");
  strictEqual(report.input.fallbackName, "pdf-forms");
  strictEqual(report.input.bytes, new TextEncoder().encode(CLEAN).length);
  for (const mode of [report.strict, report.lenient]) {
    ok(mode.ok, JSON.stringify(mode));
    strictEqual(mode.name, "pdf-forms");
    strictEqual(
      mode.description,
      "Fill in PDF forms. Use when the user asks to fill a PDF form.",
    );
    deepStrictEqual(mode.warnings, []);
    deepStrictEqual(mode.invocation, { modelInvocable: true, userInvocable: true });
    // only the keys of the author's `metadata` mapping
    deepStrictEqual(mode.metadataKeys, ["author", "version"]);
    strictEqual(mode.bodyBytes, "# PDF forms\n\n1. Read the form.\n2. Fill it in.".length);
  }
  strictEqual(report.spec.ok, true);
  deepStrictEqual(report.spec.findings, []);
});

Deno.test("checkSkill: the directory rule applies only with directoryName", () => {
  const withDir = checkSkill(CLEAN, { fallbackName: "other", directoryName: "other" });
  strictEqual(withDir.spec.ok, false);
  deepStrictEqual(rules(withDir.spec), ["name-directory-mismatch"]);
  // parse modes do not care about the directory when the name is valid
  ok(withDir.strict.ok);
  ok(withDir.lenient.ok);
  const flat = checkSkill(CLEAN, { fallbackName: "other" });
  assertClean(flat.spec);
});

Deno.test("checkSkill: a failing file reports each mode and the spec separately", () => {
  const report = checkSkill("no frontmatter here", { fallbackName: "notes" });
  deepStrictEqual(report.strict, { ok: false, reason: "missing YAML frontmatter" });
  ok(report.lenient.ok);
  strictEqual(report.lenient.name, "notes");
  deepStrictEqual(rules(report.spec), ["frontmatter-missing"]);
  strictEqual(report.spec.ok, false);
});

// ---------------------------------------------------------------------------
// frontmatter-missing, yaml-invalid

Deno.test("spec: frontmatter-missing fires without frontmatter", () => {
  for (const raw of ["# Just markdown\n\nText.", "---\nname: a\ndescription: b\n", ""]) {
    const report = specFindings(raw);
    strictEqual(report.ok, false);
    const finding = only(report, "frontmatter-missing");
    strictEqual(finding.severity, "error");
    strictEqual(finding.line, 1);
    strictEqual(report.findings.length, 1);
  }
});

Deno.test("spec: frontmatter-missing does not fire with frontmatter (BOM, CRLF, `...`)", () => {
  assertClean(specFindings(`\uFEFF---\r\n${NAME}\r\n${DESCRIPTION}\r\n...\r\nBody\r\n`));
});

Deno.test("spec: yaml-invalid fires on broken YAML and names the line", () => {
  const report = specFindings(withFields(["  bad: indent"]));
  strictEqual(report.ok, false);
  const finding = only(report, "yaml-invalid");
  strictEqual(finding.severity, "error");
  match(finding.message, /^invalid YAML: /);
  match(finding.message, /\bline 4\b/);
  strictEqual(report.findings.length, 1);
});

Deno.test("spec: yaml-invalid fires on duplicate keys, naming the line", () => {
  const report = specFindings(doc([NAME, DESCRIPTION, "name: again"]));
  const finding = only(report, "yaml-invalid");
  match(finding.message, /duplicated mapping key/);
  match(finding.message, /\bline 4\b/);
});

Deno.test("spec: yaml-invalid fires on an alias bomb and on deep nesting", () => {
  const bomb = [...BILLION_LAUGHS];
  deepStrictEqual(rules(specFindings(withFields(bomb))), ["yaml-invalid"]);
  const deep = "deep: " + "[".repeat(10_000) + "]".repeat(10_000);
  deepStrictEqual(rules(specFindings(withFields([deep]))), ["yaml-invalid"]);
});

Deno.test("spec: yaml-invalid fires when the frontmatter is not a mapping", () => {
  for (const yaml of ["- name: a\n- description: b", "just a string"]) {
    const report = specFindings(`---\n${yaml}\n---\nBody`);
    const finding = only(report, "yaml-invalid");
    strictEqual(finding.message, "frontmatter must be a YAML mapping");
    strictEqual(finding.line, 2);
    strictEqual(report.ok, false);
  }
});

Deno.test("spec: yaml-invalid does not fire on valid YAML", () => {
  assertNo(specFindings(CLEAN), "yaml-invalid");
});

// ---------------------------------------------------------------------------
// name rules

Deno.test("spec: name-missing fires when the name is absent, empty or not a string", () => {
  const absent = specFindings(doc([DESCRIPTION]));
  deepStrictEqual(rules(absent), ["name-missing"]);
  strictEqual(absent.ok, false);
  strictEqual(absent.findings[0].severity, "error");

  const empty = specFindings(doc(["name:", DESCRIPTION]));
  deepStrictEqual(rules(empty), ["name-missing"]);
  strictEqual(empty.findings[0].line, 2);

  deepStrictEqual(rules(specFindings(doc(['name: ""', DESCRIPTION]))), ["name-missing"]);
  const list = specFindings(doc(["name: [a, b]", DESCRIPTION]));
  deepStrictEqual(rules(list), ["name-missing"]);
  match(list.findings[0].message, /string/);
});

Deno.test("spec: name-missing does not fire with a name", () => {
  assertNo(specFindings(CLEAN), "name-missing");
  // with scalars read as strings, a numeric name is a name
  assertClean(specFindings(doc(["name: 123", DESCRIPTION])));
});

Deno.test("spec: name-length fires over 64 characters only", () => {
  const long = specFindings(doc([`name: ${"a".repeat(65)}`, DESCRIPTION]));
  deepStrictEqual(rules(long), ["name-length"]);
  strictEqual(long.findings[0].line, 2);
  strictEqual(long.findings[0].severity, "error");
  match(long.findings[0].message, /65/);
  strictEqual(long.ok, false);
  assertClean(specFindings(doc([`name: ${"a".repeat(64)}`, DESCRIPTION])));
});

Deno.test("spec: name-charset fires on characters outside a-z, 0-9 and hyphen", () => {
  for (const name of ["PDF-Forms", "pdf_forms", "pdf.forms", "café", '"pdf forms"', "Bad"]) {
    const report = specFindings(doc([`name: ${name}`, DESCRIPTION]));
    deepStrictEqual(rules(report), ["name-charset"], `name ${name}`);
    strictEqual(report.findings[0].line, 2);
    strictEqual(report.ok, false);
  }
  assertNo(specFindings(doc(["name: a1-b2-c3", DESCRIPTION])), "name-charset");
});

Deno.test("spec: name-hyphen fires on leading, trailing and consecutive hyphens", () => {
  for (const name of ["-pdf", "pdf-", "pdf--forms", "-"]) {
    const report = specFindings(doc([`name: "${name}"`, DESCRIPTION]));
    deepStrictEqual(rules(report), ["name-hyphen"], `name ${name}`);
    strictEqual(report.findings[0].line, 2);
    strictEqual(report.ok, false);
  }
  assertNo(specFindings(doc(["name: pdf-forms-v2", DESCRIPTION])), "name-hyphen");
});

Deno.test("spec: several name rules can fire together", () => {
  const report = specFindings(doc([`name: "-${"A".repeat(70)}"`, DESCRIPTION]));
  deepStrictEqual(rules(report), ["name-length", "name-charset", "name-hyphen"]);
});

Deno.test("spec: name-directory-mismatch fires only when directoryName is given", () => {
  const raw = doc([NAME, DESCRIPTION]);
  const mismatch = specFindings(raw, { directoryName: "pdf-tools" });
  deepStrictEqual(rules(mismatch), ["name-directory-mismatch"]);
  strictEqual(mismatch.findings[0].severity, "error");
  strictEqual(mismatch.findings[0].line, 2);
  match(mismatch.findings[0].message, /"pdf-forms"/);
  match(mismatch.findings[0].message, /"pdf-tools"/);
  strictEqual(mismatch.ok, false);

  assertClean(specFindings(raw, { directoryName: "pdf-forms" }));
  assertClean(specFindings(raw));
  assertClean(specFindings(raw, {}));
});

// ---------------------------------------------------------------------------
// description rules

Deno.test("spec: description-missing fires when absent, blank or not a string", () => {
  const absent = specFindings(doc([NAME]));
  deepStrictEqual(rules(absent), ["description-missing"]);
  strictEqual(absent.ok, false);
  strictEqual(absent.findings[0].severity, "error");

  const blank = specFindings(doc([NAME, "description: '   '"]));
  deepStrictEqual(rules(blank), ["description-missing"]);
  strictEqual(blank.findings[0].line, 3);

  deepStrictEqual(rules(specFindings(doc([NAME, "description:"]))), ["description-missing"]);
  deepStrictEqual(rules(specFindings(doc([NAME, "description: {a: b}"]))), [
    "description-missing",
  ]);
});

Deno.test("spec: description-missing does not fire with a description", () => {
  assertNo(specFindings(CLEAN), "description-missing");
});

Deno.test("spec: description-length counts code points (1024 astral pass, 1025 fail)", () => {
  assertClean(specFindings(doc([NAME, `description: ${"😀".repeat(1024)}`])));
  const long = specFindings(doc([NAME, `description: ${"😀".repeat(1025)}`]));
  deepStrictEqual(rules(long), ["description-length"]);
  strictEqual(long.findings[0].severity, "error");
  strictEqual(long.findings[0].line, 3);
  match(long.findings[0].message, /1025/);
  strictEqual(long.ok, false);

  assertClean(specFindings(doc([NAME, `description: ${"d".repeat(1024)}`])));
  deepStrictEqual(rules(specFindings(doc([NAME, `description: ${"d".repeat(1025)}`]))), [
    "description-length",
  ]);
});

// ---------------------------------------------------------------------------
// optional fields

Deno.test("spec: compatibility-length fires over 500 characters and when empty", () => {
  const long = specFindings(withFields([`compatibility: ${"c".repeat(501)}`]));
  deepStrictEqual(rules(long), ["compatibility-length"]);
  strictEqual(long.findings[0].severity, "error");
  strictEqual(long.findings[0].line, 4);
  match(long.findings[0].message, /501/);
  strictEqual(long.ok, false);

  deepStrictEqual(rules(specFindings(withFields(['compatibility: ""']))), [
    "compatibility-length",
  ]);
  deepStrictEqual(rules(specFindings(withFields(["compatibility:"]))), ["compatibility-length"]);
  deepStrictEqual(rules(specFindings(withFields(["compatibility: [a, b]"]))), [
    "compatibility-length",
  ]);
});

Deno.test("spec: compatibility-length does not fire at 1..500 characters", () => {
  strictEqual(MAX_COMPATIBILITY_LENGTH, 500);
  assertClean(specFindings(withFields([`compatibility: ${"c".repeat(500)}`])));
  assertClean(specFindings(withFields([`compatibility: ${"😀".repeat(500)}`])));
  assertClean(specFindings(withFields(["compatibility: x"])));
  assertClean(specFindings(withFields([])));
});

Deno.test("spec: license-type fires when license is not a string", () => {
  for (const value of ["[MIT, Apache-2.0]", "{spdx: MIT}"]) {
    const report = specFindings(withFields([`license: ${value}`]));
    deepStrictEqual(rules(report), ["license-type"], value);
    strictEqual(report.findings[0].severity, "error");
    strictEqual(report.findings[0].line, 4);
    strictEqual(report.ok, false);
  }
});

Deno.test("spec: license-type does not fire for string licenses", () => {
  assertClean(specFindings(withFields(["license: Apache-2.0"])));
  assertClean(specFindings(withFields(["license: Proprietary. LICENSE.txt has terms"])));
  assertClean(specFindings(withFields(["license: 2"])));
});

Deno.test("spec: metadata-type fires on nested maps, lists and non-mappings", () => {
  const nested = specFindings(withFields(["metadata:", "  author: me", "  extra:", "    a: b"]));
  deepStrictEqual(rules(nested), ["metadata-type"]);
  strictEqual(nested.findings[0].severity, "error");
  strictEqual(nested.findings[0].line, 4);
  match(nested.findings[0].message, /"extra"/);
  strictEqual(nested.ok, false);

  const listValue = specFindings(withFields(["metadata:", "  tags: [a, b]"]));
  deepStrictEqual(rules(listValue), ["metadata-type"]);
  match(listValue.findings[0].message, /"tags"/);

  deepStrictEqual(rules(specFindings(withFields(["metadata: [a, b]"]))), ["metadata-type"]);
  deepStrictEqual(rules(specFindings(withFields(["metadata: plain"]))), ["metadata-type"]);
});

Deno.test("spec: metadata-type does not fire for string values (scalars read as strings)", () => {
  assertClean(specFindings(withFields(["metadata:", "  version: 1.0"])));
  assertClean(
    specFindings(withFields(["metadata:", "  version: 1.0", "  beta: true", "  count: 3"])),
  );
  assertClean(specFindings(withFields(["metadata: {}"])));
});

Deno.test("spec: allowed-tools-type fires for a YAML list or mapping", () => {
  const list = specFindings(withFields(["allowed-tools:", "  - Read", "  - Bash"]));
  deepStrictEqual(rules(list), ["allowed-tools-type"]);
  strictEqual(list.findings[0].severity, "error");
  strictEqual(list.findings[0].line, 4);
  strictEqual(list.ok, false);
  deepStrictEqual(rules(specFindings(withFields(["allowed-tools: [Read, Bash]"]))), [
    "allowed-tools-type",
  ]);
  deepStrictEqual(rules(specFindings(withFields(["allowed-tools: {Read: yes}"]))), [
    "allowed-tools-type",
  ]);
});

Deno.test("spec: allowed-tools-type does not fire for one space-separated string", () => {
  assertClean(specFindings(withFields(["allowed-tools: Bash(git:*) Read Write"])));
});

// ---------------------------------------------------------------------------
// extension-field (warning)

Deno.test("spec: extension-field warns naming Claude Code for its extensions", () => {
  const keys = ["disable-model-invocation", "user-invocable", "argument-hint"];
  const report = specFindings(
    withFields(["disable-model-invocation: true", "user-invocable: false", 'argument-hint: "[f]"']),
  );
  deepStrictEqual(rules(report), ["extension-field", "extension-field", "extension-field"]);
  strictEqual(report.ok, true, "warnings do not fail the spec");
  report.findings.forEach((finding, index) => {
    strictEqual(finding.severity, "warning");
    strictEqual(finding.line, 4 + index);
    ok(finding.message.includes(`"${keys[index]}"`), finding.message);
    ok(finding.message.includes("Claude Code"), finding.message);
  });
});

Deno.test("spec: extension-field warns for unknown keys without naming a client", () => {
  const report = specFindings(withFields(["custom-thing: 1", "constructor: x", "toString: y"]));
  deepStrictEqual(rules(report), ["extension-field", "extension-field", "extension-field"]);
  strictEqual(report.ok, true);
  for (const [index, key] of ["custom-thing", "constructor", "toString"].entries()) {
    const finding = report.findings[index];
    strictEqual(finding.severity, "warning");
    strictEqual(
      finding.message,
      `"${key}" is not a field of the Agent Skills specification`,
    );
    strictEqual(finding.line, 4 + index);
  }
});

Deno.test("spec: extensionSeverity error makes every extension field an error (the reference verdict)", () => {
  const text = withFields(["user-invocable: false", "version: 1.0.0"]);
  const report = specFindings(text, { extensionSeverity: "error" });
  deepStrictEqual(rules(report), ["extension-field", "extension-field"]);
  strictEqual(report.ok, false);
  for (const finding of report.findings) strictEqual(finding.severity, "error");
  strictEqual(specFindings(text).ok, true, "a warning by default");
});

Deno.test("checkPassed: reference fails an extension field that spec passes, whatever the report's profile", () => {
  const text = "---\nname: demo\ndescription: Demo.\nargument-hint: <file>\n---\n";
  const plain = checkSkill(text, { fallbackName: "demo", directoryName: "demo" });
  const reference = checkSkill(text, {
    fallbackName: "demo",
    directoryName: "demo",
    profile: "reference",
  });
  strictEqual(plain.spec.findings[0].severity, "warning");
  strictEqual(reference.spec.findings[0].severity, "error");
  strictEqual(checkPassed(plain, { profile: "spec" }), true);
  strictEqual(checkPassed(plain, { profile: "reference" }), false);
  strictEqual(checkPassed(reference, { profile: "reference" }), false);
  strictEqual(checkPassed(reference, { profile: "strict" }), true);
  const flow = "---\nname: demo\ndescription: Demo.\nmetadata: {author: a, version: '1'}\n---\n";
  strictEqual(
    checkPassed(checkSkill(flow, { fallbackName: "demo" }), { profile: "reference" }),
    true,
  );
});

Deno.test("spec: extension-field does not fire for the six spec keys", () => {
  deepStrictEqual(
    [...SPEC_KEYS].sort(),
    ["allowed-tools", "compatibility", "description", "license", "metadata", "name"],
  );
  assertClean(specFindings(CLEAN));
});

Deno.test("spec: a `__proto__` key is an ordinary extension field", () => {
  const report = specFindings(withFields(["__proto__:", "  polluted: yes"]));
  deepStrictEqual(rules(report), ["extension-field"]);
  strictEqual(
    report.findings[0].message,
    '"__proto__" is not a field of the Agent Skills specification',
  );
  strictEqual(({} as Record<string, unknown>).polluted, undefined);
});

// ---------------------------------------------------------------------------
// body-lines and body-tokens (warnings)

Deno.test("spec: body-lines warns over 500 lines and names the first line over", () => {
  strictEqual(MAX_BODY_LINES, 500);
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join("\n");
  // frontmatter on lines 1-4, body from line 5
  const over = specFindings(withFields([], lines(501)));
  const finding = only(over, "body-lines");
  strictEqual(finding.severity, "warning");
  match(finding.message, /501/);
  strictEqual(finding.line, 505);
  strictEqual(over.ok, true);
  strictEqual(over.findings.length, 1);

  // leading blank lines are not counted, and the line still points at line 501 of the text
  const padded = specFindings(withFields([], "\n\n" + lines(501) + "\n\n"));
  strictEqual(only(padded, "body-lines").line, 507);

  assertClean(specFindings(withFields([], lines(500))));
  assertClean(specFindings(withFields([], "\n\n" + lines(500) + "\n\n\n")));
});

Deno.test("spec: body-tokens warns over ~5000 estimated tokens", () => {
  strictEqual(MAX_BODY_TOKENS, 5000);
  const over = specFindings(withFields([], "a".repeat(4 * 5000 + 1)));
  const finding = only(over, "body-tokens");
  strictEqual(finding.severity, "warning");
  match(finding.message, /5001/);
  strictEqual(over.ok, true);
  strictEqual(over.findings.length, 1);

  // non-ASCII code points count one token each
  deepStrictEqual(rules(specFindings(withFields([], "é".repeat(5001)))), ["body-tokens"]);
  deepStrictEqual(rules(specFindings(withFields([], "😀".repeat(5001)))), ["body-tokens"]);

  assertClean(specFindings(withFields([], "a".repeat(4 * 5000))));
  assertClean(specFindings(withFields([], "é".repeat(5000))));
});

Deno.test("spec: a long body can warn on both lines and tokens", () => {
  const body = Array.from({ length: 600 }, () => "word ".repeat(20)).join("\n");
  const report = specFindings(withFields([], body));
  deepStrictEqual(rules(report), ["body-lines", "body-tokens"]);
  strictEqual(report.ok, true);
});

Deno.test("estimateTokens: four ASCII characters per token, one per other code point", () => {
  strictEqual(estimateTokens(""), 0);
  strictEqual(estimateTokens("abcd"), 1);
  strictEqual(estimateTokens("abcde"), 2);
  strictEqual(estimateTokens("日本"), 2);
  strictEqual(estimateTokens("😀"), 1);
  strictEqual(estimateTokens("abcd😀"), 2);
});

// ---------------------------------------------------------------------------
// mixed

Deno.test("spec: errors and warnings together make ok false", () => {
  const report = specFindings(
    doc(["name: Bad_Name", "argument-hint: x"]),
    { directoryName: "bad-name" },
  );
  deepStrictEqual(rules(report), [
    "name-charset",
    "name-directory-mismatch",
    "description-missing",
    "extension-field",
  ]);
  strictEqual(report.ok, false);
});
