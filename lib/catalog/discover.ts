/**
 * Discovery: walk every root, read and parse every skill file once, then
 * apply precedence, dedupe, exclusion and collision renaming.
 *
 * Files are read through `lib/fs` (regular files only, at most 128 KiB,
 * strict UTF-8, never blocking). Invalid files are recorded and never stop
 * discovery. Nothing is written anywhere, and the network is never touched.
 *
 * @example
 * ```ts
 * import { discover } from "./discover.ts";
 * const report = await discover(roots, { lenient: true });
 * for (const skill of report.skills) console.log(skill.name, skill.path);
 * ```
 * @module
 */
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { setImmediate } from "node:timers";
import { relative, sep } from "node:path";
import { decodeUtf8, readBoundedSync, ReadError } from "../fs/mod.ts";
import { type Invocation, parseSkillMarkdown } from "../skill/parse.ts";
import { type Origin, pluginOrigin } from "./origin.ts";
import { applyPrecedence, type DroppedSkill } from "./precedence.ts";
import type { Root, SourceLabel } from "./roots.ts";
import { type FoundFile, walkRoot } from "./walk.ts";

/** Largest skill file read during discovery (the load limit too). */
export const MAX_SKILL_FILE_BYTES = 128 * 1024;

/** A parsed, published skill. */
export interface DiscoveredSkill {
  name: string;
  description: string;
  whenToUse?: string;
  invocation: Invocation;
  source: SourceLabel;
  rank: number;
  /** Absolute path of the Markdown file. */
  path: string;
  /** The skill directory (the root for flat files). */
  directory: string;
  metadata: Record<string, unknown>;
  origin: Origin;
  /** The root path it was found under. */
  root: string;
  /** Position of that root in the root list (a precedence tiebreak). */
  rootIndex: number;
  /** SHA-1 of the parsed body. */
  contentHash: string;
  warnings: string[];
}

/** A file that could not become a skill. */
export interface InvalidFile {
  path: string;
  root: string;
  reason: string;
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

/** A diagnostic sink: `warn` lines go to stderr in the CLI. */
export type Log = (level: "info" | "warn", message: string) => void;

/** Options of {@linkcode discover}. */
export interface DiscoverOptions {
  lenient?: boolean;
  dedupe?: boolean;
  excludeSkills?: readonly string[];
  signal?: AbortSignal;
  log?: Log;
  /** Called as files are read: (read so far, total found). */
  onProgress?: (done: number, total: number) => void;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function readFailure(error: ReadError): string {
  switch (error.kind) {
    case "not-utf8":
      return "not UTF-8 text";
    case "too-large":
      return `larger than ${MAX_SKILL_FILE_BYTES / 1024} KiB`;
    case "not-regular":
      return "not a regular file";
    default:
      return `unreadable: ${error.code ?? error.message}`;
  }
}

function scanRoot(
  root: Root,
  log: Log,
): { exists: boolean; files: FoundFile[]; complete: boolean } {
  let info;
  try {
    info = statSync(root.path);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      return { exists: false, files: [], complete: true };
    }
    log("warn", `skills-anywhere: cannot access ${root.path}: ${errorText(error)}`);
    return { exists: false, files: [], complete: false };
  }
  if (!info.isDirectory()) return { exists: false, files: [], complete: true };
  try {
    const confine = root.source === "anywhere-source";
    return { exists: true, files: walkRoot({ ...root, confine }), complete: true };
  } catch (error) {
    log("warn", `skills-anywhere: discovery under ${root.path} failed: ${errorText(error)}`);
    return { exists: true, files: [], complete: false };
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

/** Reads and parses one found file; `undefined` when an unverified `SKILL.md` is not there. */
function readSkill(
  found: FoundFile,
  root: Root,
  rootIndex: number,
  lenient: boolean,
): { skill: DiscoveredSkill } | { invalid: InvalidFile } | undefined {
  let text: string;
  try {
    const { bytes } = readBoundedSync(found.file, {
      maxBytes: MAX_SKILL_FILE_BYTES,
      followSymlinks: true,
    });
    text = decodeUtf8(bytes);
  } catch (error) {
    if (!(error instanceof ReadError)) throw error;
    if (found.unverified && error.kind === "missing") return undefined;
    return { invalid: { path: found.file, root: root.path, reason: readFailure(error) } };
  }
  const result = parseSkillMarkdown(text, { fallbackName: found.fallbackName, lenient });
  if (!result.ok) return { invalid: { path: found.file, root: root.path, reason: result.reason } };
  const { skill } = result;
  const relativePath = toPosix(relativeTo(root.path, found.file));
  const origin = root.origin.kind === "claude-plugins"
    ? pluginOrigin(toPosix(relative(root.path, found.directory)))
    : root.origin;
  const skillsAnywhere: Record<string, unknown> = { origin, root: root.path, relativePath };
  if (skill.warnings.length > 0) skillsAnywhere.warnings = [...skill.warnings];
  const discovered: DiscoveredSkill = {
    name: skill.name,
    description: skill.description,
    invocation: skill.invocation,
    source: root.source,
    rank: root.rank,
    path: found.file,
    directory: found.directory,
    metadata: { ...skill.metadata, skillsAnywhere },
    origin,
    root: root.path,
    rootIndex,
    contentHash: createHash("sha1").update(skill.content).digest("hex"),
    warnings: skill.warnings,
  };
  if (skill.whenToUse !== undefined) discovered.whenToUse = skill.whenToUse;
  return { skill: discovered };
}

/**
 * Discovers skills under `roots` (in precedence order). See the module doc.
 * Rejects only when `signal` is aborted.
 */
export async function discover(
  roots: readonly Root[],
  options: DiscoverOptions = {},
): Promise<DiscoveryReport> {
  const { signal, lenient = true } = options;
  const log: Log = options.log ?? (() => {});
  signal?.throwIfAborted();
  // Discovery uses synchronous system calls: for thousands of small files, direct calls are
  // several times faster than promise round trips through a thread pool (see bench/).
  const scanned = roots.map((root) => scanRoot(root, log));
  signal?.throwIfAborted();
  const jobs = scanned.flatMap((result, rootIndex) =>
    result.files.map((found) => ({ found, rootIndex }))
  );
  const parsed: Array<{ skill: DiscoveredSkill } | { invalid: InvalidFile } | undefined> = [];
  for (let done = 0; done < jobs.length; done++) {
    if (done > 0 && done % 1024 === 0) {
      // Let a server answer other requests (and an abort arrive) during a long discovery.
      await new Promise((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
      options.onProgress?.(done, jobs.length);
    }
    const { found, rootIndex } = jobs[done];
    parsed.push(readSkill(found, roots[rootIndex], rootIndex, lenient));
  }
  if (jobs.length > 0) options.onProgress?.(jobs.length, jobs.length);
  signal?.throwIfAborted();
  const found: DiscoveredSkill[] = [];
  const invalid: InvalidFile[] = [];
  const counts = new Array<number>(roots.length).fill(0);
  for (const item of parsed) {
    if (item === undefined) continue;
    if ("invalid" in item) invalid.push(item.invalid);
    else {
      found.push(item.skill);
      counts[item.skill.rootIndex]++;
    }
  }
  const { skills, dropped } = applyPrecedence(found, {
    dedupe: options.dedupe ?? true,
    excludeSkills: options.excludeSkills ?? [],
  });
  return {
    skills,
    dropped,
    invalid,
    roots: roots.map((root, i) => ({ root, exists: scanned[i].exists, count: counts[i] })),
    complete: scanned.every((s) => s.complete),
  };
}
