/**
 * Hostile input to the MCP server over stdio, beyond the basic protocol errors of
 * `mcp_server_test.ts`: more kinds of garbage and non-JSON-RPC lines, batches, unknown methods,
 * wrong argument types that must leak no skill body, an oversized message, and clients that
 * vanish. Serving goes on, and the server always exits 0.
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { type Sandbox, withSandbox, writeTree } from "./helpers.ts";
import {
  type RpcMessage,
  serverParams,
  skillMd,
  textOf,
  type ToolResult,
  withRawServer,
} from "./mcp_helpers.ts";
import { lockDown } from "./hostile_helpers.ts";

/** The marker in the body of the fixture's `pdf-forms` skill. */
const BODY_MARKER = "PDF-BODY-MARKER";

/** Two project skills, one user skill and one author-disabled skill. */
async function mcpFixture(box: Sandbox): Promise<void> {
  await writeTree(box.project, {
    ".claude/skills/pdf-forms/SKILL.md": skillMd("pdf-forms", "Fill PDF forms.", BODY_MARKER),
    ".claude/skills/notes/SKILL.md": skillMd("notes", "Draft notes.", "Notes body."),
    ".claude/skills/secret/SKILL.md": skillMd("secret", "Disabled.", "SECRET-BODY", [
      "disable-model-invocation: true",
    ]),
  });
  await writeTree(box.home, {
    ".codex/skills/review/SKILL.md": skillMd("review", "Review code.", "Review body."),
  });
}

/** Whether a raw MCP answer is a refusal: a JSON-RPC error or a tool result with `isError`. */
function isErrorAnswer(message: RpcMessage): boolean {
  return message.error !== undefined || message.result?.isError === true;
}

/** The text of a raw MCP answer: the error message, or the tool result's text. */
function answerText(message: RpcMessage): string {
  if (message.error !== undefined) return message.error.message;
  return textOf(message.result as unknown as ToolResult);
}

/** Lines that are not JSON (each answered with -32700 and id null). */
const GARBAGE = [
  "}",
  "\u001b[31mred\u001b[0m",
  "\u0000\u0001\u0002",
  "NaN",
  "{'single': 1}",
  '{"jsonrpc":"2.0","id":1,"method":',
  "\ud800",
  "[1,2",
  "--- ",
];

/** JSON that is not a JSON-RPC message, with the id the refusal (-32600) must carry. */
const INVALID: [string, string | number | null][] = [
  ["null", null],
  ["42", null],
  ['"text"', null],
  ["[]", null],
  ['[{"jsonrpc":"2.0","id":9,"method":"ping"}]', null],
  ['{"id": 5}', 5],
  ['{"jsonrpc":"1.0","id":6,"method":"ping"}', 6],
  ['{"jsonrpc":"2.0","id":7}', 7],
  ['{"jsonrpc":"2.0","id":"eight","method":42}', "eight"],
];

/** Tool calls that must be refused without showing a skill body. */
const BAD_CALLS: [string, unknown][] = [
  ["open_skill", { name: null }],
  ["open_skill", { name: "" }],
  ["open_skill", { name: ["pdf-forms"] }],
  ["open_skill", {}],
  ["open_skill", { name: "pdf-forms", expected_sha256: 7 }],
  ["open_skill", { name: "pdf-forms", expected_sha256: "A".repeat(64) }],
  ["open_skill", { name: "pdf-forms", include_bundle: "yes" }],
  ["open_skill", { name: "pdf-forms", expected_source_commit: "not-a-commit" }],
  ["open_skill", { name: "../../../etc/passwd" }],
  ["open_skill", { name: "secret" }],
  ["open_skill", { name: "\u001b[2Jpdf-forms" }],
  ["list_skills", { limit: "x" }],
  ["list_skills", { offset: -1 }],
  ["list_skills", { limit: 1.5 }],
  ["list_skills", { limit: 1e9 }],
  ["list_skills", { offset: "0" }],
  ["find_skills", { query: [] }],
  ["find_skills", { query: "" }],
  ["find_skills", { query: {} }],
  ["find_skills", { query: "pdf", limit: -1 }],
  ["rm_rf", {}],
  ["open_skill", "pdf-forms"],
  ["list_skills", [1, 2]],
];

/** Resource reads that must be refused. */
const BAD_READS: Record<string, unknown>[] = [
  {},
  { uri: 42 },
  { uri: "skill://../../etc/passwd" },
  { uri: "file:///etc/passwd" },
  { uri: "skill://secret" },
  { uri: "skill://secret/SKILL.md" },
  { uri: "skill://pdf-forms/%2E%2E/secret/SKILL.md" },
];

Deno.test("hostile MCP: garbage lines and non-JSON-RPC messages get one error each; serving goes on", async () => {
  await withSandbox(async (box) => {
    await mcpFixture(await lockDown(box));
    await withRawServer(box, async (server) => {
      for (const line of GARBAGE) await server.send(line);
      for (const [line] of INVALID) await server.send(line);
      const init = await server.initialize(100);
      equal(init.error, undefined);
      const errors = server.lines.map((l) => JSON.parse(l) as RpcMessage);
      equal(errors.filter((m) => m.error?.code === -32700 && m.id === null).length, GARBAGE.length);
      const refused = errors.filter((m) => m.error?.code === -32600).map((m) => m.id);
      deepEqual(refused, INVALID.map(([, id]) => id));
      for (const [id, method] of [[101, "tools/delete"], [102, "rpc.discover"]] as const) {
        const answer = await server.request(id, method);
        equal(answer.error?.code, -32601, `${method}: ${JSON.stringify(answer)}`);
      }
      const done = await server.finish();
      equal(done.code, 0, done.stderr);
      for (const line of done.stdout) equal(JSON.parse(line).jsonrpc, "2.0", line);
    });
  });
});

Deno.test("hostile MCP: wrong arguments and bad resource reads are refused and leak no body; serving goes on", async () => {
  await withSandbox(async (box) => {
    await mcpFixture(await lockDown(box));
    await withRawServer(box, async (server) => {
      await server.initialize(1);
      let id = 200;
      for (const [name, args] of BAD_CALLS) {
        const answer = await server.request(++id, "tools/call", { name, arguments: args });
        ok(isErrorAnswer(answer), `${name} ${JSON.stringify(args)}: ${JSON.stringify(answer)}`);
        const text = answerText(answer);
        ok(!text.includes(BODY_MARKER) && !text.includes("SECRET-BODY"), text);
      }
      for (const params of BAD_READS) {
        const answer = await server.request(++id, "resources/read", params);
        ok(
          isErrorAnswer(answer),
          `resources/read ${JSON.stringify(params)}: ${JSON.stringify(answer)}`,
        );
      }
      const noParamsId = ++id;
      await server.send({ jsonrpc: "2.0", id: noParamsId, method: "tools/call" });
      const noParams = await server.waitFor((m) => m.id === noParamsId);
      ok(isErrorAnswer(noParams), JSON.stringify(noParams));

      // After all of that, a normal request is still served in full.
      const good = await server.request(++id, "tools/call", {
        name: "open_skill",
        arguments: { name: "pdf-forms" },
      });
      equal(good.result?.isError, undefined, JSON.stringify(good));
      ok(answerText(good).includes(BODY_MARKER));
      const done = await server.finish();
      equal(done.code, 0, done.stderr);
    });
  });
});

Deno.test("hostile MCP: a 5 MiB single-line message is refused with -32600 naming the limit; serving goes on", async () => {
  await withSandbox(async (box) => {
    await mcpFixture(await lockDown(box));
    await withRawServer(box, async (server) => {
      await server.initialize(1);
      const huge = JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "find_skills", arguments: { query: "x".repeat(5 * 1024 * 1024) } },
      });
      ok(huge.length > 5 * 1024 * 1024);
      await server.send(huge);
      const refused = await server.waitFor((m) => m.error?.code === -32600);
      equal(refused.id, null);
      match(refused.error!.message, /4194304 characters/);
      const after = await server.request(3, "tools/call", {
        name: "find_skills",
        arguments: { query: "pdf" },
      });
      equal(after.result?.isError, undefined, JSON.stringify(after));
      match(answerText(after), /pdf-forms/);
      const done = await server.finish();
      equal(done.code, 0, done.stderr);
      ok(!done.stdout.some((l) => JSON.parse(l).id === 2), "the oversized request was served");
      ok(done.stdout.every((l) => l.length < 1024 * 1024), "nothing echoes the oversized message");
    });
  });
});

/** How a server ended after its client vanished, and what it wrote on stderr. */
interface Ending {
  status: Deno.CommandStatus;
  stderr: string;
}

/**
 * Spawns the server, writes `input`, then stops reading stdout at once and closes stdin (or, with
 * `keepStdin`, leaves stdin open until the server has exited: then the server can only learn of
 * the disconnect from its first failed write, since the end of input never comes).
 *
 * The SIGKILL watchdog only keeps a hung server from hanging the suite; it sits well above the
 * server's own 30 s wait for unanswered requests, so it never decides how fast is fast enough.
 * A killed server shows up as a signal, which the tests reject.
 */
async function vanishingClient(box: Sandbox, input: string, keepStdin = false): Promise<Ending> {
  const { command, args, env, cwd } = serverParams(box);
  const child = new Deno.Command(command, {
    args,
    env,
    cwd,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  const writer = child.stdin.getWriter();
  await child.stdout.cancel();
  await writer.write(new TextEncoder().encode(input));
  if (!keepStdin) await writer.close();
  const watchdog = setTimeout(() => child.kill("SIGKILL"), 120_000);
  const status = await child.status;
  clearTimeout(watchdog);
  if (keepStdin) await writer.close().catch(() => {});
  return { status, stderr: await stderr };
}

/** The legacy opening of a session, as JSON lines. */
const OPENING = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "vanishing", version: "1" },
    },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
].map((m) => JSON.stringify(m) + "\n").join("");

/** One `tools/call` request line. */
function call(id: number, name: string, args: Record<string, unknown>): string {
  const params = { name, arguments: args };
  return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params }) + "\n";
}

/**
 * What a client sends before it vanishes. Each input gets at least one answer (the opening's, or
 * the refusal of a request sent before it), so even a server whose stdin stays open must notice.
 */
const VANISHING: Record<string, string> = {
  "a tools/call, then gone": OPENING +
    call(2, "open_skill", { name: "pdf-forms", include_bundle: true }),
  "several calls, then gone": OPENING + call(2, "list_skills", {}) +
    call(3, "find_skills", { query: "notes" }) + call(4, "open_skill", { name: "review" }),
  "gone before initialize": call(1, "list_skills", {}),
  "gone in the middle of a line": OPENING + call(2, "list_skills", {}).slice(0, 30),
};

/** A clean end: exit 0 by itself (no signal) and no uncaught error on stderr. */
function assertCleanEnd(what: string, { status, stderr }: Ending): void {
  equal(status.signal, null, `${what}: killed by the watchdog`);
  equal(status.code, 0, `${what}: ${stderr}`);
  ok(!/uncaught|panic/i.test(stderr), `${what}: ${stderr}`);
}

Deno.test("hostile MCP: a client that sends requests and vanishes (stdin closed) leaves a server that exits 0", async () => {
  await withSandbox(async (box) => {
    await mcpFixture(await lockDown(box));
    await Promise.all(
      Object.entries(VANISHING).map(async ([what, input]) =>
        assertCleanEnd(what, await vanishingClient(box, input))
      ),
    );
  });
});

Deno.test("hostile MCP: a client that stops reading but keeps stdin open ends the server at its first failed write", async () => {
  await withSandbox(async (box) => {
    await mcpFixture(await lockDown(box));
    // The end of input never comes, so no wait for pending answers starts: only the failed write
    // of an answer to a vanished reader can end the server.
    for (const [what, input] of Object.entries(VANISHING)) {
      assertCleanEnd(`${what} (stdin open)`, await vanishingClient(box, input, true));
    }
  });
});
