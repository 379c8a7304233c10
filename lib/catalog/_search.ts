/**
 * The one keyword ranker, shared by the CLI's `search`, the MCP server's and
 * the dsh tools' `find_skills` (through `lib/load/_find.ts`) and the library
 * (`mod.ts`): BM25F over a skill's fields, with words matched whole and
 * stemmed.
 *
 * **Words.** A text's words are its runs of letters and digits, lowercased:
 * anything else (`-`, `_`, `.`, `'`, spaces, punctuation) separates words. A
 * name is also split at its camelCase humps (`pdfForms` → `pdfforms`, `pdf`,
 * `forms`). Words of one character and English stop words
 * ({@linkcode STOP_WORDS}: `the`, `and`, `a`, `to` …) are not words. Each word
 * is reduced to its Porter2 stem (`lib/catalog/_stem.ts`: `tests`, `testing` →
 * `test`), and a query word matches a skill's word when their stems are equal:
 * never inside a word (`the` does not match `atheris`, `write` does not match
 * `writer`).
 *
 * **Query.** The query's words, duplicates (by stem) removed, are its terms
 * (the first 32: a longer query is a paste, and would only cost time). A
 * word written with a trailing `*` (`auth*`) is a prefix: it matches every word
 * that starts with it. A term of three or more characters that matches no word
 * of any searched skill is searched as a prefix too (`playwr` finds
 * `Playwright`) and shows as `playwr*` in the reasons. Words in double quotes
 * are a phrase: a skill matches only if one of its fields has them in that
 * order, next to each other (stop words between them are skipped).
 *
 * **Score.** Fields and weights: name 3, description 1, `whenToUse` 0.8,
 * origin (`"<source> <provider>"`) 0.2. Per term, with `N` skills searched and
 * `df` of them having it in one of these fields,
 * `idf = ln(1 + (N − df + 0.5) / (df + 0.5))`; its weighted frequency is
 * `tf = Σ weight × count / (1 − b + b × length / average length)` over the
 * fields (length in words, averaged over the skills that have the field; `b`:
 * name 0.5, description and `whenToUse` 0.75, origin 0), and it adds
 * `idf × tf / (1.2 + tf)`. The body (the instructions, when the caller
 * supplies them) counts last, as its own saturated field: a term found `n`
 * times in it adds `0.2 × idf × n / (n + 1.2 × (0.25 + 0.75 × length / average
 * length))` (length in characters), never more than `0.2 × idf`. Each pair of
 * consecutive query terms found next to each other in the name adds
 * `0.5 × (idf₁ + idf₂) / 2`; in the description or `whenToUse`,
 * `0.25 × (idf₁ + idf₂) / 2`. Scores are rounded to 4 decimals. Skills with no
 * matched term (or without a quoted phrase) are dropped; the rest sort by
 * score, then name, then description, then their order in the input, so the
 * same input always gives the same order.
 *
 * Each match says why it matched: per term (as typed, lowercased), the fields
 * that contain it and, for the body, how many times.
 *
 * **Index.** {@linkcode searchSkills} reads every skill's fields and body at
 * each query. A caller that searches the same catalog again and again (the
 * MCP server's `find_skills`) keeps a {@linkcode SearchIndex} instead: per
 * skill, the words of its head fields (with their positions), its body's word
 * counts, length and word order (as indexes into its own word list, for
 * phrases), never the texts; per word, its stem and the skills that have it
 * (the count in the body and which head fields), in maps by word, by stem and
 * by the first two letters (prefixes). A skill is indexed once per object: the
 * catalog hands over a new object when a skill changed, so `update` reads the
 * bodies of new objects only and drops the skills no longer listed, and words
 * no skill has any more (with the caller's version `key`, a new object for an
 * unchanged skill is taken as the indexed one). A query looks up each term's words in those maps,
 * visits only the skills that have one, and keeps the best `limit` while
 * counting every match; the scores, order, reasons, prefix fallback, `*`
 * prefixes and phrases are exactly {@linkcode searchSkills}'s over the same
 * list and bodies (tests/search_index_test.ts checks every eval query and its
 * variants). Its cost grows with the skills that match, not with the bodies'
 * sizes; only a quoted phrase whose words are all in a body (and in no head
 * field) walks that body's word order. At 10,000 skills the index holds about
 * 20 MiB of heap for the bench's generated skills, 41 MiB for bodies of
 * 1.2 KB (11.6 MiB in all) and 67 MiB for bodies of 4.8 KB (45.8 MiB).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { queryTerms, searchSkills } from "./_search.ts";
 * assert.deepEqual(queryTerms("PDF forms, pdf!"), ["pdf", "forms"]);
 * assert.deepEqual(queryTerms("write the tests"), ["write", "tests"]);
 * ```
 * @module
 */
import { stem } from "./_stem.ts";
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
  /** The query term as typed, lowercased (a prefix ends in `*`). */
  term: string;
  /** The fields that contain it, in ranking order. */
  fields: MatchField[];
  /** How many words of the body it matches (present when `fields` has `body`). */
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

/**
 * The English stop words: never a search term, never a skill's word.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { STOP_WORDS } from "./_search.ts";
 * assert.equal(STOP_WORDS.has("the"), true);
 * ```
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  ("a am an and are as at be been being but by can could did do does doing for from had has " +
    "have having he her here hers him his how i if in into is it its just me my of on or our ours " +
    "please she should so such than that the their theirs them then there these they this those to " +
    "was we were what when where which while who whom why will with would you your yours")
    .split(" "),
);

type HeadField = "name" | "description" | "whenToUse" | "origin";
const HEAD: readonly HeadField[] = ["name", "description", "whenToUse", "origin"];
const WEIGHT: Record<HeadField, number> = { name: 3, description: 1, whenToUse: 0.8, origin: 0.2 };
const B: Record<HeadField, number> = { name: 0.5, description: 0.75, whenToUse: 0.75, origin: 0 };
const PAIR: Record<HeadField, number> = {
  name: 0.5,
  description: 0.25,
  whenToUse: 0.25,
  origin: 0,
};
const K1 = 1.2;
/** The terms searched at most: a longer query is a paste, not keywords. */
const MAX_TERMS = 32;
const BODY_WEIGHT = 0.2;
const BODY_B = 0.75;

/** One word of a text: as written (lowercased), its stem, and its position. */
interface Word {
  word: string;
  stem: string;
  at: number;
}

/** A query term. */
interface Term {
  /** As typed, lowercased, without a trailing `*`. */
  word: string;
  /** Its stem; for a prefix, the prefix itself. */
  stem: string;
  prefix: boolean;
}

const stems = new Map<string, string>();

function stemOf(word: string): string {
  let s = stems.get(word);
  if (s === undefined) {
    s = stem(word);
    if (stems.size > 50_000) stems.clear();
    stems.set(word, s);
  }
  return s;
}

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/** The length in code units of the letter or digit at `i` of `text`, or 0 if none is there. */
function wordCharAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code < 128) {
    return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57)
      ? 1
      : 0;
  }
  const point = text.codePointAt(i)!;
  const size = point > 0xffff ? 2 : 1;
  return LETTER_OR_DIGIT.test(text.slice(i, i + size)) ? size : 0;
}

/** Calls `visit(start, end)` for each run of letters and digits of `text`. */
function scanRuns(text: string, visit: (start: number, end: number) => void): void {
  let i = 0;
  while (i < text.length) {
    let size = wordCharAt(text, i);
    if (size === 0) {
      i++;
      continue;
    }
    const start = i;
    while (size > 0) {
      i += size;
      size = i < text.length ? wordCharAt(text, i) : 0;
    }
    visit(start, i);
  }
}

const isWord = (w: string) => w.length >= 2 && !STOP_WORDS.has(w);

/** The words of `text` (see the module doc); `camel` also splits camelCase humps. */
function wordsOf(text: string, camel = false): Word[] {
  const out: Word[] = [];
  scanRuns(text, (start, end) => {
    const token = text.slice(start, end);
    const at = out.length === 0 ? 0 : out[out.length - 1].at + 1;
    const lower = token.toLowerCase();
    if (isWord(lower)) out.push({ word: lower, stem: stemOf(lower), at });
    if (camel && lower !== token) {
      const parts = token.replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, "$1 $2")
        .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2").split(" ");
      if (parts.length < 2) return;
      for (const part of parts.map((p) => p.toLowerCase()).filter(isWord)) {
        out.push({ word: part, stem: stemOf(part), at });
      }
    }
  });
  return out;
}

/** The query's terms and phrases (index lists into the terms). */
function parseQuery(query: string): { terms: Term[]; phrases: number[][] } {
  const terms: Term[] = [];
  const phrases: number[][] = [];
  const seen = new Map<string, number>();
  const indexOf = (word: string, prefix: boolean): number => {
    const s = prefix ? word : stemOf(word);
    const key = `${prefix ? "*" : " "}${s}`;
    let index = seen.get(key);
    if (index === undefined && terms.length >= MAX_TERMS) return -1;
    if (index === undefined) {
      index = terms.push({ word, stem: s, prefix }) - 1;
      seen.set(key, index);
    }
    return index;
  };
  const parts = query.split('"');
  for (const [i, part] of parts.entries()) {
    const quoted = i % 2 === 1 && i < parts.length - 1;
    const indexes: number[] = [];
    for (const piece of part.split(/\s+/)) {
      if (terms.length >= MAX_TERMS) break; // the rest of a paste is not read
      const prefix = /[\p{L}\p{N}]\*+$/u.test(piece);
      const words = wordsOf(piece);
      for (const [j, w] of words.entries()) {
        const index = indexOf(w.word, prefix && j === words.length - 1);
        if (index !== -1) indexes.push(index);
      }
    }
    if (quoted && indexes.length > 1) phrases.push(indexes);
  }
  return { terms, phrases };
}

/**
 * The search terms of `query`: its words, lowercased, stop words and words of
 * one character dropped, one per stem (see the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(queryTerms("a"), []);
 * assert.deepEqual(queryTerms("the and"), []);
 * ```
 */
export function queryTerms(query: string): string[] {
  return parseQuery(query).terms.map((t) => t.word);
}

function matches(term: Term, word: string, stemmed: string): boolean {
  return term.prefix ? word.startsWith(term.stem) : stemmed === term.stem;
}

function count(words: readonly Word[], term: Term): number {
  let n = 0;
  for (const w of words) if (matches(term, w.word, w.stem)) n++;
  return n;
}

/** The letter or digit ending just before `i` of `text` (0: none). */
function wordCharBefore(text: string, i: number): number {
  if (i === 0) return 0;
  const low = text.charCodeAt(i - 1);
  const pair = i >= 2 && low >= 0xdc00 && low <= 0xdfff;
  return wordCharAt(text, pair ? i - 2 : i - 1);
}

/**
 * How many words of `body` (lowercased) each term matches. Only words starting with the first two
 * letters of some term's stem are looked at (found with `indexOf`; a Porter2 stem keeps its
 * word's first two letters), so a long body costs little.
 */
function bodyCounts(body: string, terms: readonly Term[]): number[] {
  const counts = terms.map(() => 0);
  for (const head of new Set(terms.map((t) => t.stem.slice(0, 2)))) {
    for (let at = body.indexOf(head); at !== -1; at = body.indexOf(head, at + 1)) {
      if (wordCharBefore(body, at) > 0) continue;
      let end = at;
      for (let size = wordCharAt(body, end); size > 0; size = wordCharAt(body, end)) end += size;
      const word = body.slice(at, end);
      if (!isWord(word)) continue;
      const stemmed = stemOf(word);
      for (const [i, term] of terms.entries()) if (matches(term, word, stemmed)) counts[i]++;
    }
  }
  return counts;
}

/** Positions of `term` in `words`. */
function positions(words: readonly Word[], term: Term): Set<number> {
  const out = new Set<number>();
  for (const w of words) if (matches(term, w.word, w.stem)) out.add(w.at);
  return out;
}

/** `words` has terms `a` then `b` at consecutive positions. */
function adjacent(words: readonly Word[], a: Term, b: Term): boolean {
  const next = positions(words, b);
  for (const p of positions(words, a)) if (next.has(p + 1)) return true;
  return false;
}

/** `words` has the phrase's terms at consecutive positions. */
function hasPhrase(words: readonly Word[], phrase: readonly Term[]): boolean {
  let at = positions(words, phrase[0]);
  for (const term of phrase.slice(1)) {
    const next = positions(words, term);
    at = new Set([...at].filter((p) => next.has(p + 1)).map((p) => p + 1));
    if (at.size === 0) return false;
  }
  return true;
}

/** A skill's words per head field, and its body (lowercased) with its counts. */
interface Doc {
  head: Record<HeadField, Word[]>;
  body: string | undefined;
  /** In characters. */
  bodyLength: number;
  bodyCounts: number[];
  /** Per term, per head field (in `HEAD` order), how many words match. */
  headCounts: number[][];
}

/**
 * Ranks `skills` for `query`, best first, at most `limit`; with
 * `options.body`, the bodies count too (see the module doc).
 *
 * @example
 * ```ts
 * import { type SearchableSkill, searchSkills } from "./_search.ts";
 * function example(skills: SearchableSkill[]) {
 *   searchSkills(skills, "react testing", 2).map((m) => m.skill.name); // ["react-testing", "react"]
 * }
 * ```
 */
export function searchSkills<T extends SearchableSkill>(
  skills: readonly T[],
  query: string,
  limit: number,
  options: SearchOptions<T> = {},
): SearchMatch<T>[] {
  const { terms, phrases } = parseQuery(query);
  if (terms.length === 0 || limit <= 0) return [];
  const docs: Doc[] = skills.map((skill) => {
    const body = options.body?.(skill)?.toLowerCase();
    const counts = body === undefined ? terms.map(() => 0) : bodyCounts(body, terms);
    return {
      head: {
        name: wordsOf(skill.name, true),
        description: wordsOf(skill.description),
        whenToUse: wordsOf(skill.whenToUse ?? ""),
        origin: wordsOf(`${skill.source ?? ""} ${skill.provider ?? ""}`),
      },
      body,
      bodyLength: body?.length ?? 0,
      bodyCounts: counts,
      headCounts: [],
    };
  });
  const countHeads = () => {
    for (const d of docs) d.headCounts = terms.map((t) => HEAD.map((f) => count(d.head[f], t)));
  };
  countHeads();
  // A term that no skill has as a word is searched as a prefix.
  const unmatched = terms.flatMap((term, i) =>
    !term.prefix && term.word.length >= 3 &&
      docs.every((d) => d.bodyCounts[i] === 0 && d.headCounts[i].every((c) => c === 0))
      ? [i]
      : []
  );
  if (unmatched.length > 0) {
    for (const i of unmatched) terms[i] = { ...terms[i], stem: terms[i].word, prefix: true };
    const again = unmatched.map((i) => terms[i]);
    for (const d of docs) {
      if (d.body === undefined) continue;
      const counts = bodyCounts(d.body, again);
      for (const [j, i] of unmatched.entries()) d.bodyCounts[i] = counts[j];
    }
    countHeads();
  }
  const n = docs.length;
  // Average lengths over the skills that have the field at all.
  const mean = (lengths: number[]) => {
    const present = lengths.filter((l) => l > 0);
    return present.length === 0 ? 1 : present.reduce((a, b) => a + b, 0) / present.length;
  };
  const average = Object.fromEntries(
    HEAD.map((f) => [f, mean(docs.map((d) => d.head[f].length))]),
  ) as Record<HeadField, number>;
  const averageBody = mean(docs.map((d) => d.bodyLength));
  const idf = terms.map((_, i) => {
    const df = docs.filter((d) => d.headCounts[i].some((c) => c > 0)).length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  });
  const phraseTerms = phrases.map((p) => p.map((i) => terms[i]));
  const ranked: { match: SearchMatch<T>; index: number }[] = [];
  for (const [index, skill] of skills.entries()) {
    const d = docs[index];
    if (!phraseTerms.every((p) => hasPhraseIn(d, p, phrases, terms))) continue;
    let score = 0;
    const matched: TermMatch[] = [];
    for (const [i, term] of terms.entries()) {
      const fields: MatchField[] = [];
      let tf = 0;
      for (const [k, f] of HEAD.entries()) {
        const c = d.headCounts[i][k];
        if (c === 0) continue;
        fields.push(f);
        tf += WEIGHT[f] * c / (1 - B[f] + B[f] * d.head[f].length / average[f]);
      }
      score += idf[i] * tf / (K1 + tf);
      const inBody = d.bodyCounts[i];
      if (inBody > 0) {
        fields.push("body");
        const norm = 1 - BODY_B + BODY_B * d.bodyLength / averageBody;
        score += BODY_WEIGHT * idf[i] * inBody / (inBody + K1 * norm);
      }
      if (fields.length === 0) continue;
      const word = term.prefix ? `${term.word}*` : term.word;
      matched.push(
        inBody > 0 ? { term: word, fields, occurrences: inBody } : { term: word, fields },
      );
    }
    if (matched.length === 0) continue;
    for (let i = 0; i + 1 < terms.length; i++) {
      const f = HEAD.find((f, k) =>
        PAIR[f] > 0 && d.headCounts[i][k] > 0 && d.headCounts[i + 1][k] > 0 &&
        adjacent(d.head[f], terms[i], terms[i + 1])
      );
      if (f !== undefined) score += PAIR[f] * (idf[i] + idf[i + 1]) / 2;
    }
    ranked.push({ match: { skill, score: Math.round(score * 1e4) / 1e4, matched }, index });
  }
  ranked.sort((a, b) =>
    b.match.score - a.match.score ||
    compareCodeUnits(a.match.skill.name, b.match.skill.name) ||
    compareCodeUnits(a.match.skill.description, b.match.skill.description) ||
    a.index - b.index
  );
  return ranked.slice(0, limit).map((r) => r.match);
}

/** The skill has the phrase in a head field or (every term being in it) its body. */
function hasPhraseIn(d: Doc, phrase: readonly Term[], phrases: number[][], terms: Term[]): boolean {
  if (HEAD.some((f) => hasPhrase(d.head[f], phrase))) return true;
  const indexes = phrases.find((p) => p.every((i, j) => terms[i] === phrase[j])) ?? [];
  if (d.body === undefined || indexes.some((i) => d.bodyCounts[i] === 0)) return false;
  return hasPhrase(wordsOf(d.body), phrase);
}

// ---------------------------------------------------------------------------------------------
// The index

/** One word of the index: its stem and, per skill that has it, its counts. */
interface IndexWord {
  word: string;
  stem: string;
  /**
   * Interleaved `[slot, value]` per skill having the word, the first `size` numbers: `value` is
   * the body count × 16 plus one bit per head field (in `HEAD` order) that has it. A plain array
   * while short, 32-bit numbers once longer.
   */
  postings: number[] | Uint32Array;
  size: number;
}

/** The longest plain-array postings (most words belong to a few skills only). */
const SHORT_POSTINGS = 16;

function addPosting(w: IndexWord, slot: number, value: number): void {
  const n = w.size;
  let postings = w.postings;
  if (Array.isArray(postings) && n < SHORT_POSTINGS) {
    postings.push(slot, value);
  } else {
    if (n + 2 > postings.length || Array.isArray(postings)) {
      const grown = new Uint32Array(Math.max(SHORT_POSTINGS * 2, postings.length * 2));
      grown.set(postings);
      w.postings = postings = grown;
    }
    postings[n] = slot;
    postings[n + 1] = value;
  }
  w.size = n + 2;
}

function removePosting(w: IndexWord, slot: number): void {
  const { postings } = w;
  let i = 0;
  while (postings[i] !== slot) i += 2;
  const last = w.size - 2;
  postings[i] = postings[last];
  postings[i + 1] = postings[last + 1];
  w.size = last;
  if (Array.isArray(postings)) postings.length = last;
}

/** A head field's words (camelCase parts share their word's position). */
interface IndexedField {
  words: IndexWord[];
  at: number[];
}

/** One indexed skill. */
interface Entry<T> {
  skill: T;
  /** What the caller's `key` said of it, when given. */
  key?: string;
  slot: number;
  /** Its places in the searched list (one, unless the list names the same object twice). */
  places: number[];
  head: IndexedField[];
  /** Of the lowercased body, in characters (0 without a body). */
  bodyLength: number;
  hasBody: boolean;
  /** Every word it has, once (the indexes `sequence` refers to). */
  words: IndexWord[];
  /** The body's words in order, as indexes into `words` (for phrases). */
  sequence: Uint16Array | Uint32Array;
}

const HEAD_BITS = 16;

/** How many of `heads` start `word`: how many times the unindexed ranker visits it. */
function visits(word: string, heads: ReadonlySet<string>): number {
  return (heads.has(word.slice(0, 1)) ? 1 : 0) + (heads.has(word.slice(0, 2)) ? 1 : 0) +
    (heads.has("") ? 1 : 0);
}

/** Calls `visit` with each run of letters and digits of `body` the ranker's body count visits. */
function bodyWords(body: string, visit: (word: string) => void): void {
  let at = 0;
  while (at < body.length) {
    if (wordCharAt(body, at) === 0 || wordCharBefore(body, at) > 0) {
      at++;
      continue;
    }
    let end = at;
    for (let size = wordCharAt(body, end); size > 0; size = wordCharAt(body, end)) end += size;
    visit(body.slice(at, end));
    at = end;
  }
}

/**
 * `field` has the phrase's terms (each as its set of words), from term `j` on, at consecutive
 * positions from `at` (camelCase parts share a position, so several words may sit at one).
 */
function phraseFrom(
  field: IndexedField,
  phrase: readonly ReadonlySet<IndexWord>[],
  j: number,
  at: number,
): boolean {
  for (let q = 0; q < field.words.length; q++) {
    if (field.at[q] !== at || !phrase[j].has(field.words[q])) continue;
    if (j + 1 === phrase.length || phraseFrom(field, phrase, j + 1, at + 1)) return true;
  }
  return false;
}

/** `field` has the phrase (each term as its set of words) at consecutive positions. */
function fieldHasPhrase(field: IndexedField, phrase: readonly ReadonlySet<IndexWord>[]): boolean {
  for (let q = 0; q < field.words.length; q++) {
    if (!phrase[0].has(field.words[q])) continue;
    if (phrase.length === 1 || phraseFrom(field, phrase, 1, field.at[q] + 1)) return true;
  }
  return false;
}

/** The body has the phrase at consecutive positions. */
function bodyHasPhrase<T>(entry: Entry<T>, phrase: readonly ReadonlySet<IndexWord>[]): boolean {
  const local = phrase.map((set) => entry.words.map((w) => set.has(w)));
  const { sequence } = entry;
  for (let p = 0; p + phrase.length <= sequence.length; p++) {
    let j = 0;
    while (j < phrase.length && local[j][sequence[p + j]]) j++;
    if (j === phrase.length) return true;
  }
  return false;
}

/** A turn of the event loop: a zero-delay timer. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Options of {@linkcode SearchIndex.updateAsync}. */
export interface IndexUpdateOptions<T> {
  /**
   * Gives the event loop a turn after this many new skills.
   *
   * @default {500}
   */
  yieldEvery?: number;
  /**
   * How the event loop is given a turn (default: a zero-delay timer, which keeps the process
   * alive while it waits). Work in the background that nobody waits for passes a timer that does
   * not (`node:timers`' `setTimeout(resolve, 0).unref()`), so that a process with nothing else to
   * do can end. The ranker imports nothing from `node:`: the browser page loads it too.
   *
   * @default a zero-delay timer
   */
  turn?: () => Promise<void>;
  /**
   * A skill's version, for a caller whose skills may come as new objects although unchanged
   * (default: none, every new object is new): a new object whose key is that of an indexed skill
   * the list no longer names is taken as that skill, and nothing is read. It must change whenever
   * anything the ranker reads changes (name, description, `whenToUse`, `source`, `provider`,
   * body); `undefined`: no version known.
   *
   * @default none
   */
  key?: (skill: T) => string | undefined;
}

/**
 * The ranker's index over a list of skills, kept between searches: per skill,
 * its head fields' words and its body's word counts, length and word order
 * (never the texts), in maps from each word to the skills that have it.
 * {@linkcode SearchIndex.update} indexes only skills it has not seen (by object
 * identity: a skill that changed must be a new object) and forgets the ones
 * no longer listed; {@linkcode SearchIndex.search} then ranks exactly as
 * {@linkcode searchSkills} over the same list with the same bodies, looking up
 * each query term in the maps (see the module doc, "Index").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SearchIndex } from "./_search.ts";
 * const skills = [{ name: "xlsx", description: "Spreadsheets." }, { name: "pdf", description: "PDF." }];
 * const index = new SearchIndex<(typeof skills)[number]>();
 * index.update(skills, (s) => (s.name === "xlsx" ? "Open Excel files." : undefined));
 * assert.deepEqual(index.search("excel", 5).map((m) => m.skill.name), ["xlsx"]);
 * ```
 */
export class SearchIndex<T extends SearchableSkill> {
  #entries = new Map<T, Entry<T>>();
  #slots: (Entry<T> | undefined)[] = [];
  #free: number[] = [];
  #vocabulary = new Map<string, IndexWord>();
  #byStem = new Map<string, Set<IndexWord>>();
  /** Words by their first two code units (every prefix searched has at least two). */
  #byHead = new Map<string, Set<IndexWord>>();
  #reading = new Map<T, Promise<void>>();
  #byKey = new Map<string, Entry<T>>();
  #order: T[] = [];
  /**
   * The list the last update completed with, while nothing was added or removed since: the same
   * list again (a catalog between changes hands over the same array) costs nothing.
   */
  #settled?: readonly T[];
  #average: number[] = HEAD.map(() => 1);
  #averageBody = 1;

  /** How many distinct skills are indexed. */
  get size(): number {
    return this.#entries.size;
  }

  /** How many distinct words the index holds. */
  get words(): number {
    return this.#vocabulary.size;
  }

  /** Whether `skill` (this object) is indexed. */
  has(skill: T): boolean {
    return this.#entries.has(skill);
  }

  /**
   * Searches `skills` from now on: indexes those not indexed yet (reading each
   * one's body once with `body`), forgets those not in the list.
   */
  update(
    skills: readonly T[],
    body?: (skill: T) => string | undefined,
    options: Pick<IndexUpdateOptions<T>, "key"> = {},
  ): void {
    if (skills === this.#settled) return;
    const listed = this.#listed(skills);
    for (const skill of skills) {
      if (this.#entries.has(skill)) continue;
      const key = options.key?.(skill);
      if (!this.#adopt(skill, key, listed)) this.#add(skill, body?.(skill), key);
    }
    this.#setOrder(skills);
  }

  /**
   * {@linkcode SearchIndex.update} with a reader that may be asynchronous, giving
   * the event loop a turn every `options.yieldEvery` new skills; concurrent calls
   * share the reads of a skill's body.
   */
  async updateAsync(
    skills: readonly T[],
    body?: (skill: T) => string | undefined | Promise<string | undefined>,
    options: IndexUpdateOptions<T> = {},
  ): Promise<void> {
    if (skills === this.#settled) return;
    const every = Math.max(1, options.yieldEvery ?? 500);
    const listed = this.#listed(skills);
    let added = 0;
    for (;;) {
      for (const skill of skills) {
        if (this.#entries.has(skill)) continue;
        let reading = this.#reading.get(skill);
        if (reading === undefined) {
          const key = options.key?.(skill);
          if (this.#adopt(skill, key, listed)) continue;
          reading = (async () => {
            try {
              const text = await body?.(skill);
              if (!this.#entries.has(skill)) this.#add(skill, text, key);
            } finally {
              this.#reading.delete(skill);
            }
          })();
          this.#reading.set(skill, reading);
        }
        await reading;
        if (++added % every === 0) {
          await (options.turn ?? nextTurn)();
        }
      }
      // A concurrent update may have forgotten some of them meanwhile.
      if (skills.every((skill) => this.#entries.has(skill))) return this.#setOrder(skills);
    }
  }

  /**
   * Ranks the skills of the latest update for `query`, best first, at most
   * `limit`: the result of {@linkcode searchSkills} over them with their bodies.
   */
  search(query: string, limit: number): SearchMatch<T>[] {
    return this.rank(query, limit).matches;
  }

  /**
   * {@linkcode SearchIndex.search}, with how many skills matched in all
   * (`total`); only the matches returned are given their reasons.
   */
  rank(query: string, limit: number): { total: number; matches: SearchMatch<T>[] } {
    const { terms, phrases } = parseQuery(query);
    if (terms.length === 0 || limit <= 0 || this.#order.length === 0) {
      return { total: 0, matches: [] };
    }
    const slots = this.#slots.length;
    const words = terms.map((t) => this.#matching(t));
    const inBody = terms.map(() => new Float64Array(slots));
    /** Per term, per skill, the head fields (bits in `HEAD` order) that have one of its words. */
    const inHead = terms.map(() => new Uint8Array(slots));
    const seen = new Uint8Array(slots);
    /** 1 for a skill with a query term in a head field. */
    const anyHead = new Uint8Array(slots);
    const list: number[] = [];
    const found = terms.map(() => false);
    const collect = (indexes: readonly number[]) => {
      const heads = new Set(indexes.map((i) => terms[i].stem.slice(0, 2)));
      for (const i of indexes) {
        const body = inBody[i];
        const head = inHead[i];
        for (const w of words[i]) {
          const times = visits(w.word, heads);
          const { postings, size } = w;
          for (let j = 0; j < size; j += 2) {
            const value = postings[j + 1];
            const mask = value % HEAD_BITS;
            const count = (value - mask) / HEAD_BITS * times;
            if (mask === 0 && count === 0) continue;
            const slot = postings[j];
            if (seen[slot] === 0) {
              seen[slot] = 1;
              list.push(slot);
            }
            body[slot] += count;
            if (mask !== 0) {
              head[slot] |= mask;
              anyHead[slot] = 1;
            }
            found[i] = true;
          }
        }
      }
    };
    collect(terms.map((_, i) => i));
    // A term that no skill has as a word is searched as a prefix.
    const unmatched = terms.flatMap((term, i) =>
      !term.prefix && term.word.length >= 3 && !found[i] ? [i] : []
    );
    if (unmatched.length > 0) {
      for (const i of unmatched) {
        terms[i] = { ...terms[i], stem: terms[i].word, prefix: true };
        words[i] = this.#matching(terms[i]);
      }
      collect(unmatched);
    }
    const sets = words.map((ws) => new Set(ws));
    const n = this.#order.length;
    const idf = terms.map((_, i) => {
      let df = 0;
      for (const slot of list) if (inHead[i][slot] !== 0) df += this.#slots[slot]!.places.length;
      return Math.log(1 + (n - df + 0.5) / (df + 0.5));
    });
    const phraseSets = phrases.map((p) => p.map((i) => sets[i]));
    const average = this.#average;
    const averageBody = this.#averageBody;
    const fields = HEAD.length;
    /** Per term, per head field (`i * fields + k`), how many of the entry's words match. */
    const headCounts = (entry: Entry<T>, out: number[]): number[] => {
      for (let i = 0; i < terms.length; i++) {
        const mask = inHead[i][entry.slot];
        for (let k = 0; k < fields; k++) {
          let count = 0;
          if ((mask & (1 << k)) !== 0) {
            const words = entry.head[k].words;
            for (let j = 0; j < words.length; j++) if (sets[i].has(words[j])) count++;
          }
          out[i * fields + k] = count;
        }
      }
      return out;
    };
    const counts = new Array<number>(terms.length * fields).fill(0);
    /** The entry's score as the module doc counts it (`counts` its head counts), or -1. */
    const scoreOf = (entry: Entry<T>): number => {
      const slot = entry.slot;
      const phraseFound = phrases.length === 0 ||
        phrases.every((p, k) =>
          entry.head.some((field) => fieldHasPhrase(field, phraseSets[k])) ||
          (entry.hasBody && p.every((i) => inBody[i][slot] > 0) &&
            bodyHasPhrase(entry, phraseSets[k]))
        );
      if (!phraseFound) return -1;
      const norm = 1 - BODY_B + BODY_B * entry.bodyLength / averageBody;
      let score = 0;
      if (anyHead[slot] === 0) {
        // Found in the body only: each head field adds 0, and no pair counts.
        for (let i = 0; i < terms.length; i++) {
          const body = inBody[i][slot];
          if (body > 0) score += BODY_WEIGHT * idf[i] * body / (body + K1 * norm);
        }
        return Math.round(score * 1e4) / 1e4;
      }
      headCounts(entry, counts);
      for (let i = 0; i < terms.length; i++) {
        let tf = 0;
        for (let k = 0; k < fields; k++) {
          const count = counts[i * fields + k];
          if (count === 0) continue;
          const f = HEAD[k];
          tf += WEIGHT[f] * count /
            (1 - B[f] + B[f] * entry.head[k].words.length / average[k]);
        }
        score += idf[i] * tf / (K1 + tf);
        const body = inBody[i][slot];
        if (body > 0) score += BODY_WEIGHT * idf[i] * body / (body + K1 * norm);
      }
      for (let i = 0; i + 1 < terms.length; i++) {
        for (let k = 0; k < fields; k++) {
          const f = HEAD[k];
          if (
            PAIR[f] > 0 && counts[i * fields + k] > 0 && counts[(i + 1) * fields + k] > 0 &&
            fieldHasPhrase(entry.head[k], [sets[i], sets[i + 1]])
          ) {
            score += PAIR[f] * (idf[i] + idf[i + 1]) / 2;
            break;
          }
        }
      }
      return Math.round(score * 1e4) / 1e4;
    };
    type Ranked = { entry: Entry<T>; score: number; index: number };
    const before = (a: Ranked, b: Ranked) =>
      b.score - a.score ||
      compareCodeUnits(a.entry.skill.name, b.entry.skill.name) ||
      compareCodeUnits(a.entry.skill.description, b.entry.skill.description) ||
      a.index - b.index;
    // The best `limit`, in order, kept while counting every match (a long list: sorted at the end).
    const all = limit > 64;
    let top: Ranked[] = [];
    let total = 0;
    for (const slot of list) {
      const entry = this.#slots[slot]!;
      const score = scoreOf(entry);
      if (score < 0) continue;
      for (const index of entry.places) {
        total++;
        if (all) {
          top.push({ entry, score, index });
          continue;
        }
        if (top.length >= limit && score < top[top.length - 1].score) continue;
        const r = { entry, score, index };
        if (top.length >= limit && before(r, top[top.length - 1]) >= 0) continue;
        let lo = 0;
        let hi = top.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (before(top[mid], r) < 0) lo = mid + 1;
          else hi = mid;
        }
        top.splice(lo, 0, r);
        if (top.length > limit) top.pop();
      }
    }
    if (all) top = top.sort(before).slice(0, limit);
    const matches = top.map(({ entry, score }) => {
      headCounts(entry, counts);
      const matched: TermMatch[] = [];
      for (const [i, term] of terms.entries()) {
        const fields: MatchField[] = HEAD.filter((_, k) => counts[i * HEAD.length + k] > 0);
        const body = inBody[i][entry.slot];
        if (body > 0) fields.push("body");
        if (fields.length === 0) continue;
        const word = term.prefix ? `${term.word}*` : term.word;
        matched.push(body > 0 ? { term: word, fields, occurrences: body } : { term: word, fields });
      }
      return { skill: entry.skill, score, matched };
    });
    return { total, matches };
  }

  /** The indexed words `term` matches. */
  #matching(term: Term): IndexWord[] {
    if (!term.prefix) return [...this.#byStem.get(term.stem) ?? []];
    const out: IndexWord[] = [];
    for (const w of this.#byHead.get(term.stem.slice(0, 2)) ?? []) {
      if (w.word.startsWith(term.stem)) out.push(w);
    }
    return out;
  }

  #word(word: string): IndexWord {
    let w = this.#vocabulary.get(word);
    if (w === undefined) {
      w = { word, stem: stemOf(word), postings: [], size: 0 };
      this.#vocabulary.set(word, w);
      const add = (map: Map<string, Set<IndexWord>>, key: string) => {
        let set = map.get(key);
        if (set === undefined) map.set(key, set = new Set());
        set.add(w!);
      };
      add(this.#byStem, w.stem);
      add(this.#byHead, word.slice(0, 2));
    }
    return w;
  }

  /** The set of `skills`, made when first asked for. */
  #listed(skills: readonly T[]): () => ReadonlySet<T> {
    let set: Set<T> | undefined;
    return () => (set ??= new Set(skills));
  }

  /** Takes `skill` as the indexed skill of the same key that `listed` no longer names. */
  #adopt(skill: T, key: string | undefined, listed: () => ReadonlySet<T>): boolean {
    const entry = key === undefined ? undefined : this.#byKey.get(key);
    if (entry === undefined || listed().has(entry.skill)) return false;
    this.#settled = undefined;
    this.#entries.delete(entry.skill);
    entry.skill = skill;
    this.#entries.set(skill, entry);
    return true;
  }

  #add(skill: T, body: string | undefined, key?: string): void {
    this.#settled = undefined;
    const local = new Map<string, number>();
    const words: IndexWord[] = [];
    const values: number[] = [];
    const localOf = (word: string): number => {
      let k = local.get(word);
      if (k === undefined) {
        k = words.push(this.#word(word)) - 1;
        values.push(0);
        local.set(word, k);
      }
      return k;
    };
    const texts: Record<HeadField, string> = {
      name: skill.name,
      description: skill.description,
      whenToUse: skill.whenToUse ?? "",
      origin: `${skill.source ?? ""} ${skill.provider ?? ""}`,
    };
    const head = HEAD.map((f, bit) => {
      const found = wordsOf(texts[f], f === "name");
      for (const w of found) values[localOf(w.word)] |= 1 << bit;
      return { words: found.map((w) => words[localOf(w.word)]), at: found.map((w) => w.at) };
    });
    const lower = body?.toLowerCase();
    const order: number[] = [];
    if (lower !== undefined) {
      // The ranker counts the runs it finds from each word start, and takes a phrase's positions
      // from the words of the lowercased body: the same runs in a well-formed text.
      const same = lower.isWellFormed();
      bodyWords(lower, (word) => {
        if (isWord(word)) values[localOf(word)] += HEAD_BITS;
        if (!same) return;
        const again = word.toLowerCase();
        if (isWord(again)) order.push(localOf(again));
      });
      if (!same) { for (const w of wordsOf(lower)) order.push(localOf(w.word)); }
    }
    const slot = this.#free.pop() ?? this.#slots.length;
    const entry: Entry<T> = {
      skill,
      key,
      slot,
      places: [],
      head,
      bodyLength: lower?.length ?? 0,
      hasBody: lower !== undefined,
      words,
      sequence: words.length <= 0x10000 ? Uint16Array.from(order) : Uint32Array.from(order),
    };
    this.#slots[slot] = entry;
    for (const [k, w] of words.entries()) addPosting(w, slot, values[k]);
    this.#entries.set(skill, entry);
    if (key !== undefined) this.#byKey.set(key, entry);
  }

  #remove(entry: Entry<T>): void {
    this.#settled = undefined;
    for (const w of entry.words) {
      removePosting(w, entry.slot);
      if (w.size === 0) {
        this.#vocabulary.delete(w.word);
        this.#byStem.get(w.stem)?.delete(w);
        if (this.#byStem.get(w.stem)?.size === 0) this.#byStem.delete(w.stem);
        const key = w.word.slice(0, 2);
        this.#byHead.get(key)?.delete(w);
        if (this.#byHead.get(key)?.size === 0) this.#byHead.delete(key);
      }
    }
    this.#slots[entry.slot] = undefined;
    this.#free.push(entry.slot);
    this.#entries.delete(entry.skill);
    if (entry.key !== undefined && this.#byKey.get(entry.key) === entry) {
      this.#byKey.delete(entry.key);
    }
  }

  /** Makes `skills` (every one indexed) the searched list, in their order. */
  #setOrder(skills: readonly T[]): void {
    const order = this.#order;
    if (
      order.length === skills.length && this.#entries.size === order.length &&
      skills.every((skill, i) => skill === order[i])
    ) {
      this.#settled = skills;
      return;
    }
    for (const entry of this.#entries.values()) entry.places.length = 0;
    let distinct = 0;
    for (const [i, skill] of skills.entries()) {
      const entry = this.#entries.get(skill)!;
      if (entry.places.push(i) === 1) distinct++;
    }
    if (distinct < this.#entries.size) {
      for (const entry of [...this.#entries.values()]) {
        if (entry.places.length === 0) this.#remove(entry);
      }
    }
    this.#order = [...skills];
    // Average lengths over the skills that have the field at all.
    const sums = HEAD.map(() => 0);
    const present = HEAD.map(() => 0);
    let bodySum = 0;
    let bodies = 0;
    for (const skill of skills) {
      const entry = this.#entries.get(skill)!;
      for (const [k, field] of entry.head.entries()) {
        if (field.words.length === 0) continue;
        sums[k] += field.words.length;
        present[k]++;
      }
      if (entry.bodyLength > 0) {
        bodySum += entry.bodyLength;
        bodies++;
      }
    }
    this.#average = sums.map((sum, k) => (present[k] === 0 ? 1 : sum / present[k]));
    this.#averageBody = bodies === 0 ? 1 : bodySum / bodies;
    this.#settled = skills;
  }
}
