/**
 * The catalog: every agent's skill folders, Claude Code plugins and Git checkouts found,
 * parsed, deduplicated and renamed by precedence; its configuration, budget, search and the live
 * catalog that follows changes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadCatalog, resolveConfig } from "./mod.ts";
 * const { report } = await loadCatalog(resolveConfig({ sharedDirs: true }), { cwd: "." });
 * assert.ok(Array.isArray(report.skills));
 * ```
 *
 * @module
 */
export { agentById, type AgentRow, AGENTS } from "./_agents.ts";
export { applyCatalogBudget, type CatalogState } from "./_budget.ts";
export {
  CONFIG_FIELDS,
  type ConfigField,
  DEFAULT_RANKS,
  findProjectRoot,
  type RawConfig,
  resolveConfig,
  type ResolvedConfig,
} from "./_config.ts";
export { discover, type DiscoveryReport } from "./_discover.ts";
export { LiveCatalog, type LiveCatalogOptions } from "./_live.ts";
export { loadCatalog, parseCacheFile } from "./_load.ts";
export { nearMisses, type NearMissKind } from "./_near.ts";
export { type Origin, originLabel } from "./_origin.ts";
export { type PlaceCollision, placeCollisions } from "./_places.ts";
export { enabledPlugins, projectEnabledPlugins } from "./_plugins.ts";
export { renamePrefix } from "./_precedence.ts";
export { type Project, resolveProject } from "./_project.ts";
export type { Root } from "./_roots.ts";
export {
  type MatchField,
  queryTerms,
  type SearchableSkill,
  SearchIndex,
  type SearchMatch,
  searchSkills,
  type TermMatch,
} from "./_search.ts";
export type { DiscoveredSkill, InvalidFile, RenameReason, SourceLabel } from "./_types.ts";
