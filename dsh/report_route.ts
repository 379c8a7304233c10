/**
 * `POST /api/skills-anywhere/report`: the dsh web card's one read. An exact
 * route on dsh's web server (`ctx.webServer`, which matches exact routes
 * before dsh's own `/api` prefix), answering dsh's `RpcResult` shape as JSON:
 * `{ok: true, value: ReportView}`, or `{ok: false, error: {code, message,
 * details: {}}}` with one of the codes below. The body is `{cwd?}`; a body
 * that is not JSON, or JSON that is not an object, is taken as `{}`; other
 * keys are ignored.
 *
 * Rules (docs/dsh.md, docs/decisions.md):
 * - loopback only, like dsh's settings calls: the `Host` must name a loopback
 *   address (a rebound DNS name is refused), and a browser's `Origin` and
 *   `Sec-Fetch-Site`, when sent, must say same origin: else 403
 *   `skills-anywhere/forbidden`;
 * - POST only (405 `skills-anywhere/method`);
 * - decided on the headers first: a refusal (403, 405, or 413 for a
 *   `Content-Length` over 64 KiB) is answered before one byte of the body is
 *   read, with `Connection: close`, and the connection closed;
 * - at most 64 KiB of body is read, within 10 s: beyond, 413
 *   `skills-anywhere/too-large`, else 408 `skills-anywhere/timeout`, closed;
 * - `cwd`, when given, must be an absolute path (at most 4096 characters) of
 *   an existing directory: else `skills-anywhere/invalid-cwd`, in words that
 *   do not repeat it;
 * - before the provider registered on dsh's skill registry:
 *   `skills-anywhere/not-ready`; any exception: `skills-anywhere/internal`,
 *   whose message is fixed (the exception goes to dsh's log).
 *
 * @example
 * ```ts
 * import { answerReport } from "./report_route.ts";
 * const answer = await answerReport("not json", () => undefined);
 * console.log(answer.ok ? "ok" : answer.error.code); // skills-anywhere/not-ready
 * ```
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { stat } from "node:fs/promises";
import { isAbsolute } from "node:path";
import type { ReportView } from "./report.ts";

/** The route's path. */
export const REPORT_PATH = "/api/skills-anywhere/report";
/** The most body bytes read. */
export const MAX_REPORT_BODY = 64 * 1024;
const MAX_CWD = 4096;

/** The error codes of the route. */
export type ReportErrorCode =
  | "skills-anywhere/not-ready"
  | "skills-anywhere/internal"
  | "skills-anywhere/invalid-cwd"
  | "skills-anywhere/too-large"
  | "skills-anywhere/forbidden"
  | "skills-anywhere/method"
  | "skills-anywhere/timeout";

/** dsh's `RpcResult`, with this route's codes. */
export type ReportResult = { ok: true; value: ReportView } | {
  ok: false;
  error: { code: ReportErrorCode; message: string; details: Record<string, never> };
};

/** What the route needs of the provider. */
export interface ReportSource {
  reportView(cwd?: string): Promise<ReportView>;
}

const MESSAGES: Record<ReportErrorCode, string> = {
  "skills-anywhere/not-ready": "The skills-anywhere provider is not registered yet",
  "skills-anywhere/internal": "The report could not be built; see the dsh log",
  "skills-anywhere/invalid-cwd": "cwd must be the absolute path of an existing directory",
  "skills-anywhere/too-large": `The request body is larger than ${MAX_REPORT_BODY} bytes`,
  "skills-anywhere/forbidden": "Only same-origin requests to a loopback address are answered",
  "skills-anywhere/method": "Use POST",
  "skills-anywhere/timeout": "The request body did not arrive in time",
};

function failed(code: ReportErrorCode): ReportResult {
  return { ok: false, error: { code, message: MESSAGES[code], details: {} } };
}

/** The request's `cwd`: absent, a directory, or invalid. */
async function requestCwd(body: string): Promise<{ cwd?: string } | undefined> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return {};
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return {};
  if (!Object.hasOwn(parsed, "cwd")) return {};
  const cwd = (parsed as { cwd: unknown }).cwd;
  if (typeof cwd !== "string" || cwd.length > MAX_CWD || cwd.includes("\0")) return undefined;
  if (!isAbsolute(cwd)) return undefined;
  const info = await stat(cwd).catch(() => undefined);
  return info?.isDirectory() ? { cwd } : undefined;
}

/**
 * The answer to one request body (already read, at most {@linkcode MAX_REPORT_BODY} bytes):
 * `source()` is the provider, or undefined before it registered.
 */
export async function answerReport(
  body: string,
  source: () => ReportSource | undefined,
  onError: (error: unknown) => void = () => {},
): Promise<ReportResult> {
  try {
    const request = await requestCwd(body);
    const provider = source();
    if (provider === undefined) return failed("skills-anywhere/not-ready");
    if (request === undefined) return failed("skills-anywhere/invalid-cwd");
    return { ok: true, value: await provider.reportView(request.cwd) };
  } catch (error) {
    onError(error);
    return failed("skills-anywhere/internal");
  }
}

const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** The hostname of a `Host` header (`name`, `name:port`, `[v6]:port`). */
function hostname(host: string): string {
  return host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.replace(/:\d*$/, "");
}

/**
 * Whether the request may be answered: a loopback `Host`, and, when a browser sent them, an
 * `Origin` of that same host and a same-origin `Sec-Fetch-Site`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { trustedRequest } from "./report_route.ts";
 * assert.equal(trustedRequest({ host: "127.0.0.1:8080", origin: "http://127.0.0.1:8080" }), true);
 * assert.equal(trustedRequest({ host: "evil.example:8080" }), false);
 * ```
 */
export function trustedRequest(headers: Record<string, string | string[] | undefined>): boolean {
  const host = headers.host;
  if (typeof host !== "string" || !LOOPBACK.test(hostname(host))) return false;
  const origin = headers.origin;
  if (origin !== undefined && origin !== `http://${host}`) return false;
  const site = headers["sec-fetch-site"];
  return site === undefined || site === "same-origin" || site === "none";
}

/** Sends `result` as JSON with `status`. */
function send(response: ServerResponse, status: number, result: ReportResult, close = false) {
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    ...(close ? { connection: "close" } : {}),
  });
  response.end(JSON.stringify(result));
}

/** How long the body may take. */
const BODY_TIMEOUT_MS = 10_000;

/**
 * Reads at most `limit` bytes of the body within {@linkcode BODY_TIMEOUT_MS}: the text, or
 * `too-large` / `timeout`.
 */
function readBody(
  request: IncomingMessage,
  limit: number,
): Promise<string | "too-large" | "timeout"> {
  return new Promise((resolve) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const finish = (result: string | "too-large" | "timeout") => {
      clearTimeout(timer);
      request.off("data", onData);
      request.pause();
      resolve(result);
    };
    const timer = setTimeout(() => finish("timeout"), BODY_TIMEOUT_MS);
    const onData = (chunk: Uint8Array) => {
      size += chunk.length;
      if (size > limit) return finish("too-large");
      chunks.push(chunk);
    };
    request.on("data", onData);
    request.once("end", () => finish(new TextDecoder().decode(concat(chunks, size))));
    request.once("error", () => finish("timeout"));
  });
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

/**
 * The route's handler for dsh's web server: `source()` is the provider once registered;
 * `onError` receives an exception (for dsh's log).
 */
export function reportHandler(
  source: () => ReportSource | undefined,
  onError: (error: unknown) => void,
): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  /** Answers a refusal unread (or not read further) and closes the connection. */
  const refuse = (
    request: IncomingMessage,
    response: ServerResponse,
    status: number,
    code: ReportErrorCode,
  ) => {
    send(response, status, failed(code), true);
    response.once("finish", () => request.destroy());
  };
  return async (request, response) => {
    if (!trustedRequest(request.headers)) {
      return refuse(request, response, 403, "skills-anywhere/forbidden");
    }
    if (request.method !== "POST") return refuse(request, response, 405, "skills-anywhere/method");
    const announced = Number(request.headers["content-length"] ?? 0);
    if (announced > MAX_REPORT_BODY) {
      return refuse(request, response, 413, "skills-anywhere/too-large");
    }
    const body = await readBody(request, MAX_REPORT_BODY);
    if (body === "too-large") return refuse(request, response, 413, "skills-anywhere/too-large");
    if (body === "timeout") return refuse(request, response, 408, "skills-anywhere/timeout");
    send(response, 200, await answerReport(body, source, onError));
  };
}
