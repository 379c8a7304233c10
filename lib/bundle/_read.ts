/**
 * The filesystem reader of the bundle format: walks a skill directory with
 * `lstat` (never following links), enforces every limit, streams each regular
 * file into SHA-256 through `lib/fs`, and re-walks the tree at the end, so a
 * directory that changes while it is read is reported, never hashed.
 *
 * @example
 * ```ts
 * import { readBundle } from "./_read.ts";
 * // Type-checked, not run by the doc test: it reads the skill folder /skills/pdf-forms.
 * async function example() {
 *   const { manifest, skillBytes } = await readBundle("/skills/pdf-forms");
 *   console.log(manifest.sha256, skillBytes.length);
 * }
 * ```
 * @module
 */
import { createDigest } from "../hash.ts";
import type { DigestCache } from "./_digests.ts";
import type { BigIntStats } from "node:fs";
import { lstatSync, readdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { ReadError, sameIdentity, streamRegularFileSync } from "../fs/mod.ts";
import { compareCodeUnits, NOT_UTF8, tryDecodeUtf8 } from "../util.ts";
import {
  buildManifest,
  BUNDLE_LIMITS,
  BundleError,
  type BundleFile,
  type BundleManifest,
  type BundleReadErrorKind,
  fileLimit,
  fileSizeRefusal,
  grewRefusal,
  isBundlePath,
  MESSAGES,
  totalSizeRefusal,
} from "./_manifest.ts";

/** What {@linkcode readBundle} returns. */
export interface BundleRead {
  manifest: BundleManifest;
  /** The exact SKILL.md bytes that were hashed into the manifest. */
  skillBytes: Uint8Array<ArrayBuffer>;
}

type FixedKind = Extract<
  BundleReadErrorKind,
  "not-directory" | "unsupported-path" | "changed" | "skill-not-utf8"
>;

const { maxEntries, maxDepth, maxFiles } = BUNDLE_LIMITS;

/** The sentence of each reader refusal that names no path. */
export const READ_MESSAGES: Readonly<Record<FixedKind, string>> = {
  "not-directory": "Not a directory; choose a skill directory containing SKILL.md",
  "unsupported-path": "Bundle contains an unsupported relative path",
  changed: "Bundle changed during inspection; retry a stable directory",
  "skill-not-utf8": `SKILL.md is ${NOT_UTF8}`,
};

/**
 * The refusal of a directory that does not exist (kind `not-directory`, its own words).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { NO_SUCH_DIRECTORY } from "./_read.ts";
 * assert.equal(NO_SUCH_DIRECTORY, "No such directory");
 * ```
 */
export const NO_SUCH_DIRECTORY = "No such directory";

function refuse(kind: FixedKind): BundleError {
  return new BundleError(kind, READ_MESSAGES[kind]);
}

/**
 * The `not-directory` refusal of `path`: nothing there ({@linkcode NO_SUCH_DIRECTORY}), or
 * something that is not a directory.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { notDirectory } from "./_read.ts";
 * assert.equal(notDirectory("/nonexistent").message, "No such directory");
 * ```
 */
export function notDirectory(path: string): BundleError {
  const there = (() => {
    try {
      lstatSync(path);
      return true;
    } catch {
      return false;
    }
  })();
  return there ? refuse("not-directory") : new BundleError("not-directory", NO_SUCH_DIRECTORY);
}

/** A count limit broken at `path`: too many entries, path levels or files. */
function countRefusal(
  kind: "entries" | "levels" | "files",
  path: string,
  count: number,
): BundleError {
  const quoted = JSON.stringify(path);
  switch (kind) {
    case "entries":
      return new BundleError(
        "too-deep",
        `A bundle holds at most ${maxEntries} entries (files and folders); ${quoted} is entry ${count}`,
      );
    case "levels":
      return new BundleError(
        "too-deep",
        `A bundle holds at most ${maxDepth} path levels; ${quoted} is ${count} levels deep`,
      );
    case "files":
      return new BundleError(
        "too-many-files",
        `A bundle holds at most ${maxFiles} files; ${quoted} is file ${count}`,
      );
  }
}

interface Visited {
  rel: string;
  abs: string;
  stat: BigIntStats;
}

interface Walk {
  dirs: Array<Visited & { names: string[] }>;
  files: Visited[];
  entries: number;
  total: number;
}

function listNames(abs: string): string[] {
  return readdirSync(abs).sort(compareCodeUnits);
}

function walk(walkState: Walk, abs: string, rel: string, levels: number): void {
  const names = listNames(abs);
  walkState.dirs.push({ rel, abs, stat: lstatSync(abs, { bigint: true }), names });
  for (const name of names) {
    walkState.entries++;
    const childRel = rel === "" ? name : `${rel}/${name}`;
    if (walkState.entries > maxEntries) throw countRefusal("entries", childRel, walkState.entries);
    if (levels + 1 > maxDepth) throw countRefusal("levels", childRel, levels + 1);
    if (!isBundlePath(childRel)) throw refuse("unsupported-path");
    const childAbs = join(abs, name);
    const stat = lstatSync(childAbs, { bigint: true });
    if (stat.isSymbolicLink()) {
      throw new BundleError("link", `Bundle links are not supported: ${JSON.stringify(childRel)}`);
    }
    if (stat.isDirectory()) {
      walk(walkState, childAbs, childRel, levels + 1);
    } else if (stat.isFile()) {
      walkState.files.push({ rel: childRel, abs: childAbs, stat });
      const count = walkState.files.length;
      if (count > maxFiles) throw countRefusal("files", childRel, count);
      const size = Number(stat.size);
      if (size > fileLimit(childRel)) throw fileSizeRefusal(childRel, size);
      walkState.total += size;
      if (walkState.total > BUNDLE_LIMITS.maxTotalBytes) {
        throw totalSizeRefusal(childRel, walkState.total);
      }
    } else {
      throw new BundleError(
        "not-regular",
        `Bundle requires regular files: ${JSON.stringify(childRel)}`,
      );
    }
  }
}

type Hashed = { row: BundleFile; bytes?: Uint8Array<ArrayBuffer> };

/** One file's row: from `digests` when its identity is known there, else read and kept there. */
function hashCached(file: Visited, digests: DigestCache | undefined): Hashed {
  const known = digests?.get(file.stat);
  const keep = file.rel === "SKILL.md";
  if (known !== undefined && (!keep || known.bytes !== undefined)) {
    return { row: { path: file.rel, bytes: known.size, sha256: known.sha256 }, bytes: known.bytes };
  }
  const hashed = hashFile(file);
  digests?.set(file.stat, {
    sha256: hashed.row.sha256,
    size: hashed.row.bytes,
    bytes: hashed.bytes,
  });
  return hashed;
}

function hashFile(file: Visited): Hashed {
  const hash = createDigest("sha256");
  try {
    const result = streamRegularFileSync(file.abs, {
      maxBytes: fileLimit(file.rel),
      expected: file.stat,
      onChunk: (chunk) => hash.update(chunk),
      keep: file.rel === "SKILL.md",
      verifyAfter: false, // assertUnchanged re-checks every file once all are read
    });
    return {
      row: { path: file.rel, bytes: result.size, sha256: hash.digest("hex") },
      bytes: result.bytes,
    };
  } catch (error) {
    if (error instanceof ReadError) {
      if (error.kind === "grew" || error.kind === "too-large") throw grewRefusal(file.rel);
      if (error.kind !== "unreadable") throw refuse("changed");
      throw new BundleError(
        "unreadable",
        `Bundle file could not be read: ${JSON.stringify(file.rel)} (${
          error.code ?? error.message
        })`,
      );
    }
    throw error;
  }
}

/** Re-lstats and re-lists everything visited; any difference means the tree moved. */
function assertUnchanged(state: Walk): void {
  for (const dir of state.dirs) {
    let names: string[];
    let stat: BigIntStats;
    try {
      names = listNames(dir.abs);
      stat = lstatSync(dir.abs, { bigint: true });
    } catch {
      throw refuse("changed");
    }
    if (!sameIdentity(dir.stat, stat) || names.join("\0") !== dir.names.join("\0")) {
      throw refuse("changed");
    }
  }
  for (const file of state.files) {
    let stat: BigIntStats | undefined;
    try {
      stat = lstatSync(file.abs, { bigint: true });
    } catch {
      stat = undefined;
    }
    if (stat !== undefined && stat.size > BigInt(fileLimit(file.rel))) throw grewRefusal(file.rel);
    if (stat === undefined || !sameIdentity(file.stat, stat)) {
      throw refuse("changed");
    }
  }
}

/** The real path of `directory`, which must be a directory. */
function realDirectory(directory: string): string {
  try {
    const root = realpathSync(directory);
    if (lstatSync(root).isDirectory()) return root;
  } catch {
    // nothing there, or not readable: refused below
  }
  throw notDirectory(directory);
}

/** Walks the tree under `root`, turning a system error into a refusal. */
function walkRoot(root: string): Walk {
  const state: Walk = { dirs: [], files: [], entries: 0, total: 0 };
  try {
    walk(state, root, "", 0);
  } catch (error) {
    if (error instanceof BundleError) throw error;
    const code = (error as { code?: string })?.code;
    if (code === "ENOENT" || code === "ENOTDIR") throw refuse("changed");
    throw new BundleError(
      "unreadable",
      `Bundle directory could not be read (${code ?? String(error)})`,
    );
  }
  if (!state.files.some((f) => f.rel === "SKILL.md")) {
    throw new BundleError("no-skill", MESSAGES["no-skill"]);
  }
  return state;
}

/** Options of {@linkcode readBundle}. */
export interface ReadBundleOptions {
  /** Digests kept by file identity: a file seen before is not read again. */
  digests?: DigestCache;
}

/**
 * Reads a skill directory into a manifest (synchronous system calls inside:
 * far cheaper than promise round trips for hundreds of small files). A
 * symlinked root is followed once (its real path is taken); anything beneath
 * it that is a link or not a regular file or directory is refused. With
 * `options.digests`, a file whose identity is known is not read again. Throws a
 * {@linkcode BundleError} of a `BundleReadErrorKind` (or `no-skill`).
 *
 * @example
 * ```ts
 * import { readBundle } from "./_read.ts";
 * const { manifest } = await readBundle("testdata/check/clean-skill");
 * console.log(manifest.files.length);
 * ```
 */
export async function readBundle(
  directory: string,
  options: ReadBundleOptions = {},
): Promise<BundleRead> {
  const state = walkRoot(realDirectory(directory));
  const hashed = state.files.map((file) => hashCached(file, options.digests));
  const skillBytes = hashed.find((h) => h.row.path === "SKILL.md")!.bytes!;
  if (tryDecodeUtf8(skillBytes) === undefined) throw refuse("skill-not-utf8");
  assertUnchanged(state);
  return { manifest: await buildManifest(hashed.map((h) => h.row)), skillBytes };
}
