/**
 * The Git sources in force for a project: configuration first, then the user
 * sources file, then the project sources file — the last only while the user
 * trusts its exact bytes (see `trust.ts`) — resolved and de-duplicated. A
 * project file waiting for trust is returned aside, never synced; a bad entry
 * or file is a warning, never a failure.
 *
 * Relative local paths (`./vendor-skills`) resolve against what names them:
 * the project root's real path for the project file, the dsh home for the
 * user file and for configuration — never the working directory, so a file
 * names the same repository from wherever the tool is started.
 *
 * @example
 * ```ts
 * import { collectSources } from "./_collect.ts";
 * const settings = {
 *   sources: ["anthropics/skills"],
 *   sourcesFiles: true,
 *   dshHome: "/home/me/.dsh",
 *   cacheDir: "/home/me/.dsh/skills-anywhere/cache",
 * };
 * const { sources, untrusted } = await collectSources(
 *   settings,
 *   "/repo",
 *   (_level, message) => console.error(message),
 * );
 * ```
 * @module
 */
import { errorText } from "../errors.ts";
import type { Log } from "../util.ts";
import {
  mergeSources,
  parseSourcesFile,
  projectSourcesFile,
  readConfigBytes,
  readSourcesFile,
  userSourcesFile,
} from "./_files.ts";
import {
  isRelativeLocal,
  type ResolvedSource,
  resolveSource,
  type SourceSpec,
} from "./_resolve.ts";
import { projectKey, projectTrust, type ResolvedEntries } from "./_trust.ts";

/**
 * The settings sources are collected with. The catalog's resolved
 * configuration has them all and is passed as is; they are declared here so
 * this package never imports the catalog (which imports this package).
 */
export interface SourcesConfig {
  /** Sources given in configuration, in force first. */
  sources: readonly (string | SourceSpec)[];
  /** Whether the user and project sources files are read. */
  sourcesFiles: boolean;
  /** The dsh home (user sources file and trust file). */
  dshHome: string;
  /** The checkout cache. */
  cacheDir: string;
}

/** A project sources file that lists sources but is not trusted (or changed since). */
export interface UntrustedProject {
  /** The project root. */
  projectRoot: string;
  /** The project sources file. */
  file: string;
  /** The SHA-256 of its bytes as read. */
  sha256: string;
  /** `untrusted`: never trusted (or revoked); `changed`: trusted once, different now. */
  state: "untrusted" | "changed";
  /** The sources it would add, resolved but not in force (nothing is synced). */
  sources: ResolvedSource[];
}

/** What {@linkcode collectSources} found. */
export interface CollectedSources {
  /** The sources in force: configuration, user file, trusted project file. */
  sources: ResolvedSource[];
  /** The project file waiting for trust, when there is one with sources in it. */
  untrusted?: UntrustedProject;
}

function resolveAll(
  entries: readonly (string | SourceSpec)[],
  cacheDir: string,
  base: string,
  log: Log,
): ResolvedSource[] {
  const resolved: ResolvedSource[] = [];
  for (const entry of entries) {
    try {
      resolved.push(resolveSource(entry, cacheDir, { base }));
    } catch (error) {
      log("warn", errorText(error));
    }
  }
  return resolved;
}

async function fromUserFile(
  path: string,
  config: SourcesConfig,
  log: Log,
): Promise<ResolvedSource[]> {
  try {
    const entries = await readSourcesFile(path, { followSymlinks: true });
    return resolveAll(entries, config.cacheDir, config.dshHome, log);
  } catch (error) {
    log("warn", errorText(error));
    return [];
  }
}

/**
 * The project file's sources, split by trust. The file is read once, bounded,
 * without following a symlink; the hash is of exactly the bytes parsed.
 */
async function fromProjectFile(
  config: SourcesConfig,
  projectRoot: string,
  log: Log,
): Promise<CollectedSources> {
  const file = projectSourcesFile(projectRoot);
  let bytes: Uint8Array | undefined;
  let specs;
  try {
    bytes = await readConfigBytes(file, { root: projectRoot });
    if (bytes === undefined) return { sources: [] };
    specs = parseSourcesFile(bytes, file);
  } catch (error) {
    log("warn", errorText(error));
    return { sources: [] };
  }
  if (specs.length === 0) return { sources: [] };
  // Resolved quietly first: what trust compares; told once only when in force.
  const { sources, resolved } = await resolveProjectEntries(specs, projectRoot, config.cacheDir);
  const trust = await projectTrust(config.dshHome, projectRoot, bytes, resolved);
  if (trust.warning !== undefined) log("warn", trust.warning);
  if (trust.state === "trusted") {
    return {
      sources: (await resolveProjectEntries(specs, projectRoot, config.cacheDir, log)).sources,
    };
  }
  return {
    sources: [],
    untrusted: { projectRoot, file, sha256: trust.sha256, state: trust.state, sources },
  };
}

/**
 * A project sources file's entries resolved against the project root's real
 * path (see the module doc): the sources that can be used (the others told to
 * `log`), and what trust records and compares of them.
 *
 * @example
 * ```ts
 * import { resolveProjectEntries } from "./_collect.ts";
 * const { sources, resolved } = await resolveProjectEntries(["./vendor-skills"], "/repo", "/cache");
 * console.log(sources[0].url, resolved.relative); // "/repo/vendor-skills" true
 * ```
 */
export async function resolveProjectEntries(
  specs: readonly (string | SourceSpec)[],
  projectRoot: string,
  cacheDir: string,
  log: Log = () => {},
): Promise<{ sources: ResolvedSource[]; resolved: ResolvedEntries }> {
  const sources = resolveAll(specs, cacheDir, await projectKey(projectRoot), log);
  return {
    sources,
    resolved: { urls: sources.map((s) => s.url), relative: specs.some(isRelativeLocal) },
  };
}

/**
 * The sources of `projectRoot`'s project file alone, split by trust (none
 * when sources files are off): what a project adds to the sources every
 * project shares.
 *
 * @example
 * ```ts
 * import { collectProjectSources } from "./_collect.ts";
 * const config = { sources: [], sourcesFiles: true, dshHome: "/home/me/.dsh", cacheDir: "/cache" };
 * const { sources, untrusted } = await collectProjectSources(config, "/repo", () => {});
 * ```
 */
export async function collectProjectSources(
  config: SourcesConfig,
  projectRoot: string,
  log: Log,
): Promise<CollectedSources> {
  return config.sourcesFiles ? await fromProjectFile(config, projectRoot, log) : { sources: [] };
}

/**
 * Resolves every configured source for `projectRoot` (no project file when
 * omitted): the sources in force, and the project file waiting for trust.
 *
 * @example
 * ```ts
 * import { collectSources } from "./_collect.ts";
 * const settings = { sources: ["o/r"], sourcesFiles: false, dshHome: "/h/.dsh", cacheDir: "/cache" };
 * const { sources } = await collectSources(settings, undefined, () => {});
 * ```
 */
export async function collectSources(
  config: SourcesConfig,
  projectRoot: string | undefined,
  log: Log,
): Promise<CollectedSources> {
  const lists = [resolveAll(config.sources, config.cacheDir, config.dshHome, log)];
  let untrusted: UntrustedProject | undefined;
  if (config.sourcesFiles) {
    lists.push(await fromUserFile(userSourcesFile(config.dshHome), config, log));
    if (projectRoot !== undefined) {
      const project = await fromProjectFile(config, projectRoot, log);
      lists.push(project.sources);
      untrusted = project.untrusted;
    }
  }
  const sources = mergeSources(...lists);
  return untrusted === undefined ? { sources } : { sources, untrusted };
}
