// Caller-side helpers for tests/dsh_scenarios.mjs, written against node: built-ins only so that
// the Deno test (sources) and the Node runner (packed npm package) hand the scenarios the very
// same temp-tree, git, TCP and process helpers. Linux only (`/proc` for the git process check).
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
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

/** Reads `/proc/<pid>/stat`: `[ppid, comm]`, or undefined when the process is gone. */
function procStat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    const open = text.indexOf("(");
    const close = text.lastIndexOf(")");
    const comm = text.slice(open + 1, close);
    const fields = text.slice(close + 2).split(" ");
    return [Number(fields[1]), comm];
  } catch {
    return undefined;
  }
}

/**
 * The pids of `git*` processes descending from this process, zombies included (a child that has
 * exited but was not yet reaped still counts). Synchronous on purpose: called right after an
 * awaited dispose, no event-loop turn can reap a child in between.
 */
export function gitProcesses() {
  const children = new Map();
  const names = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const info = procStat(entry);
    if (info === undefined) continue;
    const [ppid, comm] = info;
    names.set(Number(entry), comm);
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(Number(entry));
  }
  const found = [];
  const queue = [...(children.get(process.pid) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift();
    if (names.get(pid)?.startsWith("git")) found.push(pid);
    queue.push(...(children.get(pid) ?? []));
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
