/**
 * The `bundle` command: record the SHA-256 manifest of a skill directory, or
 * compare the directory with a reviewed manifest.
 *
 * @example
 * ```ts
 * import { runBundle } from "./bundle.ts";
 * ```
 * @module
 */
import { realpath } from "node:fs/promises";
import { resolve } from "node:path";
import {
  BUNDLE_ERROR_SCHEMA,
  BUNDLE_LIMITS,
  BundleError,
  type BundleManifest,
  compareManifests,
  validateManifest,
} from "../bundle/manifest.ts";
import { readBundle } from "../bundle/read.ts";
import { decodeUtf8, isWithin, readBounded, ReadError } from "../fs/mod.ts";
import { type OptionValues, UsageError } from "./args.ts";
import { jsonText, quote } from "./escape.ts";
import type { Io } from "./io.ts";

/** What a matching digest does not establish. */
export const BUNDLE_SCOPE =
  "File paths and contents only; no execution, author authentication or external dependency verification.";

const MANIFEST_MESSAGES = {
  choose: "Choose a regular manifest file of at most 1 MiB.",
  tooLarge: "Manifest exceeds 1 MiB.",
  notUtf8: "Manifest is not valid UTF-8.",
  notJson: "Manifest is not valid JSON.",
  inside: "Keep the review manifest outside the skill directory.",
} as const;

async function readReviewedManifest(path: string, directory: string): Promise<BundleManifest> {
  let realDirectory: string;
  try {
    realDirectory = await realpath(directory);
  } catch {
    throw new BundleError("Choose a skill directory containing SKILL.md.");
  }
  const realManifest = await realpath(path).catch(() => undefined);
  if (realManifest === undefined) throw new BundleError(MANIFEST_MESSAGES.choose);
  if (isWithin(realManifest, realDirectory, { allowSame: true })) {
    throw new BundleError(MANIFEST_MESSAGES.inside);
  }
  let text: string;
  try {
    const { bytes } = await readBounded(realManifest, {
      maxBytes: BUNDLE_LIMITS.maxManifestBytes,
      followSymlinks: false,
    });
    text = decodeUtf8(bytes);
  } catch (error) {
    if (error instanceof ReadError && error.kind === "too-large") {
      throw new BundleError(MANIFEST_MESSAGES.tooLarge);
    }
    if (error instanceof ReadError && error.kind === "not-utf8") {
      throw new BundleError(MANIFEST_MESSAGES.notUtf8);
    }
    throw new BundleError(MANIFEST_MESSAGES.choose);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BundleError(MANIFEST_MESSAGES.notJson);
  }
  return await validateManifest(value);
}

/** Runs `bundle`; returns the exit code (0 generated or matching, 1 differs, 2 refused). */
export async function runBundle(
  positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  if (positionals.length !== 1) throw new UsageError("bundle takes exactly one directory.");
  const directory = resolve(cwd, positionals[0]);
  try {
    const reviewed = values.against === undefined
      ? undefined
      : await readReviewedManifest(resolve(cwd, values.against), directory);
    const { manifest } = await readBundle(directory);
    if (reviewed === undefined) {
      io.out(values.json ? jsonText(manifest) : renderManifest(manifest));
      return 0;
    }
    const comparison = compareManifests(reviewed, manifest);
    if (values.json) {
      io.out(jsonText({ ...comparison, manifest }));
    } else {
      const lines = [
        comparison.matches
          ? "Matches the reviewed bundle."
          : "Bundle differs from the reviewed inventory.",
        ...comparison.added.map((p) => `ADDED ${quote(p)}`),
        ...comparison.removed.map((p) => `REMOVED ${quote(p)}`),
        ...comparison.changed.map((p) => `CHANGED ${quote(p)}`),
      ];
      io.out(renderManifest(manifest, lines));
    }
    return comparison.matches ? 0 : 1;
  } catch (error) {
    if (!(error instanceof BundleError)) throw error;
    if (values.json) {
      io.out(jsonText({ schema: BUNDLE_ERROR_SCHEMA, error: error.message }));
    } else {
      io.err(`Bundle check failed: ${quote(error.message)}\n`);
    }
    return 2;
  }
}

function renderManifest(manifest: BundleManifest, extra: string[] = []): string {
  return [
    `Bundle SHA-256: ${manifest.sha256}`,
    `${manifest.files.length} files, ${manifest.total_bytes} bytes`,
    ...extra,
    BUNDLE_SCOPE,
  ].join("\n") + "\n";
}
