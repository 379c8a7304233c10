/**
 * Plain-text tables and path display for human output. Every cell is escaped
 * for the terminal, then styled; columns are padded to the widest cell (by
 * the width of its escaped text in terminal cells: wide East Asian characters
 * and emoji take 2, combining marks 0) with two spaces between them and
 * trailing spaces trimmed. A cell is a string or a list of styled segments.
 *
 * Fitted to a width (a terminal; piped output stays whole), the columns share
 * it by priority, left to right: each first gets its `min`, then up to its
 * `share` of the width, then what is still left goes to the first columns
 * that want more. A cell wider than its column is cut with "…": at its end, or
 * in the middle (the start and the end survive, for paths and names); a cell
 * of segments keeps its first segment (the name) and cuts what follows it (the
 * marks) first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatTable } from "./table.ts";
 * assert.equal(formatTable([["NAME", "PATH"], ["demo", "~/x"]]), "NAME  PATH\ndemo  ~/x");
 * formatTable([["a-very-long-name", "x"]], { width: 10, columns: [{ min: 6, cut: "middle" }] });
 * // "a-v…ame  x"
 * ```
 * @module
 */
import { relative, sep } from "node:path";
import { isWithin } from "../lib/fs/mod.ts";
import { escapeTerminal } from "./escape.ts";
import type { Style } from "./style.ts";

/**
 * A piece of a cell: its raw (unescaped) text, the style it is shown in and, for the one piece
 * that tells rows apart when that is not the first, `"key"` (see {@linkcode fitCell}).
 */
export type Segment = readonly [text: string, style?: Style, key?: "key"];

/** A table cell: raw text, or styled segments shown one after the other. */
export type Cell = string | readonly Segment[];

/** Characters that take no cell: combining marks and the zero-width joiner and selectors. */
const ZERO_WIDTH = /[\p{Mn}\p{Me}\u200b-\u200d\ufe00-\ufe0f]/u;

/**
 * Characters that take two cells: the East Asian Wide and Fullwidth blocks (Hangul Jamo, CJK,
 * kana, Hangul syllables, compatibility and fullwidth forms, the supplementary ideographic planes)
 * and emoji shown as emoji by default.
 */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\ua960-\ua97f\uac00-\ud7a3\uf900-\ufaff\ufe10-\ufe19\ufe30-\ufe6f\uff00-\uff60\uffe0-\uffe6\u{16fe0}-\u{16fe4}\u{17000}-\u{18aff}\u{1b000}-\u{1b2ff}\u{20000}-\u{2fffd}\u{30000}-\u{3fffd}]|\p{Emoji_Presentation}/u;

/** Anything that may not take exactly one cell (a plain scan: ASCII needs no more). */
const NOT_NARROW = /[^\u0020-\u007e]/;

/**
 * The terminal cells `text` takes once shown (escape it first: see the module doc): 2 for a wide
 * character, 0 for a combining mark, else 1 per code point.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cellWidth } from "./table.ts";
 * assert.equal(cellWidth("pdf"), 3);
 * assert.equal(cellWidth("表計算"), 6);
 * assert.equal(cellWidth("e\u0301"), 1);
 * ```
 */
export function cellWidth(text: string): number {
  if (!NOT_NARROW.test(text)) return text.length;
  let width = 0;
  for (const ch of text) width += ZERO_WIDTH.test(ch) ? 0 : WIDE.test(ch) ? 2 : 1;
  return width;
}

/** The cells raw `text` takes once escaped. */
const shownWidth = (text: string): number => cellWidth(escapeTerminal(text));

/** A cell's escaped plain text and its styled rendering. */
function render(cell: Cell): { width: number; shown: string } {
  if (typeof cell === "string") {
    const escaped = escapeTerminal(cell);
    return { width: cellWidth(escaped), shown: escaped };
  }
  let width = 0;
  let shown = "";
  for (const [text, style] of cell) {
    const escaped = escapeTerminal(text);
    width += cellWidth(escaped);
    shown += style === undefined ? escaped : style(escaped);
  }
  return { width, shown };
}

/**
 * The width of each column of `rows`, as {@linkcode formatTable} pads them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { columnWidths } from "./table.ts";
 * assert.deepEqual(columnWidths([["NAME", "PATH"], ["a-long-name", "~/x"]]), [11, 4]);
 * ```
 */
export function columnWidths(rows: readonly (readonly Cell[])[]): number[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => widths[i] = Math.max(widths[i] ?? 0, render(cell).width));
  }
  return widths;
}

/** Where a cell too wide for its column loses text. */
export type Cut = "end" | "middle";

/** How one column is fitted to a width (see the module doc). */
export interface ColumnFit {
  /**
   * The fewest cells the column keeps while others are cut.
   *
   * @default 10, or its widest cell
   */
  min?: number;
  /**
   * The share of the width it takes before the columns after it.
   *
   * @default an equal share
   */
  share?: number;
  /**
   * Where its cells lose text when cut.
   *
   * @default {"end"}
   */
  cut?: Cut;
}

/** Options of {@linkcode formatTable}. */
export interface TableOptions {
  /**
   * Fit the table to this many terminal cells.
   *
   * @default none, every cell whole
   */
  width?: number;
  /**
   * How each column is fitted, by position.
   *
   * @default `{}` for each
   */
  columns?: readonly ColumnFit[];
}

/** The default {@linkcode ColumnFit.min}. */
const DEFAULT_MIN = 10;

/**
 * The column widths that fit `width` cells (two spaces between columns), from the columns'
 * `natural` (widest cell) widths, by the priorities of the module doc. Never wider than `width`
 * unless every column is down to one cell.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitWidths } from "./table.ts";
 * assert.deepEqual(fitWidths([20, 30, 60], 80), [20, 30, 26]);
 * assert.deepEqual(fitWidths([20, 30, 60], 200), [20, 30, 60]);
 * ```
 */
export function fitWidths(
  natural: readonly number[],
  width: number,
  columns: readonly ColumnFit[] = [],
): number[] {
  const count = natural.length;
  const room = Math.max(0, width - 2 * Math.max(0, count - 1));
  const sum = (list: readonly number[]) => list.reduce((a, b) => a + b, 0);
  if (sum(natural) <= room) return [...natural];
  const fit = (i: number): ColumnFit => columns[i] ?? {};
  const widths = natural.map((w, i) => Math.min(w, fit(i).min ?? DEFAULT_MIN));
  let left = room - sum(widths);
  for (let i = count - 1; i >= 0 && left < 0; i--) {
    const give = Math.min(widths[i] - 1, -left);
    if (give > 0) [widths[i], left] = [widths[i] - give, left + give];
  }
  for (const capped of [true, false]) {
    for (let i = 0; i < count && left > 0; i++) {
      const cap = capped ? Math.floor((fit(i).share ?? 1 / count) * room) : natural[i];
      const grow = Math.min(left, Math.min(natural[i], cap) - widths[i]);
      if (grow > 0) [widths[i], left] = [widths[i] + grow, left - grow];
    }
  }
  return widths;
}

/**
 * The units a cut keeps whole: a written `\uXXXX` or `\u{X…}` escape (the parser writes hidden
 * characters of a description that way), else one character with its combining marks.
 */
const UNITS = /\\u\{[0-9a-f]{1,6}\}|\\u[0-9a-f]{4}|\P{M}\p{M}*|\p{M}/giu;

/** The units of `text` that fit `budget` cells, taken from its start (or its end). */
function take(units: readonly string[], budget: number, fromEnd: boolean): string {
  const kept: string[] = [];
  let used = 0;
  for (let i = 0; i < units.length; i++) {
    const unit = units[fromEnd ? units.length - 1 - i : i];
    const cost = shownWidth(unit);
    if (used + cost > budget) break;
    used += cost;
    kept.push(unit);
  }
  return (fromEnd ? kept.reverse() : kept).join("");
}

/**
 * `text` cut to at most `width` terminal cells once escaped, with "…" where text was left out:
 * at the end (default) or in the middle, keeping its start and its end. A cut falls between
 * characters (a combining mark stays with its base) and never inside an escape: neither one
 * {@linkcode escapeTerminal} will write for an unsafe character nor a `\uXXXX` already written in
 * the text. The result is raw text, escaped later like any cell.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitText } from "./table.ts";
 * assert.equal(fitText("Extract text and tables from PDF files", 16), "Extract text an…");
 * assert.equal(fitText("~/.claude/skills/pdf-forms/SKILL.md", 20, "middle"), "~/.claude/…/SKILL.md");
 * fitText("a\u001bb", 5); // "a…" (the escape "\u001b" does not fit whole)
 * ```
 */
export function fitText(text: string, width: number, cut: Cut = "end"): string {
  if (shownWidth(text) <= width) return text;
  if (width < 1) return "";
  const units = text.match(UNITS) ?? [];
  if (cut === "end") return `${take(units, width - 1, false)}…`;
  const tail = Math.floor((width - 1) / 2);
  const tailText = take(units, tail, true);
  return `${take(units, width - 1 - shownWidth(tailText), false)}…${tailText}`;
}

/**
 * `cell` cut to at most `width` cells. A cell of segments keeps its key segment (the one marked
 * `"key"`, else the first) whole for as long as it can: the segments after it are cut at their
 * end first, then the ones before it (down to a "…"), and only then the key itself (by `cut`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fitCell } from "./table.ts";
 * assert.deepEqual(fitCell([["claude-code-pdf"], [" (renamed from pdf)"]], 22), [["claude-code-pdf"], [" (rena…"]]);
 * fitCell([["claude plugin "], ["skill-creator", undefined, "key"], ["@official"]], 19);
 * // [["clau…"], ["skill-creator", undefined, "key"], ["…"]]
 * ```
 */
export function fitCell(cell: Cell, width: number, cut: Cut = "end"): Cell {
  if (typeof cell === "string") return fitText(cell, width, cut);
  if (render(cell).width <= width) return cell;
  const marked = cell.findIndex((segment) => segment[2] === "key");
  const key = marked < 0 ? 0 : marked;
  const before = cell.slice(0, key);
  const after = cell.slice(key + 1);
  const joined = (segments: readonly Segment[]) => segments.map(([text]) => text).join("");
  const keyWidth = shownWidth(cell[key][0]);
  const beforeWidth = shownWidth(joined(before));
  // The segments after the key, cut at their end.
  if (after.length > 0 && beforeWidth + keyWidth + 1 <= width) {
    let room = width - beforeWidth - keyWidth;
    const kept: Segment[] = [];
    for (const [j, [text, style]] of after.entries()) {
      // A segment that would leave no room for the "…" of the ones after it is cut too.
      const whole = shownWidth(text) <= room - (j < after.length - 1 ? 1 : 0);
      const part = whole ? text : `${take(text.match(UNITS) ?? [], room - 1, false)}…`;
      kept.push(style === undefined ? [part] : [part, style]);
      room -= shownWidth(part);
      if (!whole) break;
    }
    return [...before, cell[key], ...kept];
  }
  const ellipsis: Segment[] = after.length > 0 ? [["…"]] : [];
  const room = width - keyWidth - ellipsis.length;
  if (before.length > 0 && room >= 2) {
    const [part, style] = [fitText(joined(before), room), before[0][1]];
    return [style === undefined ? [part] : [part, style], cell[key], ...ellipsis];
  }
  if (ellipsis.length + before.length > 0 && keyWidth + 1 <= width) {
    return before.length > 0 ? [["…"], cell[key]] : [cell[key], ["…"]];
  }
  const [text, style] = cell[key];
  const part = fitText(text, width, cut);
  return [style === undefined ? [part] : [part, style]];
}

/**
 * Formats rows (the first row is usually the header) as aligned text without a final newline;
 * with `options.width`, fitted to that many cells (see the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatTable } from "./table.ts";
 * assert.equal(formatTable([["NAME", "FROM"], ["pdf", "claude (user)"]], { width: 12 }), "NAME  FROM\npdf   claud…");
 * ```
 */
export function formatTable(
  rows: readonly (readonly Cell[])[],
  options: TableOptions = {},
): string {
  let cells = rows;
  if (options.width !== undefined) {
    const natural = columnWidths(rows);
    const widths = fitWidths(natural, options.width, options.columns);
    cells = rows.map((row) =>
      row.map((cell, i) =>
        widths[i] < natural[i] ? fitCell(cell, widths[i], options.columns?.[i]?.cut) : cell
      )
    );
  }
  const rendered = cells.map((row) => row.map(render));
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
 * `~`-shortens a path under `home` (`~` for home itself).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(tildePath("/home/me/.claude/skills", "/home/me"), "~/.claude/skills");
 * ```
 */
export function tildePath(path: string, home: string): string {
  if (path === home) return "~";
  return isWithin(path, home) ? `~${sep}${relative(home, path)}` : path;
}
