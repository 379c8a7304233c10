/**
 * The `trust` command: review a project's sources file and allow it (like
 * direnv's `allow`). Until then its sources are never cloned, synced or
 * listed; any change to the file needs `trust` again.
 *
 * Exit codes: 0 trusted (or, with `--revoke`, not trusted any more); 1 not
 * trusted (declined, or no terminal to ask on and no `--yes`); 2 bad usage, or
 * no usable project sources file (missing, oversized, invalid).
 *
 * @example
 * ```ts
 * import { runTrust } from "./trust.ts";
 * import { processIo } from "./io.ts";
 * // Type-checked, not run by the doc test: it runs the command on the project at /repo and the user's home, printing to this process's stdout.
 * async function example() {
 *   const code = await runTrust([], { json: true }, "/repo", processIo()); // 1: no terminal to ask on
 * }
 * ```
 * @module
 */
import { createInterface } from "node:readline";
import process from "node:process";
import type { ResolvedConfig } from "../lib/catalog/mod.ts";
import { type Project, resolveProject } from "../lib/catalog/mod.ts";
import { parseSourcesFile, readConfigBytes } from "../lib/sources/mod.ts";
import {
  isRelativeLocal,
  type ResolvedSource,
  resolveSource,
  SourceError,
  sourceName,
} from "../lib/sources/mod.ts";
import {
  projectKey,
  type ProjectTrust,
  projectTrust,
  type ResolvedEntries,
  revokeProject,
  trustFile,
  trustProject,
  type TrustState,
} from "../lib/sources/mod.ts";
import { type OptionValues, UsageError } from "./args.ts";
import { cliConfig } from "./catalog.ts";
import { escapeTerminal, jsonText } from "./escape.ts";
import { type Io, PREFIX, tableWidth } from "./io.ts";
import { counted } from "../lib/text.ts";
import { type ColumnFit, formatTable, tildePath } from "./table.ts";
import { EXIT } from "./program.ts";

/** The `trust --json` document. */
export interface TrustDoc {
  /** The project root, as recorded (its real path). */
  project: string;
  /** The project sources file. */
  file: string;
  /** SHA-256 of the file's bytes as shown (null with `--revoke`). */
  sha256: string | null;
  /** The state after the command. */
  state: TrustState;
  /** The sources the file adds (empty with `--revoke`). */
  sources: { repo: string; ref: string | null; path: string | null; url: string }[];
}

/** Asks `question` on stderr and reads one line from the terminal; `undefined` at end of input. */
async function ask(io: Io, question: string): Promise<string | undefined> {
  io.err(question);
  const lines = createInterface({ input: process.stdin, terminal: false });
  try {
    for await (const line of lines) return line;
    return undefined;
  } finally {
    lines.close();
    process.stdin.pause();
  }
}

/** Whether a y/N prompt can be shown: stdin and stderr are a terminal. */
function canAsk(io: Io): boolean {
  return io.errIsTty && Boolean(process.stdin.isTTY);
}

/** The sources as the `--json` document lists them. */
function sourceRows(sources: readonly ResolvedSource[]): TrustDoc["sources"] {
  return sources.map((s) => ({
    repo: s.repo,
    ref: s.ref ?? null,
    path: s.path ?? null,
    url: s.url,
  }));
}

/**
 * Resolves the file's entries, relative local paths against the project root's real path
 * (`base`), as every later run resolves them; the ones that cannot be used are told on stderr.
 */
function resolveEntries(
  bytes: Uint8Array,
  file: string,
  options: { cacheDir: string; base: string },
  io: Io,
): { sources: ResolvedSource[]; resolved: ResolvedEntries } {
  const sources: ResolvedSource[] = [];
  const specs = parseSourcesFile(bytes, file);
  for (const spec of specs) {
    try {
      sources.push(resolveSource(spec, options.cacheDir, { base: options.base }));
    } catch (error) {
      if (!(error instanceof SourceError)) throw error;
      io.err(`${PREFIX}refused (never cloned): ${escapeTerminal(error.message)}\n`);
    }
  }
  const resolved = { urls: sources.map((s) => s.url), relative: specs.some(isRelativeLocal) };
  return { sources, resolved };
}

/** Runs `trust --revoke`: forgets the project's trust; exit 0 whether or not it was trusted. */
async function revoke(
  project: Project,
  values: OptionValues,
  io: Io,
): Promise<number> {
  const config = cliConfig();
  const { root: projectRoot, sourcesFile: file } = project;
  const was = await revokeProject(config.dshHome, projectRoot);
  if (values.json) {
    const doc: TrustDoc = {
      project: await projectKey(projectRoot),
      file,
      sha256: null,
      state: "untrusted",
      sources: [],
    };
    io.out(jsonText(doc));
  } else {
    const shown = escapeTerminal(tildePath(file, config.home));
    io.out(was ? `revoked trust in ${shown}\n` : `${shown} was not trusted\n`);
  }
  return EXIT.ok;
}

/** A project sources file under review: what it holds and how it stands. */
interface Review {
  config: ResolvedConfig;
  projectRoot: string;
  file: string;
  /** The file, `~`-shortened and escaped for the terminal. */
  shown: string;
  bytes: Uint8Array;
  /** The entries that can be used (the others were told on stderr). */
  sources: ResolvedSource[];
  /** What they resolve to, as trust records it. */
  resolved: ResolvedEntries;
  /** The trust recorded before the command. */
  before: ProjectTrust;
  /** The project as the trust file records it (its real path). */
  key: string;
}

/**
 * Runs `trust`; exit 0 trusted, 1 not trusted, 2 no project sources file (one that cannot be
 * read or parsed throws: exit 2 too).
 *
 * @throws {UsageError} When the command line asks for something the command does not take.
 */
export async function runTrust(
  _positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  if (values.revoke && values.yes) throw new UsageError("--revoke and --yes do not go together");
  const project = await resolveProject(cwd, cliConfig().home);
  if (values.revoke) return await revoke(project, values, io);
  const review = await openReview(project, io);
  if (review === undefined) return EXIT.refused;
  const report = (state: TrustState) => {
    if (values.json) io.out(jsonText(trustDoc(review, state)));
  };
  const { before, shown } = review;
  if (before.state === "trusted") {
    if (values.json) report("trusted");
    else io.out(`${shown} is already trusted (sha256 ${before.sha256.slice(0, 12)})\n`);
    return EXIT.ok;
  }
  const preface = before.state === "changed" ? `${shown} changed since it was trusted.\n` : "";
  // With --json, stdout carries only the document.
  if (values.json) io.err(preface + grantText(review));
  else io.out(preface + grantText(review, tableWidth(io)));
  if (!values.yes && !(await confirmed(io))) {
    report(before.state);
    return EXIT.failed;
  }
  await grant(review, values, io);
  return EXIT.ok;
}

/**
 * Reads the project's sources file and its recorded trust; `undefined` (told on stderr) when
 * there is no such file. A file that cannot be read or parsed throws: the CLI's one mapping
 * says so (exit 2).
 */
async function openReview(project: Project, io: Io): Promise<Review | undefined> {
  const config = cliConfig();
  const { root: projectRoot, sourcesFile: file } = project;
  const shown = escapeTerminal(tildePath(file, config.home));
  const bytes = await readConfigBytes(file, { root: projectRoot });
  if (bytes === undefined) {
    io.err(`${PREFIX}no project sources file at ${shown}\n`);
    return undefined;
  }
  const key = await projectKey(projectRoot);
  const { sources, resolved } = resolveEntries(bytes, file, {
    cacheDir: config.cacheDir,
    base: key,
  }, io);
  const before = await projectTrust(config.dshHome, projectRoot, bytes, resolved);
  if (before.warning !== undefined) io.err(`${escapeTerminal(before.warning)}\n`);
  return { config, projectRoot, file, shown, bytes, sources, resolved, before, key };
}

/** The `trust --json` document for the review, in `state`. */
function trustDoc(review: Review, state: TrustState): TrustDoc {
  return {
    project: review.key,
    file: review.file,
    sha256: review.before.sha256,
    state,
    sources: sourceRows(review.sources),
  };
}

/** How the sources a trust grants share a narrow terminal: URLs cut in the middle. */
const GRANT_COLUMNS: ColumnFit[] = [
  { min: 16, share: 0.3, cut: "middle" },
  { min: 8, share: 0.12 },
  { min: 8, share: 0.15, cut: "middle" },
  { min: 16, share: 1, cut: "middle" },
];

/** What trusting grants, shown before asking: the repositories cloned into the cache. */
function grantText({ config, shown, sources }: Review, width?: number): string {
  if (sources.length === 0) return `${shown} lists no Git sources.\n`;
  const table = formatTable([
    ["SOURCE", "REF", "PATH", "CLONED FROM"],
    ...sources.map((s) => [sourceName(s), s.ref ?? "(default)", s.path ?? "", s.url]),
  ], width === undefined ? {} : { width, columns: GRANT_COLUMNS });
  const cache = escapeTerminal(tildePath(config.cacheDir, config.home));
  return `${shown} adds ${
    counted(sources.length, "Git source")
  }, cloned into ${cache}:\n\n${table}\n\n`;
}

/** Records the trust and says so (the document with `--json`). */
async function grant(review: Review, values: OptionValues, io: Io): Promise<void> {
  const { config, shown } = review;
  const record = await trustProject(
    config.dshHome,
    review.projectRoot,
    review.bytes,
    review.resolved,
  );
  if (values.json) io.out(jsonText(trustDoc(review, "trusted")));
  else {
    io.out(
      `trusted ${shown} (sha256 ${record.sha256.slice(0, 12)}, recorded in ${
        escapeTerminal(tildePath(trustFile(config.dshHome), config.home))
      })\n`,
    );
  }
}

/** Asks y/N on the terminal; false (told on stderr) when declined or there is no terminal. */
async function confirmed(io: Io): Promise<boolean> {
  if (!canAsk(io)) {
    io.err(
      `${PREFIX}not trusted: no terminal to ask on; nothing changed (use --yes to trust without a prompt)\n`,
    );
    return false;
  }
  const answer = await ask(io, "Trust this project's Git sources? [y/N] ");
  if (/^\s*y(es)?\s*$/i.test(answer ?? "")) return true;
  io.err(`${PREFIX}not trusted; nothing changed\n`);
  return false;
}
