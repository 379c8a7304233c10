/**
 * The project lock (`skills-anywhere.lock.json`): its format, the current lock of a catalog,
 * the comparison of the two (verify). Its signatures are checked by `lib/signers.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseLock } from "./mod.ts";
 * assert.equal((await parseLock(new TextEncoder().encode("{}"))).ok, false);
 * ```
 *
 * @module
 */
export {
  compareLocks,
  type OutsidePlugin,
  type PlaceCollision,
  type UncoveredPlace,
  VERIFY_SCHEMA,
  type VerifyReport,
} from "./_compare.ts";
export { currentLock, type LockableSkill } from "./_current.ts";
export { projectLockPath, readProjectLock, userLockPath } from "./_file.ts";
export {
  checkedLockText,
  isUnbundlableKind,
  type LockOrigin,
  type LockSkill,
  type LockSource,
  parseLock,
  type ProjectLock,
  type RefusedEntry,
  splitLockable,
  UNBUNDLABLE_REASONS,
  type UnbundlableKind,
} from "./_format.ts";
export { type LockLines, lockLines } from "./_lines.ts";
export {
  isLockedPlace,
  type LockedNames,
  lockedNames,
  lockOrigin,
  readLockedNames,
} from "./_names.ts";
export { isPersonalOrigin, lockScopeOf } from "./_scope.ts";
export type { SignatureDifference, SignedSkill } from "./_compare.ts";
export type { LockSigners } from "./_format.ts";
