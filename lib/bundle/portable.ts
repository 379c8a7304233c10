/**
 * The part of the bundle package that imports nothing from `node:` (the browser's): the
 * manifest format, its validation and comparison.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isBundlePath } from "./portable.ts";
 * assert.equal(isBundlePath("scripts/run.sh"), true);
 * assert.equal(isBundlePath("../outside"), false);
 * ```
 *
 * @module
 */
export { BUNDLE_LIMITS } from "./_literals.ts";
export {
  assertManifestSize,
  type BundleComparison,
  bundleDigest,
  type BundleFile,
  type BundleManifest,
  compareManifests,
  isBundlePath,
  parseManifest,
  webSha256Hex,
} from "./_manifest.ts";
export { BundleError, type BundleReadErrorKind, type BundleSizeKind } from "./_messages.ts";
