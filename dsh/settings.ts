/**
 * The dsh settings namespace `skills-anywhere`: the runtime settings a dsh
 * web profile's Settings → Plugins card edits,
 * `{catalog: {limit, pin, hide}, excludeSkills}`. It is registered on dsh's
 * `ctx.settings` (`@deepseek-ai/dsh-settings`) with a Schemastery schema (the
 * one dsh serializes to the browser), seeded (`base`) from the composed row
 * configuration, so the user's section only holds what they changed; every
 * committed change reconfigures the provider. The schema lives here as plain
 * data built on the Schemastery the dsh install ships (`settingsSchema`), so
 * this module imports no dsh package.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { catalogConfig, ProviderConfig } from "./config.ts";
 * import { settingsBase } from "./settings.ts";
 * const base = settingsBase(catalogConfig(ProviderConfig.parse({ catalog: { limit: 9 } })));
 * assert.equal(base.catalog.limit, 9);
 * ```
 * @module
 */
import type { DshConfig } from "./config.ts";

/** The namespace, equal to the plugin's name. */
export const SETTINGS_NAMESPACE = "skills-anywhere";

/** The namespace's resolved value. */
export interface WebSettings {
  catalog: { limit: number; pin: string[]; hide: string[] };
  excludeSkills: string[];
}

/** The part of Schemastery's builder the schema uses (`@deepseek-ai/schemastery`). */
export interface SchemaBuilder {
  object(shape: Record<string, unknown>): SchemaNode;
  natural(): SchemaNode;
  string(): SchemaNode;
  array(inner: unknown): SchemaNode;
}

/** A Schemastery node, as far as the schema uses it. */
export interface SchemaNode {
  default(value: unknown): SchemaNode;
  description(text: string): SchemaNode;
}

/**
 * The namespace's schema: `catalog.limit` an integer ≥ 0 (default 50, 0 = no limit),
 * `catalog.pin`, `catalog.hide` and `excludeSkills` lists of names (default empty).
 *
 * @example
 * ```ts ignore
 * import Schema from "@deepseek-ai/schemastery";
 * import { settingsSchema } from "./settings.ts";
 * const schema = settingsSchema(Schema);
 * ```
 */
export function settingsSchema(Schema: SchemaBuilder): SchemaNode {
  const names = () => Schema.array(Schema.string()).default([]);
  return Schema.object({
    catalog: Schema.object({
      limit: Schema.natural().default(50).description(
        "Skills listed to the model at most; 0 = no limit",
      ),
      pin: names().description("Names listed first"),
      hide: names().description("Names never listed"),
    }).default({}),
    excludeSkills: names().description("Names never published"),
  });
}

/**
 * The composition layer of the namespace: the budget and exclusions the profile's row
 * configures.
 */
export function settingsBase(config: DshConfig): WebSettings {
  return {
    catalog: {
      limit: config.catalog.limit,
      pin: [...config.catalog.pin],
      hide: [...config.catalog.hide],
    },
    excludeSkills: [...config.excludeSkills],
  };
}

/**
 * A resolved namespace value as the provider takes it: only well-typed fields, copied (dsh
 * hands out frozen snapshots).
 *
 * @example
 * ```ts
 * import { runtimeSettings } from "./settings.ts";
 * runtimeSettings({ catalog: { limit: 3, pin: ["a"], hide: [] }, excludeSkills: [] });
 * ```
 */
export function runtimeSettings(value: unknown): WebSettings | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { catalog, excludeSkills } = value as Record<string, unknown>;
  if (typeof catalog !== "object" || catalog === null) return undefined;
  const { limit, pin, hide } = catalog as Record<string, unknown>;
  const strings = (list: unknown) =>
    Array.isArray(list) && list.every((item) => typeof item === "string")
      ? [...list] as string[]
      : undefined;
  const pins = strings(pin), hides = strings(hide), excluded = strings(excludeSkills);
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 0) return undefined;
  if (pins === undefined || hides === undefined || excluded === undefined) return undefined;
  return { catalog: { limit, pin: pins, hide: hides }, excludeSkills: excluded };
}
