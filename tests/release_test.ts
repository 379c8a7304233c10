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

Deno.test("JSR: deno publish --dry-run succeeds; `.` is the library (as on npm), `./cli` the CLI", async () => {
  const deno = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  equal(deno.exports["."], "./mod.ts");
  equal(deno.exports["./cli"], "./main.ts");
  equal(deno.exports["./mcp"], "./mcp/mod.ts");
  const output = await run(Deno.execPath(), ["publish", "--dry-run", "--allow-dirty"], {
    env: { NO_COLOR: "1" },
  });
  const text = output.stdout + output.stderr;
  equal(output.code, 0, text);
  ok(text.includes(`${deno.name}@${VERSION}`), text);
  ok(text.includes("Dry run complete"), text);
});

// No npm package ships the MCP registry's server.json schema (its source package is private), so
// this checks the rules of the schema named in `$schema` (2025-12-11) that server.json uses.
Deno.test("server.json: the MCP registry schema's rules for every field it uses", async () => {
  const server = JSON.parse(await Deno.readTextFile(`${ROOT}server.json`));
  equal(
    server.$schema,
    "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
  );
  const known = ["$schema", "name", "title", "description", "version", "repository", "packages"];
  deepEqual(Object.keys(server).filter((key) => !known.includes(key)), []);
  match(server.name, /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
  ok(server.name.length >= 3 && server.name.length <= 200);
  ok(server.title.length >= 1 && server.title.length <= 100);
  ok(server.description.length >= 1 && server.description.length <= 100);
  ok(server.version !== "latest" && server.version.length <= 255);
  match(server.repository.url, /^https:\/\/github\.com\/[^/]+\/[^/]+$/);
  equal(server.repository.source, "github");
  ok(server.name.startsWith(`io.github.${new URL(server.repository.url).pathname.split("/")[1]}/`));
  for (const pkg of server.packages) {
    equal(pkg.registryType, "npm");
    ok(pkg.identifier.length >= 1);
    equal(pkg.transport.type, "stdio");
    // The schema: runtimeHint should be given with runtimeArguments.
    if (pkg.runtimeArguments !== undefined) equal(pkg.runtimeHint, "npx");
    for (const argument of [...pkg.packageArguments, ...(pkg.runtimeArguments ?? [])]) {
      ok(["positional", "named"].includes(argument.type), JSON.stringify(argument));
      if (argument.type === "positional") ok("value" in argument || "valueHint" in argument);
      if (argument.type === "named") ok(argument.name.startsWith("-"));
    }
  }
});

Deno.test("CHANGELOG.md: Keep a Changelog, an Unreleased section, then this version", async () => {
  const text = await Deno.readTextFile(`${ROOT}CHANGELOG.md`);
  ok(text.includes("[Keep a Changelog]("), "names the format");
  const versions = [...text.matchAll(/^## \[([^\]]+)\]/gm)].map((found) => found[1]);
  deepEqual(versions.slice(0, 2), ["Unreleased", VERSION]);
  for (const version of versions) ok(text.includes(`\n[${version}]: https://`), `${version} link`);
  for (const heading of text.matchAll(/^### (.+)$/gm)) {
    ok(["Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"].includes(heading[1]));
  }
});
