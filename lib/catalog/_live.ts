/**
 * The live catalog: loaded once, then kept in memory and updated as its files
 * change, with no caller needed.
 *
 * The first load is {@linkcode loadCatalog}'s (project root, Git sources,
 * roots, the project lock's names, discovery). Then it follows:
 *
 * - every root folder that exists, watched recursively (`node:fs` `watch`
 *   with `recursive: true`, under Node and Deno alike);
 * - for a root folder that does not exist yet, its nearest existing parent
 *   (a `~/.claude/skills` created later is picked up), and the folders of the
 *   files that decide the root list: the user and project sources files, the
 *   trust file, the project lock, Claude Code's `installed_plugins.json` and
 *   settings files. These folders are polled for their own entries every
 *   500 ms (`pollMs` when shorter): one `readdir` and an `lstat` per entry,
 *   never a watch, since Deno's `watch` ignores `recursive: false` and would
 *   watch a whole home folder. A change to an input file is a full reload
 *   (the roots are built again; walks and parses still come from the cache).
 *
 * At most `maxWatchers` root folders are watched (default 64, in precedence
 * order). A root over that cap, or whose watch fails (`ENOSPC`, `EMFILE`, a
 * platform without recursive watching, a watch that reports an error later),
 * is polled instead: every `pollMs` (default 2000 ms) the tree below it is
 * `lstat`ed (at most 100,000 entries, 16 levels) and every entry whose stamp
 * changed counts as an event. `mode: "poll"` polls every root.
 *
 * Events are gathered for `debounceMs` (default 100, at most 200) and then
 * applied incrementally through a {@linkcode DiscoveryCache}: only the roots
 * an event touched are walked again, only files whose stamp changed or under
 * whose skill directory something happened are read and parsed again, and
 * precedence, dedupe and renames are recomputed in memory. A skill that did
 * not change stays the same object across reports. Listeners
 * ({@linkcode LiveCatalog.onChange}) hear of every report that lists
 * something else (a skill added, removed, renamed, edited, a file in its
 * folder changed, an invalid file appeared or went).
 *
 * {@linkcode LiveCatalog.report} never rescans: it answers from memory, after
 * applying what was already seen and not yet applied, and after one `stat` of
 * each root folder that exists (of every root folder at most every 250 ms, or
 * at once with `thorough`): a folder whose times changed since the last walk
 * is walked again, a safety net for an event not yet delivered. Nothing of a file's text
 * is kept. {@linkcode LiveCatalog.close} stops every watcher and timer.
 *
 * Links: a root reached through a linked folder is watched by its real path and
 * its events are spelled below the root as configured. A skill folder that is a
 * link (tools install skills by linking one folder into each agent's folder) is
 * followed at its real folder too: a change there is a change of every skill
 * folder that leads to it, listed or left out as the same file, and a real
 * folder no root holds is watched (within the cap, else polled) like a root.
 *
 * Limit: a project that gains its first `.git` while watched keeps its old
 * project root until reloaded.
 *
 * @example
 * ```ts
 * import { LiveCatalog } from "./_live.ts";
 * import { resolveConfig } from "./_config.ts";
 * const live = new LiveCatalog(resolveConfig({}, { HOME: "/home/me" }), { cwd: "/repo" });
 * const off = live.onChange((catalog) => console.log(catalog.report.skills.length));
 * const report = await live.report();
 * off();
 * await live.close();
 * ```
 * @module
 */
import { type FSWatcher, lstatSync, readdirSync, realpathSync, statSync, watch } from "node:fs";
import { dirname, join, resolve, sep } from "node:path";
import { clearInterval, clearTimeout, setInterval, setTimeout } from "node:timers";
import { errorText } from "../errors.ts";
import { type Log, silentLog } from "../util.ts";
import type { ResolvedConfig } from "./_config.ts";
import { discover, DiscoveryCache, type DiscoveryReport } from "./_discover.ts";
import type { DiscoveredSkill } from "./_types.ts";
import type { Catalog } from "./_load.ts";
import { buildRoots, type Root } from "./_roots.ts";
import { isWithin, realPaths } from "../fs/mod.ts";
import { collectSources } from "../sources/mod.ts";
import { userSourcesFile } from "../sources/mod.ts";
import { trustFile } from "../sources/mod.ts";
import { type LockedNames, readLockedNames } from "../lock/mod.ts";
import { type Project, resolveProject } from "./_project.ts";

/** Options of {@linkcode LiveCatalog}. */
export interface LiveCatalogOptions {
  /** Working directory (project selection; its project is resolved again on each full reload). */
  cwd?: string;
  /**
   * The project, when the caller has resolved it (see `project.ts`): it is kept for the
   * catalog's life, and `cwd` defaults to `project.cwd` (default: resolved from `cwd`).
   */
  project?: Project;
  /**
   * Diagnostics sink.
   *
   * @default nowhere
   */
  log?: Log;
  /**
   * `watch`: watch folders, polling only as the fallback; `poll`: poll every folder.
   *
   * @default {"watch"}
   */
  mode?: "watch" | "poll";
  /**
   * The polling interval of the fallback, in milliseconds.
   *
   * @default {2000}
   */
  pollMs?: number;
  /**
   * How long events are gathered before they are applied, in milliseconds (at most 200).
   *
   * @default {100}
   */
  debounceMs?: number;
  /**
   * Most folders watched at once; the others are polled.
   *
   * @default {64}
   */
  maxWatchers?: number;
  /**
   * The read cache's settle time (see {@linkcode DiscoveryCacheOptions.settleMs}).
   *
   * @default {1000}
   */
  settleMs?: number;
  /**
   * Called with each skill file read and parsed (to count reads).
   *
   * @default none
   */
  onRead?: (path: string) => void;
}

/** How folders are being followed. */
export interface WatchState {
  /** Root folders watched, recursively. */
  watched: string[];
  /** Root folders polled, recursively (over the cap, a failed watch, or `mode: "poll"`). */
  polled: string[];
  /** Folders polled for their own entries (parents of absent roots and of input files). */
  shallow: string[];
}

/** Most entries the polling of one folder stamps. */
const MAX_POLLED_ENTRIES = 100_000;

/** Deepest level below a polled folder that is stamped. */
const MAX_POLLED_DEPTH = 16;

/** Folders a poll never enters (the walk's own list). */
const UNPOLLED = new Set([".git", "node_modules", ".hg", ".svn", "__pycache__", ".venv", "venv"]);

/** Whether `path` lies below `parent` (not `parent` itself); both absolute. */
function isBelow(path: string, parent: string): boolean {
  const prefix = parent.endsWith(sep) ? parent : parent + sep;
  return path.startsWith(prefix);
}

/**
 * The path, spelled below the watched `path`, of a file a watch event names. Node names it
 * relative to `path`; Deno relative to the folder's real path `real`, and sometimes by the link's
 * own spelling (`../../link/a/x.txt`), so a root reached through a linked folder (a home behind a
 * link, macOS's `/var`) must be resolved against `real` and brought back below `path`.
 */
function eventPath(path: string, real: string, name: string): string {
  const absolute = resolve(real, name);
  if (absolute === real) return path;
  return isBelow(absolute, real) ? join(path, absolute.slice(real.length + 1)) : absolute;
}

/**
 * The real folder of a skill whose folder is reached through a link (the folder itself or a
 * parent below its root), or `null`: a flat file, a folder that is no link, or one gone.
 */
function linkedFolder(skill: DiscoveredSkill, realRoot: (root: string) => string): string | null {
  if (skill.directory === skill.root) return null;
  try {
    const real = realpathSync(skill.directory);
    return real === realRoot(skill.root) + skill.directory.slice(skill.root.length) ? null : real;
  } catch {
    return null;
  }
}

/** Whether `path` is `other`, lies below it or holds it. */
function related(path: string, other: string): boolean {
  return path === other || isBelow(path, other) || isBelow(other, path);
}

/** Whether `path` is a directory (following links). */
function isDirectory(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

/** Whether `path` (a real path) lies in `/proc`, `/sys` or `/dev`, or is the file system root. */
function isSystemPath(path: string): boolean {
  return dirname(path) === path || /^\/(?:proc|sys|dev)(?:\/|$)/.test(path);
}

/**
 * Whether a root folder may be watched or polled below: its real path stays inside the boundary
 * discovery gives its kind (the project, the plugin folder, the Git checkout; see
 * `discover.ts`), and is never a system folder. A root that leaves it publishes nothing (discovery
 * refuses it), so following it would only let a stranger's link make the server watch, say, the
 * whole home folder or `/`. An absent root is followed through its parent.
 */
function followable(root: Root): boolean {
  let real: string;
  try {
    real = realpathSync(root.path);
  } catch {
    return true;
  }
  if (isSystemPath(real)) return false;
  const boundary = root.source === "anywhere-user"
    ? undefined
    : root.confineTo ?? (root.source === "anywhere-project" ? root.project : undefined) ??
      root.path;
  if (boundary === undefined) return true;
  try {
    return isWithin(real, realpathSync(boundary), { allowSame: true });
  } catch {
    return false;
  }
}

/** The nearest existing directory at or above `path`. */
function nearestExisting(path: string): string {
  let current = path;
  while (!isDirectory(current) && dirname(current) !== current) current = dirname(current);
  return current;
}

/** A folder's times, "-" when absent, "?" when it cannot be read. */
function folderStamp(path: string): string {
  try {
    const info = statSync(path, { throwIfNoEntry: false });
    return info === undefined ? "-" : `${info.ino}/${info.mtimeMs}/${info.ctimeMs}`;
  } catch {
    return "?";
  }
}

/**
 * The stamps of `target` and what lies below it (its own entries only unless `recursive`), by
 * absolute path; `{target: "-"}` when it is absent. Bounded by the polling limits.
 */
function treeStamps(target: string, recursive: boolean): Map<string, string> {
  const stamps = new Map<string, string>();
  const stampOf = (path: string) => {
    try {
      const info = lstatSync(path, { throwIfNoEntry: false });
      if (info === undefined) return undefined;
      stamps.set(path, `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`);
      return info;
    } catch {
      return undefined;
    }
  };
  const top = stampOf(target);
  if (top === undefined) return new Map([[target, "-"]]);
  const stack: [string, number][] = top.isDirectory() ? [[target, 0]] : [];
  while (stack.length > 0 && stamps.size < MAX_POLLED_ENTRIES) {
    const [dir, depth] = stack.pop()!;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      if (stamps.size >= MAX_POLLED_ENTRIES) break;
      const path = join(dir, name);
      const info = stampOf(path);
      const deeper = recursive && depth < MAX_POLLED_DEPTH && !UNPOLLED.has(name);
      if (info?.isDirectory() && deeper) stack.push([path, depth + 1]);
    }
  }
  return stamps;
}

/** The paths whose stamps differ between two stamp maps (added, removed or changed). */
function changedPaths(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed: string[] = [];
  for (const [path, stamp] of after) if (before.get(path) !== stamp) changed.push(path);
  for (const path of before.keys()) if (!after.has(path)) changed.push(path);
  return changed;
}

/** The files whose change means the root list must be built again. */
function inputFiles(config: ResolvedConfig, project: Project | undefined): string[] {
  const claude = join(config.home, ".claude");
  const files = [
    userSourcesFile(config.dshHome),
    trustFile(config.dshHome),
    join(claude, "plugins", "installed_plugins.json"),
    join(claude, "settings.json"),
  ];
  if (project !== undefined) {
    files.push(
      project.sourcesFile,
      project.lockFile,
      join(project.root, ".claude", "settings.json"),
      join(project.root, ".claude", "settings.local.json"),
    );
  }
  return files;
}

/** One watched folder (always recursively). */
interface Watched {
  watcher: FSWatcher;
}

/** One polled folder: recursively or its own entries only, its last stamps, when it is due. */
interface Polled {
  recursive: boolean;
  stamps: Map<string, string>;
  due: number;
}

/** How often a request checks the root folders' own stamps, at most (milliseconds). */
const ROOT_CHECK_MS = 250;

/** How often folders followed for their own entries are polled, at most (milliseconds). */
const SHALLOW_POLL_MS = 500;

/**
 * A catalog kept in memory and updated as its files change (see the module doc).
 *
 * @example
 * ```ts
 * import { LiveCatalog } from "./_live.ts";
 * import { resolveConfig } from "./_config.ts";
 * const live = new LiveCatalog(resolveConfig({}), { mode: "poll", pollMs: 500 });
 * console.log((await live.report()).skills.length);
 * await live.close();
 * ```
 */
export class LiveCatalog {
  /** The resolved configuration the catalog is built from. */
  readonly config: ResolvedConfig;
  readonly #cwd?: string;
  readonly #project?: Project;
  readonly #log: Log;
  readonly #mode: "watch" | "poll";
  readonly #pollMs: number;
  /** The polling timer's period: the shallow interval, or the whole interval when shorter. */
  readonly #tickMs: number;
  readonly #debounceMs: number;
  readonly #maxWatchers: number;
  readonly #cache: DiscoveryCache;
  readonly #listeners = new Set<(catalog: Catalog) => void>();
  #catalog?: Catalog;
  #locked?: LockedNames;
  /** The root folders followed, and the files whose change rebuilds the root list. */
  #roots: string[] = [];
  /** The existing roots that may be followed below (see {@linkcode followable}). */
  #followable = new Set<string>();
  #inputs: string[] = [];
  /** Each root folder's stamp when it was last walked. */
  #rootStamps = new Map<string, string>();
  /** Paths seen changed and not yet applied; `#full`: the root list must be built again. */
  #dirty = new Set<string>();
  #full = false;
  #started?: Promise<void>;
  #running?: Promise<void>;
  #timer?: ReturnType<typeof setTimeout>;
  #pollTimer?: ReturnType<typeof setInterval>;
  #watchers = new Map<string, Watched>();
  /** Folders whose watch failed: polled from then on. */
  #failed = new Set<string>();
  /** Watched folders to open again (the folder itself was removed or replaced). */
  #stale = new Set<string>();
  /** Polled folders with their recursion and last stamps. */
  #polled = new Map<string, Polled>();
  /** Each linked skill folder's real folder (`null`: not a link), by skill object. */
  #realDirs = new WeakMap<DiscoveredSkill, string | null>();
  /** The real folder of each skill folder that is a link, with the skill folders that lead there. */
  #links = new Map<string, string[]>();
  #closed = false;
  /** When the root folders were last checked by a request (see {@linkcode LiveCatalog.catalog}). */
  #rootsCheckedAt = 0;

  /** A live catalog over `config` for `options.cwd`; nothing starts before the first use. */
  constructor(config: ResolvedConfig, options: LiveCatalogOptions = {}) {
    this.config = config;
    this.#cwd = options.cwd ?? options.project?.cwd;
    if (options.project !== undefined) this.#project = options.project;
    this.#log = options.log ?? silentLog;
    this.#mode = options.mode ?? "watch";
    this.#pollMs = Math.max(50, options.pollMs ?? 2000);
    this.#tickMs = Math.min(SHALLOW_POLL_MS, this.#pollMs);
    this.#debounceMs = Math.min(200, Math.max(0, options.debounceMs ?? 100));
    this.#maxWatchers = Math.max(0, options.maxWatchers ?? 64);
    this.#cache = new DiscoveryCache({ settleMs: options.settleMs, onRead: options.onRead });
  }

  /** How many skill files were read and parsed so far, and how many outcomes were reused. */
  get reads(): { reads: number; reused: number } {
    return { ...this.#cache.stats };
  }

  /** The catalog in memory (`undefined` before the first load is done). */
  get current(): Catalog | undefined {
    return this.#catalog;
  }

  /** Loads the catalog (once) and starts following its folders; resolves after the first load. */
  start(): Promise<void> {
    if (this.#started === undefined) {
      this.#full = true;
      this.#started = this.#drain().catch((error) => {
        // A first load that failed is tried again by the next call.
        this.#started = undefined;
        throw error;
      });
    }
    return this.#started;
  }

  /**
   * The catalog's report from memory, after the changes already seen are applied (see the
   * module doc); the first call waits for the first load.
   */
  async report(): Promise<DiscoveryReport> {
    return (await this.catalog()).report;
  }

  /**
   * The whole catalog from memory, as {@linkcode report} gives its report. The root folders that
   * exist are checked on every call, so a skill folder added to or removed from one is in the
   * very next report whatever the delay of its event; the missing ones at most every
   * {@linkcode ROOT_CHECK_MS} (each `stat` of a missing folder costs a thrown error under Deno: a
   * request must not pay 130 of them), or now with `thorough`.
   */
  async catalog(options: { thorough?: boolean } = {}): Promise<Catalog> {
    await this.start();
    const catalog = this.#catalog!;
    const now = Date.now();
    // The root folders that exist are checked on every request (a handful of `stat`s); the
    // missing ones, most of the 130-odd, at most every ROOT_CHECK_MS.
    const all = options.thorough === true || now - this.#rootsCheckedAt >= ROOT_CHECK_MS;
    if (all) this.#rootsCheckedAt = now;
    for (const root of catalog.roots) {
      const path = root.path;
      const known = this.#rootStamps.get(path);
      if (!all && (known === undefined || known === "-")) continue;
      if (folderStamp(path) !== known) this.#dirty.add(path);
    }
    if (this.#dirty.size > 0 || this.#full || this.#running !== undefined) await this.flush();
    return this.#catalog!;
  }

  /** Applies at once what was seen and not yet applied; resolves when it is applied. */
  flush(): Promise<void> {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    return this.#drain();
  }

  /**
   * Builds the catalog again in the background (a Git source changed): sources and roots
   * rebuilt, the Git sources' checkouts walked again, files still compared by stamp; other roots
   * are walked again only if they changed. Resolves once applied.
   */
  reload(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    // The Git sources' checkouts are walked again; every other root only if it changed.
    const sources = this.#catalog?.roots.filter((root) => root.source === "anywhere-source");
    this.#cache.forget((sources ?? []).map((root) => root.path));
    this.#full = true;
    return this.start().then(() => this.flush());
  }

  /**
   * Calls `listener` after each update that changed what the report lists; returns the function
   * that removes it.
   */
  onChange(listener: (catalog: Catalog) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** What is watched and what is polled now. */
  watching(): WatchState {
    const polled = [...this.#polled];
    return {
      watched: [...this.#watchers.keys()],
      polled: polled.filter(([, { recursive }]) => recursive).map(([path]) => path),
      shallow: polled.filter(([, { recursive }]) => !recursive).map(([path]) => path),
    };
  }

  /** Stops every watcher and timer; waits for an update under way. Idempotent. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.clear();
    this.#stop();
    await this.#started?.catch(() => {});
    await this.#running?.catch(() => {});
    this.#stop();
  }

  #stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    if (this.#pollTimer !== undefined) clearInterval(this.#pollTimer);
    this.#timer = this.#pollTimer = undefined;
    for (const { watcher } of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
    this.#polled.clear();
  }

  /** Runs updates until nothing seen is left to apply. Concurrent calls share one run. */
  #drain(): Promise<void> {
    this.#running ??= (async () => {
      try {
        while (!this.#closed && (this.#full || this.#dirty.size > 0)) await this.#applyOnce();
      } finally {
        this.#running = undefined;
      }
    })();
    return this.#running;
  }

  /** Applies the paths seen so far: a full reload, or an incremental discovery. */
  async #applyOnce(): Promise<void> {
    const full = this.#full;
    const paths = [...this.#dirty];
    this.#full = false;
    this.#dirty.clear();
    const before = this.#catalog;
    try {
      this.#cache.forget(paths);
      if (full) await this.#loadFull(paths);
      else await this.#loadIncremental(paths);
    } catch (error) {
      // The first load's failure is the caller's; a later one keeps the catalog as it was.
      if (before === undefined) throw error;
      this.#log("warn", `catalog update failed: ${errorText(error)}`);
      return;
    }
    if (this.#closed) return this.#stop();
    if (before !== undefined && changed(before.report, this.#catalog!.report)) this.#tell();
  }

  /** Notes each root folder's stamp (before its walk, so a change during the walk shows later). */
  #noteRootStamps(catalog: Pick<Catalog, "roots">): void {
    const before = this.#rootStamps;
    this.#rootStamps = new Map(catalog.roots.map(({ path }) => [path, folderStamp(path)]));
    // A root whose folder changed without an event (none yet, or a missed one) is walked again.
    const moved = [...this.#rootStamps].filter(([path, stamp]) => {
      const known = before.get(path);
      return known !== undefined && known !== stamp;
    });
    this.#cache.forget(moved.map(([path]) => path));
  }

  /**
   * The first load and every full reload: the steps of `loadCatalog`, through the read cache.
   * The folders are followed before the walk, so a change during the walk is seen afterwards.
   */
  async #loadFull(changed: readonly string[]): Promise<void> {
    const config = this.config;
    const log = this.#log;
    const cwd = this.#cwd;
    const project = this.#project ??
      (cwd === undefined ? undefined : await resolveProject(cwd, config.home));
    const projectRoot = project?.root;
    const { sources, untrusted } = await collectSources(config, projectRoot, log);
    const roots = buildRoots(config, { projectRoot, cwd, sources, log });
    const warn = (message: string) => log("warn", message);
    const locked = projectRoot === undefined ? undefined : await readLockedNames(projectRoot, warn);
    if (this.#closed) return;
    this.#roots = roots.map(({ path }) => path);
    this.#followable = new Set(roots.filter(followable).map(({ path }) => path));
    this.#inputs = inputFiles(config, project);
    this.#replan(changed);
    this.#noteRootStamps({ roots });
    const report = await this.#discover(roots, locked);
    this.#noteLinks(report);
    this.#locked = locked;
    this.#catalog = {
      report,
      roots,
      sources,
      ...(project === undefined ? {} : { projectRoot: project.root, project }),
      ...(untrusted ? { untrusted } : {}),
    };
  }

  /** An update that keeps the root list: only forgotten roots are walked again. */
  async #loadIncremental(changed: readonly string[]): Promise<void> {
    const catalog = this.#catalog!;
    this.#replan(changed);
    this.#noteRootStamps(catalog);
    const report = await this.#discover(catalog.roots, this.#locked);
    this.#noteLinks(report);
    this.#catalog = { ...catalog, report };
  }

  /**
   * Notes the skill folders that are links (tools install skills by linking them into each
   * agent's folder) and their real folders: a change there is a change of the skill, and a real
   * folder no root holds is followed as well (watched within the cap, else polled). A skill
   * object's real folder is looked up once.
   */
  #noteLinks(report: DiscoveryReport): void {
    const links = new Map<string, string[]>();
    const realRoot = realPaths();
    // Dropped skills count too: a link left out as the same file as another must not go stale.
    for (const skill of [...report.skills, ...report.dropped.map((d) => d.skill)]) {
      let real = this.#realDirs.get(skill);
      if (real === undefined) {
        real = linkedFolder(skill, realRoot);
        this.#realDirs.set(skill, real);
      }
      if (real === null) continue;
      const folders = links.get(real) ?? [];
      if (!folders.includes(skill.directory)) folders.push(skill.directory);
      links.set(real, folders);
    }
    const before = [...this.#links.keys()].sort().join("\0");
    this.#links = links;
    if ([...links.keys()].sort().join("\0") !== before) this.#replan();
  }

  #discover(roots: Catalog["roots"], locked: LockedNames | undefined): Promise<DiscoveryReport> {
    return discover(roots, {
      locked,
      lenient: this.config.lenient,
      dedupe: this.config.dedupe,
      excludeSkills: this.config.excludeSkills,
      log: this.#log,
      cache: this.#cache,
    });
  }

  #tell(): void {
    const catalog = this.#catalog!;
    for (const listener of this.#listeners) {
      try {
        listener(catalog);
      } catch (error) {
        this.#log("warn", `catalog change listener failed: ${errorText(error)}`);
      }
    }
  }

  /** Takes note of a changed path (from a watcher or a poll) and schedules the update. */
  #seen(path: string): void {
    if (this.#closed) return;
    let relevant = false;
    if (this.#inputs.some((file) => file === path || isBelow(file, path))) {
      this.#full = true;
      relevant = true;
    }
    for (const root of this.#roots) {
      if (!related(path, root)) continue;
      this.#dirty.add(path);
      relevant = true;
      break;
    }
    // A change in the real folder of a linked skill folder is a change of that skill.
    for (const [real, folders] of this.#links) {
      if (path !== real && !isBelow(path, real)) continue;
      for (const folder of folders) this.#dirty.add(folder + path.slice(real.length));
      relevant = true;
    }
    // A watched folder itself (or a folder holding it) changed: its watch is opened again.
    for (const watched of this.#watchers.keys()) {
      if (path === watched || isBelow(watched, path)) this.#stale.add(watched);
    }
    if (!relevant || this.#timer !== undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#drain().catch(() => {});
    }, this.#debounceMs);
  }

  /**
   * Chooses what to follow now (see the module doc): root folders are watched (up to the cap,
   * else polled), the parents of absent roots and of input files are polled for their own
   * entries. `changed` are the paths just applied: polled folders they touch are stamped again.
   */
  #replan(changed: readonly string[] = []): void {
    if (this.#closed) return;
    const roots = this.#roots.filter((path) => isDirectory(path) && this.#followable.has(path));
    // The real folders of linked skill folders are followed too, unless a root holds them.
    const followed = [...roots, ...this.#links.keys()];
    // A folder inside another followed folder is covered by the outer one's recursive watch.
    const deep = [...new Set(followed)].filter((path) =>
      !followed.some((outer) => isBelow(path, outer))
    );
    const parents = [
      ...this.#roots.filter((path) => !isDirectory(path)),
      ...this.#inputs,
    ].map((path) => nearestExisting(dirname(path)));
    const shallow = [...new Set(parents)].filter((path) =>
      !isSystemPath(path) && !deep.some((outer) => path === outer || isBelow(path, outer))
    );
    let budget = this.#mode === "poll" ? 0 : this.#maxWatchers;
    const poll = new Map<string, boolean>();
    const watched = new Set<string>();
    for (const path of deep) {
      const current = this.#watchers.get(path);
      if (budget > 0 && !this.#failed.has(path)) {
        budget--;
        if (current !== undefined && !this.#stale.has(path)) {
          watched.add(path);
          continue;
        }
        current?.watcher.close();
        this.#watchers.delete(path);
        if (this.#open(path)) {
          watched.add(path);
          continue;
        }
      }
      poll.set(path, true);
    }
    for (const path of shallow) poll.set(path, false);
    this.#stale.clear();
    for (const [path, { watcher }] of this.#watchers) {
      if (watched.has(path)) continue;
      watcher.close();
      this.#watchers.delete(path);
    }
    this.#repoll(poll, changed);
  }

  /** Opens a recursive watch on `path`; false (and the folder is polled) when it cannot. */
  #open(path: string): boolean {
    try {
      const real = realpathSync(path);
      const watcher = watch(path, { recursive: true, persistent: false }, (_event, name) => {
        this.#seen(
          name === null || name === undefined ? path : eventPath(path, real, String(name)),
        );
      });
      watcher.on("error", (error) => this.#watchFailed(path, error));
      this.#watchers.set(path, { watcher });
      return true;
    } catch (error) {
      this.#watchFailed(path, error);
      return false;
    }
  }

  /** A watch failed: the folder is polled from now on. */
  #watchFailed(path: string, error: unknown): void {
    if (this.#closed) return;
    const code = (error as { code?: string }).code ?? errorText(error);
    if (!this.#failed.has(path)) {
      const seconds = this.#pollMs / 1000;
      this.#log("info", `cannot watch ${path} (${code}); polling it every ${seconds} s`);
    }
    this.#failed.add(path);
    const current = this.#watchers.get(path);
    if (current !== undefined) {
      current.watcher.close();
      this.#watchers.delete(path);
      const poll = new Map([...this.#polled].map(([p, { recursive }]) => [p, recursive]));
      poll.set(path, true);
      this.#repoll(poll, [path]);
    }
  }

  /** Polls exactly the folders of `poll` (path → recursive), keeping the stamps of known ones. */
  #repoll(poll: Map<string, boolean>, changed: readonly string[]): void {
    const next = new Map<string, Polled>();
    const now = Date.now();
    for (const [path, recursive] of poll) {
      const known = this.#polled.get(path);
      const fresh = known === undefined || known.recursive !== recursive ||
        changed.some((p) => related(p, path));
      next.set(
        path,
        fresh ? { recursive, stamps: treeStamps(path, recursive), due: now } : known,
      );
    }
    this.#polled = next;
    if (next.size === 0 && this.#pollTimer !== undefined) {
      clearInterval(this.#pollTimer);
      this.#pollTimer = undefined;
    }
    if (next.size > 0 && this.#pollTimer === undefined) {
      this.#pollTimer = setInterval(() => this.#pollOnce(), this.#tickMs);
      this.#pollTimer.unref?.();
    }
  }

  /** One round of polling: every changed entry of a polled folder that is due is an event. */
  #pollOnce(): void {
    const now = Date.now();
    for (const [path, entry] of this.#polled) {
      if (entry.due > now) continue;
      entry.due = now + (entry.recursive ? this.#pollMs : this.#tickMs) - this.#tickMs / 2;
      const stamps = treeStamps(path, entry.recursive);
      const changed = changedPaths(entry.stamps, stamps);
      entry.stamps = stamps;
      for (const one of changed) this.#seen(one);
    }
  }
}

/** Whether `after` lists something else than `before`: skills by identity, invalid files. */
function changed(before: DiscoveryReport, after: DiscoveryReport): boolean {
  if (before.skills.length !== after.skills.length) return true;
  if (before.skills.some((skill, i) => skill !== after.skills[i])) return true;
  const invalid = (report: DiscoveryReport) =>
    JSON.stringify(report.invalid.map((file) => [file.path, file.kind, file.reason]));
  return invalid(before) !== invalid(after);
}
