/**
 * The Cordis plugin `skills-anywhere`: registers the provider on dsh's
 * `ctx.skills`. This module is the npm package's main export, so a dsh profile
 * row `name: dsh-skills-anywhere` loads it.
 *
 * Each dsh service it uses is a sub-plugin that waits for that service alone
 * (`ctx.inject`, the pattern of dsh's own optional settings), so the row
 * activates in any profile:
 * - `skills`: the provider, registered on the skill registry;
 * - `settings` (web and other profiles with a settings service): the namespace
 *   `skills-anywhere` (`settings.ts`), seeded from this row's configuration;
 *   every committed change reconfigures the provider;
 * - `webServer` (the web profile): `POST /api/skills-anywhere/report`
 *   (`report_route.ts`), which answers `skills-anywhere/not-ready` until the
 *   provider registered. The browser card is the `./client` export
 *   (`client/card.ts`).
 *
 * @example
 * ```ts
 * import * as skillsAnywhere from "./plugin.ts";
 * // `ctx`: a Cordis context with dsh's SkillRegistry plugged in.
 * async function example(ctx: { plugin(plugin: object, config?: unknown): Promise<unknown> }) {
 *   await ctx.plugin(skillsAnywhere, { catalog: { limit: 20 } });
 * }
 * ```
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Log } from "../lib/util.ts";
import { catalogConfig, ProviderConfig, type ProviderConfigValue } from "./config.ts";
import { type ProviderControl, SkillsAnywhereProvider } from "./provider.ts";
import { REPORT_PATH, reportHandler } from "./report_route.ts";
import {
  runtimeSettings,
  type SchemaBuilder,
  SETTINGS_NAMESPACE,
  settingsBase,
  settingsSchema,
  type WebSettings,
} from "./settings.ts";
import type { WinnerSource } from "./shadows.ts";

/** The Cordis plugin name. */
export const name = "skills-anywhere";
/**
 * The services the row itself waits for: none (each service is waited for by the sub-plugin
 * that uses it, see the module doc).
 */
export const inject: string[] = [];
/** The configuration schema (Standard Schema; Cordis fills the defaults). */
export const Config = ProviderConfig;

/** The logger dsh gives each plugin. */
interface DshLogger {
  info(message: string): void;
  warn(message: string): void;
  debug(message: string): void;
}

/** The minimal shape of the dsh context this plugin uses. */
interface DshContext {
  logger: DshLogger;
  effect(execute: () => () => unknown, label?: string): unknown;
  inject(deps: string[], callback: (ctx: DshContext) => void | Promise<void>): PromiseLike<unknown>;
  skills: WinnerSource & {
    registerProvider(create: (control: ProviderControl) => SkillsAnywhereProvider): () => void;
  };
  settings: {
    get(ns: string): unknown;
    register(ns: string, schema: unknown, options: { base: WebSettings; applies: "live" }): {
      get(): unknown;
      watch(callback: (next: unknown) => void): () => void;
    };
  };
  webServer: {
    register(route: {
      kind: "exact";
      path: string;
      handler: (request: IncomingMessage, response: ServerResponse) => Promise<void>;
    }): () => void;
  };
}

/**
 * The dsh surface's log: each message goes to dsh's logger, which Cordis names
 * after this plugin (`skills-anywhere`), so the message itself carries no
 * prefix (dsh prints the logger's name before it).
 */
function dshLog(logger: DshLogger): Log {
  return (level, message) => {
    if (level === "warn") logger.warn(message);
    else logger.info(message);
  };
}

/** Schemastery from the dsh install that runs the settings service (an optional peer). */
async function schemastery(): Promise<SchemaBuilder> {
  const specifier = "@deepseek-ai/schemastery";
  const loaded = await import(specifier) as { default: SchemaBuilder };
  return loaded.default;
}

/**
 * Registers the report route, the settings namespace and the provider; see the module doc.
 * `async` (no prototype): Cordis calls it, awaits it, and fails the row when it rejects.
 */
export async function apply(ctx: DshContext, config: ProviderConfigValue): Promise<void> {
  const resolved = catalogConfig(config);
  const log = dshLog(ctx.logger);
  let provider: SkillsAnywhereProvider | undefined;
  /** The settings namespace's value, once registered; the provider follows it. */
  let settings: WebSettings | undefined;

  ctx.inject(["settings"], async (sub) => {
    // One namespace per profile: a second row (an agent preset's, per session) leaves it to the
    // first, the profile's own.
    if (sub.settings.get(SETTINGS_NAMESPACE) !== undefined) return;
    const schema = settingsSchema(await schemastery());
    const scope = sub.settings.register(SETTINGS_NAMESPACE, schema, {
      base: settingsBase(resolved),
      applies: "live",
    });
    const follow = (value: unknown) => {
      const next = runtimeSettings(value);
      if (next === undefined) return;
      settings = next;
      provider?.reconfigure(next);
    };
    follow(scope.get());
    sub.effect(() => {
      const stop = scope.watch(follow);
      return () => {
        stop();
        settings = undefined;
        provider?.reconfigure(settingsBase(resolved));
      };
    }, "skills-anywhere settings");
  });

  ctx.inject(["webServer"], (sub) => {
    const handler = reportHandler(
      () => provider,
      (error) => log("warn", `the web card's report failed: ${String(error)}`),
    );
    sub.effect(() => {
      try {
        return sub.webServer.register({ kind: "exact", path: REPORT_PATH, handler });
      } catch {
        // A second row (an agent preset's): the route is the first row's.
        return () => {};
      }
    }, "skills-anywhere report route");
  });
  // Awaited: a provider dsh refuses (a duplicate name) fails the row, loudly; without the
  // registry the sub-plugin waits, and the row is active.
  await ctx.inject(["skills"], (sub) => {
    let mine: SkillsAnywhereProvider | undefined;
    sub.skills.registerProvider((control) => {
      const registry = sub.skills;
      mine = new SkillsAnywhereProvider(resolved, log, control, {
        list: (options) => registry.list(options),
      });
      if (settings !== undefined) mine.reconfigure(settings);
      provider = mine;
      return mine;
    });
    sub.effect(() => () => {
      if (provider === mine) provider = undefined;
      return mine?.dispose();
    }, "skills-anywhere provider");
    const sources = `${resolved.sources.length}${resolved.sourcesFiles ? "+files" : ""}`;
    log(
      "info",
      `provider "${resolved.providerName}" registered (agents=${resolved.agents}, claudePlugins=${resolved.claudePlugins}, sources=${sources})`,
    );
  });
}
