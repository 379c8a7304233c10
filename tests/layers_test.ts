// The layers hold (docs/ARCHITECTURE.md): the core (lib/) imports no surface and no surface
// (cli/, mcp/, dsh/, web/) imports another; everything outside a core package reaches it through
// its face (`mod.ts`, or `portable.ts` for the node-free part the browser loads), whose internal
// files (`_name.ts`) only the package itself and the tests open; no module imports itself again
// through a circle; the modules the browser page loads import nothing from `node:`; the root
// mod.ts is the sum of the faces; and no string in the core names a product prefix, a CLI flag or
// an MCP tool (each surface adds its own words). Sources are read as text: no build needed.
import { deepEqual } from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT } from "./helpers.ts";
import { cyclesOf, sourceFiles as anySourceFiles } from "./source_helpers.ts";

/** The TypeScript modules below `dir`. */
const sourceFiles = (dir: string) => anySourceFiles(dir, /\.(ts|mts)$/);

// A static `import`/`export … from` (group 1: `type` when type-only) or a dynamic import.
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s+(type\s)?[^;]*?\bfrom\s+"([^"]+)"|import\(\s*"([^"]+)"\s*\)/g;

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

const SURFACES = ["cli/", "mcp/", "dsh/", "web/"];
const isCore = (file: string) => file.startsWith("lib/");
const surfaceOf = (file: string) => SURFACES.find((surface) => file.startsWith(surface));
/** Every module of the house: the core, the surfaces, the roots, the build and bench scripts. */
const HOUSE = ["lib", "cli", "mcp", "dsh", "web", "npm", "scripts", "bench"]
  .flatMap((dir) => sourceFiles(dir))
  .concat("main.ts", "mod.ts");
/** The core's package folders (`lib/<pkg>/`); files directly in lib/ are single-module packages. */
const PACKAGES = readdirSync(join(ROOT, "lib"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort();
/** A package's faces: its `mod.ts`, and `portable.ts` where the browser needs a node-free part. */
const FACES = /^lib\/[a-z_]+\/(?:mod|portable)\.ts$/;
/** `lib/catalog/_walk.ts` → `lib/catalog/`; a file directly in lib/ is a package of its own. */
const folderOf = (file: string) =>
  file.split("/").length > 2 ? file.split("/").slice(0, 2).join("/") + "/" : file;
/** `lib/catalog/_walk.ts` → `catalog`; files directly in lib/ are their own package. */
const packageOf = (file: string) => file.split("/").length > 2 ? file.split("/")[1] : file;

Deno.test("layers: the core imports no surface", () => {
  const bad = sourceFiles("lib").filter(isCore).flatMap((file) =>
    importsOf(file)
      .filter((target) => SURFACES.some((surface) => target.startsWith(surface)))
      .map((target) => `${file} → ${target}`)
  );
  deepEqual(bad, []);
});

Deno.test("layers: no surface imports another surface", () => {
  const bad = SURFACES.flatMap((surface) => sourceFiles(surface)).flatMap((file) =>
    importsOf(file)
      .filter((target) => surfaceOf(target) !== undefined && surfaceOf(target) !== surfaceOf(file))
      .map((target) => `${file} → ${target}`)
  );
  deepEqual(bad, []);
});

Deno.test("layers: every core package has one face, and its other files are marked internal", () => {
  deepEqual(PACKAGES.includes("catalog") && PACKAGES.includes("check"), true);
  const bad: string[] = [];
  for (const pkg of PACKAGES) {
    const files = readdirSync(join(ROOT, "lib", pkg));
    if (!files.includes("mod.ts")) bad.push(`lib/${pkg}/ has no mod.ts`);
    for (const name of files) {
      if (!/^_[a-z0-9_]+\.ts$/.test(name) && name !== "mod.ts" && name !== "portable.ts") {
        bad.push(`lib/${pkg}/${name} is neither a face nor an internal _file.ts`);
      }
    }
  }
  deepEqual(bad, []);
});

Deno.test("layers: outside a package, only its faces are imported (the tests excepted)", () => {
  const bad = HOUSE.flatMap((file) =>
    importsOf(file)
      .filter((target) => isCore(target) && target.split("/").length > 2)
      .filter((target) => folderOf(target) !== folderOf(file) && !FACES.test(target))
      .map((target) => `${file} → ${target}`)
  );
  deepEqual(bad, []);
});

Deno.test("layers: no import circles anywhere in the house", () => {
  const edges = new Map<string, string[]>();
  for (const file of HOUSE) edges.set(file, importsOf(file).filter((t) => t.endsWith(".ts")));
  deepEqual(cyclesOf([...edges.keys()].sort(), (node) => edges.get(node) ?? []), []);
});

Deno.test("layers: the root mod.ts is the sum of the faces", () => {
  const faces = PACKAGES.map((pkg) => `lib/${pkg}/mod.ts`)
    .concat(readdirSync(join(ROOT, "lib")).filter((n) => n.endsWith(".ts")).map((n) => `lib/${n}`))
    // Loaded on demand only (its libraries cost every importer): imported on its own.
    .filter((face) => face !== "lib/sigstore.ts")
    .sort();
  const text = readFileSync(join(ROOT, "mod.ts"), "utf8");
  const summed = [...text.matchAll(/^export \* from "\.\/([^"]+)";$/gm)].map((m) => m[1]).sort();
  deepEqual(summed, faces);
  deepEqual(importsOf("mod.ts").sort(), faces);
});

/** The `node:` imports the modules `entries` load at run time, directly or through others. */
function nodeImportsLoaded(entries: readonly string[]): string[] {
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
  for (const entry of entries) visit(entry);
  return bad;
}

Deno.test("layers: the portable faces load nothing from node:", () => {
  const portable = PACKAGES.map((pkg) => `lib/${pkg}/portable.ts`)
    .filter((file) => HOUSE.includes(file));
  deepEqual(portable.length > 0, true);
  deepEqual(nodeImportsLoaded(portable), []);
});

Deno.test("layers: modules the browser page loads import nothing from node:", () => {
  deepEqual(nodeImportsLoaded([...sourceFiles("web/src"), ...sourceFiles("dsh/client")]), []);
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
  deepEqual(cyclesOf([...edges.keys()].sort(), (node) => edges.get(node) ?? []), []);
});

/**
 * The string literals of a module (double- and single-quoted strings and template literals, with
 * `${…}` parts left in), comments removed first. A regular-expression literal holding a quote can
 * confuse it, which only makes the test stricter.
 */
function stringLiterals(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const out: string[] = [];
  const token =
    /\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`/g;
  for (const [match] of text.matchAll(token)) {
    if (!match.startsWith("/")) out.push(match);
  }
  return out;
}

/** The options the CLI knows (`--json`, `--resources`, …), read from its one option table. */
function cliFlags(): string[] {
  const text = readFileSync(join(ROOT, "cli/args.ts"), "utf8");
  const table = text.slice(text.indexOf("const OPTIONS"), text.indexOf("} as const"));
  return [...table.matchAll(/^\s+"?([a-z][a-z-]*)"?: \{/gm)].map((m) => `--${m[1]}`);
}

/** The tool names the MCP server and the dsh plugin register. */
function toolNames(): string[] {
  const names = new Set<string>();
  for (const file of ["mcp/server.ts", "dsh/tools.ts"]) {
    const text = readFileSync(join(ROOT, file), "utf8");
    for (const m of text.matchAll(/registerTool\(\s*"([a-z_]+)"|\bname: "([a-z]+_[a-z_]+)"/g)) {
      names.add(m[1] ?? m[2]);
    }
  }
  return [...names].sort();
}

/** A literal that is one command-line argument (`"--version"` for git), not words naming a flag. */
const ARGUMENT = /^--[a-z-]+(?:=\S*)?$/;

Deno.test("layers: the core's strings name no product prefix, CLI flag or MCP tool", () => {
  const flags = cliFlags();
  const tools = toolNames();
  deepEqual(flags.includes("--resources") && tools.includes("find_skills"), true);
  const flag = new RegExp(`(?:${flags.join("|")})(?![a-z-])`);
  const tool = new RegExp(`\\b(?:${tools.join("|")})\\b`);
  const bad: string[] = [];
  for (const file of sourceFiles("lib").filter(isCore)) {
    for (const literal of stringLiterals(file)) {
      const words = literal.slice(1, -1);
      const why = words.includes("skills-anywhere: ")
        ? "a product prefix"
        : flag.test(words) && !ARGUMENT.test(words)
        ? "a CLI flag"
        : tool.test(words)
        ? "an MCP tool"
        : undefined;
      if (why !== undefined) bad.push(`${file}: ${why} in ${literal.slice(0, 80)}`);
    }
  }
  deepEqual(bad, [], bad.join("\n"));
});
