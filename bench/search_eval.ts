/**
 * The search evaluation: the natural queries of `testdata/search-eval/queries.json` over the real
 * public skills of `testdata/search-eval/corpus.json`, ranked by the one ranker
 * (`lib/catalog/_search.ts`, bodies included) and by a plain BM25 baseline over name and
 * description computed in the same run. Per query, the reciprocal rank of the first accepted skill
 * in the top 5 (0 when none) and whether one is in the top 3; their means are MRR@5 and hit@3.
 * Used by `tests/search_eval_test.ts` (against the committed floor) and by `deno task bench
 * search`.
 *
 * The baseline is BM25 (k1 1.2, b 0.75) over one text, the name and the description joined, its
 * words the lowercase runs of letters and digits, with no stemming, no stop words and no field
 * weights; ties by name.
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { searchSkills } from "../lib/catalog/mod.ts";
import { compareCodeUnits } from "../lib/util.ts";

/** One skill of the corpus. */
export interface EvalSkill {
  id: string;
  name: string;
  description: string;
  excerpt: string;
}

/** One query and the corpus ids a person would accept. */
export interface EvalQuery {
  query: string;
  accept: string[];
}

/** The committed data: corpus, queries and the floor. */
export interface EvalData {
  skills: EvalSkill[];
  queries: EvalQuery[];
  floor: { mrr_at_5: number; hit_at_3: number };
}

/** One ranker's figures, and per query the rank of the first accepted skill (0: not in the top 5). */
export interface EvalScore {
  mrrAt5: number;
  hitAt3: number;
  ranks: { query: string; rank: number; top: string[] }[];
}

const DIR = new URL("../testdata/search-eval/", import.meta.url);

/** Reads the committed corpus, queries and floor. */
export function loadEval(): EvalData {
  const corpus = JSON.parse(readFileSync(new URL("corpus.json", DIR), "utf8"));
  const queries = JSON.parse(readFileSync(new URL("queries.json", DIR), "utf8"));
  return { skills: corpus.skills, queries: queries.queries, floor: queries.floor };
}

/** MRR@5 and hit@3 of `rank` (ids best first) over the queries. */
export function score(queries: readonly EvalQuery[], rank: (query: string) => string[]): EvalScore {
  const ranks = queries.map(({ query, accept }) => {
    const top = rank(query).slice(0, 5);
    const at = top.findIndex((id) => accept.includes(id));
    return { query, rank: at + 1, top };
  });
  const mean = (f: (r: { rank: number }) => number) =>
    ranks.reduce((sum, r) => sum + f(r), 0) / ranks.length;
  return {
    mrrAt5: mean((r) => (r.rank > 0 ? 1 / r.rank : 0)),
    hitAt3: mean((r) => (r.rank > 0 && r.rank <= 3 ? 1 : 0)),
    ranks,
  };
}

/** The one ranker over the corpus, with the excerpt as the body. */
export function rankerOf(skills: readonly EvalSkill[]): (query: string) => string[] {
  return (query) =>
    searchSkills(skills, query, 5, { body: (s) => s.excerpt }).map((m) => m.skill.id);
}

/** The plain BM25 baseline over name and description (see the module doc). */
export function baselineOf(skills: readonly EvalSkill[]): (query: string) => string[] {
  const words = (text: string) => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const docs = skills.map((s) => words(`${s.name} ${s.description}`));
  const average = docs.reduce((sum, d) => sum + d.length, 0) / docs.length;
  const df = new Map<string, number>();
  for (const d of docs) for (const w of new Set(d)) df.set(w, (df.get(w) ?? 0) + 1);
  const n = docs.length;
  return (query) => {
    const terms = [...new Set(words(query))];
    const scored = skills.map((skill, i) => {
      let total = 0;
      for (const t of terms) {
        const tf = docs[i].filter((w) => w === t).length;
        if (tf === 0) continue;
        const d = df.get(t) ?? 0;
        const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
        total += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * docs[i].length / average));
      }
      return { id: skill.id, name: skill.name, total };
    }).filter((s) => s.total > 0);
    scored.sort((a, b) => b.total - a.total || compareCodeUnits(a.name, b.name));
    return scored.map((s) => s.id);
  };
}

/** Both rankers' figures over the committed data. */
export function evaluate(data: EvalData = loadEval()): { ranker: EvalScore; baseline: EvalScore } {
  return {
    ranker: score(data.queries, rankerOf(data.skills)),
    baseline: score(data.queries, baselineOf(data.skills)),
  };
}
