/**
 * The `lock` and `verify` commands: write the project's
 * `skills-anywhere.lock.json` (the project's own skills' digests and files,
 * the project's Git sources' commits), and compare the project with it. Both
 * take the whole project: every agent's project folder anywhere in its tree
 * (see `../catalog/places.ts`); a name two project places declare, and a part
 * of the tree the walk could not cover, are told by `lock` and are
 * differences for `verify`. A person's own skills (user folders, plugins,
 * user-level sources; see `../lock/scope.ts`) are never in the project's lock:
 * `--user` locks and verifies them on their own, in the user lock
 * (`~/.dsh/skills-anywhere/user.lock.json`, the same format).
 *
 * @example
 * ```ts
 * import { runVerify } from "./lock.ts";
 * import { processIo } from "./io.ts";
 * // Type-checked, not run by the doc test: it verifies the project at /repo and prints to this process's stdout.
 * async function example() {
 *   const exitCode = await runVerify([], { json: true }, "/repo", processIo());
 * }
 * ```
 * @module
 */
import { stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import { loadCatalog } from "../lib/catalog/mod.ts";
import { resolveProject } from "../lib/catalog/mod.ts";
import type { ResolvedConfig } from "../lib/catalog/mod.ts";
import { KindError } from "../lib/errors.ts";
import { placeCollisions } from "../lib/catalog/mod.ts";
import { enabledPlugins, projectEnabledPlugins } from "../lib/catalog/mod.ts";
import { readBounded, ReadError, targetRefusal, writeWhole } from "../lib/fs/mod.ts";
import { MAX_LOCK_BYTES } from "../lib/limits.ts";
import { type LockLines, lockLines } from "../lib/lock/mod.ts";
import {
  compareLocks,
  type OutsidePlugin,
  type PlaceCollision,
  type UncoveredPlace,
  type VerifyReport,
} from "../lib/lock/mod.ts";
import { currentLock } from "../lib/lock/mod.ts";
import type { LockFileRefusalKind } from "../lib/locked.ts";
import { readProjectLock, userLockPath } from "../lib/lock/mod.ts";
import { isPersonalOrigin, lockScopeOf } from "../lib/lock/mod.ts";
import type { LockableSkill } from "../lib/lock/mod.ts";
import { collectProjectSources } from "../lib/sources/mod.ts";
import { lockedSourceName, type ResolvedSource } from "../lib/sources/mod.ts";
import {
  checkedLockText,
  type ProjectLock,
  type RefusedEntry,
  splitLockable,
} from "../lib/lock/mod.ts";
import { lockedNames } from "../lib/lock/mod.ts";
import { checkLockSignatures } from "../lib/signers.ts";
import { didYouMean } from "../lib/text.ts";
import type { OptionValues } from "./args.ts";
import { cliConfig, stderrLog, stderrWarn, untrustedNotice } from "./catalog.ts";
import { EXIT, PROGRAM } from "./program.ts";
import { escapeTerminal, jsonText, quote } from "./escape.ts";
import { type Io, PREFIX } from "./io.ts";
import { reportFormat, verifySarif } from "./sarif.ts";
import { outStyles, type Styles } from "./style.ts";
import { tildePath } from "./table.ts";
import { counted } from "../lib/text.ts";

/** How {@linkcode project} reads the lock before the catalog. */
interface ProjectOptions {
  /** Read the lock (an invalid one refused, exit 2) before the catalog, which keeps its names. */
  lockFirst?: boolean;
  /** The user lock and the person's own skills, not the project's. */
  user?: boolean;
  /**
   * The lock is to be written: a target the writer refuses (a link, a folder) is refused first,
   * in the writer's one line (exit 2), before anything reads the file or says more about it.
   */
  writing?: boolean;
  /** The folder was named with `--cwd`; otherwise a folder that is no project is refused. */
  named?: boolean;
}

/**
 * The catalog of `cwd` and where its lock lives; refuses a project root that is the home folder.
 */
async function project(cwd: string, io: Io, options: ProjectOptions = {}) {
  const { lockFirst = false, user = false, writing = false, named = true } = options;
  const config = cliConfig();
  if (user) return await personal(config, io, lockFirst, writing);
  const here = await resolveProject(cwd, config.home);
  const { root, lockFile: file } = here;
  if (root === config.home) {
    throw new KindError(
      "no-project",
      `no project here (the home folder is not a project); run it inside a project, or pass --cwd`,
    );
  }
  if (!named && !await isProject(root, file)) {
    throw new KindError(
      "no-project",
      `no project here (no .git in ${tildePath(root, config.home)} or above, and no lock); ` +
        "run it inside a project, or name this folder with --cwd .",
    );
  }
  if (writing) refuseTarget(file);
  const shown = tildePath(file, config.home);
  const lock = lockFirst ? await readProjectLockOrRefuse(file, shown) : undefined;
  const locked = lock === undefined ? undefined : lockedNames(lock);
  const catalog = await loadCatalog(config, {
    project: here,
    cwd,
    log: stderrLog(io),
    locked,
    wholeProject: true,
  });
  if (catalog.untrusted !== undefined) io.err(untrustedNotice(catalog.untrusted, config.home));
  const own = await projectScope(config, root);
  return { config, catalog, file, shown, lock, scope: own, within: dirname(file), words: WORDS };
}

/**
 * Whether `root` is a project `lock` may write in unasked: it holds `.git` (the project-root
 * finder found one) or already a lock. A folder named with `--cwd` is taken as one regardless.
 */
async function isProject(root: string, lockFile: string): Promise<boolean> {
  const there = (path: string) => stat(path).then(() => true, () => false);
  return await there(join(root, ".git")) || await there(lockFile);
}

/** How messages name the folder each lock lies in. */
const WORDS = "the project";

/** Throws the writer's own refusal of `file` as it stands (a link, a folder), if it has one. */
function refuseTarget(file: string): void {
  const refusal = targetRefusal(file);
  if (refusal !== undefined) throw refusal;
}

/** The catalog of the person's own skills alone (no project), and where the user lock lives. */
async function personal(config: ResolvedConfig, io: Io, lockFirst: boolean, writing: boolean) {
  const file = userLockPath(config.stateDir);
  if (writing) refuseTarget(file);
  const shown = tildePath(file, config.home);
  const lock = lockFirst ? await readProjectLockOrRefuse(file, shown) : undefined;
  const catalog = await loadCatalog(config, { log: stderrLog(io) });
  const scope: Scope = {
    skill: (s) => lockScopeOf(s.origin, new Set()) === "user",
    source: () => true,
    left: "the project's own skills",
  };
  return {
    config,
    catalog,
    file,
    shown,
    lock,
    scope,
    within: config.dshHome,
    words: "the dsh home",
  };
}

/** Which skills and sources a lock holds, and what it leaves to the other lock (in words). */
interface Scope {
  skill: (skill: LockableSkill) => boolean;
  source: (source: ResolvedSource) => boolean;
  /** What the other lock holds, for the line saying what this one left out. */
  left: string;
}

/**
 * The project's own: its project-scope folders and the Git sources of its own trusted sources
 * file (see `../lock/scope.ts`); nothing from the person's home.
 */
async function projectScope(config: ResolvedConfig, root: string): Promise<Scope> {
  const { sources } = await collectProjectSources(config, root, () => {});
  const checkouts = new Set(sources.map((s) => s.dir));
  const keys = new Set(sources.map((s) => s.key));
  return {
    skill: (s) => lockScopeOf(s.origin, checkouts) === "project",
    source: (s) => keys.has(s.key),
    left: "personal skills (user folders, plugins, user-level sources)",
  };
}

/** How the CLI names one lock-file refusal: the file as shown, the reader's reason, the remedy. */
interface LockFileWords {
  shown: string;
  why: string;
  /** The command that writes that lock. */
  run: string;
}

/**
 * The CLI's one wording of each lock-file refusal, keyed by the core's kinds (a kind added there
 * that is not worded here is a compile error): every command that needs a lock says it alike.
 */
const LOCK_FILE_REFUSALS: Readonly<Record<LockFileRefusalKind, (words: LockFileWords) => string>> =
  {
    "no-lock": ({ shown, run }) => `no lock file at ${shown}; run "${run}" to write one`,
    "invalid-lock": ({ shown, why, run }) => `${shown}: ${why}; run "${run}" to rewrite it`,
  };

/** Options of {@linkcode lockFileError}. */
export interface LockFileErrorOptions {
  /** The reader's reason, for `invalid-lock` (default: none). */
  why?: string;
  /** The command that writes the lock (default: `lock`, the project's). */
  run?: string;
  /** What the line is about, before it (default: nothing; `mcp` says `--locked: `). */
  prefix?: string;
}

/**
 * The one line (exit 2) of a lock file at `shown` that cannot be used, in the CLI's one wording
 * of `kind`.
 *
 * @example
 * ```ts
 * import { lockFileError } from "./lock.ts";
 * const error = lockFileError("invalid-lock", "skills-anywhere.lock.json", { why: "not valid JSON" });
 * console.log(error.kind, error.message);
 * ```
 */
export function lockFileError(
  kind: LockFileRefusalKind,
  shown: string,
  options: LockFileErrorOptions = {},
): KindError<LockFileRefusalKind> {
  const run = `${PROGRAM} ${options.run ?? "lock"}`;
  const line = LOCK_FILE_REFUSALS[kind]({ shown, why: options.why ?? "", run });
  return new KindError(kind, `${options.prefix ?? ""}${line}`);
}

/** The lock file's refusal, in the one line `verify` and `lock` print for it (exit 2). */
function invalidLock(shown: string, why: string): KindError {
  return lockFileError("invalid-lock", shown, { why });
}

/**
 * The lock, or the one line (exit 2) of a command that needs one and finds none.
 *
 * @throws {KindError} On an expected failure (its `kind` says which).
 *
 * @example
 * ```ts
 * import { lockOrRefuse, readProjectLockOrRefuse } from "./lock.ts";
 * // Type-checked, not run by the doc test: it reads a lock file in the reader's home.
 * async function example() {
 *   const shown = "~/app/skills-anywhere.lock.json";
 *   const lock = lockOrRefuse(await readProjectLockOrRefuse("/home/me/app/skills-anywhere.lock.json", shown), shown);
 * }
 * ```
 */
export function lockOrRefuse(
  lock: ProjectLock | undefined,
  shown: string,
  user = false,
): ProjectLock {
  if (lock !== undefined) return lock;
  throw lockFileError("no-lock", shown, { run: user ? "lock --user" : "lock" });
}

/**
 * Reads and validates a lock in the project lock format (a project's lock or the user lock);
 * undefined when there is none. An invalid lock throws its one line (exit 2), naming `shown`
 * and how to rewrite it.
 *
 * @example
 * ```ts
 * import { readProjectLockOrRefuse } from "./lock.ts";
 * const lock = await readProjectLockOrRefuse("/repo/skills-anywhere.lock.json", "/repo/skills-anywhere.lock.json");
 * ```
 */
export async function readProjectLockOrRefuse(
  file: string,
  shown: string,
): Promise<ProjectLock | undefined> {
  const read = await readProjectLock(file);
  if (read === undefined) return undefined;
  if (!read.ok) throw invalidLock(shown, read.message);
  return read.lock;
}

/** Exit 1 with the closest names when a named skill is not published. */
function unknownNames(names: readonly string[], published: readonly string[], io: Io): boolean {
  const unknown = names.filter((name) => !published.includes(name));
  for (const name of unknown) {
    const hint = didYouMean(name, published, { show: quote });
    io.err(`${PREFIX}no skill named ${quote(name)}${hint}; run "${PROGRAM} list" to see them\n`);
  }
  return unknown.length > 0;
}

/**
 * Runs `lock`: writes every published skill (or, with names, replaces only
 * those entries of an existing lock) and every source. An entry the lock's own
 * parser would refuse (a folder name with a control character, …) is left out
 * with one line naming it, and the bytes are parsed again before they are
 * written. Exit 0 written, 1 an unknown name or an entry left out (the rest is
 * written), 2 no project, an invalid lock to update, or a lock that would not
 * parse (nothing written).
 *
 * @example
 * ```ts
 * import { runLock } from "./lock.ts";
 * import { processIo } from "./io.ts";
 * // Type-checked, not run by the doc test: it writes the lock of the project at /repo.
 * async function example() {
 *   await runLock(["pdf"], {}, "/repo", processIo());
 * }
 * ```
 */
export async function runLock(
  positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  const user = values.user === true;
  const { config, catalog, file, shown, lock, scope, within, words } = await project(cwd, io, {
    lockFirst: positionals.length > 0,
    user,
    writing: true,
    named: values.cwd !== undefined,
  });
  const published = catalog.report.skills.filter(scope.skill).map((s) => s.name);
  if (unknownNames(positionals, published, io)) return EXIT.failed;
  const names = positionals.length === 0 ? undefined : positionals;
  const now = await lockNow(catalog, config, io, scope, names);
  const signers = (lock ?? await previousLock(file, io))?.signers;
  if (signers !== undefined) now.signers = signers;
  if (names !== undefined) {
    // A personal entry an older project lock held is dropped, not kept (see ../lock/scope.ts).
    const kept = (lock?.skills ?? []).filter((s) => user || !isPersonalOrigin(s.origin));
    now.skills.push(...kept.filter((s) => !names.includes(s.name)));
  }
  const split = await splitLockable(now);
  const leftOut = split.refused.map((r) => leftOutEntry(r, now, catalog, config.home));
  for (const entry of leftOut) io.err(`${PREFIX}${leftOutLine(entry)}\n`);
  const written = split.lock;
  const text = await parsableText(written, shown);
  await writeWhole(file, text, { within, rootWords: words });
  if (!user) { for (const line of placeLines(placesOf(catalog))) io.err(`${PREFIX}${line}\n`); }
  const outside = catalog.report.skills.filter((s) => !scope.skill(s)).length;
  if (outside > 0) {
    const how = user ? `"${PROGRAM} lock" in the project` : `"${PROGRAM} lock --user"`;
    io.err(
      `${PREFIX}not in this lock: ${counted(outside, "skill")}, ${scope.left}; ${how} locks them\n`,
    );
  }
  if (values.json) {
    io.out(jsonText({
      file,
      lock: user ? "user" : "project",
      skills: written.skills.length,
      sources: written.sources.length,
      outside: outside,
      left_out: leftOut.map(({ list, name, path, reason }) => ({ list, name, path, reason })),
    }));
  } else {
    io.out(
      `locked ${counted(written.skills.length, "skill")} (${
        counted(written.sources.length, "source")
      }) in ${escapeTerminal(shown)}\n`,
    );
  }
  return leftOut.length > 0 ? EXIT.failed : EXIT.ok;
}

/**
 * An entry `lock` left out: its list, its name (a source's lock key), where it is (absolute; a
 * skill's file, a source's checkout), how it is shown (a skill's file, a source's one name) and why.
 */
interface LeftOut {
  list: RefusedEntry["list"];
  name: string;
  path: string | null;
  shown: string;
  reason: string;
}

/** The skill or source a refused entry stands for, with its path. */
function leftOutEntry(
  refused: RefusedEntry,
  lock: ProjectLock,
  catalog: Awaited<ReturnType<typeof loadCatalog>>,
  home: string,
): LeftOut {
  if (refused.list === "sources") {
    const source = lock.sources[refused.index];
    const found = catalog.sources.find((s) => s.key === source.key);
    const path = found?.dir ?? null;
    const shown = lockedSourceName(source, catalog.sources);
    return { list: "sources", name: source.key, path, shown, reason: refused.message };
  }
  const skill = lock.skills[refused.index];
  const found = catalog.report.skills.find((s) =>
    s.name === skill.name && s.relativePath === skill.path
  );
  const path = found?.path ?? null;
  const shown = path === null ? skill.path : tildePath(path, home);
  return { list: "skills", name: skill.name, path, shown, reason: refused.message };
}

/**
 * The one line of an entry left out, its path quoted and everything escaped: a skill with its file,
 * a source by its one name only (its cache folder is where it is kept, not what it is).
 */
function leftOutLine(entry: LeftOut): string {
  const what = entry.list === "skills"
    ? `skill ${quote(entry.name)} at ${quote(entry.shown)}`
    : `source ${quote(entry.shown)}`;
  return `left out of the lock: ${what}: ${escapeTerminal(entry.reason)}`;
}

/** The last guard: the bytes about to be written must parse, else nothing is written (exit 2). */
async function parsableText(lock: ProjectLock, shown: string): Promise<string> {
  const checked = await checkedLockText(lock);
  if (checked.ok) return checked.text;
  throw new KindError(
    "unparsable-lock",
    `${shown}: not written: its own parser would refuse it (${checked.message})`,
  );
}

/** The lock being rewritten, to keep its signers; an invalid one is replaced (said on stderr). */
async function previousLock(file: string, io: Io): Promise<ProjectLock | undefined> {
  const read = await readProjectLock(file);
  if (read === undefined || read.ok) return read?.lock;
  io.err(`${PREFIX}the old lock was invalid (${read.message}); it is replaced, signers included\n`);
  return undefined;
}

function lockNow(
  catalog: Awaited<ReturnType<typeof loadCatalog>>,
  config: ResolvedConfig,
  io: Io,
  scope: Scope,
  names?: readonly string[],
): Promise<ProjectLock> {
  return currentLock(catalog, {
    lockFile: config.lockFile,
    names,
    warn: stderrWarn(io),
    include: scope.skill,
    includeSource: scope.source,
  });
}

/**
 * Runs `verify`: compares the project with its lock. Exit 0 all match, 1 any
 * difference, 2 no lock or an invalid one.
 *
 * @example
 * ```ts
 * import { runVerify } from "./lock.ts";
 * import { processIo } from "./io.ts";
 * // Type-checked, not run by the doc test: it verifies the project at /repo and prints to this process's stdout.
 * async function example() {
 *   await runVerify([], {}, "/repo", processIo());
 * }
 * ```
 */
export async function runVerify(
  _positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  const format = reportFormat(values);
  const user = values.user === true;
  const { config, catalog, file, shown, lock, scope, within } = await project(cwd, io, {
    lockFirst: true,
    user,
  });
  const locked = lockOrRefuse(lock, shown, user);
  const now = await lockNow(catalog, config, io, scope);
  const report = compareLocks(locked, now);
  const sourceName = (key: string) =>
    lockedSourceName(
      locked.sources.find((s) => s.key === key) ?? now.sources.find((s) => s.key === key) ??
        { key },
      catalog.sources,
    );
  const mine = catalog.report.skills.filter(scope.skill);
  await addSignatures(report, locked, now, mine, user ? within : catalog.projectRoot!, shown);
  if (!user) {
    addPlaces(report, placesOf(catalog));
    report.outside_plugins = outsidePlugins(catalog, config.home);
  }
  if (format === "sarif") {
    const skillFiles = new Map(mine.map((s) => [s.name, s.path]));
    const root = user ? within : catalog.projectRoot ?? cwd;
    io.out(jsonText(verifySarif(report, {
      root,
      lockFile: file,
      skillFiles,
      lockLines: await lockFileLines(file),
      signaturesRequired: locked.signers?.require === true,
      sourceName,
    })));
  } else {
    io.out(
      format === "json"
        ? jsonText(report)
        : renderReport(report, shown, locked.signers?.require === true, outStyles(io), sourceName),
    );
  }
  return report.matches ? EXIT.ok : EXIT.failed;
}

/** Where the lock's entries sit in the file just verified (none when it cannot be read again). */
async function lockFileLines(file: string): Promise<LockLines | undefined> {
  try {
    // The same confined read as the lock's (`readProjectLock`).
    const { bytes } = await readBounded(file, { maxBytes: MAX_LOCK_BYTES, root: dirname(file) });
    return lockLines(new TextDecoder().decode(bytes));
  } catch (error) {
    if (error instanceof ReadError) return undefined;
    throw error;
  }
}

/** What the project walk found against the lock: names two places share, parts not covered. */
interface Places {
  collisions: PlaceCollision[];
  uncovered: UncoveredPlace[];
}

function placesOf(catalog: Awaited<ReturnType<typeof loadCatalog>>): Places {
  const root = catalog.projectRoot;
  return {
    collisions: root === undefined ? [] : placeCollisions(catalog.report.skills, root),
    uncovered: catalog.uncovered ?? [],
  };
}

/**
 * The plugins the project's own `.claude/settings.json` enables, each with the skills it has in
 * this home: never in the project's lock (see `../lock/scope.ts`), named so a teammate and CI see
 * what the lock leaves out; not differences.
 */
function outsidePlugins(
  catalog: Awaited<ReturnType<typeof loadCatalog>>,
  home: string,
): OutsidePlugin[] {
  const root = catalog.projectRoot;
  if (root === undefined) return [];
  const installed = new Set(
    enabledPlugins(home, { projectRoot: root }).map((p) => `${p.plugin}@${p.marketplace}`),
  );
  return projectEnabledPlugins(root).map((key) => ({
    plugin: key,
    installed: installed.has(key),
    skills: catalog.report.skills.filter((s) =>
      s.origin.kind === "claude-plugins" && `${s.origin.plugin}@${s.origin.marketplace}` === key
    ).map((s) => s.name).sort(),
  }));
}

/** One line per plugin the project enables that its lock leaves out. */
function outsidePluginLines(plugins: readonly OutsidePlugin[], st: Styles): string[] {
  return plugins.map((p) => {
    const here = p.installed
      ? `${counted(p.skills.length, "skill")} here${
        p.skills.length === 0 ? "" : `: ${p.skills.map(quote).join(", ")}`
      }`
      : "not installed here";
    return `${st.warn("outside")} plugin ${
      quote(p.plugin)
    } (the project's .claude/settings.json enables it; ${here}): never in the project's lock`;
  });
}

/** Each collision and uncovered part in the report, as differences. */
function addPlaces(report: VerifyReport, places: Places): void {
  report.collisions = places.collisions;
  report.uncovered = places.uncovered;
  if (places.collisions.length + places.uncovered.length > 0) report.matches = false;
}

const UNCOVERED_WORDS: Readonly<Record<UncoveredPlace["reason"], string>> = {
  depth: "deeper than the project walk goes",
  entries: "past the project walk's entry limit",
  unreadable: "cannot be listed",
};

/** One line per collision (each place, quoted) and per part of the tree not covered. */
function placeLines(places: Places, st?: Styles): string[] {
  const bad = st?.bad ?? ((text: string) => text);
  return [
    ...places.collisions.map((c) =>
      `${bad("collision")} ${quote(c.name)}: declared by ${
        c.places.map((p) => `${quote(p.file)} (as ${quote(p.published)})`).join(", ")
      }; rename all but one`
    ),
    ...places.uncovered.map((u) =>
      `${bad("not covered")} ${quote(u.path)} (${
        UNCOVERED_WORDS[u.reason]
      }): not locked, never served under the lock`
    ),
  ];
}

/**
 * With trusted signers in the lock: each locked skill's signature verdict in the report; a
 * failing one is a difference when the lock requires signatures. An unusable allowed-signers
 * file is one line, exit 2.
 */
async function addSignatures(
  report: VerifyReport,
  locked: ProjectLock,
  now: ProjectLock,
  skills: readonly LockableSkill[],
  root: string,
  shown: string,
): Promise<void> {
  if (locked.signers === undefined) return;
  const directories = new Map(skills.map((s) => [s.name, s.directory]));
  const checked = await checkLockSignatures(locked, now, directories, root);
  if (!checked.ok) throw new KindError("bad-allowed-signers", `${shown}: ${checked.message}`);
  report.signatures = checked.signatures;
  report.signed = checked.signed;
  if (locked.signers.require && checked.signatures.length > 0) report.matches = false;
}

/** One line per difference, every name and path quoted and escaped, then a summary. */
function renderReport(
  report: VerifyReport,
  shown: string,
  required: boolean,
  st: Styles,
  sourceName: (key: string) => string,
): string {
  const file = escapeTerminal(shown);
  const warnings = signatureLines(report, required, st);
  const outside = outsidePluginLines(report.outside_plugins ?? [], st);
  if (report.matches) {
    const signed = report.signed === undefined ? "" : `, ${report.signed.length} signed`;
    return [
      ...warnings,
      ...outside,
      st.ok(`verified ${counted(report.locked, "skill")}${signed}: all match ${file}`),
    ].join("\n") + "\n";
  }
  const lines: string[] = [];
  for (const c of report.changed) {
    const what = [
      c.skill_md ? "SKILL.md" : "",
      c.locked_bundle_sha256 !== c.current_bundle_sha256 ? "bundle" : "",
    ]
      .filter((w) => w !== "").join(" and ");
    lines.push(`${st.bad("changed")} ${quote(c.name)} (${what})`);
    if (c.bundle_error !== null) lines.push(`  cannot be bundled now: ${quote(c.bundle_error)}`);
    for (const p of c.changed) lines.push(`  changed ${quote(p)}`);
    for (const p of c.added) lines.push(`  added ${quote(p)}`);
    for (const p of c.removed) lines.push(`  removed ${quote(p)}`);
  }
  for (const u of report.unverifiable) {
    const md = u.skill_md ? "; SKILL.md changed too" : "";
    lines.push(
      `${st.bad("unverifiable")} ${
        quote(u.name)
      } (its files cannot be checked against the lock${md})`,
    );
    lines.push(`  ${escapeTerminal(u.kind)}: ${quote(u.reason)}`);
  }
  for (const name of report.missing) {
    lines.push(`${st.bad("missing")} ${quote(name)} (locked, not found now)`);
  }
  for (const name of report.added) {
    lines.push(`${st.warn("added")} ${quote(name)} (found, not locked)`);
  }
  for (const m of report.moved) {
    const at = (o: { origin: Record<string, string>; path: string }) =>
      `${quote(originLabelOf(o.origin))} ${quote(o.path)}`;
    lines.push(`${st.warn("moved")} ${quote(m.name)}: ${at(m.locked)} -> ${at(m.current)}`);
  }
  for (const s of report.sources) {
    lines.push(
      `${st.warn("source")} ${quote(sourceName(s.key))}: locked ${
        commitText(s.locked_commit)
      }, now ${commitText(s.current_commit)}`,
    );
  }
  lines.push(...placeLines({
    collisions: report.collisions ?? [],
    uncovered: report.uncovered ?? [],
  }, st));
  if (required) lines.push(...warnings);
  const n = lines.filter((l) => !l.startsWith("  ")).length;
  if (!required) lines.push(...warnings);
  lines.push(...outside);
  lines.push(st.bad(`${counted(n, "difference")} from ${file}`));
  return lines.join("\n") + "\n";
}

/** One line per signature difference: red when it fails `verify`, yellow when only reported. */
function signatureLines(report: VerifyReport, required: boolean, st: Styles): string[] {
  const failing = required;
  return (report.signatures ?? []).map((s) =>
    `${failing ? st.bad("signature") : st.warn("signature")} ${quote(s.name)}: ${
      escapeTerminal(s.kind)
    }: ${escapeTerminal(s.message)}`
  );
}

/** A locked origin in words: its kind, then its other fields in key order. */
function originLabelOf(origin: Record<string, string>): string {
  const rest = Object.keys(origin).filter((k) => k !== "kind").sort().map((k) => origin[k]);
  return [origin.kind, ...rest].join(" ");
}

function commitText(commit: string | null): string {
  return commit === null ? "(none)" : escapeTerminal(commit);
}
