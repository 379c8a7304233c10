/**
 * The Cordis plugin `skills-anywhere`: registers the provider on dsh's
 * `ctx.skills`. This module is the npm package's main export, so a dsh profile
 * row `name: dsh-skills-anywhere` loads it.
 *
 * @example
 * ```ts
 * import * as skillsAnywhere from "./plugin.ts";
 * // `ctx`: a Cordis context with dsh's SkillRegistry plugged in.
 * declare const ctx: { plugin(plugin: object, config?: unknown): Promise<unknown> };
 * await ctx.plugin(skillsAnywhere, { catalog: { limit: 20 } });
 * ```
 * @module
 */
import type { Log } from "../lib/util.ts";
import { catalogConfig, ProviderConfig, type ProviderConfigValue } from "./config.ts";
import { type ProviderControl, SkillsAnywhereProvider } from "./provider.ts";
import type { WinnerSource } from "./shadows.ts";

/** The Cordis plugin name. */
export const name = "skills-anywhere";
/** The services the plugin needs. */
export const inject = ["skills"];
/** The configuration schema (Standard Schema; Cordis fills the defaults). */
export const Config = ProviderConfig;

/** The minimal shape of the dsh context this plugin uses. */
interface DshContext {
  skills: WinnerSource & {
    registerProvider(create: (control: ProviderControl) => SkillsAnywhereProvider): () => void;
  };
  logger: {
    info(message: string): void;
    warn(message: string): void;
    debug(message: string): void;
  };
  effect(execute: () => () => unknown, label?: string): unknown;
}

/**
 * The dsh surface's log: each message goes to dsh's logger, which Cordis names
 * after this plugin (`skills-anywhere`), so the message itself carries no
 * prefix (dsh prints the logger's name before it).
 */
function dshLog(logger: DshContext["logger"]): Log {
  return (level, message) => {
    if (level === "warn") logger.warn(message);
    else logger.info(message);
  };
}

/** Registers the provider; disposes it with the plugin. Synchronous, as Cordis expects. */
export function apply(ctx: DshContext, config: ProviderConfigValue): void {
  const resolved = catalogConfig(config);
  const log = dshLog(ctx.logger);
  let provider: SkillsAnywhereProvider | undefined;
  ctx.skills.registerProvider((control) => {
    const registry = ctx.skills;
    provider = new SkillsAnywhereProvider(resolved, log, control, {
      list: (options) => registry.list(options),
    });
    return provider;
  });
  ctx.effect(() => () => provider?.dispose(), "skills-anywhere provider");
  const sources = `${resolved.sources.length}${resolved.sourcesFiles ? "+files" : ""}`;
  log(
    "info",
    `provider "${resolved.providerName}" registered (agents=${resolved.agents}, claudePlugins=${resolved.claudePlugins}, sources=${sources})`,
  );
}
