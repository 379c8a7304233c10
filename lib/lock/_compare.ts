/**
 * What `verify` reports: a reviewed lock compared with the lock the project
 * would get now. Pure: the same two locks always give the same report.
 *
 * A skill is `changed` when its SKILL.md or bundle digest differs (with the
 * added, removed and changed paths from the rows; a directory locked with a
 * digest that cannot be bundled now is changed, with why), `missing` when
 * locked and not published now, `added` when published and not locked,
 * `moved` when the same name comes from another origin or path; a source is
 * listed when its commit differs, or it is locked and no longer configured,
 * or configured and not locked.
 *
 * A skill is `unverifiable`, never a match, when its files cannot be checked
 * against the lock: it is locked without a bundle digest (it could not be
 * bundled when locked: a link inside its folder, a SKILL.md over 128 KiB, more
 * than 512 files, a file over 16 MiB…), whatever its SKILL.md digest says; or
 * its current entry is one a lock cannot hold (`unlockable`: `lock` leaves it
 * out). A flat `<name>.md` skill is the exception: its one file is all of it,
 * so its SKILL.md digest verifies it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareLocks } from "./_compare.ts";
 * const empty = { schema: "skills-anywhere-lock-1" as const, skills: [], sources: [] };
 * assert.equal(compareLocks(empty, empty).matches, true);
 * ```
 * @module
 */
import { type BundleManifest, compareManifests } from "../bundle/portable.ts";
import { compareCodeUnits } from "../util.ts";
import {
  type LockOrigin,
  type LockSkill,
  type LockSource,
  type ProjectLock,
  SKILL_ENTRY_FAULTS,
  skillEntryFault,
  UNBUNDLABLE_REASONS,
} from "./_format.ts";

/** The schema literal of a verify report. */
export const VERIFY_SCHEMA = "skills-anywhere-verify-1";

/** A skill whose content differs from the lock. */
export interface ChangedSkill {
  name: string;
  /** Whether SKILL.md's own digest differs. */
  skill_md: boolean;
  locked_bundle_sha256: string | null;
  current_bundle_sha256: string | null;
  /** Why the directory cannot be bundled now (its rows are then not compared), else null. */
  bundle_error: string | null;
  /** The kind of that reason (a `bundle_error_kind` of the lock format), else null. */
  bundle_error_kind: string | null;
  added: string[];
  removed: string[];
  changed: string[];
}

/** A skill whose files cannot be checked against the lock (an `unverifiable` difference). */
export interface UnverifiableSkill {
  name: string;
  /**
   * Why: the bundle refusal kind of its directory now (`link`, `skill-too-large`,
   * `too-many-files`, `file-too-large`, …); `no-locked-digest` when it can be bundled now but
   * the lock holds no digest for it; `unlockable` when a lock cannot hold its entry.
   */
  kind: string;
  /** The reason in words (the bundle reader's sentence, naming the file and the limit). */
  reason: string;
  /** Whether SKILL.md's own digest differs from the lock's (false when it is not locked). */
  skill_md: boolean;
}

/** Where a skill was locked, and where it is now. */
export interface MovedSkill {
  name: string;
  locked: { origin: LockOrigin; path: string };
  current: { origin: LockOrigin; path: string };
}

/** A source whose commit differs (`null`: not locked, or not configured now). */
export interface SourceDifference {
  key: string;
  locked_commit: string | null;
  current_commit: string | null;
}

/** A locked skill whose signature is not accepted (a `signature` difference). */
export interface SignatureDifference {
  name: string;
  /** Why: `unsigned`, `bad-signature`, `unknown-signer`, `expired`, `changed-since-signed`… */
  kind: string;
  message: string;
}

/** A locked skill validly signed by an allowed signer. */
export interface SignedSkill {
  name: string;
  principal: string;
  fingerprint: string;
}

/** A name that two or more project places declare (reported, never settled in silence). */
export interface PlaceCollision {
  /** The name their files declare. */
  name: string;
  /** Each skill: the name it is published under, and its file relative to the project root. */
  places: { published: string; file: string }[];
}

/** A part of the project tree the lock cannot cover: never walked, so never locked. */
export interface UncoveredPlace {
  /** The folder, relative to the project root, `/`-separated. */
  path: string;
  /** `depth`: too deep; `entries`: past the walk's entry limit; `unreadable`: cannot be listed. */
  reason: "depth" | "entries" | "unreadable";
}

/**
 * A `skills-anywhere-verify-1` report. `signatures` and `signed` are present
 * only when the lock names trusted signers; the signature differences count
 * against `matches` only when the lock requires signatures.
 */
export interface VerifyReport {
  schema: typeof VERIFY_SCHEMA;
  matches: boolean;
  /** How many skills the lock holds. */
  locked: number;
  changed: ChangedSkill[];
  /** Skills whose files cannot be checked against the lock; never a match. */
  unverifiable: UnverifiableSkill[];
  missing: string[];
  added: string[];
  moved: MovedSkill[];
  sources: SourceDifference[];
  signatures?: SignatureDifference[];
  signed?: SignedSkill[];
  /** Names shared by two project places (each a difference); set by the project walk. */
  collisions?: PlaceCollision[];
  /** Parts of the project tree not covered (each a difference); set by the project walk. */
  uncovered?: UncoveredPlace[];
  /**
   * The plugins the project's own settings enable, which its lock never holds (not a
   * difference: a plugin is each home's install); set for a project's lock.
   */
  outside_plugins?: OutsidePlugin[];
}

/** A plugin the project's own settings enable, outside its lock, and its skills found here. */
export interface OutsidePlugin {
  /** Its `plugin@marketplace` key, as the settings name it. */
  plugin: string;
  /** Whether this home has it installed and enabled (its skills are in the catalog). */
  installed: boolean;
  /** The names its skills are published under here, sorted (none when not installed). */
  skills: string[];
}

function manifestOf(skill: LockSkill): BundleManifest {
  return {
    schema: "skills-anywhere-bundle-1",
    sha256: skill.bundle_sha256 ?? "",
    total_bytes: skill.files.reduce((sum, f) => sum + f.bytes, 0),
    files: skill.files,
  };
}

/** The difference of one skill's content, or undefined when it matches. */
function contentDifference(locked: LockSkill, now: LockSkill): ChangedSkill | undefined {
  const skillMd = locked.skill_sha256 !== now.skill_sha256;
  if (!skillMd && locked.bundle_sha256 === now.bundle_sha256) return undefined;
  const unbundled = now.bundle_sha256 === null;
  const rows = unbundled
    ? { added: [], removed: [], changed: [] }
    : compareManifests(manifestOf(locked), manifestOf(now));
  return {
    name: locked.name,
    skill_md: skillMd,
    locked_bundle_sha256: locked.bundle_sha256,
    current_bundle_sha256: now.bundle_sha256,
    bundle_error: now.bundle_error ?? null,
    bundle_error_kind: now.bundle_error_kind ?? null,
    added: rows.added,
    removed: rows.removed,
    changed: rows.changed,
  };
}

/**
 * Why a locked skill's files cannot be checked against its entry, or undefined
 * when they can (a digest was locked, or it is a flat file, whose one file is
 * all of it and whose digest is compared).
 */
function unverifiableOf(locked: LockSkill, now: LockSkill): UnverifiableSkill | undefined {
  if (locked.bundle_sha256 !== null || now.bundle_error_kind === "flat-file") return undefined;
  const skill_md = locked.skill_sha256 !== now.skill_sha256;
  if (now.bundle_sha256 === null) {
    const kind = now.bundle_error_kind ?? "unreadable";
    return { name: now.name, kind, reason: now.bundle_error ?? kind, skill_md };
  }
  const was = locked.bundle_error_kind === undefined
    ? ""
    : ` (when locked, it ${UNBUNDLABLE_REASONS[locked.bundle_error_kind]})`;
  const reason = `locked without a bundle digest${was}; it can be bundled now, so review ` +
    `it and lock it again`;
  return { name: now.name, kind: "no-locked-digest", reason, skill_md };
}

/** The `unlockable` difference of a skill published now whose entry a lock cannot hold. */
function unlockableOf(now: LockSkill): UnverifiableSkill | undefined {
  const fault = skillEntryFault(now);
  if (fault === undefined) return undefined;
  const reason = `a lock cannot hold its entry: ${SKILL_ENTRY_FAULTS[fault]}`;
  return { name: now.name, kind: "unlockable", reason, skill_md: false };
}

function sameOrigin(a: LockOrigin, b: LockOrigin): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

function compareSources(locked: readonly LockSource[], now: readonly LockSource[]) {
  const before = new Map(locked.map((s) => [s.key, s.commit]));
  const after = new Map(now.map((s) => [s.key, s.commit]));
  const keys = [...new Set([...before.keys(), ...after.keys()])].sort();
  return keys.filter((key) => before.get(key) !== after.get(key)).map((key) => ({
    key,
    locked_commit: before.get(key) ?? null,
    current_commit: after.get(key) ?? null,
  }));
}

/**
 * Compares the reviewed lock with the current one (both sorted, as
 * `format.ts` writes and validates them).
 *
 * @example
 * ```ts
 * import { compareLocks } from "./_compare.ts";
 * import type { ProjectLock } from "./_format.ts";
 * function example(reviewed: ProjectLock, now: ProjectLock) {
 *   compareLocks(reviewed, now).changed.map((c) => c.name);
 * }
 * ```
 */
export function compareLocks(locked: ProjectLock, now: ProjectLock): VerifyReport {
  const current = new Map(now.skills.map((s) => [s.name, s]));
  const lockedNames = new Set(locked.skills.map((s) => s.name));
  const unlockable = new Map(
    now.skills.flatMap((s) => {
      const u = unlockableOf(s);
      return u === undefined ? [] : [[s.name, u] as const];
    }),
  );
  const report: VerifyReport = {
    schema: VERIFY_SCHEMA,
    matches: true,
    locked: locked.skills.length,
    changed: [],
    unverifiable: [],
    missing: [],
    added: now.skills.filter((s) => !lockedNames.has(s.name) && !unlockable.has(s.name))
      .map((s) => s.name),
    moved: [],
    sources: compareSources(locked.sources, now.sources),
  };
  for (const skill of locked.skills) {
    const found = current.get(skill.name);
    if (found === undefined) {
      report.missing.push(skill.name);
      continue;
    }
    if (unlockable.has(skill.name)) continue;
    if (!sameOrigin(skill.origin, found.origin) || skill.path !== found.path) {
      report.moved.push({
        name: skill.name,
        locked: { origin: skill.origin, path: skill.path },
        current: { origin: found.origin, path: found.path },
      });
    }
    const unverifiable = unverifiableOf(skill, found);
    if (unverifiable !== undefined) {
      report.unverifiable.push(unverifiable);
      continue;
    }
    const difference = contentDifference(skill, found);
    if (difference !== undefined) report.changed.push(difference);
  }
  report.unverifiable.push(...unlockable.values());
  report.unverifiable.sort((a, b) => compareCodeUnits(a.name, b.name));
  report.matches = report.changed.length + report.unverifiable.length + report.missing.length +
      report.added.length + report.moved.length + report.sources.length === 0;
  return report;
}
