/**
 * Terminal colour for human output: a few SGR styles, applied only when the
 * stream may have colour ({@linkcode Io}'s `color`/`errColor`). Style text
 * that is already escaped ({@linkcode escapeTerminal}): a style adds its own
 * escape sequences around it and nothing else.
 *
 * @example
 * ```ts
 * import { styles } from "./style.ts";
 * const s = styles(true);
 * console.log(s.ok("PASSED"), s.dim("~/.claude/skills"));
 * ```
 * @module
 */
import type { Io } from "./io.ts";

/** One style: the text wrapped in its escape sequences, or unchanged without colour. */
export type Style = (text: string) => string;

/** The styles the CLI uses, by meaning. */
export interface Styles {
  /** A good verdict (`PASSED`, `MATCH`). */
  ok: Style;
  /** A failed verdict (`FAILED`, `REVIEW REQUIRED`). */
  bad: Style;
  /** A warning or mark (`repaired`, `not offered to the model`). */
  warn: Style;
  /** Headers and names. */
  bold: Style;
  /** Paths and secondary text. */
  dim: Style;
}

function sgr(open: number, close: number): Style {
  return (text) => text === "" ? text : `\u001b[${open}m${text}\u001b[${close}m`;
}

const plain: Style = (text) => text;

/**
 * The styles, coloured when `color` is true.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { styles } from "./style.ts";
 * assert.equal(styles(false).bad("FAILED"), "FAILED");
 * ```
 */
export function styles(color: boolean): Styles {
  if (!color) return { ok: plain, bad: plain, warn: plain, bold: plain, dim: plain };
  return {
    ok: sgr(32, 39),
    bad: sgr(31, 39),
    warn: sgr(33, 39),
    bold: sgr(1, 22),
    dim: sgr(2, 22),
  };
}

/** The styles for stdout of `io`. */
export function outStyles(io: Io): Styles {
  return styles(io.color);
}

/** The styles for stderr of `io`. */
export function errStyles(io: Io): Styles {
  return styles(io.errColor);
}
