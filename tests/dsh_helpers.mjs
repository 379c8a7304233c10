// Caller-side helpers for tests/dsh_scenarios.mjs, written against node: built-ins only so that
// the Deno test (sources) and the Node runner (packed npm package) hand the scenarios the very
// same temp-tree, git, TCP and process helpers. Linux only (`/proc` for the git process check).
import { execFile } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import process from "node:process";

/** Environment for the test's own git commands: no system or user configuration. */
function gitEnv() {
  return {
    ...process.env,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_AUTHOR_NAME: "Test",
    GIT_AUTHOR_EMAIL: "test@example.invalid",
    GIT_COMMITTER_NAME: "Test",
    GIT_COMMITTER_EMAIL: "test@example.invalid",
    GIT_TERMINAL_PROMPT: "0",
  };
}

/** Reads `/proc/<pid>/stat`: `[ppid, comm, starttime]`, or undefined when the process is gone. */
function procStat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const open = text.indexOf("(");
    const close = text.lastIndexOf(")");
    const comm = text.slice(open + 1, close);
    const fields = text.slice(close + 2).split(" ");
    return [Number(fields[1]), comm, fields[19]];
  } catch {
    return undefined;
  }
}

/** Whether `marker` is in the command line or the working directory of `pid` ("" when gone). */
function mentions(pid, marker) {
  const read = (get) => {
    try {
      return get();
    } catch {
      return "";
    }
  };
  const cmdline = read(() => readFileSync(`/proc/${pid}/cmdline`, "utf8"));
  return cmdline.includes(marker) || read(() => readlinkSync(`/proc/${pid}/cwd`)).includes(marker);
}

/** `pid/starttime` of every git process a `gitProcesses(marker)` call has reported, by marker. */
const seen = new Map();

/**
 * The pids of `git*` processes descending from this process that work for `marker` (a scenario's
 * own temp folder): `marker` is in the command line or the working directory of the process or
 * of an ancestor below this process. Other test files' git processes run in the same process
 * under `deno test --parallel`; the marker keeps them out. A git process once reported for
 * `marker` still counts after it exited and is a zombie not yet reaped (a zombie has no command
 * line left). Synchronous on purpose: called right after an awaited dispose, no event-loop turn
 * can reap a child in between.
 */
export function gitProcesses(marker) {
  const children = new Map();
  const stats = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const info = procStat(entry);
    if (info === undefined) continue;
    stats.set(Number(entry), info);
    if (!children.has(info[0])) children.set(info[0], []);
    children.get(info[0]).push(Number(entry));
  }
  if (!seen.has(marker)) seen.set(marker, new Set());
  const known = seen.get(marker);
  const found = [];
  const queue = (children.get(process.pid) ?? []).map((pid) => [pid, false]);
  while (queue.length > 0) {
    const [pid, ancestorMatched] = queue.shift();
    const [, comm, start] = stats.get(pid);
    const mine = ancestorMatched || mentions(pid, marker);
    if (comm.startsWith("git") && (mine || known.has(`${pid}/${start}`))) {
      known.add(`${pid}/${start}`);
      found.push(pid);
    }
    queue.push(...(children.get(pid) ?? []).map((child) => [child, mine]));
  }
  return found;
}

/**
 * One scenario's helpers. `cleanup()` closes the servers and removes the temp dirs it made.
 */
export function makeHelpers() {
  const dirs = [];
  const servers = [];
  const fs = {
    /** A fresh, empty, real (symlink-free) temp directory. */
    async tempDir() {
      const dir = await realpath(await mkdtemp(join(tmpdir(), "dsa-dsh-")));
      dirs.push(dir);
      return dir;
    },
    /** Writes `text` (or bytes) to `path`, creating parent directories. */
    async write(path, text) {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, text);
    },
    read: (path) => readFile(path, "utf8"),
    async mkdir(path) {
      await mkdir(path, { recursive: true });
    },
    async remove(path) {
      await rm(path, { recursive: true, force: true });
    },
    exists: (path) => stat(path).then(() => true, () => false),
  };
  /** Runs the system git; resolves with its trimmed stdout, rejects on failure. */
  const git = (args, cwd) =>
    new Promise((resolve, reject) => {
      execFile("git", args, { cwd, env: gitEnv() }, (error, stdout, stderr) => {
        if (error) reject(new Error(`git ${args.join(" ")}: ${stderr || error.message}`));
        else resolve(String(stdout).trim());
      });
    });
  /** A TCP server on 127.0.0.1 that accepts connections and never says anything. */
  const silentServer = () =>
    new Promise((resolve, reject) => {
      const sockets = new Set();
      let connections = 0;
      const server = createServer((socket) => {
        connections += 1;
        sockets.add(socket);
        socket.on("error", () => {});
        socket.on("close", () => sockets.delete(socket));
      });
      const close = () =>
        new Promise((done) => {
          for (const socket of sockets) socket.destroy();
          server.close(() => done());
        });
      servers.push(close);
      server.on("error", reject);
      server.listen(0, "127.0.0.1", () => {
        resolve({ port: server.address().port, connections: () => connections, close });
      });
    });
  const cleanup = async () => {
    for (const close of servers.splice(0)) await close().catch(() => {});
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  };
  return { fs, git, silentServer, gitProcesses, cleanup };
}

/**
 * Runs one scenario with fresh helpers; `deps` holds the dsh classes, the plugin modules,
 * `renderSkillContent` and `assert`.
 */
export async function runScenario(scenario, deps) {
  const helpers = makeHelpers();
  try {
    await scenario({ ...deps, ...helpers });
  } finally {
    await helpers.cleanup();
  }
}
