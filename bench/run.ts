/**
 * The benchmark suite (`deno task bench`): every performance target of the specification, each
 * measured here as a median of several runs, and every comparison (against the physical floor or a
 * peer tool) measured in the same run as a ratio, because shared machines are noisy. Fixtures are
 * generated under .bench/ (and the npm package and linux-x64 binary are built when missing). Prints
 * one table and writes bench/results.json.
 *
 *   deno task bench                 everything
 *   deno task bench bundle list     only the named groups (bundle, list, check, mcp, skills,
 *                                   verify, dist, http, search, server, startup); their figures
 *                                   replace the same figures in bench/results.json, the others
 *                                   are kept
 *   deno task bench server --quick  smaller counts and shorter cells (groups that support it);
 *                                   `--part=push` and the like select parts of a group
 *
 * @module
 */
import { cp, mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { connect as connectTcp, type Socket } from "node:net";
import { cpus, totalmem } from "node:os";
import { join } from "node:path";
import process from "node:process";
import { readBundle } from "../lib/bundle/mod.ts";
import { VERSION } from "../lib/version.ts";
import { npmTool } from "../scripts/npm_tools.ts";
import {
  exists,
  type Figure,
  figures,
  homeEnv,
  MAIN,
  median,
  pause,
  record,
  resetPeak,
  ROOT,
  rssOf,
  startHttpChild,
  WORK,
} from "./common.ts";
import { floorBundle } from "./floor_bundle.ts";
import { evaluate, loadEval, rankerOf } from "./search_eval.ts";
import { benchServer } from "./server.ts";
import { benchStartup } from "./startup.ts";

const NPM_CLI = join(ROOT, "npm", "dist", "dist", "cli.js");
const BINARY = join(ROOT, "dist", "bin", "dsh-skills-anywhere-linux-x64");

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

/**
 * Medians of `a` and `b` timed in alternation (after one warm-up each), so a machine that speeds
 * up or slows down during the runs moves both figures alike: how every peer ratio is measured.
 */
async function timePair(
  runs: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
): Promise<[number, number]> {
  await a();
  await b();
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < runs; i++) {
    for (const [index, fn] of [a, b].entries()) {
      const start = performance.now();
      await fn();
      times[index].push(performance.now() - start);
    }
  }
  return [median(times[0]), median(times[1])];
}

/** Runs a command to completion (stdout discarded); throws on a non-zero exit. */
async function runQuiet(
  command: string[],
  options: { cwd?: string; env?: Record<string, string>; okCodes?: number[] } = {},
) {
  const { code } = await new Deno.Command(command[0], {
    args: command.slice(1),
    cwd: options.cwd,
    env: options.env,
    stdout: "null",
    stderr: "inherit",
  }).output();
  if (!(options.okCodes ?? [0]).includes(code)) {
    throw new Error(`${command.join(" ").slice(0, 200)} exited ${code}`);
  }
}

async function timeCommand(runs: number, command: string[], options = {}): Promise<number> {
  return await timeIt(runs, () => runQuiet(command, options));
}

const denoRun = (...args: string[]) => [Deno.execPath(), "run", "-A", ...args];

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

// ---------------------------------------------------------------------------------------------
// bundle

/** A 512-file skill of about 31 MiB: SKILL.md plus 511 assets of 64,000 bytes in 8 folders. */
async function bundleFixture(): Promise<string> {
  const dir = join(WORK, "bundle-512");
  if (await exists(join(dir, "assets-7", "asset-510.bin"))) return dir;
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
  const mib = (manifest.total_bytes / 1048576).toFixed(1);
  console.log(`bundle: ${manifest.files.length} files, ${mib} MiB`);
  const reader = await timeIt(15, () => readBundle(dir));
  const floor = await timeIt(15, () => Promise.resolve(floorBundle(dir)));
  record("bundle in-process (ms)", reader, "ms", "report", true);
  record(
    "bundle in-process vs read+hash floor",
    reader / floor,
    "x",
    "<= 1.3",
    reader / floor <= 1.3,
  );
  const [cli, floorProcess] = await timePair(
    9,
    () => runQuiet(denoRun(MAIN, "bundle", "--json", dir)),
    () => runQuiet(denoRun(join(ROOT, "bench", "floor_bundle.ts"), dir)),
  );
  record("bundle --json process (ms)", cli, "ms", "report", true);
  record(
    "bundle process vs floor process",
    cli / floorProcess,
    "x",
    "<= 1.5",
    cli / floorProcess <= 1.5,
  );
}

// ---------------------------------------------------------------------------------------------
// list and check

/** A home with `perFolder` skills in each of `folders`, and an empty project with `.git`. */
async function catalogFixture(name: string, folders: readonly string[], perFolder: number) {
  const dir = join(WORK, name);
  const home = join(dir, "home");
  const project = join(dir, "project");
  const files = folders.flatMap((folder) =>
    Array.from({ length: perFolder }, (_, i) => join(home, folder, `skill-${i}`, "SKILL.md"))
  );
  if (!(await exists(files[files.length - 1]))) {
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
  return { home, project, files };
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

async function benchList(): Promise<void> {
  const one = await catalogFixture("claude-10k", [".claude/skills"], 10_000);
  const modules = await npmTool("openskills@1.5.0", "openskills/dist/cli.js");
  const env = await homeEnv(one.home);
  const [ours, peer] = await timePair(
    11,
    () => runQuiet(denoRun(MAIN, "list", "--json"), { cwd: one.project, env }),
    () =>
      runQuiet(["node", join(modules, "openskills", "dist", "cli.js"), "list"], {
        cwd: one.project,
        env: { HOME: one.home },
      }),
  );
  console.log("list: 10,000 skills in ~/.claude/skills");
  record("list --json, 10k in ~/.claude/skills (ms)", ours, "ms", "report", true);
  record("openskills 1.5.0 list, same corpus (ms)", peer, "ms", "report", true);
  // Issue 15: no slower than openskills, although it parses full YAML and reads every folder.
  record("list vs openskills", ours / peer, "x", "<= 1.0", ours / peer <= 1.0);
  const small = await catalogFixture("ten-1k", TEN_FOLDERS, 100);
  const large = await catalogFixture("ten-10k", TEN_FOLDERS, 1000);
  const t1 = await timeCommand(5, denoRun(MAIN, "list", "--json"), {
    cwd: small.project,
    env: await homeEnv(small.home),
  });
  const t10 = await timeCommand(5, denoRun(MAIN, "list", "--json"), {
    cwd: large.project,
    env: await homeEnv(large.home),
  });
  console.log("list: ten agent folders");
  record("list --json, 1k over ten folders (ms)", t1, "ms", "report", true);
  record("list --json, 10k over ten folders (ms)", t10, "ms", "<= 800", t10 <= 800);
  record("list 10k / 1k", t10 / t1, "x", "<= 12", t10 / t1 <= 12);
}

async function benchCheck(): Promise<void> {
  const { files, project } = await catalogFixture("ten-1k", TEN_FOLDERS, 100);
  const ours = await timeCommand(5, denoRun(MAIN, "check", "--json", ...files), { cwd: project });
  const modules = await npmTool("skills-ref@0.1.5", "skills-ref/dist/cli.js");
  // skills-ref validates one skill per process; time a 100-skill sample and scale to 1,000.
  const sample = files.slice(0, 100).map((file) => file.slice(0, -"/SKILL.md".length));
  const cli = join(modules, "skills-ref", "dist", "cli.js");
  const peerSample = await timeIt(1, async () => {
    for (const dir of sample) await runQuiet(["node", cli, "validate", dir]);
  });
  const peer = peerSample * (files.length / sample.length);
  console.log(`check: ${files.length} files`);
  record("check --json, 1,000 files, one process (ms)", ours, "ms", "<= 2000", ours <= 2000);
  record("skills-ref 0.1.5, 1,000 files, a process each (ms)", peer, "ms", "report", true);
  record("skills-ref time / check time", peer / ours, "x", "report", true);
}

// ---------------------------------------------------------------------------------------------
// MCP and distribution forms

async function ensureNpmBuild(): Promise<void> {
  if (!(await exists(NPM_CLI))) await runQuiet(denoRun(join(ROOT, "npm", "build.ts")));
}

async function ensureBinary(): Promise<void> {
  await ensureNpmBuild();
  if (!(await exists(BINARY))) {
    await runQuiet(denoRun(join(ROOT, "npm", "binaries.ts"), "linux-x64"));
  }
}

/** Time from process start to the `initialize` result, over a raw pipe. */
async function timeInitialize(command: string[], home: string, project: string): Promise<number> {
  const start = performance.now();
  const child = new Deno.Command(command[0], {
    args: [...command.slice(1), "mcp", "--cwd", project],
    env: await homeEnv(home),
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(
    new TextEncoder().encode(
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
    ),
  );
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
  await ensureBinary();
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
  console.log("mcp: process start to the initialize result");
  for (
    const [label, command, target] of [
      ["deno run", denoRun(MAIN), 150],
      ["npm package under Node", ["node", NPM_CLI], undefined],
      ["linux-x64 binary", [BINARY], 80],
    ] as const
  ) {
    const times: number[] = [];
    await timeInitialize([...command], home, project);
    for (let i = 0; i < 9; i++) times.push(await timeInitialize([...command], home, project));
    const value = median(times);
    record(
      `mcp initialize, ${label} (ms)`,
      value,
      "ms",
      target === undefined ? "report" : `<= ${target}`,
      target === undefined || value <= target,
    );
  }
  const { Client } = await import("@modelcontextprotocol/client");
  const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
  const { manifest } = await readBundle(skill);
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "-A", MAIN, "mcp", "--cwd", project],
      env: await homeEnv(home),
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
  const p50 = median(calls);
  record(
    `open_skill warm, expected_bundle_sha256, ${
      (manifest.total_bytes / 1048576).toFixed(2)
    } MiB (p50 ms)`,
    p50,
    "ms",
    "<= 20",
    p50 <= 20,
  );
}

/**
 * The skills extension (SEP-2640) over stdio with the SDK's own skills client: process start to the
 * first complete `skills/list` over 1,000 skills (every file digested: cold), then the same listing
 * again in the same session (digests cached by file identity: warm), against `list --json` of the
 * same catalog timed in the same run.
 */
async function benchSkills(): Promise<void> {
  const { home, project } = await catalogFixture("ten-1k", TEN_FOLDERS, 100);
  const env = await homeEnv(home);
  const { Client } = await import("@modelcontextprotocol/client");
  const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
  const { SkillsClient } = await import("@modelcontextprotocol/client/ext/skills");
  const session = async () => {
    const start = performance.now();
    const client = new Client({ name: "bench", version: "1" });
    await client.connect(
      new StdioClientTransport({
        command: Deno.execPath(),
        args: ["run", "-A", MAIN, "mcp", "--cwd", project],
        env,
        stderr: "ignore",
      }),
    );
    const skills = new SkillsClient(client);
    const first = await skills.list();
    const cold = performance.now() - start;
    const again = performance.now();
    const second = await skills.list();
    const warm = performance.now() - again;
    await client.close();
    if (first.skills.length !== second.skills.length || first.skills.length < 100) {
      throw new Error(`skills/list returned ${first.skills.length} then ${second.skills.length}`);
    }
    return { cold, warm, count: first.skills.length };
  };
  await session();
  const runs = [];
  for (let i = 0; i < 5; i++) runs.push(await session());
  const listJson = await timeCommand(5, denoRun(MAIN, "list", "--json"), { cwd: project, env });
  const cold = median(runs.map((r) => r.cold));
  const warm = median(runs.map((r) => r.warm));
  console.log(`skills extension: ${runs[0].count} skills over stdio`);
  record("mcp start to first skills/list, 1k skills, cold (ms)", cold, "ms", "report", true);
  record("skills/list again in the session, warm (ms)", warm, "ms", "report", true);
  record(
    "warm skills/list vs list --json (same catalog)",
    warm / listJson,
    "x",
    "<= 2",
    warm / listJson <= 2,
  );
}

/** 1,000 project skills of two files each (SKILL.md and a script), written once under .bench/. */
async function verifyFixture(): Promise<{ home: string; project: string }> {
  const dir = join(WORK, "verify-1k");
  const home = join(dir, "home");
  const project = join(dir, "project");
  const skills = join(project, ".claude", "skills");
  if (!(await exists(join(skills, "skill-999", "scripts", "run.sh")))) {
    await mkdir(join(project, ".git"), { recursive: true });
    await mkdir(home, { recursive: true });
    for (let i = 0; i < 1000; i++) {
      await mkdir(join(skills, `skill-${i}`, "scripts"), { recursive: true });
      await writeFile(
        join(skills, `skill-${i}`, "SKILL.md"),
        `---\nname: skill-${i}\ndescription: Locked skill ${i} for the verify benchmark.\n---\n` +
          `Run scripts/run.sh with the input of step ${i}.\n`.repeat(8),
      );
      await writeFile(join(skills, `skill-${i}`, "scripts", "run.sh"), `echo ${i}\n`.repeat(64));
    }
  }
  return { home, project };
}

/**
 * `lock` and `verify` over 1,000 locked project skills with the real CLI (every SKILL.md and
 * bundle read again), and verify against `list --json` of the same catalog in the same run.
 */
async function benchVerify(): Promise<void> {
  const { home, project } = await verifyFixture();
  const options = { cwd: project, env: await homeEnv(home) };
  await runQuiet(denoRun(MAIN, "lock"), options);
  const lock = JSON.parse(await Deno.readTextFile(join(project, "skills-anywhere.lock.json")));
  if (lock.skills.length !== 1000) throw new Error(`locked ${lock.skills.length} skills`);
  console.log("verify: 1,000 locked project skills (SKILL.md and a script each)");
  const lockTime = await timeCommand(5, denoRun(MAIN, "lock"), options);
  record("lock, 1k skills (ms)", lockTime, "ms", "report", true);
  const [verify, list] = await timePair(
    5,
    () => runQuiet(denoRun(MAIN, "verify"), options),
    () => runQuiet(denoRun(MAIN, "list", "--json"), options),
  );
  record("verify, 1k locked skills, all match (ms)", verify, "ms", "report", true);
  const sarif = await timeCommand(5, denoRun(MAIN, "verify", "--format", "sarif"), options);
  record("verify --format sarif, 1k locked skills (ms)", sarif, "ms", "report", true);
  record("verify vs list --json (same catalog)", verify / list, "x", "report", true);
}

async function benchDist(): Promise<void> {
  await ensureBinary();
  const pack = await new Deno.Command("npm", {
    args: ["pack", "--dry-run", "--json"],
    cwd: join(ROOT, "npm", "dist"),
    stdout: "piped",
    stderr: "null",
  }).output();
  const info = JSON.parse(new TextDecoder().decode(pack.stdout))[0];
  console.log("distribution");
  record("npm tarball, packed (KiB)", info.size / 1024, "KiB", "<= 1024", info.size <= 1048576);
  const dependencies = Object.keys(
    JSON.parse(await Deno.readTextFile(join(ROOT, "npm", "dist", "package.json"))).dependencies ??
      {},
  ).length;
  record("npm runtime dependencies", dependencies, "count", "0", dependencies === 0);
  for (
    const [label, command] of [
      ["deno run main.ts", denoRun(MAIN)],
      ["npm package under Node", ["node", NPM_CLI]],
      ["linux-x64 binary", [BINARY]],
    ] as const
  ) {
    const value = await timeCommand(15, [...command, "--version"]);
    record(`--version, ${label} (ms)`, value, "ms", "report", true);
  }
}

// ---------------------------------------------------------------------------------------------
// http: slow unauthenticated clients against `mcp --http --token-file` (issue 27, finding 9)

/** The last commit whose `mcp/http.ts` read every request body before its gates. */
const HTTP_BEFORE_COMMIT = "fc371d8";

/** What a slow client declares it will send: the SDK's largest body, 4 MiB. */
const HTTP_DECLARED = 4 * 1024 * 1024;

/** One authorised `tools/list` over fetch: its status. */
async function authorisedStatus(url: string): Promise<number> {
  const answer = await fetch(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      Authorization: "Bearer bench-token",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });
  await answer.body?.cancel();
  return answer.status;
}

/** A held slow connection: whether the server has closed it. */
interface Slow {
  socket: Socket;
  closed: boolean;
  /** Resolves once everything this client meant to send is sent, or the server closed it. */
  sent: Promise<void>;
}

/**
 * Opens `count` connections to `url` without a token; each sends a POST's headers declaring a
 * 4 MiB body and then `bodyBytes` of it (in 64 KiB writes), or, with `bodyBytes` undefined, only
 * the first lines of its headers; then each holds, sending nothing more and never closing.
 */
async function openSlow(url: string, count: number, bodyBytes?: number): Promise<Slow[]> {
  const { hostname, port, host } = new URL(url);
  const head = bodyBytes === undefined
    ? `POST /mcp HTTP/1.1\r\nHost: ${host}\r\n`
    : `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
      `Accept: application/json, text/event-stream\r\nContent-Length: ${HTTP_DECLARED}\r\n\r\n`;
  const chunk = new Uint8Array(64 * 1024).fill(0x20);
  const open = async (): Promise<Slow> => {
    const socket = connectTcp({ host: hostname, port: Number(port) });
    const slow: Slow = { socket, closed: false, sent: Promise.resolve() };
    socket.on("error", () => {});
    socket.on("data", () => {});
    socket.once("close", () => slow.closed = true);
    await new Promise<void>((resolve) => {
      socket.once("connect", () => resolve());
      socket.once("close", () => resolve());
    });
    const write = (bytes: string | Uint8Array) =>
      new Promise<void>((resolve) => {
        if (slow.closed) return resolve();
        socket.write(bytes, () => resolve());
        socket.once("close", () => resolve());
      });
    slow.sent = (async () => {
      await write(head);
      for (let left = bodyBytes ?? 0; left > 0 && !slow.closed; left -= chunk.length) {
        await write(left >= chunk.length ? chunk : chunk.subarray(0, left));
      }
    })();
    return slow;
  };
  const slows: Slow[] = [];
  for (let i = 0; i < count; i += 50) {
    slows.push(...await Promise.all(Array.from({ length: Math.min(50, count - i) }, open)));
  }
  return slows;
}

/** What one slow-client attack did to one server. */
interface AttackResult {
  before: number;
  peak: number;
  after: number;
  /** Connections still open when the attack let go (the server had not closed them). */
  held: number;
  /** The status of an authorised request once the slow clients had gone. */
  served: number;
}

/**
 * Starts a server, serves one authorised request (the handler loaded), then holds `count` slow
 * connections (see {@linkcode openSlow}) until every one has sent all it meant to or was closed
 * (at most 60 s), two seconds more, lets them all go, and serves an authorised request again.
 * RSS: before the attack, its peak during it, and two seconds after.
 */
async function slowAttack(
  main: string,
  fixture: { project: string; env: Record<string, string>; token: string },
  count: number,
  bodyBytes?: number,
): Promise<AttackResult> {
  const server = await startHttpChild(main, fixture.project, fixture.env, fixture.token);
  try {
    if ((await authorisedStatus(server.url)) !== 200) throw new Error("not served before");
    await pause(500);
    const before = (await rssOf(server.pid)).now;
    await resetPeak(server.pid);
    const slows = await openSlow(server.url, count, bodyBytes);
    await Promise.race([Promise.all(slows.map((s) => s.sent)), pause(60_000)]);
    await pause(2000);
    const { peak } = await rssOf(server.pid);
    const held = slows.filter((s) => !s.closed).length;
    for (const slow of slows) slow.socket.destroy();
    await pause(2000);
    const served = await authorisedStatus(server.url);
    const after = (await rssOf(server.pid)).now;
    return { before, peak, after, held, served };
  } finally {
    await server.stop();
  }
}

/**
 * A copy of the sources with the `mcp/http.ts` of {@linkcode HTTP_BEFORE_COMMIT} (bodies read
 * before the gates, no cap, no body timeout), its `main.ts` path; `undefined` without that commit.
 */
async function httpBeforeMain(): Promise<string | undefined> {
  const old = await new Deno.Command("git", {
    args: ["show", `${HTTP_BEFORE_COMMIT}:mcp/http.ts`],
    cwd: ROOT,
    stdout: "piped",
    stderr: "null",
  }).output();
  if (!old.success) return undefined;
  const dir = join(WORK, "http-before");
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const entry of ["main.ts", "mod.ts", "deno.json", "deno.lock", "lib", "cli", "mcp", "dsh"]) {
    await cp(join(ROOT, entry), join(dir, entry), { recursive: true });
  }
  await symlink(join(ROOT, "node_modules"), join(dir, "node_modules"));
  await writeFile(join(dir, "mcp", "http.ts"), old.stdout);
  return join(dir, "main.ts");
}

/**
 * Slow unauthenticated clients against `mcp --http --token-file` on 127.0.0.1: the finding's 40
 * connections each holding the last byte of a 4 MiB body, 1,000 such connections, 1,000 that
 * never finish their headers, and (the control) 1,000 that declare a 4 MiB body and send none of
 * it; the server's RSS before, at the peak and after, for this code and (for the 40 and the
 * headers, when the commit is at hand) for the code before the fix, run the same way.
 */
async function benchHttp(): Promise<void> {
  const dir = join(WORK, "http");
  const home = join(dir, "home");
  const project = join(dir, "project");
  const skill = join(project, ".claude", "skills", "bench-skill");
  await mkdir(join(project, ".git"), { recursive: true });
  await mkdir(skill, { recursive: true });
  await writeFile(
    join(skill, "SKILL.md"),
    "---\nname: bench-skill\ndescription: A skill for the slow-client benchmark.\n---\nHello.\n",
  );
  const token = join(dir, "token");
  await writeFile(token, "bench-token\n");
  const fixture = { project, env: await homeEnv(home), token };
  const last = HTTP_DECLARED - 1;
  const cases: [string, number, number | undefined, string | undefined][] = [
    ["40 held 4 MiB bodies (last byte owed)", 40, last, HTTP_BEFORE_COMMIT],
    ["1,000 held 4 MiB bodies (last byte owed)", 1000, last, undefined],
    ["1,000 unfinished headers", 1000, undefined, HTTP_BEFORE_COMMIT],
    ["1,000 declaring 4 MiB bodies, none sent (control)", 1000, 0, undefined],
  ];
  const before = await httpBeforeMain();
  console.log("http: slow clients without a token against mcp --http --token-file");
  for (const [label, count, bodyBytes, compare] of cases) {
    const now = await slowAttack(MAIN, fixture, count, bodyBytes);
    const growth = now.peak - now.before;
    console.log(
      `  ${label}: RSS ${now.before.toFixed(1)} → peak ${now.peak.toFixed(1)} → ` +
        `${now.after.toFixed(1)} MiB, ${now.held} still open, then served ${now.served}`,
    );
    record(`http ${label}: server RSS before (MiB)`, now.before, "MiB", "report", true);
    record(`http ${label}: server RSS peak (MiB)`, now.peak, "MiB", "report", true);
    record(`http ${label}: server RSS after (MiB)`, now.after, "MiB", "report", true);
    // The finding: 40 such clients grew the server by 165 MiB. A flood of 1,000 connections
    // costs the runtime's heap headroom for their refusals, with or without bodies (the control).
    const target = count === 40 ? 16 : undefined;
    record(
      `http ${label}: RSS growth (MiB)`,
      growth,
      "MiB",
      target === undefined ? "report" : `<= ${target}`,
      target === undefined || growth <= target,
    );
    record(
      `http ${label}: connections still open`,
      now.held,
      "count",
      "<= 256",
      now.held <= 256,
    );
    record(
      `http ${label}: authorised status after`,
      now.served,
      "status",
      "200",
      now.served === 200,
    );
    if (compare !== undefined && before !== undefined) {
      const old = await slowAttack(before, fixture, count, bodyBytes);
      console.log(
        `  same, before the fix (${compare}): RSS ${old.before.toFixed(1)} → peak ` +
          `${old.peak.toFixed(1)} → ${old.after.toFixed(1)} MiB, ${old.held} still open`,
      );
      record(
        `http ${label}, before the fix: RSS growth (MiB)`,
        old.peak - old.before,
        "MiB",
        "report",
        true,
      );
      record(
        `http ${label}, before the fix: connections still open`,
        old.held,
        "count",
        "report",
        true,
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------
// search

/**
 * The search evaluation (`bench/search_eval.ts`): MRR@5 and hit@3 of the one ranker over the
 * committed queries and real public skills, beside plain BM25 over name and description computed
 * in the same run, and the time of one query over that corpus.
 */
async function benchSearch(): Promise<void> {
  const data = loadEval();
  const { ranker, baseline } = evaluate(data);
  console.log(`search: ${data.queries.length} queries over ${data.skills.length} public skills`);
  const { mrr_at_5: mrrFloor, hit_at_3: hitFloor } = data.floor;
  record("search MRR@5", ranker.mrrAt5, "score", `>= ${mrrFloor}`, ranker.mrrAt5 >= mrrFloor);
  record("search hit@3", ranker.hitAt3, "score", `>= ${hitFloor}`, ranker.hitAt3 >= hitFloor);
  record("search MRR@5, plain BM25 baseline", baseline.mrrAt5, "score", "report", true);
  record("search hit@3, plain BM25 baseline", baseline.hitAt3, "score", "report", true);
  const above = ranker.mrrAt5 > baseline.mrrAt5 && ranker.hitAt3 > baseline.hitAt3;
  record(
    "search MRR@5 minus the baseline's (hit@3 above it too)",
    ranker.mrrAt5 - baseline.mrrAt5,
    "score",
    "> 0",
    above,
  );
  const rank = rankerOf(data.skills);
  const all = await timeIt(5, () => Promise.resolve(data.queries.forEach((q) => rank(q.query))));
  record("search, one query over the corpus (ms)", all / data.queries.length, "ms", "report", true);

  // Issue 29: find_skills at 10,000 skills from the index the MCP server keeps, vs the ranker
  // that scans every body per query (what find_skills did, less its file reads). The skills are
  // the corpus's, renamed per copy, each body three excerpts (about 1.2 KB); in-process, bodies
  // from memory, the eval's queries in turn, default limit.
  const { SearchIndex } = await import("../lib/catalog/mod.ts");
  const { findLimits, findSkills } = await import("../lib/load/mod.ts");
  const base = data.skills;
  const many = Array.from({ length: 10_000 }, (_, i) => ({
    name: `${base[i % base.length].name}-${i}`,
    description: base[i % base.length].description,
    body: [0, 1, 2].map((j) => base[(i * 7 + j * 13) % base.length].excerpt).join("\n\n"),
  }));
  const limits = findLimits();
  const body = (s: (typeof many)[number]) => s.body;
  const index = new SearchIndex<(typeof many)[number]>();
  const start = performance.now();
  await findSkills(many, { query: "warm up" }, { limits, body, index });
  const build = performance.now() - start;
  const p50 = async (queries: readonly string[], find: (query: string) => Promise<unknown>) => {
    const times: number[] = [];
    for (const query of queries) {
      const t = performance.now();
      await find(query);
      times.push(performance.now() - t);
    }
    return median(times);
  };
  const queries = data.queries.map((q) => q.query);
  const indexed = await p50(
    queries,
    (query) => findSkills(many, { query }, { limits, body, index }),
  );
  const plain = await p50(
    queries.slice(0, 9),
    (query) => findSkills(many, { query }, { limits, body }),
  );
  console.log("search: find at 10,000 skills, indexed vs every body scanned per query");
  record("search index, first build at 10k skills (ms)", build, "ms", "report", true);
  record("find at 10k skills, indexed, p50 (ms)", indexed, "ms", "<= 20", indexed <= 20);
  record("find at 10k skills, unindexed ranker, p50 (ms)", plain, "ms", "report", true);
  record("find at 10k, unindexed / indexed", plain / indexed, "x", "report", true);
}

// ---------------------------------------------------------------------------------------------

const GROUPS: Record<string, () => Promise<void>> = {
  bundle: benchBundle,
  list: benchList,
  check: benchCheck,
  mcp: benchMcp,
  skills: benchSkills,
  verify: benchVerify,
  dist: benchDist,
  http: benchHttp,
  search: benchSearch,
  server: benchServer,
  startup: () =>
    benchStartup({
      root: ROOT,
      work: WORK,
      main: MAIN,
      npmCli: NPM_CLI,
      binary: BINARY,
      record,
      timePair,
      timeCommand,
      runQuiet,
      denoRun,
      catalogFixture,
      homeEnv,
      ensureBinary,
    }),
};
const selected = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
for (const name of selected) {
  if (!(name in GROUPS)) throw new Error(`unknown group ${name}; one of ${Object.keys(GROUPS)}`);
}
for (const [name, run] of Object.entries(GROUPS)) {
  if (selected.length === 0 || selected.includes(name)) await run();
}

const machine = `${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, ${
  cpus()[0]?.model ?? "unknown CPU"
}, deno ${Deno.version.deno}, node ${
  new TextDecoder().decode(
    (await new Deno.Command("node", { args: ["--version"], stdout: "piped" }).output()).stdout,
  ).trim()
}`;
const width = Math.max(...figures.map((f) => f.figure.length));
console.log(`\ndsh-skills-anywhere ${VERSION} benchmarks on ${machine}\n`);
for (const f of figures) {
  const shown = f.unit === "x"
    ? `${f.value.toFixed(2)}×`
    : f.unit === "score"
    ? f.value.toFixed(3)
    : `${f.value} ${f.unit}`;
  const note = f.note === undefined ? "" : `  (${f.note})`;
  console.log(
    `${f.pass ? "ok  " : "MISS"}  ${f.figure.padEnd(width)}  ${
      shown.padStart(12)
    }  ${f.target}${note}`,
  );
}
/** The figures to write: all of them, or (some groups run) the kept ones with these replaced. */
async function resultFigures(): Promise<Figure[]> {
  if (selected.length === 0) return figures;
  const file = join(ROOT, "bench", "results.json");
  const kept: Figure[] = await Deno.readTextFile(file).then(
    (text) => JSON.parse(text).figures,
    () => [],
  );
  const fresh = new Map(figures.map((f) => [f.figure, f]));
  const merged = kept.map((f) => fresh.get(f.figure) ?? f);
  return [...merged, ...figures.filter((f) => !kept.some((k) => k.figure === f.figure))];
}
await writeFile(
  join(ROOT, "bench", "results.json"),
  JSON.stringify({ version: VERSION, machine, figures: await resultFigures() }, null, 2) + "\n",
);
console.log("\nwritten: bench/results.json");
if (figures.some((f) => !f.pass)) process.exitCode = 1;
