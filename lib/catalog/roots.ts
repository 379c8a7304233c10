/**
 * The roots to scan for a working directory, in precedence order: agents'
 * project directories, extra project directories, agents' user directories,
 * extra user directories, Claude Code plugin marketplaces and cache, then Git
 * source checkouts.
 *
 * Each root that holds what a stranger may have written carries the folder
 * its links may not leave (`confineTo`): the project root for project roots,
 * the scanned folder for plugin roots, the checkout (`ResolvedSource.dir`)
 * for Git sources. Discovery applies it (see `discover.ts`).
 *
 * @example
 * ```ts
 * import { buildRoots } from "./roots.ts";
 * import { resolveConfig } from "./config.ts";
 * const roots = buildRoots(resolveConfig({}, { HOME: "/home/me" }), { projectRoot: "/repo", sources: [] });
 * ```
 * @module
 */
import { basename, join } from "node:path";
import { AGENTS } from "./agents.ts";
import { type ResolvedConfig, SHARED_RANKS } from "./config.ts";
import type { Origin } from "./origin.ts";

/** dsh source labels of the root kinds. */
export type SourceLabel =
  | "anywhere-project"
  | "anywhere-user"
  | "anywhere-claude-plugins"
  | "anywhere-source";

/** One directory to scan. */
export interface Root {
  path: string;
  /** `flat`: skills are direct children; `nested`: a bounded depth-first walk. */
  mode: "flat" | "nested";
  source: SourceLabel;
  rank: number;
  origin: Origin;
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
  scanDir: string;
  /** The checkout `scanDir` lies in: links may not leave it (`scanDir` itself when absent). */
  dir?: string;
  display: string;
  rank?: number;
}

/** Inputs of {@linkcode buildRoots}. */
export interface RootInputs {
  /** The project root (nearest `.git` ancestor of the cwd); omit for no project. */
  projectRoot?: string;
  /** Resolved Git sources. */
  sources: readonly SourceRoot[];
}

/** Builds the ordered root list. */
export function buildRoots(config: ResolvedConfig, inputs: RootInputs): Root[] {
  const roots: Root[] = [];
  const seen = new Set<string>();
  const add = (root: Root) => {
    if (seen.has(root.path)) return;
    seen.add(root.path);
    roots.push(root);
  };
  const agents = config.agents
    ? AGENTS.filter((a) => !config.excludeAgents.includes(a.id) && (!a.shared || config.sharedDirs))
    : [];
  const { projectRoot } = inputs;
  if (projectRoot !== undefined) {
    for (const agent of agents) {
      for (const dir of agent.project ?? []) {
        add({
          path: join(projectRoot, dir),
          mode: "flat",
          source: "anywhere-project",
          rank: agent.shared ? SHARED_RANKS.project : config.ranks.project,
          origin: { kind: "agent", agent: agent.id, scope: "project" },
          label: `${agent.id} (project)`,
          maxDepth: 1,
          project: projectRoot,
          confineTo: projectRoot,
        });
      }
    }
    for (const dir of config.extraProjectDirs) {
      add({
        path: join(projectRoot, dir),
        mode: "flat",
        source: "anywhere-project",
        rank: config.ranks.project,
        origin: { kind: "custom", scope: "project" },
        label: `${dir} (project)`,
        maxDepth: 1,
        project: projectRoot,
        confineTo: projectRoot,
      });
    }
  }
  for (const agent of agents) {
    if (agent.user === undefined) continue;
    add({
      path: join(config.home, agent.user),
      mode: "flat",
      source: "anywhere-user",
      rank: agent.shared ? SHARED_RANKS.user : config.ranks.user,
      origin: { kind: "agent", agent: agent.id, scope: "user" },
      label: `${agent.id} (user)`,
      maxDepth: 1,
    });
  }
  for (const dir of config.extraUserDirs) {
    add({
      path: dir,
      mode: "flat",
      source: "anywhere-user",
      rank: config.ranks.user,
      origin: { kind: "custom", scope: "user" },
      label: `${dir} (user)`,
      maxDepth: 1,
    });
  }
  if (config.claudePlugins) {
    const plugins = join(config.home, ".claude", "plugins");
    for (
      const [dir, label, depth] of [
        ["marketplaces", "claude-code marketplaces", 6],
        ["cache", "claude-code plugin cache", 7],
      ] as const
    ) {
      add({
        path: join(plugins, dir),
        confineTo: join(plugins, dir),
        mode: "nested",
        source: "anywhere-claude-plugins",
        rank: config.ranks.claudePlugins,
        origin: { kind: "claude-plugins" },
        label,
        maxDepth: Math.max(config.maxDepth, depth),
      });
    }
  }
  for (const source of inputs.sources) {
    add({
      path: source.scanDir,
      mode: "nested",
      source: "anywhere-source",
      rank: source.rank ?? config.ranks.sources,
      origin: source.dir === undefined
        ? { kind: "source", repo: source.display }
        : { kind: "source", repo: source.display, checkout: source.dir },
      label: `source ${source.display}`,
      maxDepth: config.maxDepth,
      confineTo: source.dir ?? source.scanDir,
    });
  }
  return roots;
}

/** The prefix a renamed skill from `root` gets when no plugin or repo name is known. */
export function rootBasename(root: Root): string {
  return basename(root.path);
}
