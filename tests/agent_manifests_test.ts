/**
 * The Agent Plugins manifests (`plugin.json`, `mcp.json`, Agent Plugins 1.0.0) and `glama.json`
 * (issue 31): valid against their documented rules, and the `mcp.json` server, started as an Agent
 * Plugins client starts it, serves the catalog to a real MCP SDK client.
 *
 * No npm package ships either format's schema, so each rule is checked here, with its source:
 * - Agent Plugins specification 1.0.0 (agent-plugins.org/specification; the text and the schemas
 *   `schemas/1.0.0/plugin.schema.json` and `mcp.schema.json` of github.com/agentplugins/
 *   agent-plugins-spec): §4.1 and §5.1, the manifest is `plugin.json` in the plugin root (here the
 *   repository root) and §7.2.1 `mcp.json` beside it; §5.2, the manifest is a closed object of
 *   `$schema`, `name`, `version`, `description`, `author`, `homepage`, `repository`, `license`,
 *   `keywords`, `extensions`, `$schema` exactly `https://agent-plugins.org/schemas/1.0.0/
 *   plugin.schema.json`; §5.3, `$schema` and `name` required; §5.4, the metadata types, `author`
 *   only `name`, `email`, `url` strings, `keywords` strings; §5.5, `name` 1–64 characters of
 *   `a-z0-9.-`, alphanumeric at both ends, no `--` or `..`; §8.1, `extensions` maps namespaces to
 *   objects. §7.2.1, `mcp.json` is exactly `$schema` (`https://agent-plugins.org/schemas/1.0.0/
 *   mcp.schema.json`) and `mcpServers`; a stdio server is closed: `type` `"stdio"`, `command` one
 *   non-empty token (a bare name or `./…`), `args` strings, `env` strings, `cwd` `./…`,
 *   `${PLUGIN_ROOT}…` or `${PLUGIN_DATA}…`; when `cwd` is omitted the client starts the server in the
 *   plugin root. §9.1, the client sets `PLUGIN_ROOT` and `PLUGIN_DATA` in the server's environment,
 *   and `env` may not name them; §9.2, only `${PLUGIN_ROOT}` and `${PLUGIN_DATA}` are expanded, in
 *   `args`, `env` values and `cwd`, never in `command`, any other placeholder-like text stays
 *   literal. §10.1, `mcp.json`'s `$schema` version is `plugin.json`'s.
 * - glama.ai's MCP server manifest (glama.ai's "claim a server" instructions and the `glama.json`
 *   files it publishes): a `glama.json` at the repository root with `$schema`
 *   `https://glama.ai/mcp/schemas/server.json` and `maintainers`, the GitHub accounts that may claim
 *   the server (GitHub's rules: 1–39 characters of `A-Za-z0-9-`, no leading or trailing hyphen).
 * - docs/security.md "Launching": npx runs with `--prefix` the plugin's folder and Deno with
 *   `--config` its `deno.json` (tests/launch_guard_test.ts attacks this entry with the others).
 *
 * @module
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { VERSION } from "../lib/version.ts";
import { MCP_TOOLS, ROOT, run, skillMd, withSandbox, writeTree } from "./helpers.ts";

type Json = Record<string, unknown>;

const PLUGIN_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json";
const MCP_SCHEMA = "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json";
const GLAMA_SCHEMA = "https://glama.ai/mcp/schemas/server.json";
const USER_SKILL = "agent-plugin-user-skill";

async function readJson(path: string): Promise<Json> {
  return JSON.parse(await readFile(path, "utf8")) as Json;
}

function typeOf(value: unknown): string {
  return Array.isArray(value) ? "array" : value === null ? "null" : typeof value;
}

/** §5.2–§5.5 and §8.1; returns the problems. */
function manifestProblems(doc: Json): string[] {
  const out: string[] = [];
  const types: Record<string, string> = {
    $schema: "string",
    name: "string",
    version: "string",
    description: "string",
    author: "object",
    homepage: "string",
    repository: "string",
    license: "string",
    keywords: "array",
    extensions: "object",
  };
  for (const [key, value] of Object.entries(doc)) {
    if (!(key in types)) out.push(`unknown field ${key}`);
    else if (typeOf(value) !== types[key]) out.push(`${key} type`);
  }
  if (doc.$schema !== PLUGIN_SCHEMA) out.push("$schema");
  const name = doc.name;
  if (
    typeof name !== "string" || name.length < 1 || name.length > 64 ||
    !/^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/.test(name) || /--|\.\./.test(name)
  ) out.push("name");
  for (const [key, value] of Object.entries((doc.author ?? {}) as Json)) {
    if (!["name", "email", "url"].includes(key) || typeof value !== "string") {
      out.push(`author.${key}`);
    }
  }
  if (Array.isArray(doc.keywords) && doc.keywords.some((k) => typeof k !== "string")) {
    out.push("keywords");
  }
  for (const [key, value] of Object.entries((doc.extensions ?? {}) as Json)) {
    if (typeOf(value) !== "object") out.push(`extensions.${key}`);
  }
  return out;
}

const PLACEHOLDER_CWD = /^(?:\.\/|\$\{PLUGIN_ROOT\}(?:\/|$)|\$\{PLUGIN_DATA\}(?:\/|$))/;

/** §7.2.1, §9.2 and §10.1 for stdio servers (the only kind here); returns the problems. */
function mcpProblems(doc: Json, manifestSchema: unknown): string[] {
  const out: string[] = [];
  for (const key of Object.keys(doc)) {
    if (!["$schema", "mcpServers"].includes(key)) out.push(`unknown field ${key}`);
  }
  if (doc.$schema !== MCP_SCHEMA) out.push("$schema");
  const version = (url: unknown) => /\/schemas\/([^/]+)\//.exec(String(url))?.[1];
  if (version(doc.$schema) !== version(manifestSchema)) out.push("schema version mismatch");
  if (typeOf(doc.mcpServers) !== "object") return [...out, "mcpServers"];
  for (const [name, server] of Object.entries(doc.mcpServers as Record<string, Json>)) {
    const at = (what: string) => out.push(`${name}: ${what}`);
    if (server.type !== "stdio") {
      at("type");
      continue;
    }
    for (const key of Object.keys(server)) {
      if (!["type", "command", "args", "env", "cwd"].includes(key)) at(`unknown field ${key}`);
    }
    const command = server.command;
    if (typeof command !== "string" || command === "") at("command");
    else if (/\s/.test(command) || command.includes("${")) at("command is not one plain token");
    else if (command.includes("/") && !command.startsWith("./")) at("command path");
    const args = server.args ?? [];
    if (!Array.isArray(args) || args.some((a) => typeof a !== "string")) at("args");
    const env = (server.env ?? {}) as Json;
    if (typeOf(env) !== "object") at("env");
    for (const [key, value] of Object.entries(env)) {
      if (typeof value !== "string") at(`env.${key}`);
      if (["PLUGIN_ROOT", "PLUGIN_DATA"].includes(key)) at(`env.${key} is reserved`);
    }
    if (server.cwd !== undefined) {
      if (typeof server.cwd !== "string" || !PLACEHOLDER_CWD.test(server.cwd)) at("cwd");
    }
    // Only the two plugin variables are ever expanded: anything else would reach the server as is.
    const texts = [...(args as string[]), ...Object.values(env).map(String)];
    for (const text of texts) {
      const others = text.replace(/\$\{PLUGIN_ROOT\}|\$\{PLUGIN_DATA\}/g, "");
      if (others.includes("${")) at(`unexpandable placeholder in ${text}`);
    }
  }
  return out;
}

/** glama.json; returns the problems. */
function glamaProblems(doc: Json): string[] {
  const out: string[] = [];
  for (const key of Object.keys(doc)) {
    if (!["$schema", "maintainers"].includes(key)) out.push(`unknown field ${key}`);
  }
  if (doc.$schema !== GLAMA_SCHEMA) out.push("$schema");
  const maintainers = doc.maintainers;
  if (!Array.isArray(maintainers) || maintainers.length === 0) out.push("maintainers");
  for (const login of Array.isArray(maintainers) ? maintainers : []) {
    if (
      typeof login !== "string" || !/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?$/.test(login)
    ) {
      out.push(`maintainer ${login}`);
    }
  }
  return out;
}

Deno.test("agent manifests: plugin.json, mcp.json and glama.json follow their documented rules", async () => {
  const manifest = await readJson(join(ROOT, "plugin.json"));
  const mcp = await readJson(join(ROOT, "mcp.json"));
  const glama = await readJson(join(ROOT, "glama.json"));
  deepEqual(manifestProblems(manifest), []);
  deepEqual(mcpProblems(mcp, manifest.$schema), []);
  deepEqual(glamaProblems(glama), []);
  equal(manifest.version, VERSION);
  // The name and the server are the Claude Code plugin's.
  const claude = await readJson(join(ROOT, ".claude-plugin/plugin.json"));
  equal(manifest.name, claude.name);
  deepEqual(Object.keys(mcp.mcpServers as Json), Object.keys(claude.mcpServers as Json));
  // The checks bite: the spec's own invalid examples, and what a client would refuse.
  deepEqual(manifestProblems({ $schema: PLUGIN_SCHEMA, name: "has--double", mcpServers: {} }), [
    "unknown field mcpServers",
    "name",
  ]);
  deepEqual(
    mcpProblems({
      $schema: MCP_SCHEMA,
      mcpServers: {
        s: {
          type: "stdio",
          command: "../bin/server",
          cwd: "data",
          args: ["--cwd", "${CLAUDE_PROJECT_DIR}"],
          env: { PLUGIN_ROOT: "/x" },
        },
      },
    }, "https://agent-plugins.org/schemas/1.1.0/plugin.schema.json"),
    [
      "schema version mismatch",
      "s: command path",
      "s: env.PLUGIN_ROOT is reserved",
      "s: cwd",
      "s: unexpandable placeholder in ${CLAUDE_PROJECT_DIR}",
    ],
  );
  deepEqual(glamaProblems({ $schema: GLAMA_SCHEMA, maintainers: ["-bad"], version: "1" }), [
    "unknown field version",
    "maintainer -bad",
  ]);
});

/** §9.2: a single, non-recursive replacement of the two placeholders, nothing else. */
function expand(text: string, root: string, data: string): string {
  return text.replace(
    /\$\{PLUGIN_ROOT\}|\$\{PLUGIN_DATA\}/g,
    (m) => m === "${PLUGIN_ROOT}" ? root : data,
  );
}

Deno.test("agent manifests: mcp.json's server, started as an Agent Plugins client starts it, serves the catalog", async () => {
  await withSandbox(async (box) => {
    // The plugin root: the files Git would commit, as a client that fetched the repository has them.
    const root = join(box.root, "plugins", "skills-anywhere");
    const listed = await run("git", ["ls-files", "-co", "--exclude-standard", "-z"], { cwd: ROOT });
    equal(listed.code, 0, listed.stderr);
    for (const path of listed.stdout.split("\0").filter((p) => p !== "")) {
      const stat = await Deno.lstat(join(ROOT, path)).catch(() => undefined);
      if (stat === undefined || !stat.isFile) continue;
      await Deno.mkdir(join(root, path, ".."), { recursive: true });
      await Deno.copyFile(join(ROOT, path), join(root, path));
    }
    const data = join(box.root, "plugins", "data", "skills-anywhere");
    await Deno.mkdir(data, { recursive: true }); // §9.1: created before the server starts
    // A skill in the user's home: the server an Agent Plugins client starts serves the user's skills.
    await writeTree(join(box.home, ".claude", "skills", USER_SKILL), {
      "SKILL.md": skillMd(USER_SKILL, "The user's own skill. Use when testing plugins.", "# User"),
    });
    const cache = (await run("npm", ["config", "get", "cache"], { cwd: box.root })).stdout.trim();
    await Deno.symlink(cache, join(box.home, ".npm"));
    await Deno.writeTextFile(
      join(box.home, ".npmrc"),
      "prefer-offline=true\nupdate-notifier=false\n",
    );

    const mcp = await readJson(join(root, "mcp.json"));
    const [server] = Object.values(mcp.mcpServers as Record<string, Json>);
    const args = ((server.args ?? []) as string[]).map((a) => expand(a, root, data));
    const env = {
      ...box.env,
      ...Object.fromEntries(
        Object.entries((server.env ?? {}) as Record<string, string>).map((
          [k, v],
        ) => [k, expand(v, root, data)]),
      ),
      PLUGIN_ROOT: root,
      PLUGIN_DATA: data,
    };
    const cwd = server.cwd === undefined ? root : expand(server.cwd as string, root, data);
    const transport = new StdioClientTransport({
      command: server.command as string, // a bare name, resolved on PATH (§7.2.1)
      args,
      env,
      cwd,
      stderr: "pipe",
    });
    let stderr = "";
    (transport.stderr as Readable | null)?.on("data", (chunk: Uint8Array | string) => {
      stderr += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
    });
    const client = new Client({ name: "agent-plugins-test", version: VERSION });
    try {
      await client.connect(transport);
      equal(client.getServerVersion()?.version, VERSION);
      const tools = (await client.listTools()).tools.map((t) => t.name).sort();
      deepEqual(tools, MCP_TOOLS);
      const page = await client.callTool({ name: "list_skills", arguments: {} });
      const skills = ((page.structuredContent ?? {}) as { skills?: { name: string }[] }).skills;
      ok(Array.isArray(skills), `${JSON.stringify(page)}\n${stderr}`);
      // The plugin's own folder (its testdata/ fixtures) is no project of skills.
      deepEqual(skills.map((s) => s.name), [USER_SKILL]);
    } catch (error) {
      throw new Error(`${error}\n${stderr}`);
    } finally {
      await client.close();
    }
  });
});
