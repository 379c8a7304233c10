/**
 * Words shared by every surface: English stemming, "did you mean", counted nouns.
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
export { stem } from "./_stem.ts";
export { counted } from "./_words.ts";
