// A third-party MCP client drives the server: the MCP Inspector's command-line mode
// (`@modelcontextprotocol/inspector@0.22.0 --cli`, installed from the npm registry on first use)
// lists and calls the tools and lists and reads the resources over stdio, as a person debugging a
// configuration would.
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { catalogFixture, PDF_BODY } from "./mcp_fixture.ts";
import { type Sandbox, serverParams, withSandbox } from "./mcp_helpers.ts";
import { run } from "./helpers.ts";
import { npmTool } from "./npm_tools.ts";

const INSPECTOR = "@modelcontextprotocol/inspector@0.22.0";

/** Runs the Inspector's CLI against `mcp` in `box` with `args`; the parsed JSON it prints. */
async function inspect(box: Sandbox, ...args: string[]): Promise<Record<string, unknown>> {
  const modules = await npmTool(INSPECTOR, ".bin/mcp-inspector");
  const server = serverParams(box);
  const result = await run(
    "node",
    [
      join(modules, "@modelcontextprotocol", "inspector", "cli", "build", "cli.js"),
      "--cli",
      server.command,
      ...server.args,
      ...args,
    ],
    { cwd: server.cwd, env: server.env },
  );
  equal(result.code, 0, `${args.join(" ")}\n${result.stdout}\n${result.stderr}`);
  return JSON.parse(result.stdout);
}

Deno.test("MCP Inspector CLI: tools, a search, a load and the resources over stdio", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    const tools = await inspect(box, "--method", "tools/list");
    deepEqual(
      (tools.tools as { name: string }[]).map((t) => t.name).sort(),
      ["find_skills", "list_skills", "open_skill"],
    );
    const found = await inspect(
      box,
      "--method",
      "tools/call",
      "--tool-name",
      "find_skills",
      "--tool-arg",
      "query=pdf",
    );
    const matches = (found.structuredContent as { matches: { name: string }[] }).matches;
    equal(matches[0].name, "pdf-forms");
    const opened = await inspect(
      box,
      "--method",
      "tools/call",
      "--tool-name",
      "open_skill",
      "--tool-arg",
      "name=pdf-forms",
    );
    equal((opened.structuredContent as { content: string }).content, PDF_BODY);
    const listed = await inspect(box, "--method", "resources/list");
    const resources = listed.resources as { uri: string; name: string }[];
    ok(resources.length >= 3, JSON.stringify(listed));
    const pdf = resources.find((r) => r.uri.includes("pdf-forms"));
    ok(pdf !== undefined, JSON.stringify(resources));
    const read = await inspect(box, "--method", "resources/read", "--uri", pdf.uri);
    const contents = read.contents as { text?: string }[];
    ok(contents[0].text?.includes(PDF_BODY), JSON.stringify(read).slice(0, 500));
  });
});
