/**
 * The test harness: one process runner ({@linkcode run}, and {@linkcode runCli} and
 * {@linkcode runGit} on top of it), one sandbox ({@linkcode withSandbox}: a temp HOME, DSH_HOME,
 * project and environment, removed afterwards) and small file helpers. Nothing here reads or
 * writes the real home.
 *
 * @example
 * ```ts
 * import { withSandbox } from "./helpers.ts";
 * await withSandbox(async (box) => {
 *   const result = await box.cli("list", "--json");
 *   console.log(result.code, result.stdout);
 * });
 * ```
 * @module
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath as fromFileUrl } from "node:url";
import { currentDenoDir } from "../scripts/deno_dir.ts";

/** The repository root (absolute path). */
export const ROOT: string = fromFileUrl(new URL("../", import.meta.url));
/** The CLI entry. */
export const MAIN: string = fromFileUrl(new URL("../main.ts", import.meta.url));

export { currentDenoDir };

/**
 * The tools the MCP server registers, sorted: the one list the tests that check what a client
 * sees compare against. `mcp_server_test.ts` checks it against the `registerTool` calls of
 * `mcp/server.ts` and against a live server's `tools/list`; a new tool is added here too.
 */
export const MCP_TOOLS: readonly string[] = ["find_skills", "list_skills", "open_skill"];

// ---------------------------------------------------------------------------
// The process runner

/** What a child process produced: its exit code and its decoded output. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** What a CLI run produced (the same shape as any run). */
export type CliResult = RunResult;

/** Options of {@linkcode run}. */
export interface RunOptions {
  /** Working directory (default: the repository root). */
  cwd?: string;
  /** Variables added to the environment (or the whole environment with `clearEnv`). */
  env?: Record<string, string>;
  /** Start from an empty environment: the child sees only `env`. */
  clearEnv?: boolean;
  /** Text or bytes written to the child's stdin, which is then closed (default: no stdin). */
  stdin?: string | Uint8Array;
}

/** Runs `command` with `args` to completion and decodes what it wrote. */
export async function run(
  command: string,
  args: string[],
  options: RunOptions = {},
): Promise<RunResult> {
  const child = new Deno.Command(command, {
    args,
    cwd: options.cwd ?? ROOT,
    env: options.env,
    clearEnv: options.clearEnv ?? false,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const bytes = typeof options.stdin === "string"
      ? new TextEncoder().encode(options.stdin)
      : options.stdin;
    const writer = child.stdin.getWriter();
    await writer.write(bytes);
    await writer.close();
  }
  const output = await child.output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/**
 * The command the CLI tests run: `deno run -A main.ts` by default, or the JSON array in the
 * environment variable DSA_CLI (for example the npm package under Node, or a compiled binary), so
 * the same end-to-end suite proves every way the tool is shipped.
 */
export function cliCommand(): string[] | undefined {
  const override = Deno.env.get("DSA_CLI");
  return override === undefined ? undefined : JSON.parse(override) as string[];
}

/**
 * Runs the CLI with `args` (see {@linkcode cliCommand}). A shipped build always runs with a clean
 * environment: only PATH (for git) and what the test sets.
 */
export async function runCli(args: string[], options: RunOptions = {}): Promise<CliResult> {
  const override = cliCommand();
  if (override === undefined) {
    const env = { NO_COLOR: "1", DENO_DIR: await currentDenoDir(), ...options.env };
    return await run(Deno.execPath(), ["run", "-A", "--quiet", MAIN, ...args], {
      ...options,
      env,
    });
  }
  const env = { NO_COLOR: "1", PATH: Deno.env.get("PATH") ?? "", ...options.env };
  return await run(override[0], [...override.slice(1), ...args], {
    ...options,
    env,
    clearEnv: true,
  });
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
  const identity = ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main"];
  const result = await run("git", [...identity, ...args], { cwd, ...options });
  if (result.code !== 0) throw new Error(`git ${args.join(" ")} failed: ${result.stderr}`);
  return result.stdout.trim();
}

// ---------------------------------------------------------------------------
// The sandbox

/** A temp world for one test: nothing outside `root` is read or written. */
export interface Sandbox {
  /** The temp directory that holds everything else. */
  root: string;
  /** HOME of every child process (`<root>/home`). */
  home: string;
  /** DSH_HOME (default `<home>/.dsh`; not created). */
  dshHome: string;
  /** The project (has a `.git` directory); the cwd of {@linkcode Sandbox.cli}. */
  project: string;
  /**
   * The whole environment of every child process: HOME, DSH_HOME, PATH, DENO_DIR and an isolated
   * git configuration. Tests may add to it (the CLI and servers started later see the change).
   */
  env: Record<string, string>;
  /** Runs the CLI in the project with exactly `env`. */
  cli(...args: string[]): Promise<CliResult>;
  /** Runs the test's own git (isolated configuration, fixed identity); returns trimmed stdout. */
  git(cwd: string, ...args: string[]): Promise<string>;
  /** Makes a repository at `<root>/<name>` with `files` (and symlinks `links`) committed. */
  repo(
    name: string,
    files: Record<string, string>,
    links?: Record<string, string>,
  ): Promise<string>;
  /** Writes `files` in the repository `dir`, commits them and returns the new commit. */
  commit(dir: string, files: Record<string, string>): Promise<string>;
}

/** Options of {@linkcode withSandbox}. */
export interface SandboxOptions {
  /** Name of the project folder below the temp root (default `project`). */
  projectName?: string;
  /** DSH_HOME relative to the temp root (default `home/.dsh`). */
  dshHome?: string;
}

/** The environment of the sandbox's children: its home, and git isolated from the real one. */
async function sandboxEnv(root: string, home: string, dshHome: string) {
  return {
    HOME: home,
    DSH_HOME: dshHome,
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    DENO_DIR: await currentDenoDir(),
    DENO_NO_UPDATE_CHECK: "1",
    XDG_CONFIG_HOME: join(root, "xdg"),
    GIT_CONFIG_GLOBAL: join(root, "gitconfig"),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
  };
}

/** The test's own git: the sandbox environment as it was made, and a fixed identity. */
function sandboxGit(env: Record<string, string>) {
  const gitEnv = {
    ...env,
    GIT_AUTHOR_NAME: "Test Author",
    GIT_AUTHOR_EMAIL: "author@example.invalid",
    GIT_COMMITTER_NAME: "Test Author",
    GIT_COMMITTER_EMAIL: "author@example.invalid",
  };
  return (cwd: string, ...args: string[]) => runGit(cwd, args, { env: gitEnv, clearEnv: true });
}

/** Runs `fn` in a fresh sandbox, removed afterwards. */
export async function withSandbox<T>(
  fn: (box: Sandbox) => Promise<T>,
  options: SandboxOptions = {},
): Promise<T> {
  return await withTempDir(async (root) => {
    const home = join(root, "home");
    const dshHome = join(root, options.dshHome ?? "home/.dsh");
    const project = join(root, options.projectName ?? "project");
    await Deno.mkdir(home, { recursive: true });
    await Deno.mkdir(join(project, ".git"), { recursive: true });
    const env: Record<string, string> = await sandboxEnv(root, home, dshHome);
    const git = sandboxGit(env);
    const commitAll = async (dir: string, message: string) => {
      await git(dir, "add", "--all");
      await git(dir, "commit", "-q", "-m", message);
      return await git(dir, "rev-parse", "HEAD");
    };
    const commit = async (dir: string, files: Record<string, string>) => {
      await writeTree(dir, files);
      return await commitAll(dir, `write ${Object.keys(files).join(", ")}`);
    };
    const repo = async (
      name: string,
      files: Record<string, string>,
      links: Record<string, string> = {},
    ) => {
      const dir = join(root, name);
      await Deno.mkdir(dir, { recursive: true });
      await git(dir, "init", "-q");
      await writeTree(dir, files);
      for (const [path, target] of Object.entries(links)) {
        await Deno.mkdir(join(dir, path, ".."), { recursive: true });
        await Deno.symlink(target, join(dir, path));
      }
      await commitAll(dir, "init");
      return dir;
    };
    const cli = (...args: string[]) => runCli(args, { cwd: project, env, clearEnv: true });
    return await fn({ root, home, dshHome, project, env, cli, git, repo, commit });
  });
}

// ---------------------------------------------------------------------------
// Files

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
  const result = await run("mkfifo", [path]);
  if (result.code !== 0) throw new Error(`mkfifo ${path} failed: ${result.stderr}`);
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

// ---------------------------------------------------------------------------
// A git server

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
    await untilListening(port);
    return await fn(`git://127.0.0.1:${port}`);
  } finally {
    daemon.kill("SIGTERM");
    await daemon.status;
  }
}

/** Waits until something accepts connections on 127.0.0.1:`port`. */
async function untilListening(port: number): Promise<void> {
  for (let attempt = 0;; attempt++) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return;
    } catch (error) {
      if (attempt > 500) throw error;
      await new Promise((done) => setTimeout(done, 20));
    }
  }
}

/** Whether anything (a file, a directory, a dangling link) exists at `path`. */
export async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

/** A SKILL.md text. `extra` lines go into the frontmatter. */
export function skillMd(
  name: string,
  description: string,
  body: string,
  extra: string[] = [],
): string {
  return ["---", `name: ${name}`, `description: ${description}`, ...extra, "---", body, ""].join(
    "\n",
  );
}

/** SHA-256 hex by `node:crypto` directly: a reference independent of the code under test. */
export function sha(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Deterministic pseudo-random binary bytes including NUL and 0xff. */
export function binary(length: number, seed = 1): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed;
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  out[0] = 0x00;
  if (length > 1) out[1] = 0xff;
  return out;
}

/** Fails instead of hanging when `promise` does not settle in time. */
export async function settlesWithin<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not settle within ${ms} ms (blocked?)`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
