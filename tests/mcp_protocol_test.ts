// Protocol details of the MCP server (issue 29), with real SDK clients (v1 and v2) over stdio and
// Streamable HTTP, and raw JSON lines where an error code is the point: opaque, validated
// cursors, the capabilities advertised, find_skills totals, and a read after an edit.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { resolveConfig } from "../lib/catalog/_config.ts";
import { loadCatalog } from "../lib/catalog/_load.ts";
import { type ShareOptions, shareSkills } from "../lib/load/_share.ts";
import { PAGE_SIZE } from "../mcp/skills.ts";
import { ROOT, withTempDir, writeTree } from "./helpers.ts";
import { catalogFixture } from "./mcp_fixture.ts";
import {
  cli,
  type ClientKind,
  gitRepo,
  type RawServer,
  type ReadResult,
  rejection,
  type RpcMessage,
  type Sandbox,
  sha256Hex,
  skillMd,
  textOf,
  type ToolResult,
  withRawServer,
  withSandbox,
  withSession,
  writeProjectSkill,
} from "./mcp_helpers.ts";
import {
  connectHttp,
  type HttpClientKind,
  mcpHeaders,
  withHttpServer,
} from "./mcp_http_helpers.ts";

const STDIO_KINDS: ClientKind[] = ["sdk1", "auto"];
const HTTP_KINDS: HttpClientKind[] = ["sdk1", "auto"];

Deno.test("MCP protocol: skills/list cursors are opaque and an invalid cursor is -32602", async () => {
  await withSandbox(async (box) => {
    for (let i = 0; i < PAGE_SIZE + 5; i++) {
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
      equal(skills.length, PAGE_SIZE);
      ok(typeof nextCursor === "string");
      ok(!nextCursor.includes("skill://"), `cursor in clear text: ${nextCursor}`);
      const second = await server.request(2, "skills/list", { cursor: nextCursor });
      equal((second.result as { skills: unknown[] }).skills.length, 5);
      let id = 3;
      for (const cursor of [skills[PAGE_SIZE - 1].uri, "garbage", "YWZ0ZXI6", "!!"]) {
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

/** Malformed params for every method the server handles (and params that are not an object). */
const MALFORMED: [string, unknown][] = [
  ["resources/read", {}],
  ["resources/read", { uri: 42 }],
  ["resources/list", { cursor: 5 }],
  ["resources/templates/list", { cursor: 1 }],
  ["resources/directory/read", {}],
  ["skills/get", {}],
  ["skills/get", { uri: ["skill://pdf-forms/SKILL.md"] }],
  ["skills/list", { cursor: 5 }],
  ["tools/list", { cursor: 3 }],
  ["tools/call", {}],
  ["tools/call", { name: 5 }],
  ["tools/call", { name: "open_skill", arguments: 5 }],
  ["ping", [1]],
  ["tools/list", "x"],
  ["resources/read", ["skill://pdf-forms/SKILL.md"]],
];

/** -32602 with a one-line message naming the method and no schema text. */
function assertInvalidParams(method: string, reply: RpcMessage | undefined, what: string) {
  const error = reply?.error;
  equal(error?.code, -32602, `${what}: ${JSON.stringify(reply)}`);
  ok(error.message.startsWith(`Invalid params for ${method}`), `${what}: ${error.message}`);
  ok(!/[\n{}[\]]/.test(error.message) && error.message.length < 160, `${what}: ${error.message}`);
}

/** The JSON-RPC messages of an HTTP answer (plain JSON, or the data lines of an event stream). */
function httpMessages(body: string): RpcMessage[] {
  const text = body.trim();
  if (text.startsWith("{") || text.startsWith("[")) return [JSON.parse(text)].flat();
  return body.split("\n").filter((l) => l.startsWith("data: ")).map((l) => JSON.parse(l.slice(6)))
    .flat();
}

/** One raw POST of `message` (any JSON) with the MCP headers and `version` if given. */
async function post(url: string, message: unknown, version?: string) {
  const headers: Record<string, string> = version === undefined
    ? {}
    : { "MCP-Protocol-Version": version };
  const { Host: _host, ...sent } = mcpHeaders(url, headers);
  const answer = await fetch(url, {
    method: "POST",
    headers: sent,
    body: JSON.stringify(message),
  });
  return { status: answer.status, messages: httpMessages(await answer.text()) };
}

Deno.test("MCP protocol: malformed params are -32602 in one line on every method, stdio and HTTP", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    await withRawServer(box, async (server) => {
      await server.initialize();
      let id = 10;
      for (const [method, params] of MALFORMED) {
        const reply = await server.request(++id, method, params as Record<string, unknown>);
        assertInvalidParams(method, reply, `stdio ${method} ${JSON.stringify(params)}`);
      }
    });
    await withHttpServer(box, [], async (server) => {
      let id = 10;
      for (const [method, params] of MALFORMED) {
        const { messages } = await post(server.url, { jsonrpc: "2.0", id: ++id, method, params });
        assertInvalidParams(method, messages[0], `HTTP ${method} ${JSON.stringify(params)}`);
      }
      // A tool's own bad argument stays the tool's isError result (MCP).
      for (const kind of HTTP_KINDS) {
        const { client } = await connectHttp(server.url, kind);
        try {
          const bad = await client.callTool({ name: "open_skill", arguments: { name: 42 } }) as {
            isError?: boolean;
          };
          equal(bad.isError, true, kind);
          const read = await rejection(client.readResource({ uri: 42 as unknown as string }));
          match(read, /-32602|Invalid params/, `${kind}: ${read}`);
        } finally {
          await client.close();
        }
      }
    });
    for (const kind of STDIO_KINDS) {
      await withSession(box, kind, async (s) => {
        const read = await rejection(s.read(42 as unknown as string));
        match(read, /-32602|Invalid params/, `${kind}: ${read}`);
        ok(!read.includes('"code"'), `${kind}: ${read}`);
      });
    }
  });
});

/** Every resource of `resources/list`, following `nextCursor`, and the number of pages. */
async function allResources(
  list: (cursor?: string) => Promise<{ resources: { uri: string }[]; nextCursor?: string }>,
): Promise<{ uris: string[]; pages: number; cursors: string[] }> {
  const uris: string[] = [];
  const cursors: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await list(cursor);
    pages++;
    uris.push(...page.resources.map((r) => r.uri));
    cursor = page.nextCursor;
    if (cursor !== undefined) cursors.push(cursor);
  } while (cursor !== undefined && pages < 10);
  return { uris, pages, cursors };
}

type Lister = {
  listResources(
    params?: { cursor?: string },
  ): Promise<{ resources: { uri: string }[]; nextCursor?: string }>;
};

Deno.test("MCP protocol: resources/list is paged (PAGE_SIZE a page) with opaque, validated cursors", async () => {
  await withSandbox(async (box) => {
    for (let i = 0; i < PAGE_SIZE + 5; i++) {
      const name = `skill-${String(i).padStart(3, "0")}`;
      await writeProjectSkill(box, name, skillMd(name, `Skill number ${i}.`, "Body."));
    }
    // SDK 1 hands each page to the caller; SDK 2 follows nextCursor itself when given none.
    const check = (got: { uris: string[]; pages: number; cursors: string[] }, what: string) => {
      equal(got.pages, what.endsWith("sdk1") ? 2 : 1, `${what}: ${got.pages} pages`);
      equal(new Set(got.uris).size, PAGE_SIZE + 5, what);
      ok(got.cursors.every((c) => !c.includes("skill://")), `${what}: ${got.cursors}`);
    };
    for (const kind of STDIO_KINDS) {
      await withSession(box, kind, async (s) => {
        const client = s.client as unknown as Lister;
        check(await allResources((cursor) => client.listResources({ cursor })), `stdio ${kind}`);
      });
    }
    await withRawServer(box, async (server) => {
      await server.initialize();
      const first = await server.request(100, "resources/list");
      const { resources, nextCursor } = first.result as {
        resources: { uri: string }[];
        nextCursor?: string;
      };
      equal(resources.length, PAGE_SIZE);
      ok(typeof nextCursor === "string" && !nextCursor.includes("skill://"), nextCursor);
      const second = await server.request(101, "resources/list", { cursor: nextCursor });
      equal((second.result as { resources: unknown[] }).resources.length, 5);
      let id = 0;
      for (
        const cursor of [
          `skill://skill-${String(PAGE_SIZE - 1).padStart(3, "0")}/SKILL.md`,
          "garbage",
          "YWZ0ZXI6",
        ]
      ) {
        const reply = await server.request(++id, "resources/list", { cursor });
        equal(reply.error?.code, -32602, `${cursor}: ${JSON.stringify(reply)}`);
      }
    });
    await withHttpServer(box, [], async (server) => {
      for (const kind of HTTP_KINDS) {
        const { client } = await connectHttp(server.url, kind);
        try {
          const lister = client as unknown as Lister;
          check(await allResources((cursor) => lister.listResources({ cursor })), `HTTP ${kind}`);
        } finally {
          await client.close();
        }
      }
      const { messages } = await post(server.url, {
        jsonrpc: "2.0",
        id: 1,
        method: "resources/list",
        params: { cursor: "garbage" },
      });
      equal(messages[0]?.error?.code, -32602, JSON.stringify(messages));
    });
  });
});

/** The legacy opening at protocol `version`. */
async function initializeAt(server: RawServer, version: string): Promise<RpcMessage> {
  const reply = await server.request(0, "initialize", {
    protocolVersion: version,
    capabilities: {},
    clientInfo: { name: "raw-test", version: "1.0.0" },
  });
  await server.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return reply;
}

const BATCH = [
  { jsonrpc: "2.0", id: 5, method: "ping" },
  { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
  { jsonrpc: "2.0", id: 6, method: "tools/list" },
];

Deno.test("MCP protocol: JSON-RPC batches are served under 2025-03-26 only, on stdio and HTTP", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    await withRawServer(box, async (server) => {
      equal((await initializeAt(server, "2025-03-26")).result?.protocolVersion, "2025-03-26");
      await server.send(JSON.stringify(BATCH));
      await server.send({ jsonrpc: "2.0", id: 7, method: "ping" });
      await server.waitFor((m) => m.id === 7);
      const batches = server.lines.map((l) => JSON.parse(l)).filter(Array.isArray);
      equal(batches.length, 1, server.lines.join("\n"));
      deepEqual(batches[0].map((m: RpcMessage) => m.id).sort(), [5, 6]);
      ok(batches[0].every((m: RpcMessage) => m.error === undefined), JSON.stringify(batches));
    });
    await withRawServer(box, async (server) => {
      equal((await initializeAt(server, "2025-11-25")).result?.protocolVersion, "2025-11-25");
      await server.send(JSON.stringify(BATCH));
      const refused = await server.waitFor((m) => m.id === null);
      equal(refused.error?.code, -32600);
      match(refused.error!.message, /2025-11-25/);
      await server.send({ jsonrpc: "2.0", id: 8, method: "ping" });
      await server.waitFor((m) => m.id === 8);
      ok(!server.lines.some((l) => /"id":[56]\b/.test(l)), server.lines.join("\n"));
    });
    await withHttpServer(box, [], async (server) => {
      const served = await post(server.url, BATCH, "2025-03-26");
      equal(served.status, 200);
      deepEqual(served.messages.map((m) => m.id).sort(), [5, 6]);
      for (const version of ["2025-06-18", "2025-11-25"]) {
        const refused = await post(server.url, BATCH, version);
        equal(refused.status, 400, version);
        equal(refused.messages[0]?.error?.code, -32600, version);
        equal(refused.messages[0]?.id, null, version);
      }
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Remote rendering and one verdict

/** Every path of the sandbox a remote client must never see. */
function sandboxPaths(box: Sandbox): string[] {
  return [box.root, box.home, box.project, Deno.realPathSync(box.root)];
}

Deno.test("MCP protocol: over HTTP tool output names skill:// URIs, never server paths; stdio keeps them", async () => {
  await withSandbox(async (box) => {
    const pdf = await catalogFixture(box);
    const upstream = join(box.root, "upstream");
    await gitRepo(box, upstream, {
      "skills/git-notes/SKILL.md": skillMd("git-notes", "Notes kept in Git.", "GIT-BODY"),
    });
    equal((await cli(box, ["add", upstream])).code, 0);
    await withHttpServer(box, [], async (server) => {
      for (const kind of HTTP_KINDS) {
        const { client } = await connectHttp(server.url, kind);
        try {
          const call = async (name: string, args: Record<string, unknown>) =>
            await client.callTool({ name, arguments: args }) as ToolResult;
          const outputs = [
            await call("list_skills", {}),
            await call("find_skills", { query: "notes" }),
            await call("open_skill", { name: "git-notes" }),
          ];
          const opened = await call("open_skill", { name: "pdf-forms", include_bundle: true });
          outputs.push(opened);
          for (const output of outputs) {
            const json = JSON.stringify(output);
            for (const path of sandboxPaths(box)) ok(!json.includes(path), `${kind}: ${json}`);
          }
          const text = textOf(opened);
          ok(
            text.includes(
              "Files of this skill are resources under skill://pdf-forms/ (resources/read).",
            ),
            text,
          );
          ok(!text.includes("Base directory"), text);
          const facts = opened.structuredContent as { directory: string; path: string };
          equal(facts.directory, "skill://pdf-forms");
          equal(facts.path, "skill://pdf-forms/SKILL.md");
          const listed = outputs[0].structuredContent as { skills: { source: string }[] };
          ok(listed.skills.some((s) => /^git local\/[0-9a-f]{12}$/.test(s.source)), kind);
          // What the text names is there to read.
          const read = await client.readResource({ uri: "skill://pdf-forms/scripts/fill.py" });
          equal((read as ReadResult).contents[0].text, "print('fill')\n");
        } finally {
          await client.close();
        }
      }
    });
    for (const kind of STDIO_KINDS) {
      await withSession(box, kind, async (s) => {
        const opened = await s.call("open_skill", { name: "pdf-forms" });
        ok(textOf(opened).includes(`Base directory for this skill: ${pdf}`), textOf(opened));
        equal((opened.structuredContent as { directory: string }).directory, pdf);
        const listed = (await s.call("list_skills")).structuredContent as {
          skills: { source: string }[];
        };
        ok(listed.skills.some((s) => s.source === `git ${upstream}`), kind);
      });
    }
  });
});

const CLAUDE_API = "testdata/reference/samples/anthropics-skills/claude-api/SKILL.md";

/** A skill entry of `skills/list`. */
interface Entry {
  uri: string;
  frontmatter: { name: string; description: string };
  resources: { uri: string; digest: string }[];
}

Deno.test("MCP protocol: one catalog, one verdict: a long description is served by both; a refused skill by neither, in the same words", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    const bytes = await Deno.readFile(join(ROOT, CLAUDE_API));
    await writeProjectSkill(box, "claude-api", new TextDecoder().decode(bytes));
    const linked = await writeProjectSkill(box, "linked", skillMd("linked", "Has a link.", "L"));
    await Deno.writeTextFile(join(box.home, "outside.txt"), "outside\n");
    await Deno.symlink(join(box.home, "outside.txt"), join(linked, "notes.txt"));
    const flat = skillMd("flat-notes", "Notes kept in one flat file.", "FLAT-BODY");
    await Deno.writeTextFile(join(box.project, ".claude", "skills", "flat-notes.md"), flat);
    const reason = "Bundle links are not supported";
    /** The reasons the tools gave: the server's log and doctor must give the same. */
    const said = new Set<string>();
    const check = async (
      call: (name: string, args: Record<string, unknown>) => Promise<ToolResult>,
      rpc: (method: string, params: Record<string, unknown>) => Promise<RpcMessage>,
      read: (uri: string) => Promise<ReadResult>,
      what: string,
    ) => {
      const listed = (await call("list_skills", {})).structuredContent as {
        skills: { name: string; description: string }[];
      };
      const tool = listed.skills.find((s) => s.name === "claude-api");
      ok(tool !== undefined, what);
      equal([...tool.description].length, 1024, what);
      ok(!listed.skills.some((s) => s.name === "linked"), what);
      const entries = (await rpc("skills/list", {})).result?.skills as Entry[];
      const entry = entries.find((e) => e.uri === "skill://claude-api/SKILL.md");
      ok(entry !== undefined, `${what}: ${entries.map((e) => e.uri)}`);
      equal(entry.frontmatter.description, tool.description, what);
      equal(entry.frontmatter.name, "claude-api", what);
      const own = entry.resources.find((r) => r.uri === entry.uri)!;
      equal(own.digest, `sha256:${sha256Hex(bytes)}`, what);
      equal((await read(entry.uri)).contents[0].text, new TextDecoder().decode(bytes), what);
      ok(!(await call("open_skill", { name: "claude-api" })).isError, what);
      // A single Markdown file is a skill of one file, served by both.
      ok(listed.skills.some((s) => s.name === "flat-notes"), what);
      ok(entries.some((e) => e.uri === "skill://flat-notes/SKILL.md"), what);
      equal((await read("skill://flat-notes/SKILL.md")).contents[0].text, flat, what);
      ok(!(await call("open_skill", { name: "flat-notes" })).isError, what);
      const found = (await call("find_skills", { query: "linked" })).structuredContent as {
        matches: { name: string }[];
      };
      ok(!found.matches.some((m) => m.name === "linked"), what);
      const refused = await call("open_skill", { name: "linked" });
      equal(refused.isError, true, what);
      const words = /^skill "linked" is not offered as an MCP skill: (.+); doctor lists it$/.exec(
        textOf(refused),
      );
      ok(words !== null && words[1].startsWith(reason), `${what}: ${textOf(refused)}`);
      said.add(words[1]);
      ok(!entries.some((e) => e.uri === "skill://linked/SKILL.md"), what);
      const get = await rpc("skills/get", { uri: "skill://linked/SKILL.md" });
      equal(get.error?.code, -32602, what);
    };
    for (const kind of STDIO_KINDS) {
      const stderr = await withSession(box, kind, async (s) => {
        // The session's own client speaks the tools; a raw server beside it the extension.
        await withRawServer(box, async (raw) => {
          await raw.initialize();
          let id = 0;
          await check(
            (name, args) => s.call(name, args),
            (method, params) => raw.request(++id, method, params),
            (uri) => s.read(uri),
            `stdio ${kind}`,
          );
        });
      });
      for (const words of said) {
        ok(stderr.includes(`skill "linked" is not offered as an MCP skill: ${words} (`), stderr);
      }
    }
    await withHttpServer(box, [], async (server) => {
      for (const kind of HTTP_KINDS) {
        const { client } = await connectHttp(server.url, kind);
        try {
          let id = 0;
          await check(
            async (name, args) => await client.callTool({ name, arguments: args }) as ToolResult,
            async (method, params) =>
              (await post(server.url, { jsonrpc: "2.0", id: ++id, method, params })).messages[0],
            async (uri) => await client.readResource({ uri }) as ReadResult,
            `HTTP ${kind}`,
          );
        } finally {
          await client.close();
        }
      }
    });
    const doctor = await cli(box, ["doctor", "--json"]);
    const doc = JSON.parse(doctor.stdout) as {
      not_served_over_mcp: { name: string; kind: string; reason: string }[];
    };
    equal(said.size, 1, [...said].join("\n"));
    deepEqual(
      doc.not_served_over_mcp.map((r) => [r.name, r.kind, r.reason]),
      [["linked", "bundle", [...said][0]]],
    );
    const text = await cli(box, ["doctor"]);
    match(text.stdout, /Not served over MCP \(the tools and the Skills extension\) \(1\):/);
    ok(!doc.not_served_over_mcp.some((r) => r.name === "claude-api"));
  });
});

Deno.test("the offer is rebuilt by skill identity: only new skill objects are read, digested and parsed", async () => {
  await withTempDir(async (home) => {
    const skills = join(home, ".claude", "skills");
    await writeTree(skills, {
      "alpha/SKILL.md": skillMd("alpha", "First.", "A"),
      "beta/SKILL.md": skillMd("beta", "Second.", "B"),
      "beta/notes.txt": "one\n",
      "gamma/SKILL.md": skillMd("gamma", "Third.", "C"),
    });
    const config = resolveConfig({}, { HOME: home });
    const { report } = await loadCatalog(config, { cwd: home });
    const known: ShareOptions["known"] = new WeakMap();
    const first = await shareSkills(report.skills, { known });
    equal(first.length, 3);
    // beta changes on disk. The same objects stand for unchanged skills (the live catalog's
    // contract): nothing is read again, so even beta's stale read is what comes back.
    await Deno.writeTextFile(join(skills, "beta", "notes.txt"), "two, longer\n");
    const again = await shareSkills(report.skills, { known });
    for (const [i, one] of again.entries()) ok(one.shared === first[i].shared, one.skill.name);
    // A new object for beta (what the live catalog gives for a changed skill): only it is read.
    const beta = report.skills.find((s) => s.name === "beta")!;
    const changed = report.skills.map((s) => s === beta ? { ...beta } : s);
    const third = await shareSkills(changed, { known });
    for (const [i, one] of third.entries()) {
      equal(one.shared === first[i].shared, one.skill.name !== "beta", one.skill.name);
    }
    const notes = third.find((o) => o.skill.name === "beta")!.shared;
    ok(notes.ok);
    equal(notes.files.find((f) => f.path === "notes.txt")?.bytes, 12);
  });
});
