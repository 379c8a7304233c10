#!/usr/bin/env -S deno run -A
/**
 * The `dsh-skills-anywhere` command line. Exports {@linkcode main} and runs
 * itself when executed directly.
 *
 * The composition root: the one module that joins two surfaces. The CLI
 * (`cli/`) never imports the MCP server (`mcp/`); this module registers the
 * server's runners for the `mcp` command, loaded by a URL Deno's start-up
 * graph cannot see (so no other command pays for the MCP SDK); the type
 * assertion makes the compiler check that the server's runners take what the
 * command passes.
 *
 * @example
 * ```ts
 * import { main } from "./main.ts";
 * const code = await main(["check", "skills/demo/SKILL.md"]);
 * ```
 * @module
 */
import process from "node:process";
import { main } from "./cli/mod.ts";
import { useMcpRunners } from "./cli/program.ts";

useMcpRunners(() =>
  import(new URL("./mcp/mod.ts", import.meta.url).href) as Promise<typeof import("./mcp/mod.ts")>
);

export { main };

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2));
}
