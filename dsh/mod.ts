/**
 * dsh-skills-anywhere for DeepSeek Harness: this module is the Cordis plugin
 * `skills-anywhere` (name, inject, Config, apply) and also the library API.
 * The model tools are the separate plugin `dsh-skills-anywhere/tools`.
 *
 * @example
 * ```ts
 * import * as skillsAnywhere from "./mod.ts";
 * // `ctx`: a Cordis context with dsh's SkillRegistry plugged in.
 * async function example(ctx: { plugin(plugin: object, config?: unknown): Promise<unknown> }) {
 *   await ctx.plugin(skillsAnywhere, {});
 * }
 * ```
 * @module
 */
export { apply, Config, inject, name } from "./plugin.ts";
export { SkillsAnywhereProvider } from "./provider.ts";
export type { ProviderControl, RuntimeSettings } from "./provider.ts";
export type { Candidate, Definition, DshRecord } from "./record.ts";
export { catalogConfig, ProviderConfig, ToolsConfig } from "./config.ts";
export type { DshConfig, ProviderConfigValue } from "./config.ts";
export { type ReportView, reportView, type SkillView } from "./report.ts";
export { answerReport, REPORT_PATH, type ReportResult } from "./report_route.ts";
export { SETTINGS_NAMESPACE, settingsBase, settingsSchema, type WebSettings } from "./settings.ts";
export * from "../mod.ts";
