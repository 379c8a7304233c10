/**
 * Hidden characters: code points that change how text reads or renders while
 * staying invisible (bidirectional controls, zero-width and invisible
 * formatting characters, tag characters, supplementary variation selectors).
 * The whole raw file is scanned, frontmatter included.
 *
 * Not reported: a byte-order mark at the very start; U+200D between two
 * emoji (optionally after U+FE0F or a skin-tone modifier); the tag sequence of a subdivision flag
 * (U+1F3F4, 2–6 tag digits or lowercase letters, U+E007F).
 *
 * @example
 * ```ts
 * import { findHiddenCharacters } from "./hidden.ts";
 * findHiddenCharacters("a\u200Bb")[0].name; // "ZERO WIDTH SPACE"
 * ```
 * @module
 */

/** The class of a hidden character. */
export type HiddenKind =
  | "bidi-control"
  | "zero-width"
  | "invisible-format"
  | "tag"
  | "variation-selector";

/** One reported code point (or block) with where it occurs. */
export interface HiddenCharacter {
  /** `U+XXXX`, or the block range for tag characters and variation selectors. */
  codePoint: string;
  name: string;
  kind: HiddenKind;
  count: number;
  /** Distinct 1-based line numbers, in order, at most 20. */
  lines: number[];
}

const MAX_LINES = 20;

const NAMED: ReadonlyMap<number, [string, HiddenKind]> = new Map([
  [0x00ad, ["SOFT HYPHEN", "invisible-format"]],
  [0x034f, ["COMBINING GRAPHEME JOINER", "invisible-format"]],
  [0x061c, ["ARABIC LETTER MARK", "bidi-control"]],
  [0x115f, ["HANGUL CHOSEONG FILLER", "invisible-format"]],
  [0x1160, ["HANGUL JUNGSEONG FILLER", "invisible-format"]],
  [0x180e, ["MONGOLIAN VOWEL SEPARATOR", "zero-width"]],
  [0x200b, ["ZERO WIDTH SPACE", "zero-width"]],
  [0x200c, ["ZERO WIDTH NON-JOINER", "zero-width"]],
  [0x200d, ["ZERO WIDTH JOINER", "zero-width"]],
  [0x200e, ["LEFT-TO-RIGHT MARK", "bidi-control"]],
  [0x200f, ["RIGHT-TO-LEFT MARK", "bidi-control"]],
  [0x202a, ["LEFT-TO-RIGHT EMBEDDING", "bidi-control"]],
  [0x202b, ["RIGHT-TO-LEFT EMBEDDING", "bidi-control"]],
  [0x202c, ["POP DIRECTIONAL FORMATTING", "bidi-control"]],
  [0x202d, ["LEFT-TO-RIGHT OVERRIDE", "bidi-control"]],
  [0x202e, ["RIGHT-TO-LEFT OVERRIDE", "bidi-control"]],
  [0x2060, ["WORD JOINER", "zero-width"]],
  [0x2061, ["FUNCTION APPLICATION", "invisible-format"]],
  [0x2062, ["INVISIBLE TIMES", "invisible-format"]],
  [0x2063, ["INVISIBLE SEPARATOR", "invisible-format"]],
  [0x2064, ["INVISIBLE PLUS", "invisible-format"]],
  [0x2066, ["LEFT-TO-RIGHT ISOLATE", "bidi-control"]],
  [0x2067, ["RIGHT-TO-LEFT ISOLATE", "bidi-control"]],
  [0x2068, ["FIRST STRONG ISOLATE", "bidi-control"]],
  [0x2069, ["POP DIRECTIONAL ISOLATE", "bidi-control"]],
  [0x3164, ["HANGUL FILLER", "invisible-format"]],
  [0xfeff, ["ZERO WIDTH NO-BREAK SPACE", "zero-width"]],
  [0xffa0, ["HALFWIDTH HANGUL FILLER", "invisible-format"]],
]);

const BLOCKS: ReadonlyArray<[number, number, string, string, HiddenKind]> = [
  [0xe0000, 0xe007f, "U+E0000..U+E007F", "TAG CHARACTERS", "tag"],
  [0xe0100, 0xe01ef, "U+E0100..U+E01EF", "VARIATION SELECTORS SUPPLEMENT", "variation-selector"],
];

const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u;
const BLACK_FLAG = 0x1f3f4;
const CANCEL_TAG = 0xe007f;

function isFlagTag(cp: number): boolean {
  return (cp >= 0xe0030 && cp <= 0xe0039) || (cp >= 0xe0061 && cp <= 0xe007a);
}

function classify(
  cp: number,
): [key: number, codePoint: string, name: string, kind: HiddenKind] | undefined {
  const named = NAMED.get(cp);
  if (named) return [cp, formatCodePoint(cp), named[0], named[1]];
  for (const [start, end, label, name, kind] of BLOCKS) {
    if (cp >= start && cp <= end) return [start, label, name, kind];
  }
  return undefined;
}

/** `U+` and at least four upper-case hex digits. */
export function formatCodePoint(cp: number): string {
  return "U+" + cp.toString(16).toUpperCase().padStart(4, "0");
}

/**
 * Lists the hidden characters of `text`, sorted by code point.
 *
 * @example
 * ```ts
 * findHiddenCharacters("\uFEFFtext"); // [] (a leading BOM is fine)
 * ```
 */
export function findHiddenCharacters(text: string): HiddenCharacter[] {
  const cps = Array.from(text, (ch) => ch.codePointAt(0) as number);
  const found = new Map<number, HiddenCharacter>();
  let line = 1;
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i];
    if (cp === 0x0a) {
      line++;
      continue;
    }
    if (cp === BLACK_FLAG) {
      let j = i + 1;
      while (j < cps.length && j - i <= 6 && isFlagTag(cps[j])) j++;
      const tags = j - i - 1;
      if (tags >= 2 && tags <= 6 && cps[j] === CANCEL_TAG) {
        i = j;
        continue;
      }
    }
    const hit = classify(cp);
    if (hit === undefined) continue;
    if (cp === 0xfeff && i === 0) continue;
    if (cp === 0x200d && isEmojiJoiner(cps, i)) continue;
    const [key, codePoint, name, kind] = hit;
    let entry = found.get(key);
    if (entry === undefined) {
      entry = { codePoint, name, kind, count: 0, lines: [] };
      found.set(key, entry);
    }
    entry.count++;
    if (entry.lines.length < MAX_LINES && entry.lines[entry.lines.length - 1] !== line) {
      entry.lines.push(line);
    }
  }
  return [...found.entries()].sort((a, b) => a[0] - b[0]).map(([, entry]) => entry);
}

function isEmojiJoiner(cps: number[], i: number): boolean {
  let before = i - 1;
  // An emoji presentation selector or a skin-tone modifier may sit between the emoji and the joiner.
  if (cps[before] === 0xfe0f || (cps[before] >= 0x1f3fb && cps[before] <= 0x1f3ff)) before--;
  const prev = cps[before];
  const next = cps[i + 1];
  return prev !== undefined && next !== undefined &&
    PICTOGRAPHIC.test(String.fromCodePoint(prev)) && PICTOGRAPHIC.test(String.fromCodePoint(next));
}
