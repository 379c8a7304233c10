// The floor for `bundle`: walk a directory, read every file and SHA-256 it with node:crypto,
// nothing else (no limits, no identity checks, no manifest). Used in-process by bench/run.ts and
// as a whole process (`deno run -A bench/floor_bundle.ts <dir>`) for the process-level ratio.
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";

/** Reads and hashes every file below `dir`; returns the number of bytes hashed. */
export async function floorBundle(dir: string): Promise<number> {
  let total = 0;
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const bytes = await readFile(join(entry.parentPath, entry.name));
    createHash("sha256").update(bytes).digest("hex");
    total += bytes.length;
  }
  return total;
}

if (import.meta.main) {
  const total = await floorBundle(process.argv[2]);
  process.stdout.write(`${total}\n`);
}
