/**
 * A file's stamp: what says, without reading it, that a file is still the one
 * seen before. One `lstat`: device, inode, size, the modification time in
 * whole milliseconds and the change time in whole seconds (Deno reports no
 * finer change time), written `dev:ino:size:mtime:ctime`. Any write to a file
 * or a `touch` changes its change time (which no unprivileged call can set
 * back) and a rename onto its path gives it another inode, so a file whose
 * stamp is unchanged, and whose `newest` time was well in the past when it
 * was first stamped, has the same bytes (see `SETTLE_MS` in
 * `lib/catalog/_parse_cache.ts`).
 *
 * Under Deno the runtime's own `lstat` is used: `node:fs`'s costs about three
 * times as much there, and a listing of 10,000 skills pays it per file. Under
 * Node and Bun it is `lstatSync`. All three give the same stamp for the same
 * file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtempSync, writeFileSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { fileStampSync } from "./_stamp.ts";
 * const file = join(mkdtempSync(join(tmpdir(), "stamp-")), "SKILL.md");
 * writeFileSync(file, "hello");
 * assert.equal(fileStampSync(file)?.kind, "file");
 * assert.equal(fileStampSync(file + ".missing"), undefined);
 * ```
 * @module
 */
import { lstatSync } from "node:fs";

/** What {@linkcode fileStampSync} reports of a path. */
export interface FileStamp {
  /**
   * `file` for a regular file; `link` for a symbolic link (not followed); `other` for the rest;
   * `unknown` when something is there that cannot be stamped (an `lstat` refused, or a runtime
   * that reports no inode or change time): `stamp` is then empty and nothing may be trusted.
   */
  kind: "file" | "link" | "other" | "unknown";
  /** `dev:ino:size:mtime:ctime`: the modification time in milliseconds, the change time in seconds. */
  stamp: string;
  /**
   * The latest moment the file was last changed, by its two times (milliseconds since the epoch):
   * the modification time, or the last millisecond of the change time's second when later.
   */
  newest: number;
}

/** Deno's `lstat`, when running under Deno. */
const denoLstat = (globalThis as { Deno?: { lstatSync?: typeof Deno.lstatSync } }).Deno
  ?.lstatSync;

/** What is there but cannot be stamped: never equal to a kept stamp. */
const UNKNOWN: FileStamp = { kind: "unknown", stamp: "", newest: Number.POSITIVE_INFINITY };

/**
 * The stamp of `path` itself (a final link is not followed); `undefined`
 * only when nothing is there (`ENOENT`, or `ENOTDIR`: a file where a folder
 * was), kind `unknown` when something is there that cannot be stamped.
 */
export function fileStampSync(path: string): FileStamp | undefined {
  try {
    if (denoLstat !== undefined) {
      const info = denoLstat(path);
      const mtime = info.mtime?.getTime();
      const ctime = info.ctime?.getTime();
      if (info.ino === null || mtime === undefined || ctime === undefined) return UNKNOWN;
      return stampOf(info.isSymlink ? "link" : info.isFile ? "file" : "other", info, mtime, ctime);
    }
    const info = lstatSync(path, { throwIfNoEntry: false });
    if (info === undefined) return undefined;
    const kind = info.isSymbolicLink() ? "link" : info.isFile() ? "file" : "other";
    return stampOf(kind, info, info.mtimeMs, info.ctimeMs);
  } catch (error) {
    const code = (error as { code?: string })?.code;
    return code === "ENOENT" || code === "ENOTDIR" ? undefined : UNKNOWN;
  }
}

/** The stamp of one `lstat` result (times in milliseconds, as the runtime gives them). */
function stampOf(
  kind: FileStamp["kind"],
  info: { dev: number; ino: number | null; size: number },
  mtimeMs: number,
  ctimeMs: number,
): FileStamp {
  const mtime = Math.floor(mtimeMs);
  const ctime = Math.floor(ctimeMs / 1000);
  const stamp = `${info.dev}:${info.ino}:${info.size}:${mtime}:${ctime}`;
  // The change time is known to the second: its last millisecond bounds it.
  return { kind, stamp, newest: Math.max(mtime, ctime * 1000 + 999) };
}
