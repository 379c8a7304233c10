/**
 * dsh-skills-anywhere for DeepSeek Harness: this module is the Cordis plugin
 * `skills-anywhere` (name, inject, Config, apply) and also the library API.
 * The model tools are the separate plugin `dsh-skills-anywhere/tools`.
 *
 * @example
 * ```ts
 * import * as skillsAnywhere from "./mod.ts";
 * // `ctx`: a Cordis context with dsh's SkillRegistry plugged in.
 * declare const ctx: { plugin(plugin: object, config?: unknown): Promise<unknown> };
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
