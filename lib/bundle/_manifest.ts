/**
 * The `skills-anywhere-bundle-1` format: a SHA-256 inventory of every file in a
 * skill directory, and one digest over that inventory.
 *
 * A manifest has exactly four keys: `schema` (the literal
 * `"skills-anywhere-bundle-1"`), `files` (rows `{path, bytes, sha256}`),
 * `total_bytes` (the sum of `bytes`) and `sha256`, the directory digest:
 *
 *     sha256(JSON(["skills-anywhere-bundle-1", [[path, bytes, sha256], ...]]))
 *
 * where JSON is compact (no whitespace) and encoded as UTF-8, paths are
 * relative, `/`-separated and sorted by plain UTF-16 code-unit comparison
 * (JavaScript `a < b`; no locale, no Unicode normalisation), and each
 * `sha256` is the lowercase hex digest of the file's bytes. As if by:
 *
 *     cd skill && find . -type f | sed 's|^\./||' | <sort by code unit> |
 *       while read -r p; do printf '["%s",%d,"%s"]' "$p" "$(wc -c <"$p")" \
 *         "$(sha256sum <"$p" | cut -c1-64)"; done | paste -sd, - |
 *       sed 's/^/["skills-anywhere-bundle-1",[/; s/$/]]/' | tr -d '\n' | sha256sum
 *
 * (for paths without `"` or non-ASCII characters, where `LC_ALL=C sort` is the
 * same order). The absolute location, timestamps, permissions, owners, empty
 * directories and the tool version are not part of the identity, so an
 * identical copy elsewhere has the same digest.
 *
 * The module has no `node:` imports: the CLI, the MCP server and the browser
 * page use it unchanged. Its error vocabulary (kinds, `BundleError`,
 * `MESSAGES`, the size refusals) is `messages.ts`, re-exported here. Rows may come from any reader (a directory, a list of
 * browser `File`s, an archive); see `read.ts` for the filesystem reader.
 *
 * @example
 * ```ts
 * import { buildManifest, compareManifests } from "./_manifest.ts";
 * const manifest = await buildManifest([{ path: "SKILL.md", bytes: 0, sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" }]);
 * compareManifests(manifest, manifest).matches; // true
 * ```
 * @module
 */

import { BUNDLE_LIMITS, BUNDLE_SCHEMA, COMPARISON_SCHEMA } from "./_literals.ts";
import { fileSizeRefusal, refuse, totalSizeRefusal } from "./_messages.ts";
import { compareCodeUnits, isPlainObject, tryParseJsonBytes } from "../util.ts";

export {
  BUNDLE_ERROR_SCHEMA,
  BUNDLE_LIMITS,
  BUNDLE_SCHEMA,
  COMPARISON_SCHEMA,
} from "./_literals.ts";
export {
  BundleError,
  type BundleErrorKind,
  type BundleReadErrorKind,
  type BundleSizeKind,
  fileSizeRefusal,
  grewRefusal,
  type ManifestErrorKind,
  type ManifestInputKind,
  MESSAGES,
  totalSizeRefusal,
} from "./_messages.ts";

/** One inventory row. */
export interface BundleFile {
  path: string;
  bytes: number;
  sha256: string;
}

/** A `skills-anywhere-bundle-1` manifest. */
export interface BundleManifest {
  schema: typeof BUNDLE_SCHEMA;
  sha256: string;
  total_bytes: number;
  files: BundleFile[];
}

/** A `skills-anywhere-bundle-comparison-1` result. */
export interface BundleComparison {
  schema: typeof COMPARISON_SCHEMA;
  matches: boolean;
  expected_sha256: string;
  actual_sha256: string;
  added: string[];
  removed: string[];
  changed: string[];
}

/**
 * The byte limit of one bundle file: {@linkcode MAX_BUNDLE_SKILL_BYTES} for
 * `SKILL.md`, {@linkcode MAX_BUNDLE_FILE_BYTES} for any other path.
 *
 * @example
 * ```ts
 * import { fileLimit } from "./_manifest.ts";
 * console.log(fileLimit("SKILL.md"), fileLimit("assets/video.bin")); // 131072 16777216
 * ```
 */
export function fileLimit(path: string): number {
  return path === "SKILL.md" ? BUNDLE_LIMITS.maxSkillBytes : BUNDLE_LIMITS.maxFileBytes;
}

/** Refuses the first row over its file limit, then the first row at which the total passes its limit. */
function assertSizes(rows: readonly BundleFile[]): number {
  let total = 0;
  for (const row of rows) {
    if (row.bytes > fileLimit(row.path)) throw fileSizeRefusal(row.path, row.bytes);
  }
  for (const row of rows) {
    total += row.bytes;
    if (total > BUNDLE_LIMITS.maxTotalBytes) throw totalSizeRefusal(row.path, total);
  }
  return total;
}

const HEX64 = /^[0-9a-f]{64}$/;
// deno-lint-ignore no-control-regex
const FORBIDDEN = /[\u0000-\u001f\u007f\\:\ufffd]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const encoder = new TextEncoder();

/**
 * Whether `path` may name a bundle file: relative, `/`-separated, no empty,
 * `.` or `..` segment, no control character, backslash, colon or U+FFFD,
 * well-formed Unicode, at most 1,024 UTF-8 bytes.
 *
 * @example
 * ```ts
 * isBundlePath("scripts/run.py"); // true
 * isBundlePath("../etc/passwd"); // false
 * ```
 */
export function isBundlePath(path: unknown): path is string {
  if (typeof path !== "string" || path === "" || FORBIDDEN.test(path)) return false;
  if (LONE_SURROGATE.test(path)) return false;
  if (encoder.encode(path).length > BUNDLE_LIMITS.maxPathBytes) return false;
  return path.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..");
}

/**
 * The canonical string whose SHA-256 is the bundle digest.
 *
 * @example
 * ```ts
 * canonicalString([{ path: "SKILL.md", bytes: 0, sha256: "e3b0…" }]);
 * // '["skills-anywhere-bundle-1",[["SKILL.md",0,"e3b0…"]]]'
 * ```
 */
export function canonicalString(files: readonly BundleFile[]): string {
  return JSON.stringify([BUNDLE_SCHEMA, files.map((f) => [f.path, f.bytes, f.sha256])]);
}

/**
 * Lowercase hex SHA-256 of bytes, or of a string's UTF-8, with Web Crypto:
 * the browser page's hash (the CLI's synchronous one is `lib/hash.ts`).
 *
 * @example
 * ```ts
 * import { webSha256Hex } from "./_manifest.ts";
 * console.log(await webSha256Hex("")); // "e3b0c442…b855"
 * ```
 */
export async function webSha256Hex(data: Uint8Array<ArrayBuffer> | string): Promise<string> {
  const bytes = typeof data === "string" ? encoder.encode(data) : data;
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The bundle digest of rows already in canonical order.
 *
 * @example
 * ```ts
 * import { bundleDigest } from "./_manifest.ts";
 * console.log(await bundleDigest([{ path: "SKILL.md", bytes: 0, sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" }]));
 * ```
 */
export function bundleDigest(files: readonly BundleFile[]): Promise<string> {
  return webSha256Hex(canonicalString(files));
}

/**
 * Builds a manifest from rows in any order (they are sorted here).
 *
 * @example
 * ```ts
 * import { buildManifest } from "./_manifest.ts";
 * const m = await buildManifest([
 *   { path: "SKILL.md", bytes: 0, sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
 * ]);
 * console.log(m.sha256, m.total_bytes);
 * ```
 */
export async function buildManifest(rows: readonly BundleFile[]): Promise<BundleManifest> {
  const files = rows.map(({ path, bytes, sha256 }) => ({ path, bytes, sha256 }))
    .sort((a, b) => compareCodeUnits(a.path, b.path));
  return {
    schema: BUNDLE_SCHEMA,
    sha256: await bundleDigest(files),
    total_bytes: files.reduce((sum, f) => sum + f.bytes, 0),
    files,
  };
}

function hasExactKeys(value: unknown, keys: readonly string[]): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((key) => Object.hasOwn(value, key));
}

const MANIFEST_KEYS = ["schema", "sha256", "total_bytes", "files"] as const;
const ROW_KEYS = ["path", "bytes", "sha256"] as const;

function isRow(value: unknown): value is BundleFile {
  if (!hasExactKeys(value, ROW_KEYS)) return false;
  const { path, bytes, sha256 } = value;
  return isBundlePath(path) && typeof bytes === "number" && Number.isSafeInteger(bytes) &&
    bytes >= 0 &&
    typeof sha256 === "string" && HEX64.test(sha256);
}

/**
 * Validates a received manifest (for example parsed JSON from a reviewer) and
 * returns it typed. Throws a {@linkcode BundleError} of a
 * {@linkcode ManifestErrorKind} on any defect, including a digest or total
 * that does not match the recomputed value.
 *
 * @example
 * ```ts
 * import { buildManifest, validateManifest } from "./_manifest.ts";
 * const text = JSON.stringify(await buildManifest([
 *   { path: "SKILL.md", bytes: 0, sha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
 * ]));
 * const manifest = await validateManifest(JSON.parse(text));
 * ```
 */
export async function validateManifest(value: unknown): Promise<BundleManifest> {
  if (!hasExactKeys(value, MANIFEST_KEYS) || value.schema !== BUNDLE_SCHEMA) {
    throw refuse("not-manifest");
  }
  const files = value.files;
  if (!Array.isArray(files) || files.length < 1 || files.length > BUNDLE_LIMITS.maxFiles) {
    throw refuse("file-count");
  }
  for (let i = 0; i < files.length; i++) {
    if (!isRow(files[i]) || (i > 0 && !(files[i - 1].path < files[i].path))) {
      throw refuse("bad-row");
    }
  }
  const rows = files as BundleFile[];
  assertNoFileIsDirectory(rows.map((f) => f.path));
  if (!rows.some((f) => f.path === "SKILL.md")) throw refuse("no-skill");
  const total = assertSizes(rows);
  const digest = await bundleDigest(rows);
  if (value.sha256 !== digest || value.total_bytes !== total) {
    throw refuse("digest-mismatch");
  }
  return {
    schema: BUNDLE_SCHEMA,
    sha256: digest,
    total_bytes: total,
    files: rows.map(({ path, bytes, sha256 }) => ({ path, bytes, sha256 })),
  };
}

/**
 * Refuses a manifest file of `size` bytes before it is read: more than
 * {@linkcode MAX_CONFIG_BYTES} is a {@linkcode BundleError} of kind
 * `manifest-too-large` (so a huge file is never loaded).
 *
 * @example
 * ```ts
 * import { assertManifestSize } from "./_manifest.ts";
 * assertManifestSize(512); // fine; 2 MiB would throw
 * ```
 */
export function assertManifestSize(size: number): void {
  if (size > BUNDLE_LIMITS.maxManifestBytes) throw refuse("manifest-too-large");
}

/**
 * Parses received manifest bytes: at most {@linkcode MAX_CONFIG_BYTES},
 * strict UTF-8 (a byte-order mark is kept, so JSON then refuses it), JSON,
 * then {@linkcode validateManifest}. The CLI's `bundle --against` and the
 * browser page both read a manifest with this. Throws a
 * {@linkcode BundleError} of a {@linkcode ManifestInputKind} or
 * {@linkcode ManifestErrorKind}.
 *
 * @example
 * ```ts
 * import { BundleError, parseManifest } from "./_manifest.ts";
 * try {
 *   await parseManifest(new TextEncoder().encode("{}"));
 * } catch (error) {
 *   if (error instanceof BundleError) console.log(error.kind); // "not-manifest"
 * }
 * ```
 */
export async function parseManifest(bytes: Uint8Array): Promise<BundleManifest> {
  assertManifestSize(bytes.length);
  const read = tryParseJsonBytes(bytes);
  if (!read.ok) throw refuse(read.kind === "not-utf8" ? "manifest-not-utf8" : "manifest-not-json");
  return await validateManifest(read.value);
}

/**
 * Refuses a path list in which one path is also the parent directory of
 * another (a {@linkcode BundleError} of kind `file-is-directory`).
 *
 * @example
 * ```ts
 * import { assertNoFileIsDirectory } from "./_manifest.ts";
 * assertNoFileIsDirectory(["SKILL.md", "a/b", "a.b"]); // fine; ["a", "a/b"] would throw
 * ```
 */
export function assertNoFileIsDirectory(paths: readonly string[]): void {
  const all = new Set(paths);
  for (const path of paths) {
    let slash = path.indexOf("/");
    while (slash >= 0) {
      if (all.has(path.slice(0, slash))) throw refuse("file-is-directory");
      slash = path.indexOf("/", slash + 1);
    }
  }
}

/**
 * Compares a reviewed manifest with the current one. A rename is one removed
 * path plus one added path.
 *
 * @example
 * ```ts
 * import { type BundleManifest, compareManifests } from "./_manifest.ts";
 * function example(reviewed: BundleManifest, current: BundleManifest) {
 *   compareManifests(reviewed, current).changed; // ["scripts/review.py"]
 * }
 * ```
 */
export function compareManifests(
  expected: BundleManifest,
  actual: BundleManifest,
): BundleComparison {
  const before = new Map(expected.files.map((f) => [f.path, f]));
  const after = new Map(actual.files.map((f) => [f.path, f]));
  const changed: string[] = [];
  for (const file of actual.files) {
    const old = before.get(file.path);
    if (old !== undefined && (old.sha256 !== file.sha256 || old.bytes !== file.bytes)) {
      changed.push(file.path);
    }
  }
  return {
    schema: COMPARISON_SCHEMA,
    matches: expected.sha256 === actual.sha256,
    expected_sha256: expected.sha256,
    actual_sha256: actual.sha256,
    added: actual.files.filter((f) => !before.has(f.path)).map((f) => f.path),
    removed: expected.files.filter((f) => !after.has(f.path)).map((f) => f.path),
    changed,
  };
}
