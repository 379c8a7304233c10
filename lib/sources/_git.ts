/**
 * The one git runner. Every git command this tool runs goes through
 * {@linkcode runGit}, under one policy that holds for every source, trusted or
 * not — a repository is hostile input and git must never run its code:
 *
 * - no shell: `spawn` with an argument list; callers put `--` before every
 *   URL or path argument;
 * - no configuration but ours: the system and global git configuration are
 *   ignored (`GIT_CONFIG_NOSYSTEM=1`, `GIT_CONFIG_GLOBAL` = the null device),
 *   and every `GIT_*` variable of the caller's environment is dropped, so a
 *   caller running inside a git hook cannot redirect it;
 * - no code from a repository: `core.hooksPath` points at the null device (no
 *   hook can exist there), `core.fsmonitor=false`, `submodule.recurse=false`,
 *   `protocol.ext.allow=never`, `protocol.file.allow=never` unless the caller
 *   allows local paths (sources the user gave as a local path),
 *   `safe.bareRepository=explicit`, no LFS smudge, no prompts;
 * - no configuration from around the working directory: a command that
 *   needs no repository (`clone`, `init`, `ls-remote`) runs with
 *   `noRepository`, so git stops looking for one at its working directory
 *   (`ls-remote` would otherwise read the configuration — `core.sshCommand`,
 *   `url.*.insteadOf` — of a repository that holds it, such as a hostile
 *   project); every other command names its repository with `gitDir`;
 * - bounded: a per-command timeout (SIGTERM, then SIGKILL), a 4 MiB output cap
 *   and an optional abort signal.
 *
 * @example
 * ```ts
 * import { runGit } from "./_git.ts";
 * // Type-checked, not run by the doc test: it runs git in a clone at /cache/r.
 * async function example() {
 *   const head = await runGit(["rev-parse", "HEAD"], {
 *     gitDir: "/cache/r/.git",
 *     workTree: "/cache/r",
 *   });
 * }
 * ```
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { devNull } from "node:os";
import { dirname, resolve } from "node:path";
import process from "node:process";
import { KindError } from "../errors.ts";
import { DEFAULT_GIT_TIMEOUT_MS, formatBytes, MAX_GIT_OUTPUT_BYTES } from "../limits.ts";
import { concatBytes } from "../util.ts";

/** The message of a git that cannot be started. */
export const GIT_MISSING = "git is not installed or not on PATH";

/**
 * Why a git command did not succeed: `refused` when git itself exited with an
 * error (the message is the useful line of its stderr), `stopped` when it was
 * timed out, aborted, cut off or could not start.
 */
export type GitErrorKind = "refused" | "stopped";

/**
 * A git command that did not succeed.
 *
 * @example
 * ```ts
 * import { GitError, runGit } from "./_git.ts";
 * try {
 *   await runGit(["rev-parse", "HEAD"], { gitDir: "/nowhere/.git" });
 * } catch (error) {
 *   if (error instanceof GitError) console.log(error.kind); // "refused"
 * }
 * ```
 */
export class GitError extends KindError<GitErrorKind> {}

/** Options of {@linkcode runGit}. */
export interface GitOptions {
  /** The working directory of the process. */
  cwd?: string;
  /** Passed as `--git-dir`; every probe of an existing checkout sets it. */
  gitDir?: string;
  /** Passed as `--work-tree`. */
  workTree?: string;
  /**
   * The command needs no repository: git looks for none above `cwd`
   * (`GIT_CEILING_DIRECTORIES` is set to the parent of `cwd`), so a
   * repository around the working directory lends it no configuration.
   */
  noRepository?: boolean;
  /**
   * Allow `file://` and local-path transports.
   *
   * @default {false}
   */
  allowFileProtocol?: boolean;
  /**
   * Per command, in milliseconds.
   *
   * @default {DEFAULT_GIT_TIMEOUT_MS}
   */
  timeoutMs?: number;
  /** Aborts the command; it then fails as `stopped`. */
  signal?: AbortSignal;
  /** Extra environment (not `GIT_*`, which is dropped) on top of the process environment. */
  env?: Record<string, string>;
  /**
   * The git executable.
   *
   * @default `git`, looked up on PATH
   */
  git?: string;
}

/** The `-c` settings every command runs with. */
function policyArgs(allowFile: boolean): string[] {
  const settings = [
    `core.hooksPath=${devNull}`,
    "core.fsmonitor=false",
    "core.untrackedCache=false",
    "submodule.recurse=false",
    "protocol.ext.allow=never",
    `protocol.file.allow=${allowFile ? "always" : "never"}`,
    "safe.bareRepository=explicit",
    "credential.helper=",
    "core.askPass=",
    "gc.auto=0",
    "maintenance.auto=false",
    "advice.detachedHead=false",
  ];
  return settings.flatMap((setting) => ["-c", setting]);
}

/** The environment git runs with: the caller's, minus every `GIT_*` variable, plus the policy. */
function gitEnvironment(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...process.env, ...extra })) {
    if (value !== undefined && !name.toUpperCase().startsWith("GIT_")) env[name] = value;
  }
  env.GIT_CONFIG_NOSYSTEM = "1";
  env.GIT_CONFIG_GLOBAL = devNull;
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_LFS_SKIP_SMUDGE = "1";
  env.GIT_PROTOCOL_FROM_USER = "0";
  env.GIT_ASKPASS = "";
  env.SSH_ASKPASS = "";
  return env;
}

/** The first `fatal:`/`error:` line of git's stderr, else its first non-empty line. */
function gitMessage(stderr: string): string | undefined {
  const lines = stderr.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== "");
  return lines.find((line) => /^(fatal|error):/.test(line)) ?? lines[0];
}

/**
 * Runs git with an argument list (never a shell) under the policy of this
 * module, and resolves with its trimmed stdout once the process has exited
 * and its pipes have closed. Rejects with {@linkcode GitError}.
 *
 * @throws {GitError} Rejects with one when the command is refused or does not complete (its `kind`
 * says which).
 *
 * @example
 * ```ts
 * import { runGit } from "./_git.ts";
 * const version = await runGit(["--version"]);
 * ```
 */
export function runGit(args: readonly string[], options: GitOptions = {}): Promise<string> {
  const command = `git ${args[0] ?? ""}`.trim();
  if (options.signal?.aborted) {
    return Promise.reject(new GitError("stopped", `${command} aborted`));
  }
  const child = spawn(options.git ?? "git", gitArgv(args, options), {
    cwd: options.cwd,
    env: spawnEnvironment(options),
    stdio: ["ignore", "pipe", "pipe"],
    windowsHide: true,
  });
  return settle(child, command, options);
}

/** The policy's `-c` settings, the repository location, then the caller's arguments. */
function gitArgv(args: readonly string[], options: GitOptions): string[] {
  const location = [
    ...(options.gitDir !== undefined ? [`--git-dir=${options.gitDir}`] : []),
    ...(options.workTree !== undefined ? [`--work-tree=${options.workTree}`] : []),
  ];
  return [...policyArgs(options.allowFileProtocol === true), ...location, ...args];
}

/** {@linkcode gitEnvironment}, with no repository lookup above `cwd` for `noRepository`. */
function spawnEnvironment(options: GitOptions): Record<string, string> {
  const env = gitEnvironment(options.env);
  if (options.noRepository === true) {
    env.GIT_CEILING_DIRECTORIES = dirname(resolve(options.cwd ?? process.cwd()));
  }
  return env;
}

/** Chunks of one output stream, up to {@linkcode MAX_GIT_OUTPUT_BYTES}. */
class Output {
  readonly chunks: Uint8Array[] = [];
  bytes = 0;

  /** Keeps `chunk` unless the stream is now over the cap; returns whether it was kept. */
  add(chunk: Uint8Array): boolean {
    this.bytes += chunk.length;
    if (this.bytes > MAX_GIT_OUTPUT_BYTES) return false;
    this.chunks.push(chunk);
    return true;
  }

  /** The kept bytes as text. */
  text(): string {
    return new TextDecoder().decode(concatBytes(this.chunks));
  }
}

/**
 * The bounds of one running git process: a timeout and the abort signal stop it (SIGTERM,
 * then SIGKILL after 2 s); `reason` says why it was stopped, first cause first.
 */
class Stopper {
  reason: string | undefined;
  readonly #child: ChildProcess;
  readonly #signal: AbortSignal | undefined;
  readonly #timer: ReturnType<typeof setTimeout>;
  #killTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #command: string;
  readonly #onAbort = () => this.stop(`${this.#command} aborted`);

  /** Starts the timeout and listens to the abort signal. */
  constructor(child: ChildProcess, command: string, options: GitOptions) {
    const timeoutMs = options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
    this.#child = child;
    this.#command = command;
    this.#signal = options.signal;
    this.#timer = setTimeout(
      () => this.stop(`${command} timed out after ${timeoutMs} ms`),
      timeoutMs,
    );
    this.#signal?.addEventListener("abort", this.#onAbort, { once: true });
  }

  /** Stops the process for `reason` (the first reason given wins). */
  stop(reason: string): void {
    this.reason ??= reason;
    this.#child.kill("SIGTERM");
    this.#killTimer ??= setTimeout(() => this.#child.kill("SIGKILL"), 2000);
  }

  /** Clears the timers and the abort listener once the process has settled. */
  release(): void {
    clearTimeout(this.#timer);
    if (this.#killTimer !== undefined) clearTimeout(this.#killTimer);
    this.#signal?.removeEventListener("abort", this.#onAbort);
  }
}

/**
 * Waits for a started git process under the bounds of `options` (see {@linkcode Stopper}),
 * stopping it too when stdout passes the output cap. Resolves with trimmed stdout on exit
 * code 0.
 */
function settle(child: ChildProcess, command: string, options: GitOptions): Promise<string> {
  return new Promise((resolvePromise, rejectPromise) => {
    const stdout = new Output();
    const stderr = new Output();
    const stopper = new Stopper(child, command, options);
    let settled = false;
    const finish = (error: Error | undefined, output = "") => {
      if (settled) return;
      settled = true;
      stopper.release();
      if (error !== undefined) rejectPromise(error);
      else resolvePromise(output);
    };
    child.stdout?.on("data", (chunk: Uint8Array) => {
      if (!stdout.add(chunk)) {
        stopper.stop(`${command} printed more than ${formatBytes(MAX_GIT_OUTPUT_BYTES)}`);
      }
    });
    child.stderr?.on("data", (chunk: Uint8Array) => stderr.add(chunk));
    child.on("error", (error: Error & { code?: string }) => {
      // A process that never started emits no "close" worth waiting for.
      if (child.pid !== undefined) return;
      const message = error.code === "ENOENT" ? GIT_MISSING : error.message;
      finish(new GitError("stopped", stopper.reason ?? message));
    });
    child.on("close", (code: number | null, signal: string | null) => {
      if (stopper.reason !== undefined) return finish(new GitError("stopped", stopper.reason));
      if (code === 0) return finish(undefined, stdout.text().trim());
      finish(new GitError("refused", gitMessage(stderr.text()) ?? exitText(command, code, signal)));
    });
  });
}

/** How a git process that failed without a message ended. */
function exitText(command: string, code: number | null, signal: string | null): string {
  return signal !== null
    ? `${command} was killed by ${signal}`
    : `${command} exited with code ${code}`;
}

const probes = new Map<string, Promise<boolean>>();

/**
 * Whether git can run (`git --version` succeeds). Probed once per executable
 * and remembered.
 *
 * @example
 * ```ts
 * import { gitAvailable } from "./_git.ts";
 * if (!(await gitAvailable())) console.error("git sources are disabled");
 * ```
 */
export function gitAvailable(git = "git"): Promise<boolean> {
  let probe = probes.get(git);
  if (probe === undefined) {
    probe = runGit(["--version"], { git, timeoutMs: 10_000 }).then(() => true, () => false);
    probes.set(git, probe);
  }
  return probe;
}

/**
 * The commit a remote's `ref` (or its HEAD) names now, as `git clone --branch`
 * would pick it: a branch, then a tag (peeled); undefined when none matches.
 * Runs `git ls-remote -- <url> <patterns>` with `noRepository`, so `cwd`
 * must be a folder of ours that is not a repository.
 *
 * @example
 * ```ts
 * import { remoteCommit } from "./_git.ts";
 * // Type-checked, not run by the doc test: it clones over the network.
 * async function example() {
 *   const sha = await remoteCommit("https://github.com/o/r.git", "main", { cwd: "/cache" });
 * }
 * ```
 */
export async function remoteCommit(
  url: string,
  ref: string | undefined,
  options: GitOptions,
): Promise<string | undefined> {
  const patterns = ref === undefined ? ["HEAD"] : [ref, `${ref}^{}`];
  const output = await runGit(["ls-remote", "--", url, ...patterns], {
    ...options,
    noRepository: true,
  });
  const listed = new Map<string, string>();
  for (const line of output.split("\n")) {
    const [sha = "", name = ""] = line.trim().split("\t");
    if (name !== "") listed.set(name, sha);
  }
  const names = ref === undefined
    ? ["HEAD"]
    : [`refs/heads/${ref}`, `refs/tags/${ref}^{}`, `refs/tags/${ref}`, ref];
  return names.map((name) => listed.get(name)).find((sha) => sha !== undefined);
}
