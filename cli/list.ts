/**
 * The `list` command (the default): every published skill, where it came
 * from, where it lives and what it does.
 *
 * The human table has the columns NAME, FROM, PATH and DESCRIPTION, one line
 * per skill. Piped, every cell is whole (the description's whitespace runs
 * folded to one space). On a terminal no line is wider than the terminal: the
 * description is cut to the width left; when less than
 * {@linkcode MIN_DESCRIPTION} columns would be left beside the whole path, the
 * path moves to its own indented line under the row (cut in the middle when
 * even that line is too long), and NAME, FROM and DESCRIPTION share the width
 * (see {@linkcode NAME_FIT}): a long name is cut in the middle, its marks
 * first; a plugin origin keeps the plugin's name and loses its marketplace
 * first. Marks follow the name: `(renamed from x)`, `(repaired)`,
 * `(user-only)`. One count line ends the listing.
 *
 * @example
 * ```ts
 * import { runList } from "./list.ts";
 * import { processIo } from "./io.ts";
 * // Type-checked, not run by the doc test: it runs the command on the project at /repo and the user's home, printing to this process's stdout.
 * async function example() {
 *   const code = await runList([], { json: true }, "/repo", processIo()); // always 0
 * }
 * ```
 * @module
 */
import type { DiscoveredSkill, DiscoveryReport } from "../lib/catalog/mod.ts";
import { type Origin, originLabel } from "../lib/catalog/mod.ts";
import type { OptionValues } from "./args.ts";
import { cliCatalog, failedSourceLine, type HiddenRow, hiddenSections } from "./catalog.ts";
import { escapeTerminal, jsonText } from "./escape.ts";
import { type Io, tableWidth } from "./io.ts";
import { outStyles, type Styles } from "./style.ts";
import { type Cell, type ColumnFit, columnWidths, fitText, formatTable } from "./table.ts";
import { counted } from "../lib/text.ts";
import { EXIT } from "./program.ts";

/** The fewest columns a description gets beside the path before the path moves below. */
const MIN_DESCRIPTION = 30;
/**
 * How NAME, FROM and DESCRIPTION share a terminal too narrow for them whole: NAME first (up to a
 * third of the width), then FROM (a quarter), and the description gets what is left (at least
 * 20 columns while the others can give).
 */
export const NAME_FIT: ColumnFit = { min: 16, share: 0.34, cut: "middle" };
/** FROM's share (see {@linkcode NAME_FIT}). */
const FROM_FIT: ColumnFit = { min: 14, share: 0.25, cut: "middle" };
/** A column kept whole (NAME, FROM and PATH when the description has room beside them). */
const WHOLE: ColumnFit = { min: Infinity };
/** DESCRIPTION's share (see {@linkcode NAME_FIT}). */
const DESCRIPTION_FIT: ColumnFit = { min: 20, share: 1, cut: "end" };

/** Runs `list`; always exit 0. */
export async function runList(
  _positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  const { report, show, failedSources } = await cliCatalog(cwd, io);
  for (const failed of failedSources) io.err(failedSourceLine(failed));
  const all = values.all === true;
  if (values.json) io.out(jsonText(listDoc(report, all)));
  else io.out(listText(report, { all, show, io }).join("\n") + "\n");
  return EXIT.ok;
}

/** The `list --json` document; dropped skills only with `--all`. */
function listDoc(report: DiscoveryReport, all: boolean): Record<string, unknown> {
  const doc: Record<string, unknown> = {
    skills: report.skills.map((s) => ({
      name: s.name,
      description: s.description,
      source: s.source,
      rank: s.rank,
      path: s.path,
      origin: s.origin,
      model_invocable: s.invocation.modelInvocable,
      renamed_from: s.renamedFrom ?? null,
      renamed_because: s.renamedBecause ?? null,
      repaired: s.repairs.length > 0,
      warnings: s.warnings,
    })),
  };
  if (all) doc.dropped = hiddenRows(report);
  doc.invalid = report.invalid.map((i) => ({ path: i.path, kind: i.kind, reason: i.reason }));
  doc.complete = report.complete;
  return doc;
}

/** The skills left out (duplicates and exclusions), each with the file kept instead. */
function hiddenRows(report: DiscoveryReport): HiddenRow[] {
  return report.dropped.map((d) => ({
    name: d.skill.name,
    path: d.skill.path,
    reason: d.reason,
    winner: d.winner.path,
  }));
}

/** How the human listing is shown. */
interface ListView {
  all: boolean;
  show: (path: string) => string;
  io: Io;
}

/** The human listing: the skills table, the hidden ones with `--all`, then the counts. */
function listText(report: DiscoveryReport, view: ListView): string[] {
  const lines: string[] = [];
  const st = outStyles(view.io);
  if (report.skills.length === 0) {
    lines.push(
      "No skills found in your agents' skill folders, Claude Code plugins or Git sources.\n" +
        "Add a Git source of skills: dsh-skills-anywhere add anthropics/skills\n" +
        "or write your own: ~/.claude/skills/<name>/SKILL.md (any agent's skills folder works)",
    );
  } else {
    lines.push(skillTable(report.skills, view.show, st, tableWidth(view.io)));
  }
  if (view.all) {
    lines.push(...hiddenSections(hiddenRows(report), view.show, st, tableWidth(view.io)));
  }
  const footer = listFooter(report, view.all);
  const width = tableWidth(view.io);
  lines.push("", ...(width === undefined ? [footer] : wrapWords(footer, width)));
  return lines;
}

/** `text` broken at spaces into lines of at most `width` columns (a longer word stays whole). */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

/** A description on one line: runs of spaces, tabs and line breaks folded to one space. */
function oneLine(text: string): string {
  return text.replace(/[\t\n\r ]+/g, " ").trim();
}

/**
 * The skills table, fitted to `width` columns when given (a terminal), else with whole
 * descriptions.
 */
function skillTable(
  skills: readonly DiscoveredSkill[],
  show: (path: string) => string,
  st: Styles,
  width: number | undefined,
): string {
  const header = (...titles: string[]): Cell[] => titles.map((t) => [[t, st.bold]]);
  const heads: Cell[][] = skills.map((s) => [nameCell(s, st), originCell(s.origin)]);
  const paths = skills.map((s) => show(s.path));
  const descriptions = skills.map((s) => oneLine(s.description));
  const wide = [header("NAME", "FROM", "PATH"), ...heads.map((h, i) => [...h, paths[i]])];
  const used = columnWidths(wide).reduce((sum, w) => sum + w + 2, 0);
  if (width === undefined || width - used >= MIN_DESCRIPTION) {
    return formatTable([
      [...wide[0], ...header("DESCRIPTION")],
      ...heads.map((h, i) => [...h, [[paths[i], st.dim]] as Cell, descriptions[i]]),
    ], width === undefined ? {} : { width, columns: [WHOLE, WHOLE, WHOLE, DESCRIPTION_FIT] });
  }
  const rows = formatTable([
    [...header("NAME", "FROM"), ...header("DESCRIPTION")],
    ...heads.map((h, i) => [...h, descriptions[i]]),
  ], { width, columns: [NAME_FIT, FROM_FIT, DESCRIPTION_FIT] }).split("\n");
  const pathLines = paths.map((p) =>
    `  ${st.dim(escapeTerminal(fitText(p, width - 2, "middle")))}`
  );
  return [rows[0], ...rows.slice(1).flatMap((row, i) => [row, pathLines[i]])].join("\n");
}

/**
 * A skill's origin as a cell: a plugin's name is the part that tells plugins apart, kept while
 * "claude plugin " and the marketplace are cut.
 */
function originCell(origin: Origin): Cell {
  if (origin.kind !== "claude-plugins") return originLabel(origin);
  return [["claude plugin "], [origin.plugin, undefined, "key"], [`@${origin.marketplace}`]];
}

/**
 * A skill's name with its marks: renamed (from the name its file declares; `: locked` when the
 * project's lock keeps that name for another skill), repaired, user-only.
 */
function nameCell(skill: DiscoveredSkill, st: Styles): Cell {
  const cell: [string, ((text: string) => string)?][] = [[skill.name]];
  if (skill.renamedFrom !== undefined) {
    const why = skill.renamedBecause === "locked" ? ": locked" : "";
    cell.push([` (renamed from ${skill.renamedFrom}${why})`, st.warn]);
  }
  if (skill.repairs.length > 0) cell.push([" (repaired)", st.warn]);
  if (!skill.invocation.modelInvocable) cell.push([" (user-only)", st.warn]);
  return cell;
}

/**
 * The closing count line: the skills (with how many carry each mark), the hidden duplicates and
 * exclusions (pointing at `list --all` unless shown), the files skipped; it points at `doctor`
 * when something was marked or skipped.
 */
function listFooter(report: DiscoveryReport, all: boolean): string {
  const count = (pick: (s: DiscoveredSkill) => boolean) => report.skills.filter(pick).length;
  const renamed = count((s) => s.renamedFrom !== undefined);
  const repaired = count((s) => s.repairs.length > 0);
  const userOnly = count((s) => !s.invocation.modelInvocable);
  const marks = [
    ...(renamed > 0 ? [`${renamed} renamed`] : []),
    ...(repaired > 0 ? [`${repaired} repaired`] : []),
    ...(userOnly > 0 ? [`${userOnly} user-only`] : []),
  ];
  const skipped = report.invalid.length;
  const doctor = " — see `dsh-skills-anywhere doctor`";
  const parts = [
    counted(report.skills.length, "skill") +
    (marks.length > 0 ? ` (${marks.join(", ")})${skipped > 0 ? "" : doctor}` : ""),
  ];
  const duplicates = report.dropped.filter((d) => d.reason !== "excluded").length;
  const excluded = report.dropped.length - duplicates;
  const seeAll = all ? "" : " — see `dsh-skills-anywhere list --all`";
  if (duplicates > 0) {
    parts.push(counted(duplicates, "hidden duplicate") + (excluded > 0 ? "" : seeAll));
  }
  if (excluded > 0) parts.push(`${excluded} excluded${seeAll}`);
  if (skipped > 0) parts.push(`${counted(skipped, "file")} skipped${doctor}`);
  return parts.join("; ");
}
