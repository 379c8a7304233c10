/**
 * Finding and naming skills, shared by every surface (the CLI's `search`, the
 * MCP server and the dsh tools): the search with its limits and the bodies it
 * reads, the rule for which skills a model may open, and the refusals of a
 * name, as failures with a `kind`. Functions over a list of skill summaries
 * plus a lookup; each surface adds its own words (its tool names, its hints).
 *
 * Without an index, the search reads every searched skill's body at search
 * time (through the caller's `body` reader; {@linkcode freshBody} for catalog
 * skills) rather than keeping bodies in the catalog, so discovery stays as
 * fast as before and a search sees the files as they are now: right for one
 * search (the CLI's `search`). A caller that searches again and again (the
 * MCP server) passes a {@linkcode SearchIndex} it keeps: the body of each
 * skill new to the index is read once and the index holds its word counts,
 * not its text; the ranking is the same.
 *
 * @example
 * ```ts
 * import { findLimits, findSkills } from "./_find.ts";
 * const skills = [{ name: "pdf-forms", description: "Fill in PDF forms." }];
 * const found = await findSkills(skills, { query: "pdf" }, { limits: findLimits() });
 * if (found.ok) console.log(found.matches.map((m) => m.skill.name)); // ["pdf-forms"]
 * ```
 *
 * @example With an index kept between searches
 * ```ts
 * import { SearchIndex } from "../catalog/mod.ts";
 * import { findLimits, findSkills } from "./_find.ts";
 * const skills = [{ name: "xlsx", description: "Spreadsheets." }];
 * const index = new SearchIndex<(typeof skills)[number]>();
 * const body = () => "Open Excel files.";
 * await findSkills(skills, { query: "excel" }, { limits: findLimits(), body, index }); // reads it
 * await findSkills(skills, { query: "open" }, { limits: findLimits(), body, index }); // does not
 * ```
 * @module
 */
import {
  type SearchableSkill,
  type SearchIndex,
  type SearchMatch,
  searchSkills,
} from "../catalog/mod.ts";
import { type Failure, failure } from "../errors.ts";
import { ReadError } from "../fs/mod.ts";
import { isSkillName } from "../skill/mod.ts";
import { readSkillNow } from "./_fresh.ts";

/** The default and the largest number of matches a search returns. */
export interface FindLimits {
  /** Matches returned when the request names no limit. */
  defaultLimit: number;
  /** The largest limit a request may ask for. */
  maxLimit: number;
}

/**
 * Normalised limits: whole numbers, at least 1, the largest never below the default.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findLimits } from "./_find.ts";
 * assert.deepEqual(findLimits(5, 2), { defaultLimit: 5, maxLimit: 5 });
 * ```
 */
export function findLimits(defaultLimit = 10, maxLimit = 200): FindLimits {
  const normalDefault = Math.max(1, Math.floor(defaultLimit));
  return { defaultLimit: normalDefault, maxLimit: Math.max(normalDefault, Math.floor(maxLimit)) };
}

/** A search request: keywords and, optionally, how many matches. */
export interface FindRequest {
  /** Keywords, as the user or model typed them. */
  query: string;
  /**
   * How many matches at most (capped by the limits).
   *
   * @default the limits' default
   */
  limit?: number;
}

/** Options of {@linkcode findSkills}. */
export interface FindOptions<T extends SearchableSkill> {
  /** The default and largest number of matches. */
  limits: FindLimits;
  /**
   * Keeps only matches a model may open.
   *
   * @default every match
   */
  openable?: (skill: T) => boolean | Promise<boolean>;
  /**
   * The skill's instructions now, searched after its name and description.
   *
   * @default none
   */
  body?: (skill: T) => string | undefined | Promise<string | undefined>;
  /**
   * An index the caller keeps between searches (default: none): `body` is then read only for
   * skills new to it (by object identity), and it forgets skills no longer searched.
   *
   * @default none
   */
  index?: SearchIndex<T>;
}

/** The matches (with why each matched), best first, and how many skills matched in all (`total`); or a refused query. */
export type FindResult<T extends SearchableSkill> =
  | { ok: true; total: number; matches: SearchMatch<T>[] }
  | Failure<"empty-query">;

/**
 * Ranks `skills` for the request's keywords and returns the best openable
 * matches, at most the request's limit (clamped to the limits).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findLimits, findSkills } from "./_find.ts";
 * const blank = await findSkills([], { query: "  " }, { limits: findLimits() });
 * assert.equal(blank.ok ? blank.total : blank.kind, "empty-query");
 * ```
 */
export async function findSkills<T extends SearchableSkill>(
  skills: readonly T[],
  request: FindRequest,
  options: FindOptions<T>,
): Promise<FindResult<T>> {
  const query = request.query.trim();
  if (query === "") return failure("empty-query", "query must not be empty");
  const { defaultLimit, maxLimit } = options.limits;
  const limit = Math.min(maxLimit, Math.max(1, Math.floor(request.limit ?? defaultLimit)));
  const index = options.index;
  if (index !== undefined) {
    await index.updateAsync(skills, options.body);
    if (options.openable === undefined) return { ok: true, ...index.rank(query, limit) };
  }
  const bodies = new Map<T, string | undefined>();
  if (index === undefined && options.body !== undefined) {
    for (const skill of skills) bodies.set(skill, await options.body(skill));
  }
  const ranked = index !== undefined
    ? index.search(query, skills.length)
    : searchSkills(skills, query, skills.length, { body: (s) => bodies.get(s) });
  const matches: SearchMatch<T>[] = [];
  let total = 0;
  for (const match of ranked) {
    if (options.openable !== undefined && !await options.openable(match.skill)) continue;
    total++;
    if (matches.length < limit) matches.push(match);
  }
  return { ok: true, total, matches };
}

/** A catalog skill as {@linkcode freshBody} reads it. */
export interface BodySource {
  /** The published name. */
  name: string;
  /** Absolute path of the Markdown file. */
  path: string;
  /** The real directory no link may leave. */
  confineTo?: string;
}

/**
 * A catalog skill's instructions as its file says now, read with the checks
 * every fresh read applies (links, confinement, 1 MiB, strict UTF-8);
 * `undefined` when the file cannot be read or parsed now (it is then searched
 * by its name and description only).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { freshBody } from "./_find.ts";
 * assert.equal(freshBody({ name: "gone", path: "/nowhere/gone/SKILL.md" }, true), undefined);
 * ```
 */
export function freshBody(skill: BodySource, lenient: boolean): string | undefined {
  try {
    const now = readSkillNow(skill.path, {
      fallbackName: skill.name,
      lenient,
      confineTo: skill.confineTo,
    });
    return now.ok ? now.skill.content : undefined;
  } catch (error) {
    if (error instanceof ReadError) return undefined;
    throw error;
  }
}

/** What decides whether a model may open a skill. */
export interface Invocability {
  /** The catalog lets the model invoke it. */
  modelInvocable: boolean;
  /** Only the catalog's budget hid it; its author allows model invocation. */
  hiddenOnlyByBudget?: boolean;
}

/**
 * The one openable rule: the model may invoke it, or only the budget hid it (not its author).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isOpenable } from "./_find.ts";
 * assert.equal(isOpenable({ modelInvocable: false, hiddenOnlyByBudget: true }), true);
 * ```
 */
export function isOpenable(skill: Invocability): boolean {
  return skill.modelInvocable || skill.hiddenOnlyByBudget === true;
}

/** Why a name cannot be opened. */
export type OpenRefusalKind = "invalid-name" | "unknown" | "disabled";

/**
 * The refusal of a skill whose author disabled model invocation: one wording
 * for every surface and for both the catalog's and the file's opt-out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { disabledByAuthor } from "./_find.ts";
 * assert.equal(disabledByAuthor("secret").kind, "disabled");
 * ```
 */
export function disabledByAuthor(name: string): Failure<"disabled"> {
  return failure(
    "disabled",
    `skill "${name}" is not available for model invocation (disabled by its author)`,
  );
}

/**
 * The skill a model asked for by `name`, if it may open it: a valid name,
 * known to `lookup`, and openable by `openable`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findOpenable } from "./_find.ts";
 * const found = await findOpenable("Bad Name", () => Promise.resolve(undefined), () => true);
 * assert.equal(found.ok ? "found" : found.kind, "invalid-name");
 * ```
 */
export async function findOpenable<T>(
  name: string,
  lookup: (name: string) => Promise<T | undefined>,
  openable: (skill: T) => boolean,
): Promise<{ ok: true; skill: T } | Failure<OpenRefusalKind>> {
  if (!isSkillName(name)) return failure("invalid-name", `invalid skill name "${name}"`);
  const skill = await lookup(name);
  if (skill === undefined) {
    return failure("unknown", `skill "${name}" is unknown or no longer available`);
  }
  return openable(skill) ? { ok: true, skill } : disabledByAuthor(name);
}
