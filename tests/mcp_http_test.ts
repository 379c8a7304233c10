// `mcp --http`: the real server as a child process on 127.0.0.1, real SDK v1 and v2 clients over
// Streamable HTTP, raw requests for what a hostile page or a stranger on the network would send
// (a rebinding Host, a foreign Origin, no or a wrong token), usage mistakes, and a clean exit 0
// on SIGTERM and SIGINT.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { catalogFixture, PDF_BODY } from "./mcp_fixture.ts";
import {
  cli,
  type Sandbox,
  skillMd,
  textOf,
  type ToolResult,
  withSandbox,
  writeProjectSkill,
} from "./mcp_helpers.ts";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { MCP_TOOLS, settlesWithin } from "./helpers.ts";
import {
  connectHttp,
  type HttpClientKind,
  mcpHeaders,
  rawRequest,
  rpc,
  startHttpServer,
  withHttpServer,
} from "./mcp_http_helpers.ts";

/** Starts a server on the catalog fixture, runs `fn`, stops it and expects a clean exit. */
async function serving(
  extra: string[],
  fn: (url: string, box: Sandbox) => Promise<void>,
): Promise<string> {
  return await withSandbox(async (box) => {
    await catalogFixture(box);
    const { code, stderr } = await withHttpServer(box, extra, (server) => fn(server.url, box));
    equal(code, 0, stderr);
    return stderr;
  });
}

/** The one stderr line of a usage mistake, for `mcp` with `args`. */
async function usageMistake(box: Sandbox, args: string[]): Promise<string> {
  const run = await cli(box, ["mcp", ...args]);
  equal(run.code, 2, run.stderr);
  equal(run.stdout, "");
  const lines = run.stderr.split("\n").filter((l) => l !== "");
  equal(lines.length, 1, run.stderr);
  match(lines[0], /^dsh-skills-anywhere: .*; run "dsh-skills-anywhere mcp --help" for usage$/);
  return lines[0];
}

Deno.test("mcp --http: every usage mistake is one line and exit 2, hostile paths escaped", async () => {
  await withSandbox(async (box) => {
    match(await usageMistake(box, ["--token-file", "t"]), /--token-file goes with --http/);
    for (const bad of ["abc", "70000", "127.0.0.1:", ":80", "::1:80", "1.2.3.4:-1"]) {
      match(await usageMistake(box, ["--http", bad]), /^dsh-skills-anywhere: --http "/);
    }
    match(await usageMistake(box, ["--http"]), /--http needs a value/);
    const empty = join(box.root, "empty-token");
    await Deno.writeTextFile(empty, " \n\t\n");
    match(await usageMistake(box, ["--http", "0", "--token-file", empty]), /the file is empty/);
    const spaced = join(box.root, "spaced-token");
    await Deno.writeTextFile(spaced, "two words\n");
    match(await usageMistake(box, ["--http", "0", "--token-file", spaced]), /one word/);
    const hostile = join(box.root, "missing\u001b[31m\u202e-token");
    const line = await usageMistake(box, ["--http", "0", "--token-file", hostile]);
    match(line, /no such file/);
    ok(!line.includes("\u001b") && !line.includes("\u202e"), line);
  });
});

Deno.test("mcp --http: a port already in use is one line and exit 2", async () => {
  await withSandbox(async (box) => {
    const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    try {
      const port = (taken.addr as Deno.NetAddr).port;
      const run = await cli(box, ["mcp", "--http", `127.0.0.1:${port}`]);
      equal(run.code, 2, run.stderr);
      match(run.stderr, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use`));
    } finally {
      taken.close();
    }
  });
});

for (const kind of ["auto", "legacy", "sdk1"] as HttpClientKind[]) {
  Deno.test(`mcp --http: the ${kind} client lists, finds and opens skills`, async () => {
    const stderr = await serving([], async (url) => {
      const { client, era } = await connectHttp(url, kind);
      try {
        equal(era, kind === "auto" ? "modern" : "legacy");
        const names = (await client.listTools()).tools.map((t) => t.name).sort();
        deepEqual(names, MCP_TOOLS);
        const found = await client.callTool({
          name: "find_skills",
          arguments: { query: "pdf forms" },
        }) as ToolResult;
        match(textOf(found), /pdf-forms/);
        const opened = await client.callTool({
          name: "open_skill",
          arguments: { name: "pdf-forms" },
        }) as ToolResult;
        ok(!opened.isError, textOf(opened));
        match(textOf(opened), new RegExp(PDF_BODY));
        const uris = (await client.listResources()).resources.map((r) => r.uri);
        ok(uris.length > 0);
      } finally {
        await client.close();
      }
    });
    match(stderr, /^dsh-skills-anywhere: serving MCP on http:\/\/127\.0\.0\.1:\d+\/mcp; /);
  });
}

Deno.test("mcp --http: a Host that is not this server's is refused (DNS rebinding)", async () => {
  await serving([], async (url) => {
    const body = rpc("tools/list");
    for (const host of ["evil.example", "evil.example:80", `127.0.0.1.evil.example`]) {
      const refused = await rawRequest(url, "POST", mcpHeaders(url, { Host: host }), body);
      equal(refused.status, 403, host);
      ok(!refused.body.includes("list_skills"));
    }
    const port = new URL(url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      equal((await rawRequest(url, "POST", mcpHeaders(url, { Host: host }), body)).status, 200);
    }
  });
});

Deno.test("mcp --http: a foreign Origin is refused, a loopback one accepted", async () => {
  await serving([], async (url) => {
    const body = rpc("tools/list");
    for (const origin of ["https://evil.example", "null", "http://127.0.0.1.evil.example"]) {
      const refused = await rawRequest(url, "POST", mcpHeaders(url, { Origin: origin }), body);
      equal(refused.status, 403, origin);
      ok(!refused.body.includes("list_skills"));
    }
    const local = await rawRequest(
      url,
      "POST",
      mcpHeaders(url, { Origin: "http://localhost:5173" }),
      body,
    );
    equal(local.status, 200);
    match(local.body, /list_skills/);
  });
});

Deno.test("mcp --http: only /mcp answers", async () => {
  await serving([], async (url) => {
    const other = url.replace(/\/mcp$/, "/other");
    equal((await rawRequest(other, "POST", mcpHeaders(url), rpc("ping"))).status, 404);
  });
});

Deno.test("mcp --http --token-file: 401 without or with a wrong token, served with it", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    const file = join(box.root, "token");
    await Deno.writeTextFile(file, "\n  s3cret-Token_1  \n");
    const { code, stderr } = await withHttpServer(box, ["--token-file", file], async ({ url }) => {
      const body = rpc("tools/list");
      const missing = await rawRequest(url, "POST", mcpHeaders(url), body);
      equal(missing.status, 401);
      match(missing.headers, /www-authenticate: bearer/);
      for (const given of ["Bearer wrong", "Bearer s3cret-Token_", "Basic s3cret-Token_1"]) {
        const wrong = await rawRequest(
          url,
          "POST",
          mcpHeaders(url, { Authorization: given }),
          body,
        );
        equal(wrong.status, 401, given);
        ok(!wrong.body.includes("list_skills"));
      }
      const good = mcpHeaders(url, { Authorization: "Bearer s3cret-Token_1" });
      equal((await rawRequest(url, "POST", good, body)).status, 200);
      const { client } = await connectHttp(url, "auto", { Authorization: "Bearer s3cret-Token_1" });
      equal((await client.listTools()).tools.length, 3);
      await client.close();
    });
    equal(code, 0, stderr);
    ok(!stderr.includes("s3cret"), stderr);
  });
});

Deno.test("mcp --http: stateless, a second instance answers without any handshake", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    const first = await startHttpServer(box);
    const second = await startHttpServer(box);
    try {
      const { client } = await connectHttp(first.url, "legacy");
      equal((await client.listTools()).tools.length, 3);
      await client.close();
      // What a load balancer does: the next request lands on another instance.
      const call = rpc("tools/call", { name: "open_skill", arguments: { name: "pdf-forms" } });
      const answer = await fetch(second.url, {
        method: "POST",
        headers: mcpHeaders(second.url),
        body: call,
      });
      equal(answer.status, 200);
      match(await answer.text(), new RegExp(PDF_BODY));
    } finally {
      equal((await first.stop()).code, 0);
      equal((await second.stop()).code, 0);
    }
  });
});

for (const signal of ["SIGTERM", "SIGINT"] as Deno.Signal[]) {
  Deno.test(`mcp --http: ${signal} ends the server with exit 0`, async () => {
    await withSandbox(async (box) => {
      await catalogFixture(box);
      const server = await startHttpServer(box);
      const { client } = await connectHttp(server.url, "auto");
      equal((await client.listTools()).tools.length, 3);
      await client.close();
      const { code, stderr } = await server.stop(signal);
      equal(code, 0, stderr);
      equal(stderr.split("\n").filter((l) => l !== "").length, 1, stderr);
    });
  });
}

Deno.test("mcp --http: the SDK's skills client lists and reads every skill file with verified digests; a new skill is announced", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    const { code, stderr } = await withHttpServer(box, [], async ({ url }) => {
      const client = new Client({ name: "http-skills", version: "1.0.0" }, {
        versionNegotiation: { mode: "auto" },
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      try {
        const skills = new SkillsClient(client);
        equal(skills.supported, true);
        const { skills: entries } = await skills.list();
        deepEqual(
          entries.map((e) => e.uri).sort(),
          [
            "skill://docx-review/SKILL.md",
            "skill://pdf-forms/SKILL.md",
            "skill://release-notes/SKILL.md",
          ],
        );
        for (const entry of entries) {
          for (const file of entry.resources as { uri: string; size: number }[]) {
            const read = await skills.read(entry, file.uri);
            equal(read.verified, true, file.uri);
            equal(read.bytes.length, file.size, file.uri);
          }
        }
        const changed = new Promise<void>((resolve) =>
          client.setNotificationHandler("notifications/resources/list_changed", () => resolve())
        );
        const subscription = await client.listen({ resourcesListChanged: true });
        await writeProjectSkill(box, "late-skill", skillMd("late-skill", "Installed late.", "L"));
        const again = await skills.list();
        ok(again.skills.some((e) => e.uri === "skill://late-skill/SKILL.md"));
        await settlesWithin(changed, 10_000);
        await subscription.close();
      } finally {
        await client.close();
      }
    });
    equal(code, 0, stderr);
  });
});
