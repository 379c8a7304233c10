/**
 * The launch guard (issue 27, findings 1 and 2): every documented way to start the CLI or the
 * MCP server, and the GitHub Action's run step, started exactly as a client, a shell or the runner
 * starts it — with the working directory a hostile cloned project — reads none of the project's
 * package-manager or runtime configuration.
 *
 * The hostile project sets every dangerous `.npmrc` key (`registry`, `@scope:registry`, `cache`,
 * `node-options`, `script-shell`, `globalconfig`, `userconfig`, `prefix`, `init-module`, …) to an
 * attacker's registry on 127.0.0.1 (a `node:http` server of this test that records every request
 * and serves a `deno` and a `dsh-skills-anywhere` whose bins write a marker file), commits
 * `node_modules/deno`, `node_modules/.bin/deno` and the like, and carries a hostile `package.json`,
 * `deno.json`, `deno.jsonc`, `deno.lock`, `.env` files, `bunfig.toml`, `.nvmrc`, `.node-version`
 * and `.tool-versions`. Controls first prove that the fixture bites: the old unpinned forms are
 * attacked. Then each form is parsed from the document that shows it (README.md, docs/mcp.md,
 * docs/check.md, docs/install.md, server.json, action.yml, and the plugin manifests
 * `.claude-plugin/plugin.json` and `mcp.json`, their variables expanded as Claude Code and an Agent
 * Plugins host expand them), started with the checkout (or the
 * builds of tests/dsh_pack.ts and npm/binaries.ts) in place of `/path/to/…`, and must serve the
 * project's own skill while no request reaches the attacker, no marker appears, and nothing
 * changes in the project or the home but the named outputs and the caches.
 *
 * @module
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { createHash } from "node:crypto";
import { createServer, type Server } from "node:http";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { load as loadYaml } from "js-yaml";
import { VERSION } from "../lib/version.ts";
import { packPlugin } from "./dsh_pack.ts";
import {
  exists,
  MCP_TOOLS,
  ROOT,
  run,
  type Sandbox,
  skillMd,
  withSandbox,
  withTempDir,
} from "./helpers.ts";
import { fingerprint } from "./hostile_helpers.ts";
import { runAction } from "./action_runner.ts";

/** The checkout, as the documents' `/path/to/dsh-skills-anywhere` stands for it. */
const CHECKOUT = ROOT.replace(/\/$/, "");
const PLACEHOLDER = "/path/to/dsh-skills-anywhere";
const PROJECT_SKILL = "hostile-project-skill";

// ---------------------------------------------------------------------------
// A registry on 127.0.0.1

interface Registry {
  url: string;
  /** Every request received, as `METHOD /path`. */
  requests: string[];
  close(): Promise<void>;
}

/** One package a registry serves: its packument's single version and the tarball bytes. */
interface Served {
  name: string;
  version: string;
  tarball: Uint8Array;
  manifest: Record<string, unknown>;
}

/** Serves `packages` (packument and tarball each) and records every request. */
async function startRegistry(packages: Served[]): Promise<Registry> {
  const requests: string[] = [];
  let base = "";
  const server: Server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const path = decodeURIComponent(request.url ?? "/").split("?")[0];
    for (const pkg of packages) {
      const file = `/${pkg.name}/-/${pkg.name}-${pkg.version}.tgz`;
      if (path === `/${pkg.name}`) {
        const dist = {
          tarball: `${base}${file}`,
          shasum: createHash("sha1").update(pkg.tarball).digest("hex"),
          integrity: `sha512-${createHash("sha512").update(pkg.tarball).digest("base64")}`,
        };
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({
          name: pkg.name,
          "dist-tags": { latest: pkg.version },
          versions: {
            [pkg.version]: { ...pkg.manifest, name: pkg.name, version: pkg.version, dist },
          },
        }));
        return;
      }
      if (path === file) {
        response.setHeader("content-type", "application/octet-stream");
        response.end(pkg.tarball);
        return;
      }
    }
    response.statusCode = 404;
    response.end("{}");
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  base = `http://127.0.0.1:${address.port}`;
  return {
    url: `${base}/`,
    requests,
    close: () => new Promise<void>((closed) => server.close(() => closed())),
  };
}

/** JavaScript (CommonJS, or an ES module) that records it ran: `<markers>/<label>-<pid>`. */
function markerScript(markers: string, label: string, module = false): string {
  const target = JSON.stringify(`${markers}/${label}-`);
  const fs = module ? "(await import('node:fs'))" : 'require("node:fs")';
  return `${fs}.writeFileSync(${target} + process.pid, "ran\\n");\n` +
    `console.log("attacker code ran: ${label}");\n`;
}

/** An npm tarball (`package/…`) of `files`, made with the real `tar`. */
async function tarball(files: Record<string, string>): Promise<Uint8Array> {
  return await withTempDir(async (dir) => {
    for (const [path, text] of Object.entries(files)) {
      const full = join(dir, "package", path);
      await Deno.mkdir(join(full, ".."), { recursive: true });
      await Deno.writeTextFile(full, text, { mode: 0o755 });
    }
    const out = join(dir, "out.tgz");
    const packed = await run("tar", ["-czf", out, "-C", dir, "package"]);
    equal(packed.code, 0, packed.stderr);
    return await Deno.readFile(out);
  });
}

/** The attacker's `deno` and `dsh-skills-anywhere`: same names and versions, bins that mark. */
async function attackerPackages(markers: string): Promise<Served[]> {
  const out: Served[] = [];
  for (const [name, version] of [["deno", "2.9.6"], ["dsh-skills-anywhere", VERSION]]) {
    const manifest = { bin: { [name]: "bin/run.js" } };
    out.push({
      name,
      version,
      manifest,
      tarball: await tarball({
        "package.json": JSON.stringify({ name, version, ...manifest }),
        "bin/run.js": `#!/usr/bin/env node\n${markerScript(markers, `registry-${name}`)}`,
      }),
    });
  }
  return out;
}

// ---------------------------------------------------------------------------
// The hostile project

/**
 * A cloned repository that tries every way a project could choose what runs: `.npmrc` keys, a
 * committed `node_modules` (packages named like the launchers and like the CLI's imports), Deno and
 * Bun configuration, `.env` files, version-manager pins. Every script in it writes a marker.
 */
async function hostileProject(
  box: Sandbox,
  name: string,
  attacker: string,
  markers: string,
  options: { nodeModules: boolean },
): Promise<string> {
  const dir = join(box.root, name);
  const port = new URL(attacker).host;
  const evil = (label: string) => markerScript(markers, label);
  const envFile = [
    `DSH_HOME=${dir}/evil-dsh-home`,
    `HOME=${dir}/evil-home`,
    `NODE_OPTIONS=--require ${dir}/evil.cjs`,
    `BUN_OPTIONS=--preload ${dir}/evil.ts`,
    `DENO_DIR=${dir}/evil-deno-dir`,
    `NPM_CONFIG_REGISTRY=${attacker}`,
    `npm_config_registry=${attacker}`,
    `GIT_CONFIG_GLOBAL=${dir}/evil.gitconfig`,
    "DSA_LAUNCH_PROBE=from-dotenv",
    "",
  ].join("\n");
  const npmrc = [
    `registry=${attacker}`,
    `@skills-anywhere:registry=${attacker}`,
    `@modelcontextprotocol:registry=${attacker}`,
    `@deepseek-ai:registry=${attacker}`,
    `//${port}/:_authToken=attacker-token`,
    "cache=.npm-cache",
    `node-options=--require ${dir}/evil.cjs`,
    `script-shell=${dir}/evil.sh`,
    `shell=${dir}/evil.sh`,
    `globalconfig=${dir}/evil-globalrc`,
    `userconfig=${dir}/evil-userrc`,
    `init-module=${dir}/evil-init.cjs`,
    `onload-script=${dir}/evil.cjs`,
    `git=${dir}/evil.sh`,
    `node-gyp=${dir}/evil.sh`,
    `cafile=${dir}/evil-ca.pem`,
    "strict-ssl=false",
    "ignore-scripts=false",
    "prefer-online=true",
    "yes=true",
    "",
  ].join("\n");
  const hostileImports = {
    "js-yaml": "./evil.mjs",
    "zod": "./evil.mjs",
    "@modelcontextprotocol/server": "./evil.mjs",
    "@modelcontextprotocol/server/": "./evil/",
  };
  const packageJson = {
    name: "hostile",
    version: "1.0.0",
    type: "commonjs",
    bin: { "deno": "evil.cjs", "dsh-skills-anywhere": "evil.cjs" },
    scripts: {
      preinstall: "node evil.cjs",
      install: "node evil.cjs",
      postinstall: "node evil.cjs",
      prepare: "node evil.cjs",
      npx: "node evil.cjs",
      "dsh-skills-anywhere": "node evil.cjs",
    },
    dependencies: { "deno": "2.9.6", "dsh-skills-anywhere": VERSION, "js-yaml": "5.5.0" },
    imports: { "#yaml": "./evil.cjs" },
    workspaces: ["evil-workspace"],
    packageManager: "npm@1.0.0",
    volta: { node: "18.0.0" },
    engines: { node: "18.0.0" },
  };
  const files: Record<string, string> = {
    [`.claude/skills/${PROJECT_SKILL}/SKILL.md`]: skillMd(
      PROJECT_SKILL,
      "The hostile project's own skill. Use when testing launches.",
      "# Hostile project skill",
    ),
    [`skills/${PROJECT_SKILL}/SKILL.md`]: skillMd(
      PROJECT_SKILL,
      "The hostile project's own skill. Use when testing launches.",
      "# Hostile project skill",
    ),
    ".npmrc": npmrc,
    "evil-globalrc": `registry=${attacker}\n`,
    "evil-userrc": `registry=${attacker}\n`,
    "evil-init.cjs": evil("init-module"),
    "evil.cjs": evil("evil-cjs"),
    "evil.mjs": markerScript(markers, "evil-mjs", true),
    "evil.ts": markerScript(markers, "evil-ts", true),
    "evil.sh": `#!/bin/sh\necho ran > ${markers}/evil-sh-$$\n`,
    "evil-workspace/package.json": JSON.stringify({ name: "evil-ws", version: "1.0.0" }),
    "package.json": JSON.stringify(packageJson, null, 2),
    "package-lock.json": JSON.stringify({
      name: "hostile",
      lockfileVersion: 3,
      packages: { "node_modules/deno": { version: "2.9.6", resolved: `${attacker}deno.tgz` } },
    }),
    "deno.json": JSON.stringify({
      imports: hostileImports,
      nodeModulesDir: "manual",
      lock: "deno.lock",
      tasks: { start: "node evil.cjs" },
      compilerOptions: { types: ["./evil.ts"] },
    }),
    "deno.jsonc": `// hostile\n${JSON.stringify({ imports: hostileImports })}\n`,
    "deno.lock": JSON.stringify({
      version: "5",
      specifiers: { "npm:js-yaml@5.5.0": "5.5.0" },
      npm: { "js-yaml@5.5.0": { integrity: "sha512-AAAA" } },
    }),
    "import_map.json": JSON.stringify({ imports: hostileImports }),
    ".env": envFile,
    ".env.local": envFile,
    ".env.production": envFile,
    ".env.development": envFile,
    "bunfig.toml": `preload = ["./evil.ts"]\n[install]\nregistry = "${attacker}"\n`,
    "tsconfig.json": JSON.stringify({ compilerOptions: { paths: { "js-yaml": ["./evil.ts"] } } }),
    ".nvmrc": "18.0.0\n",
    ".node-version": "18.0.0\n",
    ".tool-versions": "nodejs 18.0.0\ndeno 1.0.0\n",
    ".dvmrc": "1.0.0\n",
    ".yarnrc": `registry "${attacker}"\n`,
    ".yarnrc.yml": `npmRegistryServer: "${attacker}"\n`,
    "pnpm-workspace.yaml": "packages: ['evil-workspace']\n",
    ".pnpmfile.cjs": evil("pnpmfile"),
  };
  const links: Record<string, string> = {};
  if (options.nodeModules) {
    for (const [pkg, version] of [["deno", "2.9.6"], ["dsh-skills-anywhere", VERSION]]) {
      files[`node_modules/${pkg}/package.json`] = JSON.stringify({
        name: pkg,
        version,
        bin: { [pkg]: "bin/run.js" },
      });
      files[`node_modules/${pkg}/bin/run.js`] = `#!/usr/bin/env node\n${evil(`local-${pkg}`)}`;
      links[`node_modules/.bin/${pkg}`] = `../${pkg}/bin/run.js`;
    }
    // Packages named like the CLI's own imports, in case anything resolved them from here.
    for (const pkg of ["js-yaml", "zod", "@modelcontextprotocol/server"]) {
      files[`node_modules/${pkg}/package.json`] = JSON.stringify({
        name: pkg,
        version: "99.0.0",
        main: "index.js",
        exports: { ".": "./index.js", "./*": "./index.js" },
      });
      files[`node_modules/${pkg}/index.js`] = evil(`import-${pkg.replace("/", "_")}`);
    }
  }
  await box.repo(name, files, links);
  const bins = options.nodeModules
    ? ["node_modules/deno/bin/run.js", "node_modules/dsh-skills-anywhere/bin/run.js"]
    : [];
  for (const script of ["evil.sh", "evil.cjs", ...bins]) await Deno.chmod(join(dir, script), 0o755);
  return dir;
}

// ---------------------------------------------------------------------------
// What the documents show

function fencedBlocks(text: string, lang: string): string[] {
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)]
    .filter((m) => m[1] === lang).map((m) => m[2]);
}

/** A command line a client runs: the program and its arguments. */
interface Launch {
  /** Where it is shown. */
  where: string;
  command: string;
  args: string[];
  /** Variables the client adds to the server's environment (a plugin's own). */
  env?: Record<string, string>;
}

/** `/path/to/dsh-skills-anywhere…` in every part replaced by the checkout (or `binary`). */
function filled(launch: Launch, binary: string): Launch {
  const fill = (s: string) =>
    s.replace(`${PLACEHOLDER}-linux-x64`, binary).replace(PLACEHOLDER, CHECKOUT);
  return { ...launch, command: fill(launch.command), args: launch.args.map(fill) };
}

/** Every `mcpServers` entry of the page's JSON blocks. */
function jsonLaunches(page: string, text: string): Launch[] {
  const out: Launch[] = [];
  for (const block of fencedBlocks(text, "json")) {
    const doc = JSON.parse(block) as {
      mcpServers?: Record<string, { command: string; args: string[] }>;
    };
    for (const [name, server] of Object.entries(doc.mcpServers ?? {})) {
      out.push({ where: `${page} mcpServers.${name}`, command: server.command, args: server.args });
    }
  }
  return out;
}

/** The `"command": …, "args": […]` fragments of the page's prose (the binary, the installed command). */
function inlineLaunches(page: string, text: string): Launch[] {
  const prose = text.replace(/^```[\s\S]*?^```$/gm, "").replaceAll("\n", " ");
  return [...prose.matchAll(/`("command": "[^"]*", "args": \[[^\]]*\])`/g)].map((m) => {
    const doc = JSON.parse(`{${m[1]}}`) as { command: string; args: string[] };
    return { where: `${page} \`${m[1]}\``, command: doc.command, args: doc.args };
  });
}

/** Codex's `[mcp_servers.*]` tables of the page's TOML blocks (`command` and `args` lines). */
function tomlLaunches(page: string, text: string): Launch[] {
  const out: Launch[] = [];
  for (const block of fencedBlocks(text, "toml")) {
    const table = /^\[mcp_servers\.([\w-]+)\]$/m.exec(block);
    const command = /^command = (".*")$/m.exec(block);
    // A TOML array of basic strings, on one line or several (a trailing comma allowed).
    const args = /^args = \[([\s\S]*?)\]$/m.exec(block);
    if (table === null || command === null || args === null) continue;
    out.push({
      where: `${page} [mcp_servers.${table[1]}]`,
      command: JSON.parse(command[1]),
      args: [...args[1].matchAll(/"(?:[^"\\]|\\.)*"/g)].map((m) => JSON.parse(m[0])),
    });
  }
  return out;
}

/**
 * The MCP servers of the plugin manifests, expanded as their clients expand them, with this checkout
 * as the plugin's folder: `.claude-plugin/plugin.json` as Claude Code does (`${CLAUDE_PLUGIN_ROOT}`,
 * `${CLAUDE_PLUGIN_DATA}`, `${CLAUDE_PROJECT_DIR}` in `command` and `args`, all three exported),
 * `mcp.json` as an Agent Plugins client does (`${PLUGIN_ROOT}`, `${PLUGIN_DATA}` in `args`, both
 * exported). Both are started in the project: Claude Code starts plugin servers for the project,
 * and an Agent Plugins client that ignores the spec's default working directory (the plugin's
 * folder) is the case to attack.
 */
async function manifestLaunches(project: string, data: string): Promise<Launch[]> {
  const claude = JSON.parse(await readFile(join(ROOT, ".claude-plugin/plugin.json"), "utf8"));
  const agent = JSON.parse(await readFile(join(ROOT, "mcp.json"), "utf8"));
  const vars: Record<string, string> = {
    CLAUDE_PLUGIN_ROOT: CHECKOUT,
    CLAUDE_PLUGIN_DATA: data,
    CLAUDE_PROJECT_DIR: project,
    PLUGIN_ROOT: CHECKOUT,
    PLUGIN_DATA: data,
  };
  const out: Launch[] = [];
  const add = (where: string, servers: Record<string, Launch>, names: string[]) => {
    const fill = (s: string) =>
      s.replace(/\$\{(\w+)\}/g, (whole, name) => names.includes(name) ? vars[name] : whole);
    for (const [name, server] of Object.entries(servers)) {
      const launch = {
        where: `${where} mcpServers.${name}`,
        command: names.includes("PLUGIN_ROOT") ? server.command : fill(server.command),
        args: server.args.map(fill),
        env: Object.fromEntries(names.map((n) => [n, vars[n]])),
      };
      for (const part of [launch.command, ...launch.args]) ok(!part.includes("${"), part);
      out.push(launch);
    }
  };
  add(".claude-plugin/plugin.json", claude.mcpServers, [
    "CLAUDE_PLUGIN_ROOT",
    "CLAUDE_PLUGIN_DATA",
    "CLAUDE_PROJECT_DIR",
  ]);
  add("mcp.json", agent.mcpServers, ["PLUGIN_ROOT", "PLUGIN_DATA"]);
  return out;
}

interface ServerJsonArgument {
  type: "positional" | "named";
  name?: string;
  value?: string;
  isRequired?: boolean;
}

/**
 * The command an MCP registry client composes from server.json's npm package:
 * `<runtimeHint> <runtimeArguments> <identifier>@<version> <packageArguments>`, a named argument as
 * `--flag value`, optional arguments without a fixed value left out.
 */
function registryLaunch(serverJson: string): Launch {
  const doc = JSON.parse(serverJson) as {
    packages: {
      registryType: string;
      identifier: string;
      version: string;
      runtimeHint: string;
      runtimeArguments?: ServerJsonArgument[];
      packageArguments?: ServerJsonArgument[];
    }[];
  };
  const pkg = doc.packages.find((p) => p.registryType === "npm");
  ok(pkg !== undefined, "server.json has an npm package");
  const compose = (list: ServerJsonArgument[] = []) =>
    list.flatMap((a) => {
      if (a.value === undefined) {
        ok(!a.isRequired, `server.json: required argument ${a.name} has no value`);
        return a.type === "named" && a.name !== undefined && a.isRequired ? [a.name] : [];
      }
      return a.type === "named" && a.name !== undefined ? [a.name, a.value] : [a.value];
    });
  return {
    where: "server.json",
    command: pkg.runtimeHint,
    args: [
      ...compose(pkg.runtimeArguments),
      `${pkg.identifier}@${pkg.version}`,
      ...compose(pkg.packageArguments),
    ],
  };
}

// ---------------------------------------------------------------------------
// Starting things as a client does

/**
 * The user's environment: a temp home whose `~/.npm` is the warm npm cache (a link) and whose
 * `~/.npmrc` prefers that cache, Deno's warm cache, DSH_HOME left to its default (<home>/.dsh,
 * as most users leave it, so a `.env` read at start-up could move it). Nothing the project could
 * not override is set in the environment.
 */
async function userEnv(box: Sandbox, npmCache: string): Promise<Record<string, string>> {
  await Deno.symlink(npmCache, join(box.home, ".npm"));
  await Deno.writeTextFile(
    join(box.home, ".npmrc"),
    "prefer-offline=true\nupdate-notifier=false\nfund=false\naudit=false\n",
  );
  const { DSH_HOME: _default, ...user } = box.env;
  return { ...user, NO_COLOR: "1" };
}

function collect(stream: Readable | null): () => string {
  let text = "";
  stream?.on("data", (chunk: string | Uint8Array) => {
    text += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
  });
  return () => text;
}

/** Starts `launch` as an MCP client does (cwd = `project`), lists its tools and the project's skill. */
async function mcpSession(launch: Launch, project: string, env: Record<string, string>) {
  const transport = new StdioClientTransport({
    command: launch.command,
    args: launch.args,
    cwd: project,
    env,
    stderr: "pipe",
  });
  const stderr = collect(transport.stderr as Readable | null);
  const client = new Client({ name: "launch-guard", version: "1.0.0" });
  try {
    await client.connect(transport);
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    deepEqual(tools, MCP_TOOLS, launch.where);
    const page = await client.callTool({ name: "list_skills", arguments: {} });
    const listed = JSON.stringify(page.structuredContent ?? page.content);
    ok(listed.includes(PROJECT_SKILL), `${launch.where}: ${listed}\n${stderr()}`);
  } catch (error) {
    throw new Error(`${launch.where}: ${error}\n${stderr()}`);
  } finally {
    await client.close();
  }
}

/**
 * Runs `launch list` to completion in `project` (exit 0, the project's skill listed), then
 * `launch doctor`, whose state folder must be the user's `stateDir`: a `.env` read at start-up
 * would have moved it into the project.
 */
async function cliRun(
  launch: Launch,
  project: string,
  env: Record<string, string>,
  stateDir: string,
) {
  const options = { cwd: project, env, clearEnv: true };
  const result = await run(launch.command, [...launch.args, "list"], options);
  equal(result.code, 0, `${launch.where}\n${result.stdout}\n${result.stderr}`);
  ok(result.stdout.includes(PROJECT_SKILL), `${launch.where}: ${result.stdout}`);
  const doctor = await run(launch.command, [...launch.args, "doctor"], options);
  const state = /^state: (.*)$/m.exec(doctor.stdout)?.[1];
  equal(state, stateDir, `${launch.where}: doctor says\n${doctor.stdout}${doctor.stderr}`);
}

/** The markers that attacker code left (none, for a safe launch). */
async function markersIn(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) out.push(entry.name);
  return out.sort();
}

/** Removes the markers of an earlier (failed or control) run. */
async function clearMarkers(dir: string): Promise<void> {
  for (const name of await markersIn(dir)) await Deno.remove(join(dir, name));
}

/** The temp world a launch may not change: the project and the home, minus caches and outputs. */
async function state(box: Sandbox, project: string, outputs: string[] = []) {
  return {
    project: await fingerprint(project, outputs.map((o) => join(project, o))),
    home: await fingerprint(box.home, [
      join(box.home, ".dsh"),
      join(box.home, ".npm"),
      join(box.home, ".cache"),
    ]),
  };
}

/**
 * Runs `start` and proves it safe: the attacker's registry saw no request, no marker appeared,
 * and only `outputs` (relative to the project) changed in the project and the home.
 */
async function guarded(
  what: string,
  box: Sandbox,
  project: string,
  attacker: Registry,
  markers: string,
  start: () => Promise<void>,
  outputs: string[] = [],
) {
  await clearMarkers(markers);
  const before = await state(box, project, outputs);
  attacker.requests.length = 0;
  await start();
  deepEqual(attacker.requests, [], `${what}: the project's registry was contacted`);
  deepEqual(await markersIn(markers), [], `${what}: attacker code ran`);
  deepEqual(await state(box, project, outputs), before, `${what}: something else changed`);
}

/** The builds every shipped form runs: the packed npm package and the linux-x64 binary. */
async function builds(work: string) {
  const tarballPath = await packPlugin(work);
  const src = join(work, "src");
  const built = await run(Deno.execPath(), ["run", "-A", "npm/binaries.ts", "linux-x64"], {
    cwd: src,
  });
  equal(built.code, 0, built.stderr);
  return { tarballPath, binary: join(src, "dist/bin/dsh-skills-anywhere-linux-x64") };
}

/** The action's run step as it was before issue 27: npx in the pull request's checkout. */
const OLD_ACTION_RUN = 'npx -y "deno@${INPUT_DENO_VERSION}" run -A --quiet ' +
  '--config "${GITHUB_ACTION_PATH}/deno.json" "${GITHUB_ACTION_PATH}/scripts/action.ts"';

/** The documented launch before issue 27: npx in the project, nothing pinned. */
function oldCheckoutLaunch(): Launch {
  return {
    where: "the unpinned checkout form",
    command: "npx",
    args: ["-y", "deno@2.9.6", "run", "-A", "--quiet", `${CHECKOUT}/main.ts`, "mcp"],
  };
}

// ---------------------------------------------------------------------------

Deno.test("launch guard: every documented launch and the Action ignore a hostile project's configuration", async (t) => {
  await withSandbox(async (box) => {
    const markers = join(box.root, "markers");
    await Deno.mkdir(markers);
    await Deno.mkdir(box.dshHome, { recursive: true });
    box.env.GIT_ALLOW_PROTOCOL = "file";
    const cache = (await run("npm", ["config", "get", "cache"], { cwd: box.root })).stdout.trim();
    const env = await userEnv(box, cache);
    const attacker = await startRegistry(await attackerPackages(markers));
    try {
      const project = await hostileProject(box, "cloned", attacker.url, markers, {
        nodeModules: true,
      });
      const plain = await hostileProject(box, "cloned-npmrc-only", attacker.url, markers, {
        nodeModules: false,
      });
      const readme = await readFile(join(ROOT, "README.md"), "utf8");
      const mcpDoc = await readFile(join(ROOT, "docs/mcp.md"), "utf8");
      const installDoc = await readFile(join(ROOT, "docs/install.md"), "utf8");
      const work = join(box.root, "build");
      await Deno.mkdir(work);
      const { tarballPath, binary } = await builds(work);

      await t.step(
        "control: the unpinned npx form runs the project's registry and its node_modules",
        async () => {
          // .npmrc alone: the attacker's registry is asked for deno, its bin runs, and the cache
          // moves into the project.
          await run(oldCheckoutLaunch().command, [...oldCheckoutLaunch().args, "--version"], {
            cwd: plain,
            env,
            clearEnv: true,
          });
          ok(attacker.requests.includes("GET /deno"), attacker.requests.join("\n"));
          ok(await exists(join(plain, ".npm-cache")), "the project's cache= was not used");
          ok((await markersIn(markers)).length > 0, "no attacker code ran from the registry");
          // --location=global skips the project's .npmrc, yet its node_modules/.bin/deno still wins.
          await clearMarkers(markers);
          await run("npx", ["--location=global", "-y", "deno@2.9.6", "--version"], {
            cwd: project,
            env,
            clearEnv: true,
          });
          ok(
            (await markersIn(markers)).some((m) => m.startsWith("local-deno-")),
            "npx --location=global did not prefer the project's node_modules/deno",
          );
          await clearMarkers(markers);
          // The old server.json composition: npx dsh-skills-anywhere@<version> in the project.
          await run("npx", ["-y", `dsh-skills-anywhere@${VERSION}`, "mcp"], {
            cwd: project,
            env,
            clearEnv: true,
          });
          // (the project's script-shell, or its node_modules/.bin, runs instead of the package)
          ok((await markersIn(markers)).length > 0, "npx dsh-skills-anywhere was not attacked");
          await clearMarkers(markers);
          attacker.requests.length = 0;
        },
      );

      await t.step(
        "control: a Bun executable built with Bun's defaults reads the project's .env and bunfig.toml",
        async () => {
          await withTempDir(async (dir) => {
            await Deno.writeTextFile(
              join(dir, "probe.js"),
              `require("node:fs").writeFileSync(${
                JSON.stringify(`${markers}/probe-`)
              } + process.pid, String(process.env.DSA_LAUNCH_PROBE));\n`,
            );
            const probe = join(dir, "probe");
            const built = await run("npx", [
              "-y",
              "bun@1.4.5",
              "build",
              "--compile",
              join(dir, "probe.js"),
              "--outfile",
              probe,
            ], { cwd: dir });
            equal(built.code, 0, built.stderr);
            await run(probe, [], { cwd: project, env, clearEnv: true });
          });
          const seen = await markersIn(markers);
          ok(
            seen.some((m) => m.startsWith("evil-ts-")),
            `bunfig.toml's preload did not run: ${seen}`,
          );
          const probe = seen.find((m) => m.startsWith("probe-"));
          ok(probe !== undefined);
          ok(
            (await Deno.readTextFile(join(markers, probe))).includes("from-dotenv"),
            ".env unread",
          );
          await clearMarkers(markers);
        },
      );

      await t.step(
        "control: the Action's old run line runs the pull request's configuration",
        async () => {
          const result = await runAction(box, project, { baseEnv: env, run: OLD_ACTION_RUN });
          ok(
            (await markersIn(markers)).length > 0,
            `the old run line was not attacked: ${result.stdout}${result.stderr}`,
          );
          await clearMarkers(markers);
        },
      );

      // Every documented launch of the MCP server from a checkout or a release build.
      const launches = [
        ...jsonLaunches("README.md", readme),
        ...inlineLaunches("README.md", readme),
        ...jsonLaunches("docs/mcp.md", mcpDoc),
        ...inlineLaunches("docs/mcp.md", mcpDoc),
        ...tomlLaunches("docs/mcp.md", mcpDoc),
        ...jsonLaunches("docs/install.md", installDoc),
        ...inlineLaunches("docs/install.md", installDoc),
        ...tomlLaunches("docs/install.md", installDoc),
      ];
      ok(launches.length >= 7, launches.map((l) => l.where).join("\n"));
      // The plugins' servers (issue 31): Claude Code's plugin and the Agent Plugins mcp.json.
      const pluginData = join(box.root, "plugin-data");
      await Deno.mkdir(pluginData);
      const plugins = await manifestLaunches(project, pluginData);
      deepEqual(plugins.map((l) => l.where), [
        ".claude-plugin/plugin.json mcpServers.skills-anywhere",
        "mcp.json mcpServers.skills-anywhere",
      ]);
      launches.push(...plugins);
      // The installed command: `npm install -g` of the packed package, from the home.
      const globalPrefix = join(box.root, "global");
      const install = await run(
        "npm",
        ["install", "-g", "--prefix", globalPrefix, "--offline", tarballPath],
        { cwd: box.home, env, clearEnv: true },
      );
      equal(install.code, 0, install.stderr);
      const installedEnv = { ...env, PATH: `${globalPrefix}/bin:${env.PATH}` };

      for (const launch of launches.map((l) => filled(l, binary))) {
        const launchEnv = {
          ...(launch.command === "dsh-skills-anywhere" ? installedEnv : env),
          ...launch.env,
        };
        await t.step(`MCP: ${launch.where}`, async () => {
          await guarded(
            launch.where,
            box,
            project,
            attacker,
            markers,
            () => mcpSession(launch, project, launchEnv),
          );
        });
      }

      await t.step(
        "CLI: README's alias, the binary and the installed command run list",
        async () => {
          const stateDir = "~/.dsh/skills-anywhere"; // doctor writes the home as ~
          const alias = readme.split("\n").find((l) => l.startsWith("alias dsh-skills-anywhere="));
          ok(alias !== undefined, "README defines the alias");
          await guarded("README alias", box, project, attacker, markers, async () => {
            // Defined in the checkout (the quick start's `cd`), used in the project.
            const script =
              `shopt -s expand_aliases\ncd "${CHECKOUT}"\n${alias}\ncd "${project}"\n` +
              "dsh-skills-anywhere list\n";
            const result = await run("bash", ["-c", script], {
              cwd: CHECKOUT,
              env,
              clearEnv: true,
            });
            equal(result.code, 0, result.stderr);
            ok(result.stdout.includes(PROJECT_SKILL), result.stdout);
          });
          const binaryLaunch = { where: "the release binary", command: binary, args: [] };
          await guarded(
            "binary list",
            box,
            project,
            attacker,
            markers,
            () => cliRun(binaryLaunch, project, env, stateDir),
          );
          const installed = {
            where: "the installed command",
            command: "dsh-skills-anywhere",
            args: [],
          };
          await guarded(
            "installed list",
            box,
            project,
            attacker,
            markers,
            () => cliRun(installed, project, installedEnv, stateDir),
          );
        },
      );

      await t.step("CLI: docs/check.md's CI command, with the installed command", async () => {
        const checkDoc = await readFile(join(ROOT, "docs/check.md"), "utf8");
        const ci = fencedBlocks(checkDoc.slice(checkDoc.indexOf("## In CI")), "sh")[0];
        ok(ci !== undefined, "docs/check.md shows a CI command");
        const output = /> (\S+)\s*$/.exec(ci)?.[1];
        ok(output !== undefined, "the CI command writes a named report");
        await guarded("docs/check.md CI", box, project, attacker, markers, async () => {
          const result = await run("bash", ["-c", ci], {
            cwd: project,
            env: installedEnv,
            clearEnv: true,
          });
          ok(result.code === 0 || result.code === 1, result.stderr);
          ok((await Deno.readTextFile(join(project, output))).includes(PROJECT_SKILL));
        }, [output]);
        await Deno.remove(join(project, output));
      });

      await t.step(
        "MCP over HTTP: docs/mcp.md's --http command, with the installed command",
        async () => {
          const http = fencedBlocks(mcpDoc, "sh").find((b) => b.includes("mcp --http"));
          ok(http !== undefined);
          const line = http.split("\n").find((l) => l.startsWith("dsh-skills-anywhere mcp --http"));
          ok(line !== undefined);
          const token = join(box.root, "token");
          await Deno.writeTextFile(token, "launch-guard-token\n");
          const args = line.split(/\s+/).slice(1).map((a) =>
            a === "0.0.0.0:8080" ? "127.0.0.1:0" : a.startsWith("/run/secrets/") ? token : a
          );
          await guarded("docs/mcp.md --http", box, project, attacker, markers, async () => {
            const child = new Deno.Command("dsh-skills-anywhere", {
              args,
              cwd: project,
              env: installedEnv,
              clearEnv: true,
              stdin: "null",
              stdout: "null",
              stderr: "piped",
            }).spawn();
            const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
            let seen = "";
            let url: string | undefined;
            while (url === undefined) {
              const { value, done } = await reader.read();
              if (done) break;
              seen += value;
              url = /serving MCP on (http:\/\/\S+); /.exec(seen)?.[1];
            }
            try {
              ok(url !== undefined, seen);
              const client = new Client({ name: "launch-guard-http", version: "1.0.0" });
              await client.connect(
                new StreamableHTTPClientTransport(new URL(url), {
                  requestInit: { headers: { Authorization: "Bearer launch-guard-token" } },
                }),
              );
              const page = await client.callTool({ name: "list_skills", arguments: {} });
              ok(JSON.stringify(page.structuredContent ?? page.content).includes(PROJECT_SKILL));
              await client.close();
            } finally {
              child.kill("SIGTERM");
              reader.releaseLock();
              await child.stderr.cancel().catch(() => {});
              await child.status;
            }
          });
        },
      );

      await t.step(
        "MCP: server.json's npm package, composed as a registry client composes it",
        async () => {
          // The user's registry comes from the user's environment and serves the real package; the
          // project's .npmrc names the attacker's.
          const real: Served = {
            name: "dsh-skills-anywhere",
            version: VERSION,
            tarball: await Deno.readFile(tarballPath),
            manifest: JSON.parse(await Deno.readTextFile(join(work, "src/npm/dist/package.json"))),
          };
          const users = await startRegistry([real]);
          try {
            const launch = registryLaunch(await readFile(join(ROOT, "server.json"), "utf8"));
            const registryEnv = {
              ...env,
              npm_config_registry: users.url,
              npm_config_cache: join(box.root, "registry-npm-cache"),
            };
            const rootBefore = await Array.fromAsync(Deno.readDir("/"), (e) => e.name);
            await guarded(
              launch.args.join(" "),
              box,
              project,
              attacker,
              markers,
              () => mcpSession(launch, project, registryEnv),
            );
            ok(users.requests.includes("GET /dsh-skills-anywhere"), users.requests.join("\n"));
            const rootAfter = await Array.fromAsync(Deno.readDir("/"), (e) => e.name);
            deepEqual(rootAfter.sort(), rootBefore.sort(), "npx wrote into its --prefix");
            // The line docs/mcp.md shows for registry clients is this one.
            const line = [launch.command, ...launch.args].join(" ");
            ok(mcpDoc.includes(`\`${line}\``), `docs/mcp.md does not show ${line}`);
          } finally {
            await users.close();
          }
        },
      );

      await t.step(
        "the Action: action.yml's run step, as the runner runs it, in a hostile pull request",
        async () => {
          await guarded("action.yml", box, project, attacker, markers, async () => {
            const result = await runAction(box, project, { baseEnv: env });
            ok(result.code === 0 || result.code === 1, result.stdout + result.stderr);
            ok(result.outputs["exit-code"] !== "", JSON.stringify(result.outputs));
          }, ["dsh-skills-anywhere.sarif", "skill-check.json"]);
        },
      );
    } finally {
      await attacker.close();
    }
  });
});

/** Lines that run npx inside this checkout (the development tasks), where its config is ours. */
const IN_CHECKOUT =
  /npx -y deno@[\d.]+ (task |test |fmt|lint|check|install|cache|run -A (--quiet )?(main\.ts|scripts\/|npm\/|web\/|bench\/))/;

/**
 * The code of a page: a Markdown page's fenced blocks and code spans, action.yml's `run` steps
 * (YAML's folding undone), all of another file; a command continued with a backslash joined.
 */
function codeOf(page: string, text: string): string[] {
  let pieces = [text];
  if (page === "action.yml") {
    const action = loadYaml(text) as { runs: { steps: { run?: string }[] } };
    pieces = action.runs.steps.map((step) => step.run ?? "");
  } else if (page.endsWith(".md")) {
    const prose = text.replace(/^```[\s\S]*?^```$/gm, "");
    pieces = [
      ...[...text.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)].map((m) => m[1]),
      ...[...prose.matchAll(/`([^`]+)`/g)].map((m) => m[1].replaceAll("\n", " ")),
    ];
  }
  return pieces.map((piece) => piece.replace(/\\\n\s*/g, " "));
}

Deno.test("launch guard: every npx the documents show is pinned with --prefix or runs in the checkout", async () => {
  const pages = [
    "README.md",
    "action.yml",
    "server.json",
    ...[...Deno.readDirSync(join(ROOT, "docs"))]
      .filter((e) => e.name.endsWith(".md") && e.name !== "decisions.md")
      .map((e) => `docs/${e.name}`),
  ];
  const loose: string[] = [];
  for (const page of pages) {
    for (const piece of codeOf(page, await readFile(join(ROOT, page), "utf8"))) {
      for (const [command] of piece.matchAll(/npx [^\n]*/g)) {
        if (command.includes("--prefix") || IN_CHECKOUT.test(command)) continue;
        // The launcher named in prose (`npx -y deno@2.9.6`), not a command line.
        if (/^npx -y deno@[\d.]+$/.test(command.trim())) continue;
        loose.push(`${page}: ${command.trim()}`);
      }
    }
  }
  deepEqual(loose, []);
});
