/**
 * The `list` command (the default): every published skill, where it came
 * from, where it lives and what it does.
 *
 * The human table has the columns NAME, FROM, PATH and DESCRIPTION, one line
 * per skill. Piped, the description is whole (its whitespace runs folded to
 * one space). On a terminal the description is cut to the width left; when
 * less than {@linkcode MIN_DESCRIPTION} columns would be left beside the
 * path, the path moves to its own indented line under the row. Marks follow
 * the name: `(renamed from x)`, `(repaired)`, `(user-only)`. One count line
 * ends the listing.
 *
 * @example
 * ```ts
 * import { runList } from "./list.ts";
 * import { processIo } from "./io.ts";
 * const code = await runList([], { json: true }, "/repo", processIo()); // always 0
 * ```
 * @module
 */
import type { DiscoveredSkill, DiscoveryReport } from "../catalog/discover.ts";
import { originLabel } from "../catalog/origin.ts";
import type { OptionValues } from "./args.ts";
import { cliCatalog, type HiddenRow, hiddenSections } from "./catalog.ts";
import { escapeTerminal, jsonText } from "./escape.ts";
import type { Io } from "./io.ts";
import { outStyles, type Styles } from "./style.ts";
import { type Cell, columnWidths, fitText, formatTable } from "./table.ts";
import { counted } from "./words.ts";

/** The fewest columns a description gets beside the path before the path moves below. */
const MIN_DESCRIPTION = 30;
/** The fewest columns a description gets at all (a narrower terminal wraps the line). */
const MIN_FITTED = 12;

/** Runs `list`; always exit 0. */
export async function runList(
  _positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  const { report, show } = await cliCatalog(cwd, io);
  const all = values.all === true;
  if (values.json) io.out(jsonText(listDoc(report, all)));
  else io.out(listText(report, { all, show, io }).join("\n") + "\n");
  return 0;
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
      "No skills found outside the dsh defaults. Try: dsh-skills-anywhere add anthropics/skills",
    );
  } else {
    const width = view.io.outIsTty ? view.io.columns : undefined;
    lines.push(skillTable(report.skills, view.show, st, width));
  }
  if (view.all) lines.push(...hiddenSections(hiddenRows(report), view.show, st));
  lines.push("", listFooter(report, view.all));
  return lines;
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
  const heads: Cell[][] = skills.map((s) => [nameCell(s, st), originLabel(s.origin)]);
  const paths = skills.map((s) => show(s.path));
  const descriptions = skills.map((s) => oneLine(s.description));
  const wide = [header("NAME", "FROM", "PATH"), ...heads.map((h, i) => [...h, paths[i]])];
  if (width === undefined) {
    return formatTable([
      [...wide[0], ...header("DESCRIPTION")],
      ...heads.map((h, i) => [...h, [[paths[i], st.dim]] as Cell, descriptions[i]]),
    ]);
  }
  const used = columnWidths(wide).reduce((sum, w) => sum + w + 2, 0);
  if (width - used >= MIN_DESCRIPTION) {
    return formatTable([
      [...wide[0], ...header("DESCRIPTION")],
      ...heads.map((h, i) => [
        ...h,
        [[paths[i], st.dim]] as Cell,
        fitText(descriptions[i], width - used),
      ]),
    ]);
  }
  const narrow = [header("NAME", "FROM"), ...heads];
  const left = Math.max(
    width - columnWidths(narrow).reduce((sum, w) => sum + w + 2, 0),
    MIN_FITTED,
  );
  const rows = formatTable([
    [...narrow[0], ...header("DESCRIPTION")],
    ...heads.map((h, i) => [...h, fitText(descriptions[i], left)]),
  ]).split("\n");
  const pathLines = paths.map((p) => `  ${st.dim(escapeTerminal(p))}`);
  return [rows[0], ...rows.slice(1).flatMap((row, i) => [row, pathLines[i]])].join("\n");
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
