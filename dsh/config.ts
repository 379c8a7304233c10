/**
 * The dsh plugins' configuration. The provider row's schema is derived from
 * the catalog's one table of settings (`CONFIG_FIELDS` in
 * `lib/catalog/_config.ts`): each field becomes the zod type of its kind with
 * its default. Only the settings dsh alone has are declared here: the
 * provider name, watching, and the catalog budget. Cordis validates a row
 * with these Standard Schemas before `apply` runs.
 *
 * @example
 * ```ts
 * import { ProviderConfig } from "./config.ts";
 * const result = ProviderConfig["~standard"].validate({ catalog: { limit: 20 } });
 * ```
 * @module
 */
import * as z from "zod";
import process from "node:process";
import {
  CONFIG_FIELDS,
  type ConfigField,
  DEFAULT_RANKS,
  type RawConfig,
  resolveConfig,
  type ResolvedConfig,
} from "../lib/catalog/mod.ts";

const SourceEntry = z.union([
  z.string().min(1),
  z.object({
    repo: z.string().min(1),
    ref: z.string().optional(),
    path: z.string().optional(),
    rank: z.number().optional(),
  }),
]);

const RANKS = z.object(
  Object.fromEntries(Object.keys(DEFAULT_RANKS).map((key) => [key, z.number().optional()])),
);

/** The zod type of one catalog field; a field without a default is optional. */
function fieldSchema(field: ConfigField): z.ZodType {
  switch (field.type) {
    case "boolean":
      return z.boolean().default(field.default as boolean);
    case "count":
      return z.number().int().min(0).default(field.default as number);
    case "duration":
      return z.number().min(0).default(field.default as number);
    case "timeout":
      return z.number().positive().default(field.default as number);
    case "path":
      return z.string().optional();
    case "strings":
      return z.array(z.string()).default([]);
    case "sources":
      return z.array(SourceEntry).default([]);
    case "ranks":
      return RANKS.default({});
  }
}

/** The catalog budget: how many skills the model sees, which always, which never. */
export interface CatalogBudget {
  /** Visible skills at most; 0 = no limit. */
  limit: number;
  /** Names that take the first places. */
  pin: string[];
  /** Names never visible to the model. */
  hide: string[];
}

/** The settings only the dsh provider has, as validated. */
export interface DshSettings {
  /** The provider name registered on `ctx.skills`. */
  providerName: string;
  /** Watch flat roots and poll the sources and plugin files. */
  watch: boolean;
  catalog: CatalogBudget;
}

const DSH_FIELDS = {
  providerName: z.string().min(1).default("skills-anywhere"),
  watch: z.boolean().default(true),
  catalog: z.object({
    limit: z.number().default(50),
    pin: z.array(z.string()).default([]),
    hide: z.array(z.string()).default([]),
  }).prefault({}),
};

/** The validated provider configuration: the catalog settings plus dsh's own. */
export type ProviderConfigValue = RawConfig & DshSettings;

const CATALOG_FIELDS = Object.fromEntries(
  Object.entries(CONFIG_FIELDS).map(([name, field]) => [name, fieldSchema(field)]),
);

/** The `skills-anywhere` row's configuration: every catalog field, then dsh's own. */
export const ProviderConfig: z.ZodType<ProviderConfigValue> = z
  .object({ ...CATALOG_FIELDS, ...DSH_FIELDS })
  .prefault({}) as unknown as z.ZodType<ProviderConfigValue>;

/** The provider's resolved configuration: the catalog's, plus the dsh settings. */
export type DshConfig = ResolvedConfig & DshSettings;

/**
 * A budget limit as the provider applies it: whole, and never below 0.
 *
 * @example
 * ```ts
 * import { budgetLimit } from "./config.ts";
 * console.log(budgetLimit(2.9), budgetLimit(-4)); // 2 0
 * ```
 */
export function budgetLimit(limit: number): number {
  return Math.max(0, Math.floor(limit));
}

/**
 * Turns the validated row configuration into the provider's configuration:
 * the catalog settings resolved (paths, `~`, `HOME`/`DSH_HOME`) and the dsh
 * settings copied.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { catalogConfig, ProviderConfig } from "./config.ts";
 * const parsed = ProviderConfig.parse({ catalog: { limit: 2.5 } });
 * assert.equal(catalogConfig(parsed).catalog.limit, 2);
 * ```
 */
export function catalogConfig(config: ProviderConfigValue): DshConfig {
  const { providerName, watch, catalog, ...raw } = config;
  return {
    ...resolveConfig(raw, process.env),
    providerName,
    watch,
    catalog: { limit: budgetLimit(catalog.limit), pin: [...catalog.pin], hide: [...catalog.hide] },
  };
}

/** The `skills-anywhere-tools` row's configuration. */
export const ToolsConfig = z.object({
  findLimit: z.number().default(10),
  findMaxLimit: z.number().default(50),
  find: z.boolean().default(true),
  open: z.boolean().default(true),
  /**
   * The provider row's `providerName`: only that provider's catalog records (budget state, the
   * lock a skill is served under) are believed; another provider's are its files' words.
   */
  provider: z.string().min(1).default("skills-anywhere"),
}).prefault({});

/** The validated tools configuration. */
export type ToolsConfigValue = z.output<typeof ToolsConfig>;
