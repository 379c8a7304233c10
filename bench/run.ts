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

import { currentDenoDir } from "../tests/helpers.ts";

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
  const floor = await timeIt(15, () => Promise.resolve(floorBundle(dir)));
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

/** A home with `perAgent` skills in each of `agents` user folders, and an empty project. */
async function catalogFixture(name: string, folders: readonly string[], perFolder: number) {
  const dir = join(WORK, name);
  const home = join(dir, "home");
  const project = join(dir, "project");
  const last = join(home, folders[folders.length - 1], `skill-${perFolder - 1}`, "SKILL.md");
  if (!(await stat(last).then(() => true, () => false))) {
    await mkdir(join(project, ".git"), { recursive: true });
    for (const [f, folder] of folders.entries()) {
      for (let i = 0; i < perFolder; i++) {
        const skill = join(home, folder, `skill-${i}`);
        await mkdir(skill, { recursive: true });
        await writeFile(
          join(skill, "SKILL.md"),
          `---\nname: skill-${i}\ndescription: Generated skill ${i} of folder ${f}. Use it when the benchmark asks for skill ${i}.\n` +
            `license: MIT\nmetadata:\n  author: bench\n  version: "1.${i}"\n---\n# Skill ${i}\n\n` +
            `Step one: read the input.\nStep two: write the output for folder ${f}.\n`.repeat(8),
        );
      }
    }
  }
  return { home, project };
}

const TEN_FOLDERS = [
  ".claude/skills",
  ".codex/skills",
  ".cursor/skills",
  ".gemini/skills",
  ".copilot/skills",
  ".codeium/windsurf/skills",
  ".config/goose/skills",
  ".config/opencode/skills",
  ".roo/skills",
  ".kiro/skills",
];

async function timeList(home: string, project: string, runs: number): Promise<number> {
  return await timeIt(runs, async () => {
    const { code, stdout } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", join(ROOT, "main.ts"), "list", "--json"],
      cwd: project,
      env: { HOME: home, DSH_HOME: join(home, ".dsh"), DENO_DIR: await currentDenoDir() },
      stdout: "piped",
      stderr: "inherit",
    }).output();
    if (code !== 0 || stdout.length === 0) throw new Error(`list exited ${code}`);
  });
}

/** openskills 1.5.0 from the npm registry, installed once under .bench/. */
async function openskillsBin(): Promise<string> {
  const dir = join(WORK, "openskills");
  const bin = join(dir, "node_modules", "openskills", "dist", "cli.js");
  if (!(await stat(bin).then(() => true, () => false))) {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, "package.json"), '{"private":true}\n');
    const { code } = await new Deno.Command("npm", {
      args: ["install", "--no-audit", "--no-fund", "openskills@1.5.0"],
      cwd: dir,
      stdout: "null",
      stderr: "inherit",
    }).output();
    if (code !== 0) throw new Error("npm install openskills@1.5.0 failed");
  }
  return bin;
}

async function benchList(): Promise<void> {
  const one = await catalogFixture("claude-10k", [".claude/skills"], 10_000);
  const bin = await openskillsBin();
  const ours = await timeList(one.home, one.project, 5);
  const peer = await timeIt(5, async () => {
    const { code } = await new Deno.Command("node", {
      args: [bin, "list"],
      cwd: one.project,
      env: { HOME: one.home },
      stdout: "null",
      stderr: "inherit",
    }).output();
    if (code !== 0) throw new Error(`openskills exited ${code}`);
  });
  console.log("list: 10,000 skills in ~/.claude/skills (whole process, median of 5)");
  console.log(
    `  list --json ${ours.toFixed(0)} ms  openskills 1.5.0 list ${peer.toFixed(0)} ms  ratio ${
      (ours / peer).toFixed(2)
    } (target <= 1.5)`,
  );
  const small = await catalogFixture("ten-1k", TEN_FOLDERS, 100);
  const large = await catalogFixture("ten-10k", TEN_FOLDERS, 1000);
  const t1 = await timeList(small.home, small.project, 5);
  const t10 = await timeList(large.home, large.project, 5);
  console.log("list: ten agent folders (whole process, median of 5)");
  console.log(
    `  1,000 skills ${t1.toFixed(0)} ms  10,000 skills ${
      t10.toFixed(0)
    } ms (target <= 800)  10k/1k ${(t10 / t1).toFixed(1)} (target <= 12)`,
  );
}

/** Time from process start to the `initialize` result, over a raw pipe. */
async function timeInitialize(
  home: string,
  project: string,
  command: string[] = [Deno.execPath(), "run", "-A", join(ROOT, "main.ts")],
): Promise<number> {
  const start = performance.now();
  const child = new Deno.Command(command[0], {
    args: [...command.slice(1), "mcp", "--cwd", project],
    env: { HOME: home, DSH_HOME: join(home, ".dsh"), DENO_DIR: await currentDenoDir() },
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(
    JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "bench", version: "1" },
      },
    }) + "\n",
  ));
  const reader = child.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  const elapsed = performance.now() - start;
  if (!text.includes('"serverInfo"')) throw new Error(`no initialize result: ${text}`);
  await writer.close();
  reader.releaseLock();
  await child.stdout.cancel();
  await child.status;
  return elapsed;
}

async function benchMcp(): Promise<void> {
  const dir = join(WORK, "mcp");
  const home = join(dir, "home");
  const project = join(dir, "project");
  const skill = join(home, ".claude", "skills", "big-skill");
  await mkdir(join(project, ".git"), { recursive: true });
  await mkdir(join(skill, "assets"), { recursive: true });
  await writeFile(
    join(skill, "SKILL.md"),
    "---\nname: big-skill\ndescription: A 1 MiB skill for the open_skill benchmark.\n---\nUse the assets.\n",
  );
  for (let i = 0; i < 16; i++) {
    await writeFile(join(skill, "assets", `part-${i}.bin`), pseudoRandom(64 * 1024, i + 100));
  }
  const times: number[] = [];
  await timeInitialize(home, project); // warm-up
  for (let i = 0; i < 9; i++) times.push(await timeInitialize(home, project));
  console.log("mcp: process start to initialize result (deno run, median of 9)");
  console.log(`  ${median(times).toFixed(0)} ms (target <= 150)`);
  const binary = join(ROOT, "dist", "bin", "dsh-skills-anywhere-linux-x64");
  if (await stat(binary).then(() => true, () => false)) {
    const binTimes: number[] = [];
    await timeInitialize(home, project, [binary]);
    for (let i = 0; i < 9; i++) binTimes.push(await timeInitialize(home, project, [binary]));
    console.log("mcp: process start to initialize result (linux-x64 binary, median of 9)");
    console.log(`  ${median(binTimes).toFixed(0)} ms (target <= 80)`);
  } else {
    console.log(
      "mcp: binary not built (deno task build:bin linux-x64); its start-up is not measured",
    );
  }

  const { Client } = await import("@modelcontextprotocol/client");
  const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
  const { manifest } = await readBundle(skill);
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "-A", join(ROOT, "main.ts"), "mcp", "--cwd", project],
      env: { HOME: home, DSH_HOME: join(home, ".dsh"), DENO_DIR: await currentDenoDir() },
      stderr: "ignore",
    }),
  );
  const calls: number[] = [];
  for (let i = 0; i < 41; i++) {
    const start = performance.now();
    const result = await client.callTool({
      name: "open_skill",
      arguments: { name: "big-skill", expected_bundle_sha256: manifest.sha256 },
    });
    if (result.isError) throw new Error(JSON.stringify(result.content));
    if (i > 0) calls.push(performance.now() - start);
  }
  await client.close();
  const mib = (manifest.total_bytes / 1024 / 1024).toFixed(2);
  console.log(`mcp: warm open_skill with expected_bundle_sha256, ${mib} MiB skill (p50 of 40)`);
  console.log(`  ${median(calls).toFixed(1)} ms (target <= 20)`);
}

const BENCHES: Record<string, () => Promise<void>> = {
  bundle: benchBundle,
  list: benchList,
  mcp: benchMcp,
};
const selected = process.argv.slice(2);
for (const [name, bench] of Object.entries(BENCHES)) {
  if (selected.length === 0 || selected.includes(name)) await bench();
}
