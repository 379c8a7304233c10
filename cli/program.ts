/**
 * The program as the shell sees it: the name users type, the exit codes it
 * ends with, and the MCP server's runners the composition root hands over. A
 * leaf module (it imports types only), so every command file can name the
 * program and its outcomes without importing the command table that loads
 * them.
 *
 * The CLI is a surface and never imports another surface: `main.ts` (and the
 * npm package's bin, for the bundle) registers the MCP server's runners with
 * {@linkcode useMcpRunners}, and the `mcp` command asks for them with
 * {@linkcode mcpRunners} when it starts. The shapes are what the command
 * passes; the composition root's assignment makes the compiler check that the
 * server's functions take them.
 *
 * Exit codes: {@linkcode EXIT} is the one table. A command returns a named
 * outcome (`EXIT.ok`, `EXIT.failed`, `EXIT.refused`), never a bare number;
 * `mod.ts` maps each class of thrown error to one of the same outcomes.
 *
 * @example
 * ```ts
 * import { EXIT, PROGRAM } from "./program.ts";
 * console.log(`${PROGRAM} exits ${EXIT.refused} on input it cannot use`);
 * ```
 * @module
 */
import type { RawConfig, ResolvedConfig } from "../lib/catalog/mod.ts";
import type { Log } from "../lib/util.ts";

/** The program's name as users type it. */
export const PROGRAM = "dsh-skills-anywhere";

/**
 * The one table of exit codes, by outcome: 0 success, 1 a checked thing
 * failed (or an unexpected error), 2 bad usage or unusable input.
 *
 * @example
 * ```ts
 * import { EXIT } from "./program.ts";
 * const matches = false;
 * const code = matches ? EXIT.ok : EXIT.failed; // 1
 * ```
 */
export const EXIT = {
  /** Done, and whatever was checked holds. */
  ok: 0,
  /** What was checked does not hold, or nothing was found (a changed bundle, an update available). */
  failed: 1,
  /** The input cannot be used: a refused bundle, signature or lock, a sources file, a remote. */
  refused: 2,
  /** A command-line mistake: an unknown command or option, a missing `--cwd` folder. */
  usage: 2,
  /** An unexpected error (a bug): its stack is printed. */
  bug: 1,
} as const;

/** One exit code of {@linkcode EXIT}. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

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
 * import { useMcpRunners } from "./program.ts";
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
