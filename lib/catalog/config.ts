/**
 * Catalog configuration: every option with its default, validated, with
 * `~` expanded and the state paths derived.
 *
 * @example
 * ```ts
 * import { resolveConfig } from "./config.ts";
 * const config = resolveConfig({ sharedDirs: true }, { HOME: "/home/me" });
 * config.cacheDir; // "/home/me/.dsh/skills-anywhere/cache"
 * ```
 * @module
 */
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { stat } from "node:fs/promises";
import process from "node:process";

/** Ranks of the root kinds (lower wins a duplicate name). */
export interface Ranks {
  project: number;
  user: number;
  claudePlugins: number;
  sources: number;
}

/** The documented default ranks. */
export const DEFAULT_RANKS: Readonly<Ranks> = {
  project: 250,
  user: 550,
  claudePlugins: 580,
  sources: 700,
};

/** Fixed ranks of the shared `.agents/skills` roots. */
export const SHARED_RANKS = { project: 200, user: 500 } as const;

/** A Git source as written in configuration. */
export type SourceEntry = string | { repo: string; ref?: string; path?: string; rank?: number };

/** Configuration as a user writes it; every field optional. */
export interface RawConfig {
  providerName?: string;
  agents?: boolean;
  excludeAgents?: string[];
  sharedDirs?: boolean;
  extraProjectDirs?: string[];
  extraUserDirs?: string[];
  claudePlugins?: boolean;
  sources?: SourceEntry[];
  sourcesFiles?: boolean;
  cacheDir?: string;
  dshHome?: string;
  home?: string;
  sync?: boolean;
  syncOnStart?: boolean;
  syncIntervalMs?: number;
  syncTimeoutMs?: number;
  maxDepth?: number;
  dedupe?: boolean;
  lenient?: boolean;
  watch?: boolean;
  excludeSkills?: string[];
  ranks?: Partial<Ranks>;
  catalog?: { limit?: number; pin?: string[]; hide?: string[] };
}

/** Configuration with every default applied and paths resolved. */
export interface ResolvedConfig {
  providerName: string;
  agents: boolean;
  excludeAgents: string[];
  sharedDirs: boolean;
  extraProjectDirs: string[];
  extraUserDirs: string[];
  claudePlugins: boolean;
  sources: SourceEntry[];
  sourcesFiles: boolean;
  home: string;
  dshHome: string;
  stateDir: string;
  cacheDir: string;
  lockFile: string;
  sync: boolean;
  syncOnStart: boolean;
  syncIntervalMs: number;
  syncTimeoutMs: number;
  maxDepth: number;
  dedupe: boolean;
  lenient: boolean;
  watch: boolean;
  excludeSkills: string[];
  ranks: Ranks;
  catalog: { limit: number; pin: string[]; hide: string[] };
}

/** A configuration value of the wrong type. */
export class ConfigError extends Error {
  /** Builds a configuration error. */
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

function expect<T>(
  value: unknown,
  field: string,
  check: (v: unknown) => boolean,
  what: string,
): T | undefined {
  if (value === undefined) return undefined;
  if (!check(value)) {
    throw new ConfigError(`skills-anywhere: config field "${field}" must be ${what}`);
  }
  return value as T;
}

const isBool = (v: unknown) => typeof v === "boolean";
const isString = (v: unknown) => typeof v === "string";
const isNumber = (v: unknown) => typeof v === "number" && Number.isFinite(v);
const isStrings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === "string");

/** Expands a leading `~` against `home`. */
export function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return path;
}

/**
 * Applies defaults and validates types. `env` supplies `HOME` and `DSH_HOME`
 * (default: the process environment).
 *
 * @example
 * ```ts
 * resolveConfig({ agents: "yes" as unknown as boolean }); // throws ConfigError
 * ```
 */
export function resolveConfig(raw: RawConfig = {}, env: Env = process.env): ResolvedConfig {
  const b = (field: keyof RawConfig, fallback: boolean) =>
    expect<boolean>(raw[field], field, isBool, "a boolean") ?? fallback;
  const n = (field: keyof RawConfig, fallback: number) =>
    expect<number>(raw[field], field, isNumber, "a number") ?? fallback;
  const list = (
    field: keyof RawConfig,
  ) => [...(expect<string[]>(raw[field], field, isStrings, "a list of strings") ?? [])];
  const home = resolve(
    expect<string>(raw.home, "home", isString, "a string") ?? env.HOME ?? homedir(),
  );
  const dshHomeRaw = expect<string>(raw.dshHome, "dshHome", isString, "a string") ?? env.DSH_HOME;
  const dshHome = resolve(home, expandHome(dshHomeRaw ?? join(home, ".dsh"), home));
  const stateDir = join(dshHome, "skills-anywhere");
  const cacheRaw = expect<string>(raw.cacheDir, "cacheDir", isString, "a string");
  const sources = expect<SourceEntry[]>(
    raw.sources,
    "sources",
    (v) =>
      Array.isArray(v) &&
      v.every((x) =>
        typeof x === "string" ||
        (x !== null && typeof x === "object" && typeof (x as { repo?: unknown }).repo === "string")
      ),
    "a list of source strings or {repo, ref?, path?, rank?} objects",
  ) ?? [];
  const ranksRaw = expect<Partial<Ranks>>(
    raw.ranks,
    "ranks",
    (v) => v !== null && typeof v === "object",
    "an object",
  ) ?? {};
  const ranks = { ...DEFAULT_RANKS };
  for (const key of Object.keys(DEFAULT_RANKS) as (keyof Ranks)[]) {
    ranks[key] = expect<number>(ranksRaw[key], `ranks.${key}`, isNumber, "a number") ?? ranks[key];
  }
  const catalogRaw = expect<RawConfig["catalog"]>(
    raw.catalog,
    "catalog",
    (v) => v !== null && typeof v === "object",
    "an object",
  ) ?? {};
  const limit = expect<number>(catalogRaw.limit, "catalog.limit", isNumber, "a number") ?? 50;
  return {
    providerName: expect<string>(raw.providerName, "providerName", isString, "a string") ??
      "skills-anywhere",
    agents: b("agents", true),
    excludeAgents: list("excludeAgents"),
    sharedDirs: b("sharedDirs", false),
    extraProjectDirs: list("extraProjectDirs").map((d) => d.replace(/^(?:\.\/|\/)+/, "")),
    extraUserDirs: list("extraUserDirs").map((d) => {
      const expanded = expandHome(d, home);
      return isAbsolute(expanded) ? expanded : resolve(home, expanded);
    }),
    claudePlugins: b("claudePlugins", true),
    sources: sources.map((s) => typeof s === "string" ? s : { ...s }),
    sourcesFiles: b("sourcesFiles", true),
    home,
    dshHome,
    stateDir,
    cacheDir: cacheRaw === undefined
      ? join(stateDir, "cache")
      : resolve(home, expandHome(cacheRaw, home)),
    lockFile: join(stateDir, "lock.json"),
    sync: b("sync", true),
    syncOnStart: b("syncOnStart", true),
    syncIntervalMs: n("syncIntervalMs", 6 * 60 * 60 * 1000),
    syncTimeoutMs: n("syncTimeoutMs", 120_000),
    maxDepth: n("maxDepth", 5),
    dedupe: b("dedupe", true),
    lenient: b("lenient", true),
    watch: b("watch", true),
    excludeSkills: list("excludeSkills"),
    ranks,
    catalog: {
      limit: Math.max(0, Math.floor(limit)),
      pin: [
        ...(expect<string[]>(catalogRaw.pin, "catalog.pin", isStrings, "a list of strings") ?? []),
      ],
      hide: [
        ...(expect<string[]>(catalogRaw.hide, "catalog.hide", isStrings, "a list of strings") ??
          []),
      ],
    },
  };
}

/**
 * The project root for `cwd`: the nearest ancestor (or `cwd` itself) that
 * contains `.git` (a directory or a file), else `cwd`.
 *
 * @example
 * ```ts
 * await findProjectRoot("/repo/packages/app"); // "/repo" when /repo/.git exists
 * ```
 */
export async function findProjectRoot(cwd: string): Promise<string> {
  const start = resolve(cwd);
  let current = start;
  for (;;) {
    if (await stat(join(current, ".git")).then(() => true, () => false)) return current;
    const parent = dirname(current);
    if (parent === current) return start;
    current = parent;
  }
}
