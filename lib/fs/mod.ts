/**
 * The only code that opens skill files and writes the tool's files: bounded, regular-file,
 * no-follow, non-blocking reads (whole or streamed), fatal UTF-8, lstat walks and stamps, and the
 * one safe writer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtempSync, writeFileSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { readBounded } from "./mod.ts";
 * const file = join(mkdtempSync(join(tmpdir(), "fs-")), "SKILL.md");
 * writeFileSync(file, "hello");
 * assert.equal((await readBounded(file, { maxBytes: 1024 })).bytes.length, 5);
 * ```
 *
 * @module
 */
export { type DirEntry, listDirSync } from "./_dir.ts";
export { type FileStamp, fileStampSync } from "./_stamp.ts";
export {
  decodeUtf8,
  isWithin,
  lstatOrUndefined,
  readBounded,
  readBoundedSync,
  readBoundedTextSync,
  ReadError,
  type ReadErrorKind,
  realPaths,
  resolveLink,
  sameIdentity,
  streamRegularFileSync,
} from "./_read.ts";
export {
  appendText,
  makeFolder,
  targetRefusal,
  WriteError,
  type WriteOptions,
  writeWhole,
} from "./_write.ts";
