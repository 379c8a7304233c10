// One helper for the build scripts (npm/build.ts, npm/binaries.ts, web/build.ts): run a command
// in the repository, its output shown, and stop the build when it fails.

const ROOT = new URL("..", import.meta.url).pathname;

/** Runs `command args` in the repository root; throws when it exits non-zero. */
export async function run(command: string, args: string[]): Promise<void> {
  const { code } = await new Deno.Command(command, {
    args,
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) throw new Error(`${command} ${args.join(" ")} exited ${code}`);
}

/**
 * Installs deno.json's npm packages into node_modules/ (esbuild reads them there) unless every
 * one is already there: a `deno install` relinks node_modules/, which CLI processes running at
 * the same moment (the tests) could find half done.
 */
export async function installPackages(): Promise<void> {
  // A build run from a copy without deno.json has nothing to install from.
  const config = await Deno.readTextFile(`${ROOT}deno.json`).catch(() => undefined);
  if (config === undefined) throw new Error(`${ROOT}deno.json is missing: nothing to install from`);
  const targets = Object.values(JSON.parse(config).imports ?? {}) as string[];
  const names = targets.map((target) => /^npm:\/?((?:@[^/]+\/)?[^@/]+)/.exec(target)?.[1]);
  const present = await Promise.all(
    names.map((name) =>
      name !== undefined && Deno.stat(`${ROOT}node_modules/${name}`).then(
        () => true,
        () => false,
      )
    ),
  );
  if (present.includes(false)) {
    await run(Deno.execPath(), ["install", "--quiet"]);
  }
}
