/**
 * What the catalog explorer shows, as pure functions of a catalog document
 * ({@linkcode CatalogDoc}) and the explorer's settings ({@linkcode ExplorerState}):
 * the same budget ({@linkcode applyCatalogBudget}) and the same keyword ranker
 * ({@linkcode searchSkills}) as the CLI, the MCP server and the dsh provider.
 *
 * - **Budget** 0–6 (the page's default 3; 0 means no limit; the provider's own
 *   default, 50, is larger than any demo): pinned names first, then precedence
 *   order; hidden names and author-disabled skills never count.
 * - **Search**: every skill a model may be offered is searched, whether the
 *   budget or Hide leaves it out of the listing (the model's `find_skills` sees
 *   them too); author-disabled skills are never searched. A `list --json`
 *   export carries no instructions, so the ranker reads names, descriptions and
 *   sources only.
 * - **Fragment** `#budget=2&q=pdf&pin=a,b&hide=c&skill=d`: each value that is
 *   not valid for the catalog shown (a budget outside 0–6, an unknown name, an
 *   author-disabled name in `pin` or `hide`) is ignored, never an error.
 *
 * @example
 * ```ts
 * import { explore, parseFragment } from "./explorer_model.ts";
 * import type { CatalogDoc } from "./catalog_doc.ts";
 * function example(doc: CatalogDoc) {
 *   const state = parseFragment("#budget=1&q=pdf", doc);
 *   explore(doc, state).rows.map((row) => row.skill.name);
 * }
 * ```
 * @module
 */
import { applyCatalogBudget, type CatalogState } from "../../lib/catalog/portable.ts";
import { searchSkills, type TermMatch } from "../../lib/catalog/portable.ts";
import type { CatalogDoc, CatalogSkill } from "./catalog_doc.ts";

/** The page's default budget. */
export const DEFAULT_BUDGET = 3;
/** The slider's largest value. */
export const MAX_BUDGET = 6;
/** The longest query kept from a fragment or typed (the ranker reads 32 terms). */
export const MAX_QUERY_LENGTH = 200;

/** The explorer's settings, all of them in the shareable fragment. */
export interface ExplorerState {
  /** 0–6; 0 means no limit. */
  budget: number;
  /** The keyword query ("" lists the whole catalog in precedence order). */
  q: string;
  /** Names listed first. */
  pin: string[];
  /** Names never listed. */
  hide: string[];
  /** The skill being inspected, if any. */
  skill?: string;
}

/** The settings on opening. */
export function defaultState(): ExplorerState {
  return { budget: DEFAULT_BUDGET, q: "", pin: [], hide: [] };
}

/** Why a row is listed or not: the budget's state, with the reason a skill is hidden. */
export type RowState = "visible" | "pinned" | "hidden-by-budget" | "hidden-by-you" | "disabled";

/** One row of the explorer. */
export interface ExplorerRow {
  skill: CatalogSkill;
  state: RowState;
  /** Position in precedence order (0-based). */
  order: number;
  /** With a query: the ranker's score and reasons. */
  score?: number;
  matched?: TermMatch[];
}

/** What {@linkcode explore} returns. */
export interface Exploration {
  /** The rows shown: the search's matches by score, else every skill in precedence order. */
  rows: ExplorerRow[];
  /** Every skill's row by name. */
  byName: Map<string, ExplorerRow>;
  /** Listed to a model now, of the skills it may be offered. */
  counts: { visible: number; eligible: number; disabled: number; total: number };
}

function budgetState(skill: CatalogSkill, state: CatalogState, state_: ExplorerState): RowState {
  if (state === "disabled") return "disabled";
  if (state === "visible") return state_.pin.includes(skill.name) ? "pinned" : "visible";
  return state_.hide.includes(skill.name) ? "hidden-by-you" : "hidden-by-budget";
}

/**
 * The rows for `state`: each skill's place under the budget and, with a
 * query, the ranker's matches among the skills a model may be offered.
 */
export function explore(doc: CatalogDoc, state: ExplorerState): Exploration {
  const states = applyCatalogBudget(
    doc.skills.map((s) => ({ name: s.name, invocation: { modelInvocable: s.model_invocable } })),
    { limit: state.budget, pin: new Set(state.pin), hide: new Set(state.hide) },
  );
  const byName = new Map<string, ExplorerRow>();
  doc.skills.forEach((skill, order) => {
    byName.set(skill.name, {
      skill,
      order,
      state: budgetState(skill, states.get(skill.name)!, state),
    });
  });
  const all = [...byName.values()];
  let rows = all;
  if (state.q.trim() !== "") {
    const eligible = doc.skills.filter((s) => s.model_invocable);
    rows = searchSkills(eligible, state.q, eligible.length).map((m) => ({
      ...byName.get(m.skill.name)!,
      score: m.score,
      matched: m.matched,
    }));
  }
  const visible = all.filter((r) => r.state === "visible" || r.state === "pinned").length;
  const disabled = all.filter((r) => r.state === "disabled").length;
  return {
    rows,
    byName,
    counts: { visible, eligible: all.length - disabled, disabled, total: all.length },
  };
}

function names(value: string | null, doc: CatalogDoc): string[] {
  if (value === null) return [];
  const offered = new Set(doc.skills.filter((s) => s.model_invocable).map((s) => s.name));
  const out: string[] = [];
  for (const name of value.split(",")) {
    if (offered.has(name) && !out.includes(name)) out.push(name);
  }
  return out;
}

/**
 * The settings a fragment (`location.hash`) asks for, every invalid value
 * ignored: the budget must be a whole number 0–6, names must be skills of
 * `doc` (and offered to a model, for `pin` and `hide`).
 *
 * @example
 * ```ts
 * import { parseFragment } from "./explorer_model.ts";
 * import type { CatalogDoc } from "./catalog_doc.ts";
 * function example(doc: CatalogDoc) {
 *   parseFragment("#budget=9&q=pdf", doc); // { budget: 3, q: "pdf", pin: [], hide: [] }
 * }
 * ```
 */
export function parseFragment(hash: string, doc: CatalogDoc): ExplorerState {
  const state = defaultState();
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(hash.replace(/^#/, ""));
  } catch {
    return state;
  }
  const budget = params.get("budget");
  if (budget !== null && /^[0-6]$/.test(budget)) state.budget = Number(budget);
  const q = params.get("q");
  if (q !== null && q.length <= MAX_QUERY_LENGTH && !/\p{Cc}/u.test(q)) state.q = q;
  state.pin = names(params.get("pin"), doc);
  state.hide = names(params.get("hide"), doc).filter((name) => !state.pin.includes(name));
  const skill = params.get("skill");
  if (skill !== null && doc.skills.some((s) => s.name === skill)) state.skill = skill;
  return state;
}

/**
 * The fragment of `state` (without `#`): only what differs from the defaults,
 * in the order budget, q, pin, hide, skill.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { defaultState, fragmentOf } from "./explorer_model.ts";
 * assert.equal(fragmentOf({ ...defaultState(), budget: 1, pin: ["a", "b"] }), "budget=1&pin=a%2Cb");
 * ```
 */
export function fragmentOf(state: ExplorerState): string {
  const params = new URLSearchParams();
  if (state.budget !== DEFAULT_BUDGET) params.set("budget", String(state.budget));
  if (state.q !== "") params.set("q", state.q);
  if (state.pin.length > 0) params.set("pin", state.pin.join(","));
  if (state.hide.length > 0) params.set("hide", state.hide.join(","));
  if (state.skill !== undefined) params.set("skill", state.skill);
  return params.toString();
}

/** A guided scenario of the demo catalog. */
export interface Scenario {
  id: "default" | "collision" | "budget";
  title: string;
  /** What to look at, in one or two sentences. */
  note: string;
  state: ExplorerState;
}

/** The demo's guided scenarios (their names are the demo catalog's). */
export const SCENARIOS: readonly Scenario[] = [
  {
    id: "default",
    title: "Default",
    note:
      "Seven skills; a budget of 3 lists the first three a model may be offered, in precedence order (project first). deploy-checklist is listed for people only: its author disabled model invocation.",
    state: defaultState(),
  },
  {
    id: "collision",
    title: "Collision",
    note:
      "Two plugins both ship a skill named configure. Neither may take the bare name from the other, so both are published under their plugin's name.",
    state: { ...defaultState(), q: "configure", skill: "github-tools-configure" },
  },
  {
    id: "budget",
    title: "Budget",
    note:
      "With a budget of 2, pinning release-notes lists it first; hiding review-helper leaves it out, and the rest wait behind the budget. Search still finds every one of them.",
    state: { ...defaultState(), budget: 2, pin: ["release-notes"], hide: ["review-helper"] },
  },
];
