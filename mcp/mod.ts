/**
 * The stdio MCP server (`dsh-skills-anywhere mcp`): one catalog per process,
 * served over `serveStdio` (legacy `initialize` openings and 2026-07-28
 * openings alike), Git sources synced in the background, and a clean exit 0
 * on stdin EOF (also before any message), SIGINT or SIGTERM. stdout carries
 * only MCP; diagnostics go to stderr.
 *
 * @example
 * ```ts
 * import { runStdio } from "./mod.ts";
 * await runStdio({ cwd: "/repo" });
 * ```
 * @module
 */
import process from "node:process";
import { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { findProjectRoot } from "../lib/catalog/config.ts";
import type { Log } from "../lib/catalog/discover.ts";
import { collectSources } from "../lib/sources/collect.ts";
import { syncAll } from "../lib/sources/sync.ts";
import { ServedCatalog } from "./catalog.ts";
import { guardedStdin, PendingRequests, trackedStdout } from "./line_filter.ts";
import {
  createSkillsAnywhereServer,
  mcpConfig,
  type SkillsAnywhereServerOptions,
} from "./server.ts";

export { createSkillsAnywhereServer, mcpConfig, SERVER_INSTRUCTIONS } from "./server.ts";
export type { SkillsAnywhereServer, SkillsAnywhereServerOptions } from "./server.ts";
export { ServedCatalog } from "./catalog.ts";
export { renderSkill } from "../lib/load/render.ts";

/** Syncs every Git source once, in the background; the catalog is rescanned when one changed. */
async function backgroundSync(
  catalog: ServedCatalog,
  cwd: string,
  log: Log,
  signal: AbortSignal,
): Promise<void> {
  const config = catalog.config;
  // Only sources in force: a project file waiting for trust is never synced.
  const { sources } = await collectSources(config, await findProjectRoot(cwd), log);
  if (sources.length === 0 || signal.aborted) return;
  const results = await syncAll(sources, {
    lockFile: config.lockFile,
    timeoutMs: config.syncTimeoutMs,
    log,
    signal,
  });
  if (results.some((r) => r.status === "cloned" || r.status === "updated")) catalog.invalidate();
}

/**
 * Serves the catalog on stdin/stdout until stdin ends or a signal arrives,
 * then closes everything and resolves.
 */
export async function runStdio(options: SkillsAnywhereServerOptions = {}): Promise<void> {
  const log: Log = options.log ?? ((_level, message) => void process.stderr.write(`${message}\n`));
  const cwd = options.cwd ?? process.cwd();
  const config = mcpConfig(options.config);
  const catalog = options.catalog ??
    new ServedCatalog(config, { cwd, log, cacheMs: options.cacheMs });
  const stop = new AbortController();
  const syncing: Promise<void>[] = [];
  const runSync = () => {
    syncing.push(
      backgroundSync(catalog, cwd, log, stop.signal).catch((error) =>
        log("warn", `skills-anywhere: background sync failed: ${(error as Error).message}`)
      ),
    );
  };
  let timer: ReturnType<typeof setInterval> | undefined;
  if (config.sync && config.syncOnStart) runSync();
  if (config.sync && config.syncIntervalMs > 0) {
    timer = setInterval(runSync, config.syncIntervalMs);
    (timer as { unref?: () => void }).unref?.();
  }
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
      onerror: (error) => log("warn", `skills-anywhere: MCP: ${error.message}`),
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
  if (timer !== undefined) clearInterval(timer);
  stop.abort();
  await handle.close().catch(() => {});
  await Promise.allSettled(syncing);
  process.stdin.pause();
}
