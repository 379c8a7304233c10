/**
 * Counted words for human output, one rule for every surface: "1 skill",
 * "2 skills", "0 files", "1 hidden duplicate".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { counted } from "./_words.ts";
 * assert.equal(counted(1, "hidden duplicate"), "1 hidden duplicate");
 * assert.equal(counted(3, "match", "matches"), "3 matches");
 * ```
 * @module
 */

/**
 * `n` and the word, singular for exactly one (`plural` defaults to the word with an `s`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { counted } from "./_words.ts";
 * assert.equal(counted(0, "skill"), "0 skills");
 * ```
 */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}
