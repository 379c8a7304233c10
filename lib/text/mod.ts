/**
 * Words shared by every surface: "did you mean" and counted nouns.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { didYouMean } from "./mod.ts";
 * assert.equal(didYouMean("lsit", ["list", "show"]), " (did you mean list?)");
 * ```
 *
 * @module
 */
export { didYouMean, suggestion } from "./_closest.ts";
export { counted } from "./_words.ts";
