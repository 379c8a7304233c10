/**
 * Opening one skill for a consumer: the fresh read, the author's opt-out, digests, the lock
 * gate, rendering and the receipt; the skill URI space and the file share rules.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { skillRootUri } from "./mod.ts";
 * assert.equal(skillRootUri(""), undefined);
 * ```
 *
 * @module
 */
export {
  type FindLimits,
  findLimits,
  findOpenable,
  findSkills,
  freshBody,
  type Invocability,
  isOpenable,
  type OpenRefusalKind,
} from "./_find.ts";
export { parseSkillBytes, readSkillNow } from "./_fresh.ts";
export {
  type LoadedSkill,
  type LoadFailureKind,
  type LoadReceipt,
  type OpenOptions,
  openSkill,
} from "./_open.ts";
export { renderSkill, type RenderWords } from "./_render.ts";
export { LOADED_SKILL_SCHEMA } from "./_schema.ts";
export { type PublishedFile, readServedSync } from "./_served.ts";
export {
  type Shareable,
  type SharedSkill,
  type ShareRefusal,
  shareSkills,
  shareVerdict,
  type ShareVerdictKind,
  SIZE_REFUSALS,
} from "./_share.ts";
export { skillPath, skillRootUri } from "./_uri_space.ts";
export type { LoadResult } from "./_open.ts";
