/**
 * Precedence: order skills by rank, root order and path; drop excluded ones
 * and duplicates (the same file reached twice, or the same name with the same
 * body); rename the remaining name collisions deterministically.
 *
 * Renaming: in a group of skills sharing a name, the first keeps the bare name
 * unless every member comes from a plugin or a Git source, in which case all
 * are renamed. The new name is `<prefix>-<name>` (prefix: plugin name, else the
 * last segment of the source repository, else the agent id, else the root's
 * folder name), normalised; a taken name gets `-2`, `-3`, … with the stem cut
 * so the suffix always fits in 64 characters.
 *
 * @example
 * ```ts
 * import { applyPrecedence } from "./precedence.ts";
 * import type { DiscoveredSkill } from "./discover.ts";
 * declare const found: DiscoveredSkill[];
 * const { skills, dropped } = applyPrecedence(found, { dedupe: true, excludeSkills: [] });
 * ```
 * @module
 */
import { realpathSync } from "node:fs";
import { basename } from "node:path";
import { MAX_NAME_LENGTH, normalizeSkillName } from "../skill/names.ts";
import { compareCodeUnits } from "../util.ts";
import type { DiscoveredSkill } from "./discover.ts";

/** Why a skill was left out. */
export type DropReason = "excluded" | "same-file" | "same-content";

/** A skill left out, with the skill that won (itself when excluded). */
export interface DroppedSkill {
  /** The skill left out. */
  skill: DiscoveredSkill;
  /** The skill kept in its place (the skill itself when excluded). */
  winner: DiscoveredSkill;
  /** Why it was left out. */
  reason: DropReason;
}

/** Options of {@linkcode applyPrecedence}. */
export interface PrecedenceOptions {
  /** Drop the same file reached twice and the same name with the same body. */
  dedupe: boolean;
  /** Names never published, before or after renaming. */
  excludeSkills: readonly string[];
}

/** Rank, then root order, then path (plain code-unit order). */
function comparePrecedence(a: DiscoveredSkill, b: DiscoveredSkill): number {
  return a.rank - b.rank || a.rootIndex - b.rootIndex || compareCodeUnits(a.path, b.path);
}

/** What a renamed skill is prefixed with: plugin, source repository, agent, else root folder. */
function renamePrefix(skill: DiscoveredSkill): string {
  const origin = skill.origin;
  if (origin.kind === "claude-plugins" && origin.plugin) return origin.plugin;
  if (origin.kind === "source") {
    const last = origin.repo.split("/").filter((s) => s !== "").pop();
    if (last) return last;
  }
  if (origin.kind === "agent") return origin.agent;
  return basename(skill.root);
}

function trimTrailingHyphens(value: string): string {
  let end = value.length;
  while (end > 0 && value[end - 1] === "-") end--;
  return value.slice(0, end);
}

/** `candidate`, or the first `candidate-N` (cut to fit the name length) nothing has taken. */
function freeName(candidate: string, taken: Set<string>): string {
  if (!taken.has(candidate)) return candidate;
  for (let n = 2;; n++) {
    const suffix = `-${n}`;
    const stem = trimTrailingHyphens(candidate.slice(0, MAX_NAME_LENGTH - suffix.length));
    const name = `${stem}${suffix}`;
    if (!taken.has(name)) return name;
  }
}

/** The skill published under `newName`, with the collision warning. */
function rename(skill: DiscoveredSkill, newName: string): DiscoveredSkill {
  const warning = `name "${skill.name}" collides with another skill; published as "${newName}"`;
  return {
    ...skill,
    name: newName,
    renamedFrom: skill.name,
    warnings: [...skill.warnings, warning],
  };
}

/**
 * Applies precedence, dedupe, exclusion and renaming (see the module doc).
 * Real paths are resolved only for skills whose body hash repeats.
 */
export function applyPrecedence(
  found: readonly DiscoveredSkill[],
  options: PrecedenceOptions,
): { skills: DiscoveredSkill[]; dropped: DroppedSkill[] } {
  const exclude = new Set(options.excludeSkills);
  const { kept, dropped } = dedupe([...found].sort(comparePrecedence), exclude, options.dedupe);
  // A renamed skill can take an excluded name: exclusion applies to the published names too.
  const skills: DiscoveredSkill[] = [];
  for (const skill of renameCollisions(kept)) {
    if (exclude.has(skill.name)) dropped.push({ skill, winner: skill, reason: "excluded" });
    else skills.push(skill);
  }
  return { skills, dropped };
}

/** Walks the skills in precedence order, dropping excluded names and (with `on`) duplicates. */
function dedupe(
  ordered: readonly DiscoveredSkill[],
  exclude: ReadonlySet<string>,
  on: boolean,
): { kept: DiscoveredSkill[]; dropped: DroppedSkill[] } {
  const dropped: DroppedSkill[] = [];
  const kept: DiscoveredSkill[] = [];
  const byHash = new Map<string, DiscoveredSkill[]>();
  const realOf = realPaths();
  for (const skill of ordered) {
    if (exclude.has(skill.name)) {
      dropped.push({ skill, winner: skill, reason: "excluded" });
      continue;
    }
    const twins = on ? byHash.get(skill.contentHash) : undefined;
    const duplicate = twins === undefined ? undefined : duplicateOf(skill, twins, realOf);
    if (duplicate !== undefined) {
      dropped.push(duplicate);
      continue;
    }
    kept.push(skill);
    if (!on) continue;
    if (twins === undefined) byHash.set(skill.contentHash, [skill]);
    else twins.push(skill);
  }
  return { kept, dropped };
}

/**
 * Whether `skill` repeats one of its kept `twins` (same body hash): the same real file, else
 * the same name.
 */
function duplicateOf(
  skill: DiscoveredSkill,
  twins: readonly DiscoveredSkill[],
  realOf: (path: string) => string,
): DroppedSkill | undefined {
  const mine = realOf(skill.path);
  const sameFile = twins.find((twin) => realOf(twin.path) === mine);
  if (sameFile !== undefined) return { skill, winner: sameFile, reason: "same-file" };
  const sameName = twins.find((twin) => twin.name === skill.name);
  if (sameName !== undefined) return { skill, winner: sameName, reason: "same-content" };
  return undefined;
}

/** A remembered `realpath`: a path that cannot be resolved stands for itself. */
function realPaths(): (path: string) => string {
  const real = new Map<string, string>();
  return (path) => {
    let known = real.get(path);
    if (known === undefined) {
      try {
        known = realpathSync(path);
      } catch {
        known = path;
      }
      real.set(path, known);
    }
    return known;
  };
}

/** Renames every name collision among `kept` as the module doc says; order is kept. */
function renameCollisions(kept: DiscoveredSkill[]): DiscoveredSkill[] {
  const groups = new Map<string, number[]>();
  kept.forEach((skill, index) => {
    const group = groups.get(skill.name);
    if (group === undefined) groups.set(skill.name, [index]);
    else group.push(index);
  });
  const taken = new Set(kept.map((s) => s.name));
  const result = [...kept];
  for (const [name, members] of groups) {
    if (members.length < 2) continue;
    const thirdParty = members.every((i) => {
      const kind = kept[i].origin.kind;
      return kind === "claude-plugins" || kind === "source";
    });
    for (const index of thirdParty ? members : members.slice(1)) {
      const skill = kept[index];
      const candidate = normalizeSkillName(`${renamePrefix(skill)}-${name}`) ?? name;
      const newName = freeName(candidate, taken);
      taken.add(newName);
      result[index] = rename(skill, newName);
    }
  }
  return result;
}
