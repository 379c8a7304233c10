/**
 * One directory listing for every walk: names and entry types, no `stat`.
 *
 * Under Deno the runtime's own listing is used: `node:fs`'s `readdirSync`
 * with file types costs about three times as much there (it builds `Dirent`
 * objects and sorts them), and a walk over a folder of 10,000 skills pays it
 * on every listing. Under Node and Bun it is `readdirSync`. Both report a
 * symlink as a symlink, never as what it leads to. The order is the file
 * system's; callers sort.
 *
 * @example
 * ```ts
 * import { listDirSync } from "./_dir.ts";
 * const names = listDirSync(".").filter((e) => e.isDirectory).map((e) => e.name);
 * ```
 * @module
 */
import { readdirSync } from "node:fs";

/** One entry of a listing (the shape of Deno's `DirEntry`). */
export interface DirEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  /** A symbolic link, whatever it leads to. */
  isSymlink: boolean;
}

/** Deno's listing, when running under Deno. */
const denoReadDir = (globalThis as { Deno?: { readDirSync?: typeof Deno.readDirSync } }).Deno
  ?.readDirSync;

/**
 * The entries of directory `path`, in no particular order. Throws the
 * runtime's error (with a `code` such as `ENOENT`) when it cannot be listed.
 *
 * @example
 * ```ts
 * import { listDirSync } from "./_dir.ts";
 * for (const entry of listDirSync("/tmp")) if (entry.isSymlink) console.log(entry.name);
 * ```
 */
export function listDirSync(path: string): DirEntry[] {
  if (denoReadDir !== undefined) return Array.from(denoReadDir(path));
  return readdirSync(path, { withFileTypes: true }).map((entry) => ({
    name: entry.name,
    isFile: entry.isFile(),
    isDirectory: entry.isDirectory(),
    isSymlink: entry.isSymbolicLink(),
  }));
}
