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

/**
 * The `node_modules` folder holding `specs` (exact `name@version`s, installed together without
 * running any install script), installed on first use. `probe` is a path inside `node_modules`
 * that proves the install is complete. `overrides` (npm's `overrides` field, exact versions) pins
 * transitive dependencies; it is part of the cache key, so a changed pin installs afresh.
 */
export async function npmTool(
  specs: string | readonly string[],
  probe: string,
  overrides: Readonly<Record<string, string>> = {},
): Promise<string> {
  const list = typeof specs === "string" ? [specs] : specs;
  const pins = Object.entries(overrides).map(([name, version]) => `${name}=${version}`);
  const key = [...list, ...pins].join("+");
  const folder = join(CACHE, key.replace(/[^A-Za-z0-9@._+=-]/g, "_"));
  const modules = join(folder, "node_modules");
  if (await exists(join(modules, probe))) return modules;
  await Deno.mkdir(CACHE, { recursive: true });
  const staging = await Deno.makeTempDir({ dir: CACHE, prefix: ".install-" });
  try {
    const manifest = { private: true, ...(pins.length > 0 ? { overrides } : {}) };
    await Deno.writeTextFile(join(staging, "package.json"), JSON.stringify(manifest) + "\n");
    const npm = await new Deno.Command("npm", {
      args: [
        "install",
        "--no-audit",
        "--no-fund",
        "--no-package-lock",
        "--ignore-scripts",
        "--loglevel=error",
        ...list,
      ],
      cwd: staging,
      stdout: "null",
      stderr: "piped",
    }).output();
    if (npm.code !== 0) {
      const stderr = new TextDecoder().decode(npm.stderr);
      throw new Error(`npm install ${list.join(" ")} failed:\n${stderr}`);
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
