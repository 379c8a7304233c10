/**
 * Start-up loads only what a command uses (issue 30, start-up): the real CLI under Deno, its
 * source files as Deno itself reports fetching them (`-L debug`: one `FileFetcher` line per module
 * it reads, dynamic imports included), for `--version`, `--help`, `list` and `show` in a sandbox.
 * Deno prepares every statically named module of a graph before the first line runs, dynamic
 * `import("./x.ts")` included, so this fails whenever a command module is named where Deno can see
 * it from the entry point.
 *
 * @module
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { MAIN, ROOT, run, withSandbox, writeTree } from "./helpers.ts";
import { skill } from "./catalog_cli_helpers.ts";

/** Every module a command table entry loads (cli/commands.ts's `CommandModules`). */
const COMMAND_MODULES = [
  "agents",
  "bundle",
  "check",
  "doctor",
  "list",
  "lock",
  "mcp",
  "outdated",
  "route",
  "search",
  "show",
  "sign",
  "sources",
  "sources_edit",
  "sync",
  "trust",
].map((name) => `cli/${name}.ts`);

/** The repository's files Deno fetched to run `args`, relative to the root, in fetch order. */
async function fetched(
  box: { project: string; env: Record<string, string> },
  ...args: string[]
): Promise<string[]> {
  const result = await run(
    Deno.execPath(),
    ["run", "-A", "-L", "debug", MAIN, ...args],
    { cwd: box.project, env: box.env, clearEnv: true },
  );
  equal(result.code, 0, `${args.join(" ")}: ${result.stderr.slice(-2000)}`);
  const prefix = new URL(".", `file://${ROOT.endsWith("/") ? ROOT : `${ROOT}/`}`).href;
  const files: string[] = [];
  for (const line of result.stderr.split("\n")) {
    const at = line.indexOf("fetch_no_follow - specifier: ");
    if (at < 0) continue;
    const specifier = line.slice(at + "fetch_no_follow - specifier: ".length).trim();
    if (specifier.startsWith(prefix)) files.push(specifier.slice(prefix.length));
  }
  ok(
    files.includes("main.ts"),
    `Deno's log names the files it fetches:\n${result.stderr.slice(0, 500)}`,
  );
  return files;
}

/** Files of `files` below any of `folders`. */
function below(files: readonly string[], ...folders: string[]): string[] {
  return files.filter((file) => folders.some((folder) => file.startsWith(folder)));
}

Deno.test("start-up: --version and --help load the command table and nothing a command uses", async () => {
  await withSandbox(async (box) => {
    for (const args of [["--version"], ["--help"], ["list", "--help"], ["help", "mcp"]]) {
      const files = await fetched(box, ...args);
      deepEqual(
        below(files, "lib/catalog/", "lib/skill/", "lib/load/", "lib/sign/", "mcp/"),
        [],
        args.join(" "),
      );
      deepEqual(files.filter((f) => COMMAND_MODULES.includes(f)), [], args.join(" "));
      ok(files.length <= 12, `${args.join(" ")} fetched ${files.length} files: ${files.join(" ")}`);
    }
  });
});

Deno.test("start-up: list and show load their own module and the catalog, never another command's, MCP or Sigstore", async () => {
  await withSandbox(async (box) => {
    await writeTree(box.home, { ".claude/skills/pdf/SKILL.md": skill("pdf", "Read PDF files.") });
    for (
      const [args, own] of [[["list"], "cli/list.ts"], [
        ["show", "pdf"],
        "cli/show.ts",
      ]] as const
    ) {
      const files = await fetched(box, ...args);
      ok(files.includes(own), `${args[0]} loads ${own}`);
      ok(files.includes("lib/catalog/_discover.ts"), `${args[0]} reads the catalog`);
      deepEqual(files.filter((f) => COMMAND_MODULES.includes(f) && f !== own), [], args[0]);
      deepEqual(below(files, "mcp/", "dsh/", "web/", "lib/sign/"), [], args[0]);
      equal(new Set(files).size, files.length, `${args[0]} fetches each file once`);
    }
  });
});
