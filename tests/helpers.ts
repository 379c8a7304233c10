// Shared test helpers: run the real CLI as a child process, make temp dirs.
import { fileURLToPath as fromFileUrl } from "node:url";
import { currentDenoDir } from "../scripts/deno_dir.ts";

/** The repository root (absolute path). */
export const ROOT = fromFileUrl(new URL("../", import.meta.url));
/** The CLI entry. */
export const MAIN = fromFileUrl(new URL("../main.ts", import.meta.url));

/** What a CLI run produced. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export { currentDenoDir };

/**
 * The command the CLI tests run: `deno run -A main.ts` by default, or the JSON array in the
 * environment variable DSA_CLI (for example the npm package under Node, or a compiled binary), so
 * the same end-to-end suite proves every way the tool is shipped.
 */
export function cliCommand(): string[] | undefined {
  const override = Deno.env.get("DSA_CLI");
  return override === undefined ? undefined : JSON.parse(override) as string[];
}

/** Runs the CLI with `args` and collects its output (fails after 60 s). */
export async function runCli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<CliResult> {
  const override = cliCommand();
  // A shipped build runs with a clean environment: only PATH (for git) and what the test sets.
  const command = override === undefined
    ? new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", MAIN, ...args],
      cwd: options.cwd ?? ROOT,
      env: { NO_COLOR: "1", DENO_DIR: await currentDenoDir(), ...options.env },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(60_000),
    })
    : new Deno.Command(override[0], {
      args: [...override.slice(1), ...args],
      cwd: options.cwd ?? ROOT,
      clearEnv: true,
      env: { NO_COLOR: "1", PATH: Deno.env.get("PATH") ?? "", ...options.env },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(60_000),
    });
  const output = await command.output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** Runs `fn` with a fresh temp directory, removed afterwards. */
export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "dsa-test-" });
  try {
    return await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Writes `files` (relative path → text or bytes) under `dir`, creating folders. */
export async function writeTree(
  dir: string,
  files: Record<string, string | Uint8Array>,
): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const full = `${dir}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    if (typeof content === "string") await Deno.writeTextFile(full, content);
    else await Deno.writeFile(full, content);
  }
}

/** Makes a named pipe with the real `mkfifo`. */
export async function mkfifo(path: string): Promise<void> {
  const { code } = await new Deno.Command("mkfifo", { args: [path] }).output();
  if (code !== 0) throw new Error(`mkfifo ${path} failed`);
}

/** Lists every path below `dir` (sorted), to prove nothing was written. */
export async function listTree(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (at: string, prefix: string) => {
    for await (const entry of Deno.readDir(at)) {
      const rel = prefix + entry.name;
      out.push(rel);
      if (entry.isDirectory) await walk(`${at}/${entry.name}`, rel + "/");
    }
  };
  await walk(dir, "");
  return out.sort();
}

/**
 * Runs the real `git` for a test (identity and default branch set on the command line, no
 * prompts), with exactly `env` when `clearEnv` is set; returns trimmed stdout or throws with
 * git's stderr.
 */
export async function runGit(
  cwd: string,
  args: string[],
  options: { env?: Record<string, string>; clearEnv?: boolean } = {},
): Promise<string> {
  const output = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args],
    cwd,
    env: options.env,
    clearEnv: options.clearEnv ?? false,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  if (output.code !== 0) {
    throw new Error(`git ${args.join(" ")} failed: ${decoder.decode(output.stderr)}`);
  }
  return decoder.decode(output.stdout).trim();
}

/**
 * Serves the repositories below `base` (bare or not) with a real `git daemon` on 127.0.0.1 and
 * calls `fn` with its `git://127.0.0.1:<port>` prefix: a remote that is not a local path, for the
 * sources a project may name (the file transport is only for local paths the user gives).
 */
export async function withGitDaemon<T>(base: string, fn: (url: string) => Promise<T>): Promise<T> {
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = probe.addr.port;
  probe.close();
  const daemon = new Deno.Command("git", {
    args: [
      "daemon",
      "--reuseaddr",
      "--export-all",
      `--base-path=${base}`,
      "--listen=127.0.0.1",
      `--port=${port}`,
    ],
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", HOME: base, GIT_CONFIG_NOSYSTEM: "1" },
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  try {
    for (let attempt = 0;; attempt++) {
      try {
        (await Deno.connect({ hostname: "127.0.0.1", port })).close();
        break;
      } catch (error) {
        if (attempt > 500) throw error;
        await new Promise((done) => setTimeout(done, 20));
      }
    }
    return await fn(`git://127.0.0.1:${port}`);
  } finally {
    daemon.kill("SIGTERM");
    await daemon.status;
  }
}
