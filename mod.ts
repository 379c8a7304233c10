/**
 * dsh-skills-anywhere as a library: the skill parser and check report, the
 * bundle format and reader, the catalog, Git sources and skill loading.
 *
 * @example
 * ```ts
 * import { loadCatalog, resolveConfig } from "./mod.ts";
 * const { report } = await loadCatalog(resolveConfig({ sharedDirs: true }), { cwd: "." });
 * ```
 * @module
 */
export { TOOL_NAME, VERSION } from "./lib/version.ts";
export { isSkillName, normalizeSkillName } from "./lib/skill/mod.ts";
export { splitFrontmatter } from "./lib/skill/mod.ts";
export { type ParsedSkill, type ParseResult, parseSkillMarkdown } from "./lib/skill/mod.ts";
export { checkSkill, type LocalCheckReport } from "./lib/check/mod.ts";
export { checkFiles, type FileCheckReport } from "./lib/check/mod.ts";
export { specFindings } from "./lib/check/mod.ts";
export { findHiddenCharacters } from "./lib/skill/mod.ts";
export { isPinnedUrl } from "./lib/skill/mod.ts";
export {
  buildManifest,
  type BundleManifest,
  canonicalString,
  compareManifests,
  validateManifest,
} from "./lib/bundle/mod.ts";
export { readBundle } from "./lib/bundle/mod.ts";
export { agentById, AGENTS } from "./lib/catalog/mod.ts";
export {
  DEFAULT_RANKS,
  findProjectRoot,
  type RawConfig,
  resolveConfig,
  type ResolvedConfig,
} from "./lib/catalog/mod.ts";
export { discover, type DiscoveredSkill, type DiscoveryReport } from "./lib/catalog/mod.ts";
export { loadCatalog } from "./lib/catalog/mod.ts";
export { originLabel } from "./lib/catalog/mod.ts";
export { applyCatalogBudget } from "./lib/catalog/mod.ts";
export { queryTerms, searchSkills } from "./lib/catalog/mod.ts";
export { resolveSource, sameRepository } from "./lib/sources/mod.ts";
export { syncAll, syncSource } from "./lib/sources/mod.ts";
export { type LoadReceipt, openSkill, renderSkill } from "./lib/load/mod.ts";
