/**
 * The `mcp` command: the composition root loads the MCP server lazily, so no
 * other command pays for the MCP SDK.
 *
 * @example
 * ```ts
 * import { runMcp } from "./mcp.ts";
 * import { processIo } from "./io.ts";
 * await runMcp([], {}, "/repo", processIo()); // serves until stdin closes
 * ```
 * @module
 */
import type { OptionValues } from "./args.ts";
import { findProjectRoot } from "../catalog/config.ts";
import { collectSources } from "../sources/collect.ts";
import { stderrLog, untrustedNotice } from "./catalog.ts";
import type { Io } from "./io.ts";

/** Runs the stdio server until stdin ends or SIGINT/SIGTERM; exit 0. */
export async function runMcp(
  _positionals: string[],
  _values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  const { runStdio, mcpConfig } = await import("../../mcp/mod.ts");
  const config = { sync: true, watch: false };
  // Said once at start: the project's sources file waits for trust and is never synced.
  const resolved = mcpConfig(config);
  const { untrusted } = await collectSources(resolved, await findProjectRoot(cwd), () => {});
  if (untrusted !== undefined) io.err(untrustedNotice(untrusted, resolved.home));
  await runStdio({ cwd, config, log: stderrLog(io) });
  return 0;
}
