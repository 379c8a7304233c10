// `mcp --http` against slow and hostile clients (issue 27, finding 9): raw node:net connections to
// the real server child that send a request's headers and part of its body and then hold. Every
// refusal (Host, Origin, token) is decided on the headers, answered and the connection closed
// while the client still owes almost all of its body; an accepted request whose body stalls, or
// headers that never end, are answered 408 and closed; connections over the cap are answered 503
// with Retry-After; authorised clients are served all along. Hang bounds (`settlesWithin`) only
// detect a server that waits forever; they time nothing.
import { equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { catalogFixture } from "./mcp_fixture.ts";
import { cli, type Sandbox, skillMd, withSandbox, writeProjectSkill } from "./mcp_helpers.ts";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { settlesWithin } from "./helpers.ts";
import {
  connectHttp,
  type HeldConnection,
  holdConnection,
  keepAliveRequests,
  mcpHeaders,
  rawRequest,
  requestHead,
  rpc,
  withHttpServer,
} from "./mcp_http_helpers.ts";

const TOKEN = "s3cret-Token_1";
const BEARER = { Authorization: `Bearer ${TOKEN}` };

/** What a client that means to send the SDK's largest body declares: 4 MiB. */
const DECLARED = 4 * 1024 * 1024;

/** The part of that body a slow client sends before it holds. */
const SENT = new Uint8Array(64 * 1024).fill(0x20);

/** A generous bound for "the server answered at all" (a hang detector, not a timing). */
const HANG = 20_000;

/** Starts a server with a token file and `extra`, runs `fn`, stops it and expects exit 0. */
async function guarded(
  extra: string[],
  fn: (url: string, box: Sandbox) => Promise<void>,
): Promise<string> {
  return await withSandbox(async (box) => {
    await catalogFixture(box);
    const file = join(box.root, "token");
    await Deno.writeTextFile(file, `${TOKEN}\n`);
    const { code, stderr } = await withHttpServer(
      box,
      ["--token-file", file, ...extra],
      (server) => fn(server.url, box),
    );
    equal(code, 0, stderr);
    return stderr;
  });
}

/** The headers of a POST that declares a 4 MiB JSON body. */
function bigPost(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return mcpHeaders(url, { "Content-Length": String(DECLARED), ...extra });
}

/** Holds a POST to `url` with `headers` and 64 KiB of its 4 MiB body sent. */
function holdPost(url: string, headers: Record<string, string>): Promise<HeldConnection> {
  return holdConnection(url, [requestHead(url, "POST", headers), SENT]);
}

/** A real SDK 2 client with the token lists the three tools. */
async function servedWithToken(url: string): Promise<void> {
  const { client } = await connectHttp(url, "auto", BEARER);
  try {
    equal((await client.listTools()).tools.length, 3);
  } finally {
    await client.close();
  }
}

Deno.test("mcp --http: a bad Host, a foreign Origin, no token or a wrong one is refused on the headers, the 4 MiB body never awaited", async () => {
  await guarded([], async (url) => {
    const cases: [string, Record<string, string>, number][] = [
      ["bad Host", bigPost(url, { Host: "evil.example", ...BEARER }), 403],
      ["foreign Origin", bigPost(url, { Origin: "https://evil.example", ...BEARER }), 403],
      ["no token", bigPost(url), 401],
      ["wrong token", bigPost(url, { Authorization: "Bearer wrong" }), 401],
      ["not /mcp", { ...bigPost(url, BEARER) }, 404],
      ["a GET stream without a token", { ...mcpHeaders(url), Accept: "text/event-stream" }, 401],
    ];
    // All at once, each holding the rest of its body: none may wait for it.
    const held = await Promise.all(
      cases.map(([label, headers]) =>
        label.startsWith("a GET")
          ? holdConnection(url, [requestHead(url, "GET", headers)])
          : holdPost(label === "not /mcp" ? url.replace(/\/mcp$/, "/other") : url, headers)
      ),
    );
    try {
      for (const [index, [label, , status]] of cases.entries()) {
        const answer = await settlesWithin(held[index].closed, HANG);
        equal(answer.status, status, `${label}: ${answer.headers}`);
        match(answer.headers, /\r\nconnection: close/, label);
        if (status === 401) match(answer.headers, /www-authenticate: bearer/, label);
      }
    } finally {
      for (const connection of held) connection.destroy();
    }
    // And the server still serves the token's holder.
    await servedWithToken(url);
  });
});

Deno.test("mcp --http: a declared body over 4 MiB is refused with 413 before it is read", async () => {
  await guarded([], async (url) => {
    const held = await holdPost(url, bigPost(url, { ...BEARER, "Content-Length": "4194305" }));
    try {
      const answer = await settlesWithin(held.closed, HANG);
      equal(answer.status, 413, answer.headers);
    } finally {
      held.destroy();
    }
  });
});

Deno.test("mcp --http: an authorised request whose body stalls is answered 408 and closed after the body timeout, others served meanwhile", async () => {
  await guarded(["--request-timeout", "2"], async (url) => {
    const stalled = await holdPost(url, bigPost(url, BEARER));
    try {
      // While it stalls, other clients are served (and it is still open: its body is owed).
      await servedWithToken(url);
      const answer = await settlesWithin(stalled.closed, HANG);
      equal(answer.status, 408, answer.headers);
      match(answer.headers, /\r\nconnection: close/);
    } finally {
      stalled.destroy();
    }
    await servedWithToken(url);
  });
});

Deno.test("mcp --http: headers that never end, and a connection that sends nothing, are closed after the header timeout", async () => {
  await guarded(["--request-timeout", "1"], async (url) => {
    const partial = await holdConnection(url, [
      `POST /mcp HTTP/1.1\r\nHost: ${new URL(url).host}\r\n`,
    ]);
    const silent = await holdConnection(url, []);
    try {
      const answer = await settlesWithin(partial.closed, HANG);
      equal(answer.status, 408, answer.headers);
      await settlesWithin(silent.closed, HANG);
    } finally {
      partial.destroy();
      silent.destroy();
    }
    await servedWithToken(url);
  });
});

/** Raw authorised `tools/list` requests until one is answered 200 (at most `tries`); its status. */
async function untilServed(url: string, tries = 100): Promise<number> {
  let status = 0;
  for (let i = 0; i < tries && status !== 200; i++) {
    status = (await rawRequest(url, "POST", mcpHeaders(url, BEARER), rpc("tools/list"))).status;
    if (status === 503) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return status;
}

Deno.test("mcp --http --max-connections: connections over the cap are answered 503 with Retry-After and closed; served again once the slow ones go", async () => {
  const stderr = await guarded(["--max-connections", "4"], async (url) => {
    const host = new URL(url).host;
    // Four slow clients take every slot: headers begun, never finished.
    const slow = await Promise.all(
      Array.from(
        { length: 4 },
        () => holdConnection(url, [`POST /mcp HTTP/1.1\r\nHost: ${host}\r\n`]),
      ),
    );
    try {
      const over = [
        await holdConnection(url, [requestHead(url, "POST", bigPost(url, BEARER)), SENT]),
        await holdConnection(url, []),
      ];
      for (const connection of over) {
        const answer = await settlesWithin(connection.closed, HANG);
        equal(answer.status, 503, answer.headers);
        match(answer.headers, /\r\nretry-after: \d+/);
        match(answer.headers, /\r\nconnection: close/);
      }
      ok(slow.every((connection) => !connection.isClosed()), "the slow ones are still held");
    } finally {
      for (const connection of slow) connection.destroy();
    }
    equal(await untilServed(url), 200);
    await servedWithToken(url);
  });
  ok(!stderr.includes(TOKEN), stderr);
});

Deno.test("mcp --http --token-file: a real SDK 2 client keeps its connection alive and its stream open past every timeout", async () => {
  await guarded(["--request-timeout", "1"], async (url, box) => {
    const client = new Client({ name: "http-slow", version: "1.0.0" }, {
      versionNegotiation: { mode: "auto" },
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: BEARER } }),
    );
    try {
      const changed = new Promise<void>((resolve) =>
        client.setNotificationHandler("notifications/resources/list_changed", () => resolve())
      );
      const subscription = await client.listen({ resourcesListChanged: true });
      for (let call = 0; call < 3; call++) {
        equal((await client.listTools()).tools.length, 3);
        equal((await client.listResources()).resources.length > 0, true);
        // Longer than the header and body timeouts, shorter than the idle one.
        await new Promise((resolve) => setTimeout(resolve, 1500));
      }
      // The stream opened before the pauses still carries the change a listing finds.
      await writeProjectSkill(box, "late-skill", skillMd("late-skill", "Installed late.", "L"));
      const uris = (await client.listResources()).resources.map((r) => r.uri);
      ok(uris.includes("skill://late-skill/SKILL.md"), uris.join(" "));
      await settlesWithin(changed, HANG);
      await subscription.close();
    } finally {
      await client.close();
    }
    // The 2025-era client (initialize, then its GET stream attempt) works with the token too.
    const legacy = await connectHttp(url, "legacy", BEARER);
    try {
      equal(legacy.era, "legacy");
      equal((await legacy.client.listTools()).tools.length, 3);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      equal((await legacy.client.listTools()).tools.length, 3);
    } finally {
      await legacy.client.close();
    }
    // One connection, three requests, each after a pause longer than the request timeout.
    const statuses = await keepAliveRequests(url, mcpHeaders(url, BEARER), [
      rpc("tools/list", {}, 1),
      rpc("resources/list", {}, 2),
      rpc("tools/list", {}, 3),
    ], 1500);
    equal(statuses.join(" "), "200 200 200");
  });
});

Deno.test("mcp --http: --max-connections and --request-timeout take a whole number from 1, and only with --http", async () => {
  await withSandbox(async (box) => {
    for (
      const [args, pattern] of [
        [["--max-connections", "4"], /--max-connections goes with --http/],
        [["--request-timeout", "4"], /--request-timeout goes with --http/],
        [["--http", "0", "--max-connections", "0"], /--max-connections "0": a whole number/],
        [["--http", "0", "--max-connections", "ten"], /--max-connections "ten": a whole number/],
        [["--http", "0", "--request-timeout", "0"], /--request-timeout "0": a whole number/],
        [["--http", "0", "--request-timeout", "1.5"], /--request-timeout "1.5": a whole number/],
      ] as [string[], RegExp][]
    ) {
      const run = await cli(box, ["mcp", ...args]);
      equal(run.code, 2, run.stderr);
      const lines = run.stderr.split("\n").filter((l) => l !== "");
      equal(lines.length, 1, run.stderr);
      match(lines[0], pattern);
    }
  });
});
