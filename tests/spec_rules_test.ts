/**
 * The specification rules are one table (`SPEC_RULES` in
 * lib/check/_spec_rules.ts) and everything else follows it: every record has
 * check logic that fires it, every finding carries its record's severity,
 * `check --format sarif` describes each rule with its record's summary, and
 * the check docs' rule tables are the table rendered (`deno task docs`), with
 * no second hand-written list beside them.
 *
 * @module
 */
import { deepEqual, equal, notEqual, ok, throws } from "node:assert/strict";
import { join } from "node:path";
import {
  isSpecRule,
  SPEC_RULE_IDS,
  SPEC_RULES,
  type SpecRuleInfo,
} from "../lib/check/_spec_rules.ts";
import { specFindings } from "../lib/check/_spec.ts";
import { RULE_DOCS, RULES_END, RULES_START, withRuleTable } from "../scripts/rule_docs.ts";
import { ROOT, withSandbox, writeTree } from "./helpers.ts";

/** One skill per folder whose findings, together, fire every rule of the table. */
const SKILLS: Record<string, string> = {
  "no-frontmatter/SKILL.md": "# A skill without frontmatter\n",
  "bad-yaml/SKILL.md": "---\nname: [\n---\nBody\n",
  "no-name/SKILL.md": "---\ndescription: A skill without a name.\n---\nBody\n",
  "no-description/SKILL.md": "---\nname: no-description\n---\nBody\n",
  "everything/SKILL.md": [
    "---",
    `name: -Bad_${"a".repeat(64)}`,
    `description: ${"d".repeat(1100)}`,
    'compatibility: ""',
    "license: [MIT]",
    "metadata:",
    "  tags: [a, b]",
    "allowed-tools: [Read, Grep]",
    "hooks: x",
    "---",
    "line\n".repeat(600) + "word ".repeat(30_000),
  ].join("\n"),
};

/** The folder name of a fixture path (what `check` passes as the directory name). */
const folder = (path: string) => path.split("/")[0];

Deno.test("spec rules: every record fires on some file, with the record's severity", () => {
  const fired = new Set<string>();
  for (const [path, raw] of Object.entries(SKILLS)) {
    for (const extensionSeverity of ["warning", "error"] as const) {
      const report = specFindings(raw, { directoryName: folder(path), extensionSeverity });
      for (const finding of report.findings) {
        fired.add(finding.rule);
        const rule: SpecRuleInfo = SPEC_RULES[finding.rule];
        const expected = extensionSeverity === "error" && finding.rule === "extension-field"
          ? rule.reference
          : rule.severity;
        equal(finding.severity, expected, `${path}: ${finding.rule}`);
      }
    }
  }
  deepEqual(
    [...fired].sort(),
    [...SPEC_RULE_IDS].sort(),
    "a record no check fires (or the reverse)",
  );
});

Deno.test("spec rules: only the table's ids are spec rules, ids are unique kebab-case", () => {
  for (const id of SPEC_RULE_IDS) ok(isSpecRule(id), id);
  for (const other of ["parse", "repair", "changed", "signature", "constructor", "__proto__"]) {
    equal(isSpecRule(other), false, other);
  }
  for (const id of SPEC_RULE_IDS) ok(/^[a-z]+(-[a-z]+)*$/.test(id), id);
  equal(new Set(SPEC_RULE_IDS).size, Object.keys(SPEC_RULES).length);
});

Deno.test("check --format sarif: each spec rule is described by its record's summary", async () => {
  await withSandbox(async (box) => {
    await writeTree(box.project, SKILLS);
    const folders = Object.keys(SKILLS).map(folder);
    const result = await box.cli(
      "check",
      "--format",
      "sarif",
      "--profile",
      "reference",
      ...folders,
    );
    equal(result.code, 1, result.stderr);
    const rules: { id: string; shortDescription: { text: string } }[] =
      JSON.parse(result.stdout).runs[0].tool.driver.rules;
    const spec = rules.filter((rule) => isSpecRule(rule.id));
    deepEqual(spec.map((rule) => rule.id), [...SPEC_RULE_IDS].sort());
    for (const rule of spec) {
      equal(rule.shortDescription.text, SPEC_RULES[rule.id as keyof typeof SPEC_RULES].summary);
    }
    // The other rules (check's gates) have their own words, not their id as a fallback.
    for (const rule of rules) notEqual(rule.shortDescription.text, rule.id, rule.id);
  });
});

Deno.test("docs: the check docs' rule tables are SPEC_RULES rendered (`deno task docs`)", async () => {
  for (const { file, table } of RULE_DOCS) {
    const text = await Deno.readTextFile(join(ROOT, file));
    equal(text, withRuleTable(text, table()), `${file} is out of date: run \`deno task docs\``);
    const block = text.slice(text.indexOf(RULES_START), text.indexOf(RULES_END));
    for (const id of SPEC_RULE_IDS) ok(block.includes(`| \`${id}\``), `${file} lacks ${id}`);
    // No second, hand-written list: outside the markers no table row starts with a rule id.
    const outside = text.replace(block, "");
    for (const id of SPEC_RULE_IDS) {
      ok(!outside.includes(`\n| \`${id}\``), `${file} lists ${id} outside the generated table`);
    }
  }
});

Deno.test("docs: a document without the markers is refused, not silently left alone", () => {
  throws(() => withRuleTable("# No markers\n", "| a |"), /lacks the spec rules markers/);
  throws(() => withRuleTable(`${RULES_END}\n${RULES_START}\n`, "| a |"), /lacks/);
  equal(
    withRuleTable(`a\n${RULES_START}\nold\n${RULES_END}\nb\n`, "| new |"),
    `a\n${RULES_START}\n\n| new |\n\n${RULES_END}\nb\n`,
  );
});
