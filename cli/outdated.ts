/**
 * The `outdated` command: what each Git source's ref names upstream now,
 * against the commit the project lock (or the user lock, or the last sync)
 * holds. Read-only: it asks the remotes and changes nothing.
 *
 * @example
 * ```ts
 * import { runOutdated } from "./outdated.ts";
 * import { processIo } from "./io.ts";
 * const code = await runOutdated([], { json: true }, "/repo", processIo());
 * ```
 * @module
 */
import { userLockPath } from "../lib/lock/mod.ts";
import { readCommitRecord } from "../lib/sources/mod.ts";
import { type KnownCommit, type OutdatedRow, outdatedSources } from "../lib/sources/mod.ts";
import { counted } from "../lib/text.ts";
import type { OptionValues } from "./args.ts";
import { stderrWarn } from "./catalog.ts";
import { jsonText } from "./escape.ts";
import { type Io, tableWidth } from "./io.ts";
import { readProjectLockOrRefuse } from "./lock.ts";
import { EXIT } from "./program.ts";
import { outStyles } from "./style.ts";
import { sourcesAndLock } from "./sync.ts";
import { type ColumnFit, formatTable, tildePath } from "./table.ts";

/**
 * Runs `outdated`: each source's locked (project lock) or synced commit and
 * what its ref names upstream now. Exit 0 none outdated, 1 updates
 * available, 2 a source could not be asked, an invalid lock, or bad usage.
 *
 * @example
 * ```ts
 * import { runOutdated } from "./outdated.ts";
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
  const synced = await readCommitRecord(config.lockFile, { warn: stderrWarn(io) });
  const fromLock = new Map((lock?.sources ?? []).map((s) => [s.key, s.commit]));
  const userFile = userLockPath(config.stateDir);
  const user = await readProjectLockOrRefuse(userFile, tildePath(userFile, config.home));
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
  if (rows.some((r) => r.state === "error")) return EXIT.refused;
  return rows.some((r) => r.state === "outdated") ? EXIT.failed : EXIT.ok;
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
