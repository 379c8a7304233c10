/**
 * What the benchmark groups share (`bench/run.ts` and the groups in their own modules, such as
 * `bench/server.ts`): the paths, the one list of figures and `record`, medians and percentiles,
 * fixture and environment helpers, a server child that prints the URL it listens on, and the
 * server's memory from `/proc`.
 *
 * @module
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { currentDenoDir } from "../scripts/deno_dir.ts";

/** The checkout. */
export const ROOT = new URL("..", import.meta.url).pathname;
/** Where fixtures and built peers live (ignored by Git). */
export const WORK = join(ROOT, ".bench");
/** The CLI's entry point. */
export const MAIN = join(ROOT, "main.ts");

/** `--quick` on the command line: smaller counts and shorter cells, for a smoke run. */
export const QUICK = process.argv.includes("--quick");

/** One measured figure. */
export interface Figure {
  figure: string;
  value: number;
  unit: string;
  target: string;
  pass: boolean;
  /** What the value alone does not say (e.g. "not delivered within 5 s"). */
  note?: string;
}

/** Every figure recorded in this run, in order. */
export const figures: Figure[] = [];

/** Records one figure and prints it with its verdict. */
export function record(
  figure: string,
  value: number,
  unit: string,
  target: string,
  pass: boolean,
  note?: string,
) {
  const digits = unit === "x" ? 2 : unit === "score" ? 3 : 1;
  const entry: Figure = { figure, value: Number(value.toFixed(digits)), unit, target, pass };
  figures.push(note === undefined ? entry : { ...entry, note });
  const shown = unit === "x"
    ? `${value.toFixed(2)}×`
    : unit === "score"
    ? value.toFixed(3)
    : `${value.toFixed(1)} ${unit}`;
  const noted = note === undefined ? "" : ` — ${note}`;
  console.log(`  ${pass ? "ok  " : "MISS"} ${figure}: ${shown}${noted} (target ${target})`);
}

/** The median of `values`. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The `p`-th percentile (0–100, nearest rank) of `values`; NaN for none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Whether `path` exists. */
export async function exists(path: string): Promise<boolean> {
  return await stat(path).then(() => true, () => false);
}

/** Resolves after `ms` milliseconds. */
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The environment of a CLI child over the home `home` (and the current Deno cache). */
export async function homeEnv(home: string): Promise<Record<string, string>> {
  return { HOME: home, DSH_HOME: join(home, ".dsh"), DENO_DIR: await currentDenoDir() };
}

/** A running server child: its URL, its pid (for its RSS) and how to stop it. */
export interface HttpChild {
  url: string;
  pid: number;
  /** Its stderr so far. */
  stderr(): string;
  stop(): Promise<void>;
}

/** The line a server prints once it listens (`mcp --http`, and the floor): its URL. */
const LISTENING = /serving MCP on (http:\/\/\S+); /;

/**
 * Starts `command` in `cwd` and resolves once it prints that it listens (see
 * {@linkcode LISTENING}); rejects with its stderr when it exits first.
 */
export async function startListening(
  command: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<HttpChild> {
  const child = new Deno.Command(command[0], {
    args: command.slice(1),
    cwd,
    env,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  let found: (url: string | undefined) => void = () => {};
  const listening = new Promise<string | undefined>((resolve) => found = resolve);
  const pumped = (async () => {
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
      // Only the head is kept: a long-running server may log a lot.
      if (stderr.length < 65_536) stderr += chunk;
      const match = LISTENING.exec(stderr);
      if (match !== null) found(match[1]);
    }
    found(undefined);
  })();
  const url = await listening;
  if (url === undefined) {
    throw new Error(`${command.join(" ")} exited before listening:\n${stderr}`);
  }
  return {
    url,
    pid: child.pid,
    stderr: () => stderr,
    stop: async () => {
      child.kill("SIGTERM");
      await child.status;
      await pumped;
    },
  };
}

/**
 * Starts `main mcp --http 127.0.0.1:0` (with `--token-file token` when given) in `project`;
 * resolves once it listens.
 */
export async function startHttpChild(
  main: string,
  project: string,
  env: Record<string, string>,
  token?: string,
): Promise<HttpChild> {
  const auth = token === undefined ? [] : ["--token-file", token];
  const args = ["run", "-A", "--quiet", main, "mcp", "--http", "127.0.0.1:0", ...auth];
  return await startListening([Deno.execPath(), ...args], project, env);
}

/** The server's resident set now and at its peak (since the last reset), in MiB, from /proc. */
export async function rssOf(pid: number): Promise<{ now: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  return { now: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024 };
}

/** Resets the peak resident set of `pid` to its current one (Linux `clear_refs` 5). */
export async function resetPeak(pid: number): Promise<void> {
  await writeFile(`/proc/${pid}/clear_refs`, "5");
}
