/**
 * The MCP server runners: one catalog per process and Git sources synced in
 * the background, served either over stdio (`runStdio`: legacy `initialize`
 * openings and 2026-07-28 openings alike, a clean exit on stdin EOF, also
 * before any message, SIGINT or SIGTERM; stdout carries only MCP) or over
 * Streamable HTTP (`runHttp`: stateless, on `/mcp`, until SIGINT or SIGTERM).
 * Diagnostics go to stderr.
 *
 * The catalog is live (see `lib/catalog/_live.ts`): it follows its folders from
 * the start, and every change it applies is pushed with no request needed —
 * over stdio to the connected client, over HTTP to every open
 * `subscriptions/listen` stream and every 2025-era `GET /mcp` event stream
 * (see `./http.ts`). A runner loads the catalog before it answers anything,
 * and closes the catalog it made when it stops.
 *
 * @example
 * ```ts
 * import { runStdio } from "./mod.ts";
 * // Type-checked, not run by the doc test: it serves on this process's stdin and stdout.
 * async function serve() {
 *   await runStdio({ cwd: "/repo" });
 * }
 * ```
 * @module
 */
import process from "node:process";
import { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import type { ResolvedConfig } from "../lib/catalog/mod.ts";
import { resolveProject } from "../lib/catalog/mod.ts";
import { LockGate } from "../lib/locked.ts";
import { userLockPath } from "../lib/lock/mod.ts";
import type { Log } from "../lib/util.ts";
import { SyncScheduler } from "../lib/sources/mod.ts";
import { ServedCatalog } from "./catalog.ts";
import { type HttpEndpoint, type HttpOptions, listenHttp } from "./http.ts";
import { guardedStdin, PendingRequests, trackedStdout } from "./line_filter.ts";
import {
  createSkillsAnywhereServer,
  mcpConfig,
  type SkillsAnywhereServerOptions,
  stderrLog,
} from "./server.ts";

export { createSkillsAnywhereServer, mcpConfig, SERVER_INSTRUCTIONS } from "./server.ts";
export type { SkillsAnywhereServer, SkillsAnywhereServerOptions } from "./server.ts";
export { ServedCatalog } from "./catalog.ts";
export type { HttpEndpoint, HttpOptions } from "./http.ts";
export { renderSkill } from "../lib/load/mod.ts";

/** The process's one catalog, under the project lock when `options.lockFile` is set. */
function servedCatalog(
  options: SkillsAnywhereServerOptions,
  config: ResolvedConfig,
  cwd: string,
  log: Log,
): ServedCatalog {
  const lock = options.lockFile === undefined
    ? undefined
    : new LockGate(options.lockFile, { user: userLockPath(config.stateDir) });
  return new ServedCatalog(config, { cwd, log, cacheMs: options.cacheMs, lock });
}

/**
 * Starts the background sync of the Git sources in force for `cwd`'s project
 * (the project root is looked up without delaying the caller).
 */
function startSync(catalog: ServedCatalog, cwd: string, log: Log): SyncScheduler {
  const scheduler = new SyncScheduler(catalog.config, {
    log,
    onChange: () => catalog.invalidate(),
  });
  resolveProject(cwd, catalog.config.home).then((project) => scheduler.start([project.root]));
  return scheduler;
}

/**
 * Serves the catalog on stdin/stdout until stdin ends or a signal arrives,
 * then closes everything and resolves.
 */
export async function runStdio(options: SkillsAnywhereServerOptions = {}): Promise<void> {
  const log = options.log ?? stderrLog;
  const cwd = options.cwd ?? process.cwd();
  const config = mcpConfig(options.config);
  const catalog = options.catalog ?? servedCatalog(options, config, cwd, log);
  // Loaded (and following its folders) before the first answer: a change after a client's
  // opening is always a change to what it could have listed, and is pushed to it.
  await catalog.refresh().catch(() => {});
  const scheduler = startSync(catalog, cwd, log);
  // A client that closes its end of stdout (or stderr) makes writes fail with EPIPE: that is a
  // disconnect, not a crash. Diagnostics are best-effort; a broken stdout ends the session.
  let clientGone: () => void = () => {};
  process.stdout.on("error", () => clientGone());
  process.stderr.on("error", () => {});
  const pending = new PendingRequests();
  const input = guardedStdin(process.stdin, (line) => void process.stdout.write(line), pending);
  const handle = serveStdio(
    () => createSkillsAnywhereServer({ ...options, cwd, log, catalog }).server,
    {
      transport: new StdioServerTransport(input, trackedStdout(process.stdout, pending)),
      onerror: (error) => log("warn", `MCP: ${error.message}`),
    },
  );
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    clientGone = done;
    if (process.stdin.readableEnded) return done();
    input.once("end", done);
    input.once("close", done);
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
  });
  // Whatever is still pending will not be answered now; the end of input need not wait for it.
  pending.abandon();
  const stopped = scheduler.stop();
  await handle.close().catch(() => {});
  await stopped;
  if (options.catalog === undefined) await catalog.close();
  process.stdin.pause();
}

/** Options of {@linkcode runHttp}: the server's, the endpoint's, and who hears where it listens. */
export interface HttpServeOptions extends SkillsAnywhereServerOptions, HttpOptions {
  /** Called once the endpoint listens (its URL carries the bound port). */
  onListening?: (endpoint: HttpEndpoint) => void;
}

/** Resolves on the first SIGINT or SIGTERM. */
function signalled(): Promise<void> {
  return new Promise((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
}

/**
 * Serves the catalog over Streamable HTTP (see `./http.ts`) until SIGINT or
 * SIGTERM, then closes everything and resolves. Rejects with a `listen`
 * failure when the address cannot be bound.
 *
 * @example
 * ```ts
 * import { runHttp } from "./mod.ts";
 * // Type-checked, not run by the doc test: it serves until SIGINT or SIGTERM.
 * async function serve() {
 *   await runHttp({ cwd: "/repo", port: 0, onListening: (e) => console.error(e.url) });
 * }
 * ```
 */
export async function runHttp(options: HttpServeOptions): Promise<void> {
  const log = options.log ?? stderrLog;
  const cwd = options.cwd ?? process.cwd();
  const config = mcpConfig(options.config);
  const catalog = options.catalog ?? servedCatalog(options, config, cwd, log);
  const stop = signalled();
  // Loaded and following its folders before it listens (see runStdio).
  await catalog.refresh().catch(() => {});
  const endpoint = await listenHttp(
    // A remote client is never given this machine's paths (skill:// URIs instead).
    () => createSkillsAnywhereServer({ ...options, cwd, log, catalog, remote: true }).server,
    { ...options, onerror: (error) => log("warn", `MCP: ${error.message}`) },
  ).catch(async (error) => {
    // The address could not be bound: nothing may keep following the folders.
    if (options.catalog === undefined) await catalog.close();
    throw error;
  });
  // Every change the live catalog applies reaches HTTP clients through the endpoint's notifier.
  const unsubscribe = catalog.onChange(() => endpoint.resourcesChanged());
  const scheduler = startSync(catalog, cwd, log);
  options.onListening?.(endpoint);
  await stop;
  unsubscribe();
  const stopped = scheduler.stop();
  await endpoint.close();
  await stopped;
  if (options.catalog === undefined) await catalog.close();
}
