/**
 * The `doctor` command: what was scanned, and every skill that was renamed,
 * repaired, kept from the model by its author, skipped, refused for safety or
 * hidden as a duplicate, too large to be offered over the MCP Skills
 * extension (512 files / 16 MiB per skill), or kept from it because its
 * `skill://` URIs belong to another skill (`lib/load/_uri_space.ts`, the same
 * computation the server makes) — with the reason; and every name two project
 * places declare anywhere in the project tree (as `verify` reports them).
 *
 * @example
 * ```ts
 * import { runDoctor } from "./doctor.ts";
 * import { processIo } from "./io.ts";
 * // Type-checked, not run by the doc test: it runs the command on the project at /repo and the user's home, printing to this process's stdout.
 * async function example() {
 *   const code = await runDoctor([], { json: true }, "/repo", processIo()); // always 0
 * }
 * ```
 * @module
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { DiscoveredSkill, DiscoveryReport } from "../lib/catalog/mod.ts";
import { loadCatalog } from "../lib/catalog/mod.ts";
import { resolveProject } from "../lib/catalog/mod.ts";
import { nearMisses, type NearMissKind } from "../lib/catalog/mod.ts";
import { type PlaceCollision, placeCollisions } from "../lib/catalog/mod.ts";
import type { RenameReason } from "../lib/catalog/mod.ts";
import { shareSkills, shareVerdict, SIZE_REFUSALS } from "../lib/load/mod.ts";
import { gitAvailable } from "../lib/sources/mod.ts";
import type { OptionValues } from "./args.ts";
import { cliCatalog, type FailedSource, hiddenSections } from "./catalog.ts";
import { escapeTerminal, jsonText } from "./escape.ts";
import { type Io, tableWidth } from "./io.ts";
import { outStyles, type Styles } from "./style.ts";
import { type ColumnFit, formatTable, type TableOptions } from "./table.ts";
import { EXIT } from "./program.ts";

/** What `doctor --json` prints. */
type DoctorDoc =
  & ReturnType<typeof doctorDoc>
  & Awaited<ReturnType<typeof sharing>>
  & {
    place_collisions: PlaceCollision[];
    failed_sources: FailedSource[];
    near_misses: { kind: NearMissKind; path: string; reason: string }[];
  };

/** Runs `doctor`; always exit 0. */
export async function runDoctor(
  _positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  const [{ config, report, show, failedSources }, git] = await Promise.all([
    cliCatalog(cwd, io),
    gitAvailable(),
  ]);
  const flat = report.roots.filter((r) => r.exists && r.root.mode === "flat");
  const doc: DoctorDoc = {
    ...doctorDoc(report, git),
    ...await sharing(report.skills, config.lenient),
    place_collisions: await wholeProjectCollisions(config, cwd),
    failed_sources: failedSources,
    near_misses: nearMisses(flat.map((r) => r.root.path)).map(({ kind, path, reason }) => ({
      kind,
      path,
      reason,
    })),
  };
  if (values.json) io.out(jsonText(doc));
  else {
    const view = { show, st: outStyles(io), width: tableWidth(io) };
    io.out(doctorText(doc, show(config.stateDir), view).join("\n") + "\n");
  }
  return EXIT.ok;
}

/**
 * The names two project places declare anywhere in the project tree; none outside a project
 * under Git (a plain folder is not walked for `doctor`).
 */
async function wholeProjectCollisions(
  config: Awaited<ReturnType<typeof cliCatalog>>["config"],
  cwd: string,
): Promise<PlaceCollision[]> {
  const project = await resolveProject(cwd, config.home);
  const { root } = project;
  if (!(await stat(join(root, ".git")).then(() => true, () => false))) return [];
  const whole = await loadCatalog(config, { project, cwd, wholeProject: true });
  return whole.uncovered === undefined ? [] : placeCollisions(whole.report.skills, root);
}

/** Verdicts `doctor` lists under their own headings (the size limits, the URI space). */
const SHOWN_APART = new Set([...SIZE_REFUSALS, "taken", "inside", "holds", "unnameable"]);

/** One entry of `doctor --json`'s `uri_refused_for_mcp`: a skill refused a `skill://` place. */
export interface UriRefusedRow {
  /** The skill's published name. */
  name: string;
  /** Its file. */
  path: string;
  /** Why (`taken`, `inside`, `holds`, `unnameable`). */
  kind: string;
  /** The URI it would have had, when it has one. */
  uri: string | null;
  /** The reason in words. */
  reason: string;
  /** The earlier skill that holds the place, when one does. */
  holder: { name: string; path: string } | null;
}

/**
 * Model skills the MCP Skills extension does not offer because of its per-skill limits, and
 * those refused a place in the `skill://` URI space (each with the earlier skill that holds it).
 */
async function sharing(skills: readonly DiscoveredSkill[], lenient: boolean) {
  const tooLarge: { name: string; path: string; reason: string }[] = [];
  const uriRefused: UriRefusedRow[] = [];
  const notServed: { name: string; path: string; kind: string; reason: string }[] = [];
  const offerable = skills.filter((s) => s.invocation.modelInvocable);
  for (const one of await shareSkills(offerable, { lenient })) {
    const { skill, shared, place } = one;
    if (!shared.ok && SIZE_REFUSALS.has(shared.kind)) {
      tooLarge.push({ name: skill.name, path: skill.directory, reason: shared.message });
    }
    // The one verdict (the MCP tools and the Skills extension alike); the two lists around it
    // keep the size limits and the URI space.
    const refused = shareVerdict(one);
    if (refused !== undefined && !SHOWN_APART.has(refused.kind) && refused.kind !== "disabled") {
      notServed.push({
        name: skill.name,
        path: skill.directory,
        kind: refused.kind,
        reason: refused.message,
      });
    }
    if (place === undefined || place.ok) continue;
    const holder = place.holder?.skill;
    uriRefused.push({
      name: skill.name,
      path: skill.directory,
      kind: place.kind,
      uri: place.uri ?? null,
      reason: place.message,
      holder: holder === undefined ? null : { name: holder.name, path: holder.directory },
    });
  }
  return {
    too_large_for_mcp: tooLarge,
    uri_refused_for_mcp: uriRefused,
    not_served_over_mcp: notServed,
  };
}

/** The facts `doctor` reports, as one document. */
function doctorDoc(report: DiscoveryReport, git: boolean) {
  const renamed = report.skills.flatMap((s) =>
    s.renamedFrom === undefined ? [] : [{
      name: s.name,
      from: s.renamedFrom,
      path: s.path,
      renamed_because: s.renamedBecause ?? "collision",
    }]
  );
  const repaired = report.skills
    .filter((s) => s.repairs.length > 0)
    .map((s) => ({ name: s.name, path: s.path, warnings: s.repairs }));
  const modelDisabled = report.skills
    .filter((s) => !s.invocation.modelInvocable)
    .map((s) => ({ name: s.name, path: s.path }));
  return {
    git,
    roots: report.roots.map((r) => ({
      label: r.root.label,
      path: r.root.path,
      exists: r.exists,
      count: r.count,
    })),
    renamed,
    repaired,
    model_disabled: modelDisabled,
    invalid: report.invalid.map((i) => ({
      path: i.path,
      kind: i.kind,
      reason: i.reason,
      ...(i.refusal === undefined ? {} : { refusal: i.refusal }),
    })),
    dropped: report.dropped.map((d) => ({
      name: d.skill.name,
      path: d.skill.path,
      reason: d.reason,
      winner: d.winner.path,
    })),
    complete: report.complete,
  };
}

/** How the human report is shown: paths by `show`, in the styles of stdout. */
interface DoctorView {
  show: (path: string) => string;
  st: Styles;
  /** The width tables are fitted to (a terminal), else none. */
  width: number | undefined;
}

/** A table fitted to `width` when given: names cut in the middle, paths too. */
function fitted(width: number | undefined, columns: ColumnFit[]): TableOptions {
  return width === undefined ? {} : { width, columns };
}

/** A path column: cut in the middle, so the folder and the file stay. */
const PATH: ColumnFit = { min: 16, cut: "middle" };
/** A name column. */
const NAME: ColumnFit = { min: 12, cut: "middle" };

/** The human report: one section per kind of fact. */
function doctorText(doc: DoctorDoc, stateDir: string, view: DoctorView): string[] {
  const { show, st } = view;
  const present = doc.roots.filter((r) => r.exists);
  const lines = [
    doc.git ? "git: available" : `git: ${st.warn("NOT FOUND")} (git sources disabled)`,
    `state: ${st.dim(escapeTerminal(stateDir))}`,
    "",
    st.bold(`Roots present (${present.length} of ${doc.roots.length}):`),
  ];
  if (present.length > 0) {
    lines.push(formatTable(
      present.map((r) => ["  " + r.label, String(r.count).padStart(3), [[show(r.path), st.dim]]]),
      fitted(view.width, [NAME, { min: 3 }, { ...PATH, share: 1 }]),
    ));
  }
  lines.push(...failedSection(doc, view), ...nearMissSection(doc, view));
  lines.push(...fixedSections(doc, view), ...collisionSection(doc, st));
  lines.push(...refusedSections(doc, view));
  lines.push(...hiddenSections(doc.dropped, show, st, view.width));
  if (!doc.complete) {
    lines.push(
      "",
      `${st.warn("WARNING:")} at least one root could not be read completely; see messages above.`,
    );
  }
  return lines;
}

/** The Git sources whose last sync failed: their skills are old or missing. */
function failedSection(doc: DoctorDoc, { st }: DoctorView): string[] {
  if (doc.failed_sources.length === 0) return [];
  return [
    "",
    st.bold(`Git sources that failed to sync (${doc.failed_sources.length}):`),
    ...doc.failed_sources.map((f) =>
      `  ${escapeTerminal(f.source)}  ${st.warn(escapeTerminal(`${f.at}: ${f.error}`))}`
    ),
    "  (their skills are old or missing; see dsh-skills-anywhere sources, retry with sync)",
  ];
}

/** What looks like a skill in a skills folder but is not read (hints, not errors). */
function nearMissSection(doc: DoctorDoc, { show, st }: DoctorView): string[] {
  if (doc.near_misses.length === 0) return [];
  return [
    "",
    st.bold(`Near misses, not read as skills (${doc.near_misses.length}):`),
    ...doc.near_misses.map((m) =>
      `  ${st.dim(escapeTerminal(show(m.path)))}: ${escapeTerminal(m.reason)}`
    ),
  ];
}

/** Why a skill was renamed, in the words `doctor` shows beside it. */
const RENAMED_WORDS: Readonly<Record<RenameReason, string>> = {
  locked: "renamed because the project's lock keeps the name % for another skill",
  collision: "another skill ranks first",
  "third-party": "plugins and Git sources never take a shared name",
  folder: "its repaired name is another skill's folder",
};

/** The skills published with a change: renamed, repaired, or kept from the model by their author. */
function fixedSections(doc: DoctorDoc, { show, st, width }: DoctorView): string[] {
  const lines: string[] = [];
  if (doc.renamed.length > 0) {
    lines.push("", st.bold(`Renamed to avoid collisions (${doc.renamed.length}):`));
    const rows = formatTable(
      doc.renamed.map((r) => ["  " + r.from, `-> ${r.name}`, [[show(r.path), st.dim]]]),
      fitted(width, [NAME, NAME, PATH]),
    ).split("\n");
    // A rename the lock caused says so on the line below it (the others: a plain collision).
    doc.renamed.forEach((r, i) => {
      lines.push(rows[i]);
      if (r.renamed_because === "locked") {
        lines.push(
          `    - ${st.warn(escapeTerminal(RENAMED_WORDS.locked.replace("%", `"${r.from}"`)))}`,
        );
      }
    });
  }
  if (doc.repaired.length > 0) {
    lines.push("", st.bold(`Repaired frontmatter (${doc.repaired.length}):`));
    for (const r of doc.repaired) {
      lines.push(`  ${escapeTerminal(r.name)}  ${st.dim(escapeTerminal(show(r.path)))}`);
      for (const w of r.warnings) lines.push(`    - ${st.warn(escapeTerminal(w))}`);
    }
  }
  if (doc.model_disabled.length > 0) {
    lines.push(
      "",
      st.bold(
        `User-only: not offered to the model (disable-model-invocation) (${doc.model_disabled.length}):`,
      ),
    );
    lines.push(
      formatTable(
        doc.model_disabled.map((d) => ["  " + d.name, [[show(d.path), st.dim]]]),
        fitted(width, [NAME, { ...PATH, share: 1 }]),
      ),
    );
  }
  return lines;
}

/** The names two project places declare: which one an agent gets depends on where it starts. */
function collisionSection(doc: DoctorDoc, st: Styles): string[] {
  if (doc.place_collisions.length === 0) return [];
  const lines = [
    "",
    st.bold(`Declared by several project places (${doc.place_collisions.length}):`),
  ];
  for (const c of doc.place_collisions) {
    lines.push(`  ${escapeTerminal(c.name)}`);
    for (const p of c.places) {
      lines.push(
        `    - ${escapeTerminal(p.file)} ${st.dim(`(as ${escapeTerminal(p.published)})`)}`,
      );
    }
  }
  lines.push("  Rename all but one: verify fails while a name is declared twice.");
  return lines;
}

/** The files not published: skipped as invalid, or refused for safety (with why). */
function refusedSections(doc: DoctorDoc, { show, st }: DoctorView): string[] {
  const lines: string[] = [];
  const entry = (i: DoctorDoc["invalid"][number]) => [
    `  ${st.dim(escapeTerminal(show(i.path)))}`,
    `    - ${st.warn(escapeTerminal(i.reason))}`,
  ];
  const skipped = doc.invalid.filter((i) => i.refusal === undefined);
  if (skipped.length > 0) {
    lines.push("", st.bold(`Skipped (${skipped.length}):`), ...skipped.flatMap(entry));
  }
  if (doc.too_large_for_mcp.length > 0) {
    lines.push(
      "",
      st.bold(
        `Not offered over the MCP Skills extension: over 512 files or 16 MiB (${doc.too_large_for_mcp.length}):`,
      ),
    );
    for (const t of doc.too_large_for_mcp) {
      lines.push(`  ${escapeTerminal(t.name)}  ${st.dim(escapeTerminal(show(t.path)))}`);
      lines.push(`    - ${st.warn(escapeTerminal(t.reason))}`);
    }
  }
  if (doc.uri_refused_for_mcp.length > 0) {
    lines.push(
      "",
      st.bold(
        `Not offered over the MCP Skills extension: no skill:// URIs of its own (${doc.uri_refused_for_mcp.length}):`,
      ),
    );
    for (const u of doc.uri_refused_for_mcp) {
      const held = u.holder === null ? "" : ` (${show(u.holder.path)})`;
      lines.push(`  ${escapeTerminal(u.name)}  ${st.dim(escapeTerminal(show(u.path)))}`);
      lines.push(`    - ${st.warn(escapeTerminal(u.reason + held))}`);
    }
  }
  if (doc.not_served_over_mcp.length > 0) {
    lines.push(
      "",
      st.bold(
        `Not served over MCP (the tools and the Skills extension) (${doc.not_served_over_mcp.length}):`,
      ),
    );
    for (const n of doc.not_served_over_mcp) {
      lines.push(`  ${escapeTerminal(n.name)}  ${st.dim(escapeTerminal(show(n.path)))}`);
      lines.push(`    - ${st.warn(escapeTerminal(n.reason))}`);
    }
  }
  const refused = doc.invalid.filter((i) => i.refusal !== undefined);
  if (refused.length > 0) {
    lines.push("", st.bold(`Refused for safety (${refused.length}):`), ...refused.flatMap(entry));
    lines.push(
      "  A project, a plugin folder or a Git source may not link outside itself, and no skill",
      "  file may come from /proc, /sys or /dev or change size as it is read: these files were",
      "  not read (or their content was discarded) and are not offered to any agent.",
    );
  }
  return lines;
}
