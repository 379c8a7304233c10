/**
 * The lock a catalog would get now: every published skill read again from
 * disk (its SKILL.md digest and its directory's bundle through
 * `../bundle/read.ts`), and every Git source with the commit its last sync
 * recorded in the user's `lock.json`.
 *
 * @example
 * ```ts
 * import { currentLock } from "./current.ts";
 * import { loadCatalog } from "../catalog/mod.ts";
 * import { resolveConfig } from "../catalog/config.ts";
 * const config = resolveConfig({ sharedDirs: true });
 * const catalog = await loadCatalog(config, { cwd: "/repo" });
 * const lock = await currentLock(catalog, { lockFile: config.lockFile });
 * ```
 * @module
 */
import { basename } from "node:path";
import { BundleError } from "../bundle/manifest.ts";
import { readBundle } from "../bundle/read.ts";
import type { Catalog } from "../catalog/mod.ts";
import type { DiscoveredSkill } from "../catalog/discover.ts";
import type { Origin } from "../catalog/origin.ts";
import { readBoundedSync } from "../fs/mod.ts";
import { sha256Hex } from "../hash.ts";
import { MAX_SKILL_READ_BYTES } from "../limits.ts";
import { type LockFile, readLock } from "../sources/files.ts";
import type { ResolvedSource } from "../sources/resolve.ts";
import { LOCK_SCHEMA, type LockOrigin, type LockSkill, type ProjectLock } from "./format.ts";

/** Options of {@linkcode currentLock}. */
export interface CurrentOptions {
  /** The user's `lock.json` of synced commits. */
  lockFile: string;
  /** Only these published names (default: every published skill). */
  names?: readonly string[];
  /** Told why an existing `lock.json` was not read. */
  warn?: (message: string) => void;
}

/**
 * An origin as the lock keeps it: no absolute checkout path.
 *
 * @example
 * ```ts
 * import { lockOrigin } from "./current.ts";
 * lockOrigin({ kind: "agent", agent: "codex", scope: "user" }); // { kind: "agent", agent: "codex", scope: "user" }
 * ```
 */
export function lockOrigin(origin: Origin): LockOrigin {
  switch (origin.kind) {
    case "agent":
      return { kind: "agent", agent: origin.agent, scope: origin.scope };
    case "custom":
      return { kind: "custom", scope: origin.scope };
    case "claude-plugins":
      return { kind: "claude-plugins", marketplace: origin.marketplace, plugin: origin.plugin };
    case "source":
      return { kind: "source", repo: origin.repo };
  }
}

/** The SKILL.md digest and bundle of one skill; a directory that cannot be bundled says why. */
async function contentOf(skill: DiscoveredSkill) {
  if (basename(skill.path) !== "SKILL.md") {
    const { bytes } = readBoundedSync(skill.path, { maxBytes: MAX_SKILL_READ_BYTES });
    return {
      skill_sha256: sha256Hex(bytes),
      bundle_sha256: null,
      error: "a flat file, not a skill directory",
      files: [],
    };
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
    const { bytes } = readBoundedSync(skill.path, { maxBytes: MAX_SKILL_READ_BYTES });
    return { skill_sha256: sha256Hex(bytes), bundle_sha256: null, error: error.message, files: [] };
  }
}

function sourceOf(skill: DiscoveredSkill, sources: readonly ResolvedSource[], synced: LockFile) {
  if (skill.origin.kind !== "source") return undefined;
  const checkout = skill.origin.checkout;
  const source = sources.find((s) => s.dir === checkout);
  if (source === undefined) return undefined;
  return { url: source.url, ref: source.ref ?? null, commit: synced[source.key]?.sha ?? null };
}

/** One skill's entry, read now. */
async function entryOf(
  skill: DiscoveredSkill,
  sources: readonly ResolvedSource[],
  synced: LockFile,
): Promise<LockSkill> {
  const content = await contentOf(skill);
  const source = sourceOf(skill, sources, synced);
  return {
    name: skill.name,
    origin: lockOrigin(skill.origin),
    path: skill.relativePath,
    skill_sha256: content.skill_sha256,
    bundle_sha256: content.bundle_sha256,
    ...(content.error === undefined ? {} : { bundle_error: content.error }),
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
 * import { currentLock } from "./current.ts";
 * import type { Catalog } from "../catalog/mod.ts";
 * declare const catalog: Catalog;
 * const lock = await currentLock(catalog, { lockFile: "/home/me/.dsh/skills-anywhere/lock.json", names: ["pdf"] });
 * console.log(lock.skills.length);
 * ```
 */
export async function currentLock(catalog: Catalog, options: CurrentOptions): Promise<ProjectLock> {
  const synced = await readLock(options.lockFile, { warn: options.warn });
  const wanted = options.names === undefined ? undefined : new Set(options.names);
  const skills: LockSkill[] = [];
  for (const skill of catalog.report.skills) {
    if (wanted !== undefined && !wanted.has(skill.name)) continue;
    skills.push(await entryOf(skill, catalog.sources, synced));
  }
  const sources = catalog.sources.map((s) => ({
    key: s.key,
    url: s.url,
    ref: s.ref ?? null,
    commit: synced[s.key]?.sha ?? null,
  }));
  return { schema: LOCK_SCHEMA, skills, sources };
}
