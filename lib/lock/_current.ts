/**
 * The lock a catalog would get now: every published skill read again from
 * disk (its SKILL.md digest and its directory's bundle through
 * `../bundle/read.ts`), and every Git source with the commit its last sync
 * recorded in the user's `lock.json`.
 *
 * @example
 * ```ts
 * import { currentLock } from "./_current.ts";
 * import { loadCatalog } from "../catalog/mod.ts";
 * import { resolveConfig } from "../catalog/mod.ts";
 * const config = resolveConfig({ sharedDirs: true });
 * const catalog = await loadCatalog(config, { cwd: "/repo" });
 * const lock = await currentLock(catalog, { lockFile: config.lockFile });
 * ```
 * @module
 */
import { basename } from "node:path";
import { BundleError } from "../bundle/mod.ts";
import { readBundle } from "../bundle/mod.ts";
import { readBoundedSync } from "../fs/mod.ts";
import { sha256Hex } from "../hash.ts";
import { MAX_SKILL_READ_BYTES } from "../limits.ts";
import { type CommitRecord, readCommitRecord } from "../sources/mod.ts";
import type { ResolvedSource } from "../sources/mod.ts";
import {
  isUnbundlableKind,
  LOCK_SCHEMA,
  type LockSkill,
  type ProjectLock,
  type UnbundlableKind,
} from "./_format.ts";
import { lockOrigin } from "./_names.ts";
import type { SkillOrigin } from "./_scope.ts";

/**
 * A published skill as a lock reads it. Declared by shape (the catalog's skills are such), so
 * this package never imports the catalog, which reads a project's lock for its names.
 */
export interface LockableSkill {
  name: string;
  origin: SkillOrigin;
  /** Absolute path of its Markdown file. */
  path: string;
  /** Its directory. */
  directory: string;
  /** Its file below its root, `/`-separated. */
  relativePath: string;
}

/** What a lock is taken of: the published skills and the Git sources (a catalog is one). */
export interface LockableCatalog {
  report: { skills: readonly LockableSkill[] };
  sources: readonly ResolvedSource[];
}

/** Options of {@linkcode currentLock}. */
export interface CurrentOptions {
  /** The user's `lock.json` of synced commits. */
  lockFile: string;
  /**
   * Only these published names.
   *
   * @default every published skill
   */
  names?: readonly string[];
  /** Told why an existing `lock.json` was not read. */
  warn?: (message: string) => void;
  /**
   * Only the skills this accepts.
   *
   * @default every one; see `./scope.ts` for whose a skill is
   */
  include?: (skill: LockableSkill) => boolean;
  /**
   * Only the sources this accepts.
   *
   * @default every one
   */
  includeSource?: (source: ResolvedSource) => boolean;
}

/** The content of one skill as a lock records it. */
type Content =
  | { skill_sha256: string; bundle_sha256: string; files: LockSkill["files"] }
  | { skill_sha256: string; bundle_sha256: null; kind: UnbundlableKind; error: string; files: [] };

/** A skill that cannot be bundled: its SKILL.md digest, and why (a kind and the sentence). */
function unbundled(skill: LockableSkill, kind: UnbundlableKind, error: string): Content {
  const { bytes } = readBoundedSync(skill.path, { maxBytes: MAX_SKILL_READ_BYTES });
  return { skill_sha256: sha256Hex(bytes), bundle_sha256: null, kind, error, files: [] };
}

/** The SKILL.md digest and bundle of one skill; a directory that cannot be bundled says why. */
async function contentOf(skill: LockableSkill): Promise<Content> {
  if (basename(skill.path) !== "SKILL.md") {
    return unbundled(skill, "flat-file", "a flat file, not a skill directory");
  }
  try {
    const { manifest, skillBytes } = await readBundle(skill.directory);
    return {
      skill_sha256: sha256Hex(skillBytes),
      bundle_sha256: manifest.sha256,
      files: manifest.files,
    };
  } catch (error) {
    if (!(error instanceof BundleError)) throw error;
    // A kind the lock format does not name is recorded as unreadable (the sentence says more).
    const kind = isUnbundlableKind(error.kind) ? error.kind : "unreadable";
    return unbundled(skill, kind, error.message);
  }
}

function sourceOf(skill: LockableSkill, sources: readonly ResolvedSource[], synced: CommitRecord) {
  if (skill.origin.kind !== "source") return undefined;
  const checkout = skill.origin.checkout;
  const source = sources.find((s) => s.dir === checkout);
  if (source === undefined) return undefined;
  return { url: source.url, ref: source.ref ?? null, commit: synced[source.key]?.sha ?? null };
}

/** One skill's entry, read now. */
async function entryOf(
  skill: LockableSkill,
  sources: readonly ResolvedSource[],
  synced: CommitRecord,
): Promise<LockSkill> {
  const content = await contentOf(skill);
  const source = sourceOf(skill, sources, synced);
  return {
    name: skill.name,
    origin: lockOrigin(skill.origin),
    path: skill.relativePath,
    skill_sha256: content.skill_sha256,
    bundle_sha256: content.bundle_sha256,
    ...(content.bundle_sha256 !== null
      ? {}
      : { bundle_error_kind: content.kind, bundle_error: content.error }),
    files: content.files,
    ...(source === undefined ? {} : { source }),
  };
}

/**
 * Reads every published skill of `catalog` (or only `names`) again and
 * returns the lock it would get now, sources with their synced commits.
 *
 * @example
 * ```ts
 * import { currentLock } from "./_current.ts";
 * import type { LockableCatalog } from "./_current.ts";
 * async function example(catalog: LockableCatalog) {
 *   const lock = await currentLock(catalog, { lockFile: "/home/me/.dsh/skills-anywhere/lock.json", names: ["pdf"] });
 *   console.log(lock.skills.length);
 * }
 * ```
 */
export async function currentLock(
  catalog: LockableCatalog,
  options: CurrentOptions,
): Promise<ProjectLock> {
  const synced = await readCommitRecord(options.lockFile, { warn: options.warn });
  const wanted = options.names === undefined ? undefined : new Set(options.names);
  const skills: LockSkill[] = [];
  for (const skill of catalog.report.skills) {
    if (wanted !== undefined && !wanted.has(skill.name)) continue;
    if (options.include !== undefined && !options.include(skill)) continue;
    skills.push(await entryOf(skill, catalog.sources, synced));
  }
  const kept = options.includeSource === undefined
    ? catalog.sources
    : catalog.sources.filter(options.includeSource);
  const sources = kept.map((s) => ({
    key: s.key,
    url: s.url,
    ref: s.ref ?? null,
    commit: synced[s.key]?.sha ?? null,
  }));
  return { schema: LOCK_SCHEMA, skills, sources };
}
