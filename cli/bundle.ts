/**
 * The `bundle` command: record the SHA-256 manifest of a skill directory, or
 * compare the directory with a reviewed manifest. Every refusal is a
 * `BundleError`; it is printed (or written as a JSON error document) and
 * exits 2.
 *
 * @example
 * ```ts
 * import { runBundle } from "./bundle.ts";
 * import { processIo } from "./io.ts";
 * const exitCode = await runBundle(["skills/pdf"], { json: true }, "/repo", processIo());
 * ```
 * @module
 */
import { realpath } from "node:fs/promises";
import { resolve } from "node:path";
import {
  BUNDLE_ERROR_SCHEMA,
  BUNDLE_LIMITS,
  type BundleComparison,
  BundleError,
  type BundleManifest,
  compareManifests,
  MESSAGES,
  parseManifest,
} from "../lib/bundle/mod.ts";
import { notDirectory, readBundle } from "../lib/bundle/mod.ts";
import { isWithin, readBounded, ReadError } from "../lib/fs/mod.ts";
import { formatBytes } from "../lib/limits.ts";
import { type OptionValues, UsageError } from "./args.ts";
import { jsonText, quote } from "./escape.ts";
import { type Io, PREFIX } from "./io.ts";
import { outStyles, type Styles } from "./style.ts";
import { counted } from "../lib/text.ts";
import { EXIT } from "./program.ts";

/** What a matching digest does not establish. */
const BUNDLE_SCOPE =
  "File paths and contents only; no execution, author authentication or external dependency verification.";

/** The CLI's words for a manifest path that is not a readable regular file. */
function unreadable(): BundleError {
  const limit = formatBytes(BUNDLE_LIMITS.maxManifestBytes);
  return new BundleError(
    "manifest-unreadable",
    `Choose a regular manifest file of at most ${limit}`,
  );
}

/** Reads `--against`: a regular file outside the skill directory, then {@linkcode parseManifest}. */
async function readReviewedManifest(path: string, directory: string): Promise<BundleManifest> {
  const realDirectory = await realpath(directory).catch(() => undefined);
  if (realDirectory === undefined) {
    throw notDirectory(directory);
  }
  const realManifest = await realpath(path).catch(() => undefined);
  if (realManifest === undefined) throw unreadable();
  if (isWithin(realManifest, realDirectory, { allowSame: true })) {
    throw new BundleError(
      "manifest-inside",
      "Keep the review manifest outside the skill directory",
    );
  }
  let bytes: Uint8Array;
  try {
    ({ bytes } = await readBounded(realManifest, {
      maxBytes: BUNDLE_LIMITS.maxManifestBytes,
      followSymlinks: false,
    }));
  } catch (error) {
    if (!(error instanceof ReadError && error.kind === "too-large")) throw unreadable();
    throw new BundleError("manifest-too-large", MESSAGES["manifest-too-large"]);
  }
  return await parseManifest(bytes);
}

/**
 * Runs `bundle`; returns the exit code (0 generated or matching, 1 differs, 2 refused).
 *
 * @throws {UsageError} When the command line asks for something the command does not take.
 *
 * @example
 * ```ts
 * import { runBundle } from "./bundle.ts";
 * import { processIo } from "./io.ts";
 * await runBundle(["skills/pdf"], { against: "reviewed.bundle.json" }, "/repo", processIo());
 * ```
 */
export async function runBundle(
  positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  if (positionals.length !== 1) throw new UsageError("bundle takes exactly one directory");
  const directory = resolve(cwd, positionals[0]);
  try {
    const reviewed = values.against === undefined
      ? undefined
      : await readReviewedManifest(resolve(cwd, values.against), directory);
    const { manifest } = await readBundle(directory);
    if (reviewed === undefined) {
      io.out(values.json ? jsonText(manifest) : renderManifest(manifest));
      return EXIT.ok;
    }
    const comparison = compareManifests(reviewed, manifest);
    io.out(
      values.json
        ? jsonText({ ...comparison, manifest })
        : renderComparison(comparison, manifest, outStyles(io)),
    );
    return comparison.matches ? EXIT.ok : EXIT.failed;
  } catch (error) {
    if (!(error instanceof BundleError)) throw error;
    if (values.json) {
      io.out(jsonText({ schema: BUNDLE_ERROR_SCHEMA, error: error.message, kind: error.kind }));
    } else io.err(`${PREFIX}bundle refused: ${quote(error.message)}\n`);
    return EXIT.refused;
  }
}

/** The manifest, the verdict (green when it matches, red when not), then each changed path. */
function renderComparison(
  comparison: BundleComparison,
  manifest: BundleManifest,
  st: Styles,
): string {
  return renderManifest(manifest, [
    comparison.matches
      ? st.ok("Matches the reviewed bundle.")
      : st.bad("Bundle differs from the reviewed inventory."),
    ...comparison.added.map((p) => `${st.warn("ADDED")} ${quote(p)}`),
    ...comparison.removed.map((p) => `${st.warn("REMOVED")} ${quote(p)}`),
    ...comparison.changed.map((p) => `${st.warn("CHANGED")} ${quote(p)}`),
  ]);
}

function renderManifest(manifest: BundleManifest, extra: string[] = []): string {
  return [
    `Bundle SHA-256: ${manifest.sha256}`,
    `${counted(manifest.files.length, "file")}, ${counted(manifest.total_bytes, "byte")}`,
    ...extra,
    BUNDLE_SCOPE,
  ].join("\n") + "\n";
}
