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
  const config = await Deno.readTextFile(`${ROOT}deno.json`).catch(() => undefined);
  const targets = Object.values(JSON.parse(config ?? "{}").imports ?? {}) as string[];
  const names = targets.map((target) => /^npm:\/?((?:@[^/]+\/)?[^@/]+)/.exec(target)?.[1]);
  const present = await Promise.all(
    names.map((name) =>
      name !== undefined && Deno.stat(`${ROOT}node_modules/${name}`).then(
        () => true,
        () => false,
      )
    ),
  );
  if (config === undefined || present.includes(false)) {
    await run(Deno.execPath(), ["install", "--quiet"]);
  }
}
