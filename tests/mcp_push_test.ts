/**
 * Changes are pushed to idle clients (issue 29): after `initialize` (or a 2026-07-28 client's
 * `subscriptions/listen`) a client sends nothing more, and still receives
 * `notifications/resources/list_changed` after a skill is added, edited and removed — over stdio
 * with SDK 1 and SDK 2 clients, over HTTP with an SDK 1 client (its `GET /mcp` event stream) and
 * an SDK 2 client (`subscriptions/listen`). Real server processes, real files, real SDK clients;
 * waits are bounded (hang guards), never timed assertions.
 *
 * @module
 */
import { equal, ok } from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioClientTransportV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as HttpTransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { cliCommand, settlesWithin } from "./helpers.ts";
import {
  type Sandbox,
  serverParams,
  skillMd,
  withSandbox,
  writeProjectSkill,
} from "./mcp_helpers.ts";
import { withHttpServer } from "./mcp_http_helpers.ts";
import { addEditRemove, HANG, Notes } from "./mcp_push_helpers.ts";

/**
 * The stdio server's command line: `deno run main.ts mcp`, or the shipped build named by DSA_CLI
 * (the npm package under Node), so the same push tests prove every way the tool is shipped.
 */
function stdioParams(box: Sandbox) {
  const override = cliCommand();
  if (override === undefined) return { ...serverParams(box), stderr: "ignore" as const };
  const [command, ...args] = override;
  return {
    command,
    args: [...args, "mcp", "--cwd", box.project],
    env: box.env,
    cwd: box.project,
    stderr: "ignore" as const,
  };
}

/** One skill before the client connects, so the catalog is not empty. */
async function seed(box: Sandbox): Promise<void> {
  await writeProjectSkill(box, "present", skillMd("present", "Here from the start.", "P"));
}

Deno.test("push over stdio: an idle SDK 1 client hears of an add, an edit and a removal", async () => {
  await withSandbox(async (box) => {
    await seed(box);
    const notes = new Notes();
    const client = new ClientV1({ name: "push-sdk1", version: "1.0.0" });
    client.setNotificationHandler(ResourceListChangedNotificationSchema, notes.heard);
    await client.connect(new StdioClientTransportV1(stdioParams(box)));
    try {
      await addEditRemove(box, notes);
    } finally {
      await client.close();
    }
  });
});

Deno.test("push over stdio: an idle SDK 2 client, legacy and 2026-07-28 (listening), hears every change", async () => {
  await withSandbox(async (box) => {
    await seed(box);
    for (const mode of ["legacy", "auto"] as const) {
      const notes = new Notes();
      const client = new Client({ name: `push-${mode}`, version: "1.0.0" }, {
        versionNegotiation: { mode },
      });
      await client.connect(
        new StdioClientTransport(stdioParams(box)),
      );
      client.setNotificationHandler("notifications/resources/list_changed", notes.heard);
      try {
        equal(client.getProtocolEra(), mode === "auto" ? "modern" : "legacy");
        // A 2026-07-28 client is told only what it listens for: the listen is its subscription.
        const subscription = mode === "auto"
          ? await client.listen({ resourcesListChanged: true })
          : undefined;
        await addEditRemove(box, notes, `pushed-${mode}`).catch((error: Error) => {
          throw new Error(`${mode}: ${error.message}`);
        });
        await subscription?.close();
      } finally {
        await client.close();
      }
    }
  });
});

/**
 * A `fetch` for the SDK 1 transport that tells when its `GET` event stream was answered 200 (the
 * SDK opens it in the background after `initialize`; a change before it opens is not its to hear).
 */
function watchedFetch(): { fetch: typeof fetch; streamOpen: Promise<void> } {
  let open: () => void = () => {};
  const streamOpen = new Promise<void>((resolve) => open = resolve);
  const wrapped: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if ((init?.method ?? "GET") === "GET" && response.status === 200) open();
    return response;
  };
  return { fetch: wrapped, streamOpen };
}

Deno.test("push over HTTP: an idle SDK 1 client hears every change on its GET event stream", async () => {
  await withSandbox(async (box) => {
    await seed(box);
    const { code, stderr } = await withHttpServer(box, [], async ({ url }) => {
      const notes = new Notes();
      const { fetch, streamOpen } = watchedFetch();
      const client = new ClientV1({ name: "push-http-sdk1", version: "1.0.0" });
      client.setNotificationHandler(ResourceListChangedNotificationSchema, notes.heard);
      await client.connect(new HttpTransportV1(new URL(url), { fetch }));
      try {
        await settlesWithin(streamOpen, HANG);
        await addEditRemove(box, notes);
      } finally {
        await client.close();
      }
    });
    equal(code, 0, stderr);
  });
});

Deno.test("push over HTTP: an idle SDK 2 client hears every change on its subscriptions/listen stream", async () => {
  await withSandbox(async (box) => {
    await seed(box);
    const { code, stderr } = await withHttpServer(box, [], async ({ url }) => {
      const notes = new Notes();
      const client = new Client({ name: "push-http-v2", version: "1.0.0" }, {
        versionNegotiation: { mode: "auto" },
      });
      client.setNotificationHandler("notifications/resources/list_changed", notes.heard);
      await client.connect(new StreamableHTTPClientTransport(new URL(url)));
      try {
        equal(client.getProtocolEra(), "modern");
        const subscription = await client.listen({ resourcesListChanged: true });
        await addEditRemove(box, notes);
        await subscription.close();
      } finally {
        await client.close();
      }
    });
    equal(code, 0, stderr);
  });
});

Deno.test("push over HTTP: a 2025-era GET stream is refused without the gates' consent, and a 2026-07-28 GET stays 405", async () => {
  await withSandbox(async (box) => {
    const { code, stderr } = await withHttpServer(box, [], async ({ url }) => {
      const foreign = await fetch(url, {
        headers: { Accept: "text/event-stream", Origin: "https://evil.example" },
      });
      await foreign.body?.cancel();
      equal(foreign.status, 403);
      const modern = await fetch(url, {
        headers: { Accept: "text/event-stream", "MCP-Protocol-Version": "2026-07-28" },
      });
      await modern.body?.cancel();
      equal(modern.status, 405);
      const legacy = await fetch(url, {
        headers: { Accept: "text/event-stream", "MCP-Protocol-Version": "2025-11-25" },
      });
      equal(legacy.status, 200);
      equal(legacy.headers.get("content-type"), "text/event-stream");
      ok(legacy.headers.get("mcp-session-id") === null, "stateless: no session id");
      await legacy.body?.cancel();
    });
    equal(code, 0, stderr);
  });
});

Deno.test("push over HTTP: 2025-era GET streams are capped at half the connections; one more is 503 with Retry-After", async () => {
  await withSandbox(async (box) => {
    const { code, stderr } = await withHttpServer(
      box,
      ["--max-connections", "2"],
      async ({ url }) => {
        const headers = { Accept: "text/event-stream", "MCP-Protocol-Version": "2025-11-25" };
        const first = await fetch(url, { headers });
        try {
          equal(first.status, 200);
          const second = await fetch(url, { headers });
          await second.body?.cancel();
          equal(second.status, 503);
          ok(second.headers.get("retry-after") !== null);
        } finally {
          await first.body?.cancel();
        }
      },
    );
    equal(code, 0, stderr);
  });
});
