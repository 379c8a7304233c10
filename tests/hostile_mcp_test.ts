// Hostile input to the MCP server over stdio: garbage, non-JSON-RPC, unknown methods, wrong
// argument types, an oversized message and a client that vanishes; serving goes on.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { type RpcMessage, serverParams, withRawServer } from "./mcp_helpers.ts";
import {
  answerText,
  BODY_MARKER,
  isErrorAnswer,
  mcpFixture,
  withWorld,
  type World,
} from "./hostile_helpers.ts";

// ---------------------------------------------------------------------------
// (a) MCP

Deno.test("hostile MCP: garbage, non-JSON-RPC, unknown methods and wrong argument types; serving goes on", async () => {
  await withWorld(async (world) => {
    await mcpFixture(world);
    await withRawServer(world, async (server) => {
      const garbage = [
        "not json",
        "{",
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
      const invalid: [string, string | number | null][] = [
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
      for (const line of garbage) await server.send(line);
      for (const [line] of invalid) await server.send(line);
      const init = await server.initialize(100);
      equal(init.error, undefined);
      const errors = server.lines.map((l) => JSON.parse(l) as RpcMessage);
      equal(errors.filter((m) => m.error?.code === -32700 && m.id === null).length, garbage.length);
      const refused = errors.filter((m) => m.error?.code === -32600).map((m) => m.id);
      deepEqual(refused, invalid.map(([, id]) => id));

      const unknownMethods: [number, string][] = [
        [101, "skills/teleport"],
        [102, "tools/delete"],
        [103, "rpc.discover"],
      ];
      for (const [id, method] of unknownMethods) {
        const answer = await server.request(id, method);
        equal(answer.error?.code, -32601, `${method}: ${JSON.stringify(answer)}`);
      }

      const badCalls: [string, unknown][] = [
        ["open_skill", { name: 42 }],
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
      let id = 200;
      for (const [name, args] of badCalls) {
        const answer = await server.request(++id, "tools/call", { name, arguments: args });
        ok(
          isErrorAnswer(answer),
          `${name} ${JSON.stringify(args)} was served: ${JSON.stringify(answer)}`,
        );
        const text = answerText(answer);
        ok(!text.includes(BODY_MARKER) && !text.includes("SECRET-BODY"), text);
      }
      const badReads: Record<string, unknown>[] = [
        {},
        { uri: 42 },
        { uri: "skill://../../etc/passwd" },
        { uri: "file:///etc/passwd" },
        { uri: "skill://secret" },
      ];
      for (const params of badReads) {
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
      for (const line of done.stdout) equal(JSON.parse(line).jsonrpc, "2.0", line);
    });
  });
});

Deno.test("hostile MCP: a 5 MiB single-line message is refused with -32600 naming the limit; serving goes on", async () => {
  await withWorld(async (world) => {
    await mcpFixture(world);
    await withRawServer(world, async (server) => {
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

/**
 * Spawns the server, writes `input`, then stops reading stdout at once and closes stdin (or,
 * with `keepStdin`, leaves stdin open: the server learns of the disconnect when it writes).
 */
async function vanishingClient(
  world: World,
  input: string,
  keepStdin = false,
): Promise<Deno.CommandStatus> {
  const { command, args, env, cwd } = serverParams(world);
  const child = new Deno.Command(command, {
    args,
    env,
    cwd,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await child.stdout.cancel();
  await writer.write(new TextEncoder().encode(input));
  if (!keepStdin) await writer.close();
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  const started = Date.now();
  const status = await child.status;
  clearTimeout(timer);
  if (keepStdin) await writer.close().catch(() => {});
  ok(Date.now() - started < 8000, "the server took too long to exit");
  return status;
}

Deno.test("hostile MCP: a client that calls a tool and disconnects leaves a server that exits 0", async () => {
  await withWorld(async (world) => {
    await mcpFixture(world);
    const opening = [
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
    const call = (id: number, name: string, args: Record<string, unknown>) =>
      JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name, arguments: args },
      }) +
      "\n";
    const cases = {
      "a tools/call, then gone": opening +
        call(2, "open_skill", { name: "pdf-forms", include_bundle: true }),
      "several calls, then gone": opening + call(2, "list_skills", {}) +
        call(3, "find_skills", { query: "notes" }) + call(4, "open_skill", { name: "review" }),
      "gone in the middle of a line": opening + call(2, "list_skills", {}).slice(0, 30),
      "gone before initialize": call(1, "list_skills", {}),
    };
    await Promise.all(
      Object.entries(cases).map(async ([what, input]) => {
        const status = await vanishingClient(world, input);
        equal(status.code, 0, what);
        equal(status.signal, null, what);
      }),
    );
    // Stops reading but never closes stdin: the first answer fails to write, and that ends it.
    const status = await vanishingClient(world, cases["a tools/call, then gone"], true);
    equal(status.code, 0, "stdout closed, stdin open");
    equal(status.signal, null);
  });
});
