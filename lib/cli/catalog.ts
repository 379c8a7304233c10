/**
 * What the catalog commands share: configuration for the CLI (defaults, shared
 * `.agents` directories on, no watching, no background sync), discovery with
 * warnings and TTY-only progress on stderr.
 *
 * @example
 * ```ts
 * import { cliCatalog } from "./catalog.ts";
 * import type { Io } from "./io.ts";
 * declare const io: Io;
 * const { report } = await cliCatalog("/repo", io);
 * ```
 * @module
 */
import process from "node:process";
import { type Catalog, loadCatalog } from "../catalog/mod.ts";
import { resolveConfig, type ResolvedConfig } from "../catalog/config.ts";
import type { Log } from "../catalog/discover.ts";
import { escapeTerminal } from "./escape.ts";
import type { Io } from "./io.ts";

/** The configuration every CLI command uses (REF: defaults only, env HOME / DSH_HOME). */
export function cliConfig(overrides: { sharedDirs?: boolean } = {}): ResolvedConfig {
  return resolveConfig({ sharedDirs: true, watch: false, sync: false, ...overrides }, process.env);
}

/**
 * A log that writes warnings, escaped, to stderr; progress lines (a source cloned or updated)
 * too when stderr is a terminal, never in logs.
 */
export function stderrLog(io: Io): Log {
  return (level, message) => {
    if (level === "warn" || io.errIsTty) io.err(`${escapeTerminal(message)}\n`);
  };
}

/** Discovers the catalog for `cwd`, with progress on stderr only when it is a terminal. */
export async function cliCatalog(
  cwd: string,
  io: Io,
  config: ResolvedConfig = cliConfig(),
): Promise<Catalog> {
  let last = 0;
  const onProgress = io.errIsTty
    ? (done: number, total: number) => {
      if (done === total || done - last >= 200) {
        last = done;
        io.err(`\rreading skills: ${done}/${total}\u001b[K`);
      }
    }
    : undefined;
  const catalog = await loadCatalog(config, { cwd, log: stderrLog(io), onProgress });
  if (io.errIsTty && last > 0) io.err("\r\u001b[K");
  return catalog;
}
