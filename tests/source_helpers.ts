/**
 * Reading the repository's own sources as text, for the tests that hold its rules (the layers,
 * the CLI's seams, the one writer, the message style): the source files below a folder, and the
 * circles of an import graph. Nothing is built or run.
 *
 * @module
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./helpers.ts";

/** The source files below `dir` (relative to the repository), by `pattern`; `.d.ts` left out. */
export function sourceFiles(dir: string, pattern: RegExp = /\.(ts|mts|js|mjs)$/): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path, pattern));
    else if (pattern.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/**
 * Every circle of a graph found by a depth-first walk from each node in `nodes` (in order), each
 * written `a → b → a`; `[]` when there is none.
 */
export function cyclesOf(
  nodes: Iterable<string>,
  next: (node: string) => Iterable<string>,
): string[] {
  const cycles: string[] = [];
  const path: string[] = [];
  const done = new Set<string>();
  const visit = (node: string) => {
    const at = path.indexOf(node);
    if (at >= 0) return void cycles.push([...path.slice(at), node].join(" → "));
    if (done.has(node)) return;
    path.push(node);
    for (const after of next(node)) visit(after);
    path.pop();
    done.add(node);
  };
  for (const node of nodes) visit(node);
  return cycles;
}
