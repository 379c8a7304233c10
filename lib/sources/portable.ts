/**
 * The part of the sources package that imports nothing from `node:` (the browser's): the one
 * display name of a source.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sourceName } from "./portable.ts";
 * assert.equal(sourceName({ display: "o/r", ref: "v1" }), "o/r@v1");
 * ```
 *
 * @module
 */
export { sourceName } from "./_name.ts";
