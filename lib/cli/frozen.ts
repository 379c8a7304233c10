/**
 * The Git source commands that follow the project's lock: `sync --frozen`
 * (check out exactly the locked commits, or change nothing) and `outdated`
 * (what each source's ref names upstream now, against the locked or synced
 * commit; read-only).
 *
 * @example
 * ```ts
 * import { runOutdated } from "./frozen.ts";
 * import { processIo } from "./io.ts";
 * const code = await runOutdated([], { json: true }, "/repo", processIo());
 * ```
 * @module
 */
import type { ResolvedConfig } from "../catalog/config.ts";
import { projectLockPath, userLockPath } from "../lock/file.ts";
import type { LockSource, ProjectLock } from "../lock/format.ts";
import { collectProjectSources } from "../sources/collect.ts";
import type { ResolvedSource } from "../sources/resolve.ts";
import { PROGRAM } from "./commands.ts";
import { readLock as readSynced } from "../sources/files.ts";
import { syncFrozen } from "../sources/frozen.ts";
import { type KnownCommit, type OutdatedRow, outdatedSources } from "../sources/outdated.ts";
import { type OptionValues, UsageError } from "./args.ts";
import { stderrLog, stderrWarn, untrustedNotice } from "./catalog.ts";
import { jsonText } from "./escape.ts";
import { type Io, tableWidth } from "./io.ts";
import { lockOrRefuse, readLock } from "./lock.ts";
import { printSyncResults, sourcesFor } from "./sources.ts";
import { outStyles } from "./style.ts";
import { type ColumnFit, formatTable, tildePath } from "./table.ts";
import { counted } from "./words.ts";

/** The sources in force and the project's lock (undefined when it has none; invalid: exit 2). */
async function sourcesAndLock(cwd: string, io: Io) {
  const listing = await sourcesFor(cwd, io);
  const { config, projectRoot, untrusted } = listing;
  if (untrusted !== undefined) io.err(untrustedNotice(untrusted, config.home));
  const file = projectLockPath(projectRoot);
  const shown = tildePath(file, config.home);
  const lock: ProjectLock | undefined = await readLock(file, shown);
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
  const user = await readLock(file, tildePath(file, config.home));
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
 * @throws {UsageError} When the command line asks for something the command does not take.
 *
 * @example
 * ```ts
 * import { runFrozenSync } from "./frozen.ts";
 * import { processIo } from "./io.ts";
 * // Type-checked, not run by the doc test: it syncs the sources of the project at /repo.
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
 * Runs `outdated`: each source's locked (project lock) or synced commit and
 * what its ref names upstream now. Exit 0 none outdated, 1 updates
 * available, 2 a source could not be asked, an invalid lock, or bad usage.
 *
 * @example
 * ```ts
 * import { runOutdated } from "./frozen.ts";
 * import { processIo } from "./io.ts";
 * await runOutdated([], {}, "/repo", processIo());
 * ```
 */
export async function runOutdated(
  _positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  const { config, sources, lock } = await sourcesAndLock(cwd, io);
  const synced = await readSynced(config.lockFile, { warn: stderrWarn(io) });
  const fromLock = new Map((lock?.sources ?? []).map((s) => [s.key, s.commit]));
  const userFile = userLockPath(config.stateDir);
  const user = await readLock(userFile, tildePath(userFile, config.home));
  const fromUser = new Map((user?.sources ?? []).map((s) => [s.key, s.commit]));
  const knownOf = (source: { key: string }): KnownCommit | null => {
    const locked = fromLock.get(source.key);
    if (typeof locked === "string") return { commit: locked, from: "project-lock" };
    const mine = fromUser.get(source.key);
    if (typeof mine === "string") return { commit: mine, from: "user-lock" };
    const entry = Object.hasOwn(synced, source.key) ? synced[source.key] : undefined;
    return entry === undefined ? null : { commit: entry.sha, from: "synced" };
  };
  const rows = await outdatedSources(sources, knownOf, { timeoutMs: config.syncTimeoutMs });
  if (values.json) io.out(jsonText({ sources: rows }));
  else io.out(outdatedText(rows, io));
  if (rows.some((r) => r.state === "error")) return 2;
  return rows.some((r) => r.state === "outdated") ? 1 : 0;
}

/** How the `outdated` table shares a narrow terminal: the source first, the state gets the rest. */
const OUTDATED_COLUMNS: ColumnFit[] = [
  { min: 16, share: 0.3, cut: "middle" },
  { min: 9, share: 0.12 },
  { min: 12, share: 0.2 },
  { min: 7, share: 0.12 },
  { min: 8, share: 1 },
];

/** The human `outdated` table and a summary line. */
function outdatedText(rows: readonly OutdatedRow[], io: Io): string {
  if (rows.length === 0) return "No git sources configured.\n";
  const st = outStyles(io);
  const short = (sha: string | null) => sha === null ? "-" : sha.slice(0, 12);
  const table = formatTable([
    ["SOURCE", "REF", "LOCKED", "UPSTREAM", "STATE"],
    ...rows.map((r) => [
      r.key,
      r.ref ?? "(default)",
      r.locked === null ? "never synced" : `${short(r.locked)} (${r.lockedFrom})`,
      short(r.upstream),
      r.state === "error" ? `error: ${r.error}` : r.state,
    ]),
  ], tableWidth(io) === undefined ? {} : { width: tableWidth(io), columns: OUTDATED_COLUMNS });
  const outdated = rows.filter((r) => r.state === "outdated").length;
  const errors = rows.filter((r) => r.state === "error").length;
  const summary = errors > 0
    ? st.bad(`${counted(errors, "source")} could not be checked`)
    : outdated > 0
    ? st.warn(`${counted(outdated, "source")} can be updated (run sync, then lock)`)
    : st.ok("every source is current");
  return `${table}\n\n${summary}\n`;
}
