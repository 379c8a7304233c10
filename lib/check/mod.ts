/**
 * Reviewing one skill: the Agent Skills spec rules, the check report of a SKILL.md and of a
 * skill's files, and the resource links a SKILL.md names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkSkill } from "./mod.ts";
 * const text = "---\nname: demo\ndescription: A demo skill.\n---\nBody\n";
 * assert.equal(checkSkill(text, { fallbackName: "demo" }).schema, "skills-anywhere-local-check-1");
 * ```
 *
 * @module
 */
export {
  CHECK_INPUT_MESSAGES,
  checkPassed,
  type CheckProfile,
  checkSkill,
  checkSkillBytes,
  type LocalCheckReport,
  type ModeSummary,
} from "./_check.ts";
export {
  checkFiles,
  type FileCheckReport,
  type FileEntry,
  type FileInputKind,
} from "./_check_files.ts";
export {
  checkResourceNames,
  MAX_SELECTED_FILES,
  type ResourcesReport,
} from "./_resource_report.ts";
export { type SpecFinding, specFindings } from "./_spec.ts";
export { isSpecRule, SPEC_RULE_IDS, SPEC_RULES, type SpecRuleInfo } from "./_spec_rules.ts";
