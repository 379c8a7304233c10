/**
 * The `list` command (the default): every published skill, where it came from
 * and where it lives.
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
import { cliCatalog } from "./catalog.ts";
import { jsonText } from "./escape.ts";
import type { Io } from "./io.ts";
import { formatTable } from "./table.ts";

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
  else io.out(listText(report, all, show).join("\n") + "\n");
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
      warnings: s.warnings,
    })),
  };
  if (all) {
    doc.dropped = report.dropped.map((d) => ({
      name: d.skill.name,
      path: d.skill.path,
      reason: d.reason,
      winner: d.winner.path,
    }));
  }
  doc.invalid = report.invalid.map((i) => ({ path: i.path, kind: i.kind, reason: i.reason }));
  doc.complete = report.complete;
  return doc;
}

/** The human listing: the skills table, the dropped ones with `--all`, then the counts. */
function listText(report: DiscoveryReport, all: boolean, show: (path: string) => string): string[] {
  const lines: string[] = [];
  if (report.skills.length === 0) {
    lines.push(
      "No skills found outside the dsh defaults. Try: dsh-skills-anywhere add anthropics/skills",
    );
  } else {
    lines.push(formatTable([
      ["NAME", "FROM", "PATH"],
      ...report.skills.map((s) => [nameCell(s), originLabel(s.origin), show(s.path)]),
    ]));
  }
  if (all && report.dropped.length > 0) {
    lines.push("", `Dropped duplicates (${report.dropped.length}):`);
    lines.push(formatTable(report.dropped.map((d) => [
      d.skill.name,
      d.reason,
      show(d.skill.path),
      `-> ${show(d.winner.path)}`,
    ])));
  }
  lines.push("", listFooter(report));
  return lines;
}

/** A skill's name with its marks: the name its file declares when renamed, and a model opt-out. */
function nameCell(skill: DiscoveredSkill): string {
  let cell = skill.name;
  if (skill.renamedFrom !== undefined) cell += ` (renamed from ${skill.renamedFrom})`;
  if (!skill.invocation.modelInvocable) cell += " (not offered to the model)";
  return cell;
}

/**
 * The closing count line; it ends with the files skipped (unreadable, invalid or notes) and points
 * at `doctor` when something was skipped, renamed, repaired or kept from the model by its author.
 */
function listFooter(report: DiscoveryReport): string {
  const duplicates = report.dropped.filter((d) => d.reason !== "excluded").length;
  const excluded = report.dropped.length - duplicates;
  const skipped = report.invalid.length;
  const renamed = report.skills.filter((s) => s.renamedFrom !== undefined).length;
  const repaired = report.skills.filter((s) => s.repairs.length > 0).length;
  const manual = report.skills.filter((s) => !s.invocation.modelInvocable).length;
  let footer = `${report.skills.length} skills`;
  if (duplicates > 0) footer += `, ${duplicates} duplicates hidden`;
  if (excluded > 0) footer += `, ${excluded} excluded`;
  if (renamed > 0) footer += `, ${renamed} renamed`;
  if (repaired > 0) footer += `, ${repaired} repaired`;
  if (manual > 0) footer += `, ${manual} not offered to the model`;
  if (skipped > 0) footer += `, ${skipped} ${skipped === 1 ? "file" : "files"} skipped`;
  if (skipped + renamed + repaired + manual > 0) footer += " — see `dsh-skills-anywhere doctor`";
  return footer;
}
