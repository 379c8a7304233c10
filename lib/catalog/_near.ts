/**
 * Near misses: what looks like a skill in a flat skills folder but that no agent reads, so a
 * person who put it there learns why it is not listed. Two shapes are recognised, one level
 * below a flat root (`<root>/<entry>`), never deeper:
 *
 * - `file-name-case`: the folder holds no `SKILL.md` but a `skill.md` (or `Skill.md`, …): agents
 *   look for the exact name `SKILL.md`;
 * - `too-deep`: the folder holds no `SKILL.md` but one of its own folders does
 *   (`<root>/<group>/<name>/SKILL.md`): a flat root is read one level deep.
 *
 * Hidden entries (a leading `.`) are not looked at, links are not followed, and at most
 * {@linkcode MAX_NEAR_MISS_ENTRIES} entries of each folder are listed, so a huge folder costs a
 * bounded amount. Nothing is read but directory listings.
 *
 * @example
 * ```ts
 * import { nearMisses } from "./_near.ts";
 * const misses = nearMisses(["/home/me/.claude/skills"]);
 * for (const miss of misses) console.log(miss.kind, miss.path);
 * ```
 * @module
 */
import { join } from "node:path";
import { type DirEntry, listDirSync } from "../fs/mod.ts";

/** Why a near miss is not a skill. */
export type NearMissKind = "file-name-case" | "too-deep";

/** One near miss. */
export interface NearMiss {
  kind: NearMissKind;
  /** The file an agent would have to find elsewhere: the `skill.md`, or the too-deep `SKILL.md`. */
  path: string;
  /** The flat root it lies in. */
  root: string;
  /** One sentence for people. */
  reason: string;
}

/** Most entries of one folder looked at. */
export const MAX_NEAR_MISS_ENTRIES = 1000;

/** Most near misses reported per root. */
export const MAX_NEAR_MISSES_PER_ROOT = 50;

function listed(path: string): DirEntry[] {
  try {
    return listDirSync(path).slice(0, MAX_NEAR_MISS_ENTRIES).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0
    );
  } catch {
    return [];
  }
}

/** The near miss of one entry of a flat root, if it is one. */
function missOf(root: string, entry: DirEntry): NearMiss | undefined {
  if (!entry.isDirectory || entry.name.startsWith(".")) return undefined;
  const folder = join(root, entry.name);
  const inside = listed(folder);
  if (inside.some((e) => e.name === "SKILL.md")) return undefined;
  const cased = inside.find((e) => e.isFile && e.name.toLowerCase() === "skill.md");
  if (cased !== undefined) {
    return {
      kind: "file-name-case",
      path: join(folder, cased.name),
      root,
      reason: "the file must be named SKILL.md (in capitals)",
    };
  }
  for (const sub of inside) {
    if (!sub.isDirectory || sub.name.startsWith(".")) continue;
    if (listed(join(folder, sub.name)).some((e) => e.isFile && e.name === "SKILL.md")) {
      return {
        kind: "too-deep",
        path: join(folder, sub.name, "SKILL.md"),
        root,
        reason:
          `one folder too deep: agents read ${entry.name}/SKILL.md, not ${entry.name}/${sub.name}/SKILL.md`,
      };
    }
  }
  return undefined;
}

/**
 * The near misses of each flat root in `roots` (missing roots are skipped), in root order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { nearMisses } from "./_near.ts";
 * assert.deepEqual(nearMisses(["/nonexistent"]), []);
 * ```
 */
export function nearMisses(roots: readonly string[]): NearMiss[] {
  const misses: NearMiss[] = [];
  for (const root of roots) {
    const found: NearMiss[] = [];
    for (const entry of listed(root)) {
      const miss = missOf(root, entry);
      if (miss !== undefined) found.push(miss);
      if (found.length >= MAX_NEAR_MISSES_PER_ROOT) break;
    }
    misses.push(...found);
  }
  return misses;
}
