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
