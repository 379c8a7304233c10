/**
 * The roots to scan for a working directory, in precedence order: agents'
 * project directories, extra project directories, agents' user directories,
 * extra user directories, the skill folders of the Claude Code plugins that
 * are installed and enabled (see `plugins.ts`), then Git source checkouts.
 *
 * The project. The project root is the nearest ancestor of the working
 * directory with `.git` (else the working directory). When it is the home
 * folder itself, there is no project: `~/.claude/skills` is the user's folder,
 * never a project's, so working in `$HOME` (or below it, in a home kept under
 * Git) gives user roots only.
 *
 * Nested `.agents/skills`. As Codex does in a monorepo, the shared row's
 * `.agents/skills` is read in every directory from the working directory up
 * to the project root, nearest first: all have the shared project rank, so a
 * name in `packages/app/.agents/skills` wins over the same name at the
 * project root (ties go to the earlier root).
 *
 * The whole project. With the project tree walked (`RootInputs.tree`, see
 * `places.ts`; `lock` and `verify` do), every agent's project folder below
 * the root is a root too, after the root's own project folders, so a lock
 * covers every folder an agent started anywhere in the project would read. A
 * project folder below the root carries its folder in its origin (`dir`), so
 * a skill there is never taken for the root's skill at the same path.
 *
 * Each root that holds what a stranger may have written carries the folder
 * its links may not leave (`confineTo`): the project root for project roots,
 * the plugin's install folder for plugin roots, the checkout
 * (`ResolvedSource.dir`) for Git sources. Discovery applies it (see
 * `discover.ts`).
 *
 * @example
 * ```ts
 * import { buildRoots } from "./_roots.ts";
 * import { resolveConfig } from "./_config.ts";
 * const roots = buildRoots(resolveConfig({}, { HOME: "/home/me" }), { projectRoot: "/repo", sources: [] });
 * ```
 * @module
 */
import { realpathSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { isWithin } from "../fs/mod.ts";
import { type AgentRow, AGENTS } from "./_agents.ts";
import { type ResolvedConfig, SHARED_RANKS } from "./_config.ts";
import type { Origin } from "./_origin.ts";
import { enabledPlugins } from "./_plugins.ts";
import { sourceName } from "../sources/mod.ts";
import type { Log } from "../util.ts";
import type { ProjectTree } from "./_places.ts";
import type { SourceLabel } from "./_types.ts";

/** One directory to scan. */
export interface Root {
  /** The directory scanned. */
  path: string;
  /** `flat`: skills are direct children; `nested`: a bounded depth-first walk. */
  mode: "flat" | "nested";
  /** Where its skills come from, as reported in each skill's `source` field. */
  source: SourceLabel;
  /** Precedence: a lower rank wins a name; ties go to the earlier root. */
  rank: number;
  /** Which agent, plugin or Git source the root belongs to. */
  origin: Origin;
  /** A short name for reports (`doctor`'s roots table). */
  label: string;
  /** Depth limit of a nested walk. */
  maxDepth: number;
  /** The project root, for project-scope roots. */
  project?: string;
  /**
   * The folder no symlink under this root may lead out of (the project, the
   * plugin folder, the Git checkout); unset for the user's own folders. When
   * unset on a project, plugin or source root, discovery uses the tightest
   * default (see `discover.ts`).
   */
  confineTo?: string;
}

/** A Git source checkout to scan (the fields of a resolved source that roots need). */
export interface SourceRoot {
  /** The folder scanned: the checkout, or the source's `path` inside it. */
  scanDir: string;
  /** The checkout `scanDir` lies in: links may not leave it (`scanDir` itself when absent). */
  dir?: string;
  /** The source as the user wrote it (`owner/repo`), shown as its origin. */
  display: string;
  /** The source's ref, when it has one (shown with its name, `owner/repo@ref`). */
  ref?: string;
  /** The source's own rank, when it sets one. */
  rank?: number;
}

/** Inputs of {@linkcode buildRoots}. */
export interface RootInputs {
  /**
   * The project root (nearest `.git` ancestor of the cwd); omit for no
   * project. The home folder is never a project (see the module doc).
   */
  projectRoot?: string;
  /** The working directory, for the nested `.agents/skills` folders below the project root. */
  cwd?: string;
  /** Resolved Git sources. */
  sources: readonly SourceRoot[];
  /** The project tree, walked: its agent folders below the root are roots too (see the module doc). */
  tree?: ProjectTree;
  /**
   * Where warnings about Claude Code's plugin files go.
   *
   * @default nowhere
   */
  log?: Log;
}

/** What every group of roots is built from. */
interface Context {
  config: ResolvedConfig;
  inputs: RootInputs;
  /** The agents in force (configuration's `agents`, `excludeAgents`, `sharedDirs`). */
  agents: readonly AgentRow[];
}

/**
 * The groups of roots, in precedence order: agents' project folders, extra
 * project folders, agents' user folders, extra user folders, Claude Code
 * plugins, Git sources.
 */
const ROOT_GROUPS: readonly ((context: Context) => Root[])[] = [
  ({ config, inputs, agents }) =>
    agents.flatMap((agent) => agentProjectRoots(config, inputs, agent)),
  ({ config, inputs: { projectRoot, tree }, agents }) =>
    projectRoot === undefined || tree === undefined
      ? []
      : tree.places.filter((place) => agents.includes(place.agent)).map((place) =>
        projectDir(projectRoot, join(...place.dir.split("/"), place.folder), {
          rank: place.agent.shared ? SHARED_RANKS.project : config.ranks.project,
          origin: { kind: "agent", agent: place.agent.id, scope: "project", dir: place.dir },
          label: `${place.agent.id} (project: ${place.dir})`,
        })
      ),
  ({ config, inputs: { projectRoot } }) =>
    projectRoot === undefined
      ? []
      : config.extraProjectDirs.map((dir) =>
        projectDir(projectRoot, dir, {
          rank: config.ranks.project,
          origin: { kind: "custom", scope: "project" },
          label: `${dir} (project)`,
        })
      ),
  ({ config, agents }) =>
    agents.flatMap((agent) => [
      ...(agent.user === undefined ? [] : [userDir(join(config.home, agent.user), {
        rank: agent.shared ? SHARED_RANKS.user : config.ranks.user,
        origin: { kind: "agent", agent: agent.id, scope: "user" },
        label: `${agent.id} (user)`,
      })]),
      ...(agent.system === undefined ? [] : [userDir(join(config.home, agent.system), {
        rank: agent.shared ? SHARED_RANKS.user : config.ranks.user,
        origin: { kind: "agent", agent: agent.id, scope: "user" },
        label: `${agent.id} (system)`,
      })]),
    ]),
  ({ config }) =>
    config.extraUserDirs.map((dir) =>
      userDir(dir, {
        rank: config.ranks.user,
        origin: { kind: "custom", scope: "user" },
        label: `${dir} (user)`,
      })
    ),
  ({ config, inputs }) => config.claudePlugins ? pluginRoots(config, inputs) : [],
  ({ config, inputs }) => inputs.sources.map((source) => sourceRoot(config, source)),
];

/**
 * Builds the ordered root list (see the module doc); a path listed twice is
 * scanned once, at its first place.
 */
export function buildRoots(config: ResolvedConfig, inputs: RootInputs): Root[] {
  const agents = agentsInForce(config);
  const projectRoot = inputs.projectRoot;
  const project = projectRoot === undefined || isHome(projectRoot, config.home)
    ? { sources: inputs.sources, log: inputs.log }
    : { ...inputs, projectRoot };
  const seen = new Set<string>();
  return ROOT_GROUPS.flatMap((group) => group({ config, inputs: project, agents })).filter(
    (root) => {
      if (seen.has(root.path)) return false;
      seen.add(root.path);
      return true;
    },
  );
}

/**
 * The agents whose folders are read under `config` (`agents`, `excludeAgents`, `sharedDirs`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentsInForce } from "./_roots.ts";
 * import { resolveConfig } from "./_config.ts";
 * assert.equal(agentsInForce(resolveConfig({ excludeAgents: ["codex"] })).some((a) => a.id === "codex"), false);
 * ```
 */
export function agentsInForce(config: ResolvedConfig): AgentRow[] {
  return config.agents
    ? AGENTS.filter((a) => !config.excludeAgents.includes(a.id) && (!a.shared || config.sharedDirs))
    : [];
}

/**
 * Whether `projectRoot` is the home folder (the same path, or the same real directory): then
 * there is no project (see the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isHome } from "./_roots.ts";
 * assert.equal(isHome("/home/me/", "/home/me"), true);
 * ```
 */
export function isHome(projectRoot: string, home: string): boolean {
  if (resolve(projectRoot) === resolve(home)) return true;
  try {
    return realpathSync(projectRoot) === realpathSync(home);
  } catch {
    return false;
  }
}

/**
 * One agent's project folders; for a row read up from the working directory
 * (`.agents/skills`), one folder per directory from the cwd up to the project
 * root, nearest first.
 */
function agentProjectRoots(config: ResolvedConfig, inputs: RootInputs, agent: AgentRow): Root[] {
  const { projectRoot } = inputs;
  if (projectRoot === undefined) return [];
  const rank = agent.shared ? SHARED_RANKS.project : config.ranks.project;
  const origin = { kind: "agent", agent: agent.id, scope: "project" } as const;
  const label = `${agent.id} (project)`;
  const below = agent.upFromCwd ? cwdToProject(inputs.cwd, projectRoot, config.home) : [];
  return (agent.project ?? []).flatMap((dir) => [
    ...below.map((sub) => {
      const posix = sub.split(sep).join("/");
      return projectDir(projectRoot, join(sub, dir), {
        rank,
        origin: { ...origin, dir: posix },
        label: `${agent.id} (project: ${posix})`,
      });
    }),
    projectDir(projectRoot, dir, { rank, origin, label }),
  ]);
}

/**
 * The directories from `cwd` up to (not including) `projectRoot`, relative to
 * it, nearest first; none when `cwd` is not below the project root. The walk
 * stops at the home folder, which is never a project.
 */
function cwdToProject(cwd: string | undefined, projectRoot: string, home: string): string[] {
  if (cwd === undefined) return [];
  let current = resolve(cwd);
  const dirs: string[] = [];
  while (isWithin(current, projectRoot) && current !== resolve(home)) {
    dirs.push(relative(projectRoot, current));
    current = dirname(current);
  }
  return dirs;
}

/** The fields that tell one flat root from another of the same kind. */
type Labelled = Pick<Root, "rank" | "origin" | "label">;

/** A flat folder below the project: links may not leave the project. */
function projectDir(projectRoot: string, dir: string, fields: Labelled): Root {
  return {
    path: join(projectRoot, dir),
    mode: "flat",
    source: "anywhere-project",
    ...fields,
    maxDepth: 1,
    project: projectRoot,
    confineTo: projectRoot,
  };
}

/** One of the user's own flat folders: no link boundary. */
function userDir(path: string, fields: Labelled): Root {
  return { path, mode: "flat", source: "anywhere-user", ...fields, maxDepth: 1 };
}

/**
 * One root per skill folder of each installed, enabled Claude Code plugin,
 * labelled with its real plugin name; links may not leave its install folder.
 * A skill directory is walked alone (depth 0), a folder of skills one level.
 */
function pluginRoots(config: ResolvedConfig, inputs: RootInputs): Root[] {
  const plugins = enabledPlugins(config.home, { projectRoot: inputs.projectRoot, log: inputs.log });
  return plugins.flatMap(({ plugin, marketplace, installPath, skillPaths }) =>
    skillPaths.map((path): Root => ({
      path,
      confineTo: installPath,
      mode: "nested",
      source: "anywhere-claude-plugins",
      rank: config.ranks.claudePlugins,
      origin: { kind: "claude-plugins", marketplace, plugin },
      label: `claude plugin ${plugin}@${marketplace}`,
      maxDepth: isFile(join(path, "SKILL.md")) ? 0 : 1,
    }))
  );
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A Git source's folder to scan: links may not leave its checkout. */
function sourceRoot(config: ResolvedConfig, source: SourceRoot): Root {
  return {
    path: source.scanDir,
    mode: "nested",
    source: "anywhere-source",
    rank: source.rank ?? config.ranks.sources,
    origin: {
      kind: "source",
      repo: source.display,
      ...(source.ref !== undefined ? { ref: source.ref } : {}),
      ...(source.dir !== undefined ? { checkout: source.dir } : {}),
    },
    label: `source ${sourceName(source)}`,
    maxDepth: config.maxDepth,
    confineTo: source.dir ?? source.scanDir,
  };
}
