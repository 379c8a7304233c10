/**
 * The catalog for a working directory: resolve the project root (or take the
 * {@linkcode Project} the caller resolved, see `project.ts`) and the Git
 * sources (configuration, user file, project file), build the roots and
 * discover. Reads whatever checkouts exist; never runs git or waits for the
 * network. A project's lock, when valid, keeps its locked names (see
 * `precedence.ts`); it is read whether or not the project's sources file is
 * trusted, since it only chooses which skill already found keeps a name.
 *
 * With `wholeProject` (what `lock` and `verify` take), the project tree is
 * walked (see `places.ts`) and every agent's project folder below the root is
 * scanned, whatever the working directory below the root; what the walk could
 * not cover is returned in `uncovered`.
 *
 * @example
 * ```ts
 * import { loadCatalog } from "./_load.ts";
 * import { resolveConfig } from "./_config.ts";
 * import { resolveProject } from "./_project.ts";
 * const config = resolveConfig({ sharedDirs: true });
 * const { report } = await loadCatalog(config, { cwd: "/repo" });
 * // The same, with the project resolved once by the caller and passed down:
 * const project = await resolveProject("/repo", config.home);
 * await loadCatalog(config, { project });
 * ```
 * @module
 */
import type { ResolvedConfig } from "./_config.ts";
import { discover, type DiscoveryReport } from "./_discover.ts";
import { ParseCache } from "./_parse_cache.ts";
import { join } from "node:path";
import { type Log, silentLog } from "../util.ts";
import { agentsInForce, buildRoots, isHome, type Root } from "./_roots.ts";
import { type ProjectTree, type UncoveredPlace, walkProjectTree } from "./_places.ts";
import type { ResolvedSource } from "../sources/mod.ts";
import { collectSources, type UntrustedProject } from "../sources/mod.ts";
import { type LockedNames, readLockedNames } from "../lock/mod.ts";
import { type Project, resolveProject } from "./_project.ts";

export { type Project, projectAt, resolveProject } from "./_project.ts";

/** A discovered catalog and what produced it. */
export interface Catalog {
  /** What discovery found: the published skills, the dropped and the invalid ones. */
  report: DiscoveryReport;
  /** The roots that were scanned, in precedence order. */
  roots: Root[];
  /** The Git sources in force (their checkouts are among the roots). */
  sources: ResolvedSource[];
  /** The project root of `cwd`, when a working directory or a project was given. */
  projectRoot?: string;
  /** The project the catalog was loaded for, when a working directory or a project was given. */
  project?: Project;
  /** The project sources file waiting for trust (its sources are not in `sources`). */
  untrusted?: UntrustedProject;
  /** With `wholeProject`: the parts of the project tree the walk could not cover. */
  uncovered?: UncoveredPlace[];
}

/** Options of {@linkcode loadCatalog}. */
export interface LoadOptions {
  /**
   * Working directory; its project root adds project roots and the project sources file
   * (default: `project.cwd` when a project is given, else none: no project).
   */
  cwd?: string;
  /**
   * The project, when the caller has resolved it (see `project.ts`); default: resolved from
   * `cwd`, when one is given.
   */
  project?: Project;
  /**
   * Where warnings and progress lines go.
   *
   * @default nowhere
   */
  log?: Log;
  /** Stops discovery; the promise then rejects. */
  signal?: AbortSignal;
  /**
   * The project lock's names, when the caller has read the lock.
   *
   * @default read at the root
   */
  locked?: LockedNames;
  /** Called as skill files are read: how many of how many. */
  onProgress?: (done: number, total: number) => void;
  /**
   * Scan every agent's project folder anywhere in the project tree, as from the project root
   * (default `false`: the working directory's folders only; see the module doc).
   *
   * @default {false}
   */
  wholeProject?: boolean;
  /**
   * Keep parses between runs in the configuration's parse cache
   * (`<stateDir>/parse-cache.json`, see `_parse_cache.ts`): an unchanged
   * skill file is then stamped, not read (default `false`: every file is read).
   *
   * @default {false}
   */
  parseCache?: boolean;
}

/** Where {@linkcode loadCatalog} keeps its parse cache: `<stateDir>/parse-cache.json`. */
export function parseCacheFile(config: ResolvedConfig): string {
  return join(config.stateDir, "parse-cache.json");
}

/** Resolves roots and runs discovery with the configuration's parse and precedence settings. */
export async function loadCatalog(
  config: ResolvedConfig,
  options: LoadOptions = {},
): Promise<Catalog> {
  const log: Log = options.log ?? silentLog;
  const project = options.project ??
    (options.cwd === undefined ? undefined : await resolveProject(options.cwd, config.home));
  const projectRoot = project?.root;
  const { sources, untrusted } = await collectSources(config, projectRoot, log);
  const tree = options.wholeProject ? projectTree(config, projectRoot) : undefined;
  // The whole project is scanned as from its root, so the lock is the same from any folder.
  const cwd = tree === undefined ? options.cwd ?? project?.cwd : projectRoot;
  const roots = buildRoots(config, { projectRoot, cwd, sources, log, tree });
  const warn = (message: string) => log("warn", message);
  const locked = options.locked ??
    (projectRoot === undefined ? undefined : await readLockedNames(projectRoot, warn));
  const parsed = options.parseCache === true
    ? ParseCache.load(parseCacheFile(config), { within: config.dshHome })
    : undefined;
  const report = await discover(roots, {
    locked,
    lenient: config.lenient,
    dedupe: config.dedupe,
    excludeSkills: config.excludeSkills,
    signal: options.signal,
    log,
    onProgress: options.onProgress,
    parsed,
  });
  await parsed?.save();
  return {
    report,
    roots,
    sources,
    projectRoot,
    ...(project ? { project } : {}),
    ...(untrusted ? { untrusted } : {}),
    ...(tree ? { uncovered: tree.uncovered } : {}),
  };
}

/** The project tree of `projectRoot`, walked for the agents in force; none without a project. */
function projectTree(config: ResolvedConfig, projectRoot?: string): ProjectTree | undefined {
  if (projectRoot === undefined || isHome(projectRoot, config.home)) return undefined;
  return walkProjectTree(projectRoot, { agents: agentsInForce(config) });
}
