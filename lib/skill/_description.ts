/**
 * Deriving a description from the first real paragraph of a Markdown body.
 *
 * @example
 * ```ts
 * import { deriveDescription } from "./_description.ts";
 * deriveDescription("# Title\n\nUse **this** when things happen.\nSecond line.\n\nMore.");
 * // "Use this when things happen. Second line."
 * ```
 * @module
 */
import { MAX_DESCRIPTION_LENGTH } from "./_names.ts";

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const HEADING = /^\s{0,3}#{1,6}(?:[ \t]|$)/;
const RULE = /^\s{0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;

/** Removes fenced code blocks; an unclosed fence runs to the end. */
function removeFences(text: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of text.split("\n")) {
    const match = FENCE.exec(line);
    if (fence === undefined) {
      if (match) {
        fence = match[1];
        out.push("");
      } else {
        out.push(line);
      }
    } else {
      if (match && match[1][0] === fence[0] && match[1].length >= fence.length) {
        fence = undefined;
      }
      out.push("");
    }
  }
  return out.join("\n");
}

/** Removes HTML comments; an unterminated `<!--` removes the rest. */
function removeComments(text: string): string {
  let out = "";
  let index = 0;
  for (;;) {
    const open = text.indexOf("<!--", index);
    if (open < 0) return out + text.slice(index);
    out += text.slice(index, open);
    const close = text.indexOf("-->", open + 4);
    if (close < 0) return out;
    index = close + 3;
  }
}

function isSkippable(line: string): boolean {
  return HEADING.test(line) || RULE.test(line) || FENCE.test(line) ||
    line.trimStart().startsWith("<!--");
}

/**
 * The first paragraph of `body` that is not only headings, rules or fences,
 * with its heading lines dropped and Markdown emphasis removed; at most 1024
 * characters. `undefined` when there is none.
 */
export function deriveDescription(body: string): string | undefined {
  const text = removeComments(removeFences(body.replace(/\r\n?/g, "\n")));
  for (const block of text.split(/\n[ \t]*\n/)) {
    const lines = block.split("\n").filter((line) => line.trim() !== "");
    if (lines.length === 0 || lines.every(isSkippable)) continue;
    const joined = lines.filter((line) => !HEADING.test(line)).join(" ")
      .replace(/[*_`>]+/g, "")
      .replace(/\s+/g, " ")
      .trim();
    if (joined === "") continue;
    return truncateCodePoints(joined, MAX_DESCRIPTION_LENGTH);
  }
  return undefined;
}

/** The number of Unicode code points in `text`. */
export function codePointLength(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** The first `max` code points of `text` (never splits a surrogate pair). */
export function truncateCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  let count = 0;
  let i = 0;
  while (i < text.length && count < max) {
    const code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    i += code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
    count++;
  }
  return text.slice(0, i);
}
