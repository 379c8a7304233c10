/**
 * Discovery: walk every root, read and parse every skill file once, then
 * apply precedence, dedupe, exclusion and collision renaming.
 *
 * Files are read through `lib/fs` (regular files only, at most 1 MiB,
 * strict UTF-8, never blocking; a file reached through a link must report
 * the size it reads).
 * Invalid files are recorded and never stop discovery. Nothing is written
 * anywhere, and the network is never touched.
 *
 * Link boundaries. What a root holds may come from a stranger, so where its
 * symlinks may lead depends on its kind (`Root.source`); the boundary is a
 * real directory (`realpath` taken once per root):
 *
 * - project roots (`anywhere-project`: agents' project folders and extra
 *   project folders): the project root, `Root.confineTo` (set to the project
 *   root by `buildRoots`; `Root.project`, then the root itself, when absent).
 *   A cloned project must not reach the rest of the disk.
 * - Claude Code plugin roots (`anywhere-claude-plugins`): the plugin's
 *   install folder (`Root.confineTo`, else the root itself).
 * - Git source roots (`anywhere-source`): the checkout, `Root.confineTo`
 *   (`ResolvedSource.dir`; the root itself when absent). The `--path`
 *   sub-folder is below it and must not leave it either.
 * - the user's own folders (`anywhere-user`): no boundary, links lead
 *   anywhere (tools install skills by linking) except under `/proc`, `/sys`
 *   and `/dev`.
 *
 * The root's own path below its boundary is checked first (a project's
 * `.claude/skills` that is itself a link out of the project publishes
 * nothing); then every entry the walk sees as a link, and every final link
 * the reader meets, must resolve inside. Each refusal is an invalid file with
 * `refusal` set and a reason in words (`symlink leaves the project:
 * setup/SKILL.md -> /proc/self/environ`); the link's target is never read.
 * The boundary travels with each skill (`confineTo`) so a later fresh read
 * applies the same rule.
 *
 * The read cache. With `cache` (a {@linkcode DiscoveryCache}), discovery is
 * incremental: a root whose walk is still known (nothing under it was
 * {@linkcode DiscoveryCache.forget forgotten}, and it sits at the same place in
 * the root list) is not walked again. In a root walked again because paths
 * inside it were forgotten, a file is read and parsed again only when one of
 * those paths is the file or lies in its skill directory (the others are taken
 * as they were, without a `stat`); in a root forgotten as a whole (its own
 * path, or a folder holding it), a file is read again only when its stamp
 * changed (`lstat`, and `stat` through a link: device, inode, size,
 * modification and change times). A file changed less than
 * `settleMs` ago is read but not kept (a same-size rewrite within one
 * timestamp tick cannot leave a stale parse). The cache keeps parse outcomes
 * and a hash of each body, never a file's text. A skill of the report is the
 * same object (`===`) as in the cache's previous report exactly when nothing
 * about it changed: not its file, not anything under its directory, not any
 * field (name, rename, rank, …).
 *
 * The parse cache. With `parsed` (a `ParseCache` kept on disk between one-shot
 * runs, see `_parse_cache.ts`), every root is walked, and a regular file whose
 * stamp and parse mode match a kept row is not read: its record is built from
 * the row as from a fresh parse. Links, refused files and files that do not
 * parse are read as always.
 *
 * @example
 * ```ts
 * import { discover } from "./_discover.ts";
 * import { buildRoots } from "./_roots.ts";
 * import { resolveConfig } from "./_config.ts";
 * const roots = buildRoots(resolveConfig({}, { HOME: "/home/me" }), { sources: [] });
 * const report = await discover(roots, { lenient: true });
 * for (const skill of report.skills) console.log(skill.name, skill.path);
 * ```
 * @module
 */
import { errorText } from "../errors.ts";
import { MAX_SKILL_READ_BYTES } from "../limits.ts";
import { type Log, silentLog } from "../util.ts";
import { lstatSync, realpathSync, statSync } from "node:fs";
import { setImmediate } from "node:timers";
import { dirname, relative, sep } from "node:path";
import { fileStampSync, readBoundedTextSync, ReadError, resolveLink } from "../fs/mod.ts";
import { parseSkillMarkdown } from "../skill/mod.ts";
import type { LockedNames } from "../lock/mod.ts";
import { applyPrecedence, type DroppedSkill } from "./_precedence.ts";
import type { Root } from "./_roots.ts";
import type { DiscoveredSkill, InvalidFile, SourceLabel } from "./_types.ts";
import { type FoundFile, walkRoot } from "./_walk.ts";
import type { CachedParse, ParseCache } from "./_parse_cache.ts";

/** What happened to one root. */
export interface RootReport {
  root: Root;
  exists: boolean;
  count: number;
}

/** The result of {@linkcode discover}. */
export interface DiscoveryReport {
  skills: DiscoveredSkill[];
  dropped: DroppedSkill[];
  invalid: InvalidFile[];
  roots: RootReport[];
  /** False when some root could not be read completely. */
  complete: boolean;
}

/** Options of {@linkcode discover}. */
export interface DiscoverOptions {
  lenient?: boolean;
  dedupe?: boolean;
  excludeSkills?: readonly string[];
  /** The project lock's place of each name: that skill keeps the name in a collision. */
  locked?: LockedNames;
  signal?: AbortSignal;
  log?: Log;
  /** Called as files are read: (read so far, total found). */
  onProgress?: (done: number, total: number) => void;
  /**
   * Keeps walks and parses between discoveries (see the module doc).
   *
   * @default none
   */
  cache?: DiscoveryCache;
  /**
   * Takes the parse of an unchanged regular file from a parse cache kept
   * between runs, and keeps new parses in it (see `_parse_cache.ts`); the
   * caller saves it. Not with `cache`, which wins.
   *
   * @default none
   */
  parsed?: ParseCache;
}

/** A root's link boundary: its real directory and how a reason names it. */
interface Boundary {
  /** Lexical path (relative paths in reasons start here). */
  path: string;
  /** Real path. */
  real: string;
  words: string;
}

const BOUNDARY_WORDS: Record<SourceLabel, string | undefined> = {
  "anywhere-project": "the project",
  "anywhere-claude-plugins": "the plugin folder",
  "anywhere-source": "the Git checkout",
  "anywhere-user": undefined,
};

/** The boundary of `root` (see the module doc); `undefined` for the user's own folders. */
function boundaryOf(root: Root): Omit<Boundary, "real"> | undefined {
  const words = BOUNDARY_WORDS[root.source];
  if (words === undefined) return undefined;
  const path = root.confineTo ??
    (root.source === "anywhere-project" ? root.project : undefined) ?? root.path;
  return { path, words };
}

/**
 * The reason shown for a file the reader refused: the `ReadError`'s own words
 * (one wording per kind), with the link spelled out for a refused link and an
 * explanation for a pseudo-file.
 */
function readFailure(error: ReadError, base: string, boundary: Boundary | undefined): string {
  switch (error.kind) {
    case "not-utf8":
    case "too-large":
    case "not-regular":
      return error.message;
    case "outside":
      return linkRefusal(error, base, boundary);
    case "size-mismatch":
      return `not a real file: it ${error.message} (a /proc or /sys file, or one being written)`;
    default:
      return `unreadable: ${error.code ?? error.message}`;
  }
}

/** The reason for a refused link: which boundary it leaves, and the link relative to `base`. */
function linkRefusal(error: ReadError, base: string, boundary: Boundary | undefined): string {
  const link = error.link;
  const rel = link === undefined ? "" : toPosix(relativeTo(base, link.path)) || link.path;
  const where = link === undefined ? "" : `: ${rel} -> ${link.target}`;
  return boundary === undefined
    ? `symlink leads into /proc, /sys or /dev${where}`
    : `symlink leaves ${boundary.words}${where}`;
}

function invalidFor(
  error: ReadError,
  path: string,
  root: Root,
  boundary: Boundary | undefined,
  base = root.path,
): InvalidFile {
  const invalid: InvalidFile = {
    path,
    root: root.path,
    kind: error.kind,
    reason: readFailure(error, base, boundary),
  };
  if (error.kind === "outside") invalid.refusal = "link";
  if (error.kind === "size-mismatch") invalid.refusal = "pseudo-file";
  return invalid;
}

interface Scanned {
  exists: boolean;
  files: FoundFile[];
  complete: boolean;
  boundary?: Boundary;
  /** The root itself, refused (its path leaves its boundary). */
  refused?: InvalidFile;
}

function scanRoot(root: Root, log: Log): Scanned {
  let info;
  try {
    // Most of the 130-odd roots do not exist: `undefined` costs less than a thrown error.
    info = statSync(root.path, { throwIfNoEntry: false });
    if (info === undefined) return { exists: false, files: [], complete: true };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      return { exists: false, files: [], complete: true };
    }
    log("warn", `cannot access ${root.path}: ${errorText(error)}`);
    return { exists: false, files: [], complete: false };
  }
  if (!info.isDirectory()) return { exists: false, files: [], complete: true };
  let boundary: Boundary | undefined;
  try {
    const lexical = boundaryOf(root);
    if (lexical !== undefined) boundary = { ...lexical, real: realpathSync(lexical.path) };
    resolveLink(root.path, { within: boundary?.real });
  } catch (error) {
    if (error instanceof ReadError && error.kind === "outside") {
      const base = boundary?.path ?? root.path;
      const refused = invalidFor(error, root.path, root, boundary, base);
      return { exists: true, files: [], complete: true, boundary, refused };
    }
    log("warn", `cannot access ${root.path}: ${errorText(error)}`);
    return { exists: false, files: [], complete: false };
  }
  try {
    const files = walkRoot({ ...root, within: boundary?.real });
    return { exists: true, files, complete: true, boundary };
  } catch (error) {
    log("warn", `discovery under ${root.path} failed: ${errorText(error)}`);
    return { exists: true, files: [], complete: false, boundary };
  }
}

/** `relative(root, path)` with a fast path for the usual case of a path below the root. */
function relativeTo(root: string, path: string): string {
  const prefix = root.endsWith(sep) ? root : root + sep;
  return path.startsWith(prefix) && !path.includes(`${sep}..`)
    ? path.slice(prefix.length)
    : relative(root, path);
}

function toPosix(path: string): string {
  return sep === "/" ? path : path.split(sep).join("/");
}

/** Bodies up to this many UTF-16 code units are their own dedupe key (see {@linkcode bodyKey}). */
const MAX_BODY_AS_KEY = 16 * 1024;

/**
 * The dedupe key of a parsed body: equal bodies have equal keys. A body of
 * up to {@linkcode MAX_BODY_AS_KEY} code units is its own key (a string map
 * hashes it natively, far cheaper than a digest per skill); a longer one is
 * keyed by its length and a 32-bit FNV-1a hash. Keys only pick the pairs
 * precedence compares: a duplicate is always confirmed by real path or bundle
 * digest, so two bodies that share a key by chance are never merged. The
 * keys live only while discovery runs.
 */
function bodyKey(body: string, hashed = false): string {
  if (body.length <= MAX_BODY_AS_KEY && !hashed) return body;
  let hash = 0x811c9dc5;
  for (let i = 0; i < body.length; i++) {
    hash ^= body.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return `\u0000${body.length}:${(hash >>> 0).toString(16)}`;
}

/** One found file, read: a published skill, a file that could not become one, or nothing. */
type ReadOutcome =
  | { ok: true; skill: DiscoveredSkill; body: string }
  | { ok: false; invalid: InvalidFile }
  | undefined;

/** Where a found file sits: its root, that root's position and link boundary. */
interface Place {
  root: Root;
  rootIndex: number;
  boundary: Boundary | undefined;
}

/**
 * Reads one found file as strict UTF-8 text through `lib/fs`; a refusal is an
 * invalid file, and an unverified `SKILL.md` that is not there is `undefined`.
 */
function readText(found: FoundFile, place: Place): string | InvalidFile | undefined {
  const { root, boundary } = place;
  if (found.refused !== undefined) return invalidFor(found.refused, found.file, root, boundary);
  try {
    return readBoundedTextSync(found.file, {
      maxBytes: MAX_SKILL_READ_BYTES,
      followSymlinks: true,
      within: boundary?.real,
    });
  } catch (error) {
    if (!(error instanceof ReadError)) throw error;
    if (found.unverified && error.kind === "missing") return undefined;
    return invalidFor(error, found.file, root, boundary);
  }
}

/** The catalog record of a parsed skill found at `found` in `place`. */
function toDiscovered(skill: CachedParse, found: FoundFile, place: Place): DiscoveredSkill {
  const { root, rootIndex, boundary } = place;
  const discovered: DiscoveredSkill = {
    name: skill.name,
    nameDeclared: skill.nameDeclared,
    description: skill.description,
    invocation: skill.invocation,
    source: root.source,
    rank: root.rank,
    path: found.file,
    directory: found.directory,
    metadata: skill.metadata,
    origin: root.origin,
    root: root.path,
    relativePath: found.relative,
    rootIndex,
    repairs: skill.warnings,
    warnings: [...skill.warnings],
  };
  if (skill.whenToUse !== undefined) discovered.whenToUse = skill.whenToUse;
  if (boundary !== undefined) discovered.confineTo = boundary.real;
  return discovered;
}

/** Reads and parses one found file (see {@linkcode ReadOutcome}); `hashed`: short body keys. */
function readSkill(found: FoundFile, place: Place, lenient: boolean, hashed = false): ReadOutcome {
  const text = readText(found, place);
  if (text === undefined) return undefined;
  if (typeof text !== "string") return { ok: false, invalid: text };
  const result = parseSkillMarkdown(text, {
    fallbackName: found.fallbackName,
    lenient,
    requireNamedFrontmatter: found.flat === true,
  });
  if (!result.ok) {
    return {
      ok: false,
      invalid: {
        path: found.file,
        root: place.root.path,
        kind: result.kind,
        reason: result.message,
      },
    };
  }
  const body = bodyKey(result.skill.content, hashed);
  return { ok: true, skill: toDiscovered(result.skill, found, place), body };
}

/**
 * {@linkcode readSkill} through a parse cache: a regular file whose stamp and
 * parse mode match a kept row is not read; any other file is read as always,
 * and a skill it yields is kept (the cache decides whether it settled).
 */
function readThrough(
  found: FoundFile,
  place: Place,
  lenient: boolean,
  cache: ParseCache,
): ReadOutcome {
  if (found.refused !== undefined) return readSkill(found, place, lenient, true);
  const stamped = fileStampSync(found.file);
  if (stamped === undefined && found.unverified) return undefined;
  if (stamped?.kind !== "file") return readSkill(found, place, lenient, true);
  const mode = `${lenient ? "l" : "s"}${found.flat ? "f" : "d"}:${found.fallbackName}`;
  const known = cache.lookup(found.file, stamped.stamp, mode);
  if (known !== undefined) {
    return { ok: true, skill: toDiscovered(known.parsed, found, place), body: known.body };
  }
  const outcome = readSkill(found, place, lenient, true);
  if (outcome?.ok) {
    const { skill } = outcome;
    const parsed: CachedParse = {
      name: skill.name,
      nameDeclared: skill.nameDeclared,
      description: skill.description,
      invocation: skill.invocation,
      metadata: skill.metadata,
      warnings: skill.repairs,
    };
    if (skill.whenToUse !== undefined) parsed.whenToUse = skill.whenToUse;
    cache.record(found.file, stamped.stamp, stamped.newest, mode, { parsed, body: outcome.body });
  }
  return outcome;
}

/**
 * Reads every found file in order, yielding to the event loop every 1,024
 * files so a server can answer other requests (and an abort arrive) during a
 * long discovery.
 */
async function readAll(
  roots: readonly Root[],
  scanned: readonly (Scanned | undefined)[],
  options: DiscoverOptions,
): Promise<ReadOutcome[][]> {
  const { signal, lenient = true } = options;
  const jobs = scanned.flatMap((result, rootIndex) => {
    // One place per root: the read cache keys its outcomes by it.
    const place: Place = { root: roots[rootIndex], rootIndex, boundary: result?.boundary };
    return (result?.files ?? []).map((found) => ({ found, place }));
  });
  const outcomes: ReadOutcome[] = [];
  for (let done = 0; done < jobs.length; done++) {
    if (done > 0 && done % 1024 === 0) {
      await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
      options.onProgress?.(done, jobs.length);
    }
    const { found, place } = jobs[done];
    outcomes.push(
      options.cache !== undefined
        ? options.cache.read(found, place, lenient)
        : options.parsed !== undefined
        ? readThrough(found, place, lenient, options.parsed)
        : readSkill(found, place, lenient),
    );
  }
  if (jobs.length > 0) options.onProgress?.(jobs.length, jobs.length);
  // Back to one list per root (the jobs are in root order).
  const perRoot = scanned.map((): ReadOutcome[] => []);
  jobs.forEach((job, i) => perRoot[job.place.rootIndex].push(outcomes[i]));
  return perRoot;
}

/** Splits read outcomes into skills and invalid files (refused roots first), counting per root. */
function tally(parts: readonly RootPart[]) {
  const found: DiscoveredSkill[] = [];
  const bodies = new Map<DiscoveredSkill, string>();
  const invalid: InvalidFile[] = parts.flatMap((s) => s.refused === undefined ? [] : [s.refused]);
  const counts = new Array<number>(parts.length).fill(0);
  for (const outcome of parts.flatMap((part) => part.outcomes)) {
    if (outcome === undefined) continue;
    if (!outcome.ok) invalid.push(outcome.invalid);
    else {
      found.push(outcome.skill);
      bodies.set(outcome.skill, outcome.body);
      counts[outcome.skill.rootIndex]++;
    }
  }
  return { found, bodies, invalid, counts };
}

/**
 * Discovers skills under `roots` (in precedence order): scan each root, read
 * every file found, then apply precedence. See the module doc. Rejects only
 * when `signal` is aborted.
 *
 * @example
 * ```ts
 * import { discover } from "./_discover.ts";
 * const report = await discover([], { lenient: true });
 * console.log(report.skills.length, report.complete); // 0 true
 * ```
 */
export async function discover(
  roots: readonly Root[],
  options: DiscoverOptions = {},
): Promise<DiscoveryReport> {
  const { signal, cache } = options;
  const log = options.log ?? silentLog;
  signal?.throwIfAborted();
  // Discovery uses synchronous system calls: for thousands of small files, direct calls are
  // several times faster than promise round trips through a thread pool (see bench/).
  const known = roots.map((root, i) => cache?.root(root, i));
  const scanned = roots.map((root, i) => known[i] === undefined ? scanRoot(root, log) : undefined);
  signal?.throwIfAborted();
  const read = await readAll(roots, scanned, options);
  signal?.throwIfAborted();
  const parts = roots.map((_, i): RootPart => {
    const part = known[i];
    if (part !== undefined) return part;
    const { exists, complete, refused } = scanned[i]!;
    return { exists, complete, ...(refused ? { refused } : {}), outcomes: read[i] };
  });
  const { found, bodies, invalid, counts } = tally(parts);
  const precedence = await applyPrecedence(found, {
    dedupe: options.dedupe ?? true,
    excludeSkills: options.excludeSkills ?? [],
    bodyKey: (skill) => bodies.get(skill),
    locked: options.locked,
  });
  const { skills, dropped } = cache === undefined
    ? precedence
    : cache.settle(roots, parts, known.map((part) => part === undefined), found, precedence);
  return {
    skills,
    dropped,
    invalid,
    roots: roots.map((root, i) => ({ root, exists: parts[i].exists, count: counts[i] })),
    complete: parts.every((s) => s.complete),
  };
}

/** One root's share of a discovery: whether it exists, and what each file found became. */
interface RootPart {
  exists: boolean;
  complete: boolean;
  /** The root itself, refused (its path leaves its boundary). */
  refused?: InvalidFile;
  outcomes: readonly ReadOutcome[];
}

/** What the read cache keeps of one file: its stamp, where it was found, and what it became. */
interface CachedFile {
  stamp: string;
  /** The place and the walk's record, as a key: the outcome holds for these alone. */
  placeKey: string;
  outcome: ReadOutcome;
}

/** Options of {@linkcode DiscoveryCache}. */
export interface DiscoveryCacheOptions {
  /**
   * A file whose modification or change time is less than this many milliseconds old is read but
   * not kept (default 1000; see the module doc).
   *
   * @default {1000}
   */
  settleMs?: number;
  /**
   * Called with the path of each skill file actually read (to count reads).
   *
   * @default none
   */
  onRead?: (path: string) => void;
}

/** A skill's key across reports: its file and its root's position. */
function skillKey(skill: DiscoveredSkill): string {
  return `${skill.rootIndex}\u0000${skill.path}`;
}

/**
 * A file's stamp (`lstat`, then `stat` through a link: device, inode, size, modification and
 * change times) and its newest time; `undefined` when it is not there.
 */
function stampOf(path: string): { stamp: string; newest: number } | undefined {
  try {
    const link = lstatSync(path, { throwIfNoEntry: false });
    if (link === undefined) return undefined;
    const stat = link.isSymbolicLink() ? statSync(path, { throwIfNoEntry: false }) : link;
    const one = (s: typeof link) => `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
    if (stat === undefined) return { stamp: `${one(link)}/-`, newest: link.ctimeMs };
    const stamp = stat === link ? one(link) : `${one(link)}/${one(stat)}`;
    return { stamp, newest: Math.max(link.mtimeMs, link.ctimeMs, stat.mtimeMs, stat.ctimeMs) };
  } catch {
    return undefined;
  }
}

/** The cache key of what the walk recorded of a file (its path is the map key). */
function foundKey(found: FoundFile): string {
  const marks = `${found.unverified ? "u" : ""}${found.flat ? "f" : ""}`;
  return `${found.directory}\u0000${found.relative}\u0000${found.fallbackName}\u0000${marks}`;
}

/** Whether two string lists are equal. */
function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}

/**
 * What incremental discovery keeps between runs (see the module doc): each root's last walk and
 * outcomes, each file's stamp and parse outcome (no text), and the last report's skills, so that
 * an unchanged skill stays the same object. One cache serves one root list at a time.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { discover, DiscoveryCache } from "./_discover.ts";
 * const cache = new DiscoveryCache({ onRead: (path) => console.log("read", path) });
 * const first = await discover([], { cache });
 * cache.forget(["/home/me/.claude/skills/pdf/SKILL.md"]);
 * const second = await discover([], { cache });
 * assert.equal(first.skills.length === second.skills.length, true);
 * ```
 */
export class DiscoveryCache {
  readonly #settleMs: number;
  readonly #onRead?: (path: string) => void;
  /** Each root's last share, by root path, with the key of the root it was found as. */
  #roots = new Map<string, { key: string; part: RootPart }>();
  /** Each skill file's outcome, by path. */
  #files = new Map<string, CachedFile>();
  /** The files each root held at its last walk, by root path. */
  readonly #rootFiles = new Map<string, Set<string>>();
  /** The skill files of each skill directory (flat files are not listed: their folder is a root). */
  #dirs = new Map<string, string>();
  /** The last report's skills by key, each with the object discovery made before precedence. */
  #finals = new Map<string, { base: DiscoveredSkill; final: DiscoveredSkill }>();
  /** Roots forgotten only for paths inside them, and roots forgotten as a whole, since the last run. */
  readonly #precise = new Set<string>();
  readonly #imprecise = new Set<string>();
  /** Each place's key (a root's position, fields and boundary), computed once per discovery. */
  #places = new WeakMap<Place, string>();
  /** How many skill files were read and parsed, and how many outcomes were reused. */
  readonly stats = { reads: 0, reused: 0 };

  /** A cache; see {@linkcode DiscoveryCacheOptions} for the defaults. */
  constructor(options: DiscoveryCacheOptions = {}) {
    this.#settleMs = options.settleMs ?? 1000;
    this.#onRead = options.onRead;
  }

  /**
   * Forgets what is known under each of `paths` (absolute): a root walked again when a path lies
   * in it (or holds it), and a skill read again when a path is its file or lies in its directory.
   */
  forget(paths: Iterable<string>): void {
    for (const path of paths) {
      for (const [rootPath] of this.#roots) {
        if (path === rootPath || isBelow(rootPath, path)) {
          // The root itself (or a folder holding it) changed: every file's stamp is compared.
          this.#roots.delete(rootPath);
          this.#precise.delete(rootPath);
          this.#imprecise.add(rootPath);
        } else if (isBelow(path, rootPath)) {
          // A path inside it: only what lies under that path is read again.
          this.#roots.delete(rootPath);
          if (!this.#imprecise.has(rootPath)) this.#precise.add(rootPath);
        }
      }
      this.#files.delete(path);
      for (let dir = path;; dir = dirname(dir)) {
        const file = this.#dirs.get(dir);
        if (file !== undefined) this.#files.delete(file);
        if (dirname(dir) === dir) break;
      }
    }
  }

  /** The known share of `root` at position `index`, when nothing under it was forgotten. */
  root(root: Root, index: number): RootPart | undefined {
    const known = this.#roots.get(root.path);
    return known?.key === JSON.stringify([index, root]) ? known.part : undefined;
  }

  /** Reads one found file, or reuses its outcome when its stamp and place are unchanged. */
  read(found: FoundFile, place: Place, lenient: boolean): ReadOutcome {
    if (found.refused !== undefined) return readSkill(found, place, lenient, true);
    const placeKey = this.#placeKey(found, place, lenient);
    const known = this.#files.get(found.file);
    // Walked again for paths inside it: a file nothing was reported under is taken as it was.
    if (known?.placeKey === placeKey && this.#precise.has(place.root.path)) {
      this.stats.reused++;
      return known.outcome;
    }
    const stamped = stampOf(found.file);
    const stamp = stamped?.stamp;
    // A directory without its SKILL.md: nothing to read.
    if (stamped === undefined && found.unverified) return undefined;
    if (stamp !== undefined && known?.stamp === stamp && known.placeKey === placeKey) {
      this.stats.reused++;
      return known.outcome;
    }
    this.stats.reads++;
    this.#onRead?.(found.file);
    const outcome = readSkill(found, place, lenient, true);
    const settled = stamped !== undefined && Date.now() - stamped.newest >= this.#settleMs;
    if (stamp !== undefined && settled) {
      this.#files.set(found.file, { stamp, placeKey, outcome });
      if (!found.flat) this.#dirs.set(dirname(found.file), found.file);
    } else {
      this.#files.delete(found.file);
    }
    return outcome;
  }

  /** The key of where and how a file was found (its root's place, the walk's record). */
  #placeKey(found: FoundFile, place: Place, lenient: boolean): string {
    let where = this.#places.get(place);
    if (where === undefined) {
      where = JSON.stringify([place.rootIndex, place.root, place.boundary?.real, lenient]);
      this.#places.set(place, where);
    }
    return `${where}\u0000${foundKey(found)}`;
  }

  /**
   * Keeps only the files this discovery found: for each root walked again (or new), the files it
   * no longer holds are dropped; roots no longer in the list drop all theirs.
   */
  #prune(roots: readonly Root[], parts: readonly RootPart[], walked: readonly boolean[]): void {
    const drop = (path: string) => {
      this.#files.delete(path);
      if (this.#dirs.get(dirname(path)) === path) this.#dirs.delete(dirname(path));
    };
    const current = new Set(roots.map((root) => root.path));
    for (const [rootPath, paths] of this.#rootFiles) {
      if (current.has(rootPath)) continue;
      for (const path of paths) drop(path);
      this.#rootFiles.delete(rootPath);
    }
    roots.forEach((root, i) => {
      const before = this.#rootFiles.get(root.path);
      if (!walked[i] && before !== undefined) return;
      const now = new Set<string>();
      for (const outcome of parts[i].outcomes) {
        if (outcome !== undefined) now.add(outcome.ok ? outcome.skill.path : outcome.invalid.path);
      }
      for (const path of before ?? []) if (!now.has(path)) drop(path);
      this.#rootFiles.set(root.path, now);
    });
  }

  /**
   * Records a discovery's roots and files, and gives back its skills with every unchanged skill
   * replaced by the object of the previous report (see the module doc).
   */
  settle(
    roots: readonly Root[],
    parts: readonly RootPart[],
    walked: readonly boolean[],
    found: readonly DiscoveredSkill[],
    result: { skills: DiscoveredSkill[]; dropped: DroppedSkill[] },
  ): { skills: DiscoveredSkill[]; dropped: DroppedSkill[] } {
    this.#roots = new Map(
      roots.map((root, i) => [root.path, { key: JSON.stringify([i, root]), part: parts[i] }]),
    );
    this.#precise.clear();
    this.#imprecise.clear();
    this.#prune(roots, parts, walked);
    const bases = new Map(found.map((skill) => [skillKey(skill), skill]));
    const finals = new Map<string, { base: DiscoveredSkill; final: DiscoveredSkill }>();
    const reused = new Map<DiscoveredSkill, DiscoveredSkill>();
    const skills = result.skills.map((skill) => {
      const key = skillKey(skill);
      const base = bases.get(key) ?? skill;
      const previous = this.#finals.get(key);
      const same = previous !== undefined && previous.base === base &&
        previous.final.name === skill.name &&
        previous.final.renamedFrom === skill.renamedFrom &&
        previous.final.renamedBecause === skill.renamedBecause &&
        sameList(previous.final.warnings, skill.warnings);
      const kept = same ? previous.final : skill;
      if (kept !== skill) reused.set(skill, kept);
      finals.set(key, { base, final: kept });
      return kept;
    });
    this.#finals = finals;
    const dropped = result.dropped.map((drop) => ({
      ...drop,
      skill: reused.get(drop.skill) ?? drop.skill,
      winner: reused.get(drop.winner) ?? drop.winner,
    }));
    return { skills, dropped };
  }
}

/** Whether `path` lies below `parent` (not `parent` itself); both absolute. */
function isBelow(path: string, parent: string): boolean {
  const prefix = parent.endsWith(sep) ? parent : parent + sep;
  return path.startsWith(prefix);
}
