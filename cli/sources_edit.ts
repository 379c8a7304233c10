/**
 * The commands that edit a sources file: `add` (list a source, sync it, say
 * honestly what it brought) and `remove` (unlist one or every entry of a
 * repository, and with `--purge` delete their cached checkouts). A source is
 * identified as the lock and the cache identify it: repository, ref and
 * sub-path.
 *
 * A relative local path typed on the command line (`add ./vendor-skills`) is
 * the shell's: it is written as the file's own base reads it — absolute in the
 * user's file (whose relative paths resolve against the dsh home), relative to
 * the project root in the project's file (`--project`) — so every later run
 * resolves it to the same folder.
 *
 * @example
 * ```ts
 * import { runAdd } from "./sources_edit.ts";
 * import { processIo } from "./io.ts";
 * const code = await runAdd(["anthropics/skills"], {}, "/repo", processIo());
 * ```
 * @module
 */
import { stat } from "node:fs/promises";
import process from "node:process";
import type { ResolvedConfig } from "../lib/catalog/mod.ts";
import { loadCatalog } from "../lib/catalog/mod.ts";
import { type Project, resolveProject } from "../lib/catalog/mod.ts";
import type { DiscoveredSkill } from "../lib/catalog/mod.ts";
import { collectSources, resolveProjectEntries } from "../lib/sources/mod.ts";
import {
  parseSourcesFile,
  readConfigBytes,
  userSourcesFile,
  writeSourcesFile,
} from "../lib/sources/mod.ts";
import {
  comparablePath,
  rebaseSpec,
  type ResolvedSource,
  resolveSource,
  sameRepository,
  sameSource,
  sourceName,
  type SourceSpec,
} from "../lib/sources/mod.ts";
import { gitAvailable } from "../lib/sources/mod.ts";
import { checkLocalRepository, purgeCheckout } from "../lib/sources/mod.ts";
import { syncAll } from "../lib/sources/mod.ts";
import { projectKey, projectTrust, trustProject } from "../lib/sources/mod.ts";
import { type OptionValues, UsageError } from "./args.ts";
import { cliConfig, stderrLog } from "./catalog.ts";
import { escapeTerminal } from "./escape.ts";
import { type Io, PREFIX, tableWidth } from "./io.ts";
import { readSourcesStrictly } from "./sources.ts";
import { syncTable } from "./sync.ts";
import { tildePath } from "./table.ts";
import { counted } from "../lib/text.ts";
import { EXIT } from "./program.ts";

/**
 * The sources file `add`/`remove` edit — the project's with `--project`, else the user's — and
 * the folder its relative local paths resolve against (the project root's real path, the dsh
 * home).
 */
async function targetFile(
  values: OptionValues,
  here: Project,
): Promise<{ file: string; base: string; project?: string }> {
  const config = cliConfig();
  if (!values.project) return { file: userSourcesFile(config.dshHome), base: config.dshHome };
  return { file: here.sourcesFile, base: await projectKey(here.root), project: here.root };
}

/** What the project file's `bytes` resolve to, as trust records it. */
async function resolvedOf(bytes: Uint8Array, file: string, projectRoot: string) {
  const config = cliConfig();
  return (await resolveProjectEntries(parseSourcesFile(bytes, file), projectRoot, config.cacheDir))
    .resolved;
}

/**
 * Whether the project file may stay trusted after the user edits it with `add`/`remove`:
 * it did not exist (every entry is the user's own) or it was trusted as it was.
 */
async function keepsTrust(projectRoot: string, file: string): Promise<boolean> {
  const bytes = await readConfigBytes(file, { root: projectRoot });
  if (bytes === undefined) return true;
  const resolved = await resolvedOf(bytes, file, projectRoot);
  return (await projectTrust(cliConfig().dshHome, projectRoot, bytes, resolved)).state ===
    "trusted";
}

/** Edits a sources file; a project file trusted before (or new) is trusted as written. */
async function editTarget(
  values: OptionValues,
  here: Project,
  specs: readonly (string | SourceSpec)[],
): Promise<void> {
  const config = cliConfig();
  if (!values.project) {
    return await writeSourcesFile(userSourcesFile(config.dshHome), specs, {
      within: config.dshHome,
    });
  }
  const { root: projectRoot, sourcesFile: file } = here;
  const trusted = await keepsTrust(projectRoot, file);
  await writeSourcesFile(file, specs, { within: projectRoot, rootWords: "the project" });
  const bytes = trusted ? await readConfigBytes(file, { root: projectRoot }) : undefined;
  if (bytes !== undefined) {
    const resolved = await resolvedOf(bytes, file, projectRoot);
    await trustProject(config.dshHome, projectRoot, bytes, resolved);
  }
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

/** A source as messages name it: its one name ({@linkcode sourceName}). */
function label(source: ResolvedSource): string {
  return sourceName(source);
}

/** `~`-shortened and escaped, for a message. */
function shownPath(path: string, config: ResolvedConfig): string {
  return escapeTerminal(tildePath(path, config.home));
}

/**
 * Runs `add`; exit 0 (added, already listed, or git missing), 1 when the local
 * repository does not exist (nothing saved) or the first sync failed; a source
 * string or sources file that cannot be used throws (exit 2).
 *
 * @throws {UsageError} When the command line asks for something the command does not take.
 */
export async function runAdd(
  positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  if (positionals.length !== 1) throw new UsageError("add takes exactly one source");
  const config = cliConfig();
  const here = await resolveProject(cwd, config.home);
  const { file, base, project } = await targetFile(values, here);
  // The shell's relative path, as the file's base reads it (see the module doc).
  const spec = rebaseSpec(
    specFrom(positionals[0], values),
    process.cwd(),
    project === undefined ? undefined : base,
  );
  const source = resolveSource(spec, config.cacheDir, { base });
  const shown = shownPath(file, config);
  const existing = await readSourcesStrictly(file, !values.project, project);
  const listed = existing.find((entry) => sameSource(entry, spec, { base }));
  if (listed !== undefined) {
    const name = label(resolveSource(listed, config.cacheDir, { base }));
    io.out(`${escapeTerminal(name)} is already listed in ${shown}\n`);
    return EXIT.ok;
  }
  const local = await checkLocalRepository(source);
  if (!local.ok) {
    io.err(`${PREFIX}${escapeTerminal(local.message)}; nothing was added\n`);
    return EXIT.failed;
  }
  await editTarget(values, here, [...existing, spec]);
  io.out(`added ${escapeTerminal(label(source))} to ${shown}\n`);
  if (!(await gitAvailable())) {
    io.err(`${PREFIX}git was not found on PATH; the source will sync once git is installed\n`);
    return EXIT.ok;
  }
  const [result] = await syncAll([source], {
    lockFile: config.lockFile,
    timeoutMs: config.syncTimeoutMs,
    log: stderrLog(io),
  });
  io.out(syncTable([result], tableWidth(io)) + "\n");
  if (result.status === "failed") return EXIT.failed;
  io.out(await addSummary(source, config, here, cwd, io));
  return EXIT.ok;
}

/**
 * What the source brought, honestly: how many skills it has, how many of them
 * are hidden as duplicates (of skills from elsewhere, or within the source),
 * renamed for a name clash, or excluded by configuration.
 */
async function addSummary(
  source: ResolvedSource,
  config: ResolvedConfig,
  here: Project,
  cwd: string,
  io: Io,
): Promise<string> {
  const { report } = await loadCatalog(config, { project: here, cwd, log: stderrLog(io) });
  const ours = (skill: DiscoveredSkill) =>
    skill.origin.kind === "source" && skill.origin.repo === source.display &&
    (skill.origin.checkout === undefined || skill.origin.checkout === source.dir);
  const listed = report.skills.filter(ours);
  const dropped = report.dropped.filter((d) => ours(d.skill));
  const duplicates = dropped.filter((d) => d.reason !== "excluded");
  const within = duplicates.filter((d) => ours(d.winner)).length;
  const parts = [
    `${counted(listed.length + dropped.length, "skill")} found in ${escapeTerminal(label(source))}`,
    counted(
      duplicates.length - within,
      "hidden as a duplicate of a skill you already have",
      "hidden as duplicates of skills you already have",
    ),
    counted(within, "hidden as a duplicate within the source", "hidden as duplicates within it"),
    `${listed.filter((s) => s.renamedFrom !== undefined).length} renamed for a name clash`,
    `${dropped.length - duplicates.length} excluded by your configuration`,
  ];
  // The count of skills found always shows; the others only when they are not zero.
  return `${[parts[0], ...parts.slice(1).filter((p) => !p.startsWith("0 "))].join(", ")}\n`;
}

/** The entries of `input`'s repository, resolved (an entry that cannot be is never one). */
function entriesOf(
  existing: readonly SourceSpec[],
  input: string | SourceSpec,
  options: { cacheDir: string; base: string },
): (ResolvedSource | undefined)[] {
  const { cacheDir, base } = options;
  return existing.map((entry) => {
    if (!sameRepository(entry, input, { base })) return undefined;
    try {
      return resolveSource(entry, cacheDir, { base });
    } catch {
      return undefined;
    }
  });
}

/** Whether an entry is one `remove` names: its repository, narrowed by ref and path when given. */
function narrowedTo(wanted: ResolvedSource, source: ResolvedSource | undefined): boolean {
  return source !== undefined && (wanted.ref === undefined || source.ref === wanted.ref) &&
    (wanted.path === undefined || comparablePath(source.path) === comparablePath(wanted.path));
}

/**
 * Runs `remove` / `rm`; exit 0 when entries were removed (and purged), 1 when
 * nothing matched or a checkout was refused; an unusable source or file throws (exit 2).
 * Without `--ref`/`--path` (nor a ref or path in the source string) every entry of the
 * repository goes, and the output names each.
 *
 * @throws {UsageError} When the command line asks for something the command does not take.
 */
export async function runRemove(
  positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  if (positionals.length !== 1) throw new UsageError("remove takes exactly one source");
  const config = cliConfig();
  // The shell's relative path made absolute (a ref written after it kept).
  const typed = rebaseSpec(positionals[0], process.cwd());
  const input = typeof typed === "string" ? { repo: typed } : typed;
  // Refuses a source string that cannot be parsed; a ref or path in it narrows like --ref/--path.
  const wanted = resolveSource(
    { repo: input.repo, ref: values.ref ?? input.ref, path: values.path },
    config.cacheDir,
  );
  const here = await resolveProject(cwd, config.home);
  const { file, base, project } = await targetFile(values, here);
  const shown = shownPath(file, config);
  const existing = await readSourcesStrictly(file, !values.project, project);
  const ofRepository = entriesOf(existing, input.repo, { cacheDir: config.cacheDir, base });
  const hits = ofRepository.map((source) => narrowedTo(wanted, source));
  const removed = ofRepository.filter((s, i): s is ResolvedSource => hits[i] && s !== undefined);
  if (removed.length === 0) {
    const others = ofRepository.flatMap((s) => s === undefined ? [] : [escapeTerminal(label(s))]);
    const listed = others.length === 0 ? "" : `; listed: ${others.join(", ")}`;
    io.err(`${PREFIX}${escapeTerminal(label(wanted))} is not listed in ${shown}${listed}\n`);
    return EXIT.failed;
  }
  await editTarget(values, here, existing.filter((_, i) => !hits[i]));
  const names = removed.map((s) => escapeTerminal(label(s))).join(", ");
  io.out(`removed ${counted(removed.length, "source")} from ${shown}: ${names}\n`);
  return await settleCheckouts(removed, values.purge === true, here, io);
}

/**
 * Says what became of each removed source's checkout: kept (and where),
 * still used by another source, deleted with `--purge`, or refused. Exit 1
 * when a checkout was refused.
 */
async function settleCheckouts(
  removed: readonly ResolvedSource[],
  purge: boolean,
  here: Project,
  io: Io,
): Promise<number> {
  const config = cliConfig();
  const remaining = await collectSources(config, here.root, () => {});
  const inUse = new Set(
    [...remaining.sources, ...(remaining.untrusted?.sources ?? [])].map((s) => s.dir),
  );
  let code: number = EXIT.ok;
  for (const source of new Map(removed.map((s) => [s.dir, s])).values()) {
    const where = shownPath(source.dir, config);
    const exists = await stat(source.dir).then(() => true, () => false);
    if (inUse.has(source.dir)) {
      if (exists) io.out(`kept the cached checkout ${where}: another source uses it\n`);
    } else if (!purge) {
      if (exists) io.out(`kept the cached checkout ${where} (--purge deletes it)\n`);
    } else {
      const result = await purgeCheckout(source, { lockFile: config.lockFile });
      if (!result.ok) {
        io.err(`${PREFIX}${escapeTerminal(result.message)}; delete it yourself if you want\n`);
        code = EXIT.failed;
      } else if (result.deleted) io.out(`deleted the cached checkout ${where}\n`);
    }
  }
  return code;
}
