/**
 * Plain-text tables and path display for human output. Every cell is escaped
 * for the terminal; columns are padded to the widest cell with two spaces
 * between them and trailing spaces trimmed.
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

/** Formats rows (the first row is usually the header) as aligned text without a final newline. */
export function formatTable(rows: readonly (readonly string[])[]): string {
  const escaped = rows.map((row) => row.map(escapeTerminal));
  const widths: number[] = [];
  for (const row of escaped) {
    row.forEach((cell, i) => widths[i] = Math.max(widths[i] ?? 0, cell.length));
  }
  return escaped.map((row) =>
    row.map((cell, i) => i === row.length - 1 ? cell : cell.padEnd(widths[i])).join("  ").trimEnd()
  ).join("\n");
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
