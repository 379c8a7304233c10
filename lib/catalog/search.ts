/**
 * The one keyword ranker, shared by the CLI's `search`, the MCP server, the
 * dsh tools and the browser page.
 *
 * Terms are the lowercase query split on anything that is not a letter or a
 * digit, terms of one character dropped, duplicates removed. Per term: name
 * equal +60, else a hyphen-separated word of the name equal +40, else the name
 * contains it +20; description contains +8; `whenToUse` contains +6;
 * `"<source> <provider>"` contains +2; and each term matched by one of these
 * fields adds +30. The body (the instructions, when the caller supplies them)
 * counts last: a term found `n` times in it (non-overlapping) adds
 * `1 + ⌊log₂ n⌋` points, at most 5 (1 time → 1, 2 → 2, 4 → 3, 8 → 4, 16 or
 * more → 5), and the body adds at most 30 points for all terms together. A
 * term found only in the body counts as matched but earns no +30, so any skill
 * matching a term in its name, description, `whenToUse` or origin (≥ 32)
 * outranks every skill matched by its body alone (≤ 30). Skills with no
 * matched term are dropped; the rest sort by score, then name. Each match says
 * why it matched: per term, the fields that contain it and, for the body, how
 * many times.
 *
 * @example
 * ```ts
 * import { queryTerms, searchSkills } from "./search.ts";
 * queryTerms("PDF forms, pdf!"); // ["pdf", "forms"]
 * ```
 * @module
 */
import { compareCodeUnits } from "../util.ts";

/** What the ranker reads of a skill. */
export interface SearchableSkill {
  name: string;
  description: string;
  /** The dsh `whenToUse` hint, ranked below the description. */
  whenToUse?: string;
  /** Where the skill comes from (`list --json`'s `source`), ranked lowest of the fields. */
  source?: string;
  /** The provider that serves it, ranked with `source`. */
  provider?: string;
}

/** A field a term can be found in; `origin` is `source` and `provider` together. */
export type MatchField = "name" | "description" | "whenToUse" | "origin" | "body";

/** Why a skill matched one term. */
export interface TermMatch {
  /** The query term. */
  term: string;
  /** The fields that contain it, in ranking order. */
  fields: MatchField[];
  /** How many times the body contains it (present when `fields` has `body`). */
  occurrences?: number;
}

/** One ranked match. */
export interface SearchMatch<T extends SearchableSkill> {
  /** The skill matched. */
  skill: T;
  /** Its score as the module doc counts it; higher ranks first. */
  score: number;
  /** Each matched term, in query order, with where it was found. */
  matched: TermMatch[];
}

/** Options of {@linkcode searchSkills}. */
export interface SearchOptions<T> {
  /** The skill's body text, when known (ranked last; see the module doc). */
  body?: (skill: T) => string | undefined;
}

/** Points of a term found in the body `n` times, and the body's cap over all terms. */
const BODY_TERM_MAX = 5;
const BODY_MAX = 30;

/**
 * The search terms of `query`.
 *
 * @example
 * ```ts
 * queryTerms("a"); // []
 * ```
 */
export function queryTerms(query: string): string[] {
  const terms = query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 1);
  return [...new Set(terms)];
}

/** How many non-overlapping times `text` contains `term`. */
function occurrences(text: string, term: string): number {
  let count = 0;
  for (let at = text.indexOf(term); at !== -1; at = text.indexOf(term, at + term.length)) count++;
  return count;
}

/** The fields' points for one term (name, description, whenToUse, origin), and which matched. */
function fieldScore(skill: SearchableSkill, term: string, fields: MatchField[]): number {
  const name = skill.name.toLowerCase();
  let score = 0;
  if (name === term) score += 60;
  else if (name.split("-").includes(term)) score += 40;
  else if (name.includes(term)) score += 20;
  if (score > 0) fields.push("name");
  const more: [MatchField, string | undefined, number][] = [
    ["description", skill.description, 8],
    ["whenToUse", skill.whenToUse, 6],
    ["origin", `${skill.source ?? ""} ${skill.provider ?? ""}`, 2],
  ];
  for (const [field, text, points] of more) {
    if (text !== undefined && text.toLowerCase().includes(term)) {
      score += points;
      fields.push(field);
    }
  }
  return score;
}

/** One skill's score and reasons for `terms`; `undefined` when no term matched. */
function scoreSkill<T extends SearchableSkill>(
  skill: T,
  terms: readonly string[],
  body: string | undefined,
): SearchMatch<T> | undefined {
  let score = 0;
  let bodyScore = 0;
  const matched: TermMatch[] = [];
  for (const term of terms) {
    const fields: MatchField[] = [];
    const points = fieldScore(skill, term, fields);
    if (points > 0) score += points + 30;
    const count = body === undefined ? 0 : occurrences(body, term);
    if (count > 0) {
      fields.push("body");
      bodyScore += Math.min(BODY_TERM_MAX, 1 + Math.floor(Math.log2(count)));
    }
    if (fields.length > 0) {
      matched.push(count > 0 ? { term, fields, occurrences: count } : { term, fields });
    }
  }
  if (matched.length === 0) return undefined;
  return { skill, score: score + Math.min(BODY_MAX, bodyScore), matched };
}

/**
 * Ranks `skills` for `query`, best first, at most `limit`; with
 * `options.body`, the bodies count too (see the module doc).
 *
 * @example
 * ```ts
 * import { type SearchableSkill, searchSkills } from "./search.ts";
 * declare const skills: SearchableSkill[];
 * searchSkills(skills, "react testing", 2).map((m) => m.skill.name); // ["react-testing", "react"]
 * ```
 */
export function searchSkills<T extends SearchableSkill>(
  skills: readonly T[],
  query: string,
  limit: number,
  options: SearchOptions<T> = {},
): SearchMatch<T>[] {
  const terms = queryTerms(query);
  if (terms.length === 0) return [];
  const matches: SearchMatch<T>[] = [];
  for (const skill of skills) {
    const match = scoreSkill(skill, terms, options.body?.(skill)?.toLowerCase());
    if (match !== undefined) matches.push(match);
  }
  matches.sort((a, b) => b.score - a.score || compareCodeUnits(a.skill.name, b.skill.name));
  return matches.slice(0, Math.max(0, limit));
}
