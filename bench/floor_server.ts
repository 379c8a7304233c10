/**
 * The floor of the `server` benchmark (`bench/server.ts`): an MCP server on the same SDK
 * (`@modelcontextprotocol/server` 2.4.0) with the same tool names (`list_skills`, `find_skills`,
 * `open_skill`) and the same `skill://<name>/<file>` resources through the SDK's Skills extension,
 * that reads every skill of one folder once at start and then answers from memory: a plain term
 * search (an inverted index of the lower-cased words of each SKILL.md, three points for a term of
 * the name or description, one for a term of the body, no stemming), no digests checked at read
 * time, no rescans, no locks, no watching. Whatever the real server does beyond this is its own
 * cost.
 *
 *   deno run -A bench/floor_server.ts <skills-folder>                  over stdio
 *   deno run -A bench/floor_server.ts <skills-folder> --http 127.0.0.1:0   over Streamable HTTP
 *
 * Over HTTP it prints `floor: serving MCP on http://HOST:PORT/mcp; stop it with Ctrl-C` on stderr
 * (the line `mcp --http` prints), with the SDK's stateless handler behind a bare `node:http`
 * server (no gates, no limits beyond the runtime's defaults).
 *
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import process from "node:process";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { type Skill, skillEntry, SkillsExtension } from "@modelcontextprotocol/server/ext/skills";
import * as z from "zod";

/** One skill held in memory. */
interface Held {
  name: string;
  description: string;
  /** SKILL.md as read. */
  text: string;
  entry: Skill;
  files: Map<string, string>;
}

/** Every file under `dir`, by path relative to it (`/`-separated). */
function filesOf(dir: string, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) Object.assign(out, filesOf(dir, rel));
    else if (entry.isFile()) out[rel] = readFileSync(join(dir, rel), "utf8");
  }
  return out;
}

/** The skills of `folder` (each sub-folder with a SKILL.md), read once. */
async function readSkills(folder: string): Promise<Held[]> {
  const held: Held[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const files = filesOf(join(folder, entry.name));
    const text = files["SKILL.md"];
    if (text === undefined) continue;
    const name = /^name:\s*(.+)$/m.exec(text)?.[1].trim() ?? entry.name;
    const description = /^description:\s*(.+)$/m.exec(text)?.[1].trim() ?? "";
    held.push({
      name,
      description,
      text,
      entry: await skillEntry(name, files),
      files: new Map(
        Object.entries(files).map(([path, body]) => [`skill://${name}/${path}`, body]),
      ),
    });
  }
  return held.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * A term's postings: for each skill holding it, `4 × its place in the list + weight`, the weight 3
 * when the term is in the name or description and 1 when only in the body.
 */
type Index = Map<string, number[]>;

const termsOf = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

/** The inverted index of the held skills (by their place in `skills`). */
function indexOf(skills: Held[]): Index {
  const index: Index = new Map();
  for (const [at, skill] of skills.entries()) {
    const weights = new Map<string, number>();
    for (const term of termsOf(skill.text)) weights.set(term, 1);
    for (const term of termsOf(`${skill.name} ${skill.description}`)) weights.set(term, 3);
    for (const [term, weight] of weights) {
      let postings = index.get(term);
      if (postings === undefined) index.set(term, postings = []);
      postings.push(at * 4 + weight);
    }
  }
  return index;
}

const Row = z.object({ name: z.string(), description: z.string() });

/** One server over the held skills (a fresh one per HTTP request, one for stdio). */
function floorServer(
  skills: Held[],
  byName: Map<string, Held>,
  index: Index,
  extension: SkillsExtension,
) {
  const server = new McpServer(
    { name: "floor", version: "1.0.0" },
    { capabilities: { tools: {}, resources: {} } },
  );
  const row = (s: Held) => ({ name: s.name, description: s.description });
  const lines = (rows: { name: string; description: string }[]) =>
    rows.map((r) => `- ${r.name} — ${r.description}`).join("\n");
  server.registerTool("list_skills", {
    description: "List the skills.",
    inputSchema: z.object({ limit: z.number().optional(), offset: z.number().optional() }),
    outputSchema: z.object({ total: z.number(), skills: z.array(Row) }),
  }, ({ limit, offset }) => {
    const page = skills.slice(offset ?? 0, (offset ?? 0) + (limit ?? 200)).map(row);
    return {
      content: [{ type: "text", text: lines(page) }],
      structuredContent: { total: skills.length, skills: page },
    };
  });
  server.registerTool("find_skills", {
    description: "Search the skills by keywords.",
    inputSchema: z.object({ query: z.string().min(1), limit: z.number().optional() }),
    outputSchema: z.object({ total: z.number(), matches: z.array(Row) }),
  }, ({ query, limit }) => {
    const scores = new Map<number, number>();
    for (const term of new Set(termsOf(query))) {
      for (const posting of index.get(term) ?? []) {
        const at = posting >> 2;
        scores.set(at, (scores.get(at) ?? 0) + (posting & 3));
      }
    }
    const scored = [...scores].map(([at, score]) => [score, skills[at]] as [number, Held]);
    scored.sort((a, b) => b[0] - a[0]);
    const matches = scored.slice(0, limit ?? 10).map(([, s]) => row(s));
    return {
      content: [{ type: "text", text: lines(matches) }],
      structuredContent: { total: scored.length, matches },
    };
  });
  server.registerTool("open_skill", {
    description: "Load one skill's instructions by its exact name.",
    inputSchema: z.object({ name: z.string().min(1) }),
    outputSchema: z.object({ name: z.string(), description: z.string(), content: z.string() }),
  }, ({ name }) => {
    const skill = byName.get(name);
    if (skill === undefined) {
      return { content: [{ type: "text", text: `unknown skill ${name}` }], isError: true };
    }
    return {
      content: [{ type: "text", text: skill.text }],
      structuredContent: { name, description: skill.description, content: skill.text },
    };
  });
  extension.attach(server);
  return server;
}

/** The Skills extension over the held entries: pages of 100, reads from memory. */
function floorExtension(skills: Held[]): SkillsExtension {
  const entries = skills.map((s) => s.entry);
  const files = new Map(skills.flatMap((s) => [...s.files]));
  const byUri = new Map(entries.map((e) => [e.uri, e]));
  return new SkillsExtension({
    source: {
      list: ({ cursor }) => {
        const from = cursor === undefined ? 0 : Number(cursor);
        const page = entries.slice(from, from + 100);
        const next = from + 100 < entries.length ? String(from + 100) : undefined;
        return Promise.resolve(
          next === undefined ? { skills: page } : { skills: page, nextCursor: next },
        );
      },
      get: (uri) => Promise.resolve(byUri.get(uri)),
      read: (uri) => {
        const text = files.get(uri);
        return Promise.resolve(text === undefined ? undefined : { text });
      },
      listResources: () =>
        Promise.resolve(skills.map((s) => ({
          uri: s.entry.uri,
          name: s.name,
          description: s.description,
          mimeType: "text/markdown",
        }))),
    },
    onWarning: () => {},
  });
}

/** The web `Request` of a Node request and its body. */
function webRequest(req: IncomingMessage, body: Uint8Array<ArrayBuffer>, base: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) {
      headers.append(name, one);
    }
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(new URL(req.url ?? "/", base), {
    method: req.method,
    headers,
    body: hasBody ? body : undefined,
  });
}

/** Streams a web `Response` to a Node response. */
async function send(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (response.body === null) return void res.end();
  const reader = response.body.getReader();
  res.once("close", () => void reader.cancel().catch(() => {}));
  for (let step = await reader.read(); !step.done; step = await reader.read()) {
    res.write(step.value);
  }
  res.end();
}

const [folder, ...rest] = process.argv.slice(2);
if (folder === undefined) {
  throw new Error("usage: floor_server.ts <skills-folder> [--http HOST:PORT]");
}
const skills = await readSkills(folder);
const byName = new Map(skills.map((s) => [s.name, s]));
const extension = floorExtension(skills);
const index = indexOf(skills);
const factory = () => floorServer(skills, byName, index, extension);
const http = rest.indexOf("--http");
if (http === -1) {
  serveStdio(factory);
} else {
  const [host, port] = (rest[http + 1] ?? "127.0.0.1:0").split(":");
  const handler = createMcpHandler(factory);
  const base = `http://${host}`;
  const server = createServer((req, res) => {
    const chunks: Uint8Array[] = [];
    req.on("data", (chunk: Uint8Array) => chunks.push(chunk));
    req.on("end", async () => {
      const size = chunks.reduce((n, c) => n + c.length, 0);
      const body = new Uint8Array(size);
      let at = 0;
      for (const c of chunks) body.set(c, (at += c.length) - c.length);
      try {
        await send(res, await handler.fetch(webRequest(req, body, base)));
      } catch {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      }
    });
  });
  server.listen(Number(port), host, () => {
    const { port: bound } = server.address() as AddressInfo;
    process.stderr.write(
      `floor: serving MCP on http://${host}:${bound}/mcp; stop it with Ctrl-C\n`,
    );
  });
  const stop = () => {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
