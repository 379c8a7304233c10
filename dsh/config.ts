/**
 * The dsh plugin configuration: every field and default of the provider row,
 * as a Standard Schema (zod) that Cordis validates before `apply` runs.
 *
 * @example
 * ```ts
 * import { ProviderConfig } from "./config.ts";
 * const result = ProviderConfig["~standard"].validate({ catalog: { limit: 20 } });
 * ```
 * @module
 */
import * as z from "zod";

const SourceEntry = z.union([
  z.string().min(1),
  z.object({
    repo: z.string().min(1),
    ref: z.string().optional(),
    path: z.string().optional(),
    rank: z.number().optional(),
  }),
]);

/** The `skills-anywhere` row's configuration. */
export const ProviderConfig = z.object({
  providerName: z.string().min(1).default("skills-anywhere"),
  agents: z.boolean().default(true),
  excludeAgents: z.array(z.string()).default([]),
  sharedDirs: z.boolean().default(false),
  extraProjectDirs: z.array(z.string()).default([]),
  extraUserDirs: z.array(z.string()).default([]),
  claudePlugins: z.boolean().default(true),
  sources: z.array(SourceEntry).default([]),
  sourcesFiles: z.boolean().default(true),
  cacheDir: z.string().optional(),
  dshHome: z.string().optional(),
  home: z.string().optional(),
  sync: z.boolean().default(true),
  syncOnStart: z.boolean().default(true),
  syncIntervalMs: z.number().min(0).default(6 * 60 * 60 * 1000),
  syncTimeoutMs: z.number().positive().default(120_000),
  maxDepth: z.number().int().min(0).default(5),
  dedupe: z.boolean().default(true),
  lenient: z.boolean().default(true),
  watch: z.boolean().default(true),
  excludeSkills: z.array(z.string()).default([]),
  ranks: z.object({
    project: z.number().optional(),
    user: z.number().optional(),
    claudePlugins: z.number().optional(),
    sources: z.number().optional(),
  }).default({}),
  catalog: z.object({
    limit: z.number().default(50),
    pin: z.array(z.string()).default([]),
    hide: z.array(z.string()).default([]),
  }).prefault({}),
}).prefault({});

/** The validated provider configuration. */
export type ProviderConfigValue = z.output<typeof ProviderConfig>;

/** The `skills-anywhere-tools` row's configuration. */
export const ToolsConfig = z.object({
  findLimit: z.number().default(10),
  findMaxLimit: z.number().default(50),
  find: z.boolean().default(true),
  open: z.boolean().default(true),
}).prefault({});

/** The validated tools configuration. */
export type ToolsConfigValue = z.output<typeof ToolsConfig>;
