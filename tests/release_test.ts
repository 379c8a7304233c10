// Release metadata: one version everywhere, a publishable JSR package, an MCP registry entry.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { TOOL_NAME, VERSION } from "../lib/version.ts";
import { ROOT, run } from "./helpers.ts";

Deno.test("one version in lib/version.ts, deno.json and server.json", async () => {
  match(VERSION, /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/);
  const deno = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  equal(deno.version, VERSION);
  const server = JSON.parse(await Deno.readTextFile(`${ROOT}server.json`));
  equal(server.version, VERSION);
  equal(server.packages[0].version, VERSION);
  equal(server.packages[0].identifier, TOOL_NAME);
  ok(server.description.length <= 100, "the MCP registry allows 100 characters");
  deepEqual(server.packages[0].transport, { type: "stdio" });
  equal(server.packages[0].packageArguments[0].value, "mcp");
});

Deno.test("JSR: deno publish --dry-run succeeds and runs the CLI as the default export", async () => {
  const deno = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  equal(deno.exports["."], "./main.ts");
  equal(deno.exports["./mcp"], "./mcp/mod.ts");
  const output = await run(Deno.execPath(), ["publish", "--dry-run", "--allow-dirty"], {
    env: { NO_COLOR: "1" },
  });
  const text = output.stdout + output.stderr;
  equal(output.code, 0, text);
  ok(text.includes(`${deno.name}@${VERSION}`), text);
  ok(text.includes("Dry run complete"), text);
});
