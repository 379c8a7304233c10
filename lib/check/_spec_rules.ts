/**
 * The specification rules, defined once.
 *
 * {@linkcode SPEC_RULES} is the one table of the rules `specFindings` checks:
 * each rule's id (part of the report contract), severity, one-line summary
 * and documentation. The rule-id type {@linkcode SpecRule} is derived from it,
 * `specFindings` takes each finding's severity from it, SARIF's rule
 * descriptions are its summaries, and the rule tables of docs/check.md and
 * docs/check-profiles.md are generated from it (`deno task docs`; a test fails
 * when they differ). Adding a rule is one record here, its check in `spec.ts`,
 * a test, and a regenerate.
 *
 * The module imports nothing, so every surface (the browser included) reads it.
 *
 * @example
 * ```ts
 * import { SPEC_RULES } from "./_spec_rules.ts";
 * SPEC_RULES["name-charset"].severity; // "error"
 * ```
 * @module
 */

/** A finding's severity. */
export type SpecSeverity = "error" | "warning";

/** One rule of the table. */
export interface SpecRuleInfo {
  /** The severity of its findings (the `extension-field` severity is an option of `specFindings`). */
  readonly severity: SpecSeverity;
  /** What holds when the rule passes, in one line: the SARIF rule's short description. */
  readonly summary: string;
  /** When it fires (Markdown): docs/check.md's rule table. */
  readonly firesWhen: string;
  /**
   * What the strict parse does with the same frontmatter (docs/check-profiles.md):
   * `"fails"`, `"see parser"` (it fails on some of what the rule finds), or
   * `"—"` (it does not look).
   */
  readonly strict: "fails" | "see parser" | "—";
  /** The severity under the `reference` profile, when it differs from `severity`. */
  readonly reference?: SpecSeverity;
  /** The verdict of the reference validator, skills-ref (Markdown): docs/check-profiles.md. */
  readonly skillsRef: string;
}

/**
 * Every specification rule by id, in the order the docs list them.
 *
 * @example
 * ```ts
 * import { SPEC_RULES } from "./_spec_rules.ts";
 * SPEC_RULES["extension-field"].reference; // "error"
 * ```
 */
export const SPEC_RULES = {
  "frontmatter-missing": {
    severity: "error",
    summary: "SKILL.md starts with YAML frontmatter between --- lines",
    firesWhen: "the file does not open with `---` frontmatter that is closed",
    strict: "fails",
    skillsRef: "error",
  },
  "yaml-invalid": {
    severity: "error",
    summary: "the frontmatter is valid YAML holding a mapping",
    firesWhen: "the frontmatter is not valid YAML, or not a mapping",
    strict: "fails",
    skillsRef: "error; also for YAML flow style (`flow-style`)",
  },
  "name-missing": {
    severity: "error",
    summary: "the frontmatter declares a name",
    firesWhen: "no `name`, or it is not a string",
    strict: "fails",
    skillsRef: "error",
  },
  "name-length": {
    severity: "error",
    summary: "the name is at most 64 characters",
    firesWhen: "`name` is over 64 characters",
    strict: "fails",
    skillsRef: "error (after trimming and NFKC)",
  },
  "name-charset": {
    severity: "error",
    summary: "the name uses lowercase letters, digits and hyphens only",
    firesWhen: "`name` has characters outside `a-z`, `0-9` and `-`",
    strict: "fails",
    skillsRef: "allows any lowercase Unicode letter (`unicode-name`)",
  },
  "name-hyphen": {
    severity: "error",
    summary: "the name neither starts nor ends with a hyphen nor holds two in a row",
    firesWhen: "`name` starts or ends with `-`, or contains `--`",
    strict: "fails",
    skillsRef: "error",
  },
  "name-directory-mismatch": {
    severity: "error",
    summary: "the name equals the skill directory's name",
    firesWhen: "a `SKILL.md`'s `name` differs from its parent directory name",
    strict: "—",
    skillsRef: "error",
  },
  "description-missing": {
    severity: "error",
    summary: "the frontmatter declares a non-empty description",
    firesWhen: "no `description`, or it is empty",
    strict: "fails",
    skillsRef: "error",
  },
  "description-length": {
    severity: "error",
    summary: "the description is at most 1024 characters",
    firesWhen: "`description` is over 1,024 code points",
    strict: "see parser",
    skillsRef: "error",
  },
  "compatibility-length": {
    severity: "error",
    summary: "the compatibility field is at most 500 characters",
    firesWhen: "`compatibility` is empty or over 500 code points",
    strict: "—",
    skillsRef: "error over 500; an empty string passes (`empty-compatibility`)",
  },
  "license-type": {
    severity: "error",
    summary: "the license field is a string",
    firesWhen: "`license` is not a string",
    strict: "—",
    skillsRef: "not checked (`license-type`)",
  },
  "metadata-type": {
    severity: "error",
    summary: "the metadata field is a mapping of strings",
    firesWhen: "`metadata` is not a mapping of string keys to scalar values",
    strict: "—",
    skillsRef: "not checked; values are turned into strings (`metadata-values`)",
  },
  "allowed-tools-type": {
    severity: "error",
    summary: "the allowed-tools field is a string",
    firesWhen: "`allowed-tools` is not one space-separated string",
    strict: "—",
    skillsRef: "not checked (`allowed-tools-list`)",
  },
  "extension-field": {
    severity: "warning",
    summary: "the frontmatter uses only the specification's fields",
    firesWhen: "a top-level key outside the six specification keys (well-known client " +
      "extensions such as `disable-model-invocation` are named as such)",
    strict: "—",
    reference: "error",
    skillsRef: 'error ("Unexpected fields in frontmatter")',
  },
  "body-lines": {
    severity: "warning",
    summary: "the body stays within the recommended number of lines",
    firesWhen: "the body is over 500 lines",
    strict: "—",
    skillsRef: "not checked",
  },
  "body-tokens": {
    severity: "warning",
    summary: "the body stays within the recommended number of tokens",
    firesWhen: "the body is estimated at over 5,000 tokens",
    strict: "—",
    skillsRef: "not checked",
  },
  "skill-size": {
    severity: "warning",
    summary: "the skill stays within the recommended size",
    firesWhen: "the file is over 128 KiB: read everywhere (up to 1 MiB), but a bundle cannot " +
      "hold it, so it cannot be bundle-pinned",
    strict: "—",
    skillsRef: "not checked",
  },
} as const satisfies Record<string, SpecRuleInfo>;

/** The rule ids a spec finding can carry. */
export type SpecRule = keyof typeof SPEC_RULES;

/**
 * Every rule id, in the table's order.
 *
 * @example
 * ```ts
 * import { SPEC_RULE_IDS } from "./_spec_rules.ts";
 * SPEC_RULE_IDS[0]; // "frontmatter-missing"
 * ```
 */
export const SPEC_RULE_IDS: readonly SpecRule[] = Object.keys(SPEC_RULES) as SpecRule[];

/**
 * Whether `id` names a specification rule (a SARIF log also carries other rules).
 *
 * @example
 * ```ts
 * import { isSpecRule } from "./_spec_rules.ts";
 * isSpecRule("name-hyphen"); // true
 * isSpecRule("parse"); // false
 * ```
 */
export function isSpecRule(id: string): id is SpecRule {
  return Object.hasOwn(SPEC_RULES, id);
}
