/**
 * Precedence: order skills by rank, root order and path; drop excluded ones
 * and duplicates; rename the remaining name collisions deterministically.
 *
 * Duplicates: the same file reached twice (`same-file`: one real path), or
 * the same skill directory twice (`same-content`: the same name and the same
 * bundle, that is the same `skills-anywhere-bundle-1` digest over every file
 * of the directory; a flat `<name>.md` file is a bundle of that one file).
 * Digests are computed only for same-name skills whose bodies are the same.
 * A directory that cannot be bundled (too big, links, special files) is never
 * collapsed: both copies are kept, and one is renamed.
 *
 * Renaming: in a group of skills sharing a name, a skill whose file declares
 * that name exactly comes first, then one whose folder has that name, then one
 * whose name was repaired (precedence order within each). The first keeps the
 * bare name unless every member comes from a plugin or a Git source (then all
 * are renamed), or its name was repaired and another skill's folder has that
 * name (a repaired name never takes another skill's folder name). The new name
 * is `<prefix>-<name>` (prefix: plugin name, else the last segment of the
 * source repository, else the agent id, else the root's folder name),
 * normalised; a name some skill is published under or whose folder has it
 * gets `-2`, `-3`, … with the stem cut so the suffix always fits in 64
 * characters.
 *
 * Under a project lock (`locked`: the place each locked name was published
 * from), a name is stable: in a group sharing a locked name, the member at
 * the locked place (same origin in the lock's form, same relative path)
 * keeps the bare name whatever its rank, and every other member is renamed
 * as above. A lock only chooses among the skills found: it adds, drops or
 * reads nothing.
 *
 * Every renamed skill says why ({@linkcode RenameReason}): `locked` when the
 * lock gave its name to another place (without the lock it would have kept
 * it), `third-party` when every member came from a plugin or a Git source,
 * `folder` when its name was repaired onto another skill's folder name, else
 * `collision`.
 *
 * @example
 * ```ts
 * import { applyPrecedence } from "./_precedence.ts";
 * import type { DiscoveredSkill } from "./_types.ts";
 * async function example(found: DiscoveredSkill[]) {
 *   const { skills, dropped } = await applyPrecedence(found, { dedupe: true, excludeSkills: [] });
 * }
 * ```
 * @module
 */
import { basename, sep } from "node:path";
import { KindError } from "../errors.ts";
import { readBoundedSync, realPaths } from "../fs/mod.ts";
import { sha256Hex } from "../hash.ts";
import { MAX_BUNDLE_SKILL_BYTES } from "../limits.ts";
import { isSkillName, MAX_NAME_LENGTH, normalizeSkillName } from "../skill/mod.ts";
import { compareCodeUnits } from "../util.ts";
import { isLockedPlace, type LockedNames } from "../lock/mod.ts";
import type { DiscoveredSkill, RenameReason } from "./_types.ts";

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
  /** Drop the same file reached twice and the same skill directory (same name, same bundle). */
  dedupe: boolean;
  /** Names never published, before or after renaming. */
  excludeSkills: readonly string[];
  /**
   * The key of a skill's parsed body: equal bodies must have equal keys (equal keys need not
   * mean equal bodies; a duplicate is confirmed by real path or bundle digest). Dedupe compares
   * only skills with the same key; a skill without one is never a duplicate.
   *
   * @default none
   */
  bodyKey?: (skill: DiscoveredSkill) => string | undefined;
  /**
   * The project lock's place of each published name: that skill keeps the name.
   *
   * @default none
   */
  locked?: LockedNames;
}

/** Rank, then root order, then path (plain code-unit order). */
function comparePrecedence(a: DiscoveredSkill, b: DiscoveredSkill): number {
  return a.rank - b.rank || a.rootIndex - b.rootIndex || compareCodeUnits(a.path, b.path);
}

/**
 * What a renamed skill is prefixed with: plugin, source repository, agent, else root folder.
 *
 * @example
 * ```ts
 * import { renamePrefix } from "./_precedence.ts";
 * import type { DiscoveredSkill } from "./_types.ts";
 * function example(skill: DiscoveredSkill) {
 *   renamePrefix(skill); // "codex" for a skill of the codex agent's folder
 * }
 * ```
 */
export function renamePrefix(skill: DiscoveredSkill): string {
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

/** The warning of each rename reason, after `name "<name>" `. */
const RENAME_WARNINGS: Readonly<Record<RenameReason, string>> = {
  locked: "is locked by the project to another skill",
  collision: "collides with another skill",
  "third-party": "collides with another skill",
  folder: "collides with another skill",
};

/** The skill published under `newName`, with the collision warning and why. */
function rename(skill: DiscoveredSkill, newName: string, because: RenameReason): DiscoveredSkill {
  const warning = `name "${skill.name}" ${RENAME_WARNINGS[because]}; published as "${newName}"`;
  return {
    ...skill,
    name: newName,
    renamedFrom: skill.name,
    renamedBecause: because,
    warnings: [...skill.warnings, warning],
  };
}

/**
 * Applies precedence, dedupe, exclusion and renaming (see the module doc).
 * Real paths and bundle digests are computed only for skills whose body key repeats.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { applyPrecedence } from "./_precedence.ts";
 * const { skills } = await applyPrecedence([], { dedupe: true, excludeSkills: [] });
 * assert.equal(skills.length, 0);
 * ```
 */
export async function applyPrecedence(
  found: readonly DiscoveredSkill[],
  options: PrecedenceOptions,
): Promise<{ skills: DiscoveredSkill[]; dropped: DroppedSkill[] }> {
  const exclude = new Set(options.excludeSkills);
  const ordered = [...found].sort(comparePrecedence);
  const { kept, dropped } = await dedupe(
    ordered,
    exclude,
    options.dedupe ? options.bodyKey : undefined,
  );
  // A renamed skill can take an excluded name: exclusion applies to the published names too.
  const skills: DiscoveredSkill[] = [];
  for (const skill of renameCollisions(kept, options.locked)) {
    if (exclude.has(skill.name)) dropped.push({ skill, winner: skill, reason: "excluded" });
    else skills.push(skill);
  }
  return { skills, dropped };
}

/**
 * Walks the skills in precedence order, dropping excluded names and (given `bodyKey`)
 * duplicates among the skills that share a body key.
 */
async function dedupe(
  ordered: readonly DiscoveredSkill[],
  exclude: ReadonlySet<string>,
  bodyKey: ((skill: DiscoveredSkill) => string | undefined) | undefined,
): Promise<{ kept: DiscoveredSkill[]; dropped: DroppedSkill[] }> {
  const dropped: DroppedSkill[] = [];
  const kept: DiscoveredSkill[] = [];
  const byBody = new Map<string, DiscoveredSkill[]>();
  const identity: Identity = { realOf: realPaths(), digestOf: bundleDigests() };
  for (const skill of ordered) {
    if (exclude.has(skill.name)) {
      dropped.push({ skill, winner: skill, reason: "excluded" });
      continue;
    }
    const key = bodyKey?.(skill);
    const twins = key === undefined ? undefined : byBody.get(key);
    const duplicate = twins === undefined ? undefined : await duplicateOf(skill, twins, identity);
    if (duplicate !== undefined) {
      dropped.push(duplicate);
      continue;
    }
    kept.push(skill);
    if (key === undefined) continue;
    if (twins === undefined) byBody.set(key, [skill]);
    else twins.push(skill);
  }
  return { kept, dropped };
}

/** How dedupe tells skills apart: real paths, and bundle digests (`undefined`: no bundle). */
interface Identity {
  realOf: (path: string) => string;
  digestOf: (skill: DiscoveredSkill) => Promise<string | undefined>;
}

/**
 * Whether `skill` repeats one of its kept `twins` (same body key): the same real file, else
 * the same name and the same bundle.
 */
async function duplicateOf(
  skill: DiscoveredSkill,
  twins: readonly DiscoveredSkill[],
  identity: Identity,
): Promise<DroppedSkill | undefined> {
  const mine = identity.realOf(skill.path);
  const sameFile = twins.find((twin) => identity.realOf(twin.path) === mine);
  if (sameFile !== undefined) return { skill, winner: sameFile, reason: "same-file" };
  for (const twin of twins) {
    if (twin.name !== skill.name) continue;
    const digest = await identity.digestOf(skill);
    if (digest === undefined) return undefined;
    if (digest === await identity.digestOf(twin)) {
      return { skill, winner: twin, reason: "same-content" };
    }
  }
  return undefined;
}

/** Whether the skill is a flat `<name>.md` file rather than a directory with a `SKILL.md`. */
function isFlat(skill: DiscoveredSkill): boolean {
  return !skill.path.endsWith(sep + "SKILL.md");
}

/** Remembered bundle digests, by skill file. */
function bundleDigests(): (skill: DiscoveredSkill) => Promise<string | undefined> {
  const digests = new Map<string, Promise<string | undefined>>();
  return (skill) => {
    let known = digests.get(skill.path);
    if (known === undefined) {
      known = bundleDigest(skill);
      digests.set(skill.path, known);
    }
    return known;
  };
}

/**
 * The bundle digest of a skill: its directory's, or for a flat file that of a bundle holding
 * the file alone as `SKILL.md`; `undefined` when it cannot be bundled.
 */
async function bundleDigest(skill: DiscoveredSkill): Promise<string | undefined> {
  try {
    // Loaded on the first digest: most listings compare no bundles.
    const [{ readBundle }, { buildManifest }] = await Promise.all([
      import("../bundle/mod.ts"),
      import("../bundle/mod.ts"),
    ]);
    if (!isFlat(skill)) return (await readBundle(skill.directory)).manifest.sha256;
    const { bytes } = readBoundedSync(skill.path, {
      maxBytes: MAX_BUNDLE_SKILL_BYTES,
      followSymlinks: true,
      within: skill.confineTo,
    });
    const row = { path: "SKILL.md", bytes: bytes.length, sha256: sha256Hex(bytes) };
    return (await buildManifest([row])).sha256;
  } catch (error) {
    // A bundle refusal (BundleError) or a read refusal (ReadError): never collapsed.
    if (error instanceof KindError) return undefined;
    throw error;
  }
}

/** The folder a skill's file names it by: its directory, or a flat file's name without `.md`. */
function folderName(skill: DiscoveredSkill): string {
  // Paths here are absolute and joined with `sep`: the last segment is a plain slice.
  const path = isFlat(skill) ? skill.path.replace(/\.md$/i, "") : skill.directory;
  return path.slice(path.lastIndexOf(sep) + 1);
}

/**
 * How strongly a skill holds its published name: 0 declared exactly, 1 its folder's (`folder`),
 * 2 repaired.
 */
function claimStrength(skill: DiscoveredSkill, folder: string): number {
  if (skill.nameDeclared) return 0;
  return folder === skill.name ? 1 : 2;
}

/** Published names with the indices (into `kept`, in precedence order) of their skills. */
function nameGroups(kept: readonly DiscoveredSkill[]): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  kept.forEach((skill, index) => {
    const group = groups.get(skill.name);
    if (group === undefined) groups.set(skill.name, [index]);
    else group.push(index);
  });
  return groups;
}

/** The member of a group at the place `name` is locked to, if any (the first in precedence). */
function lockedMember(
  name: string,
  members: readonly number[],
  kept: readonly DiscoveredSkill[],
  locked: LockedNames | undefined,
): number | undefined {
  const place = locked?.get(name);
  if (place === undefined) return undefined;
  return members.find((i) => isLockedPlace(place, kept[i].origin, kept[i].relativePath));
}

/**
 * The members of the group publishing `name` that must be renamed, each with why (see the
 * module doc).
 */
function losers(
  name: string,
  members: readonly number[],
  kept: readonly DiscoveredSkill[],
  names: Folders,
  locked: LockedNames | undefined,
): Map<number, RenameReason> {
  const unlocked = unlockedLosers(name, members, kept, names);
  const keeper = lockedMember(name, members, kept, locked);
  if (keeper === undefined) return unlocked;
  return new Map(
    members.filter((i) => i !== keeper).map((i) => [i, unlocked.get(i) ?? "locked"]),
  );
}

/** The members renamed when no lock chooses, with why. */
function unlockedLosers(
  name: string,
  members: readonly number[],
  kept: readonly DiscoveredSkill[],
  names: Folders,
): Map<number, RenameReason> {
  const strength = (i: number) => claimStrength(kept[i], names.of[i]);
  const ordered = [...members].sort((a, b) => strength(a) - strength(b) || a - b);
  const thirdParty = members.length > 1 && members.every((i) => {
    const kind = kept[i].origin.kind;
    return kind === "claude-plugins" || kind === "source";
  });
  // Strength 2 means the skill's own folder is not `name`: another skill's folder is.
  const repairedOnFolder = strength(ordered[0]) === 2 && names.valid.has(name);
  if (thirdParty) return new Map(ordered.map((i) => [i, "third-party"]));
  if (repairedOnFolder) {
    return new Map(ordered.map((i, n) => [i, n === 0 ? "folder" : "collision"]));
  }
  return new Map(ordered.slice(1).map((i) => [i, strength(i) === 2 ? "folder" : "collision"]));
}

/** The folder name of each kept skill (by index), and the set of those that are valid names. */
interface Folders {
  of: readonly string[];
  valid: ReadonlySet<string>;
}

/** Renames every name collision among `kept` as the module doc says; order is kept. */
function renameCollisions(
  kept: readonly DiscoveredSkill[],
  locked: LockedNames | undefined,
): DiscoveredSkill[] {
  const of = kept.map(folderName);
  const names: Folders = { of, valid: new Set(of.filter(isSkillName)) };
  // Every published name and folder name, built on the first rename (most listings have none).
  let taken: Set<string> | undefined;
  const result = [...kept];
  for (const [name, members] of nameGroups(kept)) {
    // A lone skill is renamed only when its name was repaired onto another skill's folder name.
    if (
      members.length < 2 &&
      (claimStrength(kept[members[0]], of[members[0]]) < 2 || !names.valid.has(name))
    ) {
      continue;
    }
    for (const [index, because] of losers(name, members, kept, names, locked)) {
      taken ??= new Set([...kept.map((s) => s.name), ...names.valid]);
      const skill = kept[index];
      const candidate = normalizeSkillName(`${renamePrefix(skill)}-${name}`) ?? name;
      const newName = freeName(candidate, taken);
      taken.add(newName);
      result[index] = rename(skill, newName, because);
    }
  }
  return result;
}
