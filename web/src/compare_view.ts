/// <reference lib="dom" />
/**
 * The render half of section 1, "Compare manifests": each side's status, the
 * verdict with its changed/added/removed paths, and the `open_skill`
 * arguments for the reviewed digest. Pure functions of the state the
 * controller (`compare.ts`) keeps; every input-derived string passes through
 * {@linkcode reveal} and is set as text.
 *
 * @example
 * ```ts
 * import { renderCompare } from "./compare_view.ts";
 * // Type-checked, not run by the doc test: it needs a browser page's document.
 * function example() {
 *   renderCompare({ kind: "empty" }, { kind: "empty" }, "review-helper");
 * }
 * ```
 * @module
 */
import {
  type BundleComparison,
  type BundleManifest,
  compareManifests,
} from "../../lib/bundle/portable.ts";
import { isSkillName } from "../../lib/skill/mod.ts";
import { byId, el, plural, reveal } from "./dom.ts";

/** What one side shows. */
export type SideState =
  | { kind: "empty" }
  | { kind: "loading"; label: string }
  | { kind: "ready"; label: string; manifest: BundleManifest }
  | { kind: "error"; label: string; message: string };

/** The two sides, keyed as the page's element ids are. */
export type SideKey = "reviewed" | "current";

function sideStatus(key: SideKey, state: SideState): Array<Node | string> {
  switch (state.kind) {
    case "empty":
      return [`No ${key} manifest chosen.`];
    case "loading":
      return [`Reading and hashing ${reveal(state.label)}…`];
    case "ready": {
      const { manifest } = state;
      return [
        el("strong", { text: reveal(state.label) }),
        `: ${plural(manifest.files.length, "file")}, ${plural(manifest.total_bytes, "byte")}, ` +
        "digest recomputed and verified.",
        el("br"),
        "SHA-256 ",
        el("code", { className: "digest", text: manifest.sha256 }),
      ];
    }
    case "error":
      // The page ends its own sentence: a refusal message has no final period.
      return [el("strong", { text: `Refused ${reveal(state.label)}` }), `: ${state.message}.`];
  }
}

function renderSide(key: SideKey, state: SideState): void {
  byId(`${key}-side`).dataset.state = state.kind;
  byId(`${key}-status`).replaceChildren(...sideStatus(key, state));
}

function pendingNote(reviewed: SideState, current: SideState): string {
  for (const [title, state] of [["reviewed", reviewed], ["current", current]] as const) {
    if (state.kind === "error") {
      return `No verdict: the ${title} manifest was refused. ${state.message}.`;
    }
  }
  if (reviewed.kind === "loading" || current.kind === "loading") {
    return "Hashing… the verdict appears when both manifests are verified.";
  }
  return "Choose both manifests to see a verdict.";
}

function verdictNote(comparison: BundleComparison): string {
  if (comparison.matches) {
    return "The current directory has exactly the file paths and bytes you reviewed.";
  }
  return comparison.changed.includes("SKILL.md")
    ? "SKILL.md and the files below differ from what you reviewed: read them first."
    : "SKILL.md is the same, but files beside it differ: read them first.";
}

function pathItems(comparison: BundleComparison): HTMLElement[] {
  const rows = [
    ...comparison.changed.map((path) => ["CHANGED", path]),
    ...comparison.added.map((path) => ["ADDED", path]),
    ...comparison.removed.map((path) => ["REMOVED", path]),
  ];
  return rows.map(([kind, path]) =>
    el(
      "li",
      {},
      el("span", { className: `kind kind-${kind.toLowerCase()}`, text: kind }),
      " ",
      el("code", { text: reveal(path) }),
    )
  );
}

function renderVerdict(reviewed: BundleManifest, current: BundleManifest): void {
  const comparison = compareManifests(reviewed, current);
  const verdict = byId("verdict");
  verdict.hidden = false;
  verdict.textContent = comparison.matches ? "MATCH" : "REVIEW REQUIRED";
  verdict.className = comparison.matches ? "verdict match" : "verdict review";
  byId("verdict-note").textContent = verdictNote(comparison);
  byId("skill-md-change").textContent = comparison.changed.includes("SKILL.md")
    ? "SKILL.md changed"
    : "SKILL.md unchanged";
  byId("counts").textContent = `${comparison.changed.length} changed, ` +
    `${comparison.added.length} added, ${comparison.removed.length} removed ` +
    `(reviewed ${plural(reviewed.files.length, "file")}, ` +
    `current ${plural(current.files.length, "file")})`;
  const items = pathItems(comparison);
  const paths = byId("paths");
  paths.hidden = items.length === 0;
  paths.replaceChildren(...items);
  byId("details").hidden = false;
}

function hideVerdict(note: string): void {
  const verdict = byId("verdict");
  verdict.textContent = "";
  verdict.hidden = true;
  verdict.className = "verdict";
  byId("details").hidden = true;
  byId("verdict-note").textContent = note;
}

/**
 * Shows the `open_skill` arguments that pin the reviewed digest, with a hint
 * when `name` is not a valid skill name.
 *
 * @example
 * ```ts
 * import { renderArguments } from "./compare_view.ts";
 * function example(reviewed: import("../../lib/bundle/portable.ts").BundleManifest) {
 *   renderArguments(reviewed, "review-helper");
 * }
 * ```
 */
export function renderArguments(reviewed: BundleManifest, name: string): void {
  byId("skill-name-hint").textContent = isSkillName(name)
    ? ""
    : "Type the skill's published name: lowercase letters, digits and single hyphens.";
  byId("open-skill-args").textContent = JSON.stringify(
    { name, expected_bundle_sha256: reviewed.sha256 },
    null,
    2,
  );
}

/**
 * Shows both sides and, when both are verified, the verdict and the
 * `open_skill` arguments for skill `name`.
 *
 * @example
 * ```ts
 * import { renderCompare } from "./compare_view.ts";
 * // Type-checked, not run by the doc test: it needs a browser page's document.
 * function example() {
 *   renderCompare({ kind: "loading", label: "a.json" }, { kind: "empty" }, "");
 * }
 * ```
 */
export function renderCompare(reviewed: SideState, current: SideState, name: string): void {
  renderSide("reviewed", reviewed);
  renderSide("current", current);
  if (reviewed.kind !== "ready" || current.kind !== "ready") {
    hideVerdict(pendingNote(reviewed, current));
    return;
  }
  renderVerdict(reviewed.manifest, current.manifest);
  renderArguments(reviewed.manifest, name);
}
