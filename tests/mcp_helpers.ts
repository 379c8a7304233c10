/**
 * Helpers of the MCP end-to-end tests: the real `main.ts mcp` server launched as a child process
 * in a sandbox (see `withSandbox` in `./helpers.ts`), four real SDK clients over stdio, and a raw
 * JSON-lines driver for protocol-level tests. Nothing here reads the real home.
 *
 * @module
 */
import { join } from "node:path";
import type { Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioClientTransportV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { sha256Hex } from "../lib/hash.ts";
import {
  type CliResult,
  MAIN,
  run,
  runCli,
  type Sandbox as FullSandbox,
  writeTree,
} from "./helpers.ts";

export { withSandbox } from "./helpers.ts";

/**
 * The sandbox of `./helpers.ts` as these helpers need it (everything but `commit`, so that a
 * test's own sandbox object with `cli`, `git` and `repo` still fits).
 */
export type Sandbox = Omit<FullSandbox, "commit">;
export { sha256Hex };
export { skillMd } from "./helpers.ts";

/** The directory of a Claude Code project skill. */
function projectSkillDir(box: Sandbox, name: string): string {
  return join(box.project, ".claude", "skills", name);
}

/** Writes a Claude Code project skill (`files` are extra files in its directory). */
export async function writeProjectSkill(
  box: Sandbox,
  name: string,
  skill: string,
  files: Record<string, string | Uint8Array> = {},
): Promise<string> {
  const dir = projectSkillDir(box, name);
  await writeTree(dir, { "SKILL.md": skill, ...files });
  return dir;
}

/** SHA-256 of a file's bytes. */
export async function fileSha256(path: string): Promise<string> {
  return sha256Hex(await Deno.readFile(path));
}

/** What a CLI child process produced (the one result shape of `./helpers.ts`). */
export type CliRun = CliResult;

/** Runs the CLI in the sandbox's project with its environment (plus `env`). */
export async function cli(
  box: Sandbox,
  args: string[],
  env: Record<string, string> = {},
): Promise<CliRun> {
  return await runCli(args, { cwd: box.project, env: { ...box.env, ...env }, clearEnv: true });
}

/** The bundle digest of a skill directory, from `main.ts bundle --json`. */
export async function bundleDigest(box: Sandbox, dir: string): Promise<string> {
  const run = await cli(box, ["bundle", "--json", dir]);
  if (run.code !== 0) throw new Error(`bundle --json failed (${run.code}): ${run.stderr}`);
  const manifest = JSON.parse(run.stdout) as { schema: string; sha256: string };
  if (manifest.schema !== "skills-anywhere-bundle-1") throw new Error("unexpected bundle schema");
  return manifest.sha256;
}

/** The command line that starts the real server for a sandbox. */
export function serverParams(box: Sandbox) {
  return {
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", MAIN, "mcp", "--cwd", box.project],
    env: box.env,
    cwd: box.project,
  };
}

// ---------------------------------------------------------------------------
// SDK clients

/** A tool result as both SDK generations return it. */
export interface ToolResult {
  content: { type: string; text?: string }[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
}

/** A resource read result. */
export interface ReadResult {
  contents: { uri: string; mimeType?: string; text?: string }[];
}

/** The calls the tests make; SDK 1 and SDK 2 clients both provide them. */
interface ClientLike {
  listTools(): Promise<{ tools: { name: string; inputSchema: unknown; outputSchema?: unknown }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  listResources(): Promise<
    { resources: { uri: string; name: string; description?: string; mimeType?: string }[] }
  >;
  listResourceTemplates(): Promise<
    {
      resourceTemplates: {
        uriTemplate: string;
        name: string;
        title?: string;
        mimeType?: string;
      }[];
    }
  >;
  readResource(params: { uri: string }): Promise<unknown>;
  complete(params: {
    ref: { type: "ref/resource"; uri: string };
    argument: { name: string; value: string };
  }): Promise<{ completion: { values: string[] } }>;
  getServerVersion(): { name: string; version: string } | undefined;
  getInstructions(): string | undefined;
  close(): Promise<void>;
}

/** The four client configurations of the compatibility matrix. */
export type ClientKind = "sdk1" | "legacy" | "auto" | "pin";

/** A connected client with what it negotiated and the server's stderr. */
export interface Session {
  kind: ClientKind;
  client: ClientLike;
  /** The protocol version the client ended up speaking. */
  protocolVersion: string | undefined;
  /** `legacy` (an `initialize` handshake) or `modern` (2026-07-28). */
  era: string | undefined;
  /** Calls a tool and returns its result. */
  call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  /** Reads a resource. */
  read(uri: string): Promise<ReadResult>;
  /** The server's stderr so far. */
  stderr(): string;
  /** Closes the client (and with it the server process); resolves once stderr ended. */
  close(): Promise<string>;
}

function collect(stream: Readable | null): { text: () => string; ended: Promise<void> } {
  let text = "";
  if (stream === null) return { text: () => text, ended: Promise.resolve() };
  stream.setEncoding?.("utf8");
  stream.on("data", (chunk: string | Uint8Array) => {
    text += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
  });
  const ended = new Promise<void>((resolve) => {
    stream.once("end", () => resolve());
    stream.once("close", () => resolve());
  });
  return { text: () => text, ended };
}

/** Connects one of the four client configurations to a fresh server child. */
export async function connect(box: Sandbox, kind: ClientKind): Promise<Session> {
  const params = { ...serverParams(box), stderr: "pipe" as const };
  let client: ClientLike;
  let protocolVersion: string | undefined;
  let era: string | undefined;
  let stderr: ReturnType<typeof collect>;
  if (kind === "sdk1") {
    const transport = new StdioClientTransportV1(params);
    stderr = collect(transport.stderr as Readable | null);
    // SDK 1 hands the negotiated version to transports that take it (HTTP does).
    Object.assign(transport, {
      setProtocolVersion: (version: string) => void (protocolVersion = version),
    });
    const v1 = new ClientV1({ name: "mcp-matrix-sdk1", version: "1.0.0" });
    await v1.connect(transport);
    era = protocolVersion === undefined ? undefined : "legacy";
    client = v1 as unknown as ClientLike;
  } else {
    const transport = new StdioClientTransport(params);
    stderr = collect(transport.stderr as Readable | null);
    const mode = kind === "pin" ? { pin: "2026-07-28" } : kind;
    const v2 = new Client({ name: `mcp-matrix-${kind}`, version: "1.0.0" }, {
      versionNegotiation: { mode },
    });
    await v2.connect(transport);
    protocolVersion = v2.getNegotiatedProtocolVersion();
    era = v2.getProtocolEra();
    client = v2 as unknown as ClientLike;
  }
  return {
    kind,
    client,
    protocolVersion,
    era,
    call: async (name, args = {}) => await client.callTool({ name, arguments: args }) as ToolResult,
    read: async (uri) => await client.readResource({ uri }) as ReadResult,
    stderr: () => stderr.text(),
    close: async () => {
      await client.close();
      await Promise.race([stderr.ended, new Promise((r) => setTimeout(r, 2000))]);
      return stderr.text();
    },
  };
}

/** Runs `fn` with a connected session and always closes it; returns the server's stderr. */
export async function withSession(
  box: Sandbox,
  kind: ClientKind,
  fn: (session: Session) => Promise<void>,
): Promise<string> {
  const session = await connect(box, kind);
  try {
    await fn(session);
  } finally {
    await session.close();
  }
  return session.stderr();
}

/** The text of a tool result's single text block. */
export function textOf(result: ToolResult): string {
  return result.content.filter((c) => c.type === "text").map((c) => c.text ?? "").join("\n");
}

/** The message of a rejected promise. */
export async function rejection(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error("expected the request to be rejected");
}

// ---------------------------------------------------------------------------
// Raw JSON-lines driver

/** A JSON-RPC message as read from the server's stdout. */
export interface RpcMessage {
  jsonrpc?: string;
  id?: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
  method?: string;
}

/** The real server with its stdin, stdout and stderr in the test's hands. */
export class RawServer {
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly #lines: string[] = [];
  #waiters: (() => void)[] = [];
  #stdoutDone: Promise<void>;
  #stderrDone: Promise<void>;
  #stderr = "";
  #stdoutEnded = false;
  #stdinOpen = true;

  constructor(box: Sandbox) {
    const params = serverParams(box);
    this.#child = new Deno.Command(params.command, {
      args: params.args,
      cwd: params.cwd,
      env: params.env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    this.#stdoutDone = this.#pumpStdout();
    this.#stderrDone = this.#pumpStderr();
  }

  async #pumpStderr(): Promise<void> {
    const decoder = new TextDecoder();
    for await (const chunk of this.#child.stderr) {
      this.#stderr += decoder.decode(chunk, { stream: true });
    }
  }

  async #pumpStdout(): Promise<void> {
    const decoder = new TextDecoder();
    let pending = "";
    for await (const chunk of this.#child.stdout) {
      pending += decoder.decode(chunk, { stream: true });
      let newline = pending.indexOf("\n");
      while (newline >= 0) {
        this.#lines.push(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
        newline = pending.indexOf("\n");
      }
      this.#wake();
    }
    if (pending !== "") this.#lines.push(pending);
    this.#stdoutEnded = true;
    this.#wake();
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  /** Every stdout line so far. */
  get lines(): readonly string[] {
    return this.#lines;
  }

  /** Writes one line (an object is JSON-encoded). */
  async send(message: string | Record<string, unknown>): Promise<void> {
    const line = typeof message === "string" ? message : JSON.stringify(message);
    await this.#writer.write(new TextEncoder().encode(line + "\n"));
  }

  /** Writes raw bytes to stdin in one write (no line break added). */
  async write(bytes: Uint8Array): Promise<void> {
    await this.#writer.write(bytes);
  }

  /** Waits for the first stdout message matching `match` (default 15 s). */
  async waitFor(match: (message: RpcMessage) => boolean, ms = 15_000): Promise<RpcMessage> {
    const deadline = Date.now() + ms;
    for (;;) {
      for (const line of this.#lines) {
        let message: RpcMessage;
        try {
          message = JSON.parse(line);
        } catch {
          continue;
        }
        if (match(message)) return message;
      }
      if (this.#stdoutEnded) throw new Error("stdout ended before the expected message");
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching message; stdout so far: ${this.#lines}`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        timer = setTimeout(resolve, left);
      });
      clearTimeout(timer);
    }
  }

  /** Sends a request and waits for the response with its id. */
  async request(id: number, method: string, params: Record<string, unknown> = {}) {
    await this.send({ jsonrpc: "2.0", id, method, params });
    return await this.waitFor((m) => m.id === id && m.method === undefined);
  }

  /** The legacy opening: `initialize` then `notifications/initialized`. */
  async initialize(id = 0): Promise<RpcMessage> {
    const response = await this.request(id, "initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "raw-test", version: "1.0.0" },
    });
    await this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return response;
  }

  /** Sends a signal to the server process. */
  kill(signal: Deno.Signal): void {
    this.#child.kill(signal);
  }

  /** Closes stdin (EOF). */
  async closeStdin(): Promise<void> {
    if (!this.#stdinOpen) return;
    this.#stdinOpen = false;
    await this.#writer.close().catch(() => {});
  }

  /** Waits for the process to exit (closing stdin first unless `keepStdin`). */
  async finish(
    options: { keepStdin?: boolean; ms?: number } = {},
  ): Promise<{ code: number; signal: string | null; stdout: string[]; stderr: string }> {
    if (!options.keepStdin) await this.closeStdin();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        try {
          this.#child.kill("SIGKILL");
        } catch { /* already gone */ }
        reject(new Error("the server did not exit in time"));
      }, options.ms ?? 15_000);
    });
    try {
      const status = await Promise.race([this.#child.status, timeout]);
      await Promise.all([this.#stdoutDone, this.#stderrDone]);
      if (this.#stdinOpen) await this.closeStdin();
      return {
        code: status.code,
        signal: status.signal,
        stdout: [...this.#lines],
        stderr: this.#stderr,
      };
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Runs `fn` with a raw server; always reaps the process. */
export async function withRawServer<T>(
  box: Sandbox,
  fn: (server: RawServer) => Promise<T>,
): Promise<T> {
  const server = new RawServer(box);
  try {
    return await fn(server);
  } finally {
    await server.finish({ ms: 5000 }).catch(() => {});
  }
}

// ---------------------------------------------------------------------------
// Git

/** The test's own git: isolated home and config, fixed identity (same as `box.git`). */
export function git(box: Sandbox, cwd: string, ...args: string[]): Promise<string> {
  return box.git(cwd, ...args);
}

/**
 * Puts a `git` wrapper in front of the sandbox PATH that appends every
 * invocation's arguments to a log, then runs the real git. Returns a reader
 * of the logged lines.
 */
export async function logGitCalls(box: Sandbox): Promise<() => Promise<string[]>> {
  const real = await whichGit();
  const bin = join(box.root, "bin");
  const log = join(box.root, "git-calls.log");
  await Deno.mkdir(bin, { recursive: true });
  await Deno.writeTextFile(log, "");
  await Deno.writeTextFile(
    join(bin, "git"),
    `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`,
  );
  await Deno.chmod(join(bin, "git"), 0o755);
  box.env.PATH = `${bin}:${box.env.PATH}`;
  return async () => (await Deno.readTextFile(log)).split("\n").filter((l) => l !== "");
}

async function whichGit(): Promise<string> {
  const result = await run("sh", ["-c", "command -v git"]);
  const path = result.stdout.trim();
  if (result.code !== 0 || path === "") throw new Error("git is not installed");
  return path;
}

/** Makes a repository at `dir` with `files` in one commit; returns the commit. */
export async function gitRepo(
  box: Sandbox,
  dir: string,
  files: Record<string, string>,
): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  await box.git(dir, "init", "-q");
  return await gitCommit(box, dir, files);
}

/** Writes `files` in a repository and commits them; returns the new commit. */
export async function gitCommit(
  box: Sandbox,
  dir: string,
  files: Record<string, string>,
): Promise<string> {
  await writeTree(dir, files);
  await box.git(dir, "add", "--all");
  await box.git(dir, "commit", "-q", "-m", `write ${Object.keys(files).join(", ")}`);
  return await box.git(dir, "rev-parse", "HEAD");
}
