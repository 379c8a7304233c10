/**
 * The one keyword ranker, shared by the MCP server, the dsh tools and the
 * browser page.
 *
 * Terms are the lowercase query split on anything that is not a letter or a
 * digit, terms of one character dropped, duplicates removed. Per term: name
 * equal +60, else a hyphen-separated word of the name equal +40, else the name
 * contains it +20; description contains +8; `whenToUse` contains +6;
 * `"<source> <provider>"` contains +2. Each matched term adds +30. Skills with
 * no matched term are dropped; the rest sort by score, then name.
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
  /** Where the skill comes from (`list --json`'s `source`), ranked lowest. */
  source?: string;
  /** The provider that serves it, ranked with `source`. */
  provider?: string;
}

/** One ranked match. */
export interface SearchMatch<T extends SearchableSkill> {
  /** The skill matched. */
  skill: T;
  /** Its score as the module doc counts it; higher ranks first. */
  score: number;
}

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

/**
 * Ranks `skills` for `query`, best first, at most `limit`.
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
): SearchMatch<T>[] {
  const terms = queryTerms(query);
  if (terms.length === 0) return [];
  const matches: SearchMatch<T>[] = [];
  for (const skill of skills) {
    const name = skill.name.toLowerCase();
    const words = name.split("-");
    const description = skill.description.toLowerCase();
    const when = (skill.whenToUse ?? "").toLowerCase();
    const origin = `${skill.source ?? ""} ${skill.provider ?? ""}`.toLowerCase();
    let score = 0;
    let matched = 0;
    for (const term of terms) {
      let termScore = 0;
      if (name === term) termScore += 60;
      else if (words.includes(term)) termScore += 40;
      else if (name.includes(term)) termScore += 20;
      if (description.includes(term)) termScore += 8;
      if (when.includes(term)) termScore += 6;
      if (origin.includes(term)) termScore += 2;
      if (termScore > 0) {
        matched++;
        score += termScore + 30;
      }
    }
    if (matched > 0) matches.push({ skill, score });
  }
  matches.sort((a, b) => b.score - a.score || compareCodeUnits(a.skill.name, b.skill.name));
  return matches.slice(0, Math.max(0, limit));
}
