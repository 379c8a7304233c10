/**
 * Hidden characters: code points that change how text reads or renders while
 * staying invisible (bidirectional controls, zero-width and invisible
 * formatting characters, tag characters, supplementary variation selectors)
 * and control characters (C0 except tab and line feed, a carriage return not
 * followed by a line feed, DEL, C1). The whole raw file is scanned,
 * frontmatter included, and so is every key and string value of the parsed
 * frontmatter: a YAML escape such as `"\u202e"` is ASCII in the file but a
 * hidden character in the value a model is served.
 *
 * Not reported: a byte-order mark at the very start; U+200D between two
 * emoji (optionally after U+FE0F or a skin-tone modifier); the tag sequence of a subdivision flag
 * (U+1F3F4, 2–6 tag digits or lowercase letters, U+E007F).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { findHiddenCharacters } from "./_hidden.ts";
 * assert.equal(findHiddenCharacters("a\u200Bb")[0].name, "ZERO WIDTH SPACE");
 * ```
 * @module
 */

/** The class of a hidden character. */
export type HiddenKind =
  | "bidi-control"
  | "zero-width"
  | "invisible-format"
  | "tag"
  | "variation-selector"
  | "control";

/** One reported code point (or block) with where it occurs. */
export interface HiddenCharacter {
  /** `U+XXXX`, or the block range for tag characters and variation selectors. */
  codePoint: string;
  name: string;
  kind: HiddenKind;
  /** Occurrences in the raw text (0 when it only appears after YAML decoding). */
  count: number;
  /** Distinct 1-based raw line numbers, in order, at most 20. */
  lines: number[];
  /**
   * Parsed frontmatter fields whose key or string value holds it after YAML
   * decoding, in document order, at most 20: `description`, `metadata.author`,
   * `tags[0]`; a key that is not a plain identifier is written
   * `metadata["a\u200bb"]` (ASCII only).
   */
  fields: string[];
}

/** Options of {@linkcode findHiddenCharacters}. */
export interface HiddenOptions {
  /** The parsed frontmatter value (any YAML value); its keys and strings are scanned too. */
  frontmatter?: unknown;
}

const MAX_LINES = 20;
const MAX_FIELDS = 20;

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

const CONTROL_NAMES: ReadonlyMap<number, string> = new Map([
  [0x00, "NULL"],
  [0x07, "BELL"],
  [0x08, "BACKSPACE"],
  [0x0b, "LINE TABULATION"],
  [0x0c, "FORM FEED"],
  [0x0d, "CARRIAGE RETURN"],
  [0x1b, "ESCAPE"],
  [0x7f, "DELETE"],
  [0x85, "NEXT LINE"],
  [0x9b, "CONTROL SEQUENCE INTRODUCER"],
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
  if (isControl(cp)) {
    return [cp, formatCodePoint(cp), CONTROL_NAMES.get(cp) ?? "CONTROL CHARACTER", "control"];
  }
  for (const [start, end, label, name, kind] of BLOCKS) {
    if (cp >= start && cp <= end) return [start, label, name, kind];
  }
  return undefined;
}

/** C0 except tab and line feed, DEL and C1 (a CR before LF is skipped by the scan). */
function isControl(cp: number): boolean {
  return (cp < 0x20 && cp !== 0x09 && cp !== 0x0a) || (cp >= 0x7f && cp <= 0x9f);
}

/** `U+` and at least four upper-case hex digits. */
function formatCodePoint(cp: number): string {
  return "U+" + cp.toString(16).toUpperCase().padStart(4, "0");
}

/**
 * Lists the hidden characters of `text` (and, when given, of the parsed
 * frontmatter's keys and string values), sorted by code point.
 *
 * @example
 * ```ts
 * findHiddenCharacters("\uFEFFtext"); // [] (a leading BOM is fine)
 * findHiddenCharacters('description: "\\u202e"', { frontmatter: { description: "\u202e" } })[0]
 *   .fields; // ["description"]
 * ```
 */
export function findHiddenCharacters(text: string, options: HiddenOptions = {}): HiddenCharacter[] {
  const found = new Map<number, HiddenCharacter>();
  countInText(text, found);
  if (options.frontmatter !== undefined) recordFields(options.frontmatter, found);
  return [...found.entries()].sort((a, b) => a[0] - b[0]).map(([, hit]) => hit);
}

/** The record of one hidden character (or block), created on first sight. */
function entry(found: Map<number, HiddenCharacter>, hit: Hit): HiddenCharacter {
  const [key, codePoint, name, kind] = hit;
  let record = found.get(key);
  if (record === undefined) {
    record = { codePoint, name, kind, count: 0, lines: [], fields: [] };
    found.set(key, record);
  }
  return record;
}

/** Counts the hidden characters of the raw text and the lines they are on. */
function countInText(text: string, found: Map<number, HiddenCharacter>): void {
  if (PLAIN.test(text)) return;
  let line = 1;
  scan(text, true, (cp, _index, hit) => {
    if (cp === 0x0a) {
      line++;
      return;
    }
    if (hit === undefined) return;
    const record = entry(found, hit);
    record.count++;
    if (record.lines.length < MAX_LINES && record.lines[record.lines.length - 1] !== line) {
      record.lines.push(line);
    }
  });
}

/** Records the frontmatter fields whose key or string value holds a hidden character. */
function recordFields(frontmatter: unknown, found: Map<number, HiddenCharacter>): void {
  walkStrings(frontmatter, "", new Set(), (value, field) => {
    if (PLAIN.test(value)) return;
    scan(value, false, (_cp, _index, hit) => {
      if (hit === undefined) return;
      const fields = entry(found, hit).fields;
      if (fields.length < MAX_FIELDS && !fields.includes(field)) fields.push(field);
    });
  });
}

/**
 * Writes every hidden character of `text` (the code points
 * {@linkcode findHiddenCharacters} reports, with the same exemptions, a BOM at
 * the start included) as a visible `\uXXXX` or `\u{XXXXX}` escape, so text
 * served to a model or a person says what it holds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(revealHiddenCharacters("a\u202eb\u{E0041}"), "a\\u202eb\\u{e0041}");
 * ```
 */
export function revealHiddenCharacters(text: string): string {
  if (PLAIN.test(text)) return text;
  const hidden = new Set<number>();
  const cps = scan(text, false, (_cp, index, hit) => {
    if (hit !== undefined) hidden.add(index);
  });
  if (hidden.size === 0) return text;
  return cps.map((cp, i) =>
    !hidden.has(i)
      ? String.fromCodePoint(cp)
      : cp > 0xffff
      ? `\\u{${cp.toString(16)}}`
      : `\\u${cp.toString(16).padStart(4, "0")}`
  ).join("");
}

type Hit = [key: number, codePoint: string, name: string, kind: HiddenKind];

/**
 * Text made only of printable ASCII, tabs and line feeds holds nothing to
 * report (every reported class lies outside it): the common case skips the
 * code-point scan.
 */
const PLAIN = /^[\t\n\x20-\x7e]*$/;

/**
 * Calls `visit` for every code point of `text` that is a line feed or a
 * reported hidden character (with its index and class); allowed sequences are
 * skipped. Returns the code points.
 */
function scan(
  text: string,
  raw: boolean,
  visit: (cp: number, index: number, hit?: Hit) => void,
): number[] {
  const cps = Array.from(text, (ch) => ch.codePointAt(0) as number);
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i];
    if (cp === 0x0a) {
      visit(cp, i);
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
    if (cp === 0xfeff && i === 0 && raw) continue;
    if (cp === 0x0d && cps[i + 1] === 0x0a) continue;
    if (cp === 0x200d && isEmojiJoiner(cps, i)) continue;
    visit(cp, i, hit);
  }
  return cps;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** `parent.key`, or `parent["k\u200bey"]` (ASCII-escaped) for any other key. */
function fieldPath(parent: string, key: string): string {
  if (IDENTIFIER.test(key)) return parent === "" ? key : `${parent}.${key}`;
  const quoted = JSON.stringify(key).replace(
    /[^\x20-\x7e]/g,
    (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return `${parent}[${quoted}]`;
}

/** Visits every mapping key and string in a YAML value, depth first, each node once. */
function walkStrings(
  value: unknown,
  path: string,
  seen: Set<object>,
  visit: (text: string, field: string) => void,
): void {
  if (typeof value === "string") {
    visit(value, path);
    return;
  }
  if (value === null || typeof value !== "object" || seen.has(value)) return;
  seen.add(value);
  if (Array.isArray(value)) {
    value.forEach((item, index) => walkStrings(item, `${path}[${index}]`, seen, visit));
    return;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
    return; // dates and binary values hold no text
  }
  for (const [key, item] of Object.entries(value)) {
    const field = fieldPath(path, key);
    visit(key, field);
    walkStrings(item, field, seen, visit);
  }
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
