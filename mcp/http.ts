/**
 * The Streamable HTTP endpoint: the SDK's stateless `createMcpHandler` (the
 * 2026-07-28 per-request protocol, and 2025-era clients through its stateless
 * fallback) mounted on `/mcp` of a `node:http` server, behind three gates in
 * this order: the Host header (DNS-rebinding protection), the Origin header
 * (a browser page of a foreign site is refused) and, when a token is set,
 * `Authorization: Bearer <token>` (401 otherwise). Every gate is the SDK's
 * own helper. Nothing is kept between requests, so any number of instances
 * can serve one catalog behind a load balancer.
 *
 * Before authentication nothing is costly. The gates (and the path) are
 * decided on the request's headers alone, at the `node:http` request level,
 * before one byte of the body is read: a refusal is answered at once with
 * `Connection: close` and the connection closed, whatever the client still
 * owes. Only an admitted request's body is read, up to the SDK's 4 MiB
 * (`DEFAULT_MAX_REQUEST_BODY_SIZE`; a larger declared `Content-Length` is
 * refused with 413 unread) and within the request timeout (408 and closed
 * otherwise). The number of open connections is capped (one more is answered
 * 503 with `Retry-After` and closed, before anything of it is read), headers
 * must arrive within the request timeout (408) and an idle connection is
 * closed after 5 s. The defaults are defined once, in `lib/limits.ts`.
 *
 * Change notifications. A 2026-07-28 client gets them on its
 * `subscriptions/listen` stream (the SDK handler's notifier). A 2025-era
 * client opens `GET /mcp` with `Accept: text/event-stream` after `initialize`
 * (the SDK's stateless fallback would answer 405): an admitted one (the same
 * gates) gets a server-sent event stream of its own, without a session id,
 * that carries `notifications/resources/list_changed` as `event: message`
 * JSON-RPC notifications, and a `: keepalive` comment every 15 s. At most half
 * the connection cap (at least one) such streams are open at once; one more is
 * answered 503 with `Retry-After`. Streams end when the endpoint closes. Every
 * instance sends what its own catalog saw, so behind a load balancer every
 * stream hears every change.
 *
 * @example
 * ```ts
 * import { listenHttp } from "./http.ts";
 * import { createSkillsAnywhereServer } from "./server.ts";
 * const endpoint = await listenHttp(() => createSkillsAnywhereServer().server, { port: 0 });
 * console.log(endpoint.url); // http://127.0.0.1:<port>/mcp
 * await endpoint.close();
 * ```
 * @module
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Buffer } from "node:buffer";
import { timingSafeEqual } from "node:crypto";
import {
  type AuthInfo,
  createMcpHandler,
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  type McpHttpHandler,
  type McpServerFactory,
  OAuthError,
  OAuthErrorCode,
  originValidationResponse,
  requireBearerAuth,
} from "@modelcontextprotocol/server";
import { KindError } from "../lib/errors.ts";
import {
  DEFAULT_HTTP_MAX_CONNECTIONS,
  DEFAULT_HTTP_REQUEST_TIMEOUT_MS,
  HTTP_IDLE_TIMEOUT_MS,
} from "../lib/limits.ts";
import { sha256Hex } from "../lib/hash.ts";
import { httpRefusal } from "./protocol.ts";

/** The path the endpoint answers on; every other path is 404. */
export const MCP_PATH = "/mcp";

/** The host an endpoint binds when none is given: loopback only. */
export const DEFAULT_HTTP_HOST = "127.0.0.1";

/** Options of {@linkcode listenHttp}. */
export interface HttpOptions {
  /**
   * The interface to bind.
   *
   * @default {"127.0.0.1"}
   */
  host?: string;
  /** The port; 0 picks a free one (the bound URL says which). */
  port: number;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token?: string;
  /**
   * Most connections open at once (default `DEFAULT_HTTP_MAX_CONNECTIONS`, 256); one more is
   * answered 503 with `Retry-After` and closed.
   *
   * @default {DEFAULT_HTTP_MAX_CONNECTIONS}
   */
  maxConnections?: number;
  /**
   * Longest wait, in milliseconds, for a request's headers, and then again for its body (default
   * `DEFAULT_HTTP_REQUEST_TIMEOUT_MS`, 10 s); a slower client is answered 408 and closed. Answers
   * (event streams included) are never cut by it.
   *
   * @default {DEFAULT_HTTP_REQUEST_TIMEOUT_MS}
   */
  requestTimeoutMs?: number;
  /** Out-of-band errors of the handler (reporting only). */
  onerror?: (error: Error) => void;
}

/** A listening endpoint. */
export interface HttpEndpoint {
  /** The endpoint's URL, with the bound port (`http://127.0.0.1:39218/mcp`). */
  url: string;
  /** Whether the Host header is checked (it is not when bound to every interface). */
  hostChecked: boolean;
  /**
   * Publishes `notifications/resources/list_changed` to every open subscription that asked for
   * it (the per-request servers are gone by then: the handler's own notifier carries it) and to
   * every 2025-era `GET` event stream.
   */
  resourcesChanged(): void;
  /** Stops listening, ends open exchanges and resolves when the server is closed. */
  close(): Promise<void>;
}

const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", "[::]"]);

/** `::1` → `[::1]`: host names as the Host header and the SDK's allowlists spell them. */
function bracketed(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

/**
 * The Host names a request may use: loopback names plus the bound host, or
 * `undefined` (not checked) when bound to every interface, where the names
 * the clients use cannot be known (the SDK's reference Express app does the same).
 */
function allowedHosts(host: string): string[] | undefined {
  if (WILDCARD_HOSTS.has(host)) return undefined;
  const names = localhostAllowedHostnames();
  const own = bracketed(host).toLowerCase();
  return names.includes(own) ? names : [...names, own];
}

/** The SDK's bearer gate for one fixed token, compared in constant time. */
function tokenGate(token: string): (request: Request) => Promise<AuthInfo | Response> {
  const expected = Buffer.from(sha256Hex(token), "hex");
  return requireBearerAuth({
    verifier: {
      verifyAccessToken: (given) => {
        if (!timingSafeEqual(Buffer.from(sha256Hex(given), "hex"), expected)) {
          return Promise.reject(new OAuthError(OAuthErrorCode.InvalidToken, "Invalid token"));
        }
        // The token of a file does not expire; the SDK's gate wants an expiry, so: an hour ahead.
        const expiresAt = Math.floor(Date.now() / 1000) + 3600;
        return Promise.resolve({ token: given, clientId: "token-file", scopes: [], expiresAt });
      },
    },
  });
}

/** What the gates decided on a request's headers: a refusal to send, or admitted. */
type Gate = (request: Request) => Promise<{ refused: Response } | { authInfo?: AuthInfo }>;

/**
 * The gates, in order, on a request's headers alone (the `Request` given has no body): the path,
 * the Host header, the Origin header, then the bearer token when one is set.
 */
function gates(hosts: string[] | undefined, token: string | undefined): Gate {
  const bearer = token === undefined ? undefined : tokenGate(token);
  const origins = hosts ?? localhostAllowedHostnames();
  return async (request) => {
    if (new URL(request.url).pathname !== MCP_PATH) {
      return { refused: new Response("Not found\n", { status: 404 }) };
    }
    const refused =
      (hosts === undefined ? undefined : hostHeaderValidationResponse(request, hosts)) ??
        originValidationResponse(request, origins);
    if (refused !== undefined) return { refused };
    const auth = bearer === undefined ? undefined : await bearer(request);
    if (auth instanceof Response) return { refused: auth };
    return { authInfo: auth };
  };
}

/** How reading a body ended: its bytes, too large, too slow, or the client went away. */
type BodyRead = { bytes: Buffer } | { failed: "too-large" | "timeout" | "gone" };

/**
 * Reads an admitted request's body: at most `limit` bytes (a larger declared `Content-Length` is
 * refused before anything is read), all of it within `timeoutMs`.
 */
function readBody(req: IncomingMessage, limit: number, timeoutMs: number): Promise<BodyRead> {
  if (Number(req.headers["content-length"]) > limit) {
    return Promise.resolve({ failed: "too-large" });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (read: BodyRead) => {
      clearTimeout(timer);
      req.off("data", onData).off("end", onEnd).off("close", onGone).off("error", onGone);
      if ("failed" in read) req.pause();
      resolve(read);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return finish({ failed: "too-large" });
      chunks.push(chunk);
    };
    const onEnd = () => finish({ bytes: Buffer.concat(chunks) });
    const onGone = () => finish({ failed: "gone" });
    const timer = setTimeout(() => finish({ failed: "timeout" }), timeoutMs);
    req.on("data", onData).on("end", onEnd).on("close", onGone).on("error", onGone);
  });
}

/** The web `Request` of a Node request, with `body` (none for the gates, or GET and HEAD). */
function webRequest(
  req: IncomingMessage,
  body: Buffer | undefined,
  base: string,
  signal?: AbortSignal,
): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one);
  }
  // The URL's authority is the bound host: the Host header is checked as a header, never trusted.
  const url = new URL(req.url ?? "/", base);
  const hasBody = body !== undefined && req.method !== "GET" && req.method !== "HEAD";
  return new Request(url, {
    method: req.method,
    headers,
    body: hasBody ? new Uint8Array(body) : undefined,
    signal,
  });
}

/**
 * Writes a web `Response` to a Node response, streaming its body (SSE included). With `close`,
 * the answer says `Connection: close` and the connection ends with it, whatever the client still
 * owes of its request.
 */
async function sendResponse(res: ServerResponse, response: Response, close = false): Promise<void> {
  const headers = Object.fromEntries(response.headers);
  res.writeHead(response.status, close ? { ...headers, connection: "close" } : headers);
  if (response.body === null) return void res.end();
  const reader = response.body.getReader();
  res.once("close", () => void reader.cancel().catch(() => {}));
  try {
    for (let step = await reader.read(); !step.done; step = await reader.read()) {
      res.write(step.value);
    }
  } finally {
    res.end();
  }
}

/** The plain-text answer of a request refused for its body, ending the connection. */
const BODY_REFUSALS: Readonly<Record<"too-large" | "timeout", [number, string]>> = {
  "too-large": [413, "Request body too large\n"],
  timeout: [408, "Request body not received in time\n"],
};

/** How often an idle event stream carries a comment, so proxies keep it open (milliseconds). */
const EVENT_STREAM_KEEPALIVE_MS = 15_000;

/** The protocol versions that open a `GET` event stream (the 2025 Streamable HTTP transport). */
function isStreamGet(req: IncomingMessage): boolean {
  if (req.method !== "GET") return false;
  const accept = String(req.headers.accept ?? "").toLowerCase();
  if (!accept.includes("text/event-stream")) return false;
  // A 2026-07-28 client never opens one; it listens with `subscriptions/listen`.
  const version = req.headers["mcp-protocol-version"];
  return version === undefined || String(version) < "2026";
}

/**
 * The 2025-era `GET` event streams (see the module doc): at most `max` open, each with its
 * keep-alive timer, all ended by {@linkcode EventStreams.closeAll}.
 */
class EventStreams {
  readonly #open = new Map<ServerResponse, ReturnType<typeof setInterval>>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  /** Answers an admitted `GET` with a stream, or 503 when `max` are open. */
  serve(req: IncomingMessage, res: ServerResponse): void {
    req.resume();
    if (this.#open.size >= this.#max) {
      res.writeHead(503, { "content-type": "text/plain", "retry-after": "5" });
      res.end("Too many event streams\n");
      return;
    }
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    res.write(": stream open\n\n");
    const timer = setInterval(() => res.write(": keepalive\n\n"), EVENT_STREAM_KEEPALIVE_MS);
    this.#open.set(res, timer);
    res.once("close", () => {
      clearInterval(timer);
      this.#open.delete(res);
    });
  }

  /** Writes one JSON-RPC notification to every open stream. */
  send(message: Record<string, unknown>): void {
    const frame = `event: message\ndata: ${JSON.stringify(message)}\n\n`;
    for (const res of this.#open.keys()) res.write(frame);
  }

  /** Ends every open stream. */
  closeAll(): void {
    for (const [res, timer] of this.#open) {
      clearInterval(timer);
      res.end();
    }
    this.#open.clear();
  }
}

/**
 * The `node:http` listener: the gates on the headers first (nothing of the body is read before
 * they admit the request), then the body within its bounds, then the SDK's handler.
 */
function nodeListener(
  gate: Gate,
  handler: McpHttpHandler,
  base: string,
  timeoutMs: number,
  refusedSockets: WeakSet<Socket>,
  onerror: (e: Error) => void,
  streams: EventStreams,
) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    // Over the connection cap: already answered 503 on the raw connection, which is closing.
    if (refusedSockets.has(req.socket)) return;
    const aborted = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) aborted.abort();
    });
    try {
      const decided = await gate(webRequest(req, undefined, base));
      if ("refused" in decided) return await sendResponse(res, decided.refused, true);
      if (isStreamGet(req)) return streams.serve(req, res);
      const read = await readBody(req, DEFAULT_MAX_REQUEST_BODY_SIZE, timeoutMs);
      if ("failed" in read) {
        if (read.failed === "gone") return;
        const [status, text] = BODY_REFUSALS[read.failed];
        res.writeHead(status, { "content-type": "text/plain", connection: "close" }).end(text);
        return;
      }
      // Batches per the protocol version, params that are not an object (see ./protocol.ts).
      const wire = req.method === "POST"
        ? httpRefusal(read.bytes, req.headers["mcp-protocol-version"]?.toString())
        : undefined;
      if (wire !== undefined) {
        res.writeHead(wire.status, { "content-type": "application/json" });
        return void res.end(JSON.stringify(wire.response));
      }
      const request = webRequest(req, read.bytes, base, aborted.signal);
      await sendResponse(res, await handler.fetch(request, { authInfo: decided.authInfo }));
    } catch (error) {
      if (aborted.signal.aborted) return;
      onerror(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end();
    }
  };
}

/** What a connection over the cap is told before it is closed (nothing of it is read). */
const OVER_CAPACITY = "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 1\r\n" +
  "Content-Type: text/plain\r\nContent-Length: 22\r\nConnection: close\r\n\r\n" +
  "Too many connections\r\n";

/** How long a connection refused over the cap lingers for its 503 to be read. */
const REFUSED_LINGER_MS = 1000;

/**
 * Caps the server's open connections at `max`: each one over it is answered
 * {@linkcode OVER_CAPACITY}, ended and destroyed soon after, and marked in `refused` so that a
 * request parsed from it is never served.
 */
function capConnections(server: Server, max: number, refused: WeakSet<Socket>): void {
  const open = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    if (open.size < max) {
      open.add(socket);
      socket.once("close", () => open.delete(socket));
      return;
    }
    refused.add(socket);
    socket.on("error", () => {});
    socket.end(OVER_CAPACITY);
    // Nothing more of it is read; it is destroyed once the client has had time to read the 503
    // (destroyed at once, unread bytes would make the system reset it and could lose the answer).
    socket.pause();
    const linger = setTimeout(() => socket.destroy(), REFUSED_LINGER_MS);
    socket.once("close", () => clearTimeout(linger));
  });
}

/** Why an address could not be bound, in words, by the system's error code. */
const LISTEN_ERRORS: Readonly<Record<string, string>> = {
  EADDRINUSE: "the port is in use",
  EACCES: "permission denied",
  EADDRNOTAVAIL: "no such address on this machine",
  ENOTFOUND: "unknown host",
};

/** Listens on `host:port`; rejects with a `listen` failure when the address cannot be bound. */
function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException) => {
      const why = LISTEN_ERRORS[error.code ?? ""] ?? error.code ?? error.message;
      reject(new KindError("listen", `cannot listen on ${bracketed(host)}:${port}: ${why}`));
    };
    server.once("error", refused);
    server.listen(port, host.replace(/^\[(.*)\]$/, "$1"), () => {
      server.off("error", refused);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * Serves servers made by `factory` (one per request, stateless) on `/mcp` of
 * `host:port` until closed.
 *
 * @example
 * ```ts
 * import { listenHttp } from "./http.ts";
 * import { createSkillsAnywhereServer } from "./server.ts";
 * const endpoint = await listenHttp(() => createSkillsAnywhereServer().server, {
 *   port: 0,
 *   token: "s3cret",
 * });
 * await endpoint.close();
 * ```
 */
export async function listenHttp(
  factory: McpServerFactory,
  options: HttpOptions,
): Promise<HttpEndpoint> {
  const host = options.host ?? DEFAULT_HTTP_HOST;
  const onerror = options.onerror ?? (() => {});
  const timeoutMs = options.requestTimeoutMs ?? DEFAULT_HTTP_REQUEST_TIMEOUT_MS;
  const handler = createMcpHandler(factory, { onerror });
  const hosts = allowedHosts(host);
  const refused = new WeakSet<Socket>();
  const maxConnections = options.maxConnections ?? DEFAULT_HTTP_MAX_CONNECTIONS;
  const streams = new EventStreams(Math.max(1, Math.floor(maxConnections / 2)));
  const listener = nodeListener(
    gates(hosts, options.token),
    handler,
    `http://${bracketed(host)}`,
    timeoutMs,
    refused,
    onerror,
    streams,
  );
  const server = createServer({
    // Headers: the runtime's own timer answers 408 and closes. The whole request (headers, then
    // body) gets twice that as a backstop behind the body's own timer in the listener.
    headersTimeout: timeoutMs,
    requestTimeout: 2 * timeoutMs,
    keepAliveTimeout: HTTP_IDLE_TIMEOUT_MS,
    connectionsCheckingInterval: Math.max(250, Math.min(1000, timeoutMs / 4)),
  }, listener);
  capConnections(server, maxConnections, refused);
  const address = await listen(server, host, options.port);
  const url = `http://${bracketed(address.address)}:${address.port}${MCP_PATH}`;
  const close = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    streams.closeAll();
    await handler.close().catch(() => {});
    server.closeAllConnections();
    await closed;
  };
  const resourcesChanged = () => {
    handler.notify.resourcesChanged();
    streams.send({ jsonrpc: "2.0", method: "notifications/resources/list_changed" });
  };
  return { url, hostChecked: hosts !== undefined, resourcesChanged, close };
}
