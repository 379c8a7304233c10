/**
 * Splitting a SKILL.md into its YAML frontmatter and its Markdown body.
 *
 * The document must open with an optional byte-order mark, then `---`,
 * optional spaces or tabs, and a line break. The frontmatter ends at the first
 * line that is exactly `---` or `...` (trailing spaces or tabs allowed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { splitFrontmatter } from "./_frontmatter.ts";
 * assert.equal(splitFrontmatter("---\nname: a\n---\nBody")?.body, "Body");
 * ```
 * @module
 */

/** The two parts of a document with frontmatter. */
export interface Frontmatter {
  /** The YAML text between the delimiters, lines joined with LF. */
  yaml: string;
  /** The Markdown after the closing delimiter, lines joined with LF. */
  body: string;
  /** 1-based line number in the file of the first YAML line. */
  yamlLine: number;
  /** 1-based line number in the file of the first body line. */
  bodyLine: number;
}

const OPENER = /^\uFEFF?---[ \t]*$/;
const CLOSER = /^(?:---|\.\.\.)[ \t]*$/;

/**
 * Splits `text` into frontmatter and body, or returns `undefined` when the
 * document has no (closed) frontmatter.
 *
 * Lines end at LF, a CR before it included; the YAML and the body come back
 * with every CRLF written as LF. Only the frontmatter's lines are visited:
 * the body is taken whole.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(splitFrontmatter("\uFEFF---\r\nname: x\r\n...\r\nHi")?.yaml, "name: x");
 * splitFrontmatter("---\nname: x\n"); // undefined (never closed)
 * ```
 */
export function splitFrontmatter(text: string): Frontmatter | undefined {
  const firstBreak = text.indexOf("\n");
  if (firstBreak < 0 || !OPENER.test(lineAt(text, 0, firstBreak))) return undefined;
  const yamlStart = firstBreak + 1;
  let start = yamlStart;
  for (let line = 2; start <= text.length; line++) {
    const end = text.indexOf("\n", start);
    if (CLOSER.test(lineAt(text, start, end))) {
      return {
        yaml: toLf(withoutFinalBreak(text.slice(yamlStart, start))),
        body: end < 0 ? "" : toLf(text.slice(end + 1)),
        yamlLine: 2,
        bodyLine: line + 1,
      };
    }
    if (end < 0) break;
    start = end + 1;
  }
  return undefined;
}

/** The line from `start` to the LF at `end` (a CR before it dropped), or to the end of the text. */
function lineAt(text: string, start: number, end: number): string {
  if (end < 0) return text.slice(start);
  return text.charCodeAt(end - 1) === 13 && end > start
    ? text.slice(start, end - 1)
    : text.slice(start, end);
}

/** `text` without the line break that ends it (LF or CRLF). */
function withoutFinalBreak(text: string): string {
  if (!text.endsWith("\n")) return text;
  return text.endsWith("\r\n") ? text.slice(0, -2) : text.slice(0, -1);
}

/** Every CRLF as LF (a lone CR stays). */
function toLf(text: string): string {
  return text.includes("\r") ? text.replaceAll("\r\n", "\n") : text;
}
