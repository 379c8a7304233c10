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
export { isSkillName, normalizeSkillName } from "./lib/skill/names.ts";
export { splitFrontmatter } from "./lib/skill/frontmatter.ts";
export { type ParsedSkill, type ParseResult, parseSkillMarkdown } from "./lib/skill/parse.ts";
export { checkSkill, type LocalCheckReport } from "./lib/skill/check.ts";
export { checkFiles, type FileCheckReport } from "./lib/skill/check_files.ts";
export { specFindings } from "./lib/skill/spec.ts";
export { findHiddenCharacters } from "./lib/skill/hidden.ts";
export { isPinnedUrl } from "./lib/skill/exposure.ts";
export {
  buildManifest,
  type BundleManifest,
  canonicalString,
  compareManifests,
  validateManifest,
} from "./lib/bundle/manifest.ts";
export { readBundle } from "./lib/bundle/read.ts";
export { agentById, AGENTS } from "./lib/catalog/agents.ts";
export {
  DEFAULT_RANKS,
  findProjectRoot,
  type RawConfig,
  resolveConfig,
  type ResolvedConfig,
} from "./lib/catalog/config.ts";
export { discover, type DiscoveredSkill, type DiscoveryReport } from "./lib/catalog/discover.ts";
export { loadCatalog } from "./lib/catalog/mod.ts";
export { originLabel } from "./lib/catalog/origin.ts";
export { applyCatalogBudget } from "./lib/catalog/budget.ts";
export { queryTerms, searchSkills } from "./lib/catalog/search.ts";
export { resolveSource, sameRepository } from "./lib/sources/resolve.ts";
export { syncAll, syncSource } from "./lib/sources/sync.ts";
export { type LoadReceipt, openSkill, renderSkill } from "./lib/load/mod.ts";
