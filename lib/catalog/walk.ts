/**
 * Finding skill files under a root. A flat root holds `<name>/SKILL.md`
 * directories and `<name>.md` files directly; a nested root (Git sources,
 * plugin marketplaces) is walked depth first with a depth limit, where a
 * directory with a `SKILL.md` is a skill and (below the root) a leaf.
 * Nothing is read here except directory listings and `stat`s.
 *
 * @example
 * ```ts
 * import { walkRoot } from "./walk.ts";
 * const found = await walkRoot({ path: "/home/me/.claude/skills", mode: "flat", maxDepth: 1 });
 * ```
 * @module
 */
import type { Dirent } from "node:fs";
import { readdirSync, realpathSync, statSync } from "node:fs";
import { join, sep } from "node:path";

/** A skill file found by a walk. */
export interface FoundFile {
  /** Absolute path of the Markdown file. */
  file: string;
  /** The skill directory (the root itself for flat `<name>.md` files). */
  directory: string;
  /** Directory name, or the file name without `.md`. */
  fallbackName: string;
  /**
   * Set when the walk did not check that `file` exists (a flat root's
   * `<entry>/SKILL.md`): the reader treats "no such file" as "not a skill".
   */
  unverified?: true;
}

/** Flat-root Markdown files that are never skills. */
export const IGNORED_FLAT_FILES: ReadonlySet<string> = new Set([
  "README.md",
  "README.zh.md",
  "AGENTS.md",
  "CLAUDE.md",
  "GEMINI.md",
  "LICENSE.md",
  "CHANGELOG.md",
  "CONTRIBUTING.md",
]);

/** Directory names a nested walk never enters. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set([
  ".git",
  "node_modules",
  ".hg",
  ".svn",
  "__pycache__",
  ".venv",
  "venv",
  "dist",
  "build",
]);

/** Plain code-unit order, so walks are the same on every machine and locale. */
function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function statKind(path: string): "file" | "directory" | "other" | undefined {
  try {
    const info = statSync(path);
    return info.isFile() ? "file" : info.isDirectory() ? "directory" : "other";
  } catch {
    return undefined;
  }
}

/** The parts of a root a walk needs. */
export interface WalkRoot {
  path: string;
  mode: "flat" | "nested";
  maxDepth: number;
  /**
   * Never leave the root through a symlink (Git sources: a repository must not
   * reach into the rest of the disk). Links that stay inside are followed.
   */
  confine?: boolean;
}

/**
 * Lists the skill files under `root`. Throws when the root itself cannot be
 * listed; unreadable subdirectories of a nested walk are skipped. Synchronous
 * system calls only: a walk over thousands of entries costs no event-loop
 * round trips.
 */
export function walkRoot(root: WalkRoot): FoundFile[] {
  return root.mode === "flat"
    ? walkFlat(root.path)
    : walkNested(root.path, root.maxDepth, root.confine ?? false);
}

function walkFlat(rootPath: string): FoundFile[] {
  const entries = readdirSync(rootPath, { withFileTypes: true }).sort(byName);
  const found: FoundFile[] = [];
  const prefix = rootPath.endsWith(sep) ? rootPath : rootPath + sep;
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    const path = prefix + entry.name; // an entry name never holds a separator

    let kind: ReturnType<typeof statKind> = entry.isDirectory()
      ? "directory"
      : entry.isFile()
      ? "file"
      : "other";
    if (entry.isSymbolicLink()) kind = statKind(path);
    if (kind === "directory") {
      // Whether SKILL.md exists is settled by the read itself (one open instead of stat + open).
      found.push({
        file: path + sep + "SKILL.md",
        directory: path,
        fallbackName: entry.name,
        unverified: true,
      });
    } else if (
      kind === "file" && entry.name.endsWith(".md") && !IGNORED_FLAT_FILES.has(entry.name)
    ) {
      found.push({ file: path, directory: rootPath, fallbackName: entry.name.slice(0, -3) });
    }
  }
  return found;
}

function walkNested(rootPath: string, maxDepth: number, confine: boolean): FoundFile[] {
  const found: FoundFile[] = [];
  const realRoot = realpathSync(rootPath);
  const admitted = new Set<string>([realRoot]);
  const inside = (path: string): boolean => {
    if (!confine) return true;
    try {
      const real = realpathSync(path);
      return real === realRoot ||
        real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
    } catch {
      return false;
    }
  };
  const visit = (dir: string, name: string, depth: number, entries: Dirent[]) => {
    const marker = entries.find((e) => e.name === "SKILL.md");
    const skill = join(dir, "SKILL.md");
    const linkOk = (path: string) => statKind(path) === "file" && inside(path);
    if (marker && (marker.isFile() || (marker.isSymbolicLink() && linkOk(skill)))) {
      found.push({ file: skill, directory: dir, fallbackName: name });
      if (depth > 0) return;
    }
    if (depth >= maxDepth) return;
    for (const entry of entries.sort(byName)) {
      if (SKIPPED_DIRS.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (!entry.isDirectory() && !(entry.isSymbolicLink() && statKind(path) === "directory")) {
        continue;
      }
      let real: string;
      let children: Dirent[];
      try {
        real = realpathSync(path);
        if (admitted.has(real) || (entry.isSymbolicLink() && !inside(path))) continue;
        admitted.add(real);
        children = readdirSync(path, { withFileTypes: true });
      } catch {
        continue;
      }
      visit(path, entry.name, depth + 1, children);
    }
  };
  const top = rootPath.split(/[\\/]/).filter((s) => s !== "").pop() ?? rootPath;
  visit(rootPath, top, 0, readdirSync(rootPath, { withFileTypes: true }));
  return found;
}
