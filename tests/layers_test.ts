// The layers hold: the core (lib/ except lib/cli/) imports no surface, the modules the browser page
// loads import nothing from `node:`, and no two core packages import each other (directly or through
// a longer cycle). Imports are read from the source text, so the test needs no build.
import { deepEqual } from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT } from "./helpers.ts";

// A static `import`/`export … from` (group 1: `type` when type-only) or a dynamic import.
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(type\s)?[^;]*?\bfrom\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g;

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mts)$/.test(entry.name) && !entry.name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

/**
 * The specifiers a module imports, relative ones resolved to repository paths; type-only imports
 * count as a dependency between packages but load nothing at run time (`loaded`).
 */
function importsOf(file: string, options: { loaded?: boolean } = {}): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const out: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    if (options.loaded && match[1] !== undefined) continue;
    const specifier = match[2] ?? match[3];
    out.push(
      specifier.startsWith(".")
        ? relative(ROOT, resolve(join(ROOT, dirname(file)), specifier))
        : specifier,
    );
  }
  return out;
}

const SURFACES = ["lib/cli/", "mcp/", "dsh/", "web/"];
const isCore = (file: string) => file.startsWith("lib/") && !file.startsWith("lib/cli/");
/** `lib/catalog/walk.ts` → `catalog`; files directly in lib/ are their own package. */
const packageOf = (file: string) => file.split("/").length > 2 ? file.split("/")[1] : file;

Deno.test("layers: the core imports no surface", () => {
  const bad = sourceFiles("lib").filter(isCore).flatMap((file) =>
    importsOf(file)
      .filter((target) => SURFACES.some((surface) => target.startsWith(surface)))
      .map((target) => `${file} → ${target}`)
  );
  deepEqual(bad, []);
});

Deno.test("layers: modules the browser page loads import nothing from node:", () => {
  const seen = new Set<string>();
  const bad: string[] = [];
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const target of importsOf(file, { loaded: true })) {
      if (target.startsWith("node:")) bad.push(`${file} → ${target}`);
      else if (target.endsWith(".ts")) visit(target);
    }
  };
  for (const entry of sourceFiles("web/src")) visit(entry);
  deepEqual(bad, []);
});

Deno.test("layers: no cycle between core packages", () => {
  const edges = new Map<string, Set<string>>();
  for (const file of sourceFiles("lib").filter(isCore)) {
    const from = packageOf(file);
    for (const target of importsOf(file).filter(isCore)) {
      const to = packageOf(target);
      if (to !== from) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  const cycles: string[] = [];
  const path: string[] = [];
  const done = new Set<string>();
  const visit = (node: string) => {
    const at = path.indexOf(node);
    if (at >= 0) return void cycles.push([...path.slice(at), node].join(" → "));
    if (done.has(node)) return;
    path.push(node);
    for (const next of edges.get(node) ?? []) visit(next);
    path.pop();
    done.add(node);
  };
  for (const node of [...edges.keys()].sort()) visit(node);
  deepEqual(cycles, []);
});
