/**
 * What the provider hands dsh: candidates, definitions, and the
 * `metadata.skillsAnywhere` record on both. This is the only place that
 * record is built; the catalog itself keeps its facts as typed fields of
 * `DiscoveredSkill`.
 *
 * The record: `origin`, `root`, `relativePath` (where the skill was found),
 * `warnings` (parse and collision warnings, when any), `renamedFrom` (the
 * name it had before a collision), `catalog` (its budget state) and
 * `authorInvocation` (what its author allows, read at list time on a
 * candidate and again at load time on a definition) and, under
 * `locked: true`, `lock` (which lock allows it, that file and its SHA-256:
 * at list time on a candidate, from the load itself on a definition).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readDshRecord } from "./record.ts";
 * const record = readDshRecord({ skillsAnywhere: { catalog: "hidden" } });
 * assert.equal(record.catalog, "hidden");
 * ```
 * @module
 */
import type { CatalogState } from "../lib/catalog/mod.ts";
import type { DiscoveredSkill } from "../lib/catalog/mod.ts";
import type { Origin } from "../lib/catalog/mod.ts";
import { isLockKind, type LockKind } from "../lib/locked.ts";
import type { ParsedSkill } from "../lib/skill/mod.ts";
import { isPlainObject } from "../lib/util.ts";

/** Invocation flags as dsh models them. */
export interface Invocation {
  modelInvocable: boolean;
  userInvocable: boolean;
}

/** The `metadata.skillsAnywhere` record dsh consumers see. */
export interface DshRecord {
  origin: Origin;
  /** The root path the skill was found under. */
  root: string;
  /** The skill file's path below that root, with `/` separators. */
  relativePath: string;
  /** Parse and collision warnings; absent when there are none. */
  warnings?: string[];
  /** The name the skill had before a collision renamed it. */
  renamedFrom?: string;
  catalog: CatalogState;
  authorInvocation: Invocation;
  /** Under `locked: true`, on a skill the locks allow: which one, as an MCP receipt says it. */
  lock?: LockedBy;
}

/** The lock a skill is served under: the project's or the user's, its file and SHA-256. */
export interface LockedBy {
  /** `project` (the project's `skills-anywhere.lock.json`) or `user` (the user lock). */
  kind: LockKind;
  /** The lock file's path. */
  file: string;
  /** The SHA-256 of the lock file's bytes that allowed the skill. */
  sha256: string;
}

/** A dsh skill candidate. */
export interface Candidate {
  name: string;
  description: string;
  whenToUse?: string;
  invocation: Invocation;
  provider: string;
  source: string;
  rank: number;
  /** Where to read it again; `projectLock` (the lock file) when served under a project lock. */
  locator: { path: string; directory: string; confineTo?: string; projectLock?: string };
  path: string;
  resourceBase: { kind: "directory"; path: string };
  metadata: Record<string, unknown>;
}

/** A dsh skill definition (a candidate with its body). */
export interface Definition {
  name: string;
  description: string;
  whenToUse?: string;
  invocation: Invocation;
  source: string;
  provider: string;
  resourceBase: { kind: "directory"; path: string };
  path: string;
  metadata: Record<string, unknown>;
  content: string;
}

type CatalogFacts = Pick<
  DshRecord,
  "origin" | "root" | "relativePath" | "warnings" | "renamedFrom"
>;

/** Where the catalog found `skill`, from its typed fields: the one place dsh reads them. */
function catalogFacts(skill: DiscoveredSkill): CatalogFacts {
  return {
    origin: skill.origin,
    root: skill.root,
    relativePath: skill.relativePath,
    ...(skill.warnings.length > 0 ? { warnings: [...skill.warnings] } : {}),
    ...(skill.renamedFrom === undefined ? {} : { renamedFrom: skill.renamedFrom }),
  };
}

/**
 * The metadata of a candidate for `skill`: the skill's own metadata and the
 * `skillsAnywhere` record with its budget state and author invocation.
 */
function toDshMetadata(
  skill: DiscoveredSkill,
  extra: { catalog: CatalogState },
): Record<string, unknown> {
  const record: DshRecord = {
    ...catalogFacts(skill),
    catalog: extra.catalog,
    authorInvocation: { ...skill.invocation },
  };
  return { ...skill.metadata, skillsAnywhere: record };
}

/**
 * The `skillsAnywhere` record of a skill from any provider, checked: the
 * budget state, author invocation and lock when they are there and well-formed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readDshRecord } from "./record.ts";
 * assert.deepEqual(readDshRecord(undefined), {});
 * ```
 */
export function readDshRecord(
  metadata: Record<string, unknown> | undefined,
): Partial<Pick<DshRecord, "catalog" | "authorInvocation" | "lock">> {
  const record = metadata?.skillsAnywhere;
  if (!isPlainObject(record)) return {};
  const out: Partial<Pick<DshRecord, "catalog" | "authorInvocation" | "lock">> = {};
  const { catalog, authorInvocation: author, lock } = record;
  if (
    isPlainObject(lock) && isLockKind(lock.kind) &&
    typeof lock.file === "string" && typeof lock.sha256 === "string" &&
    /^[0-9a-f]{64}$/.test(lock.sha256)
  ) {
    out.lock = { kind: lock.kind, file: lock.file, sha256: lock.sha256 };
  }
  if (catalog === "visible" || catalog === "hidden" || catalog === "disabled") {
    out.catalog = catalog;
  }
  if (
    isPlainObject(author) && typeof author.modelInvocable === "boolean" &&
    typeof author.userInvocable === "boolean"
  ) {
    out.authorInvocation = {
      modelInvocable: author.modelInvocable,
      userInvocable: author.userInvocable,
    };
  }
  return out;
}

/**
 * The `whenToUse` line that marks a skill the catalog budget (or `hide`) keeps
 * out of the model's catalog: dsh's `skill.list` and `/` menu show a skill
 * that is not model-invocable as user-only, and this line is what tells the
 * two apart there (an author-disabled skill never carries it).
 */
const BUDGET_HIDDEN_NOTE =
  "Not in the model's skill catalog (skills-anywhere budget): the model finds it with " +
  "find_skills and loads it with open_skill.";

/**
 * The candidate dsh lists for `skill` in budget state `state`: a hidden skill
 * is not model-invocable but keeps its author's user invocation, and its
 * `whenToUse` starts with the budget note (`BUDGET_HIDDEN_NOTE`).
 *
 * @example
 * ```ts
 * import type { DiscoveredSkill } from "../lib/catalog/mod.ts";
 * import { toCandidate } from "./record.ts";
 * function example(skill: DiscoveredSkill) {
 *   console.log(toCandidate(skill, "hidden", "skills-anywhere").invocation.modelInvocable); // false
 * }
 * ```
 */
export function toCandidate(
  skill: DiscoveredSkill,
  state: CatalogState,
  provider: string,
): Candidate {
  const author = skill.invocation;
  const candidate: Candidate = {
    name: skill.name,
    description: skill.description,
    invocation: state === "hidden"
      ? { modelInvocable: false, userInvocable: author.userInvocable }
      : { ...author },
    provider,
    source: skill.source,
    rank: skill.rank,
    locator: {
      path: skill.path,
      directory: skill.directory,
      ...(skill.confineTo === undefined ? {} : { confineTo: skill.confineTo }),
    },
    path: skill.path,
    resourceBase: { kind: "directory", path: skill.directory },
    metadata: toDshMetadata(skill, { catalog: state }),
  };
  const whenToUse = state === "hidden"
    ? [BUDGET_HIDDEN_NOTE, skill.whenToUse].filter((line) => line !== undefined).join(" ")
    : skill.whenToUse;
  if (whenToUse !== undefined) candidate.whenToUse = whenToUse;
  return candidate;
}

/**
 * The definition of `candidate` from its file as read now: the current
 * description and body, invocation narrowed by the author's current
 * setting, and `authorInvocation` updated to it.
 *
 * @example
 * ```ts
 * import type { ParsedSkill } from "../lib/skill/mod.ts";
 * import { type Candidate, toDefinition } from "./record.ts";
 * function example(candidate: Candidate, now: ParsedSkill) {
 *   console.log(toDefinition(candidate, now).content);
 * }
 * ```
 */
export function toDefinition(candidate: Candidate, now: ParsedSkill): Definition {
  const current = now.invocation;
  const record = candidate.metadata.skillsAnywhere;
  const definition: Definition = {
    name: candidate.name,
    description: now.description,
    invocation: {
      modelInvocable: candidate.invocation.modelInvocable && current.modelInvocable,
      userInvocable: candidate.invocation.userInvocable && current.userInvocable,
    },
    source: candidate.source,
    provider: candidate.provider,
    resourceBase: candidate.resourceBase,
    path: candidate.locator.path,
    metadata: {
      ...now.metadata,
      ...candidate.metadata,
      skillsAnywhere: { ...(isPlainObject(record) ? record : {}), authorInvocation: current },
    },
    content: now.content,
  };
  if (now.whenToUse !== undefined) definition.whenToUse = now.whenToUse;
  return definition;
}
