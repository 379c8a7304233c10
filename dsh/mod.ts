/**
 * dsh-skills-anywhere for DeepSeek Harness: this module is the Cordis plugin
 * `skills-anywhere` (name, inject, Config, apply) and also the library API.
 * The model tools are the separate plugin `dsh-skills-anywhere/tools`.
 *
 * @example
 * ```ts
 * import * as skillsAnywhere from "./mod.ts";
 * await ctx.plugin(skillsAnywhere, {});
 * ```
 * @module
 */
export { apply, Config, inject, name } from "./plugin.ts";
export { SkillsAnywhereProvider } from "./provider.ts";
export type { ProviderControl, RuntimeSettings } from "./provider.ts";
export type { Candidate, Definition, DshRecord } from "./record.ts";
export { catalogConfig, ProviderConfig, ToolsConfig } from "./config.ts";
export type { DshConfig, ProviderConfigValue } from "./config.ts";
export * from "../mod.ts";
