/**
 * What the catalog commands share: configuration for the CLI (defaults, shared
 * `.agents` directories on, no watching, no background sync), discovery with
 * warnings and TTY-only progress on stderr.
 *
 * @example
 * ```ts
 * import { cliCatalog } from "./catalog.ts";
 * import type { Io } from "./io.ts";
 * async function example(io: Io) {
 *   const { report, show } = await cliCatalog("/repo", io);
 * }
 * ```
 * @module
 */
import { relative } from "node:path";
import process from "node:process";
import { loadCatalog } from "../lib/catalog/mod.ts";
import { resolveConfig, type ResolvedConfig } from "../lib/catalog/mod.ts";
import type { DiscoveryReport } from "../lib/catalog/mod.ts";
import { isWithin } from "../lib/fs/mod.ts";
import type { UntrustedProject } from "../lib/sources/mod.ts";
import { readSyncFailures, syncFailuresFile } from "../lib/sources/mod.ts";
import { type ResolvedSource, sourceName } from "../lib/sources/mod.ts";
import type { Log } from "../lib/util.ts";
import { escapeTerminal } from "./escape.ts";
import { type Io, PREFIX } from "./io.ts";
import type { Styles } from "./style.ts";
import { type ColumnFit, formatTable, tildePath } from "./table.ts";
import { counted } from "../lib/text.ts";

/** The configuration every CLI command uses (defaults only, and the HOME and DSH_HOME environment variables). */
export function cliConfig(overrides: { sharedDirs?: boolean } = {}): ResolvedConfig {
  return resolveConfig({ sharedDirs: true, sync: false, ...overrides }, process.env);
}

/**
 * A log that writes warnings, escaped, to stderr; progress lines (a source cloned or updated)
 * too when stderr is a terminal, never in logs.
 */
export function stderrLog(io: Io): Log {
  return (level, message) => {
    if (level === "warn" || io.errIsTty) io.err(`${PREFIX}${escapeTerminal(message)}\n`);
  };
}

/** A one-line warning sink for the core's `warn` callbacks: escaped, on stderr. */
export function stderrWarn(io: Io): (message: string) => void {
  return (message) => io.err(`${PREFIX}${escapeTerminal(message)}\n`);
}

/**
 * The one line every command prints on stderr when the project's sources file
 * waits for trust.
 *
 * @example
 * ```ts
 * import type { UntrustedProject } from "../lib/sources/mod.ts";
 * function example(untrusted: UntrustedProject) {
 *   untrustedNotice(untrusted, "/home/me");
 * }
 * ```
 */
export function untrustedNotice(untrusted: UntrustedProject, home: string): string {
  const changed = untrusted.state === "changed" ? " (it changed since it was trusted)" : "";
  const n = untrusted.sources.length;
  return `${PREFIX}${counted(n, "Git source")} in ${
    escapeTerminal(tildePath(untrusted.file, home))
  } ${n === 1 ? "waits" : "wait"} for trust${changed}; nothing from it is cloned or listed. ` +
    `Review ${n === 1 ? "it" : "them"} with: ` +
    `dsh-skills-anywhere trust --cwd ${escapeTerminal(tildePath(untrusted.projectRoot, home))}\n`;
}

/** A discovered catalog as the listing commands (`list`, `doctor`) show it. */
export interface CatalogView {
  /** The CLI configuration it was discovered with. */
  config: ResolvedConfig;
  /** What discovery found. */
  report: DiscoveryReport;
  /** A path for display: relative to its Git checkout when inside one, else `~`-shortened. */
  show: (path: string) => string;
  /** The Git sources in force whose last sync failed (by their display name), in source order. */
  failedSources: FailedSource[];
}

/** A Git source whose last sync failed, as `list` and `doctor` name it. */
export interface FailedSource {
  /** The source's display name (what `sources` shows in its SOURCE column). */
  source: string;
  /** Its lock key. */
  key: string;
  /** When the sync failed (ISO 8601). */
  at: string;
  /** The first line of the reason. */
  error: string;
}

/**
 * The sources of `sources` whose last sync failed, from the failures file beside `lockFile`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { failedSources } from "./catalog.ts";
 * const failed = await failedSources([], "/home/me/.dsh/skills-anywhere/lock.json");
 * assert.equal(failed.length, 0);
 * ```
 */
export async function failedSources(
  sources: readonly ResolvedSource[],
  lockFile: string,
): Promise<FailedSource[]> {
  if (sources.length === 0) return [];
  const failures = await readSyncFailures(syncFailuresFile(lockFile));
  return sources.flatMap((s) =>
    Object.hasOwn(failures, s.key)
      ? [{
        source: sourceName(s),
        key: s.key,
        at: failures[s.key].at,
        error: failures[s.key].error,
      }]
      : []
  );
}

/**
 * The one stderr line `list` prints for a failed source.
 *
 * @example
 * ```ts
 * import { failedSourceLine } from "./catalog.ts";
 * failedSourceLine({ source: "o/r", key: "github.com/o/r", at: "2026-01-01T00:00:00Z", error: "x" });
 * ```
 */
export function failedSourceLine(failed: FailedSource): string {
  return `${PREFIX}Git source ${escapeTerminal(failed.source)} failed to sync (${
    escapeTerminal(failed.at)
  }: ${escapeTerminal(failed.error)}); its skills may be old or missing; ` +
    "see dsh-skills-anywhere sources\n";
}

/**
 * Discovers the catalog for `cwd` with the CLI configuration, with progress on stderr only
 * when it is a terminal, and one line there when the project's sources file waits for trust.
 */
export async function cliCatalog(cwd: string, io: Io): Promise<CatalogView> {
  const config = cliConfig();
  let last = 0;
  const onProgress = io.errIsTty
    ? (done: number, total: number) => {
      if (done === total || done - last >= 200) {
        last = done;
        io.err(`\rreading skills: ${done}/${total}\u001b[K`);
      }
    }
    : undefined;
  const catalog = await loadCatalog(config, {
    cwd,
    log: stderrLog(io),
    onProgress,
    parseCache: true,
  });
  if (io.errIsTty && last > 0) io.err("\r\u001b[K");
  if (catalog.untrusted !== undefined) io.err(untrustedNotice(catalog.untrusted, config.home));
  const show = (path: string) => displayPath(path, config.home, catalog.sources);
  const failed = await failedSources(catalog.sources, config.lockFile);
  return { config, report: catalog.report, show, failedSources: failed };
}

/** A path for display: relative to its Git checkout when inside one, else `~`-shortened. */
function displayPath(path: string, home: string, sources: readonly ResolvedSource[]): string {
  let best: string | undefined;
  for (const source of sources) {
    if (!isWithin(path, source.dir)) continue;
    const rel = relative(source.dir, path);
    if (best === undefined || rel.length < best.length) best = rel;
  }
  return best ?? tildePath(path, home);
}

/** A skill left out of the catalog, as `list --all` and `doctor` show it. */
export interface HiddenRow {
  /** The skill's name. */
  name: string;
  /** Its SKILL.md. */
  path: string;
  /** `excluded`, `same-file` or `same-content`. */
  reason: string;
  /** The SKILL.md kept in its place (its own path when excluded). */
  winner: string;
}

/**
 * The "Hidden duplicates (n):" section (each with why and the file kept instead), then the
 * "Excluded by configuration (n):" section; nothing for an empty list. Paths dim; fitted to
 * `width` when given (a terminal), paths cut in the middle.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hiddenSections } from "./catalog.ts";
 * import { styles } from "./style.ts";
 * assert.deepEqual(hiddenSections([], (p) => p, styles(false)), []);
 * ```
 */
export function hiddenSections(
  rows: readonly HiddenRow[],
  show: (path: string) => string,
  st: Styles,
  width?: number,
): string[] {
  const lines: string[] = [];
  const fit = (columns: ColumnFit[]) => width === undefined ? {} : { width, columns };
  const path: ColumnFit = { min: 16, cut: "middle" };
  const duplicates = rows.filter((r) => r.reason !== "excluded");
  const excluded = rows.filter((r) => r.reason === "excluded");
  if (duplicates.length > 0) {
    lines.push("", st.bold(`Hidden duplicates (${duplicates.length}):`));
    lines.push(formatTable(
      duplicates.map((d) => [
        "  " + d.name,
        d.reason,
        [[show(d.path), st.dim]],
        [["-> "], [show(d.winner), st.dim, "key"]],
      ]),
      fit([{ min: 12, cut: "middle" }, { min: 8 }, path, path]),
    ));
  }
  if (excluded.length > 0) {
    lines.push("", st.bold(`Excluded by configuration (${excluded.length}):`));
    lines.push(formatTable(
      excluded.map((d) => ["  " + d.name, [[show(d.path), st.dim]]]),
      fit([{ min: 12, cut: "middle" }, path]),
    ));
  }
  return lines;
}
