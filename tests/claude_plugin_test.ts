/**
 * The Claude Code plugin and marketplace (issue 31): `.claude-plugin/plugin.json` and
 * `.claude-plugin/marketplace.json` are valid against Claude Code's documented formats, the
 * marketplace's plugin is this repository's plugin, and the plugin's MCP server, started exactly as
 * the manifest says with the variables expanded as Claude Code expands them, serves the open
 * project's own skill to a real MCP SDK client. The real Claude Code CLI
 * (`@anthropic-ai/claude-code`, from npm, cached in `.cache/npm-tools/`) validates both manifests,
 * adds this checkout's copy as a marketplace, installs the plugin and health-checks its server, all
 * offline and without an account.
 *
 * The rules checked, and where each is documented (Claude Code docs, code.claude.com/docs/en/…):
 * - plugins-reference "Plugin manifest schema": the manifest lives at `.claude-plugin/plugin.json`;
 *   `name` is the only required field, a kebab-case string without spaces; the metadata fields
 *   (`$schema`, `displayName`, `version`, `description`, `homepage`, `repository`, `license`
 *   strings, `author` an object, `keywords` an array, `metadata` an object, `defaultEnabled` a
 *   boolean) and the component fields (`mcpServers` a string, array or object, …) are the known
 *   top-level keys ("Unrecognized fields": others are ignored and reported as warnings, so this
 *   test allows none). "Path behavior rules": a path field is relative and starts with `./`.
 * - plugins-reference "MCP servers" and mcp "Plugin-provided MCP servers": a server is inline under
 *   `mcpServers` with `command`, `args`, `env`; `${CLAUDE_PLUGIN_ROOT}` (the plugin's installation
 *   directory), `${CLAUDE_PLUGIN_DATA}` (`~/.claude/plugins/data/<id>`, characters outside
 *   `A-Za-z0-9_-` of `<plugin>@<marketplace>` replaced by `-`) and `${CLAUDE_PROJECT_DIR}` (the
 *   project root) are substituted in `command`, `args` and `env`, and all three are exported to the
 *   server's environment; mcp "Option 3": "Plugin-provided MCP configurations substitute
 *   `${CLAUDE_PROJECT_DIR}` directly and don't need the default"; mcp "Environment variable
 *   expansion": `${VAR}` and `${VAR:-default}`, an unset variable without a default stays as text.
 * - plugin-marketplaces "Marketplace schema": `.claude-plugin/marketplace.json` requires `name`
 *   (kebab-case, not a reserved name: the list in its note), `owner` (an object whose `name` is
 *   required, `email` and `url` optional) and `plugins` (an array); optional top-level keys are
 *   `$schema`, `description`, `version`, `metadata`, `allowCrossMarketplaceDependenciesOn`,
 *   `renames`. "Plugin entries": each needs `name` (kebab-case) and `source`; the optional keys are
 *   the plugin manifest's fields plus `source`, `category`, `tags`, `strict`, `relevance`.
 *   "Relative paths": a string source starts with `./`, resolves against the marketplace root (the
 *   folder holding `.claude-plugin/`), never `../`.
 * - plugins-reference "Version management" / plugin-marketplaces "Optional plugin fields": a
 *   version set in both places must agree (plugin.json wins); here both carry `VERSION`.
 * - docs/security.md "Launching": the server is started by npx with `--prefix` the plugin's folder
 *   and Deno with `--config` its `deno.json`, so nothing of the project chooses what runs
 *   (tests/launch_guard_test.ts attacks this entry with the others).
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { copyFile, mkdir, readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { VERSION } from "../lib/version.ts";
import { npmTool } from "../scripts/npm_tools.ts";
import {
  exists,
  MCP_TOOLS,
  ROOT,
  run,
  runCli,
  type Sandbox,
  skillMd,
  withSandbox,
  writeTree,
} from "./helpers.ts";

const CHECKOUT = ROOT.replace(/\/$/, "");
const PROJECT_SKILL = "plugin-project-skill";
/** The Claude Code release the test drives (its native binary ships in a per-platform package). */
const CLAUDE_CODE = "@anthropic-ai/claude-code@2.1.332";

type Json = Record<string, unknown>;

async function readJson(path: string): Promise<Json> {
  return JSON.parse(await readFile(path, "utf8")) as Json;
}

// ---------------------------------------------------------------------------
// The documented formats

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** plugins-reference: metadata fields and their JSON types. */
const PLUGIN_METADATA: Record<string, string> = {
  $schema: "string",
  name: "string",
  displayName: "string",
  version: "string",
  description: "string",
  author: "object",
  homepage: "string",
  repository: "string",
  license: "string",
  keywords: "array",
  metadata: "object",
  defaultEnabled: "boolean",
};
/** plugins-reference: component path fields (a string, an array or, for some, an object). */
const PLUGIN_COMPONENTS = [
  "skills",
  "commands",
  "agents",
  "workflows",
  "hooks",
  "mcpServers",
  "outputStyles",
  "lspServers",
  "experimental",
  "userConfig",
  "channels",
  "dependencies",
];
/** plugin-marketplaces: the marketplace file's top-level keys. */
const MARKETPLACE_KEYS = [
  "$schema",
  "name",
  "owner",
  "plugins",
  "description",
  "version",
  "metadata",
  "allowCrossMarketplaceDependenciesOn",
  "renames",
];
/** plugin-marketplaces: keys a plugin entry adds to the plugin manifest's. */
const ENTRY_KEYS = ["source", "category", "tags", "strict", "relevance"];
/** plugin-marketplaces "Reserved names". */
const RESERVED = [
  "claude-code-marketplace",
  "claude-code-plugins",
  "claude-plugins-official",
  "claude-plugins-community",
  "claude-community",
  "anthropic-marketplace",
  "anthropic-plugins",
  "agent-skills",
  "anthropic-agent-skills",
  "knowledge-work-plugins",
  "life-sciences",
  "claude-for-legal",
  "claude-for-financial-services",
  "financial-services-plugins",
  "first-party-plugins",
  "healthcare",
];

function typeOf(value: unknown): string {
  return Array.isArray(value) ? "array" : value === null ? "null" : typeof value;
}

/** Every rule of the plugin manifest this repository relies on; returns the problems. */
function pluginProblems(doc: Json, where: string): string[] {
  const out: string[] = [];
  if (typeof doc.name !== "string" || !KEBAB.test(doc.name)) out.push(`${where}: name`);
  for (const [key, value] of Object.entries(doc)) {
    if (key in PLUGIN_METADATA) {
      if (typeOf(value) !== PLUGIN_METADATA[key]) out.push(`${where}: ${key} type`);
    } else if (!PLUGIN_COMPONENTS.includes(key) && !ENTRY_KEYS.includes(key)) {
      out.push(`${where}: unknown key ${key}`);
    }
  }
  const author = doc.author as Json | undefined;
  if (author !== undefined) {
    if (typeof author.name !== "string") out.push(`${where}: author.name`);
    for (const [key, value] of Object.entries(author)) {
      if (!["name", "email", "url"].includes(key) || typeof value !== "string") {
        out.push(`${where}: author.${key}`);
      }
    }
  }
  if (Array.isArray(doc.keywords) && doc.keywords.some((k) => typeof k !== "string")) {
    out.push(`${where}: keywords`);
  }
  const servers = doc.mcpServers;
  if (servers !== undefined) {
    if (typeOf(servers) !== "object") out.push(`${where}: mcpServers inline`);
    for (const [name, server] of Object.entries((servers ?? {}) as Record<string, Json>)) {
      if (typeof server.command !== "string") out.push(`${where}: ${name}.command`);
      const args = server.args ?? [];
      if (!Array.isArray(args) || args.some((a) => typeof a !== "string")) {
        out.push(`${where}: ${name}.args`);
      }
      for (const key of Object.keys(server)) {
        if (!["type", "command", "args", "env"].includes(key)) {
          out.push(`${where}: ${name}.${key}`);
        }
      }
    }
  }
  return out;
}

/** Every rule of the marketplace file this repository relies on; returns the problems. */
function marketplaceProblems(doc: Json): string[] {
  const out: string[] = [];
  if (typeof doc.name !== "string" || !KEBAB.test(doc.name)) out.push("name");
  if (typeof doc.name === "string" && RESERVED.includes(doc.name)) out.push("reserved name");
  // "Names that impersonate official marketplaces … are also blocked": this one names neither.
  if (/claude|anthropic/.test(String(doc.name))) out.push("impersonating name");
  for (const key of Object.keys(doc)) {
    if (!MARKETPLACE_KEYS.includes(key)) out.push(`unknown key ${key}`);
  }
  for (const key of ["description", "version", "$schema"]) {
    if (key in doc && typeof doc[key] !== "string") out.push(`${key} type`);
  }
  const owner = doc.owner as Json | undefined;
  if (typeOf(owner) !== "object" || typeof owner?.name !== "string") out.push("owner.name");
  for (const [key, value] of Object.entries(owner ?? {})) {
    if (!["name", "email", "url"].includes(key) || typeof value !== "string") {
      out.push(`owner.${key}`);
    }
  }
  if (!Array.isArray(doc.plugins) || doc.plugins.length === 0) out.push("plugins");
  for (const [i, entry] of ((doc.plugins ?? []) as Json[]).entries()) {
    out.push(...pluginProblems(entry, `plugins[${i}]`));
    const source = entry.source;
    if (typeof source !== "string") out.push(`plugins[${i}].source is not a relative path`);
    else if (!source.startsWith("./") || source.split("/").includes("..")) {
      out.push(`plugins[${i}].source ${source}`);
    }
  }
  return out;
}

Deno.test("claude plugin: both manifests follow Claude Code's documented formats", async () => {
  const plugin = await readJson(join(ROOT, ".claude-plugin/plugin.json"));
  const market = await readJson(join(ROOT, ".claude-plugin/marketplace.json"));
  deepEqual(pluginProblems(plugin, "plugin.json"), []);
  deepEqual(marketplaceProblems(market), []);
  // The validators bite: the mistakes the docs name are caught.
  deepEqual(pluginProblems({ name: "Skills Anywhere", keywords: "mcp", mcpSrvers: {} }, "x"), [
    "x: name",
    "x: keywords type",
    "x: unknown key mcpSrvers",
  ]);
  const bad = {
    ...market,
    name: "claude-plugins-official",
    owner: {},
    plugins: [{ name: "skills-anywhere", source: "../elsewhere" }, { name: "x", source: "." }],
  };
  deepEqual(marketplaceProblems(bad), [
    "reserved name",
    "impersonating name",
    "owner.name",
    "plugins[0].source ../elsewhere",
    "plugins[1].source .",
  ]);
  // Versions: both carry the one version (the lead's scripts/version.ts keeps them in step).
  equal(plugin.version, VERSION);
  const entries = market.plugins as Json[];
  deepEqual(entries.map((e) => e.version), [VERSION]);
  equal((market.metadata as Json | undefined)?.version ?? VERSION, VERSION);
  // One plugin, one server, named as the original named them.
  equal(plugin.name, "skills-anywhere");
  deepEqual(Object.keys(plugin.mcpServers as Json), ["skills-anywhere"]);
});

Deno.test("claude plugin: the marketplace's plugin source is this repository's plugin", async () => {
  const marketFile = join(ROOT, ".claude-plugin/marketplace.json");
  const market = await readJson(marketFile);
  // The marketplace root is the folder holding .claude-plugin/, not .claude-plugin/ itself.
  const marketRoot = dirname(dirname(marketFile));
  for (const entry of market.plugins as Json[]) {
    const folder = resolve(marketRoot, entry.source as string);
    equal(folder, CHECKOUT, `${entry.name} resolves outside this repository's plugin`);
    const manifest = join(folder, ".claude-plugin/plugin.json");
    ok(await exists(manifest), `${entry.name}: no .claude-plugin/plugin.json at ${folder}`);
    const plugin = await readJson(manifest);
    equal(plugin.name, entry.name, "the entry names the plugin by its manifest's name");
    equal(plugin.version, entry.version);
    equal(plugin.description, entry.description);
  }
});

// ---------------------------------------------------------------------------
// Starting the server as Claude Code does

/** What Claude Code substitutes in a plugin's MCP server (see the module doc). */
interface PluginVars {
  CLAUDE_PLUGIN_ROOT: string;
  CLAUDE_PLUGIN_DATA: string;
  CLAUDE_PROJECT_DIR: string;
}

/**
 * Claude Code's expansion: `${VAR}` and `${VAR:-default}`, the three plugin variables first, then
 * the environment; an unset variable without a default stays as written.
 */
function expand(text: string, vars: PluginVars, env: Record<string, string>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (whole, name, fallback) => {
    const value = (vars as unknown as Record<string, string>)[name] ?? env[name];
    if (value !== undefined && value !== "") return value;
    return fallback ?? whole;
  });
}

/** The `${CLAUDE_PLUGIN_DATA}` folder of `<plugin>@<marketplace>` under `home`. */
function pluginData(home: string, id: string): string {
  return join(home, ".claude", "plugins", "data", id.replace(/[^A-Za-z0-9_-]/g, "-"));
}

interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The plugin's one MCP server as Claude Code would spawn it. */
function pluginLaunch(plugin: Json, vars: PluginVars, env: Record<string, string>): Launch {
  const [server] = Object.values(plugin.mcpServers as Record<string, Json>);
  const fill = (s: string) => expand(s, vars, env);
  const launch = {
    command: fill(server.command as string),
    args: ((server.args ?? []) as string[]).map(fill),
    env: {
      ...env,
      ...Object.fromEntries(
        Object.entries((server.env ?? {}) as Record<string, string>).map(([k, v]) => [k, fill(v)]),
      ),
      ...vars,
    },
  };
  for (const part of [launch.command, ...launch.args]) {
    ok(!part.includes("${"), `left unexpanded: ${part}`);
  }
  return launch;
}

function collect(stream: Readable | null): () => string {
  let text = "";
  stream?.on("data", (chunk: string | Uint8Array) => {
    text += typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
  });
  return () => text;
}

/** Starts `launch` in `cwd` with a real SDK client and returns the names `list_skills` gives. */
async function listedSkills(launch: Launch, cwd: string): Promise<string[]> {
  const transport = new StdioClientTransport({
    command: launch.command,
    args: launch.args,
    env: launch.env,
    cwd,
    stderr: "pipe",
  });
  const stderr = collect(transport.stderr as Readable | null);
  const client = new Client({ name: "claude-plugin-test", version: VERSION });
  try {
    await client.connect(transport);
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    deepEqual(tools, MCP_TOOLS);
    const page = await client.callTool({ name: "list_skills", arguments: {} });
    const content = (page.structuredContent ?? {}) as { skills?: { name: string }[] };
    ok(Array.isArray(content.skills), `${JSON.stringify(page)}\n${stderr()}`);
    return content.skills.map((s) => s.name);
  } catch (error) {
    throw new Error(`${error}\n${stderr()}`);
  } finally {
    await client.close();
  }
}

/**
 * A copy of the checkout as a marketplace add from the repository places it: the files Git would
 * commit (tracked, and new files not ignored), none of the ignored ones (node_modules/, .cache/).
 */
async function checkoutCopy(target: string): Promise<void> {
  const listed = await run("git", ["ls-files", "-co", "--exclude-standard", "-z"], {
    cwd: CHECKOUT,
  });
  equal(listed.code, 0, listed.stderr);
  for (const path of listed.stdout.split("\0").filter((p) => p !== "")) {
    const from = join(CHECKOUT, path);
    const stat = await Deno.lstat(from).catch(() => undefined);
    if (stat === undefined || !stat.isFile) continue; // deleted in the work tree, or a link
    await mkdir(dirname(join(target, path)), { recursive: true });
    await copyFile(from, join(target, path));
  }
}

/** The user's environment: the sandbox's, with the warm npm cache as `~/.npm`. */
async function userEnv(box: Sandbox): Promise<Record<string, string>> {
  const cache = (await run("npm", ["config", "get", "cache"], { cwd: box.root })).stdout.trim();
  await Deno.symlink(cache, join(box.home, ".npm"));
  await Deno.writeTextFile(
    join(box.home, ".npmrc"),
    "prefer-offline=true\nupdate-notifier=false\nfund=false\naudit=false\n",
  );
  return { ...box.env, NO_COLOR: "1" };
}

/** The real `claude` binary of {@linkcode CLAUDE_CODE} for this platform. */
async function claudeBinary(): Promise<string> {
  const platform = `${Deno.build.os === "windows" ? "win32" : Deno.build.os}-${
    Deno.build.arch === "x86_64" ? "x64" : "arm64"
  }`;
  const probe = `@anthropic-ai/claude-code-${platform}/claude`;
  const modules = await npmTool(CLAUDE_CODE, probe);
  return join(modules, probe);
}

/** Claude Code's own environment in the sandbox: no traffic but what a command needs. */
function claudeEnv(env: Record<string, string>): Record<string, string> {
  return {
    ...env,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_GROWTHBOOK: "1",
  };
}

Deno.test("claude plugin: Claude Code validates, installs and starts it; its server serves the open project", async (t) => {
  await withSandbox(async (box) => {
    const env = await userEnv(box);
    const claude = await claudeBinary();
    const cc = (args: string[], cwd: string) =>
      run(claude, args, { cwd, env: claudeEnv(env), clearEnv: true });
    const version = await cc(["--version"], box.root);
    equal(version.code, 0, version.stderr);
    match(version.stdout, /^2\.1\.332 \(Claude Code\)/);

    // The project: one project skill, opened in Claude Code.
    await writeTree(box.project, {
      [`.claude/skills/${PROJECT_SKILL}/SKILL.md`]: skillMd(
        PROJECT_SKILL,
        "The open project's own skill. Use when testing the plugin.",
        "# Plugin project skill",
      ),
    });

    // The repository as a marketplace add would fetch it.
    const marketplace = join(box.root, "marketplace");
    await checkoutCopy(marketplace);

    await t.step(
      "claude plugin validate --strict passes the marketplace and the plugin",
      async () => {
        for (const target of [marketplace, join(marketplace, ".claude-plugin/plugin.json")]) {
          const result = await cc(["plugin", "validate", "--strict", target], box.root);
          equal(result.code, 0, result.stdout + result.stderr);
          match(result.stdout, /Validation passed/);
        }
        // The validator bites: an unknown key fails --strict.
        const broken = join(box.root, "broken");
        await mkdir(join(broken, ".claude-plugin"), { recursive: true });
        const plugin = await readJson(join(marketplace, ".claude-plugin/plugin.json"));
        await Deno.writeTextFile(
          join(broken, ".claude-plugin/plugin.json"),
          JSON.stringify({ ...plugin, mcpSrvers: {} }),
        );
        const result = await cc(["plugin", "validate", "--strict", broken], box.root);
        ok(result.code !== 0, result.stdout);
      },
    );

    let installed: Json = {};
    await t.step("marketplace add, then install, as the docs say", async () => {
      const added = await cc(["plugin", "marketplace", "add", marketplace], box.project);
      equal(added.code, 0, added.stdout + added.stderr);
      const install = await cc(
        ["plugin", "install", "skills-anywhere@dsh-skills-anywhere"],
        box.project,
      );
      equal(install.code, 0, install.stdout + install.stderr);
      const listed = await cc(["plugin", "list", "--json"], box.project);
      equal(listed.code, 0, listed.stderr);
      const found = (JSON.parse(listed.stdout) as Json[]).find((p) =>
        p.id === "skills-anywhere@dsh-skills-anywhere"
      );
      ok(found !== undefined, listed.stdout);
      equal(found.version, VERSION);
      equal(found.enabled, true);
      installed = found;
      // The installed copy is the plugin: its manifest is this repository's.
      const copy = found.installPath as string;
      deepEqual(
        await readJson(join(copy, ".claude-plugin/plugin.json")),
        await readJson(join(ROOT, ".claude-plugin/plugin.json")),
      );
    });

    await t.step(
      "claude mcp list starts the plugin's server for the project: connected",
      async () => {
        const result = await cc(["mcp", "list"], box.project);
        equal(result.code, 0, result.stdout + result.stderr);
        const line = result.stdout.split("\n").find((l) =>
          l.startsWith("plugin:skills-anywhere:skills-anywhere:")
        );
        ok(line !== undefined, result.stdout);
        ok(line.includes(`--cwd ${box.project} `), `not started for the project: ${line}`);
        ok(line.includes("--prefix "), line);
        ok(line.trim().endsWith("✔ Connected"), line);
      },
    );

    // The manifest as installed (equal to this checkout's, above).
    const plugin = await readJson(
      join(installed.installPath as string, ".claude-plugin/plugin.json"),
    );
    const id = "skills-anywhere@dsh-skills-anywhere";
    for (const root of new Set([installed.installPath, installed.readFromFolder])) {
      if (typeof root !== "string") continue;
      const vars = {
        CLAUDE_PLUGIN_ROOT: root,
        CLAUDE_PLUGIN_DATA: pluginData(box.home, id),
        CLAUDE_PROJECT_DIR: box.project,
      };
      const launch = pluginLaunch(plugin, vars, env);
      await t.step(
        `the manifest's server, root ${root.slice(box.root.length)}, cwd the project`,
        async () => {
          deepEqual(await listedSkills(launch, box.project), [PROJECT_SKILL]);
        },
      );
      await t.step(
        `the same, started in the plugin's folder: --cwd decides the project`,
        async () => {
          deepEqual(await listedSkills(launch, root), [PROJECT_SKILL]);
        },
      );
    }

    await t.step("the installed plugin adds no skill of its own to the catalog", async () => {
      // The copy holds testdata/ with hostile SKILL.md fixtures; the plugin declares no skills and
      // has no skills/ folder, so neither Claude Code nor this tool's plugin discovery loads any.
      const listed = await runCli(["list", "--json"], {
        cwd: box.project,
        env,
        clearEnv: true,
      });
      equal(listed.code, 0, listed.stderr);
      const names = (JSON.parse(listed.stdout) as { skills: { name: string }[] }).skills
        .map((s) => s.name);
      deepEqual(names, [PROJECT_SKILL]);
    });
  });
});
