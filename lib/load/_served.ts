/**
 * The verified read of a served file: what a surface does before it hands one
 * file of a shared skill (a `skill://` resource) to a client. The file was
 * published with a size and a SHA-256 (the rows of one bundle read, see
 * `share.ts`); it is read again now, and its bytes are served only when they
 * are exactly what was published:
 *
 * - the published path is its own real path (no link on the way, since the
 *   skill's folder was resolved when it was published);
 * - the bounded reader (`lib/fs/`) opens it: a regular file, never
 *   following a final link, never blocking, at most the published size, and
 *   its reported size must equal the bytes read;
 * - the bytes read have the published size and SHA-256.
 *
 * Anything else (a file that is gone, swapped for a link, grown, shrunk or
 * edited) is a `changed` failure: the surface rebuilds what it publishes and
 * refuses or retries in its own words. No file text is ever in a message.
 *
 * @example
 * ```ts
 * import { readServedSync } from "./_served.ts";
 * const read = readServedSync({
 *   abs: "/home/me/.claude/skills/pdf/SKILL.md",
 *   size: 120,
 *   sha256: "0".repeat(64),
 * });
 * if (!read.ok) console.log(read.kind); // "changed"
 * ```
 * @module
 */
import { realpathSync } from "node:fs";
import { type Failure, failure } from "../errors.ts";
import { readBoundedSync } from "../fs/mod.ts";
import { sha256Hex } from "../hash.ts";

/** A file as it was published: its real path, its size and its SHA-256. */
export interface PublishedFile {
  /** The file's absolute real path, as published. */
  abs: string;
  /** Its published size in bytes. */
  size: number;
  /** Its published SHA-256, lowercase hex. */
  sha256: string;
}

/** The outcome of {@linkcode readServedSync}: the bytes now, or `changed`. */
export type ServedRead = { ok: true; bytes: Uint8Array<ArrayBuffer> } | Failure<"changed">;

/** The one wording of a served file that is no longer what was published. */
const CHANGED = "the file is no longer the one published (its path, size or digest differs)";

/**
 * Reads a published file now and returns its bytes only when they are exactly what was
 * published (see the module doc); a `changed` failure otherwise. Never throws for the file's
 * state: a read error of any kind is `changed`.
 *
 * @example
 * ```ts
 * import { readServedSync } from "./_served.ts";
 * const read = readServedSync({ abs: "/skills/pdf/SKILL.md", size: 0, sha256: "e3b0c442" });
 * console.log(read.ok ? read.bytes.length : read.message);
 * ```
 */
export function readServedSync(file: PublishedFile): ServedRead {
  let bytes: Uint8Array<ArrayBuffer> | undefined;
  try {
    if (realpathSync(file.abs) === file.abs) {
      bytes = readBoundedSync(file.abs, { maxBytes: file.size, verifySize: true }).bytes;
    }
  } catch {
    bytes = undefined;
  }
  if (bytes === undefined || bytes.length !== file.size || sha256Hex(bytes) !== file.sha256) {
    return failure("changed", CHANGED);
  }
  return { ok: true, bytes };
}
