/**
 * Helpers of the Streamable HTTP tests: the real `main.ts mcp --http 127.0.0.1:0` server as a
 * child process in a sandbox (its URL read from the one line it prints on stderr), SDK v1 and v2
 * clients over HTTP, and a raw HTTP/1.1 request over a TCP socket for the headers `fetch` will not
 * let a test forge (Host). Everything binds 127.0.0.1 only.
 *
 * @module
 */
import { connect as connectTcp } from "node:net";
import { Buffer } from "node:buffer";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpTransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { cliCommand, MAIN } from "./helpers.ts";
import type { Sandbox } from "./mcp_helpers.ts";

/** The line the server prints once it listens: its URL comes before the semicolon. */
const LISTENING = /serving MCP on (http:\/\/\S+); /;

/** A running HTTP server child. */
export interface HttpServer {
  /** The endpoint, e.g. `http://127.0.0.1:39218/mcp`. */
  url: string;
  /** The server's stderr so far. */
  stderr(): string;
  /** Sends `signal` and resolves with the exit code and the whole stderr. */
  stop(signal?: Deno.Signal): Promise<{ code: number; stderr: string }>;
}

/** The command line of the real CLI (`deno run main.ts`, or the shipped build of DSA_CLI). */
function command(args: string[]): { program: string; args: string[] } {
  const override = cliCommand();
  if (override === undefined) {
    return { program: Deno.execPath(), args: ["run", "-A", "--quiet", MAIN, ...args] };
  }
  return { program: override[0], args: [...override.slice(1), ...args] };
}

/**
 * Starts `mcp --http 127.0.0.1:0` (plus `extra`) in the sandbox's project and resolves once it
 * listens; rejects with its stderr when it exits first.
 */
export async function startHttpServer(box: Sandbox, extra: string[] = []): Promise<HttpServer> {
  const { program, args } = command(["mcp", "--http", "127.0.0.1:0", ...extra]);
  const child = new Deno.Command(program, {
    args,
    cwd: box.project,
    env: { NO_COLOR: "1", ...box.env },
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let stderr = "";
  let found: (url: string | undefined) => void = () => {};
  const listening = new Promise<string | undefined>((resolve) => found = resolve);
  const pumped = (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) {
      stderr += decoder.decode(chunk, { stream: true });
      const match = LISTENING.exec(stderr);
      if (match !== null) found(match[1]);
    }
    found(undefined);
  })();
  const url = await listening;
  if (url === undefined) {
    const status = await child.status;
    throw new Error(`the server exited with ${status.code} before listening:\n${stderr}`);
  }
  return {
    url,
    stderr: () => stderr,
    stop: async (signal = "SIGTERM") => {
      child.kill(signal);
      const status = await child.status;
      await pumped;
      return { code: status.code, stderr };
    },
  };
}

/** Runs `fn` with a running server and always stops it; returns the exit code and stderr. */
export async function withHttpServer(
  box: Sandbox,
  extra: string[],
  fn: (server: HttpServer) => Promise<void>,
): Promise<{ code: number; stderr: string }> {
  const server = await startHttpServer(box, extra);
  let failed = false;
  let failure: unknown;
  try {
    await fn(server);
  } catch (error) {
    [failed, failure] = [true, error];
  }
  const stopped = await server.stop();
  if (failed) throw failure;
  return stopped;
}

/** The calls the HTTP tests make; SDK 1 and SDK 2 clients both provide them. */
export interface HttpClient {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  listResources(): Promise<{ resources: { uri: string; name: string }[] }>;
  readResource(params: { uri: string }): Promise<unknown>;
  close(): Promise<void>;
}

/** Which client speaks: SDK 1, or SDK 2 negotiating (`auto`) or forced to `initialize` (`legacy`). */
export type HttpClientKind = "sdk1" | "auto" | "legacy";

/** Connects a real SDK client to `url`, sending `headers` with every request. */
export async function connectHttp(
  url: string,
  kind: HttpClientKind,
  headers: Record<string, string> = {},
): Promise<{ client: HttpClient; era?: string }> {
  const requestInit = { headers };
  if (kind === "sdk1") {
    const client = new ClientV1({ name: "http-sdk1", version: "1.0.0" });
    await client.connect(new HttpTransportV1(new URL(url), { requestInit }));
    return { client: client as unknown as HttpClient, era: "legacy" };
  }
  const client = new Client({ name: `http-${kind}`, version: "1.0.0" }, {
    versionNegotiation: { mode: kind },
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit }));
  return { client: client as unknown as HttpClient, era: client.getProtocolEra() };
}

/** What a raw HTTP exchange returned. */
export interface RawResponse {
  status: number;
  headers: string;
  body: string;
}

/**
 * Sends one HTTP/1.1 request over a fresh TCP connection with exactly `headers` (Host included,
 * which `fetch` would replace) and reads the whole answer.
 */
export async function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
  body = "",
): Promise<RawResponse> {
  const { hostname, port, pathname } = new URL(url);
  const connection = await Deno.connect({ hostname, port: Number(port) });
  const bytes = new TextEncoder().encode(body);
  const lines = [`${method} ${pathname} HTTP/1.1`, "Connection: close"];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (method === "POST") lines.push(`Content-Length: ${bytes.length}`);
  await connection.write(new TextEncoder().encode(lines.join("\r\n") + "\r\n\r\n"));
  if (bytes.length > 0) await connection.write(bytes);
  const answer = await readAnswer(connection);
  connection.close();
  const split = answer.indexOf("\r\n\r\n");
  const head = answer.slice(0, split);
  return {
    status: Number(head.split(" ")[1]),
    headers: head.toLowerCase(),
    body: answer.slice(split + 4),
  };
}

/**
 * Reads one HTTP answer: up to its Content-Length, or its last chunk, or the end of the
 * connection (a server may keep it open after `Connection: close`).
 */
async function readAnswer(connection: Deno.Conn): Promise<string> {
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(64 * 1024);
  let answer = "";
  for (;;) {
    const read = await connection.read(buffer);
    if (read === null) return answer;
    answer += decoder.decode(buffer.subarray(0, read), { stream: true });
    if (complete(answer)) return answer;
  }
}

/** Whether `answer` holds a whole HTTP response. */
function complete(answer: string): boolean {
  const split = answer.indexOf("\r\n\r\n");
  if (split < 0) return false;
  const head = answer.slice(0, split).toLowerCase();
  const length = /\r\ncontent-length: *(\d+)/.exec(head);
  if (length !== null) {
    return new TextEncoder().encode(answer.slice(split + 4)).length >= Number(length[1]);
  }
  return /\r\ntransfer-encoding: *chunked/.test(head) && answer.endsWith("\r\n0\r\n\r\n");
}

/** A JSON-RPC request body (2025-era: no `_meta` envelope, so it is served statelessly). */
export function rpc(method: string, params: Record<string, unknown> = {}, id = 1): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method, params });
}

/** The headers of a well-formed MCP POST from a loopback client at `url`. */
export function mcpHeaders(url: string, extra: Record<string, string> = {}) {
  return {
    Host: new URL(url).host,
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    ...extra,
  };
}

/** What a held connection received by the time the server closed it. */
export interface HeldAnswer {
  /** The status of the answer, or `undefined` when the server closed without one. */
  status: number | undefined;
  /** The answer's head, lower-cased (status line and headers). */
  headers: string;
  /** The network error that ended the connection, if any (a reset after the answer). */
  error?: string;
}

/** A raw TCP connection that sent part of a request and now holds it open. */
export interface HeldConnection {
  /** Resolves once the server has closed the connection, with whatever it answered. */
  closed: Promise<HeldAnswer>;
  /** Whether the server has closed it yet. */
  isClosed(): boolean;
  /** Closes it from this side (and resolves `closed`). */
  destroy(): void;
}

/**
 * Opens a TCP connection to `url`'s port, sends `parts` in order and then holds: never another
 * byte, never its own end. `closed` settles only when the server closes (or resets) it.
 */
export async function holdConnection(
  url: string,
  parts: (string | Uint8Array)[],
): Promise<HeldConnection> {
  const { hostname, port } = new URL(url);
  const socket = connectTcp({ host: hostname, port: Number(port) });
  const chunks: Buffer[] = [];
  let done = false;
  let error: string | undefined;
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  socket.on("error", (e: NodeJS.ErrnoException) => error = e.code ?? e.message);
  const closed = new Promise<HeldAnswer>((resolve) => {
    socket.once("close", () => {
      done = true;
      const text = Buffer.concat(chunks).toString("latin1");
      const head = text.slice(0, Math.max(0, text.indexOf("\r\n\r\n"))).toLowerCase();
      const status = /^http\/1\.1 (\d{3})/.exec(text.toLowerCase())?.[1];
      resolve({ status: status === undefined ? undefined : Number(status), headers: head, error });
    });
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("error", reject);
  });
  for (const part of parts) {
    if (done) break;
    await new Promise<void>((resolve) => socket.write(part, () => resolve()));
  }
  return { closed, isClosed: () => done, destroy: () => void socket.destroy() };
}

/** The head of a request to `url` (Host of the URL unless `headers` names one), ending its headers. */
export function requestHead(
  url: string,
  method: string,
  headers: Record<string, string>,
): string {
  const lines = [`${method} ${new URL(url).pathname} HTTP/1.1`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return lines.join("\r\n") + "\r\n\r\n";
}

/**
 * Sends `bodies` as POSTs one after another over one kept-alive TCP connection, pausing `pauseMs`
 * between an answer and the next request; resolves with each answer's status. Rejects when the
 * server closes the connection before every answer came.
 */
export async function keepAliveRequests(
  url: string,
  headers: Record<string, string>,
  bodies: string[],
  pauseMs: number,
): Promise<number[]> {
  const { hostname, port } = new URL(url);
  const socket = connectTcp({ host: hostname, port: Number(port) });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", () => resolve());
    socket.once("error", reject);
  });
  let received = "";
  let wake: () => void = () => {};
  let ended = false;
  socket.on("data", (chunk: Buffer) => {
    received += chunk.toString("latin1");
    wake();
  });
  socket.on("close", () => {
    ended = true;
    wake();
  });
  socket.on("error", () => {});
  const statuses: number[] = [];
  try {
    for (const [index, body] of bodies.entries()) {
      if (index > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      const length = Buffer.byteLength(body);
      socket.write(
        requestHead(url, "POST", { ...headers, "Content-Length": String(length) }) + body,
      );
      while (!complete(received)) {
        if (ended) throw new Error(`the server closed the connection after ${index} answers`);
        await new Promise<void>((resolve) => wake = resolve);
      }
      statuses.push(Number(received.split(" ")[1]));
      received = "";
    }
  } finally {
    socket.destroy();
  }
  return statuses;
}
