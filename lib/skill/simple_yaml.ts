/**
 * A fast reader for the plain frontmatter most skills have, with the YAML
 * reader's exact result, or `undefined` so the caller asks the full reader.
 *
 * Discovery reads thousands of SKILL.md files whose frontmatter is a few
 * `key: value` lines; a general YAML parser spends most of a listing's time
 * on them. This reader accepts only this subset, and declines (returns
 * `undefined`) at the first line outside it:
 *
 * ```text
 * document  = *( blank / entry )
 * entry     = key ":" " "+ scalar        ; at column 0
 *           / key ":" [" "*] *blank nested  ; a mapping one level deep
 *           / key ":" [" "*]              ; null, when no nested lines follow
 * nested    = 1*( indent subkey ":" " "+ scalar / blank ) ; one indent, 1+ spaces
 * key       = ALPHA *( ALPHA / DIGIT / "_" / "-" )
 * subkey    = ALPHA *( ALPHA / DIGIT / "_" / "-" / "." )   ; keys: at most 256 characters
 * scalar    = plain / '"' *(char but '"' and "\") '"' / "'" *(char but "'") "'"
 * plain     = ALPHA *char, holding no ": " and no " #", not ending in ":",
 *             and not a word the core schema reads as null or a boolean
 * blank     = *" "
 * ```
 *
 * `char` is printable: U+0020–U+007E, U+00A0–U+D7FF or U+E000–U+FFFD
 * without U+FEFF, U+2028 and U+2029 (so no tab, no control character, no
 * surrogate, no line end but `\n`). Trailing spaces after a scalar are
 * dropped, as YAML drops them. A duplicate key, a comment, a sequence, a flow
 * collection, an anchor, a tag, a block scalar, a continuation line, a
 * number or any other shape declines, so everything it returns is exactly
 * what the YAML 1.2 core schema reader returns for the same text (a property
 * test holds the two equal).
 *
 * @example
 * ```ts
 * import { readSimpleYaml } from "./simple_yaml.ts";
 * readSimpleYaml("name: pdf\ndescription: Fill PDF forms\nmetadata:\n  version: \"1.0\"");
 * // { name: "pdf", description: "Fill PDF forms", metadata: { version: "1.0" } }
 * readSimpleYaml("allowed-tools:\n  - Bash"); // undefined: a sequence
 * ```
 * @module
 */

/** Any character outside `char` (see the module doc), or a tab or carriage return. */
const NOT_CHAR = /[^\n\x20-\x7E\u00A0-\uD7FF\uE000-\uFFFD]|[\uFEFF\u2028\u2029]/;
/** Plain words the core schema reads as null or booleans (any case, to be safe). */
const SPECIAL_WORDS = new Set(["null", "true", "false"]);
/** Longest key accepted (the YAML reader refuses implicit keys past 1,024 characters). */
const MAX_KEY = 256;

const SPACE = 0x20;
const HASH = 0x23;
const DOUBLE = 0x22;
const SINGLE = 0x27;
const COLON = 0x3a;
const BACKSLASH = 0x5c;

function isLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/** Whether `c` may follow a key's first letter (`.` only in nested keys). */
function isKeyChar(c: number, dots: boolean): boolean {
  return isLetter(c) || (c >= 0x30 && c <= 0x39) || c === 0x5f || c === 0x2d ||
    (dots && c === 0x2e);
}

/** Whether `word` is one of {@linkcode SPECIAL_WORDS} in any case (length first: it is rare). */
function isSpecial(word: string): boolean {
  if (word.length < 4 || word.length > 5) return false;
  const first = word.charCodeAt(0) | 0x20; // lower case for ASCII letters
  return (first === 0x6e || first === 0x74 || first === 0x66) &&
    SPECIAL_WORDS.has(word.toLowerCase());
}

/** The index of the `:` ending a key that starts at `start`, or -1 when there is no such key. */
function keyEnd(text: string, start: number, end: number, dots: boolean): number {
  if (!isLetter(text.charCodeAt(start))) return -1;
  for (let i = start + 1; i < end && i - start <= MAX_KEY; i++) {
    const c = text.charCodeAt(i);
    if (c === COLON) return i;
    if (!isKeyChar(c, dots)) return -1;
  }
  return -1;
}

/** The index of the first character after the spaces from `start` (at most `end`). */
function skipSpaces(text: string, start: number, end: number): number {
  let i = start;
  while (i < end && text.charCodeAt(i) === SPACE) i++;
  return i;
}

/** The scalar written from `start` to `end` (trailing spaces dropped), or `undefined`. */
function scalar(text: string, start: number, end: number): string | undefined {
  let last = end;
  while (last > start && text.charCodeAt(last - 1) === SPACE) last--;
  const first = text.charCodeAt(start);
  if (first === DOUBLE || first === SINGLE) {
    if (last - start < 2 || text.charCodeAt(last - 1) !== first) return undefined;
    for (let i = start + 1; i < last - 1; i++) {
      const c = text.charCodeAt(i);
      if (c === first || (first === DOUBLE && c === BACKSLASH)) return undefined;
    }
    return text.slice(start + 1, last - 1);
  }
  if (!isLetter(first)) return undefined;
  for (let i = start + 1; i < last; i++) {
    const c = text.charCodeAt(i);
    // ": " or a final ":" would be a key; " #" starts a comment.
    if (c === COLON && (i + 1 === last || text.charCodeAt(i + 1) === SPACE)) return undefined;
    if (c === HASH && text.charCodeAt(i - 1) === SPACE) return undefined;
  }
  const value = text.slice(start, last);
  return isSpecial(value) ? undefined : value;
}

/** The end of the line starting at `start` (the index of its `\n`, or the text's end). */
function lineEnd(text: string, start: number): number {
  const end = text.indexOf("\n", start);
  return end < 0 ? text.length : end;
}

/** Whether the line from `start` to `end` is blank (spaces only, or empty). */
function isBlank(text: string, start: number, end: number): boolean {
  return skipSpaces(text, start, end) === end;
}

/**
 * Sets `key` once; `false` when it was already set (YAML refuses duplicate
 * keys), names an inherited property (`constructor`: rare, left to the full
 * reader) or is a null or boolean word.
 */
function setOnce(target: Record<string, unknown>, key: string, value: unknown): boolean {
  if (isSpecial(key) || key in target) return false;
  target[key] = value;
  return true;
}

/** One `key: value` entry read from a line: the key, and the value's start (its line's end when empty). */
interface Entry {
  key: string;
  value: number;
}

/** The entry of the line `start`–`end` whose key starts at `keyStart`, or `undefined`. */
function entryAt(
  text: string,
  keyStart: number,
  end: number,
  dots: boolean,
): Entry | undefined {
  const colon = keyEnd(text, keyStart, end, dots);
  if (colon < 0) return undefined;
  const key = text.slice(keyStart, colon);
  if (colon + 1 === end) return { key, value: end };
  if (text.charCodeAt(colon + 1) !== SPACE) return undefined;
  return { key, value: skipSpaces(text, colon + 1, end) };
}

/**
 * The mapping `text` holds, when it is inside the subset of the module doc;
 * `undefined` when it is not (the full YAML reader decides then).
 *
 * @example
 * ```ts
 * import { readSimpleYaml } from "./simple_yaml.ts";
 * readSimpleYaml("name: demo\nlicense: MIT"); // { name: "demo", license: "MIT" }
 * readSimpleYaml("version: 1.0"); // undefined: a number
 * ```
 */
export function readSimpleYaml(text: string): Record<string, unknown> | undefined {
  if (NOT_CHAR.test(text)) return undefined;
  const result: Record<string, unknown> = {};
  let empty = true;
  let pos = 0;
  while (pos < text.length) {
    const end = lineEnd(text, pos);
    if (isBlank(text, pos, end)) {
      pos = end + 1;
      continue;
    }
    const entry = entryAt(text, pos, end, false);
    if (entry === undefined) return undefined;
    let value: unknown;
    if (entry.value < end) {
      value = scalar(text, entry.value, end);
      if (value === undefined) return undefined;
      pos = end + 1;
    } else {
      const nested = readNested(text, end + 1);
      if (nested === undefined) return undefined;
      value = nested.value;
      pos = nested.next;
    }
    if (!setOnce(result, entry.key, value)) return undefined;
    empty = false;
  }
  // A blank document is null to the YAML reader, not an empty mapping.
  return empty ? undefined : result;
}

/**
 * The nested lines from `start` (a mapping, or null when the next non-blank
 * line is at column 0 or there is none) and the position after them.
 */
function readNested(
  text: string,
  start: number,
): { value: Record<string, unknown> | null; next: number } | undefined {
  let pos = start;
  let indent = -1;
  let value: Record<string, unknown> | null = null;
  while (pos < text.length) {
    const end = lineEnd(text, pos);
    const keyStart = skipSpaces(text, pos, end);
    if (keyStart === end) {
      pos = end + 1;
      continue;
    }
    if (keyStart === pos) break;
    if (value === null) {
      indent = keyStart - pos;
      value = {};
    } else if (keyStart - pos !== indent) return undefined;
    const entry = entryAt(text, keyStart, end, true);
    if (entry === undefined || entry.value === end) return undefined;
    const scalarValue = scalar(text, entry.value, end);
    if (scalarValue === undefined || !setOnce(value, entry.key, scalarValue)) return undefined;
    pos = end + 1;
  }
  return { value, next: pos };
}
