/**
 * The web card's pure rules: the filter (every whitespace-separated term must
 * occur in the name, description or origin, case-insensitively), the budget
 * input (a whole number ≥ 0; empty is 0), and the settings each button
 * commits (pinning a skill unhides it and hiding unpins it; lists stay sorted
 * and without repeats).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { matches, parseBudget, pinned } from "./model.ts";
 * assert.equal(matches({ name: "pdf", description: "PDF forms", origin: "codex (user)" }, "forms codex"), true);
 * assert.equal(parseBudget("12"), 12);
 * assert.deepEqual(pinned({ limit: 3, pin: [], hide: ["pdf"] }, "pdf"), { limit: 3, pin: ["pdf"], hide: [] });
 * ```
 * @module
 */

/** The budget part of the settings namespace. */
export interface CatalogSettings {
  limit: number;
  pin: string[];
  hide: string[];
}

/** What the filter searches of a skill. */
export interface Searchable {
  name: string;
  description: string;
  origin: string;
}

/** Whether every term of `filter` occurs in the skill's name, description or origin. */
export function matches(skill: Searchable, filter: string): boolean {
  const text = `${skill.name}\n${skill.description}\n${skill.origin}`.toLowerCase();
  return filter.toLowerCase().split(/\s+/).filter((term) => term !== "").every((term) =>
    text.includes(term)
  );
}

/**
 * The budget an input's text commits: a whole number ≥ 0 (surrounding spaces ignored, empty is
 * 0), or undefined when the text is not one.
 */
export function parseBudget(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === "") return 0;
  if (!/^\d{1,9}$/.test(trimmed)) return undefined;
  return Number(trimmed);
}

function sorted(names: Iterable<string>): string[] {
  return [...new Set(names)].sort();
}

/** The catalog with `name` pinned (and no longer hidden). */
export function pinned(catalog: CatalogSettings, name: string): CatalogSettings {
  return {
    limit: catalog.limit,
    pin: sorted([...catalog.pin, name]),
    hide: sorted(catalog.hide.filter((n) => n !== name)),
  };
}

/** The catalog with `name` no longer pinned. */
export function unpinned(catalog: CatalogSettings, name: string): CatalogSettings {
  return { ...catalog, pin: sorted(catalog.pin.filter((n) => n !== name)) };
}

/** The catalog with `name` hidden (and no longer pinned). */
export function hidden(catalog: CatalogSettings, name: string): CatalogSettings {
  return {
    limit: catalog.limit,
    pin: sorted(catalog.pin.filter((n) => n !== name)),
    hide: sorted([...catalog.hide, name]),
  };
}

/** The catalog with `name` no longer hidden. */
export function shown(catalog: CatalogSettings, name: string): CatalogSettings {
  return { ...catalog, hide: sorted(catalog.hide.filter((n) => n !== name)) };
}

/** The exclusions with `name` added (`exclude`) or removed. */
export function excluded(list: readonly string[], name: string, exclude: boolean): string[] {
  return sorted(exclude ? [...list, name] : list.filter((n) => n !== name));
}
