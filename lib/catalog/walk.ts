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
import { readdir, realpath, stat } from "node:fs/promises";
import { join } from "node:path";

/** A skill file found by a walk. */
export interface FoundFile {
  /** Absolute path of the Markdown file. */
  file: string;
  /** The skill directory (the root itself for flat `<name>.md` files). */
  directory: string;
  /** Directory name, or the file name without `.md`. */
  fallbackName: string;
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

async function isFile(path: string): Promise<boolean> {
  return await stat(path).then((s) => s.isFile(), () => false);
}

async function isDirectory(entry: Dirent, path: string): Promise<boolean> {
  if (entry.isDirectory()) return true;
  if (!entry.isSymbolicLink()) return false;
  return await stat(path).then((s) => s.isDirectory(), () => false);
}

/** The parts of a root a walk needs. */
export interface WalkRoot {
  path: string;
  mode: "flat" | "nested";
  maxDepth: number;
}

/**
 * Lists the skill files under `root`. Throws when the root itself cannot be
 * listed; unreadable subdirectories of a nested walk are skipped.
 */
export async function walkRoot(root: WalkRoot): Promise<FoundFile[]> {
  return root.mode === "flat"
    ? await walkFlat(root.path)
    : await walkNested(root.path, root.maxDepth);
}

async function walkFlat(rootPath: string): Promise<FoundFile[]> {
  const entries = (await readdir(rootPath, { withFileTypes: true })).sort(byName);
  const found: FoundFile[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    const path = join(rootPath, entry.name);
    if (entry.isDirectory() || entry.isSymbolicLink()) {
      const skill = join(path, "SKILL.md");
      if (await isFile(skill)) {
        found.push({ file: skill, directory: path, fallbackName: entry.name });
        continue;
      }
    }
    if (entry.name.endsWith(".md") && !IGNORED_FLAT_FILES.has(entry.name)) {
      if (entry.isFile() || (entry.isSymbolicLink() && await isFile(path))) {
        found.push({ file: path, directory: rootPath, fallbackName: entry.name.slice(0, -3) });
      }
    }
  }
  return found;
}

async function walkNested(rootPath: string, maxDepth: number): Promise<FoundFile[]> {
  const found: FoundFile[] = [];
  const admitted = new Set<string>([await realpath(rootPath)]);
  const visit = async (dir: string, name: string, depth: number, entries: Dirent[]) => {
    const skill = join(dir, "SKILL.md");
    if (entries.some((e) => e.name === "SKILL.md") && await isFile(skill)) {
      found.push({ file: skill, directory: dir, fallbackName: name });
      if (depth > 0) return;
    }
    if (depth >= maxDepth) return;
    for (const entry of entries.sort(byName)) {
      if (SKIPPED_DIRS.has(entry.name)) continue;
      const path = join(dir, entry.name);
      if (!(await isDirectory(entry, path))) continue;
      const real = await realpath(path).catch(() => undefined);
      if (real === undefined || admitted.has(real)) continue;
      admitted.add(real);
      const children = await readdir(path, { withFileTypes: true }).catch(() => undefined);
      if (children !== undefined) await visit(path, entry.name, depth + 1, children);
    }
  };
  const top = rootPath.split(/[\\/]/).filter((s) => s !== "").pop() ?? rootPath;
  await visit(rootPath, top, 0, await readdir(rootPath, { withFileTypes: true }));
  return found;
}
