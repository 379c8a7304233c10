/**
 * The server's JSON-RPC rules on top of the SDK, shared by both transports:
 *
 * - **Malformed params are -32602, on every method.** The SDK validates a spec method's params
 *   before its handler runs, but turns a failure into -32603 with the schema library's issues as
 *   raw JSON (`resources/read` without `uri`, `tools/list` with a numeric cursor, …), and its own
 *   -32602 answers quote the same dump. {@linkcode guardParams} answers every such request with
 *   -32602 `Invalid params for <method>: <field>: <why>` (one line, no schema text). A request
 *   whose `params` is not an object (an array, a string) is -32602 too, on both transports
 *   ({@linkcode paramsRefusal}): the method is known, its params are what is wrong. A tool's own
 *   bad arguments stay the `isError` result MCP gives them.
 * - **Batches follow the negotiated protocol version.** Only 2025-03-26 has JSON-RPC batches;
 *   under any other version (and before a version is agreed) an array is refused with -32600
 *   Invalid Request, id `null` ({@linkcode batchRefusal}). Over HTTP the version is the
 *   `MCP-Protocol-Version` header, and a request without one is 2025-03-26, as the specification
 *   says a server should assume.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { batchesAllowed, paramsRefusal } from "./protocol.ts";
 * console.log(batchesAllowed("2025-03-26"), batchesAllowed("2025-11-25")); // true false
 * assert.equal(paramsRefusal({ jsonrpc: "2.0", id: 1, method: "ping", params: [1] })?.error.code, -32602);
 * ```
 * @module
 */
import { type JSONRPCRequest, type McpServer, ProtocolError } from "@modelcontextprotocol/server";
import { isPlainObject } from "../lib/util.ts";

/** The one protocol version that has JSON-RPC batches. */
export const BATCH_PROTOCOL_VERSION = "2025-03-26";

/** JSON-RPC's code for invalid params. */
const INVALID_PARAMS = -32602;
/** JSON-RPC's code for an invalid request. */
const INVALID_REQUEST = -32600;

/** A JSON-RPC error response. */
export interface ErrorResponse {
  jsonrpc: "2.0";
  id: string | number | null;
  error: { code: number; message: string };
}

/**
 * Whether a JSON-RPC batch may be served under `version` (the negotiated protocol version, or
 * `undefined` before one is agreed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { batchesAllowed } from "./protocol.ts";
 * assert.equal(batchesAllowed(undefined), false);
 * ```
 */
export function batchesAllowed(version: string | undefined): boolean {
  return version === BATCH_PROTOCOL_VERSION;
}

/**
 * The refusal of a batch under `version` (-32600, id `null`).
 *
 * @example
 * ```ts
 * import { batchRefusal } from "./protocol.ts";
 * console.log(batchRefusal("2025-11-25").error.message);
 * ```
 */
export function batchRefusal(version: string | undefined): ErrorResponse {
  const why = version === undefined
    ? "before a protocol version is agreed"
    : `under protocol version ${version}`;
  return {
    jsonrpc: "2.0",
    id: null,
    error: {
      code: INVALID_REQUEST,
      message:
        `Invalid Request: JSON-RPC batches are not accepted ${why} (only ${BATCH_PROTOCOL_VERSION} has them)`,
    },
  };
}

/** Whether `id` is a JSON-RPC request id MCP accepts: a string or a finite number. */
export function isRequestId(id: unknown): id is string | number {
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
}

/**
 * The -32602 answer to a request (a method and a valid id) whose `params` is present but not an
 * object; `undefined` for anything else.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { paramsRefusal } from "./protocol.ts";
 * assert.equal(paramsRefusal({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }), undefined);
 * ```
 */
export function paramsRefusal(message: unknown): ErrorResponse | undefined {
  if (!isPlainObject(message) || typeof message.method !== "string") return undefined;
  if (!isRequestId(message.id) || !("params" in message) || isPlainObject(message.params)) {
    return undefined;
  }
  return {
    jsonrpc: "2.0",
    id: message.id,
    error: { code: INVALID_PARAMS, message: `Invalid params for ${message.method}: not an object` },
  };
}

/** One issue of a schema library's error, as the SDK puts it in a message. */
interface Issue {
  path?: unknown[];
  message?: string;
}

/** The first issue of a schema dump as `field: why` (the `params` prefix left out). */
function firstIssue(dump: string): string | undefined {
  let issues: unknown;
  try {
    issues = JSON.parse(dump);
  } catch {
    return undefined;
  }
  if (!Array.isArray(issues) || !isPlainObject(issues[0])) return undefined;
  const issue = issues[0] as Issue;
  const path = (Array.isArray(issue.path) ? issue.path : []).map(String);
  const field = (path[0] === "params" ? path.slice(1) : path).join(".");
  const why = typeof issue.message === "string" ? issue.message.split("\n")[0] : "invalid";
  return field === "" ? why : `${field}: ${why}`;
}

/** -32602 for `method`, with the first schema issue of `detail` in words when there is one. */
function invalidParams(method: string, detail: string): ProtocolError {
  const issue = firstIssue(detail.trim());
  const plain = issue ?? (detail.includes("\n") || detail.includes("{") ? undefined : detail);
  return new ProtocolError(
    INVALID_PARAMS,
    plain === undefined ? `Invalid params for ${method}` : `Invalid params for ${method}: ${plain}`,
  );
}

/** The SDK's own -32602 wordings that quote a schema dump after the colon. */
const SDK_INVALID = /^(?:Invalid params for \S+|Invalid \S+ request): ([\s\S]*)$/;

type Handler = (request: JSONRPCRequest, ctx: unknown) => Promise<unknown>;
interface Wrapping {
  _wrapHandler(method: string, handler: Handler): Handler;
}

/**
 * Makes every request handler of `server` registered from now on answer malformed params with
 * -32602 in one line: the SDK's validation failure (thrown before the handler runs, as a plain
 * `Error` holding the schema issues) becomes `Invalid params for <method>: <field>: <why>`, and
 * the SDK's own -32602 messages lose their schema dump. Call it before registering anything.
 *
 * @example
 * ```ts
 * import { McpServer } from "@modelcontextprotocol/server";
 * import { guardParams } from "./protocol.ts";
 * const server = new McpServer({ name: "demo", version: "1.0.0" });
 * guardParams(server);
 * ```
 */
export function guardParams(server: McpServer): void {
  // `_wrapHandler` is the SDK's hook for wrapping each registered handler (the Server class uses
  // it for tools/call); it sees the handler that validates the params first.
  const protocol = server.server as unknown as Wrapping;
  const wrap = protocol._wrapHandler.bind(protocol);
  protocol._wrapHandler = (method, handler) => {
    const validated: Handler = (request, ctx) => {
      try {
        return handler(request, ctx);
      } catch (error) {
        // Thrown before the handler ran: the params did not validate (handlers are async and
        // reject instead). A ProtocolError is the SDK's own answer and keeps its code.
        if (error instanceof ProtocolError || !(error instanceof Error)) throw error;
        throw invalidParams(method, error.message);
      }
    };
    const wrapped = wrap(method, validated);
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (error) {
        if (error instanceof ProtocolError && error.code === INVALID_PARAMS) {
          const dump = SDK_INVALID.exec(error.message);
          if (dump !== null && /^\s*\[/.test(dump[1])) throw invalidParams(method, dump[1]);
        }
        throw error;
      }
    };
  };
}

/** An HTTP refusal decided on a request body alone: the status and the JSON-RPC error. */
export interface HttpRefusal {
  status: number;
  response: ErrorResponse;
}

/**
 * What the HTTP endpoint refuses before the SDK sees a POST body: a batch when `version` (the
 * `MCP-Protocol-Version` header; absent means 2025-03-26) has none (400, -32600), or a request
 * whose `params` is not an object (200, -32602). `undefined` lets the body through (a batch
 * allowed goes to the SDK whole).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { httpRefusal } from "./protocol.ts";
 * const body = new TextEncoder().encode('[{"jsonrpc":"2.0","id":1,"method":"ping"}]');
 * assert.equal(httpRefusal(body, "2025-11-25")?.status, 400);
 * ```
 */
export function httpRefusal(
  body: Uint8Array,
  version: string | undefined,
): HttpRefusal | undefined {
  let message: unknown;
  try {
    message = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return undefined; // the SDK answers a body that is not JSON
  }
  const agreed = version ?? BATCH_PROTOCOL_VERSION;
  if (Array.isArray(message)) {
    return batchesAllowed(agreed) ? undefined : { status: 400, response: batchRefusal(agreed) };
  }
  const refused = paramsRefusal(message);
  return refused === undefined ? undefined : { status: 200, response: refused };
}
