// The packed npm package, as dsh installs it: `npm/build.ts` run in a private copy of the sources
// it bundles (tests/dist_test.ts rebuilds npm/dist in the repository itself, and under
// `deno test --parallel` the two would race), then `npm pack`. Used by tests/dsh_test.ts (the
// package installed next to dsh's packages) and tests/dsh_boot_test.ts (installed into a real
// dsh profile with `dsh plugin add`).
import { cp, symlink } from "node:fs/promises";
import { join } from "node:path";
import { ROOT, run, type RunResult } from "./helpers.ts";

/** Runs a command in `cwd` with npm's update notice off. */
export function runIn(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<RunResult> {
  return run(command, args, {
    cwd,
    env: { NO_COLOR: "1", npm_config_update_notifier: "false", ...env },
  });
}

/** Runs a command in `cwd`; throws with its output unless it exits 0. */
export async function mustRun(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<RunResult> {
  const result = await runIn(command, args, cwd, env);
  if (result.code !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} exited ${result.code}\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result;
}

/** Builds the npm package in a private copy under `work` and packs it; the tarball's path. */
export async function packPlugin(work: string): Promise<string> {
  const src = join(work, "src");
  await Deno.mkdir(join(src, "npm"), { recursive: true });
  // deno.json and deno.lock too: without them the build's installPackages() would run
  // `deno install` through the node_modules link below and relink the checkout's node_modules
  // while other tests' CLI processes load from it.
  const copied = [
    "lib",
    "cli",
    "dsh",
    "mcp",
    "mod.ts",
    "README.md",
    "LICENSE",
    "deno.json",
    "deno.lock",
  ];
  for (const path of copied) {
    await cp(join(ROOT, path), join(src, path), { recursive: true });
  }
  // Every module of the build (not a list that misses the next one).
  for (const entry of Deno.readDirSync(join(ROOT, "npm"))) {
    if (entry.isFile && entry.name.endsWith(".ts")) {
      await cp(join(ROOT, "npm", entry.name), join(src, "npm", entry.name));
    }
  }
  await symlink(join(ROOT, "node_modules"), join(src, "node_modules"), "dir");
  await mustRun(Deno.execPath(), ["run", "-A", "npm/build.ts"], src);
  const packed = await mustRun(
    "npm",
    ["pack", "--json", "--pack-destination", work],
    join(src, "npm", "dist"),
  );
  return join(work, (JSON.parse(packed.stdout) as { filename: string }[])[0].filename);
}
