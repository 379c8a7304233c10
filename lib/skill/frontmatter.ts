/**
 * Splitting a SKILL.md into its YAML frontmatter and its Markdown body.
 *
 * The document must open with an optional byte-order mark, then `---`,
 * optional spaces or tabs, and a line break. The frontmatter ends at the first
 * line that is exactly `---` or `...` (trailing spaces or tabs allowed).
 *
 * @example
 * ```ts
 * import { splitFrontmatter } from "./frontmatter.ts";
 * splitFrontmatter("---\nname: a\n---\nBody")?.body; // "Body"
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

/** Splits text into lines on CRLF or LF. */
function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
}

/**
 * Splits `text` into frontmatter and body, or returns `undefined` when the
 * document has no (closed) frontmatter.
 *
 * @example
 * ```ts
 * splitFrontmatter("\uFEFF---\r\nname: x\r\n...\r\nHi")?.yaml; // "name: x"
 * splitFrontmatter("---\nname: x\n"); // undefined (never closed)
 * ```
 */
export function splitFrontmatter(text: string): Frontmatter | undefined {
  const firstBreak = text.indexOf("\n");
  if (firstBreak < 0) return undefined;
  const lines = splitLines(text);
  if (!OPENER.test(lines[0])) return undefined;
  for (let i = 1; i < lines.length; i++) {
    if (CLOSER.test(lines[i])) {
      return {
        yaml: lines.slice(1, i).join("\n"),
        body: lines.slice(i + 1).join("\n"),
        yamlLine: 2,
        bodyLine: i + 2,
      };
    }
  }
  return undefined;
}
