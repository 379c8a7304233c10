/**
 * The part of the check package that imports nothing from `node:` (the browser's): the spec
 * rules and the check report of bytes already read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkSkillBytes } from "./portable.ts";
 * const bytes = new TextEncoder().encode("---\nname: demo\ndescription: A demo skill.\n---\nBody\n");
 * assert.equal(checkSkillBytes(bytes, { fileName: "SKILL.md", folder: "demo" }).ok, true);
 * ```
 *
 * @module
 */
export {
  CHECK_INPUT_MESSAGES,
  checkPassed,
  checkSkillBytes,
  type LocalCheckReport,
  type ModeSummary,
} from "./_check.ts";
export type { FileEntry, FileInputKind } from "./_check_files.ts";
export {
  checkResourceNames,
  MAX_SELECTED_FILES,
  type ResourcesReport,
} from "./_resource_report.ts";
export type { SpecFinding } from "./_spec.ts";
