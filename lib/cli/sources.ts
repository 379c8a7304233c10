/**
 * The Git source commands: `sources` (what is configured and synced),
 * `add` and `remove` (edit the user or project sources file) and `sync`
 * (fetch every source now).
 *
 * @example
 * ```ts
 * import { runSources } from "./sources.ts";
 * import { processIo } from "./io.ts";
 * const code = await runSources([], { json: true }, "/repo", processIo());
 * ```
 * @module
 */
import { findProjectRoot } from "../catalog/config.ts";
import { loadCatalog } from "../catalog/mod.ts";
import { collectSources } from "../sources/collect.ts";
import {
  type LockEntry,
  projectSourcesFile,
  readConfigBytes,
  readLock,
  readSourcesFile,
  userSourcesFile,
  writeSourcesFile,
} from "../sources/files.ts";
import {
  type ResolvedSource,
  resolveSource,
  sameRepository,
  sameSource,
  type SourceSpec,
} from "../sources/resolve.ts";
import { gitAvailable } from "../sources/git.ts";
import { syncAll, type SyncResult } from "../sources/sync.ts";
import { projectTrust, trustProject } from "../sources/trust.ts";
import { type OptionValues, UsageError } from "./args.ts";
import { cliConfig, stderrLog, stderrWarn, untrustedNotice } from "./catalog.ts";
import { escapeTerminal, jsonText } from "./escape.ts";
import type { Io } from "./io.ts";
import { formatTable, tildePath } from "./table.ts";

/** The sources in force for `cwd`, and the project's sources waiting for trust. */
type Listing = Awaited<ReturnType<typeof sourcesFor>>;

/** Collects the sources for `cwd` with the CLI configuration. */
async function sourcesFor(cwd: string, io: Io) {
  const config = cliConfig();
  const projectRoot = await findProjectRoot(cwd);
  const { sources, untrusted } = await collectSources(config, projectRoot, stderrLog(io));
  return { config, projectRoot, sources, untrusted };
}

/** The lock entry of a source: its synced commit, or null when never synced. */
type LockOf = (source: ResolvedSource) => LockEntry | null;

/** What a source row says in `sources`: in force, or waiting for `trust`. */
const UNTRUSTED_STATE = "untrusted — run `dsh-skills-anywhere trust`";

/** Runs `sources`; exit 0. Sources of a project file waiting for trust are shown as such. */
export async function runSources(
  _positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  const listing = await sourcesFor(cwd, io);
  const lock = await readLock(listing.config.lockFile, { warn: stderrWarn(io) });
  const lockOf: LockOf = (s) => Object.hasOwn(lock, s.key) ? lock[s.key] : null;
  if (values.json) {
    const waiting = listing.untrusted?.sources ?? [];
    io.out(jsonText([
      ...listing.sources.map((s) => ({ ...s, state: "active", lock: lockOf(s) })),
      ...waiting.map((s) => ({ ...s, state: "untrusted", lock: lockOf(s) })),
    ]));
  } else io.out(sourcesText(listing, lockOf));
  return 0;
}

/** The human `sources` listing: the table, then where the user and project files are. */
function sourcesText(listing: Listing, lockOf: LockOf): string {
  const { config, projectRoot, sources, untrusted } = listing;
  const waiting = untrusted?.sources ?? [];
  if (sources.length === 0 && waiting.length === 0) {
    return "No git sources configured. Add one with: dsh-skills-anywhere add owner/repo\n";
  }
  const row = (s: ResolvedSource) => [
    s.display,
    s.ref ?? "(default)",
    lockOf(s)?.sha.slice(0, 12) ?? "(never)",
    tildePath(s.dir, config.home),
  ];
  // The STATE column appears only when a project file waits for trust.
  const table = waiting.length === 0
    ? formatTable([["SOURCE", "REF", "SYNCED COMMIT", "CACHE"], ...sources.map(row)])
    : formatTable([
      ["SOURCE", "REF", "SYNCED COMMIT", "CACHE", "STATE"],
      ...sources.map((s) => [...row(s), "active"]),
      ...waiting.map((s) => [...row(s), UNTRUSTED_STATE]),
    ]);
  const userFile = escapeTerminal(tildePath(userSourcesFile(config.dshHome), config.home));
  const projectFile = escapeTerminal(tildePath(projectSourcesFile(projectRoot), config.home));
  const projectState = untrusted === undefined
    ? ""
    : ` (${untrusted.state === "changed" ? "changed, " : ""}untrusted)`;
  return `${table}\n\nuser file:    ${userFile}\nproject file: ${projectFile}${projectState}\n`;
}

/** The `sync` and `add` result table. */
function syncTable(results: readonly SyncResult[]): string {
  return formatTable([
    ["SOURCE", "STATUS", "COMMIT"],
    ...results.map((r) => [r.source, r.status, r.sha?.slice(0, 12) ?? r.error ?? ""]),
  ]);
}

/** Runs `sync`; exit 1 when any source failed. */
export async function runSync(
  _positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  const { config, sources, untrusted } = await sourcesFor(cwd, io);
  // Untrusted project sources are never synced; say so once.
  if (untrusted !== undefined) io.err(untrustedNotice(untrusted, config.home));
  const results = await syncAll(sources, {
    lockFile: config.lockFile,
    force: values.force ?? false,
    timeoutMs: config.syncTimeoutMs,
    log: stderrLog(io),
  });
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
    io.out(syncTable(results) + "\n");
  }
  return failed ? 1 : 0;
}

/** The sources file `add`/`remove` edit: the project's with `--project`, else the user's. */
async function targetFile(values: OptionValues, cwd: string): Promise<string> {
  const config = cliConfig();
  return values.project
    ? projectSourcesFile(await findProjectRoot(cwd))
    : userSourcesFile(config.dshHome);
}

/**
 * The entries of the sources file that `add`/`remove` edit; a broken file throws (exit 2).
 * The user's file may be a symlink; a project's file must be a regular file.
 */
async function readTarget(file: string, values: OptionValues): Promise<SourceSpec[]> {
  return await readSourcesFile(file, { followSymlinks: !values.project });
}

/**
 * Whether the project file may stay trusted after the user edits it with `add`/`remove`:
 * it did not exist (every entry is the user's own) or it was trusted as it was.
 */
async function keepsTrust(projectRoot: string, file: string): Promise<boolean> {
  const bytes = await readConfigBytes(file);
  if (bytes === undefined) return true;
  return (await projectTrust(cliConfig().dshHome, projectRoot, bytes)).state === "trusted";
}

/** Edits a sources file; a project file trusted before (or new) is trusted as written. */
async function editTarget(
  values: OptionValues,
  cwd: string,
  specs: readonly (string | SourceSpec)[],
): Promise<void> {
  const config = cliConfig();
  if (!values.project) return await writeSourcesFile(userSourcesFile(config.dshHome), specs);
  const projectRoot = await findProjectRoot(cwd);
  const file = projectSourcesFile(projectRoot);
  const trusted = await keepsTrust(projectRoot, file);
  await writeSourcesFile(file, specs);
  const bytes = trusted ? await readConfigBytes(file) : undefined;
  if (bytes !== undefined) await trustProject(config.dshHome, projectRoot, bytes);
}

/** The entry `add` writes: the bare source string, or an object with `--ref`/`--path`/`--rank`. */
function specFrom(input: string, values: OptionValues): string | SourceSpec {
  if (values.ref === undefined && values.path === undefined && values.rank === undefined) {
    return input;
  }
  const spec: SourceSpec = { repo: input };
  if (values.ref !== undefined) spec.ref = values.ref;
  if (values.path !== undefined) spec.path = values.path;
  if (values.rank !== undefined) {
    const rank = Number(values.rank);
    if (values.rank.trim() === "" || !Number.isFinite(rank)) {
      throw new UsageError(`--rank must be a number (got "${escapeTerminal(values.rank)}")`);
    }
    spec.rank = rank;
  }
  return spec;
}

/**
 * Runs `add`; exit 0 (added, already listed, or git missing), 1 when its sync failed; a source
 * string or sources file that cannot be used throws (exit 2).
 */
export async function runAdd(
  positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  if (positionals.length !== 1) throw new UsageError("add takes exactly one source");
  const config = cliConfig();
  const spec = specFrom(positionals[0], values);
  const source = resolveSource(spec, config.cacheDir);
  const file = await targetFile(values, cwd);
  const shown = escapeTerminal(tildePath(file, config.home));
  const existing = await readTarget(file, values);
  if (existing.some((entry) => sameSource(entry, spec))) {
    io.out(`${escapeTerminal(source.display)} is already in ${shown}\n`);
    return 0;
  }
  await editTarget(values, cwd, [...existing, spec]);
  io.out(`added ${escapeTerminal(source.display)} to ${shown}\n`);
  if (!(await gitAvailable())) {
    io.err("git was not found on PATH; the source will sync once git is installed.\n");
    return 0;
  }
  const [result] = await syncAll([source], {
    lockFile: config.lockFile,
    timeoutMs: config.syncTimeoutMs,
    log: stderrLog(io),
  });
  io.out(syncTable([result]) + "\n");
  const { report } = await loadCatalog(config, { cwd, log: stderrLog(io) });
  const count =
    report.skills.filter((s) => s.origin.kind === "source" && s.origin.repo === source.display)
      .length;
  io.out(`${count} skills available from ${escapeTerminal(source.display)}\n`);
  return result.status === "failed" ? 1 : 0;
}

/** Runs `remove` / `rm`; exit 1 when nothing matched; an unusable source or file throws (exit 2). */
export async function runRemove(
  positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  if (positionals.length !== 1) throw new UsageError("remove takes exactly one source");
  const input = positionals[0];
  const config = cliConfig();
  resolveSource(input, config.cacheDir); // refuses a source string that cannot be parsed
  const file = await targetFile(values, cwd);
  const shown = escapeTerminal(tildePath(file, config.home));
  const existing = await readTarget(file, values);
  const kept = existing.filter((entry) => !sameRepository(entry, input));
  if (kept.length === existing.length) {
    io.err(`${escapeTerminal(input)} is not listed in ${shown}\n`);
    return 1;
  }
  await editTarget(values, cwd, kept);
  io.out(
    `removed ${escapeTerminal(input)} from ${shown} (cached checkout kept under ${
      escapeTerminal(tildePath(config.cacheDir, config.home))
    })\n`,
  );
  return 0;
}
