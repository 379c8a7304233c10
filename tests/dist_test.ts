// Distribution, end to end: the npm package (packed, installed into an empty project, run by Node
// with an empty PATH) and the standalone binaries (built with Bun, the linux-x64 one run here).
// Each shipped form runs the whole CLI end-to-end suite (tests/*cli_test.ts through DSA_CLI) and a
// real MCP session with the SDK 1.30.0 client and a v2 client pinned to 2026-07-28.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { sha256Hex } from "../lib/hash.ts";
import { VERSION } from "../lib/version.ts";
import { MCP_TOOLS, ROOT, run, withTempDir, writeTree } from "./helpers.ts";

const CLI_SUITE = [
  "tests/cli_test.ts",
  "tests/check_cli_test.ts",
  "tests/bundle_cli_test.ts",
  "tests/catalog_cli_test.ts",
  "tests/catalog_sources_cli_test.ts",
  "tests/sources_cli_test.ts",
  "tests/show_cli_test.ts",
  "tests/search_cli_test.ts",
  "tests/cli_help_test.ts",
  "tests/cli_tty_test.ts",
  "tests/cli_pipe_test.ts",
];

async function nodePath(): Promise<string> {
  const { stdout } = await run("node", ["-e", "process.stdout.write(process.execPath)"]);
  return stdout;
}

/** Runs the CLI end-to-end suite against `cli` (a command array). */
async function cliSuite(cli: string[]): Promise<void> {
  const result = await run(Deno.execPath(), [
    "test",
    "--config",
    "deno.dev.json",
    "-A",
    "--parallel",
    ...CLI_SUITE,
  ], {
    env: { DSA_CLI: JSON.stringify(cli), NO_COLOR: "1" },
  });
  const summary = /(ok|FAILED) \| (\d+) passed(?: \([^)]*\))? \| (\d+) failed/.exec(result.stdout);
  ok(summary, `no test summary:\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-2000)}`);
  equal(summary[3], "0", result.stdout.slice(-4000));
  ok(Number(summary[2]) >= 40, `only ${summary[2]} CLI tests ran`);
}

const SKILL = "---\nname: pdf-forms\ndescription: Fill PDF forms. Use for PDF form filling.\n" +
  "allowed-tools: Read\n---\n# PDF forms\n\nRun scripts/fill.py.\n";

/** A temp home with one skill; returns the paths and the reviewed digests. */
async function mcpFixture(root: string) {
  const home = `${root}/home`;
  const project = `${root}/project`;
  await writeTree(root, {
    "home/.claude/skills/pdf-forms/SKILL.md": SKILL,
    "home/.claude/skills/pdf-forms/scripts/fill.py": "print('fill')\n",
    "project/.git/HEAD": "ref: refs/heads/main\n",
  });
  const bundle = await run(Deno.execPath(), [
    "run",
    "-A",
    `${ROOT}main.ts`,
    "bundle",
    "--json",
    `${home}/.claude/skills/pdf-forms`,
  ]);
  equal(bundle.code, 0, bundle.stderr);
  return {
    home,
    project,
    sha256: sha256Hex(SKILL),
    bundleSha256: JSON.parse(bundle.stdout).sha256 as string,
  };
}

type AnyClient = {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(
    params: { name: string; arguments: Record<string, unknown> },
  ): Promise<Record<string, unknown>>;
  close(): Promise<void>;
};

async function mcpScenario(client: AnyClient, fixture: Awaited<ReturnType<typeof mcpFixture>>) {
  const tools = (await client.listTools()).tools.map((t) => t.name).sort();
  deepEqual(tools, MCP_TOOLS);
  const found = await client.callTool({ name: "find_skills", arguments: { query: "pdf form" } });
  match(JSON.stringify(found.content), /pdf-forms/);
  const pinned = await client.callTool({
    name: "open_skill",
    arguments: { name: "pdf-forms", expected_sha256: fixture.sha256 },
  });
  equal(pinned.isError, undefined);
  match(JSON.stringify(pinned.content), /Run scripts\/fill\.py/);
  const bundled = await client.callTool({
    name: "open_skill",
    arguments: { name: "pdf-forms", expected_bundle_sha256: fixture.bundleSha256 },
  });
  equal(bundled.isError, undefined);
  equal(
    (bundled.structuredContent as { bundle: { sha256: string } }).bundle.sha256,
    fixture.bundleSha256,
  );
  const wrong = await client.callTool({
    name: "open_skill",
    arguments: { name: "pdf-forms", expected_bundle_sha256: "0".repeat(64) },
  });
  equal(wrong.isError, true);
  ok(!JSON.stringify(wrong.content).includes("fill.py"), "a refused load leaked instructions");
  await client.close();
}

/** The MCP session with both client generations against `command args`, with `env` only. */
async function mcpSessions(command: string, args: string[], env: Record<string, string>) {
  await withTempDir(async (root) => {
    const fixture = await mcpFixture(root);
    const serverArgs = [...args, "mcp", "--cwd", fixture.project];
    const childEnv = { ...env, HOME: fixture.home, DSH_HOME: `${fixture.home}/.dsh` };
    const v1 = new ClientV1({ name: "dist-test-v1", version: "1.0.0" });
    await v1.connect(new StdioV1({ command, args: serverArgs, env: childEnv, stderr: "ignore" }));
    await mcpScenario(v1 as unknown as AnyClient, fixture);
    const v2 = new Client(
      { name: "dist-test-v2", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await v2.connect(
      new StdioClientTransport({ command, args: serverArgs, env: childEnv, stderr: "ignore" }),
    );
    equal(v2.getNegotiatedProtocolVersion(), "2026-07-28");
    await mcpScenario(v2 as unknown as AnyClient, fixture);
  });
}

Deno.test("npm package: no runtime dependencies, ≤ 1 MiB packed, runs under Node with an empty PATH", async () => {
  const build = await run(Deno.execPath(), ["run", "-A", "npm/build.ts"]);
  equal(build.code, 0, build.stderr);
  const pkg = JSON.parse(await Deno.readTextFile(`${ROOT}npm/dist/package.json`));
  equal(pkg.name, "dsh-skills-anywhere");
  equal(pkg.version, VERSION);
  equal(pkg.type, "module");
  deepEqual(pkg.bin, { "dsh-skills-anywhere": "dist/cli.js" });
  // Issue 31: `./client` and `dsh.client`, the dsh web card (tests/dsh_card_test.ts drives it).
  deepEqual(Object.keys(pkg.exports), [".", "./tools", "./mcp", "./client", "./package.json"]);
  deepEqual(pkg.dsh, {
    bundle: { patch: "./cordis.patch.yml" },
    client: {
      platform: "web",
      inject: [
        "@deepseek-ai/dsh-client-locale",
        "@deepseek-ai/dsh-client-ui-settings",
        "@deepseek-ai/dsh-client-ui-settings-plugins",
        "@deepseek-ai/dsh-client-connection",
      ],
    },
  });
  const client = await Deno.readTextFile(`${ROOT}npm/dist/${pkg.exports["./client"]}`);
  ok(
    client.startsWith('window.__ModuleLoader__.load({id:"dsh-skills-anywhere",'),
    client.slice(0, 80),
  );
  ok(!/innerHTML|dangerouslySetInnerHTML|insertAdjacentHTML/.test(client), "text-only DOM");
  equal(pkg.dependencies, undefined);
  equal(pkg.engines.node, ">=20.16");
  // Release metadata: where the source, the home page and the issues are, from server.json's repo.
  const repo = JSON.parse(await Deno.readTextFile(`${ROOT}server.json`)).repository.url;
  deepEqual(pkg.repository, { type: "git", url: `git+${repo}.git` });
  equal(pkg.homepage, `${repo}#readme`);
  deepEqual(pkg.bugs, { url: `${repo}/issues` });
  ok(pkg.keywords.includes("agent-skills") && pkg.keywords.includes("mcp"), pkg.keywords);
  // Every bundled npm package's licence travels with it (esbuild's legal comments are dropped).
  ok(pkg.files.includes("THIRD_PARTY_NOTICES.md"), pkg.files);
  const notices = await Deno.readTextFile(`${ROOT}npm/dist/THIRD_PARTY_NOTICES.md`);
  for (
    const bundled of ["js-yaml@", "zod@", "@modelcontextprotocol/server@", "@sigstore/verify@"]
  ) {
    ok(notices.includes(`## ${bundled}`), `${bundled} is not in THIRD_PARTY_NOTICES.md`);
  }
  ok(notices.includes("Permission is hereby granted") && notices.includes("Apache License"));
  await withTempDir(async (dir) => {
    const pack = await run("npm", ["pack", "--silent", "--pack-destination", dir], {
      cwd: `${ROOT}npm/dist`,
    });
    equal(pack.code, 0, pack.stderr);
    const tarball = `${dir}/${pack.stdout.trim().split("\n").pop()}`;
    const size = (await Deno.stat(tarball)).size;
    ok(size <= 1024 * 1024, `tarball is ${size} bytes`);
    const project = `${dir}/project`;
    await writeTree(project, { "package.json": '{"private":true}\n' });
    const install = await run("npm", ["install", "--no-audit", "--no-fund", tarball], {
      cwd: project,
    });
    equal(install.code, 0, install.stderr);
    const lock = JSON.parse(await Deno.readTextFile(`${project}/package-lock.json`));
    deepEqual(Object.keys(lock.packages).sort(), ["", "node_modules/dsh-skills-anywhere"]);
    const node = await nodePath();
    const cli = `${project}/node_modules/dsh-skills-anywhere/dist/cli.js`;
    const version = await run(node, [cli, "--version"], { clearEnv: true, env: { PATH: "" } });
    equal(version.stdout, `${VERSION}\n`);
    // check, bundle and list with no PATH at all: no git, no deno, nothing but Node itself.
    const bare = { clearEnv: true, env: { PATH: "", HOME: `${dir}/home` } };
    await writeTree(dir, {
      "home/.claude/skills/bare/SKILL.md": SKILL.replace("pdf-forms", "bare"),
    });
    const check = await run(
      node,
      [cli, "check", `${ROOT}testdata/check/clean-skill/SKILL.md`],
      bare,
    );
    equal(check.code, 0, check.stderr);
    match(check.stdout, /^PASSED /);
    const bundle = await run(
      node,
      [cli, "bundle", "--json", `${dir}/home/.claude/skills/bare`],
      bare,
    );
    equal(bundle.code, 0, bundle.stderr);
    equal(JSON.parse(bundle.stdout).schema, "skills-anywhere-bundle-1");
    const list = await run(node, [cli, "list", "--json", "--cwd", dir], bare);
    equal(list.code, 0, list.stderr);
    deepEqual(JSON.parse(list.stdout).skills.map((s: { name: string }) => s.name), ["bare"]);
    const npx = await run(
      "npx",
      ["--yes", "--package", tarball, "dsh-skills-anywhere", "--version"],
      { cwd: dir },
    );
    equal(npx.stdout.trim(), VERSION);
    await cliSuite([node, cli]);
    await mcpSessions(node, [cli], { PATH: "" });
  });
});

const HEADERS: Record<string, (bytes: Uint8Array, view: DataView) => boolean> = {
  "dsh-skills-anywhere-linux-x64": (b, v) =>
    b[0] === 0x7f && b[1] === 0x45 && b[2] === 0x4c && b[3] === 0x46 &&
    v.getUint16(18, true) === 0x3e,
  "dsh-skills-anywhere-linux-arm64": (b, v) =>
    b[0] === 0x7f && b[1] === 0x45 && b[2] === 0x4c && b[3] === 0x46 &&
    v.getUint16(18, true) === 0xb7,
  "dsh-skills-anywhere-darwin-x64": (_b, v) =>
    v.getUint32(0, true) === 0xfeedfacf && v.getUint32(4, true) === 0x01000007,
  "dsh-skills-anywhere-darwin-arm64": (_b, v) =>
    v.getUint32(0, true) === 0xfeedfacf && v.getUint32(4, true) === 0x0100000c,
  "dsh-skills-anywhere-windows-x64.exe": (b, v) => {
    if (b[0] !== 0x4d || b[1] !== 0x5a) return false;
    const pe = v.getUint32(0x3c, true);
    return v.getUint32(pe, true) === 0x00004550 && v.getUint16(pe + 4, true) === 0x8664;
  },
};

Deno.test("binaries: five platforms with SHA256SUMS; linux-x64 passes the CLI suite and MCP with an empty environment", async () => {
  const build = await run(Deno.execPath(), ["run", "-A", "npm/binaries.ts"]);
  equal(build.code, 0, build.stderr);
  const dir = `${ROOT}dist/bin`;
  const sums = (await Deno.readTextFile(`${dir}/SHA256SUMS`)).trim().split("\n");
  deepEqual(sums.map((line) => line.split("  ")[1]).sort(), Object.keys(HEADERS).sort());
  for (const line of sums) {
    const [digest, file] = line.split("  ");
    const bytes = await Deno.readFile(`${dir}/${file}`);
    equal(sha256Hex(bytes), digest, file);
    ok(
      HEADERS[file](bytes, new DataView(bytes.buffer, bytes.byteOffset)),
      `${file} has the wrong header`,
    );
  }
  const binary = `${dir}/dsh-skills-anywhere-linux-x64`;
  const version = await run(binary, ["--version"], { clearEnv: true, env: {} });
  equal(version.stdout, `${VERSION}\n`);
  await cliSuite([binary]);
  await mcpSessions(binary, [], {});
});
