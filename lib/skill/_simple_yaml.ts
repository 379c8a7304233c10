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
 * import { readSimpleYaml } from "./_simple_yaml.ts";
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

/** A top-level entry: a key at column 0, `:`, then the value after one or more spaces (or none). */
const ENTRY = new RegExp(`^([A-Za-z][A-Za-z0-9_-]{0,${MAX_KEY - 1}}):(?: +(.*))?$`);
/** A nested entry: its indent, a key (dots allowed), `:`, one or more spaces and a value. */
const NESTED = new RegExp(`^( +)([A-Za-z][A-Za-z0-9_.-]{0,${MAX_KEY - 1}}):(?: +(.*))?$`);
/** A line of spaces only (or empty). */
const BLANK = /^ *$/;
/** A quoted scalar without the characters that would need the full reader (escapes, inner quotes). */
const QUOTED = /^(?:"([^"\\]*)"|'([^']*)')$/;
/** In a plain scalar: `: ` or a final `:` (a key), or ` #` (a comment). */
const NOT_PLAIN = /: |:$| #/;
/** A plain scalar starts with a letter. */
const LETTER = /^[A-Za-z]/;

/** Whether `word` is one of {@linkcode SPECIAL_WORDS} in any case (length first: it is rare). */
function isSpecial(word: string): boolean {
  if (word.length < 4 || word.length > 5) return false;
  const first = word.charCodeAt(0) | 0x20; // lower case for ASCII letters
  return (first === 0x6e || first === 0x74 || first === 0x66) &&
    SPECIAL_WORDS.has(word.toLowerCase());
}

/** The scalar `written` holds (trailing spaces dropped), or `undefined` outside the subset. */
function scalar(written: string): string | undefined {
  const value = written.endsWith(" ") ? written.replace(/ +$/, "") : written;
  const quoted = QUOTED.exec(value);
  if (quoted !== null) return quoted[1] ?? quoted[2];
  if (!LETTER.test(value) || NOT_PLAIN.test(value)) return undefined;
  return isSpecial(value) ? undefined : value;
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

/**
 * The mapping `text` holds, when it is inside the subset of the module doc;
 * `undefined` when it is not (the full YAML reader decides then).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readSimpleYaml } from "./_simple_yaml.ts";
 * assert.deepEqual(readSimpleYaml("name: demo\nlicense: MIT"), { name: "demo", license: "MIT" });
 * readSimpleYaml("version: 1.0"); // undefined: a number
 * ```
 */
export function readSimpleYaml(text: string): Record<string, unknown> | undefined {
  if (NOT_CHAR.test(text)) return undefined;
  const lines = text.split("\n");
  const result: Record<string, unknown> = {};
  let empty = true;
  let at = 0;
  while (at < lines.length) {
    const line = lines[at++];
    if (BLANK.test(line)) continue;
    const entry = ENTRY.exec(line);
    if (entry === null) return undefined;
    let value: unknown;
    if (entry[2] !== undefined && entry[2] !== "") {
      value = scalar(entry[2]);
      if (value === undefined) return undefined;
    } else {
      const nested = readNested(lines, at);
      if (nested === undefined) return undefined;
      value = nested.value;
      at = nested.next;
    }
    if (!setOnce(result, entry[1], value)) return undefined;
    empty = false;
  }
  // A blank document is null to the YAML reader, not an empty mapping.
  return empty ? undefined : result;
}

/**
 * The nested lines from line `start` (a mapping, or null when the next
 * non-blank line is at column 0 or there is none) and the line after them.
 */
function readNested(
  lines: readonly string[],
  start: number,
): { value: Record<string, unknown> | null; next: number } | undefined {
  let at = start;
  let indent = -1;
  let value: Record<string, unknown> | null = null;
  while (at < lines.length) {
    const line = lines[at];
    if (BLANK.test(line)) {
      at++;
      continue;
    }
    if (line.charCodeAt(0) !== 0x20) break;
    const entry = NESTED.exec(line);
    if (entry === null || entry[3] === undefined || entry[3] === "") return undefined;
    if (value === null) {
      indent = entry[1].length;
      value = {};
    } else if (entry[1].length !== indent) return undefined;
    const scalarValue = scalar(entry[3]);
    if (scalarValue === undefined || !setOnce(value, entry[2], scalarValue)) return undefined;
    at++;
  }
  return { value, next: at };
}
