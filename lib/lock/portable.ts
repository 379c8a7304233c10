/**
 * The part of the lock package that imports nothing from `node:` (the browser's): the lock
 * format and the comparison of two locks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseLock } from "./portable.ts";
 * assert.equal((await parseLock(new TextEncoder().encode("{}"))).ok, false);
 * ```
 *
 * @module
 */
export { VERIFY_SCHEMA } from "./_compare.ts";
export { type LockSkill, parseLock, type ProjectLock } from "./_format.ts";
