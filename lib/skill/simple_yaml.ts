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

/** A top-level `key:` and the rest of its line. */
const ENTRY = /^([A-Za-z][A-Za-z0-9_-]*):(?: +(.*))?$/;
/** A nested `  subkey: value` line: indent, key, value. */
const NESTED = /^( +)([A-Za-z][A-Za-z0-9_.-]*): +(.*)$/;
/** Any character outside `char` (see the module doc), or a tab or carriage return. */
const NOT_CHAR = /[^\n\x20-\x7E\u00A0-\uD7FF\uE000-\uFFFD]|[\uFEFF\u2028\u2029]/;
/** Plain words the core schema reads as null or booleans (any case, to be safe). */
const SPECIAL_WORDS = new Set(["null", "true", "false"]);

/** A lone scalar value as written after `key: `, or `undefined` when outside the subset. */
function scalar(raw: string): string | undefined {
  const value = raw.trimEnd();
  const first = value.charCodeAt(0);
  if (first === 0x22 || first === 0x27) {
    const quote = value[0];
    const inner = value.slice(1, -1);
    if (value.length < 2 || value[value.length - 1] !== quote) return undefined;
    if (inner.includes(quote) || (quote === '"' && inner.includes("\\"))) return undefined;
    return inner;
  }
  const letter = (first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a);
  if (!letter || value.includes(": ") || value.includes(" #") || value.endsWith(":")) {
    return undefined;
  }
  return SPECIAL_WORDS.has(value.toLowerCase()) ? undefined : value;
}

/** Whether a line is blank (spaces only, or empty). */
function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) if (line.charCodeAt(i) !== 0x20) return false;
  return true;
}

/** Longest key accepted (the YAML reader refuses implicit keys past 1,024 characters). */
const MAX_KEY = 256;

/**
 * Sets `key` once; `false` when it was already set (YAML refuses duplicate
 * keys), is too long or is a null or boolean word.
 */
function setOnce(target: Record<string, unknown>, key: string, value: unknown): boolean {
  if (key.length > MAX_KEY || SPECIAL_WORDS.has(key.toLowerCase())) return false;
  if (Object.hasOwn(target, key)) return false;
  target[key] = value;
  return true;
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
  const lines = text.split("\n");
  const result: Record<string, unknown> = {};
  let index = 0;
  while (index < lines.length) {
    const line = lines[index++];
    if (isBlank(line)) continue;
    const entry = ENTRY.exec(line);
    if (entry === null) return undefined;
    const [, key, rest = ""] = entry;
    if (rest.trim() !== "") {
      const value = scalar(rest);
      if (value === undefined || !setOnce(result, key, value)) return undefined;
      continue;
    }
    const nested = readNested(lines, index);
    if (nested === undefined || !setOnce(result, key, nested.value)) return undefined;
    index = nested.next;
  }
  // A blank document is null to the YAML reader, not an empty mapping.
  return Object.keys(result).length > 0 ? result : undefined;
}

/**
 * The nested lines from `start` (a mapping, or null when the next non-blank
 * line is at column 0 or there is none) and the index after them.
 */
function readNested(
  lines: readonly string[],
  start: number,
): { value: Record<string, unknown> | null; next: number } | undefined {
  let index = start;
  let indent = "";
  let value: Record<string, unknown> | null = null;
  for (; index < lines.length; index++) {
    const line = lines[index];
    if (isBlank(line)) continue;
    if (line.charCodeAt(0) !== 0x20) break;
    const match = NESTED.exec(line);
    if (match === null) return undefined;
    const [, own, key, raw] = match;
    if (value === null) {
      indent = own;
      value = {};
    } else if (own !== indent) return undefined;
    const text = scalar(raw);
    if (text === undefined || !setOnce(value, key, text)) return undefined;
  }
  return { value, next: index };
}
