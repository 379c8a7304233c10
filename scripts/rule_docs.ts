/**
 * The rule tables of the check docs, rendered from `SPEC_RULES`
 * (lib/check/_spec_rules.ts): docs/check.md lists each rule's severity and
 * when it fires, docs/check-profiles.md each rule's verdict under every
 * profile and skills-ref's. Each table sits between two marker comments;
 * `deno task docs` (scripts/cli_docs.ts) rewrites it, and
 * tests/spec_rules_test.ts fails when a doc differs from the table. Columns are
 * padded as `deno fmt` pads them, so a regenerated doc is already formatted.
 *
 * @example
 * ```ts
 * import { RULE_DOCS, withRuleTable } from "./rule_docs.ts";
 * declare const text: string;
 * const updated = withRuleTable(text, RULE_DOCS[0].table());
 * ```
 * @module
 */
import { SPEC_RULE_IDS, SPEC_RULES, type SpecRuleInfo } from "../lib/check/mod.ts";

/** The comment before a generated table. */
export const RULES_START = "<!-- spec rules: generated from SPEC_RULES by `deno task docs` -->";
/** The comment after a generated table. */
export const RULES_END = "<!-- end of spec rules -->";

/** A Markdown table whose columns are padded to their widest cell (code points, as `deno fmt`). */
function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cells = [header, ...rows].map((row) => row.map((cell) => cell.replaceAll("|", "\\|")));
  const width = (text: string) => [...text].length;
  const widths = header.map((_, column) => Math.max(3, ...cells.map((row) => width(row[column]))));
  const line = (row: readonly string[]) =>
    `| ${row.map((cell, i) => cell + " ".repeat(widths[i] - width(cell))).join(" | ")} |`;
  const rule = `| ${widths.map((w) => "-".repeat(w)).join(" | ")} |`;
  return [line(cells[0]), rule, ...cells.slice(1).map(line)].join("\n");
}

/**
 * docs/check.md's table: rule, severity, when it fires.
 *
 * @example
 * ```ts
 * import { checkRulesTable } from "./rule_docs.ts";
 * checkRulesTable().split("\n")[0].startsWith("| Rule"); // true
 * ```
 */
export function checkRulesTable(): string {
  return markdownTable(
    ["Rule", "Severity", "Fires when"],
    SPEC_RULE_IDS.map((id) => {
      const rule = SPEC_RULES[id];
      return [`\`${id}\``, rule.severity, rule.firesWhen];
    }),
  );
}

/**
 * docs/check-profiles.md's table: each rule under `strict`, `spec`, `reference` and skills-ref.
 *
 * @example
 * ```ts
 * import { profileRulesTable } from "./rule_docs.ts";
 * profileRulesTable().includes("`extension-field`"); // true
 * ```
 */
export function profileRulesTable(): string {
  return markdownTable(
    ["Rule (finding id)", "`strict`", "`spec`", "`reference`", "skills-ref"],
    SPEC_RULE_IDS.map((id) => {
      const rule: SpecRuleInfo = SPEC_RULES[id];
      const reference = rule.reference ?? rule.severity;
      return [`\`${id}\``, rule.strict, rule.severity, reference, rule.skillsRef];
    }),
  );
}

/** Each doc that lists the rules, relative to the repository root, and its table. */
export const RULE_DOCS: readonly { file: string; table: () => string }[] = [
  { file: "docs/check.md", table: checkRulesTable },
  { file: "docs/check-profiles.md", table: profileRulesTable },
];

/**
 * `text` with the part between {@linkcode RULES_START} and {@linkcode RULES_END} replaced by `table`.
 *
 * @throws {Error} When `text` lacks the two markers, in order.
 * @example
 * ```ts
 * import { RULES_END, RULES_START, withRuleTable } from "./rule_docs.ts";
 * withRuleTable(`${RULES_START}\nold\n${RULES_END}\n`, "| a |"); // the markers around "| a |"
 * ```
 */
export function withRuleTable(text: string, table: string): string {
  const start = text.indexOf(RULES_START);
  const end = text.indexOf(RULES_END);
  if (start < 0 || end < start) throw new Error("The document lacks the spec rules markers");
  return `${text.slice(0, start + RULES_START.length)}\n\n${table}\n\n${text.slice(end)}`;
}
