// `deno task test:doc` (part of `deno task test`): runs every JSDoc example of the shipped modules
// as a test (`deno test --doc`), so a result an example asserts cannot go stale. The examples run
// with a fresh temporary folder as HOME, DSH_HOME and TMPDIR, and may write only there: an example
// that would write into the reader's home, the checkout or any other absolute path fails instead
// of writing. An example that needs a network, a server or a browser page is written as a
// function that is never called ("Type-checked, not run by the doc test: <reason>"), so it is
// still type-checked but not run.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { currentDenoDir } from "./deno_dir.ts";

/** The shipped modules whose examples run (the same list `deno task check` type-checks). */
const TARGETS = ["lib/", "cli/", "mcp/", "dsh/", "web/src/", "main.ts", "mod.ts"];

const ROOT = new URL("..", import.meta.url).pathname;
// Asked before HOME changes: under the fresh HOME, Deno would look for (and fill) a cache there.
const denoDir = await currentDenoDir();
const sandbox = realpathSync(mkdtempSync(join(tmpdir(), "doc-test-")));
try {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "test",
      "--config",
      "deno.dev.json",
      "--doc",
      "--allow-read",
      "--allow-env",
      "--allow-sys",
      "--allow-run",
      "--allow-net=127.0.0.1",
      `--allow-write=${sandbox}`,
      ...process.argv.slice(2),
      ...TARGETS,
    ],
    cwd: ROOT,
    env: {
      HOME: sandbox,
      DSH_HOME: join(sandbox, ".dsh"),
      TMPDIR: sandbox,
      DENO_DIR: denoDir,
      NO_COLOR: "1",
    },
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  });
  const { code } = await child.spawn().status.then(
    (result) => result,
    (error) => {
      console.error(`doc test: ${error instanceof Error ? error.message : String(error)}`);
      return { code: 1 };
    },
  );
  process.exitCode = code;
} finally {
  rmSync(sandbox, { recursive: true, force: true });
}
