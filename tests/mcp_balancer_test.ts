/**
 * Behind a round-robin load balancer (issue 29): two real `mcp --http` processes on the same home,
 * a small real reverse proxy in front (`node:http`, alternating the instance on every request,
 * event-stream requests included). Each instance watches its own files, so a
 * `subscriptions/listen` stream (SDK 2) and a 2025-era `GET` stream (SDK 1) opened through the
 * balancer hear every one of three successive changes, whichever instance holds them.
 *
 * @module
 */
import { equal } from "node:assert/strict";
import { createServer, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpTransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { settlesWithin } from "./helpers.ts";
import { type Sandbox, skillMd, withSandbox, writeProjectSkill } from "./mcp_helpers.ts";
import { type HttpServer, startHttpServer } from "./mcp_http_helpers.ts";
import { HANG, Notes } from "./mcp_push_helpers.ts";

/** A running round-robin proxy: its `/mcp` URL, how many requests went to each backend. */
interface Balancer {
  url: string;
  served: number[];
  close(): Promise<void>;
}

/** Starts a reverse proxy on 127.0.0.1 that sends each request to the next of `backends`. */
async function roundRobin(backends: string[]): Promise<Balancer> {
  const served = backends.map(() => 0);
  let next = 0;
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const index = next++ % backends.length;
    served[index]++;
    const target = new URL(backends[index]);
    const upstream = request({
      host: target.hostname,
      port: Number(target.port),
      method: req.method,
      path: req.url,
      headers: req.headers,
      agent: false,
    }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  };
  const server = createServer(forward);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    served,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** Adds three skills one after another, waiting after each until every listener heard it. */
async function threeChanges(box: Sandbox, listeners: Notes[]): Promise<void> {
  for (const n of [1, 2, 3]) {
    const seen = listeners.map((notes) => notes.count);
    await writeProjectSkill(box, `change-${n}`, skillMd(`change-${n}`, `Change ${n}.`, "C"));
    for (const [i, notes] of listeners.entries()) await notes.after(seen[i], `change ${n}`);
  }
}

Deno.test("balancer: two mcp --http instances round-robin; listen and GET streams hear each of 3 changes", async () => {
  await withSandbox(async (box) => {
    await writeProjectSkill(box, "present", skillMd("present", "Here from the start.", "P"));
    const servers: HttpServer[] = [];
    let balancer: Balancer | undefined;
    const clients: { close(): Promise<void> }[] = [];
    try {
      servers.push(await startHttpServer(box), await startHttpServer(box));
      balancer = await roundRobin(servers.map((server) => server.url));
      const url = new URL(balancer.url);

      const modern = new Notes();
      const v2 = new Client({ name: "balanced-v2", version: "1.0.0" }, {
        versionNegotiation: { mode: "auto" },
      });
      await v2.connect(new StreamableHTTPClientTransport(url));
      clients.push(v2);
      v2.setNotificationHandler("notifications/resources/list_changed", modern.heard);
      equal(v2.getProtocolEra(), "modern");
      const subscription = await v2.listen({ resourcesListChanged: true });

      const legacy = new Notes();
      let streamOpen: () => void = () => {};
      const opened = new Promise<void>((resolve) => streamOpen = resolve);
      const v1 = new ClientV1({ name: "balanced-v1", version: "1.0.0" });
      v1.setNotificationHandler(ResourceListChangedNotificationSchema, legacy.heard);
      await v1.connect(
        new HttpTransportV1(url, {
          fetch: async (input: string | URL | Request, init?: RequestInit) => {
            const response = await fetch(input, init);
            if ((init?.method ?? "GET") === "GET" && response.status === 200) streamOpen();
            return response;
          },
        }),
      );
      clients.push(v1);
      await settlesWithin(opened, HANG);

      await threeChanges(box, [modern, legacy]);
      // Both instances served requests: the balancer did alternate.
      equal(balancer.served.every((count) => count > 0), true, JSON.stringify(balancer.served));
      await subscription.close();
    } finally {
      for (const client of clients) await client.close().catch(() => {});
      await balancer?.close();
      for (const server of servers) {
        const { code, stderr } = await server.stop();
        equal(code, 0, stderr);
      }
    }
  });
});
