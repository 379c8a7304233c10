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
import type { AddressInfo } from "node:net";
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
import { sha256Hex } from "../lib/hash.ts";

/** The path the endpoint answers on; every other path is 404. */
export const MCP_PATH = "/mcp";

/** The host an endpoint binds when none is given: loopback only. */
export const DEFAULT_HTTP_HOST = "127.0.0.1";

/** Options of {@linkcode listenHttp}. */
export interface HttpOptions {
  /** The interface to bind (default `127.0.0.1`). */
  host?: string;
  /** The port; 0 picks a free one (the bound URL says which). */
  port: number;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  token?: string;
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
   * it (the per-request servers are gone by then: the handler's own notifier carries it).
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

/** Serves one web request: the gates, then the SDK's handler. */
function webHandler(
  handler: McpHttpHandler,
  hosts: string[] | undefined,
  token: string | undefined,
): (request: Request) => Promise<Response> {
  const gate = token === undefined ? undefined : tokenGate(token);
  const origins = hosts ?? localhostAllowedHostnames();
  return async (request) => {
    if (new URL(request.url).pathname !== MCP_PATH) {
      return new Response("Not found\n", { status: 404 });
    }
    const refused =
      (hosts === undefined ? undefined : hostHeaderValidationResponse(request, hosts)) ??
        originValidationResponse(request, origins);
    if (refused !== undefined) return refused;
    const auth = gate === undefined ? undefined : await gate(request);
    if (auth instanceof Response) return auth;
    return await handler.fetch(request, { authInfo: auth });
  };
}

/** Reads a request body up to `limit` bytes; `undefined` when it is larger. */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The web `Request` of a Node request (its body already read). */
function webRequest(
  req: IncomingMessage,
  body: Buffer | undefined,
  base: string,
  signal: AbortSignal,
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

/** Writes a web `Response` to a Node response, streaming its body (SSE included). */
async function sendResponse(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
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

/** The `node:http` listener around a web handler. */
function nodeListener(
  serve: (request: Request) => Promise<Response>,
  base: string,
  onerror: (e: Error) => void,
) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const aborted = new AbortController();
    res.once("close", () => {
      if (!res.writableFinished) aborted.abort();
    });
    try {
      const body = await readBody(req, DEFAULT_MAX_REQUEST_BODY_SIZE);
      if (body === undefined) {
        res.writeHead(413, { "content-type": "text/plain" }).end("Request body too large\n");
        return;
      }
      await sendResponse(res, await serve(webRequest(req, body, base, aborted.signal)));
    } catch (error) {
      if (aborted.signal.aborted) return;
      onerror(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end();
    }
  };
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
  const handler = createMcpHandler(factory, { onerror });
  const hosts = allowedHosts(host);
  const serve = webHandler(handler, hosts, options.token);
  const server = createServer(nodeListener(serve, `http://${bracketed(host)}`, onerror));
  const address = await listen(server, host, options.port);
  const url = `http://${bracketed(address.address)}:${address.port}${MCP_PATH}`;
  const close = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    await handler.close().catch(() => {});
    server.closeAllConnections();
    await closed;
  };
  const resourcesChanged = () => handler.notify.resourcesChanged();
  return { url, hostChecked: hosts !== undefined, resourcesChanged, close };
}
