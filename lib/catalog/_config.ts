/**
 * The catalog configuration, defined once.
 *
 * {@linkcode CONFIG_FIELDS} is the one table of settings: each field's type,
 * default, environment variable and meaning. {@linkcode RawConfig} (what a
 * user writes) is derived from it, {@linkcode resolveConfig} validates and
 * fills it, and each surface derives its own schema from it (the dsh plugin
 * walks it to build its zod schema). Settings that only one surface has (the
 * dsh provider's name, watching and catalog budget) live with that surface.
 *
 * A value of the wrong type is a {@linkcode ConfigError} of kind
 * `invalid-field` naming the field; surfaces add their own prefix.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveConfig } from "./_config.ts";
 * const config = resolveConfig({ sharedDirs: true }, { HOME: "/home/me" });
 * assert.equal(config.cacheDir, "/home/me/.dsh/skills-anywhere/cache");
 * ```
 * @module
 */
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { stat } from "node:fs/promises";
import process from "node:process";
import { KindError } from "../errors.ts";
import { DEFAULT_GIT_TIMEOUT_MS } from "../limits.ts";
import { isPlainObject } from "../util.ts";

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

/**
 * The value types a field can have: `count` is a whole number ≥ 0,
 * `duration` a number ≥ 0 (milliseconds, 0 = off), `timeout` a number > 0.
 */
export type FieldType =
  | "boolean"
  | "count"
  | "duration"
  | "timeout"
  | "path"
  | "strings"
  | "sources"
  | "ranks";

/** One setting: its type, default (absent for derived paths), environment variable and meaning. */
export interface ConfigField {
  readonly type: FieldType;
  readonly default?: unknown;
  /** The environment variable read when the field is not given. */
  readonly env?: string;
  readonly doc: string;
}

/**
 * Every catalog setting with its default. The order is the documented order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { CONFIG_FIELDS } from "./_config.ts";
 * assert.equal(CONFIG_FIELDS.syncTimeoutMs.default, 120000);
 * ```
 */
export const CONFIG_FIELDS = {
  agents: { type: "boolean", default: true, doc: "Read every known agent's skill folders." },
  excludeAgents: { type: "strings", default: [], doc: "Agent ids whose folders are skipped." },
  sharedDirs: {
    type: "boolean",
    default: false,
    doc: "Read the shared `.agents/skills` folders (ranks 200 and 500).",
  },
  extraProjectDirs: {
    type: "strings",
    default: [],
    doc: "More skill folders, relative to the project root.",
  },
  extraUserDirs: {
    type: "strings",
    default: [],
    doc: "More skill folders; `~` and relative paths resolve against the home.",
  },
  claudePlugins: {
    type: "boolean",
    default: true,
    doc: "Read the skills of the Claude Code plugins that are installed and enabled.",
  },
  sources: { type: "sources", default: [], doc: "Git sources to sync and read." },
  sourcesFiles: {
    type: "boolean",
    default: true,
    doc: "Read the user and project sources files.",
  },
  cacheDir: {
    type: "path",
    doc: "Where Git sources are checked out (default: <dshHome>/skills-anywhere/cache).",
  },
  dshHome: { type: "path", env: "DSH_HOME", doc: "The dsh home (default: <home>/.dsh)." },
  home: { type: "path", env: "HOME", doc: "The user's home directory." },
  sync: { type: "boolean", default: true, doc: "Sync Git sources in the background." },
  syncOnStart: {
    type: "boolean",
    default: true,
    doc: "Sync when the server starts (and, in dsh, when a new project is seen).",
  },
  syncIntervalMs: {
    type: "duration",
    default: 6 * 60 * 60 * 1000,
    doc: "Time between background syncs; 0 turns the timer off.",
  },
  syncTimeoutMs: {
    type: "timeout",
    default: DEFAULT_GIT_TIMEOUT_MS,
    doc: "Time allowed to one git command.",
  },
  maxDepth: { type: "count", default: 5, doc: "How deep nested roots are walked." },
  dedupe: { type: "boolean", default: true, doc: "Drop copies of the same skill." },
  lenient: { type: "boolean", default: true, doc: "Accept skills with fixable frontmatter." },
  excludeSkills: { type: "strings", default: [], doc: "Skill names never published." },
  locked: {
    type: "boolean",
    default: false,
    doc: "Serve only skills whose bundle matches the project's `skills-anywhere.lock.json` " +
      "(read by the dsh provider; the MCP server has its own switch).",
  },
  ranks: {
    type: "ranks",
    default: DEFAULT_RANKS,
    doc: "Ranks of the root kinds (project, user, claudePlugins, sources).",
  },
} as const satisfies Record<string, ConfigField>;

/** The name of a catalog setting. */
export type FieldName = keyof typeof CONFIG_FIELDS;

/** The value a user writes for each field type. */
interface RawValues {
  boolean: boolean;
  count: number;
  duration: number;
  timeout: number;
  path: string;
  strings: string[];
  sources: SourceEntry[];
  ranks: Partial<Ranks>;
}

/** Configuration as a user writes it; every field optional. */
export type RawConfig = {
  [K in FieldName]?: RawValues[(typeof CONFIG_FIELDS)[K]["type"]];
};

/** Configuration with every default applied and paths resolved. */
export type ResolvedConfig =
  & { [K in Exclude<FieldName, "ranks">]-?: NonNullable<RawConfig[K]> }
  & {
    ranks: Ranks;
    /** `<dshHome>/skills-anywhere`. */
    stateDir: string;
    /** `<stateDir>/lock.json`. */
    lockFile: string;
  };

/** The failure classes of a configuration: today one, a field with a value it cannot have. */
export type ConfigErrorKind = "invalid-field";

/** A configuration value of the wrong type or range; `field` names it (`ranks.user`). */
export class ConfigError extends KindError<ConfigErrorKind> {
  /** The field, dotted for nested ones. */
  readonly field: string;

  /** Builds the error for `field`, which must be `what`. */
  constructor(field: string, what: string) {
    super("invalid-field", `config field "${field}" must be ${what}`);
    this.field = field;
  }
}

type Env = Record<string, string | undefined>;

const isNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isStrings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === "string");
const isSourceEntry = (v: unknown) =>
  typeof v === "string" || (isPlainObject(v) && typeof v.repo === "string");

/** What each field type accepts, and how a refusal describes it. */
const CHECKS: Record<Exclude<FieldType, "ranks">, [(v: unknown) => boolean, string]> = {
  boolean: [(v) => typeof v === "boolean", "a boolean"],
  count: [(v) => isNumber(v) && Number.isInteger(v) && v >= 0, "a whole number ≥ 0"],
  duration: [(v) => isNumber(v) && v >= 0, "a number ≥ 0"],
  timeout: [(v) => isNumber(v) && v > 0, "a number > 0"],
  path: [(v) => typeof v === "string", "a string"],
  strings: [isStrings, "a list of strings"],
  sources: [
    (v) => Array.isArray(v) && v.every(isSourceEntry),
    "a list of source strings or {repo, ref?, path?, rank?} objects",
  ],
};

/** `value` when given and of `type`; `undefined` when absent; throws otherwise. */
function checked<T>(
  value: unknown,
  field: string,
  type: Exclude<FieldType, "ranks">,
): T | undefined {
  if (value === undefined) return undefined;
  const [accepts, what] = CHECKS[type];
  if (!accepts(value)) throw new ConfigError(field, what);
  return value as T;
}

/** The given ranks over the defaults. */
function resolveRanks(raw: unknown): Ranks {
  if (raw === undefined) return { ...DEFAULT_RANKS };
  if (!isPlainObject(raw)) throw new ConfigError("ranks", "an object");
  const ranks = { ...DEFAULT_RANKS };
  for (const key of Object.keys(DEFAULT_RANKS) as (keyof Ranks)[]) {
    if (raw[key] === undefined) continue;
    if (!isNumber(raw[key])) throw new ConfigError(`ranks.${key}`, "a number");
    ranks[key] = raw[key];
  }
  return ranks;
}

/** Expands a leading `~` against `home`. */
export function expandHome(path: string, home: string): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return path;
}

/** The home, dsh home, state directory, cache and lock file. */
function resolvePaths(raw: RawConfig, env: Env) {
  const given = (field: "home" | "dshHome" | "cacheDir") =>
    checked<string>(raw[field], field, "path");
  const home = resolve(given("home") ?? env[CONFIG_FIELDS.home.env] ?? homedir());
  const dshHomeRaw = given("dshHome") ?? env[CONFIG_FIELDS.dshHome.env];
  const dshHome = resolve(home, expandHome(dshHomeRaw ?? join(home, ".dsh"), home));
  const stateDir = join(dshHome, "skills-anywhere");
  const cacheRaw = given("cacheDir");
  const cacheDir = cacheRaw === undefined
    ? join(stateDir, "cache")
    : resolve(home, expandHome(cacheRaw, home));
  return { home, dshHome, stateDir, cacheDir, lockFile: join(stateDir, "lock.json") };
}

/** Every field but the paths and ranks: the given value, checked, else a copy of the default. */
function resolveValues(raw: RawConfig) {
  const value = <K extends FieldName>(field: K): NonNullable<RawConfig[K]> => {
    const spec: ConfigField = CONFIG_FIELDS[field];
    const given = checked(raw[field], field, spec.type as Exclude<FieldType, "ranks">);
    const chosen = given ?? spec.default;
    return (Array.isArray(chosen) ? [...chosen] : chosen) as NonNullable<RawConfig[K]>;
  };
  return {
    agents: value("agents"),
    excludeAgents: value("excludeAgents"),
    sharedDirs: value("sharedDirs"),
    extraProjectDirs: value("extraProjectDirs"),
    extraUserDirs: value("extraUserDirs"),
    claudePlugins: value("claudePlugins"),
    sources: value("sources").map((s) => typeof s === "string" ? s : { ...s }),
    sourcesFiles: value("sourcesFiles"),
    sync: value("sync"),
    syncOnStart: value("syncOnStart"),
    syncIntervalMs: value("syncIntervalMs"),
    syncTimeoutMs: value("syncTimeoutMs"),
    maxDepth: value("maxDepth"),
    dedupe: value("dedupe"),
    lenient: value("lenient"),
    locked: value("locked"),
    excludeSkills: value("excludeSkills"),
  };
}

/**
 * Applies defaults and validates types. `env` supplies `HOME` and `DSH_HOME`
 * (default: the process environment). Fields not in {@linkcode CONFIG_FIELDS}
 * are ignored.
 *
 * @example
 * ```ts
 * import { ConfigError, resolveConfig } from "./_config.ts";
 * try {
 *   resolveConfig({ agents: "yes" as unknown as boolean });
 * } catch (error) {
 *   if (error instanceof ConfigError) console.log(error.kind, error.field); // "invalid-field agents"
 * }
 * ```
 */
export function resolveConfig(raw: RawConfig = {}, env: Env = process.env): ResolvedConfig {
  const paths = resolvePaths(raw, env);
  const values = resolveValues(raw);
  return {
    ...values,
    extraProjectDirs: values.extraProjectDirs.map((d) => d.replace(/^(?:\.\/|\/)+/, "")),
    extraUserDirs: values.extraUserDirs.map((d) => {
      const expanded = expandHome(d, paths.home);
      return isAbsolute(expanded) ? expanded : resolve(paths.home, expanded);
    }),
    ...paths,
    ranks: resolveRanks(raw.ranks),
  };
}

/**
 * The project root for `cwd`: the nearest ancestor (or `cwd` itself) that
 * contains `.git` (a directory or a file), else `cwd`.
 *
 * @example
 * ```ts
 * import { findProjectRoot } from "./_config.ts";
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
