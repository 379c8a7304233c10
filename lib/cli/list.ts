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
import { relative } from "node:path";
import { isWithin } from "../fs/mod.ts";
import { originLabel } from "../catalog/origin.ts";
import type { ResolvedSource } from "../sources/resolve.ts";
import type { OptionValues } from "./args.ts";
import { cliCatalog, cliConfig } from "./catalog.ts";
import { jsonText } from "./escape.ts";
import type { Io } from "./io.ts";
import { formatTable, tildePath } from "./table.ts";

/** A path for display: relative to its Git checkout when inside one, else `~`-shortened. */
export function displayPath(
  path: string,
  home: string,
  sources: readonly ResolvedSource[],
): string {
  let best: string | undefined;
  for (const source of sources) {
    if (!isWithin(path, source.dir)) continue;
    const rel = relative(source.dir, path);
    if (best === undefined || rel.length < best.length) best = rel;
  }
  return best ?? tildePath(path, home);
}

/** Runs `list`; always exit 0. */
export async function runList(
  _positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  const config = cliConfig();
  const { report, sources } = await cliCatalog(cwd, io, config);
  const duplicates = report.dropped.filter((d) => d.reason !== "excluded");
  if (values.json) {
    const doc: Record<string, unknown> = {
      skills: report.skills.map((s) => ({
        name: s.name,
        description: s.description,
        source: s.source,
        rank: s.rank,
        path: s.path,
        origin: s.origin,
        warnings: s.warnings,
      })),
    };
    if (values.all) {
      doc.dropped = report.dropped.map((d) => ({
        name: d.skill.name,
        path: d.skill.path,
        reason: d.reason,
        winner: d.winner.path,
      }));
    }
    doc.invalid = report.invalid.map((i) => ({ path: i.path, reason: i.reason }));
    doc.complete = report.complete;
    io.out(jsonText(doc));
    return 0;
  }
  const show = (path: string) => displayPath(path, config.home, sources);
  const lines: string[] = [];
  if (report.skills.length === 0) {
    lines.push(
      "No skills found outside the dsh defaults. Try: dsh-skills-anywhere add anthropics/skills",
    );
  } else {
    lines.push(formatTable([
      ["NAME", "FROM", "PATH"],
      ...report.skills.map((s) => [s.name, originLabel(s.origin), show(s.path)]),
    ]));
  }
  if (values.all && report.dropped.length > 0) {
    lines.push("", `Dropped duplicates (${report.dropped.length}):`);
    lines.push(formatTable(report.dropped.map((d) => [
      d.skill.name,
      d.reason,
      show(d.skill.path),
      `-> ${show(d.winner.path)}`,
    ])));
  }
  const renamed = report.skills.filter((s) => s.renamedFrom !== undefined).length;
  const repaired = report.skills.filter((s) => s.repairs.length > 0).length;
  const skipped = report.invalid.length;
  const excluded = report.dropped.length - duplicates.length;
  let footer = `${report.skills.length} skills`;
  if (duplicates.length > 0) footer += `, ${duplicates.length} duplicates hidden`;
  if (excluded > 0) footer += `, ${excluded} excluded`;
  if (skipped > 0) footer += `, ${skipped} skipped`;
  if (renamed > 0) footer += `, ${renamed} renamed`;
  if (repaired > 0) footer += `, ${repaired} repaired`;
  if (skipped + renamed + repaired > 0) footer += " — run `dsh-skills-anywhere doctor` for details";
  lines.push("", footer);
  io.out(lines.join("\n") + "\n");
  return 0;
}
