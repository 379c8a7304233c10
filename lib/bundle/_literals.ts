/**
 * The fixed facts of the `skills-anywhere-bundle-1` format that both the
 * format (`manifest.ts`) and its error vocabulary (`messages.ts`) name: the
 * schema literals and the limits of a bundle and of a received manifest.
 * `manifest.ts` re-exports them; import them from there.
 *
 * @example
 * ```ts
 * import { BUNDLE_LIMITS, BUNDLE_SCHEMA } from "./_literals.ts";
 * console.log(BUNDLE_SCHEMA, BUNDLE_LIMITS.maxFiles); // "skills-anywhere-bundle-1" 512
 * ```
 * @module
 */
import {
  MAX_BUNDLE_FILE_BYTES,
  MAX_BUNDLE_SKILL_BYTES,
  MAX_BUNDLE_TOTAL_BYTES,
  MAX_CONFIG_BYTES,
} from "../limits.ts";

/** The schema literal of a manifest. */
export const BUNDLE_SCHEMA = "skills-anywhere-bundle-1";
/** The schema literal of a comparison. */
export const COMPARISON_SCHEMA = "skills-anywhere-bundle-comparison-1";
/** The schema literal of a `bundle` error document. */
export const BUNDLE_ERROR_SCHEMA = "skills-anywhere-bundle-error-1";

/** Limits of a bundle and of a received manifest (the byte limits are those of `limits.ts`). */
export const BUNDLE_LIMITS = {
  maxFiles: 512,
  maxEntries: 1024,
  maxDepth: 12,
  maxSkillBytes: MAX_BUNDLE_SKILL_BYTES,
  maxFileBytes: MAX_BUNDLE_FILE_BYTES,
  maxTotalBytes: MAX_BUNDLE_TOTAL_BYTES,
  maxManifestBytes: MAX_CONFIG_BYTES,
  maxPathBytes: 1024,
} as const;
