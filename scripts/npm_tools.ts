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
 * that proves the install is complete.
 */
export async function npmTool(specs: string | readonly string[], probe: string): Promise<string> {
  const list = typeof specs === "string" ? [specs] : specs;
  const folder = join(CACHE, list.join("+").replace(/[^A-Za-z0-9@._+-]/g, "_"));
  const modules = join(folder, "node_modules");
  if (await exists(join(modules, probe))) return modules;
  await Deno.mkdir(CACHE, { recursive: true });
  const staging = await Deno.makeTempDir({ dir: CACHE, prefix: ".install-" });
  try {
    await Deno.writeTextFile(join(staging, "package.json"), '{"private":true}\n');
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
