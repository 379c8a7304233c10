// A third-party MCP client drives the server: the MCP Inspector's command-line mode
// (`@modelcontextprotocol/inspector@0.22.0 --cli`, installed from the npm registry on first use)
// lists and calls the tools and lists and reads the resources over stdio, as a person debugging a
// configuration would, over stdio and over Streamable HTTP.
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { catalogFixture, PDF_BODY } from "./mcp_fixture.ts";
import { type Sandbox, serverParams, withSandbox } from "./mcp_helpers.ts";
import { MCP_TOOLS, run } from "./helpers.ts";
import { npmTool } from "../scripts/npm_tools.ts";
import { withHttpServer } from "./mcp_http_helpers.ts";

const INSPECTOR = "@modelcontextprotocol/inspector@0.22.0";

/**
 * Runs the Inspector's CLI with `args` against `mcp` in `box` — over stdio, or over HTTP at
 * `url` — and returns the parsed JSON it prints.
 */
async function inspect(box: Sandbox, url: string | undefined, ...args: string[]) {
  const modules = await npmTool(INSPECTOR, ".bin/mcp-inspector");
  const server = serverParams(box);
  const target = url === undefined
    ? [server.command, ...server.args]
    : [url, "--transport", "http"];
  const result = await run(
    "node",
    [
      join(modules, "@modelcontextprotocol", "inspector", "cli", "build", "cli.js"),
      "--cli",
      ...target,
      ...args,
    ],
    { cwd: server.cwd, env: server.env },
  );
  equal(result.code, 0, `${args.join(" ")}\n${result.stdout}\n${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

/** Lists and calls the tools, lists and reads the resources, as a person would. */
async function session(box: Sandbox, url: string | undefined): Promise<void> {
  const tools = await inspect(box, url, "--method", "tools/list");
  deepEqual(
    (tools.tools as { name: string }[]).map((t) => t.name).sort(),
    MCP_TOOLS,
  );
  const call = (tool: string, arg: string) =>
    inspect(box, url, "--method", "tools/call", "--tool-name", tool, "--tool-arg", arg);
  const found = await call("find_skills", "query=pdf");
  const matches = (found.structuredContent as { matches: { name: string }[] }).matches;
  equal(matches[0].name, "pdf-forms");
  const opened = await call("open_skill", "name=pdf-forms");
  equal((opened.structuredContent as { content: string }).content, PDF_BODY);
  const listed = await inspect(box, url, "--method", "resources/list");
  const resources = listed.resources as { uri: string; name: string }[];
  const pdf = resources.find((r) => r.uri.includes("pdf-forms"));
  ok(pdf !== undefined, JSON.stringify(listed));
  const read = await inspect(box, url, "--method", "resources/read", "--uri", pdf.uri);
  const contents = read.contents as { text?: string }[];
  ok(contents[0].text?.includes(PDF_BODY), JSON.stringify(read).slice(0, 500));
}

Deno.test("MCP Inspector CLI: tools, a search, a load and the resources over stdio", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    await session(box, undefined);
  });
});

Deno.test("MCP Inspector CLI: the same over Streamable HTTP", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    const done = await withHttpServer(box, [], (server) => session(box, server.url));
    equal(done.code, 0, done.stderr);
  });
});
