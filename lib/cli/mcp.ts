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
import { type Io, PREFIX } from "./io.ts";

/** What `mcp` says on stderr when a person starts it in a terminal (an MCP client never sees it). */
const TERMINAL_NOTE = `${PREFIX}serving MCP on stdin and stdout for an MCP client; ` +
  "nothing to type here. Stop it with Ctrl-D (end of input) or Ctrl-C\n";

/**
 * Runs the stdio server until stdin ends or SIGINT/SIGTERM; exit 0. Started with stdin a terminal,
 * it first says on stderr what it is and how to stop it.
 */
export async function runMcp(
  _positionals: string[],
  _values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  if (io.inIsTty) io.err(TERMINAL_NOTE);
  const { runStdio, mcpConfig } = await import("../../mcp/mod.ts");
  const config = { sync: true, watch: false };
  // Said once at start: the project's sources file waits for trust and is never synced.
  const resolved = mcpConfig(config);
  const { untrusted } = await collectSources(resolved, await findProjectRoot(cwd), () => {});
  if (untrusted !== undefined) io.err(untrustedNotice(untrusted, resolved.home));
  await runStdio({ cwd, config, log: stderrLog(io) });
  return 0;
}
