/**
 * One SKILL.md: the frontmatter split, the strict and lenient parse, names, descriptions, hidden
 * characters and what a skill declares it reaches. Imports nothing from `node:`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseSkillMarkdown } from "./mod.ts";
 * assert.equal(parseSkillMarkdown("---\nname: demo\ndescription: A demo skill.\n---\nBody\n").ok, true);
 * ```
 *
 * @module
 */
export { codePointLength } from "./_description.ts";
export { type Exposure, type ExternalSource, isPinnedUrl, readExposure } from "./_exposure.ts";
export { splitFrontmatter } from "./_frontmatter.ts";
export { findHiddenCharacters, type HiddenCharacter } from "./_hidden.ts";
export {
  isSkillName,
  MAX_DESCRIPTION_LENGTH,
  MAX_NAME_LENGTH,
  normalizeSkillName,
} from "./_names.ts";
export {
  type Invocation,
  type ParsedSkill,
  type ParseFailureKind,
  type ParseResult,
  parseSkillMarkdown,
} from "./_parse.ts";
export { parseFrontmatterYaml } from "./_yaml.ts";
