/**
 * Plain-text tables and path display for human output. Every cell is escaped
 * for the terminal, then styled; columns are padded to the widest cell (by
 * the width of its escaped text) with two spaces between them and trailing
 * spaces trimmed. A cell is a string or a list of styled segments.
 *
 * @example
 * ```ts
 * import { formatTable } from "./table.ts";
 * formatTable([["NAME", "PATH"], ["demo", "~/x"]]); // "NAME  PATH\ndemo  ~/x"
 * ```
 * @module
 */
import { relative, sep } from "node:path";
import { isWithin } from "../fs/mod.ts";
import { escapeTerminal } from "./escape.ts";
import type { Style } from "./style.ts";

/** A piece of a cell: its raw (unescaped) text and the style it is shown in. */
export type Segment = readonly [text: string, style?: Style];

/** A table cell: raw text, or styled segments shown one after the other. */
export type Cell = string | readonly Segment[];

/** Any UTF-16 high surrogate: a code point above U+FFFF takes two code units. */
const HIGH_SURROGATE = /[\ud800-\udbff]/g;

/** The columns `text` (already escaped) takes: one per code point. */
function columnsOf(text: string): number {
  const pairs = text.match(HIGH_SURROGATE);
  return text.length - (pairs === null ? 0 : pairs.length);
}

/** A cell's escaped plain text and its styled rendering. */
function render(cell: Cell): { width: number; shown: string } {
  if (typeof cell === "string") {
    const escaped = escapeTerminal(cell);
    return { width: columnsOf(escaped), shown: escaped };
  }
  let width = 0;
  let shown = "";
  for (const [text, style] of cell) {
    const escaped = escapeTerminal(text);
    width += columnsOf(escaped);
    shown += style === undefined ? escaped : style(escaped);
  }
  return { width, shown };
}

/**
 * The width of each column of `rows`, as {@linkcode formatTable} pads them.
 *
 * @example
 * ```ts
 * import { columnWidths } from "./table.ts";
 * columnWidths([["NAME", "PATH"], ["a-long-name", "~/x"]]); // [11, 4]
 * ```
 */
export function columnWidths(rows: readonly (readonly Cell[])[]): number[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => widths[i] = Math.max(widths[i] ?? 0, render(cell).width));
  }
  return widths;
}

/** Formats rows (the first row is usually the header) as aligned text without a final newline. */
export function formatTable(rows: readonly (readonly Cell[])[]): string {
  const rendered = rows.map((row) => row.map(render));
  const widths: number[] = [];
  for (const row of rendered) {
    row.forEach((cell, i) => widths[i] = Math.max(widths[i] ?? 0, cell.width));
  }
  return rendered.map((row) => {
    const last = row.findLastIndex((cell) => cell.width > 0);
    return row.slice(0, last + 1).map((cell, i) =>
      i === last ? cell.shown : cell.shown + " ".repeat(widths[i] - cell.width)
    ).join("  ");
  }).join("\n");
}

/**
 * The units a cut keeps whole: a written `\uXXXX` or `\u{X…}` escape (the parser writes hidden
 * characters of a description that way), else one code point.
 */
const UNITS = /\\u\{[0-9a-f]{1,6}\}|\\u[0-9a-f]{4}|[^]/giu;

/**
 * `text` cut to at most `width` terminal columns once escaped, ending with "…" when cut. The cut
 * falls between code points and never inside an escape: neither one {@linkcode escapeTerminal}
 * will write for an unsafe character nor a `\uXXXX` already written in the text. The result is raw
 * text, escaped later like any cell.
 *
 * @example
 * ```ts
 * import { fitText } from "./table.ts";
 * fitText("Extract text and tables from PDF files", 16); // "Extract text an…"
 * fitText("a\u001bb", 5); // "a…" (the escape "\u001b" does not fit whole)
 * ```
 */
export function fitText(text: string, width: number): string {
  if (columnsOf(escapeTerminal(text)) <= width) return text;
  let used = 0;
  let kept = "";
  for (const [unit] of text.matchAll(UNITS)) {
    const cost = columnsOf(escapeTerminal(unit));
    if (used + cost > width - 1) break;
    used += cost;
    kept += unit;
  }
  return `${kept}…`;
}

/**
 * `~`-shortens a path under `home` (`~` for home itself).
 *
 * @example
 * ```ts
 * tildePath("/home/me/.claude/skills", "/home/me"); // "~/.claude/skills"
 * ```
 */
export function tildePath(path: string, home: string): string {
  if (path === home) return "~";
  return isWithin(path, home) ? `~${sep}${relative(home, path)}` : path;
}
