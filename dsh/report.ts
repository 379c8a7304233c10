/**
 * The report the dsh web card shows (`ReportView`): every published skill of a
 * project with its catalog state, what precedence dropped, the files that
 * could not become skills, the roots scanned, and the budget in force. Pure:
 * built from the provider's latest discovery report and budget states.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportView } from "./report.ts";
 * const view = reportView(
 *   { skills: [], dropped: [], invalid: [], roots: [], complete: true },
 *   new Map(),
 *   { catalog: { limit: 50, pin: [], hide: [] }, excludeSkills: [] },
 * );
 * assert.equal(view.listed, 0);
 * ```
 * @module
 */
import type { CatalogState } from "../lib/catalog/mod.ts";
import type { DiscoveredSkill, DiscoveryReport } from "../lib/catalog/mod.ts";
import { type Origin, originLabel } from "../lib/catalog/mod.ts";
import type { WebSettings } from "./settings.ts";

/** One published skill as the card shows it. */
export interface SkillView {
  name: string;
  description: string;
  /** The origin's one-line label (`claude-code (user)`, `git owner/repo`). */
  origin: string;
  /** The heading it is grouped under (see {@linkcode originGroup}). */
  group: string;
  path: string;
  /** `visible` (listed to the model), `hidden` (not listed) or `disabled` (by its author). */
  state: CatalogState;
  /** The author turned model invocation off (`disable-model-invocation: true`). */
  authorDisabled: boolean;
  /** The name its file declares, when a collision published it under another. */
  renamedFrom?: string;
  pinned: boolean;
  hidden: boolean;
  warnings: string[];
}

/** What the card shows: `POST /api/skills-anywhere/report` answers it. */
export interface ReportView {
  skills: SkillView[];
  /** Skills precedence left out: the name, its file, why, and the name kept in its place. */
  dropped: { name: string; path: string; reason: string; winner: string }[];
  invalid: { path: string; reason: string }[];
  roots: { label: string; path: string; exists: boolean; count: number }[];
  /** False when some root could not be read completely. */
  complete: boolean;
  catalog: WebSettings["catalog"];
  excludeSkills: string[];
  /** How many skills the model is listed. */
  listed: number;
}

/**
 * The heading of an origin: project or user skill folders, Claude Code
 * plugins, Git sources.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { originGroup } from "./report.ts";
 * assert.equal(originGroup({ kind: "custom", scope: "user" }), "User skill directories");
 * ```
 */
export function originGroup(origin: Origin): string {
  switch (origin.kind) {
    case "agent":
    case "custom":
      return origin.scope === "project" ? "Project skill directories" : "User skill directories";
    case "claude-plugins":
      return "Claude Code plugins";
    case "source":
      return "Git sources";
  }
}

function skillView(
  skill: DiscoveredSkill,
  state: CatalogState,
  settings: WebSettings,
): SkillView {
  return {
    name: skill.name,
    description: skill.description,
    origin: originLabel(skill.origin),
    group: originGroup(skill.origin),
    path: skill.path,
    state,
    authorDisabled: !skill.invocation.modelInvocable,
    ...(skill.renamedFrom === undefined ? {} : { renamedFrom: skill.renamedFrom }),
    pinned: settings.catalog.pin.includes(skill.name),
    hidden: settings.catalog.hide.includes(skill.name),
    warnings: [...skill.warnings],
  };
}

/**
 * The card's view of `report` under `states` (the budget's, by published name; a name without
 * one counts as `hidden`) and the settings in force.
 */
export function reportView(
  report: DiscoveryReport,
  states: ReadonlyMap<string, CatalogState>,
  settings: WebSettings,
): ReportView {
  const skills = report.skills.map((skill) =>
    skillView(skill, states.get(skill.name) ?? "hidden", settings)
  );
  return {
    skills,
    dropped: report.dropped.map((drop) => ({
      name: drop.skill.name,
      path: drop.skill.path,
      reason: drop.reason,
      winner: drop.winner.name,
    })),
    invalid: report.invalid.map((file) => ({ path: file.path, reason: file.reason })),
    roots: report.roots.map((root) => ({
      label: root.root.label,
      path: root.root.path,
      exists: root.exists,
      count: root.count,
    })),
    complete: report.complete,
    catalog: {
      limit: settings.catalog.limit,
      pin: [...settings.catalog.pin],
      hide: [...settings.catalog.hide],
    },
    excludeSkills: [...settings.excludeSkills],
    listed: skills.filter((skill) => skill.state === "visible").length,
  };
}
