/**
 * The error vocabulary of bundles and manifests: every refusal kind (the
 * format's, the manifest input's, the filesystem reader's and a surface's own
 * reading of a manifest file), the one error class that carries them
 * ({@linkcode BundleError}), the sentence of each refusal that names no file
 * ({@linkcode MESSAGES}) and the builders of the refusals that do (a file over
 * its size limit, a bundle over its total, a file that grew while read).
 * `manifest.ts` re-exports all of it, so callers import the format and its
 * words from one place. The module has no `node:` imports (the browser page
 * shows these messages).
 *
 * @example
 * ```ts
 * import { BundleError, MESSAGES } from "./_messages.ts";
 * const error = new BundleError("no-skill", MESSAGES["no-skill"]);
 * console.log(error.kind, error.message); // "no-skill" "A bundle must contain SKILL.md"
 * ```
 * @module
 */
import { KindError } from "../errors.ts";
import { formatBytes, MAX_CONFIG_BYTES } from "../limits.ts";
import { NOT_UTF8 } from "../util.ts";
import { BUNDLE_LIMITS, BUNDLE_SCHEMA } from "./_literals.ts";

/** Why the format refuses a manifest (`validateManifest` in `manifest.ts`). */
export type ManifestErrorKind =
  | "file-count"
  | "bad-row"
  | "file-is-directory"
  | BundleSizeKind
  | "no-skill"
  | "not-manifest"
  | "digest-mismatch";

/** Which size limit a bundle broke: its SKILL.md's, one other file's, or all files' together. */
export type BundleSizeKind = "skill-too-large" | "file-too-large" | "too-large";

/** Why received manifest bytes are refused before the format is validated (`parseManifest`). */
export type ManifestInputKind = "manifest-too-large" | "manifest-not-utf8" | "manifest-not-json";

/** Why the filesystem reader (`read.ts`) refuses a directory. */
export type BundleReadErrorKind =
  | "not-directory"
  | "unsupported-path"
  | "too-deep"
  | "too-many-files"
  | "grew"
  | "changed"
  | "skill-not-utf8"
  | "link"
  | "not-regular"
  | "unreadable";

/**
 * Every refusal of a bundle or a manifest: the format's, the manifest
 * input's, the reader's, and a surface's own reading of a manifest file
 * (`manifest-unreadable`, `manifest-inside`).
 */
export type BundleErrorKind =
  | ManifestErrorKind
  | ManifestInputKind
  | BundleReadErrorKind
  | "manifest-unreadable"
  | "manifest-inside";

/** Any refusal of a bundle or manifest; `kind` says which, the message is safe to show. */
export class BundleError extends KindError<BundleErrorKind> {}

/** The sentence of each refusal of the format and of manifest input that names no file. */
export const MESSAGES: Readonly<
  Record<Exclude<ManifestErrorKind, BundleSizeKind> | ManifestInputKind, string>
> = {
  "file-count": `A bundle needs 1–${BUNDLE_LIMITS.maxFiles} files`,
  "bad-row":
    "Invalid bundle file: require unique sorted relative paths, bounded byte counts and SHA-256",
  "file-is-directory": "A bundle file cannot also be a directory",
  "no-skill": "A bundle must contain SKILL.md",
  "not-manifest": `Expected a ${BUNDLE_SCHEMA} manifest`,
  "digest-mismatch": "Manifest digest or total bytes disagrees with its inventory",
  "manifest-too-large": `Manifest exceeds ${formatBytes(MAX_CONFIG_BYTES)}`,
  "manifest-not-utf8": `Manifest is ${NOT_UTF8}`,
  "manifest-not-json": "Manifest is not valid JSON",
};

/**
 * The {@linkcode BundleError} of a refusal whose sentence is in {@linkcode MESSAGES}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { refuse } from "./_messages.ts";
 * assert.equal(refuse("no-skill").message, "A bundle must contain SKILL.md");
 * ```
 */
export function refuse(kind: keyof typeof MESSAGES): BundleError {
  return new BundleError(kind, MESSAGES[kind]);
}

/** The limit a file of `path` keeps, in words: "a SKILL.md of at most 128 KiB". */
function limitWords(path: string): string {
  return path === "SKILL.md"
    ? `a SKILL.md of at most ${formatBytes(BUNDLE_LIMITS.maxSkillBytes)}`
    : `files of at most ${formatBytes(BUNDLE_LIMITS.maxFileBytes)} besides SKILL.md`;
}

/**
 * The refusal of a file over its limit, naming the file, its size and the
 * one limit it broke: `skill-too-large` for `SKILL.md`, `file-too-large`
 * for any other file.
 *
 * @example
 * ```ts
 * import { fileSizeRefusal } from "./_messages.ts";
 * console.log(fileSizeRefusal("SKILL.md", 294426).message);
 * // A bundle holds a SKILL.md of at most 128 KiB; "SKILL.md" is 294426 bytes
 * ```
 */
export function fileSizeRefusal(path: string, bytes: number): BundleError {
  return new BundleError(
    path === "SKILL.md" ? "skill-too-large" : "file-too-large",
    `A bundle holds ${limitWords(path)}; ${JSON.stringify(path)} is ${bytes} bytes`,
  );
}

/**
 * The refusal of a bundle whose files together pass
 * `MAX_BUNDLE_TOTAL_BYTES`: kind `too-large`, naming the file at
 * which the running total (in path order) passed it.
 *
 * @example
 * ```ts
 * import { totalSizeRefusal } from "./_messages.ts";
 * console.log(totalSizeRefusal("b.bin", 33554433).message);
 * // A bundle holds at most 32 MiB in all; its files reach 33554433 bytes at "b.bin"
 * ```
 */
export function totalSizeRefusal(path: string, total: number): BundleError {
  const limit = formatBytes(BUNDLE_LIMITS.maxTotalBytes);
  return new BundleError(
    "too-large",
    `A bundle holds at most ${limit} in all; its files reach ${total} bytes at ${
      JSON.stringify(path)
    }`,
  );
}

/**
 * The refusal of a file that grew past its limit while it was read (kind
 * `grew`), naming the file and the limit.
 *
 * @example
 * ```ts
 * import { grewRefusal } from "./_messages.ts";
 * console.log(grewRefusal("SKILL.md").message);
 * // A bundle holds a SKILL.md of at most 128 KiB; "SKILL.md" grew past it while it was read
 * ```
 */
export function grewRefusal(path: string): BundleError {
  return new BundleError(
    "grew",
    `A bundle holds ${limitWords(path)}; ${JSON.stringify(path)} grew past it while it was read`,
  );
}
