/**
 * The `mcp` command: the composition root loads the MCP server lazily, so no
 * other command pays for the MCP SDK.
 *
 * @example
 * ```ts
 * import { runMcp } from "./mcp.ts";
 * ```
 * @module
 */
import type { OptionValues } from "./args.ts";
import { stderrLog } from "./catalog.ts";
import type { Io } from "./io.ts";

/** Runs the stdio server until stdin ends or SIGINT/SIGTERM; exit 0. */
export async function runMcp(
  _positionals: string[],
  _values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  const { runStdio } = await import("../../mcp/mod.ts");
  await runStdio({ cwd, config: { sync: true, watch: false }, log: stderrLog(io) });
  return 0;
}
