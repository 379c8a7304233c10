// The MCP stdin line filter decodes UTF-8 as a stream: a character split
// across two reads arrives whole. Unit tests feed the real filter chunks cut
// at every byte offset; the end-to-end test writes one JSON-RPC message to a
// real `mcp` child in two writes split inside a character.
import { deepEqual, equal, ok } from "node:assert/strict";
import { Buffer } from "node:buffer";
import { PassThrough, Writable } from "node:stream";
import { guardedStdin, PendingRequests, trackedStdout } from "../mcp/line_filter.ts";
import { withRawServer, withSandbox } from "./mcp_helpers.ts";
import { settlesWithin } from "./helpers.ts";

const encoder = new TextEncoder();

/** Pipes `chunks` through the filter; returns what came out and the replies it wrote. */
async function filtered(chunks: Uint8Array[]): Promise<{ out: Uint8Array; replies: string[] }> {
  const input = new PassThrough();
  const replies: string[] = [];
  const output = guardedStdin(input, (line) => void replies.push(line));
  const parts: Uint8Array[] = [];
  const done = new Promise<void>((resolve, reject) => {
    output.on("data", (chunk: Uint8Array) => parts.push(chunk));
    output.on("end", resolve);
    output.on("error", reject);
  });
  for (const chunk of chunks) input.write(chunk);
  input.end();
  await done;
  return { out: Buffer.concat(parts), replies };
}

/** Every way to cut `bytes` in two (and the one-byte-at-a-time cut). */
function cuts(bytes: Uint8Array): Uint8Array[][] {
  const out: Uint8Array[][] = [];
  for (let at = 1; at < bytes.length; at++) out.push([bytes.slice(0, at), bytes.slice(at)]);
  out.push([...bytes].map((byte) => Uint8Array.of(byte)));
  return out;
}

const SAMPLES = [
  ["2-byte", "zzéé"],
  ["3-byte", "zz€漢"],
  ["4-byte", "zz😀𝄞"],
] as const;

for (const [width, text] of SAMPLES) {
  Deno.test(`line filter: a ${width} character split across reads arrives intact, at every offset`, async () => {
    const line = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "find_skills", arguments: { query: text } },
    }) + "\n";
    const bytes = encoder.encode(line);
    for (const chunks of cuts(bytes)) {
      const { out, replies } = await filtered(chunks);
      deepEqual(replies, [], `cut ${chunks.map((c) => c.length)}`);
      equal(new TextDecoder("utf-8", { fatal: true }).decode(out), line);
    }
  });
}

Deno.test("line filter: a last line without a line break, split inside a character, still counts", async () => {
  const line = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping", params: { q: "é€😀" } });
  for (const chunks of cuts(encoder.encode(line))) {
    const { out, replies } = await filtered(chunks);
    deepEqual(replies, []);
    equal(new TextDecoder().decode(out), line + "\n");
  }
});

Deno.test("line filter: a non-JSON line split inside a character gets one parse error and nothing else", async () => {
  const bytes = encoder.encode("zzéé not json 😀\n");
  for (const chunks of cuts(bytes)) {
    const { out, replies } = await filtered(chunks);
    equal(out.length, 0);
    equal(replies.length, 1);
    equal(JSON.parse(replies[0]).error.code, -32700);
  }
});

Deno.test("trackedStdout: a response split inside a character still settles its request", async () => {
  const pending = new PendingRequests();
  pending.received(JSON.stringify({ jsonrpc: "2.0", id: "é", method: "ping" }));
  const sink: Uint8Array[] = [];
  const out = trackedStdout(
    new Writable({
      write(chunk, _encoding, callback) {
        sink.push(chunk);
        callback();
      },
    }),
    pending,
  );
  let settled = false;
  const drained = pending.drained(60_000).then(() => void (settled = true));
  const bytes = encoder.encode(JSON.stringify({ jsonrpc: "2.0", id: "é", result: {} }) + "\n");
  const at = bytes.indexOf(0xc3) + 1;
  await new Promise<void>((resolve) => out.write(bytes.slice(0, at), () => resolve()));
  await new Promise<void>((resolve) => out.write(bytes.slice(at), () => resolve()));
  // An answered request wakes the waiter at once; let its callbacks run, then look.
  await new Promise((resolve) => setTimeout(resolve, 0));
  ok(settled, "the response did not settle its request");
  deepEqual(Buffer.concat(sink), Buffer.from(bytes));
  pending.abandon();
  await drained;
});

Deno.test("MCP stdin: a message written in two parts split inside a character arrives intact", async () => {
  await withSandbox(async (box) => {
    await withRawServer(box, async (server) => {
      await server.initialize();
      const bytes = encoder.encode(
        JSON.stringify({
          jsonrpc: "2.0",
          id: 5,
          method: "tools/call",
          params: { name: "open_skill", arguments: { name: "zzéé" } },
        }) + "\n",
      );
      const at = bytes.indexOf(0xc3) + 1; // between the two bytes of the first é
      await server.write(bytes.slice(0, at));
      // Let the server read the first part on its own before the rest arrives.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await server.write(bytes.slice(at));
      const response = await server.waitFor((m) => m.id === 5);
      const text = JSON.stringify(response);
      ok(text.includes("zzéé"), text);
      ok(!text.includes("\ufffd"), text);
    });
  });
});

Deno.test("MCP stdin: a request the client cancelled is no longer awaited when stdin closes", async () => {
  await withSandbox(async (box) => {
    await withRawServer(box, async (server) => {
      await server.initialize();
      // A request the server answers slowly enough to be cancelled first: a search is quick, so
      // cancel at once; per the protocol a cancelled request gets no response.
      await server.send({
        jsonrpc: "2.0",
        id: 9,
        method: "tools/call",
        params: { name: "find_skills", arguments: { query: "pdf" } },
      });
      await server.send({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 9, reason: "the user gave up" },
      });
      // With the cancelled request still counted as pending, the server would wait 30 s.
      const done = await server.finish({ ms: 10_000 });
      equal(done.code, 0, done.stderr);
    });
  });
});

Deno.test("MCP stdin: a request whose id JSON-RPC refuses gets -32600, params not an object -32602, never silence", async () => {
  await withSandbox(async (box) => {
    await withRawServer(box, async (server) => {
      await server.initialize();
      const bad = [
        { jsonrpc: "2.0", id: null, method: "ping" },
        { jsonrpc: "2.0", id: { nested: 1 }, method: "ping" },
        { jsonrpc: "2.0", id: true, method: "ping" },
        { jsonrpc: "2.0", id: 7, method: "ping", params: [1] },
        { jsonrpc: "2.0", id: 8, method: "tools/list", params: "x" },
      ];
      for (const message of bad) await server.send(message);
      await server.send({ jsonrpc: "2.0", id: 99, method: "ping" });
      await server.waitFor((m) => m.id === 99);
      const errors = (await server.finish({ ms: 10_000 })).stdout
        .map((line) => JSON.parse(line))
        .filter((m) => m.error !== undefined);
      deepEqual(
        errors.map((m) => [m.id, m.error.code]),
        // Issue 29: params that are not an object are invalid params (-32602), as on HTTP.
        [[null, -32600], [null, -32600], [null, -32600], [7, -32602], [8, -32602]],
      );
    });
  });
});

Deno.test("PendingRequests: a cancelled request is settled; a request with a bad id is never pending", async () => {
  const pending = new PendingRequests();
  pending.received('{"jsonrpc":"2.0","id":"a","method":"tools/call"}');
  pending.received(
    '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"a"}}',
  );
  await settlesWithin(pending.drained(60_000), 1000);
  pending.received('{"jsonrpc":"2.0","id":null,"method":"ping"}');
  await settlesWithin(pending.drained(60_000), 1000);
});
