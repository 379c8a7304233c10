/**
 * The English (Porter2) stemmer of the Snowball project, as Martin Porter
 * specifies it (snowballstem.org, "The English (Porter2) stemming
 * algorithm"): a word and its inflections (`tests`, `testing`, `tested`)
 * reduce to one stem (`test`), so a search finds a skill whatever form its
 * text uses. Pure, no imports, about 200 lines; the search's only stemmer.
 *
 * Input is one lowercase word. Words of one or two letters, and words with
 * anything other than `a`–`z` and `'` (digits, accents, other scripts), are
 * returned unchanged. The steps, in order, are the specification's: the
 * exceptional forms (`skies` → `sky`, `news` stays), the regions R1 and R2
 * (with the prefixes `gener`, `commun`, `arsen`, `past`, `univers`, `later`,
 * `emerg` and `organ`), step 0 (apostrophe `'s`), 1a (plurals), the second
 * exception list (`inning`, `proceed` …), 1b (`-ed`, `-ing`), 1c (`-y`),
 * 2, 3 and 4 (derivational suffixes in R1/R2) and 5 (final `e` and `l`).
 *
 * @example
 * ```ts
 * import { stem } from "./_stem.ts";
 * ["tests", "testing", "writing", "presentations", "skies"].map(stem);
 * // ["test", "test", "write", "present", "sky"]
 * ```
 * @module
 */

const EXCEPTIONS: Record<string, string> = {
  skis: "ski",
  skies: "sky",
  dying: "die",
  lying: "lie",
  tying: "tie",
  idly: "idl",
  gently: "gentl",
  ugly: "ugli",
  early: "earli",
  only: "onli",
  singly: "singl",
  sky: "sky",
  news: "news",
  howe: "howe",
  atlas: "atlas",
  cosmos: "cosmos",
  bias: "bias",
  andes: "andes",
};

/** Left unchanged after step 1a. */
const EXCEPTIONS_1A = new Set([
  "inning",
  "outing",
  "canning",
  "herring",
  "earring",
  "proceed",
  "exceed",
  "succeed",
]);

const R1_PREFIXES = ["gener", "commun", "arsen", "past", "univers", "later", "emerg", "organ"];
const DOUBLES = ["bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt"];
const LI_ENDINGS = "cdeghkmnrt";

const isVowel = (c: string | undefined) => c !== undefined && "aeiouy".includes(c);

/** Where R1 (after the first non-vowel following a vowel) starts from `from`. */
function regionAfter(word: string, from: number): number {
  for (let i = from + 1; i < word.length; i++) {
    if (!isVowel(word[i]) && isVowel(word[i - 1])) return i + 1;
  }
  return word.length;
}

/** A short syllable ends at `end` (exclusive). */
function shortSyllableAt(word: string, end: number): boolean {
  if (end === 2) return isVowel(word[0]) && !isVowel(word[1]);
  if (end < 3) return false;
  const [a, b, c] = [word[end - 3], word[end - 2], word[end - 1]];
  return !isVowel(a) && isVowel(b) && !isVowel(c) && !"wxY".includes(c);
}

/** The longest of `suffixes` that `word` ends with. */
function longest(word: string, suffixes: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const s of suffixes) {
    if (word.endsWith(s) && (best === undefined || s.length > best.length)) best = s;
  }
  return best;
}

const STEP2: [string, string][] = [
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["abli", "able"],
  ["entli", "ent"],
  ["izer", "ize"],
  ["ization", "ize"],
  ["ational", "ate"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["aliti", "al"],
  ["alli", "al"],
  ["fulness", "ful"],
  ["ousli", "ous"],
  ["ousness", "ous"],
  ["iveness", "ive"],
  ["iviti", "ive"],
  ["biliti", "ble"],
  ["bli", "ble"],
  ["ogi", "og"],
  ["fulli", "ful"],
  ["lessli", "less"],
  ["li", ""],
];
const STEP2_MAP = new Map(STEP2);

const STEP3: [string, string][] = [
  ["tional", "tion"],
  ["ational", "ate"],
  ["alize", "al"],
  ["icate", "ic"],
  ["iciti", "ic"],
  ["ical", "ic"],
  ["ful", ""],
  ["ness", ""],
  ["ative", ""],
];
const STEP3_MAP = new Map(STEP3);

const STEP4 = [
  "al",
  "ance",
  "ence",
  "er",
  "ic",
  "able",
  "ible",
  "ant",
  "ement",
  "ment",
  "ent",
  "ism",
  "ate",
  "iti",
  "ous",
  "ive",
  "ize",
  "ion",
];

/**
 * The Porter2 stem of one lowercase English word (see the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stem } from "./_stem.ts";
 * assert.equal(stem("generously"), "generous");
 * ```
 */
export function stem(input: string): string {
  if (input.length <= 2 || !/^[a-z']+$/.test(input)) return input;
  let word = input.startsWith("'") ? input.slice(1) : input;
  const exception = EXCEPTIONS[word];
  if (exception !== undefined) return exception;
  if (word.length <= 2) return word;
  // Y for a consonant y: initial, or after a vowel.
  word = word.replace(/^y/, "Y").replace(/([aeiouy])y/g, "$1Y");
  let r1 = regionAfter(word, 0);
  for (const prefix of R1_PREFIXES) {
    if (word.startsWith(prefix)) {
      r1 = prefix.length;
      break;
    }
  }
  const r2 = regionAfter(word, r1);
  const inR1 = (suffix: string) => word.length - suffix.length >= r1;
  const inR2 = (suffix: string) => word.length - suffix.length >= r2;
  const cut = (n: number) => (word = word.slice(0, word.length - n));
  const hasVowel = (s: string) => /[aeiouy]/.test(s);

  // Step 0
  const s0 = longest(word, ["'s'", "'s", "'"]);
  if (s0 !== undefined) cut(s0.length);
  // Step 1a
  const s1a = longest(word, ["sses", "ied", "ies", "s", "us", "ss"]);
  if (s1a === "sses") cut(2);
  else if (s1a === "ied" || s1a === "ies") {
    word = word.slice(0, -3) + (word.length > 4 ? "i" : "ie");
  } else if (s1a === "s" && hasVowel(word.slice(0, -2))) cut(1);
  if (EXCEPTIONS_1A.has(word)) return word;
  // Step 1b
  const s1b = longest(word, ["eed", "eedly", "ed", "edly", "ing", "ingly"]);
  if (s1b === "eed" || s1b === "eedly") {
    if (inR1(s1b)) word = word.slice(0, -s1b.length) + "ee";
  } else if (s1b !== undefined && hasVowel(word.slice(0, -s1b.length))) {
    cut(s1b.length);
    if (word.endsWith("at") || word.endsWith("bl") || word.endsWith("iz")) word += "e";
    else if (DOUBLES.some((d) => word.endsWith(d))) cut(1);
    else if (r1 >= word.length && shortSyllableAt(word, word.length)) word += "e";
  }
  // Step 1c
  if (word.length > 2 && /[yY]$/.test(word) && !isVowel(word[word.length - 2])) {
    word = word.slice(0, -1) + "i";
  }
  // Step 2
  const s2 = longest(word, STEP2.map(([s]) => s));
  if (s2 !== undefined && inR1(s2)) {
    const before = word[word.length - s2.length - 1];
    if (s2 === "ogi") {
      if (before === "l") word = word.slice(0, -3) + "og";
    } else if (s2 === "li") {
      if (before !== undefined && LI_ENDINGS.includes(before)) cut(2);
    } else word = word.slice(0, -s2.length) + STEP2_MAP.get(s2);
  }
  // Step 3
  const s3 = longest(word, STEP3.map(([s]) => s));
  if (s3 !== undefined && inR1(s3)) {
    if (s3 === "ative") {
      if (inR2(s3)) cut(5);
    } else word = word.slice(0, -s3.length) + STEP3_MAP.get(s3);
  }
  // Step 4
  const s4 = longest(word, STEP4);
  if (s4 !== undefined && inR2(s4)) {
    if (s4 !== "ion" || /[st]$/.test(word.slice(0, -3))) cut(s4.length);
  }
  // Step 5
  if (word.endsWith("e")) {
    if (inR2("e") || (inR1("e") && !shortSyllableAt(word, word.length - 1))) cut(1);
  } else if (word.endsWith("l") && inR2("l") && word.endsWith("ll")) cut(1);
  return word.replace(/Y/g, "y");
}
