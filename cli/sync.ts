/**
 * The `sync` command: fetch every Git source now, or with `--frozen` check
 * out exactly the commits of the project's lock (all or nothing), and the
 * result table `add` shares. `outdated` (in `outdated.ts`) reads the same
 * sources and lock ({@linkcode sourcesAndLock}).
 *
 * @example
 * ```ts
 * import { runSync } from "./sync.ts";
 * import { processIo } from "./io.ts";
 * const code = await runSync([], { json: true }, "/repo", processIo());
 * ```
 * @module
 */
import type { ResolvedConfig } from "../lib/catalog/mod.ts";
import { userLockPath } from "../lib/lock/mod.ts";
import type { LockSource, ProjectLock } from "../lib/lock/mod.ts";
import { collectProjectSources } from "../lib/sources/mod.ts";
import { syncFrozen } from "../lib/sources/mod.ts";
import type { ResolvedSource } from "../lib/sources/mod.ts";
import { syncAll, type SyncResult } from "../lib/sources/mod.ts";
import { counted } from "../lib/text.ts";
import { type OptionValues, UsageError } from "./args.ts";
import { stderrLog, stderrWarn, untrustedNotice } from "./catalog.ts";
import { jsonText } from "./escape.ts";
import { type Io, tableWidth } from "./io.ts";
import { lockOrRefuse, readProjectLockOrRefuse } from "./lock.ts";
import { EXIT, PROGRAM } from "./program.ts";
import { sourcesFor } from "./sources.ts";
import { formatTable, tildePath } from "./table.ts";

/**
 * The sources in force and the project's lock (undefined when it has none; invalid: exit 2).
 *
 * @example
 * ```ts
 * import { sourcesAndLock } from "./sync.ts";
 * import { processIo } from "./io.ts";
 * const { sources, lock } = await sourcesAndLock("/repo", processIo());
 * ```
 */
export async function sourcesAndLock(cwd: string, io: Io) {
  const listing = await sourcesFor(cwd, io);
  const { config, project, untrusted } = listing;
  if (untrusted !== undefined) io.err(untrustedNotice(untrusted, config.home));
  const file = project.lockFile;
  const shown = tildePath(file, config.home);
  const lock: ProjectLock | undefined = await readProjectLockOrRefuse(file, shown);
  return { ...listing, lock, shown };
}

/**
 * What `sync --frozen` pins: the project's own sources at the project lock's commits; the
 * person's user-level sources at the user lock's, when there is a user lock (then one it does
 * not hold is refused, as a project source the project lock does not hold), else left as they
 * are, said in one line (a teammate's personal sources are not the project's to pin).
 */
async function frozenPlan(
  config: ResolvedConfig,
  projectRoot: string,
  sources: readonly ResolvedSource[],
  locked: ProjectLock,
  io: Io,
): Promise<{ sources: ResolvedSource[]; locked: LockSource[] }> {
  const own = await collectProjectSources(config, projectRoot, () => {});
  const keys = new Set(own.sources.map((s) => s.key));
  const file = userLockPath(config.stateDir);
  const user = await readProjectLockOrRefuse(file, tildePath(file, config.home));
  if (user !== undefined) {
    const personal = user.sources.filter((s) => !keys.has(s.key));
    return { sources: [...sources], locked: [...locked.sources, ...personal] };
  }
  const left = sources.filter((s) =>
    !keys.has(s.key) && !locked.sources.some((l) => l.key === s.key)
  );
  if (left.length > 0) {
    stderrWarn(io)(
      `left as synced: ${counted(left.length, "user-level source")}, in no lock ` +
        `(run "${PROGRAM} lock --user" to pin them too)`,
    );
  }
  return { sources: sources.filter((s) => !left.includes(s)), locked: [...locked.sources] };
}

/**
 * Runs `sync --frozen`: every source at its locked commit, or nothing changed.
 * Exit 0 all checked out, 1 one cannot be had (nothing changed), 2 no lock,
 * an invalid one, or bad usage.
 *
 * @example
 * ```ts
 * import { runFrozenSync } from "./sync.ts";
 * import { processIo } from "./io.ts";
 * // Type-checked, not run by the doc test: it syncs the sources of a project on the reader's disk.
 * async function example() {
 *   await runFrozenSync({ frozen: true }, "/repo", processIo());
 * }
 * ```
 */
export async function runFrozenSync(values: OptionValues, cwd: string, io: Io): Promise<number> {
  if (values.force) throw new UsageError("--frozen and --force cannot be combined", "sync");
  const { config, sources, lock, shown, projectRoot } = await sourcesAndLock(cwd, io);
  const locked = lockOrRefuse(lock, shown);
  const frozen = await frozenPlan(config, projectRoot, sources, locked, io);
  const results = await syncFrozen(frozen.sources, frozen.locked, {
    lockFile: config.lockFile,
    timeoutMs: config.syncTimeoutMs,
    log: stderrLog(io),
  });
  const code = printSyncResults(results, values, io);
  if (code !== 0 && !values.json) {
    stderrWarn(io)(`nothing was changed: every source must match ${shown} first`);
  }
  return code;
}

/**
 * The `sync` and `add` result table.
 *
 * @example
 * ```ts
 * import { syncTable } from "./sync.ts";
 * syncTable([{ source: "o/r", key: "github.com/o/r", status: "cloned", sha: "a".repeat(40), error: null }]);
 * ```
 */
export function syncTable(results: readonly SyncResult[], width?: number): string {
  return formatTable([
    ["SOURCE", "STATUS", "COMMIT"],
    ...results.map((r) => [r.source, r.status, r.sha?.slice(0, 12) ?? r.error ?? ""]),
  ], width === undefined ? {} : { width, columns: [{ min: 16, share: 0.4, cut: "middle" }] });
}

/**
 * Runs `sync`; exit 1 when any source failed, 2 when a sources file cannot be used (with
 * `--frozen`, see {@linkcode runFrozenSync}).
 *
 * @example
 * ```ts
 * import { runSync } from "./sync.ts";
 * import { processIo } from "./io.ts";
 * await runSync([], {}, "/repo", processIo());
 * ```
 */
export async function runSync(
  _positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  if (values.frozen) return await runFrozenSync(values, cwd, io);
  const { config, sources, untrusted } = await sourcesFor(cwd, io);
  // Untrusted project sources are never synced; say so once.
  if (untrusted !== undefined) io.err(untrustedNotice(untrusted, config.home));
  const results = await syncAll(sources, {
    lockFile: config.lockFile,
    force: values.force ?? false,
    timeoutMs: config.syncTimeoutMs,
    log: stderrLog(io),
  });
  return printSyncResults(results, values, io);
}

/**
 * Prints sync results (a table, or JSON with `--json`); exit 1 when any failed.
 *
 * @example
 * ```ts
 * import { printSyncResults } from "./sync.ts";
 * import { processIo } from "./io.ts";
 * printSyncResults([], { json: true }, processIo()); // 0
 * ```
 */
export function printSyncResults(
  results: readonly SyncResult[],
  values: OptionValues,
  io: Io,
): number {
  const failed = results.some((r) => r.status === "failed");
  if (values.json) {
    const doc = results.map((r) => ({
      source: r.source,
      status: r.status,
      sha: r.sha,
      error: r.error,
    }));
    io.out(jsonText(doc));
  } else if (results.length === 0) {
    io.out("No git sources configured.\n");
  } else {
    io.out(syncTable(results, tableWidth(io)) + "\n");
  }
  return failed ? EXIT.failed : EXIT.ok;
}
