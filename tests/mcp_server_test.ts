// End-to-end tests of the MCP server: what it advertises, list_skills,
// find_skills, and the lifecycle and raw protocol. The real `main.ts mcp`
// runs as a child process in a sandbox (temp HOME, DSH_HOME and a project
// with its own `.git`), driven by the SDK 2 client over stdio, or by raw JSON
// lines for the protocol and lifecycle tests. open_skill and resources are in
// mcp_open_test.ts, receipts in mcp_receipt_test.ts.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { VERSION } from "../lib/version.ts";
import {
  assertOk,
  assertRefused,
  catalogFixture,
  DOCX_DESCRIPTION,
  NOTES_DESCRIPTION,
  PDF_DESCRIPTION,
} from "./mcp_fixture.ts";
import {
  fileSha256,
  RawServer,
  serverParams,
  textOf,
  withRawServer,
  withSandbox,
  withSession,
} from "./mcp_helpers.ts";
import { listTree, MCP_TOOLS, ROOT, run } from "./helpers.ts";

// ---------------------------------------------------------------------------
// Server info, tools, instructions

Deno.test("MCP server: the tests' one tool list is what mcp/server.ts registers", () => {
  const source = readFileSync(join(ROOT, "mcp/server.ts"), "utf8");
  const registered = [...source.matchAll(/\bregisterTool\(\s*"([a-z_]+)"/g)].map((m) => m[1]);
  deepEqual(registered.sort(), MCP_TOOLS);
});

Deno.test("MCP server: advertises three tools, instructions and name/version", async () => {
  await withSandbox(async (box) => {
    const dir = await catalogFixture(box);
    const before = [await listTree(box.project), await listTree(join(box.home, ".codex"))];
    await withSession(box, "legacy", async (s) => {
      // Serving writes nothing into skill or agent directories.
      for (const name of ["pdf-forms", "docx-review"]) {
        assertOk(await s.call("open_skill", { name, include_bundle: name === "pdf-forms" }));
        await s.read(`skill://${name}/SKILL.md`);
      }
      assertOk(
        await s.call("open_skill", {
          name: "pdf-forms",
          expected_sha256: await fileSha256(join(dir, "SKILL.md")),
        }),
      );
      deepEqual(s.client.getServerVersion(), { name: "dsh-skills-anywhere", version: VERSION });
      const instructions = s.client.getInstructions() ?? "";
      match(instructions, /find_skills/);
      match(instructions, /open_skill/);
      const { tools } = await s.client.listTools();
      deepEqual(tools.map((t) => t.name).sort(), MCP_TOOLS);
      for (const tool of tools) {
        ok(tool.inputSchema, `${tool.name} has an input schema`);
        ok(tool.outputSchema, `${tool.name} has an output schema`);
      }
      const open = tools.find((t) => t.name === "open_skill")!;
      const properties = (open.inputSchema as { properties: Record<string, unknown> }).properties;
      deepEqual(Object.keys(properties).sort(), [
        "expected_bundle_sha256",
        "expected_sha256",
        "expected_source_commit",
        "include_bundle",
        "name",
      ]);
    });
    deepEqual([await listTree(box.project), await listTree(join(box.home, ".codex"))], before);
  });
});

// ---------------------------------------------------------------------------
// List_skills

Deno.test("MCP list_skills: hides author-disabled skills, shows origin labels, pages", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    await withSession(box, "legacy", async (s) => {
      const all = assertOk(await s.call("list_skills")) as {
        total: number;
        skills: { name: string; description: string; source: string }[];
      };
      equal(all.total, 3);
      deepEqual(
        [...all.skills].sort((a, b) => a.name.localeCompare(b.name)),
        [
          { name: "docx-review", description: DOCX_DESCRIPTION, source: "codex (user)" },
          { name: "pdf-forms", description: PDF_DESCRIPTION, source: "claude-code (project)" },
          {
            name: "release-notes",
            description: NOTES_DESCRIPTION,
            source: "claude-code (project)",
          },
        ],
      );
      const text = textOf(await s.call("list_skills"));
      ok(text.startsWith("3 of 3 skills:\n"), text);
      ok(text.includes(`- pdf-forms — ${PDF_DESCRIPTION} [claude-code (project)]`), text);
      ok(text.includes(`- docx-review — ${DOCX_DESCRIPTION} [codex (user)]`), text);
      ok(!text.includes("secret-ops"));

      // Pages of one, in the same order as the full list.
      const pages: string[] = [];
      for (let offset = 0; offset < 4; offset++) {
        const page = await s.call("list_skills", { limit: 1, offset });
        const structured = assertOk(page) as { total: number; skills: { name: string }[] };
        equal(structured.total, 3);
        pages.push(...structured.skills.map((skill) => skill.name));
        if (offset < 3) ok(textOf(page).startsWith("1 of 3 skills:\n"));
      }
      deepEqual(pages, all.skills.map((skill) => skill.name));
      const two = assertOk(await s.call("list_skills", { limit: 2, offset: 1 })) as {
        skills: { name: string }[];
      };
      deepEqual(two.skills.map((skill) => skill.name), pages.slice(1, 3));
      const past = await s.call("list_skills", { offset: 10 });
      deepEqual(assertOk(past), { total: 3, skills: [] });
    });
  });
});

Deno.test("MCP list_skills: an empty catalog says how to add skills", async () => {
  await withSandbox(async (box) => {
    await withSession(box, "legacy", async (s) => {
      const result = await s.call("list_skills");
      deepEqual(assertOk(result), { total: 0, skills: [] });
      equal(
        textOf(result),
        "No skills found. Add a git source with `dsh-skills-anywhere add owner/repo` or install skills for any supported agent.",
      );
    });
  });
});

// ---------------------------------------------------------------------------
// Find_skills

Deno.test("MCP find_skills: ranks, reports no match, rejects a blank query", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    await withSession(box, "legacy", async (s) => {
      const found = await s.call("find_skills", { query: "pdf form filling" });
      // Issue 29: total is the number of matches, no longer the catalog size.
      deepEqual(assertOk(found), {
        total: 1,
        matches: [{
          name: "pdf-forms",
          description: PDF_DESCRIPTION,
          source: "claude-code (project)",
        }],
      });
      equal(
        textOf(found),
        `1 of 1 skills matched:\n- pdf-forms — ${PDF_DESCRIPTION} [claude-code (project)]`,
      );

      const none = await s.call("find_skills", { query: "  kubernetes  " });
      deepEqual(assertOk(none), { total: 0, matches: [] });
      equal(
        textOf(none),
        'No skills matched "kubernetes". 3 skills searched; try different keywords or list_skills.',
      );

      // The disabled skill is never found, even by its own name.
      const hidden = assertOk(await s.call("find_skills", { query: "secret ops" }));
      deepEqual(hidden.matches, []);

      // limit caps the matches; total still counts every match.
      const capped = await s.call("find_skills", { query: "review pdf", limit: 1 });
      const cappedMatches = assertOk(capped).matches as { name: string }[];
      equal(cappedMatches.length, 1);
      ok(textOf(capped).startsWith("1 of 2 skills matched:\n"));
      const both = assertOk(await s.call("find_skills", { query: "review pdf" }));
      deepEqual((both.matches as { name: string }[]).map((m) => m.name).sort(), [
        "docx-review",
        "pdf-forms",
      ]);

      assertRefused(await s.call("find_skills", { query: "   " }), /^query must not be empty$/);
    });
  });
});

// ---------------------------------------------------------------------------
// Lifecycle and raw protocol

Deno.test("MCP lifecycle: stdin EOF before any message exits 0 with empty stdout", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    const server = new RawServer(box);
    const done = await server.finish();
    equal(done.code, 0, done.stderr);
    equal(done.signal, null);
    deepEqual(done.stdout, []);
  });
});

Deno.test("MCP lifecycle: SIGTERM and SIGINT exit 0", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    await Promise.all((["SIGTERM", "SIGINT"] as const).map(async (signal) => {
      const server = new RawServer(box);
      const init = await server.initialize(1);
      equal((init.result?.serverInfo as { name: string }).name, "dsh-skills-anywhere");
      const listed = await server.request(2, "tools/list");
      equal((listed.result?.tools as unknown[]).length, 3);
      server.kill(signal);
      const done = await server.finish({ keepStdin: true });
      equal(done.code, 0, `${signal}: ${done.stderr}`);
      equal(done.signal, null, signal);
      for (const line of done.stdout) equal(JSON.parse(line).jsonrpc, "2.0");
    }));
  });
});

Deno.test("MCP protocol: garbage, non-JSON-RPC, unknown methods and bad arguments get errors; serving goes on", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    await withRawServer(box, async (server) => {
      await server.send("this is not json");
      const parse = await server.waitFor((m) => m.error?.code === -32700);
      equal(parse.id, null);
      equal(parse.jsonrpc, "2.0");

      const init = await server.initialize(1);
      equal(init.result?.protocolVersion, "2025-11-25");
      match(init.result?.instructions as string, /find_skills/);

      await server.send({ hello: "world", id: 7 });
      const invalid = await server.waitFor((m) => m.error?.code === -32600);
      equal(invalid.id, 7);
      await server.send("[1, 2, 3]");
      await server.waitFor((m) => m.error?.code === -32600 && m.id === null);

      const unknown = await server.request(2, "skills/teleport");
      equal(unknown.error?.code, -32601);

      const badName = await server.request(3, "tools/call", {
        name: "open_skill",
        arguments: { name: 42 },
      });
      equal(badName.error, undefined);
      equal(badName.result?.isError, true);
      const badText = (badName.result?.content as { text: string }[])[0].text;
      match(badText, /^Input validation error/);
      ok(badText.includes("name"));

      const badLimit = await server.request(4, "tools/call", {
        name: "list_skills",
        arguments: { limit: 0 },
      });
      equal(badLimit.result?.isError, true);
      match((badLimit.result?.content as { text: string }[])[0].text, /^Input validation error/);

      const badDigest = await server.request(5, "tools/call", {
        name: "open_skill",
        arguments: { name: "pdf-forms", expected_sha256: "ABC" },
      });
      equal(badDigest.result?.isError, true);
      const digestText = (badDigest.result?.content as { text: string }[])[0].text;
      match(digestText, /^Input validation error/);
      ok(!digestText.includes("PDF-BODY"));

      // Garbage in the middle of a session: answered, and the next request still is.
      await server.send("{ broken json");
      await server.waitFor((m) => m.error?.code === -32700 && m.id === null);
      const after = await server.request(6, "tools/call", {
        name: "open_skill",
        arguments: { name: "pdf-forms" },
      });
      equal(after.result?.isError, undefined);
      match((after.result?.content as { text: string }[])[0].text, /PDF-BODY-MARKER/);

      const done = await server.finish();
      equal(done.code, 0, done.stderr);
      // stdout carries nothing but JSON-RPC.
      for (const line of done.stdout) equal(JSON.parse(line).jsonrpc, "2.0", line);
      equal(done.stdout.filter((l) => JSON.parse(l).error?.code === -32700).length, 2);
    });
  });
});

Deno.test("MCP lifecycle: requests piped before EOF are all answered, then exit 0", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    const { command, args, env, cwd } = serverParams(box);
    const lines = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "pipe", version: "1" },
        },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: {
          name: "find_skills",
          arguments: { query: "pdf" },
        },
      },
    ].map((message) => JSON.stringify(message)).join("\n") + "\n";
    const output = await run(command, args, { env, cwd, stdin: lines });
    equal(output.code, 0, output.stderr);
    const responses = output.stdout.trim().split("\n").map((l) => JSON.parse(l));
    deepEqual(responses.map((r) => r.id).sort(), [1, 2]);
    ok(responses.every((r) => r.error === undefined));
  });
});
