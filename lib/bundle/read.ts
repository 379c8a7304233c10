/**
 * The filesystem reader of the bundle format: walks a skill directory with
 * `lstat` (never following links), enforces every limit, streams each regular
 * file into SHA-256 through `lib/fs`, and re-walks the tree at the end, so a
 * directory that changes while it is read is reported, never hashed.
 *
 * @example
 * ```ts
 * import { readBundle } from "./read.ts";
 * const { manifest, skillBytes } = await readBundle("/skills/pdf-forms");
 * console.log(manifest.sha256, skillBytes.length);
 * ```
 * @module
 */
import { createHash } from "node:crypto";
import type { BigIntStats } from "node:fs";
import { lstat, readdir, realpath } from "node:fs/promises";
import { join } from "node:path";
import { mapConcurrent } from "../concurrency.ts";
import { decodeUtf8, ReadError, sameIdentity, streamRegularFile } from "../fs/mod.ts";
import {
  buildManifest,
  BUNDLE_LIMITS,
  BundleError,
  type BundleFile,
  type BundleManifest,
  comparePaths,
  isBundlePath,
  MESSAGES,
} from "./manifest.ts";

/** What {@linkcode readBundle} returns. */
export interface BundleRead {
  manifest: BundleManifest;
  /** The exact SKILL.md bytes that were hashed into the manifest. */
  skillBytes: Uint8Array<ArrayBuffer>;
}

/** Messages of the reader's refusals. */
export const READ_MESSAGES = {
  chooseDirectory: "Choose a skill directory containing SKILL.md.",
  unsupportedPath: "Bundle contains an unsupported relative path.",
  tooDeep: "Bundle exceeds 1024 entries or 12 path levels.",
  tooManyFiles: "A bundle must not exceed 512 files.",
  overLimit: "Bundle exceeds its 128 KiB SKILL.md, 16 MiB file or 32 MiB total limit.",
  grew: "Bundle grew beyond its byte limit during inspection.",
  changed: "Bundle changed during inspection; retry a stable directory.",
  skillNotUtf8: "SKILL.md must be valid UTF-8 text.",
} as const;

const CONCURRENCY = 8;

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

async function listNames(abs: string): Promise<string[]> {
  return (await readdir(abs)).sort(comparePaths);
}

function limitFor(rel: string): number {
  return rel === "SKILL.md" ? BUNDLE_LIMITS.maxSkillBytes : BUNDLE_LIMITS.maxFileBytes;
}

async function walk(walkState: Walk, abs: string, rel: string, levels: number): Promise<void> {
  const names = await listNames(abs);
  walkState.dirs.push({ rel, abs, stat: await lstat(abs, { bigint: true }), names });
  for (const name of names) {
    walkState.entries++;
    if (walkState.entries > BUNDLE_LIMITS.maxEntries || levels + 1 > BUNDLE_LIMITS.maxDepth) {
      throw new BundleError(READ_MESSAGES.tooDeep);
    }
    const childRel = rel === "" ? name : `${rel}/${name}`;
    if (!isBundlePath(childRel)) throw new BundleError(READ_MESSAGES.unsupportedPath);
    const childAbs = join(abs, name);
    const stat = await lstat(childAbs, { bigint: true });
    if (stat.isSymbolicLink()) {
      throw new BundleError(`Bundle links are not supported: ${JSON.stringify(childRel)}`);
    }
    if (stat.isDirectory()) {
      await walk(walkState, childAbs, childRel, levels + 1);
    } else if (stat.isFile()) {
      walkState.files.push({ rel: childRel, abs: childAbs, stat });
      if (walkState.files.length > BUNDLE_LIMITS.maxFiles) {
        throw new BundleError(READ_MESSAGES.tooManyFiles);
      }
      walkState.total += Number(stat.size);
      if (stat.size > BigInt(limitFor(childRel)) || walkState.total > BUNDLE_LIMITS.maxTotalBytes) {
        throw new BundleError(READ_MESSAGES.overLimit);
      }
    } else {
      throw new BundleError(`Bundle requires regular files: ${JSON.stringify(childRel)}`);
    }
  }
}

async function hashFile(
  file: Visited,
): Promise<{ row: BundleFile; bytes?: Uint8Array<ArrayBuffer> }> {
  const hash = createHash("sha256");
  try {
    const result = await streamRegularFile(file.abs, {
      maxBytes: limitFor(file.rel),
      expected: file.stat,
      onChunk: (chunk) => hash.update(chunk),
      keep: file.rel === "SKILL.md",
    });
    return {
      row: { path: file.rel, bytes: result.size, sha256: hash.digest("hex") },
      bytes: result.bytes,
    };
  } catch (error) {
    if (error instanceof ReadError) {
      if (error.kind === "grew" || error.kind === "too-large") {
        throw new BundleError(READ_MESSAGES.grew);
      }
      if (error.kind !== "unreadable") throw new BundleError(READ_MESSAGES.changed);
      throw new BundleError(
        `Bundle file could not be read: ${JSON.stringify(file.rel)} (${
          error.code ?? error.message
        })`,
      );
    }
    throw error;
  }
}

/** Re-lstats and re-lists everything visited; any difference means the tree moved. */
async function assertUnchanged(state: Walk): Promise<void> {
  for (const dir of state.dirs) {
    let names: string[];
    let stat: BigIntStats;
    try {
      names = await listNames(dir.abs);
      stat = await lstat(dir.abs, { bigint: true });
    } catch {
      throw new BundleError(READ_MESSAGES.changed);
    }
    if (!sameIdentity(dir.stat, stat) || names.join("\0") !== dir.names.join("\0")) {
      throw new BundleError(READ_MESSAGES.changed);
    }
  }
  for (const file of state.files) {
    const stat = await lstat(file.abs, { bigint: true }).catch(() => undefined);
    if (stat === undefined || !sameIdentity(file.stat, stat)) {
      throw new BundleError(READ_MESSAGES.changed);
    }
  }
}

/**
 * Reads a skill directory into a manifest. A symlinked root is followed once
 * (its real path is taken); anything beneath it that is a link or not a
 * regular file or directory is refused. Throws {@linkcode BundleError}.
 */
export async function readBundle(directory: string): Promise<BundleRead> {
  let root: string;
  try {
    root = await realpath(directory);
    if (!(await lstat(root)).isDirectory()) throw new Error("not a directory");
  } catch {
    throw new BundleError(READ_MESSAGES.chooseDirectory);
  }
  const state: Walk = { dirs: [], files: [], entries: 0, total: 0 };
  try {
    await walk(state, root, "", 0);
  } catch (error) {
    if (error instanceof BundleError) throw error;
    const code = (error as { code?: string })?.code;
    if (code === "ENOENT" || code === "ENOTDIR") throw new BundleError(READ_MESSAGES.changed);
    throw new BundleError(`Bundle directory could not be read (${code ?? String(error)}).`);
  }
  if (!state.files.some((f) => f.rel === "SKILL.md")) throw new BundleError(MESSAGES.noSkill);
  const hashed = await mapConcurrent(state.files, CONCURRENCY, hashFile);
  const skillBytes = hashed.find((h) => h.row.path === "SKILL.md")!.bytes!;
  try {
    decodeUtf8(skillBytes);
  } catch {
    throw new BundleError(READ_MESSAGES.skillNotUtf8);
  }
  await assertUnchanged(state);
  return { manifest: await buildManifest(hashed.map((h) => h.row)), skillBytes };
}
