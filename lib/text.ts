/**
 * Words shared by every surface: "did you mean" and counted nouns ({@linkcode counted}: "1 skill",
 * "2 skills", one rule for every surface).
 *
 * "Did you mean": the candidates closest to a mistyped word, by optimal string
 * alignment distance (insertions, deletions, substitutions and swaps of two
 * neighbouring characters each cost 1: `lsit` is 1 from `list`).
 *
 * A candidate is close when its distance is at most a third of the longer
 * word's length (at least 1), or when one word starts with the other and the
 * shorter has at least three characters (`--res` → `--resources`). Ties keep
 * the candidates' order. Pure, no imports.
 *
 * Every "did you mean" is worded here ({@linkcode didYouMean},
 * {@linkcode suggestion}); a caller chooses the candidates and how each is
 * shown (quoted, escaped), never the sentence.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { closest, didYouMean } from "./text.ts";
 * assert.deepEqual(closest("lsit", ["list", "show", "search"]), ["list"]);
 * assert.deepEqual(closest("xlxs", ["xlsx", "docx", "pdf"]), ["xlsx"]);
 * assert.equal(didYouMean("lsit", ["list", "show"]), " (did you mean list?)");
 * ```
 * @module
 */

/**
 * The optimal string alignment distance between `a` and `b`, or `limit + 1`
 * as soon as it must exceed `limit` (so long unrelated words cost little).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { editDistance } from "./text.ts";
 * assert.equal(editDistance("--jsn", "--json"), 1);
 * ```
 */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = new Array<number>(b.length + 1);
    current[0] = i;
    let rowMin = current[0];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, before[j - 2] + 1);
      }
      current[j] = value;
      rowMin = Math.min(rowMin, value);
    }
    if (rowMin > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length];
}

/**
 * The candidates close to `word` (see the module doc), closest first, at most `max`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { closest } from "./text.ts";
 * assert.deepEqual(closest("--jsn", ["--json", "--all"]), ["--json"]);
 * assert.deepEqual(closest("zzz", ["list"]), []);
 * ```
 */
export function closest(word: string, candidates: readonly string[], max = 3): string[] {
  const lower = word.toLowerCase();
  const scored: { candidate: string; distance: number; index: number }[] = [];
  candidates.forEach((candidate, index) => {
    const other = candidate.toLowerCase();
    const limit = Math.max(1, Math.floor(Math.max(lower.length, other.length) / 3));
    const distance = editDistance(lower, other, limit);
    const shorter = Math.min(lower.length, other.length);
    const prefix = shorter >= 3 && (other.startsWith(lower) || lower.startsWith(other));
    if (distance <= limit || prefix) {
      scored.push({ candidate, distance: prefix ? Math.min(distance, limit) : distance, index });
    }
  });
  scored.sort((x, y) => x.distance - y.distance || x.index - y.index);
  return scored.slice(0, max).map((s) => s.candidate);
}

/**
 * Where a suggestion stands: `"aside"` in parentheses after a clause
 * (` (did you mean a or b?)`), `"sentence"` as a sentence of its own after a
 * sentence (` Did you mean a?`).
 */
export type SuggestionForm = "aside" | "sentence";

/**
 * The "did you mean" for `choices` (each already shown as it should read),
 * with its leading space, or `""` when there is none.
 *
 * @example
 * ```ts
 * import { suggestion } from "./text.ts";
 * suggestion(['"pdf"', '"pdf-forms"']); // ' (did you mean "pdf" or "pdf-forms"?)'
 * suggestion(["notes/SKILL.md"], "sentence"); // " Did you mean notes/SKILL.md?"
 * suggestion([]); // ""
 * ```
 */
export function suggestion(choices: readonly string[], form: SuggestionForm = "aside"): string {
  if (choices.length === 0) return "";
  const list = choices.join(" or ");
  return form === "aside" ? ` (did you mean ${list}?)` : ` Did you mean ${list}?`;
}

/** Options of {@linkcode didYouMean}. */
export interface DidYouMeanOptions {
  /**
   * The most candidates named.
   *
   * @default {3}
   */
  max?: number;
  /**
   * How each candidate reads in the suggestion (quoted, escaped, put back on its path).
   *
   * @default {(candidate) => candidate}
   */
  show?: (candidate: string) => string;
  /**
   * Where the suggestion stands ({@linkcode SuggestionForm}).
   *
   * @default {"aside"}
   */
  form?: SuggestionForm;
}

/**
 * The "did you mean" naming the candidates {@linkcode closest} to `word`,
 * with its leading space, or `""` when none is close.
 *
 * @example
 * ```ts
 * import { didYouMean } from "./text.ts";
 * didYouMean("--jsn", ["--json", "--all"], { max: 2 }); // " (did you mean --json?)"
 * didYouMean("pfd", ["pdf"], { show: (n) => `"${n}"` }); // ' (did you mean "pdf"?)'
 * didYouMean("zzz", ["list"]); // ""
 * ```
 */
export function didYouMean(
  word: string,
  candidates: readonly string[],
  options: DidYouMeanOptions = {},
): string {
  const { max = 3, show = (candidate: string) => candidate, form = "aside" } = options;
  return suggestion(closest(word, candidates, max).map(show), form);
}

/**
 * `n` and the word, singular for exactly one (`plural` defaults to the word with an `s`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { counted } from "./text.ts";
 * assert.equal(counted(0, "skill"), "0 skills");
 * ```
 */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
