/**
 * The project a working directory belongs to, resolved once: its root (the
 * nearest ancestor holding `.git`, else the folder itself; see
 * {@linkcode findProjectRoot}) and every path derived from the root. A surface
 * makes one {@linkcode Project} where it starts (a CLI command, the MCP
 * server, a dsh request) and passes it down, so no module below asks "which
 * project is this?" again.
 *
 * ```
 * <root>/skills-anywhere.lock.json    the project lock (see ../lock/file.ts)
 * <root>/.dsh/skills-anywhere.json    the project sources file (see ../sources/files.ts)
 * ```
 *
 * The home folder is never a project: a root equal to the home is marked
 * `atHome` (no project folders are scanned there, no project lock is written).
 *
 * @example
 * ```ts
 * import { resolveProject } from "./_project.ts";
 * const project = await resolveProject("/repo/packages/app", "/home/me");
 * project.root; // "/repo" when /repo/.git exists
 * project.lockFile; // "/repo/skills-anywhere.lock.json"
 * ```
 * @module
 */
import { resolve } from "node:path";
import { findProjectRoot } from "./_config.ts";
import { isHome } from "./_roots.ts";
import { projectLockPath } from "../lock/mod.ts";
import { projectSourcesFile } from "../sources/mod.ts";

/** A working directory's project: its root and the files that live there. */
export interface Project {
  /** The working directory the project was resolved from (absolute). */
  cwd: string;
  /** The project root: the nearest ancestor of `cwd` (or `cwd`) holding `.git`, else `cwd`. */
  root: string;
  /** The project lock: `<root>/skills-anywhere.lock.json` (it need not exist). */
  lockFile: string;
  /** The project sources file: `<root>/.dsh/skills-anywhere.json` (it need not exist). */
  sourcesFile: string;
  /** The user's home folder the project was resolved against. */
  home: string;
  /** The root is the home folder, which is not a project (see the module doc). */
  atHome: boolean;
}

/**
 * The project of `root`, seen from `cwd` (default: the root itself), for a user whose home is
 * `home`. Pure: nothing is read; use {@linkcode resolveProject} to find the root.
 *
 * @example
 * ```ts
 * import { projectAt } from "./_project.ts";
 * projectAt("/repo", "/home/me").sourcesFile; // "/repo/.dsh/skills-anywhere.json"
 * projectAt("/home/me", "/home/me").atHome; // true
 * ```
 */
export function projectAt(root: string, home: string, cwd: string = root): Project {
  return {
    cwd: resolve(cwd),
    root,
    lockFile: projectLockPath(root),
    sourcesFile: projectSourcesFile(root),
    home,
    atHome: isHome(root, home),
  };
}

/**
 * Finds the project root of `cwd` ({@linkcode findProjectRoot}) and derives the project's
 * paths from it, for a user whose home is `home`.
 *
 * @example
 * ```ts
 * import { resolveProject } from "./_project.ts";
 * const { root, sourcesFile } = await resolveProject("/repo", "/home/me");
 * ```
 */
export async function resolveProject(cwd: string, home: string): Promise<Project> {
  return projectAt(await findProjectRoot(cwd), home, cwd);
}
