/**
 * Deno's own cache directory, for tools that start Deno child processes with a fake HOME (tests and
 * the benchmark suite): without it, a child would look for (and download into) a cache under the
 * fake home.
 *
 * @module
 */

let denoDir: string | undefined;

/** The running Deno's cache directory (`deno info --json`), asked once and remembered. */
export async function currentDenoDir(): Promise<string> {
  if (denoDir === undefined) {
    const { stdout } = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json"],
      stderr: "null",
    }).output();
    denoDir = JSON.parse(new TextDecoder().decode(stdout)).denoDir as string;
  }
  return denoDir;
}
