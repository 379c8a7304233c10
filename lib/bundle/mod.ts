/**
 * The bundle format and its readers: the manifest of a skill directory (every file with its
 * size and SHA-256, in one canonical string and one digest), validated and compared exactly, and
 * the filesystem reader that builds it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { buildManifest } from "./mod.ts";
 * const manifest = await buildManifest([{ path: "SKILL.md", bytes: 1, sha256: "0".repeat(64) }]);
 * assert.match(manifest.sha256, /^[0-9a-f]{64}$/);
 * ```
 *
 * @module
 */
export { DigestCache } from "./_digests.ts";
export { BUNDLE_ERROR_SCHEMA, BUNDLE_LIMITS } from "./_literals.ts";
export {
  assertManifestSize,
  buildManifest,
  type BundleComparison,
  bundleDigest,
  type BundleFile,
  type BundleManifest,
  canonicalString,
  compareManifests,
  isBundlePath,
  parseManifest,
  validateManifest,
  webSha256Hex,
} from "./_manifest.ts";
export {
  BundleError,
  type BundleReadErrorKind,
  type BundleSizeKind,
  MESSAGES,
} from "./_messages.ts";
export { notDirectory, readBundle } from "./_read.ts";
