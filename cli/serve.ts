/**
 * What the `mcp` command runs, handed over by the composition root. The CLI is a surface and
 * never imports another surface: `main.ts` (and the npm package's bin, for the bundle) registers
 * the MCP server's runners with {@linkcode useMcpRunners}, and the command asks for them with
 * {@linkcode mcpRunners} when it starts. The shapes below are what the command passes; the
 * composition root's assignment checks that the server's functions take them.
 *
 * @example
 * ```ts
 * import { useMcpRunners } from "./serve.ts";
 * useMcpRunners(() => import(new URL("../mcp/mod.ts", import.meta.url).href));
 * ```
 * @module
 */
import type { RawConfig, ResolvedConfig } from "../lib/catalog/mod.ts";
import type { Log } from "../lib/util.ts";

/** What the command passes to either runner. */
export interface McpRunOptions {
  /** The working directory whose project is served. */
  cwd: string;
  /** The catalog settings of the served catalog. */
  config: RawConfig;
  /** Where warnings go. */
  log: Log;
  /** With `--locked`: the project lock every load must match. */
  lockFile?: string;
}

/** What the command passes to the HTTP runner. */
export interface McpHttpRunOptions extends McpRunOptions {
  /** The interface to bind (`undefined`: the runner's default). */
  host?: string;
  /** The port; 0 picks a free one. */
  port: number;
  /** The bearer token every request must carry, when set. */
  token?: string;
  /** Most connections open at once (`undefined`: the runner's default). */
  maxConnections?: number;
  /** Longest wait for a request's headers and body, in milliseconds. */
  requestTimeoutMs?: number;
  /** Called once the endpoint listens. */
  onListening?: (endpoint: { url: string; hostChecked: boolean }) => void;
}

/** The MCP server's runners, as the `mcp` command uses them. */
export interface McpRunners {
  /** The served catalog's settings from the command's (the server's defaults added). */
  mcpConfig(config: RawConfig): ResolvedConfig;
  /** Serves stdio until stdin ends or a signal. */
  runStdio(options: McpRunOptions): Promise<void>;
  /** Serves Streamable HTTP until a signal. */
  runHttp(options: McpHttpRunOptions): Promise<void>;
}

let loader: (() => Promise<McpRunners>) | undefined;

/**
 * Registers how the MCP server's runners load (lazily: only the `mcp` command pays for the MCP
 * SDK). Called by the composition root before `main`.
 *
 * @example
 * ```ts
 * import { useMcpRunners } from "./serve.ts";
 * useMcpRunners(() => import(new URL("../mcp/mod.ts", import.meta.url).href));
 * ```
 */
export function useMcpRunners(load: () => Promise<McpRunners>): void {
  loader = load;
}

/**
 * The registered runners, loaded.
 *
 * @throws {Error} When no composition root registered them (a bug of the entry point).
 */
export async function mcpRunners(): Promise<McpRunners> {
  if (loader === undefined) throw new Error("No MCP server is registered with this command line");
  return await loader();
}
