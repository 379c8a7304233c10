/**
 * Locked names: which skill a project's lock says is published under each
 * name, so the catalog keeps that skill's bare name when a new skill
 * collides with it (the newcomer is renamed). Also the one rule for how an
 * origin is written in a lock ({@linkcode lockOrigin}).
 *
 * A lock only chooses which of the skills already found keeps a bare name:
 * its entries are compared with what is on disk and never read as paths, so
 * a hostile lock adds, removes or reads nothing. This package never imports
 * the catalog (the catalog imports it): origins are declared here by shape.
 *
 * @example
 * ```ts
 * import { readLockedNames } from "./_names.ts";
 * // Type-checked, not run by the doc test: it reads the lock of the project at /repo.
 * async function example() {
 *   const locked = await readLockedNames("/repo", (message) => console.error(message));
 *   console.log(locked?.get("pdf")?.path); // "pdf/SKILL.md"
 * }
 * ```
 * @module
 */
import { projectLockPath, readProjectLock } from "./_file.ts";
import type { LockOrigin, ProjectLock } from "./_format.ts";
import { isPersonalOrigin, type SkillOrigin } from "./_scope.ts";

/** Where the skill locked under a name was: its origin as the lock writes it, and its path. */
export interface LockedPlace {
  /** The origin in the lock's form (see {@linkcode lockOrigin}). */
  origin: LockOrigin;
  /** Its file below its root, `/`-separated. */
  path: string;
}

/** Locked places by published name. */
export type LockedNames = ReadonlyMap<string, LockedPlace>;

/**
 * An origin as a lock keeps it: no absolute checkout path; a project folder
 * below the project root keeps its folder (`dir`, relative to the root), so
 * `packages/app/.agents/skills/deploy` is never taken for the root's
 * `.agents/skills/deploy`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lockOrigin } from "./_names.ts";
 * assert.deepEqual(lockOrigin({ kind: "source", repo: "o/r", checkout: "/cache/r" }), { kind: "source", repo: "o/r" });
 * ```
 */
export function lockOrigin(origin: SkillOrigin): LockOrigin {
  switch (origin.kind) {
    case "agent":
      return origin.dir === undefined
        ? { kind: "agent", agent: origin.agent, scope: origin.scope }
        : { kind: "agent", agent: origin.agent, scope: origin.scope, dir: origin.dir };
    case "custom":
      return { kind: "custom", scope: origin.scope };
    case "claude-plugins":
      return { kind: "claude-plugins", marketplace: origin.marketplace, plugin: origin.plugin };
    case "source":
      return { kind: "source", repo: origin.repo };
  }
}

/**
 * Whether a skill found at `origin` and `path` is the one `place` locks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isLockedPlace } from "./_names.ts";
 * const place = { origin: { kind: "custom", scope: "user" }, path: "pdf/SKILL.md" };
 * assert.equal(isLockedPlace(place, { kind: "custom", scope: "user" }, "pdf/SKILL.md"), true);
 * ```
 */
export function isLockedPlace(place: LockedPlace, origin: SkillOrigin, path: string): boolean {
  if (place.path !== path) return false;
  const mine: Readonly<Record<string, string>> = lockOrigin(origin);
  const theirs = place.origin;
  const keys = Object.keys(mine);
  return keys.length === Object.keys(theirs).length &&
    keys.every((key) => Object.hasOwn(theirs, key) && theirs[key] === mine[key]);
}

/**
 * The locked place of every name of `lock`; an entry from a person's folder or a plugin (which
 * only a lock written before project locks held the project's own skills can hold) keeps no
 * name, so a name agrees on every machine whatever the person's home holds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lockedNames } from "./_names.ts";
 * assert.equal(lockedNames({ schema: "skills-anywhere-lock-1", skills: [], sources: [] }).size, 0);
 * ```
 */
export function lockedNames(lock: ProjectLock): LockedNames {
  return new Map(
    lock.skills.filter((s) => !isPersonalOrigin(s.origin)).map((
      s,
    ) => [s.name, { origin: s.origin, path: s.path }]),
  );
}

/**
 * The locked names of the project rooted at `root`: undefined when it has no
 * lock, or one that cannot be used (then `warn` is told why, in one line).
 *
 * @example
 * ```ts
 * import { readLockedNames } from "./_names.ts";
 * const locked = await readLockedNames("/repo", console.error);
 * ```
 */
export async function readLockedNames(
  root: string,
  warn: (message: string) => void,
): Promise<LockedNames | undefined> {
  const file = projectLockPath(root);
  const read = await readProjectLock(file);
  if (read === undefined) return undefined;
  if (!read.ok) {
    warn(`${file} is not used to keep names: ${read.message}`);
    return undefined;
  }
  return lockedNames(read.lock);
}
