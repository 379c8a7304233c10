/**
 * The `sources` command (each Git source, its checkout and its state), and
 * what `sync`, `outdated`, `add` and `remove` (in `sync.ts`, `outdated.ts`,
 * `sources_edit.ts`) share with it: the sources in force, and a sources file
 * that cannot be used stops the command with one line naming the file and
 * what is wrong with it.
 *
 * @example
 * ```ts
 * import { runSources } from "./sources.ts";
 * import { processIo } from "./io.ts";
 * const code = await runSources([], { json: true }, "/repo", processIo());
 * ```
 * @module
 */
import { stat } from "node:fs/promises";
import { resolveProject } from "../lib/catalog/mod.ts";
import { collectSources } from "../lib/sources/mod.ts";
import {
  type CommitEntry,
  readCommitRecord,
  readSourcesFile,
  readSyncFailures,
  type SyncFailure,
  syncFailuresFile,
  userSourcesFile,
} from "../lib/sources/mod.ts";
import {
  type ResolvedSource,
  SourceError,
  sourceName,
  type SourceSpec,
} from "../lib/sources/mod.ts";
import type { OptionValues } from "./args.ts";
import { cliConfig, stderrLog, stderrWarn } from "./catalog.ts";
import { escapeTerminal, jsonText } from "./escape.ts";
import { type Io, tableWidth } from "./io.ts";
import { type ColumnFit, formatTable, tildePath } from "./table.ts";
import { EXIT } from "./program.ts";

/**
 * Reads a sources file the command depends on; one that cannot be used throws
 * one line naming the file and what is wrong, ending "; fix or remove it"
 * (exit 2). The user's file may be a symlink; a project's must be a regular file.
 *
 * @throws {SourceError} When the source cannot be read as one (its `kind` says why).
 *
 * @example
 * ```ts
 * import { readSourcesStrictly } from "./sources.ts";
 * const specs = await readSourcesStrictly("/home/me/.dsh/skills-anywhere/sources.json", true);
 * ```
 */
export async function readSourcesStrictly(
  file: string,
  followSymlinks: boolean,
  root?: string,
): Promise<SourceSpec[]> {
  try {
    return await readSourcesFile(file, { followSymlinks, ...(root !== undefined ? { root } : {}) });
  } catch (error) {
    if (!(error instanceof SourceError)) throw error;
    throw new SourceError(error.kind, `${error.message}; fix or remove it`, { cause: error });
  }
}

/** The sources in force for `cwd`, and the project's sources waiting for trust. */
type Listing = Awaited<ReturnType<typeof sourcesFor>>;

/**
 * Collects the sources for `cwd` with the CLI configuration, after checking
 * that the user and project sources files can be used (else exit 2).
 *
 * @example
 * ```ts
 * import { sourcesFor } from "./sources.ts";
 * import { processIo } from "./io.ts";
 * const { sources, projectRoot } = await sourcesFor("/repo", processIo());
 * ```
 */
export async function sourcesFor(cwd: string, io: Io) {
  const config = cliConfig();
  const project = await resolveProject(cwd, config.home);
  const projectRoot = project.root;
  if (config.sourcesFiles) {
    await readSourcesStrictly(userSourcesFile(config.dshHome), true);
    await readSourcesStrictly(project.sourcesFile, false, projectRoot);
  }
  const { sources, untrusted } = await collectSources(config, projectRoot, stderrLog(io));
  return { config, project, projectRoot, sources, untrusted };
}

/** What a source's row says: its sync state, and whether its checkout is on disk. */
interface SourceState {
  /** `synced`, `failed` (the last sync did), `never-synced`, or `untrusted` (waiting for `trust`). */
  status: "synced" | "failed" | "never-synced" | "untrusted";
  /** The lock entry: the commit last synced, or null. */
  lock: CommitEntry | null;
  /** The last failed sync, when the last sync of the source failed. */
  failure: SyncFailure | null;
  /** Whether the checkout folder exists. */
  checkedOut: boolean;
}

/** The state of each source, from the lock, the failures file and the cache. */
async function statesOf(listing: Listing, io: Io) {
  const { lockFile } = listing.config;
  const warn = stderrWarn(io);
  const lock = await readCommitRecord(lockFile, { warn });
  const failures = await readSyncFailures(syncFailuresFile(lockFile), { warn });
  const own = <T>(map: Record<string, T>, key: string) => Object.hasOwn(map, key) ? map[key] : null;
  return async (source: ResolvedSource, untrusted: boolean): Promise<SourceState> => {
    const entry = own(lock, source.key);
    const failure = own(failures, source.key);
    const checkedOut = await stat(source.dir).then((i) => i.isDirectory(), () => false);
    const status = untrusted
      ? "untrusted"
      : failure !== null
      ? "failed"
      : entry !== null
      ? "synced"
      : "never-synced";
    return { status, lock: entry, failure, checkedOut };
  };
}

/** What a source row says in `sources` when the project file waits for trust. */
const UNTRUSTED_STATE = "untrusted — run `dsh-skills-anywhere trust`";

/** `2025-06-01 12:00 UTC`, or the text as stored when it is not a date. */
function when(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms)
    ? iso
    : `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** The STATE cell: synced commit and when, failed with the reason, never synced, untrusted. */
function stateText(state: SourceState): string {
  const synced = state.lock === null
    ? ""
    : `synced ${state.lock.sha.slice(0, 12)} ${when(state.lock.syncedAt)}`;
  switch (state.status) {
    case "untrusted":
      return UNTRUSTED_STATE;
    case "failed":
      return `failed ${when(state.failure!.at)}: ${state.failure!.error}` +
        (synced === "" ? "" : ` (last ${synced})`);
    case "never-synced":
      return "never synced";
    case "synced":
      return state.checkedOut ? synced : `${synced}, checkout missing (run sync)`;
  }
}

/**
 * Runs `sources`; exit 0, 2 when a sources file cannot be used. Each source
 * shows where it is checked out and its state; `--json` adds `status`,
 * `failure` and `checkedOut` to each source's fields, `state` and `lock`.
 */
export async function runSources(
  _positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  const listing = await sourcesFor(cwd, io);
  const stateOf = await statesOf(listing, io);
  const waiting = listing.untrusted?.sources ?? [];
  const rows = [
    ...await Promise.all(listing.sources.map(async (s) => ({ s, state: await stateOf(s, false) }))),
    ...await Promise.all(waiting.map(async (s) => ({ s, state: await stateOf(s, true) }))),
  ];
  if (values.json) {
    io.out(jsonText(rows.map(({ s, state }) => ({
      ...s,
      state: state.status === "untrusted" ? "untrusted" : "active",
      ...state,
    }))));
  } else {
    io.out(
      sourcesText(listing, rows.map(({ s, state }) => [s, stateText(state)]), tableWidth(io)),
    );
  }
  return EXIT.ok;
}

/** How the sources table shares a narrow terminal: the source first, then its state. */
const SOURCE_COLUMNS: ColumnFit[] = [
  { min: 16, share: 0.4, cut: "middle" },
  { min: 9, share: 0.12 },
  { min: 12, share: 0.25, cut: "middle" },
  { min: 12, share: 1 },
];

/** The human `sources` listing: the table, then where the user and project files are. */
function sourcesText(
  listing: Listing,
  rows: readonly [ResolvedSource, string][],
  width?: number,
): string {
  const { config, project, untrusted } = listing;
  if (rows.length === 0) {
    return "No git sources configured. Add one with: dsh-skills-anywhere add owner/repo\n";
  }
  const table = formatTable([
    ["SOURCE", "REF", "CHECKOUT", "STATE"],
    ...rows.map(([s, state]) => [
      sourceName(s),
      s.ref ?? "(default)",
      tildePath(s.dir, config.home),
      state,
    ]),
  ], width === undefined ? {} : { width, columns: SOURCE_COLUMNS });
  const userFile = escapeTerminal(tildePath(userSourcesFile(config.dshHome), config.home));
  const projectFile = escapeTerminal(tildePath(project.sourcesFile, config.home));
  const projectState = untrusted === undefined
    ? ""
    : ` (${untrusted.state === "changed" ? "changed, " : ""}untrusted)`;
  return `${table}\n\nuser file:    ${userFile}\nproject file: ${projectFile}${projectState}\n`;
}
