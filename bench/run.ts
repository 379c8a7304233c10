// The benchmark suite (`deno task bench`). Generates its fixtures under .bench/, then measures
// each target of SPEC §9 that exists so far, printing medians and ratios. Rerun any time; numbers
// on a shared 2-core VM vary by a few percent between runs.
//
//   deno task bench            all benchmarks
//   deno task bench bundle     only the bundle benchmark
import { mkdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { readBundle } from "../lib/bundle/read.ts";
import { floorBundle } from "./floor_bundle.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const WORK = join(ROOT, ".bench");

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function timeIt(runs: number, fn: () => Promise<unknown>): Promise<number> {
  await fn(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return median(times);
}

async function timeProcess(runs: number, args: string[]): Promise<number> {
  return await timeIt(runs, async () => {
    const { code } = await new Deno.Command(Deno.execPath(), {
      args,
      stdout: "null",
      stderr: "inherit",
    }).output();
    if (code !== 0) throw new Error(`${args.join(" ")} exited ${code}`);
  });
}

/** Deterministic pseudo-random bytes, so hashing does real work and reruns agree. */
function pseudoRandom(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = seed | 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** A 512-file skill of about 31 MiB: SKILL.md plus 511 assets of 64,000 bytes in 8 folders. */
async function bundleFixture(): Promise<string> {
  const dir = join(WORK, "bundle-512");
  const marker = join(dir, "assets-7", "asset-510.bin");
  if (await stat(marker).then(() => true, () => false)) return dir;
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, "SKILL.md"),
    "---\nname: bundle-512\ndescription: Benchmark skill with 511 assets.\n---\nUse the assets.\n",
  );
  for (let i = 0; i < 511; i++) {
    const folder = join(dir, `assets-${i % 8}`);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, `asset-${i}.bin`), pseudoRandom(64_000, i + 1));
  }
  return dir;
}

async function benchBundle(): Promise<void> {
  const dir = await bundleFixture();
  const { manifest } = await readBundle(dir);
  const mib = (manifest.total_bytes / 1024 / 1024).toFixed(1);
  console.log(`bundle: ${manifest.files.length} files, ${mib} MiB`);
  const reader = await timeIt(15, () => readBundle(dir));
  const floor = await timeIt(15, () => floorBundle(dir));
  console.log(
    `  in-process  readBundle ${reader.toFixed(1)} ms  floor ${floor.toFixed(1)} ms  ratio ${
      (reader / floor).toFixed(2)
    } (target <= 1.3)`,
  );
  const main = join(ROOT, "main.ts");
  const floorScript = join(ROOT, "bench", "floor_bundle.ts");
  const cli = await timeProcess(9, ["run", "-A", main, "bundle", "--json", dir]);
  const floorProcess = await timeProcess(9, ["run", "-A", floorScript, dir]);
  console.log(
    `  process     bundle --json ${cli.toFixed(0)} ms  floor ${floorProcess.toFixed(0)} ms  ratio ${
      (cli / floorProcess).toFixed(2)
    } (target <= 1.5)`,
  );
}

const BENCHES: Record<string, () => Promise<void>> = { bundle: benchBundle };
const selected = process.argv.slice(2);
for (const [name, bench] of Object.entries(BENCHES)) {
  if (selected.length === 0 || selected.includes(name)) await bench();
}
