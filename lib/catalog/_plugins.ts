/**
 * The Claude Code plugins a user has installed and enabled, read from the
 * files Claude Code itself reads, and the skill folders each one declares.
 *
 * - `~/.claude/plugins/installed_plugins.json`: what is installed, keyed
 *   `<plugin>@<marketplace>`. Version 2 (current) maps each key to a list of
 *   installs `{ scope, installPath, projectPath?, version, … }`; version 1
 *   (older) maps it to one install object without a scope (user scope). An
 *   install of scope `user` or `managed` counts everywhere; `project` and
 *   `local` count only when their `projectPath` is the current project root.
 * - `enabledPlugins` in `~/.claude/settings.json`, then the project's
 *   `.claude/settings.json`, then its `.claude/settings.local.json` (a later
 *   file overrides an earlier one, key by key). A plugin is enabled when its
 *   merged value is `true` (or a list of versions); `false` or no entry at
 *   all means not enabled: Claude Code writes `true` when it installs a
 *   plugin, and loads only plugins that an entry enables.
 * - The skill folders of an enabled plugin, below its `installPath`: the
 *   paths its marketplace entry (`~/.claude/plugins/marketplaces/<marketplace>/
 *   .claude-plugin/marketplace.json`) and its own `.claude-plugin/plugin.json`
 *   list under `skills`; when neither lists any, its `skills/` folder. A path
 *   is a skill directory (it holds `SKILL.md`) or a folder of them.
 *
 * Every one of these files is untrusted input: read through the bounded
 * reader (at most `MAX_CONFIG_BYTES`), parsed as strict JSON, and checked
 * field by field; a file or an entry that is not of the expected shape is
 * skipped with a warning through the `Log`, never thrown, and no warning
 * quotes a file's content. The project's two settings files are read only
 * from inside the project (never through a link, nor a linked `.claude`
 * folder: such a file is refused for safety, one warning), as are a
 * plugin's `plugin.json` inside its install folder and a marketplace's
 * manifest inside its checkout; the user's own `~/.claude/settings.json` and
 * `installed_plugins.json` may be links. An `installPath`
 * must lie inside `~/.claude/plugins` (lexically and after links are
 * resolved), and a declared skill path inside its `installPath`; anything
 * else is refused with a warning.
 *
 * @example
 * ```ts
 * import { enabledPlugins } from "./_plugins.ts";
 * for (const plugin of enabledPlugins("/home/me", { projectRoot: "/repo" })) {
 *   console.log(plugin.plugin, plugin.marketplace, plugin.skillPaths);
 * }
 * ```
 * @module
 */
import { realpathSync, statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { errorText, type Failure, failure } from "../errors.ts";
import { isWithin, readBoundedSync, ReadError } from "../fs/mod.ts";
import { MAX_CONFIG_BYTES } from "../limits.ts";
import { isPlainObject, type Log, silentLog, tryParseJsonBytes } from "../util.ts";

/** One installed, enabled plugin and the skill folders it declares. */
export interface EnabledPlugin {
  /** The plugin's name (the part of its key before `@`). */
  plugin: string;
  /** The marketplace it was installed from (the part after `@`). */
  marketplace: string;
  /** Its install folder (inside `~/.claude/plugins`), as Claude Code recorded it. */
  installPath: string;
  /** Absolute skill folders, each a skill directory or a folder of skill directories. */
  skillPaths: string[];
}

/** Options of {@linkcode enabledPlugins}. */
export interface PluginOptions {
  /** The project root, whose settings and project-scoped installs count. */
  projectRoot?: string;
  /** Where warnings about unreadable or malformed files go. */
  log?: Log;
}

/** One install of a plugin, as `installed_plugins.json` records it. */
interface Install {
  plugin: string;
  marketplace: string;
  scope: string;
  installPath: string;
  projectPath?: string;
}

/** The install scopes Claude Code writes. */
const SCOPES: ReadonlySet<string> = new Set(["user", "project", "local", "managed"]);

/**
 * The installed plugins that are enabled for `projectRoot` (see the module
 * doc), in the order of `installed_plugins.json`; none when that file is
 * absent or unusable.
 */
export function enabledPlugins(home: string, options: PluginOptions = {}): EnabledPlugin[] {
  const log = options.log ?? silentLog;
  const pluginsDir = join(home, ".claude", "plugins");
  const registry = join(pluginsDir, "installed_plugins.json");
  const installs = readInstalls(registry, log);
  if (installs.length === 0) return [];
  const enabled = enabledSettings(home, options.projectRoot, log);
  const realPlugins = realOrUndefined(pluginsDir);
  const result: EnabledPlugin[] = [];
  const seen = new Set<string>();
  for (const install of installs) {
    const key = `${install.plugin}@${install.marketplace}`;
    if (enabled.get(key) !== true || !applies(install, options.projectRoot)) continue;
    const installPath = confinedInstallPath(install, pluginsDir, realPlugins, log);
    if (installPath === undefined || seen.has(installPath)) continue;
    seen.add(installPath);
    const skillPaths = pluginSkillPaths(pluginsDir, install, installPath, log);
    result.push({
      plugin: install.plugin,
      marketplace: install.marketplace,
      installPath,
      skillPaths,
    });
  }
  return result;
}

/** Whether an install counts for this project (user and managed installs count everywhere). */
function applies(install: Install, projectRoot: string | undefined): boolean {
  if (install.scope === "user" || install.scope === "managed") return true;
  return projectRoot !== undefined && install.projectPath !== undefined &&
    resolve(install.projectPath) === resolve(projectRoot);
}

/** The install folder, when it lies inside `~/.claude/plugins` before and after links. */
function confinedInstallPath(
  install: Install,
  pluginsDir: string,
  realPlugins: string | undefined,
  log: Log,
): string | undefined {
  const path = resolve(pluginsDir, install.installPath);
  if (!isAbsolute(install.installPath) || !isWithin(path, pluginsDir)) {
    log(
      "warn",
      `plugin ${install.plugin}@${install.marketplace}: installPath is outside ${pluginsDir}; skipped`,
    );
    return undefined;
  }
  const real = realOrUndefined(path);
  if (real === undefined || realPlugins === undefined) return undefined; // not there (yet)
  if (!isWithin(real, realPlugins)) {
    log(
      "warn",
      `plugin ${install.plugin}@${install.marketplace}: installPath leads outside ${pluginsDir}; skipped`,
    );
    return undefined;
  }
  return path;
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------
// Reading JSON files

/** A JSON file's value, `undefined` when it does not exist, or why it could not be used. */
type JsonRead = { ok: true; value: unknown } | Failure<"unreadable" | "invalid-json">;

/**
 * Where a JSON file may be read from: `root`, a folder it must really lie in
 * (a project's or a plugin's own file: never through a link, never out of
 * it); without it, the user's own file, whose final link is followed.
 */
interface JsonPlace {
  root?: string;
}

/**
 * Reads and parses one small JSON file through the bounded reader; messages
 * name the file and the reader's or the parser's reason, never its content.
 */
function readJson(path: string, place: JsonPlace): JsonRead {
  let bytes: Uint8Array;
  try {
    bytes = readBoundedSync(path, {
      maxBytes: MAX_CONFIG_BYTES,
      followSymlinks: place.root === undefined,
      ...(place.root !== undefined ? { root: place.root } : {}),
    }).bytes;
  } catch (error) {
    if (error instanceof ReadError && error.kind === "missing") {
      return { ok: true, value: undefined };
    }
    return failure("unreadable", `cannot read ${path}: ${readWhy(error)}`);
  }
  const parsed = tryParseJsonBytes(bytes);
  return parsed.ok ? parsed : failure("invalid-json", `${path} is ${parsed.message}`);
}

/** A read refusal in words: a link out of its folder is refused for safety. */
function readWhy(error: unknown): string {
  if (error instanceof ReadError && (error.kind === "outside" || error.kind === "symlink")) {
    return "a link, or in a linked folder, refused for safety";
  }
  return errorText(error);
}

/** A JSON file's value, or `undefined` (absent, or unusable: then a warning is logged). */
function readJsonOrWarn(path: string, log: Log, place: JsonPlace = {}): unknown {
  const read = readJson(path, place);
  if (read.ok) return read.value;
  log("warn", `${read.message}; ignored`);
  return undefined;
}

// ---------------------------------------------------------------------------
// installed_plugins.json

/** The installs recorded in `installed_plugins.json` (version 1 or 2); bad entries are skipped. */
function readInstalls(path: string, log: Log): Install[] {
  const value = readJsonOrWarn(path, log);
  if (value === undefined) return [];
  const parsed = parseInstalls(value);
  if (!parsed.ok) {
    log("warn", `${path}: ${parsed.message}; no plugin is read`);
    return [];
  }
  for (const problem of parsed.skipped) log("warn", `${path}: ${problem}; skipped`);
  return parsed.installs;
}

/** What {@linkcode parseInstalls} found: the usable installs and the entries it skipped. */
type ParsedInstalls =
  | { ok: true; installs: Install[]; skipped: string[] }
  | Failure<"invalid-shape">;

/**
 * Parses the value of `installed_plugins.json`: `{ version: 1 | 2, plugins:
 * { "<plugin>@<marketplace>": install | install[] } }` (a file without
 * `version` is read as version 1, the shape before versions were written).
 */
function parseInstalls(value: unknown): ParsedInstalls {
  if (isPlainObject(value) && value.plugins === undefined) {
    return { ok: true, installs: [], skipped: [] };
  }
  if (!isPlainObject(value) || !isPlainObject(value.plugins)) {
    return failure("invalid-shape", "expected an object with a `plugins` object");
  }
  const version = value.version ?? 1;
  if (version !== 1 && version !== 2) {
    return failure("invalid-shape", "unknown version");
  }
  const installs: Install[] = [];
  const skipped: string[] = [];
  for (const [key, entry] of Object.entries(value.plugins)) {
    const at = key.lastIndexOf("@");
    const plugin = key.slice(0, at);
    const marketplace = key.slice(at + 1);
    if (at <= 0 || marketplace === "" || !safeName(plugin) || !safeName(marketplace)) {
      skipped.push("a key is not <plugin>@<marketplace>");
      continue;
    }
    const list = version === 2 && Array.isArray(entry)
      ? entry
      : version === 1
      ? [entry]
      : undefined;
    if (list === undefined) {
      skipped.push(`${key}: expected a list of installs`);
      continue;
    }
    for (const item of list) {
      const install = parseInstall(item, plugin, marketplace, version);
      if (typeof install === "string") skipped.push(`${key}: ${install}`);
      else installs.push(install);
    }
  }
  return { ok: true, installs, skipped };
}

/** A plugin or marketplace name usable as a label and a folder name. */
function safeName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name) && name.length <= 128;
}

/** One install object, or what is wrong with it. */
function parseInstall(
  item: unknown,
  plugin: string,
  marketplace: string,
  version: 1 | 2,
): Install | string {
  if (!isPlainObject(item)) return "an install is not an object";
  const scope = version === 1 && item.scope === undefined ? "user" : item.scope;
  if (typeof scope !== "string" || !SCOPES.has(scope)) {
    return "unknown scope";
  }
  if (typeof item.installPath !== "string" || item.installPath === "") {
    return "installPath is not a non-empty string";
  }
  if (item.projectPath !== undefined && typeof item.projectPath !== "string") {
    return "projectPath is not a string";
  }
  const install: Install = { plugin, marketplace, scope, installPath: item.installPath };
  if (item.projectPath !== undefined) install.projectPath = item.projectPath;
  return install;
}

// ---------------------------------------------------------------------------
// settings.json: enabledPlugins

/**
 * The plugins the project's own, committed `.claude/settings.json` enables (`plugin@marketplace`
 * keys whose value is `true` or a list of versions), sorted, whether or not this home installed
 * them; none when the file is absent or unusable (the catalog warns about that once). Read only
 * from inside the project, as the module doc says. What a teammate and CI are told the project's
 * lock leaves out.
 *
 * @example
 * ```ts
 * import { projectEnabledPlugins } from "./_plugins.ts";
 * // Type-checked, not run by the doc test: it reads the settings of the project at /repo.
 * function example() {
 *   projectEnabledPlugins("/repo"); // ["helper@team-marketplace"]
 * }
 * ```
 */
export function projectEnabledPlugins(projectRoot: string): string[] {
  const file = join(projectRoot, ".claude", "settings.json");
  const parsed = parseEnabledPlugins(readJsonOrWarn(file, silentLog, { root: projectRoot }));
  if (!parsed.ok) return [];
  return [...parsed.enabled].filter(([, on]) => on).map(([key]) => key).sort();
}

/** `enabledPlugins` merged over the user, project and local settings files. */
function enabledSettings(
  home: string,
  projectRoot: string | undefined,
  log: Log,
): Map<string, boolean> {
  // The user's own file may be a link; a project's are read only from inside the project.
  const files: [string, JsonPlace][] = [[join(home, ".claude", "settings.json"), {}]];
  if (projectRoot !== undefined) {
    files.push([join(projectRoot, ".claude", "settings.json"), { root: projectRoot }]);
    files.push([join(projectRoot, ".claude", "settings.local.json"), { root: projectRoot }]);
  }
  const merged = new Map<string, boolean>();
  const seen = new Set<string>();
  for (const [file, place] of files) {
    if (seen.has(file)) continue;
    seen.add(file);
    const parsed = parseEnabledPlugins(readJsonOrWarn(file, log, place));
    if (!parsed.ok) {
      log("warn", `${file}: ${parsed.message}; ignored`);
      continue;
    }
    for (const [key, on] of parsed.enabled) merged.set(key, on);
  }
  return merged;
}

/**
 * The `enabledPlugins` of one settings value: each key's `true`/`false` (a
 * list of version strings counts as `true`). A settings value that is absent
 * or has no `enabledPlugins` enables nothing.
 */
function parseEnabledPlugins(
  settings: unknown,
): { ok: true; enabled: Map<string, boolean> } | Failure<"invalid-shape"> {
  const enabled = new Map<string, boolean>();
  if (settings === undefined) return { ok: true, enabled };
  if (!isPlainObject(settings)) return failure("invalid-shape", "settings are not an object");
  const value = settings.enabledPlugins;
  if (value === undefined) return { ok: true, enabled };
  if (!isPlainObject(value)) return failure("invalid-shape", "enabledPlugins is not an object");
  for (const [key, on] of Object.entries(value)) {
    if (typeof on === "boolean") enabled.set(key, on);
    else if (Array.isArray(on) && on.every((v) => typeof v === "string")) enabled.set(key, true);
    else {return failure(
        "invalid-shape",
        "an enabledPlugins entry is not true, false or a list of versions",
      );}
  }
  return { ok: true, enabled };
}

// ---------------------------------------------------------------------------
// Skill folders of a plugin

/** The plugin's skill folders (see the module doc), confined to its install folder. */
function pluginSkillPaths(
  pluginsDir: string,
  install: Install,
  installPath: string,
  log: Log,
): string[] {
  const label = `plugin ${install.plugin}@${install.marketplace}`;
  const marketplaceFile = join(
    pluginsDir,
    "marketplaces",
    install.marketplace,
    ".claude-plugin",
    "marketplace.json",
  );
  const declared = [
    ...declaredSkills(
      marketplaceEntry(
        readJsonOrWarn(marketplaceFile, log, {
          root: join(pluginsDir, "marketplaces", install.marketplace),
        }),
        install.plugin,
      ),
      `${marketplaceFile}`,
      log,
    ),
    ...declaredSkills(
      readJsonOrWarn(join(installPath, ".claude-plugin", "plugin.json"), log, {
        root: installPath,
      }),
      `${label} plugin.json`,
      log,
    ),
  ];
  if (declared.length === 0) {
    return isDirectory(join(installPath, "skills")) ? [join(installPath, "skills")] : [];
  }
  const paths: string[] = [];
  for (const relativePath of declared) {
    const path = resolve(installPath, relativePath);
    if (isAbsolute(relativePath) || !isWithin(path, installPath, { allowSame: true })) {
      log("warn", `${label}: a skill path leaves its install folder; skipped`);
    } else if (!paths.includes(path)) {
      paths.push(path);
    }
  }
  return paths;
}

/** The entry of `plugin` in a marketplace manifest's `plugins` list, if any. */
function marketplaceEntry(manifest: unknown, plugin: string): unknown {
  if (!isPlainObject(manifest) || !Array.isArray(manifest.plugins)) return undefined;
  return manifest.plugins.find((entry) => isPlainObject(entry) && entry.name === plugin);
}

/** The `skills` paths of a marketplace entry or `plugin.json` (a string or a list of strings). */
function declaredSkills(entry: unknown, where: string, log: Log): string[] {
  if (!isPlainObject(entry) || entry.skills === undefined) return [];
  const skills = entry.skills;
  if (typeof skills === "string") return [skills];
  if (Array.isArray(skills) && skills.every((s) => typeof s === "string")) return skills;
  log("warn", `${where}: skills is not a path or a list of paths; ignored`);
  return [];
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
