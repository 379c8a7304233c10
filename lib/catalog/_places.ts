/**
 * The project's places: every folder below the project root from which an
 * agent started somewhere inside the project would load skills — an agent's
 * project folder (`.claude/skills`, `.cursor/skills`, the shared
 * `.agents/skills`, …) in any directory of the tree, nested projects (a
 * folder with its own `.git`) included. `lock` and `verify` cover them all,
 * so what a pull request adds in `packages/app/.claude/skills` is reviewed
 * like what it adds at the root.
 *
 * The walk. Breadth first from the project root, names in code-unit order,
 * directories only; nothing is read but listings and one `stat` per
 * candidate agent folder. It is bounded: folders deeper than
 * {@linkcode MAX_PROJECT_TREE_DEPTH} below the root are not listed, and after
 * {@linkcode MAX_PROJECT_TREE_ENTRIES} directory entries the walk stops; each
 * folder left out that way (and each one that cannot be listed) is returned
 * as {@linkcode UncoveredPlace}, so a caller reports it instead of passing it
 * over. It never follows a link: a linked folder inside the project is walked
 * at its real place, one that leads out is not part of the project. It never
 * enters {@linkcode SKIPPED_TREE_DIRS}: version-control internals (`.git`,
 * `.hg`, `.svn`) and installed dependencies (`node_modules`). What lies there
 * is never locked, and so never served under a lock (a skill the lock does
 * not name at its own place is refused).
 *
 * Collisions. Two published skills of two project places that declare the
 * same name ({@linkcode placeCollisions}) are a collision: which one an agent
 * gets depends on where it was started, so it is reported, never settled in
 * silence.
 *
 * @example
 * ```ts
 * import { walkProjectTree } from "./_places.ts";
 * import { AGENTS } from "./_agents.ts";
 * const tree = walkProjectTree("/repo", { agents: AGENTS });
 * for (const place of tree.places) console.log(place.dir, place.folder);
 * ```
 * @module
 */
import { statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { listDirSync } from "../fs/mod.ts";
import { MAX_PROJECT_TREE_DEPTH, MAX_PROJECT_TREE_ENTRIES } from "../limits.ts";
import { compareCodeUnits } from "../util.ts";
import type { PlaceCollision, UncoveredPlace } from "../lock/mod.ts";
import type { AgentRow } from "./_agents.ts";
import type { DiscoveredSkill } from "./_types.ts";

export type { PlaceCollision, UncoveredPlace };

/** Folder names the walk never enters (see the module doc). */
export const SKIPPED_TREE_DIRS: ReadonlySet<string> = new Set([
  ".git",
  ".hg",
  ".svn",
  "node_modules",
]);

/** One agent's project folder found below the project root. */
export interface ProjectPlace {
  /** The folder it sits in, relative to the project root, `/`-separated (never empty). */
  dir: string;
  /** The agent whose project folder it is. */
  agent: AgentRow;
  /** The agent's project folder as the agents table writes it (`.claude/skills`). */
  folder: string;
}

/** What {@linkcode walkProjectTree} found. */
export interface ProjectTree {
  /** The places below the root, by folder (code-unit order), then agents-table order. */
  places: ProjectPlace[];
  /** The folders the walk could not cover (too deep, past the entry limit, unreadable). */
  uncovered: UncoveredPlace[];
}

/** Options of {@linkcode walkProjectTree}. */
export interface TreeOptions {
  /** The agents whose project folders count (those in force). */
  agents: readonly AgentRow[];
  /**
   * Deepest folder listed, the root being 0.
   *
   * @default {MAX_PROJECT_TREE_DEPTH}
   */
  maxDepth?: number;
  /**
   * Most entries listed in all.
   *
   * @default {MAX_PROJECT_TREE_ENTRIES}
   */
  maxEntries?: number;
}

/** A folder waiting to be listed: its path relative to the root (`""` for the root) and depth. */
interface Pending {
  rel: string;
  depth: number;
}

/** The agents' project folders by their first segment (`.claude` → `.claude/skills`). */
function foldersByHead(agents: readonly AgentRow[]): Map<string, [AgentRow, string][]> {
  const byHead = new Map<string, [AgentRow, string][]>();
  for (const agent of agents) {
    for (const folder of agent.project ?? []) {
      const head = folder.split("/")[0];
      byHead.set(head, [...byHead.get(head) ?? [], [agent, folder]]);
    }
  }
  return byHead;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Walks the project tree below `projectRoot` (see the module doc) and returns
 * every agent project folder below the root, and what it could not cover.
 *
 * @example
 * ```ts
 * import { walkProjectTree } from "./_places.ts";
 * import { agentById } from "./_agents.ts";
 * const tree = walkProjectTree("/repo", { agents: [agentById("claude-code")!], maxDepth: 4 });
 * console.log(tree.uncovered.length);
 * ```
 */
export function walkProjectTree(projectRoot: string, options: TreeOptions): ProjectTree {
  const maxDepth = options.maxDepth ?? MAX_PROJECT_TREE_DEPTH;
  const maxEntries = options.maxEntries ?? MAX_PROJECT_TREE_ENTRIES;
  const byHead = foldersByHead(options.agents);
  const places: ProjectPlace[] = [];
  const uncovered: UncoveredPlace[] = [];
  const queue: Pending[] = [{ rel: "", depth: 0 }];
  let entries = 0;
  for (let next = 0; next < queue.length; next++) {
    const { rel, depth } = queue[next];
    const path = rel === "" ? projectRoot : join(projectRoot, ...rel.split("/"));
    let listing;
    try {
      listing = listDirSync(path);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") {
        uncovered.push({ path: rel, reason: "unreadable" });
      }
      continue;
    }
    entries += listing.length;
    if (entries > maxEntries) {
      uncovered.push(
        ...queue.slice(next).map((p) => ({ path: p.rel, reason: "entries" as const })),
      );
      break;
    }
    const names = listing.map((e) => e.name).sort();
    const kinds = new Map(listing.map((e) => [e.name, e]));
    for (const name of names) {
      const entry = kinds.get(name)!;
      const sub = rel === "" ? name : `${rel}/${name}`;
      if (rel !== "" && (entry.isDirectory || entry.isSymlink)) {
        for (const [agent, folder] of byHead.get(name) ?? []) {
          if (isDirectory(join(path, ...folder.split("/")))) {
            places.push({ dir: rel, agent, folder });
          }
        }
      }
      if (!entry.isDirectory || SKIPPED_TREE_DIRS.has(name)) continue;
      if (depth + 1 > maxDepth) uncovered.push({ path: sub, reason: "depth" });
      else queue.push({ rel: sub, depth: depth + 1 });
    }
  }
  const order = new Map(options.agents.map((agent, i) => [agent, i]));
  places.sort((a, b) =>
    compareCodeUnits(a.dir, b.dir) || order.get(a.agent)! - order.get(b.agent)! ||
    compareCodeUnits(a.folder, b.folder)
  );
  return { places, uncovered };
}

/** `path` relative to `root`, `/`-separated. */
function projectRelative(root: string, path: string): string {
  const rel = relative(root, path);
  return sep === "/" ? rel : rel.split(sep).join("/");
}

/**
 * The names two or more project places share among `skills` (the published
 * skills of a catalog): each with every skill that declares it, its
 * published name and its file relative to `projectRoot`, by file. Same-content
 * copies were dropped by dedupe before and are no collision.
 *
 * @example
 * ```ts
 * import { placeCollisions } from "./_places.ts";
 * import type { DiscoveredSkill } from "./_types.ts";
 * function example(skills: DiscoveredSkill[]) {
 *   for (const c of placeCollisions(skills, "/repo")) console.log(c.name, c.places.length);
 * }
 * ```
 */
export function placeCollisions(
  skills: readonly DiscoveredSkill[],
  projectRoot: string,
): PlaceCollision[] {
  const byName = new Map<string, DiscoveredSkill[]>();
  for (const skill of skills) {
    if (skill.source !== "anywhere-project") continue;
    const declared = skill.renamedFrom ?? skill.name;
    byName.set(declared, [...byName.get(declared) ?? [], skill]);
  }
  const collisions: PlaceCollision[] = [];
  for (const [name, members] of byName) {
    if (members.length < 2) continue;
    const places = members
      .map((s) => ({ published: s.name, file: projectRelative(projectRoot, s.path) }))
      .sort((a, b) => compareCodeUnits(a.file, b.file));
    collisions.push({ name, places });
  }
  return collisions.sort((a, b) => compareCodeUnits(a.name, b.name));
}
