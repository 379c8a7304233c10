/**
 * The part of the catalog package that imports nothing from `node:` (the browser's): the
 * search ranker, origin labels and the catalog budget.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { searchSkills } from "./portable.ts";
 * const skills = [{ name: "pdf", description: "Read and fill PDF forms." }];
 * assert.equal(searchSkills(skills, "pdf forms", 5)[0]?.skill.name, "pdf");
 * ```
 *
 * @module
 */
export { applyCatalogBudget, type CatalogState } from "./_budget.ts";
export { type Origin, originLabel } from "./_origin.ts";
export { searchSkills, type TermMatch } from "./_search.ts";
