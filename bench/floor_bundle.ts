/**
 * The floor for `bundle`: walk a directory, read every file and SHA-256 it with node:crypto,
 * nothing else (no limits, no identity checks, no manifest), with the fastest calls the runtime
 * has (synchronous readdir and readFile). Used in-process by bench/run.ts and as a whole process
 * (`deno run -A bench/floor_bundle.ts <dir>`) for the process-level ratio.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";

/** Reads and hashes every file below `dir`; returns the number of bytes hashed. */
export function floorBundle(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const bytes = readFileSync(join(entry.parentPath, entry.name));
    createHash("sha256").update(bytes).digest("hex");
    total += bytes.length;
  }
  return total;
}

if (import.meta.main) {
  process.stdout.write(`${floorBundle(process.argv[2])}\n`);
}
