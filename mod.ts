/**
 * dsh-skills-anywhere as a library: the skill parser and the check report.
 *
 * @example
 * ```ts
 * import { checkSkill, parseSkillMarkdown } from "./mod.ts";
 * const result = parseSkillMarkdown("---\nname: demo\ndescription: Demo.\n---\n");
 * ```
 * @module
 */
export { VERSION } from "./lib/version.ts";
export { isSkillName, normalizeSkillName } from "./lib/skill/names.ts";
export { splitFrontmatter } from "./lib/skill/frontmatter.ts";
export { type ParsedSkill, type ParseResult, parseSkillMarkdown } from "./lib/skill/parse.ts";
export { checkSkill, type LocalCheckReport } from "./lib/skill/check.ts";
export { checkFiles, type FileCheckReport } from "./lib/skill/check_files.ts";
export { specFindings } from "./lib/skill/spec.ts";
export { findHiddenCharacters } from "./lib/skill/hidden.ts";
export { isPinnedUrl } from "./lib/skill/surface.ts";
