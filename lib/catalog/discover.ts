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
 * @example
 * ```ts
 * import { discover } from "./discover.ts";
 * import { buildRoots } from "./roots.ts";
 * import { resolveConfig } from "./config.ts";
 * const roots = buildRoots(resolveConfig({}, { HOME: "/home/me" }), { sources: [] });
 * const report = await discover(roots, { lenient: true });
 * for (const skill of report.skills) console.log(skill.name, skill.path);
 * ```
 * @module
 */
import { errorText } from "../errors.ts";
import { MAX_SKILL_READ_BYTES } from "../limits.ts";
import { type Log, silentLog } from "../util.ts";
import { realpathSync, statSync } from "node:fs";
import { setImmediate } from "node:timers";
import { relative, sep } from "node:path";
import { readBoundedTextSync, ReadError, type ReadErrorKind, resolveLink } from "../fs/mod.ts";
import {
  type Invocation,
  type ParsedSkill,
  type ParseFailureKind,
  parseSkillMarkdown,
} from "../skill/parse.ts";
import type { Origin } from "./origin.ts";
import type { LockedNames } from "../lock/names.ts";
import { applyPrecedence, type DroppedSkill, type RenameReason } from "./precedence.ts";
import type { Root, SourceLabel } from "./roots.ts";
import { type FoundFile, walkRoot } from "./walk.ts";

/** A parsed, published skill: what its file says, and where and how the catalog found it. */
export interface DiscoveredSkill {
  name: string;
  /** Whether the file declares `name` exactly (not normalised, not derived from the folder). */
  nameDeclared: boolean;
  description: string;
  whenToUse?: string;
  invocation: Invocation;
  source: SourceLabel;
  rank: number;
  /** Absolute path of the Markdown file. */
  path: string;
  /** The skill directory (the root for flat files). */
  directory: string;
  /** The author's frontmatter `metadata` mapping as written, nothing added. */
  metadata: Record<string, unknown>;
  origin: Origin;
  /** The root path it was found under. */
  root: string;
  /** The file's path below `root`, with `/` separators. */
  relativePath: string;
  /** Position of that root in the root list (a precedence tiebreak). */
  rootIndex: number;
  /** The parser's repairs alone (frontmatter fixed up in lenient mode). */
  repairs: string[];
  /** Every warning about the skill: its repairs, then the collision notice when renamed. */
  warnings: string[];
  /** The name its file declares, when a collision made the catalog publish it as another. */
  renamedFrom?: string;
  /** Why it was renamed, with `renamedFrom` (see `RenameReason` in `./precedence.ts`). */
  renamedBecause?: RenameReason;
  /** The real directory links may not leave when this file is read again (see the module doc). */
  confineTo?: string;
}

/**
 * Why a file could not become a skill: the reader's failure, the parser's, or
 * `note` (a flat `<name>.md` without a name or description; see `walk.ts`).
 */
export type InvalidFileKind = ReadErrorKind | ParseFailureKind;

/** A file that could not become a skill. */
export interface InvalidFile {
  path: string;
  root: string;
  /** The failure class, to switch on (`not-utf8`, `outside`, `no-frontmatter`, …). */
  kind: InvalidFileKind;
  /** The reason in words, for people. */
  reason: string;
  /**
   * Set when the file was refused for safety, not found broken: `link`, a
   * symlink out of its boundary or into `/proc`, `/sys` or `/dev` (its
   * target was never read); `pseudo-file`, a file whose size disagrees with
   * what it reads.
   */
  refusal?: "link" | "pseudo-file";
}

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
function bodyKey(body: string): string {
  if (body.length <= MAX_BODY_AS_KEY) return body;
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
function toDiscovered(skill: ParsedSkill, found: FoundFile, place: Place): DiscoveredSkill {
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

/** Reads and parses one found file (see {@linkcode ReadOutcome}). */
function readSkill(found: FoundFile, place: Place, lenient: boolean): ReadOutcome {
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
  const body = bodyKey(result.skill.content);
  return { ok: true, skill: toDiscovered(result.skill, found, place), body };
}

/**
 * Reads every found file in order, yielding to the event loop every 1,024
 * files so a server can answer other requests (and an abort arrive) during a
 * long discovery.
 */
async function readAll(
  roots: readonly Root[],
  scanned: readonly Scanned[],
  options: DiscoverOptions,
): Promise<ReadOutcome[]> {
  const { signal, lenient = true } = options;
  const jobs = scanned.flatMap((result, rootIndex) =>
    result.files.map((found) => ({
      found,
      place: { root: roots[rootIndex], rootIndex, boundary: result.boundary },
    }))
  );
  const outcomes: ReadOutcome[] = [];
  for (let done = 0; done < jobs.length; done++) {
    if (done > 0 && done % 1024 === 0) {
      await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
      options.onProgress?.(done, jobs.length);
    }
    outcomes.push(readSkill(jobs[done].found, jobs[done].place, lenient));
  }
  if (jobs.length > 0) options.onProgress?.(jobs.length, jobs.length);
  return outcomes;
}

/** Splits read outcomes into skills and invalid files (refused roots first), counting per root. */
function tally(outcomes: readonly ReadOutcome[], scanned: readonly Scanned[]) {
  const found: DiscoveredSkill[] = [];
  const bodies = new Map<DiscoveredSkill, string>();
  const invalid: InvalidFile[] = scanned.flatMap((s) => s.refused === undefined ? [] : [s.refused]);
  const counts = new Array<number>(scanned.length).fill(0);
  for (const outcome of outcomes) {
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
 * import { discover } from "./discover.ts";
 * const report = await discover([], { lenient: true });
 * console.log(report.skills.length, report.complete); // 0 true
 * ```
 */
export async function discover(
  roots: readonly Root[],
  options: DiscoverOptions = {},
): Promise<DiscoveryReport> {
  const { signal } = options;
  const log = options.log ?? silentLog;
  signal?.throwIfAborted();
  // Discovery uses synchronous system calls: for thousands of small files, direct calls are
  // several times faster than promise round trips through a thread pool (see bench/).
  const scanned = roots.map((root) => scanRoot(root, log));
  signal?.throwIfAborted();
  const outcomes = await readAll(roots, scanned, options);
  signal?.throwIfAborted();
  const { found, bodies, invalid, counts } = tally(outcomes, scanned);
  const { skills, dropped } = await applyPrecedence(found, {
    dedupe: options.dedupe ?? true,
    excludeSkills: options.excludeSkills ?? [],
    bodyKey: (skill) => bodies.get(skill),
    locked: options.locked,
  });
  return {
    skills,
    dropped,
    invalid,
    roots: roots.map((root, i) => ({ root, exists: scanned[i].exists, count: counts[i] })),
    complete: scanned.every((s) => s.complete),
  };
}
