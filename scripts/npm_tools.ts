// npm packages the tests and the bench drive as real third-party programs (the MCP Inspector's
// CLI, the MCP conformance suite, a Node 22 runtime, the peers openskills and skills-ref),
// installed from the npm registry on first use into a git-ignored cache inside the repository
// (.cache/npm-tools/), one folder per exact version.
// An install goes to a temporary folder renamed into place, so parallel test files never see a
// half-installed tool.
import { join } from "node:path";

const CACHE = join(new URL("..", import.meta.url).pathname, ".cache", "npm-tools");

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** How {@linkcode npmTool} installs. */
export interface NpmToolOptions {
  /**
   * Install with `--legacy-peer-deps`, then add the required peer dependencies still missing (at
   * the range their first dependent asks), round by round until none is. npm 11's own peer
   * resolution takes over half an hour on dsh's 450-package tree; this takes about a minute.
   */
  peersAfter?: boolean;
}

/** Runs `npm install <args>` in `cwd` (no audit, fund, lock or install scripts). */
async function npmInstall(cwd: string, args: readonly string[]): Promise<void> {
  const npm = await new Deno.Command("npm", {
    args: [
      "install",
      "--no-audit",
      "--no-fund",
      "--no-package-lock",
      "--ignore-scripts",
      "--loglevel=error",
      ...args,
    ],
    cwd,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (npm.code !== 0) {
    const stderr = new TextDecoder().decode(npm.stderr);
    throw new Error(`npm install ${args.join(" ")} failed:\n${stderr}`);
  }
}

/** The manifests of the packages directly in `modules` (scoped ones included). */
async function manifests(modules: string): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  const read = async (dir: string) => {
    const text = await Deno.readTextFile(join(dir, "package.json")).catch(() => undefined);
    if (text !== undefined) found.push(JSON.parse(text));
  };
  for await (const entry of Deno.readDir(modules)) {
    if (entry.name.startsWith(".")) continue;
    if (!entry.name.startsWith("@")) await read(join(modules, entry.name));
    else {
      for await (const inner of Deno.readDir(join(modules, entry.name))) {
        await read(join(modules, entry.name, inner.name));
      }
    }
  }
  return found;
}

/** `name@range` of each required peer dependency no package in `modules` provides. */
async function missingPeers(modules: string): Promise<string[]> {
  const all = await manifests(modules);
  const present = new Set(all.map((manifest) => manifest.name));
  const missing = new Map<string, string>();
  for (const manifest of all) {
    const peers = (manifest.peerDependencies ?? {}) as Record<string, string>;
    const meta = (manifest.peerDependenciesMeta ?? {}) as Record<string, { optional?: boolean }>;
    for (const [name, range] of Object.entries(peers)) {
      if (!present.has(name) && !meta[name]?.optional && !missing.has(name)) {
        missing.set(name, range);
      }
    }
  }
  return [...missing].map(([name, range]) => `${name}@${range}`);
}

/**
 * The `node_modules` folder holding `specs` (exact `name@version`s, installed together without
 * running any install script), installed on first use. `probe` is a path inside `node_modules`
 * that proves the install is complete.
 */
export async function npmTool(
  specs: string | readonly string[],
  probe: string,
  options: NpmToolOptions = {},
): Promise<string> {
  const list = typeof specs === "string" ? [specs] : specs;
  const key = [...list, ...(options.peersAfter ? ["peers-after"] : [])].join("+");
  const folder = join(CACHE, key.replace(/[^A-Za-z0-9@._+-]/g, "_"));
  const modules = join(folder, "node_modules");
  if (await exists(join(modules, probe))) return modules;
  await Deno.mkdir(CACHE, { recursive: true });
  const staging = await Deno.makeTempDir({ dir: CACHE, prefix: ".install-" });
  try {
    await Deno.writeTextFile(join(staging, "package.json"), '{"private":true}\n');
    if (!options.peersAfter) await npmInstall(staging, list);
    else {
      await npmInstall(staging, ["--legacy-peer-deps", ...list]);
      for (let round = 0; round < 8; round++) {
        const missing = await missingPeers(join(staging, "node_modules"));
        if (missing.length === 0) break;
        await npmInstall(staging, ["--legacy-peer-deps", ...missing]);
      }
    }
    await Deno.rename(staging, folder).catch(async (error) => {
      // Another test file installed it first: keep theirs.
      if (!(await exists(join(modules, probe)))) throw error;
    });
  } finally {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
  }
  return modules;
}
