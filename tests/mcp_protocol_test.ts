// Protocol details of the MCP server (issue 29), with real SDK clients (v1 and v2) over stdio and
// Streamable HTTP, and raw JSON lines where an error code is the point: opaque, validated
// cursors, the capabilities advertised, find_skills totals, and a read after an edit.
import { equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { catalogFixture } from "./mcp_fixture.ts";
import {
  type ClientKind,
  skillMd,
  withRawServer,
  withSandbox,
  withSession,
  writeProjectSkill,
} from "./mcp_helpers.ts";
import { connectHttp, type HttpClientKind, withHttpServer } from "./mcp_http_helpers.ts";

const STDIO_KINDS: ClientKind[] = ["sdk1", "auto"];
const HTTP_KINDS: HttpClientKind[] = ["sdk1", "auto"];

Deno.test("MCP protocol: skills/list cursors are opaque and an invalid cursor is -32602", async () => {
  await withSandbox(async (box) => {
    for (let i = 0; i < 105; i++) {
      const name = `skill-${String(i).padStart(3, "0")}`;
      await writeProjectSkill(box, name, skillMd(name, `Skill number ${i}.`, "Body."));
    }
    await withRawServer(box, async (server) => {
      await server.initialize();
      const first = await server.request(1, "skills/list");
      const { skills, nextCursor } = first.result as {
        skills: { uri: string }[];
        nextCursor?: string;
      };
      equal(skills.length, 100);
      ok(typeof nextCursor === "string");
      ok(!nextCursor.includes("skill://"), `cursor in clear text: ${nextCursor}`);
      const second = await server.request(2, "skills/list", { cursor: nextCursor });
      equal((second.result as { skills: unknown[] }).skills.length, 5);
      let id = 3;
      for (const cursor of [skills[99].uri, "garbage", "YWZ0ZXI6", "!!"]) {
        const reply = await server.request(++id, "skills/list", { cursor });
        const error = reply.error as { code: number } | undefined;
        equal(error?.code, -32602, `${cursor}: ${JSON.stringify(reply)}`);
      }
    });
  });
});

Deno.test("MCP protocol: tools.listChanged is not advertised (it is never sent)", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    await withRawServer(box, async (server) => {
      const init = await server.initialize();
      const capabilities = (init.result as { capabilities: Record<string, unknown> }).capabilities;
      const tools = capabilities.tools as { listChanged?: boolean } | undefined;
      ok(tools !== undefined);
      ok(tools.listChanged !== true, JSON.stringify(capabilities));
    });
  });
});

Deno.test("MCP protocol: find_skills total is the number of matches, not the catalog size", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    for (const kind of STDIO_KINDS) {
      await withSession(box, kind, async (s) => {
        const found = await s.call("find_skills", { query: "pdf" });
        const structured = found.structuredContent as { total: number; matches: unknown[] };
        equal(structured.total, structured.matches.length, kind);
        ok(structured.total >= 1);
      });
    }
  });
});

Deno.test("MCP protocol: a read after an edit serves the fresh bytes to a client that never listed", async () => {
  await withSandbox(async (box) => {
    const dir = await catalogFixture(box);
    for (const [i, kind] of STDIO_KINDS.entries()) {
      await withSession(box, kind, async (s) => {
        const uri = "skill://pdf-forms/scripts/fill.py";
        const before = await s.read(uri);
        ok(before.contents[0].text?.startsWith("print("));
        const text = `print('edited ${i}, longer')\n`;
        await Deno.writeTextFile(join(dir, "scripts/fill.py"), text);
        const after = await s.read(uri);
        equal(after.contents[0].text, text, kind);
      });
    }
    for (const [i, kind] of HTTP_KINDS.entries()) {
      await withHttpServer(box, [], async (server) => {
        const { client } = await connectHttp(server.url, kind);
        try {
          const uri = "skill://pdf-forms/scripts/fill.py";
          await client.readResource({ uri });
          const text = `print('http ${i}')\n`;
          await Deno.writeTextFile(join(dir, "scripts/fill.py"), text);
          const after = await client.readResource({ uri }) as { contents: { text?: string }[] };
          equal(after.contents[0].text, text, kind);
        } finally {
          await client.close();
        }
      });
    }
  });
});
