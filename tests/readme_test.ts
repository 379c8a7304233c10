/**
 * The README's every fenced command, run as a newcomer would run it, in a
 * copy of the demo workspace (scripts/demo_workspace.ts: a home, and a
 * project inside it at `~/project`), with `dsh-skills-anywhere` standing for this
 * checkout's `main.ts`:
 *
 * - `console` blocks: each `$ <command>` runs in the demo project and must
 *   print exactly the lines below it (stdout and stderr together; the
 *   workspace's home written `~`) and exit 0, or the code of a trailing
 *   `# exit N` comment. `UPDATE_README=1` rewrites those lines from the
 *   real output (review the diff before committing it);
 * - `sh` blocks: run line by line in one shell (aliases on) from the
 *   checkout, HOME the demo home; each must exit 0;
 * - `json` blocks with `mcpServers`: each server is started exactly as
 *   written (the checkout path filled in) and an MCP client lists its
 *   tools and the demo's skills.
 *
 * A few commands cannot run here, each for the reason in {@linkcode NOT_RUN}.
 *
 * @module
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { demoWorkspace } from "../scripts/demo_workspace.ts";
import { currentDenoDir, MAIN, MCP_TOOLS, ROOT } from "./helpers.ts";

const README = join(ROOT, "README.md");

/** Commands the test does not run, and why (matched against the start of a line). */
const NOT_RUN: Readonly<Record<string, string>> = {
  "git clone ": "needs the network; the test runs in this checkout instead",
  "npx -y deno@2.9.6 task test": "the test command itself; .ci/run runs it on a fresh clone",
};

/** A fenced block: its language, its first line number and its lines. */
interface Block {
  lang: string;
  line: number;
  lines: string[];
}

function blocks(text: string): Block[] {
  const out: Block[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (open === null) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== "```"; i++) body.push(lines[i]);
    out.push({ lang: open[1], line: start + 1, lines: body });
  }
  return out;
}

/**
 * The newcomer's environment. npm settings kept in the Node installation's global `npmrc` (a CA,
 * a proxy) go to the demo home's `~/.npmrc`, as docs/security.md#launching advises: the launches
 * run npx with `--prefix`, which moves npm's global configuration to the checkout.
 */
async function env(home: string): Promise<Record<string, string>> {
  const globalConfig = new TextDecoder().decode(
    (await new Deno.Command("npm", { args: ["config", "get", "globalconfig"], cwd: home }).output())
      .stdout,
  ).trim();
  const settings = await readFile(globalConfig, "utf8").catch(() => "");
  if (settings !== "") await writeFile(join(home, ".npmrc"), settings);
  return {
    HOME: home,
    DSH_HOME: join(home, ".dsh"),
    DENO_DIR: await currentDenoDir(),
    NO_COLOR: "1",
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    npm_config_update_notifier: "false",
  };
}

/** Runs `script` in bash with `dsh-skills-anywhere` defined; stdout and stderr together. */
async function bash(script: string, cwd: string, vars: Record<string, string>) {
  const define = `dsh-skills-anywhere() { "${Deno.execPath()}" run -A --quiet "${MAIN}" "$@"; }`;
  const { code, stdout } = await new Deno.Command("bash", {
    args: ["-c", `${define}\nexec 2>&1\n${script}`],
    cwd,
    env: vars,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return { code, output: new TextDecoder().decode(stdout) };
}

function notRun(command: string): boolean {
  return Object.keys(NOT_RUN).some((start) => command.trimStart().startsWith(start));
}

/** The `$` commands of a console block, each with the output lines written under it. */
function transcript(block: Block) {
  const steps: { command: string; exit: number; expected: string[]; at: number }[] = [];
  block.lines.forEach((line, index) => {
    if (line.startsWith("$ ")) {
      const exit = /\s+# exit (\d+)$/.exec(line);
      const command = line.slice(2).replace(/\s+# exit \d+$/, "");
      steps.push({ command, exit: exit === null ? 0 : Number(exit[1]), expected: [], at: index });
    } else {
      ok(steps.length > 0, `README line ${block.line + index + 1}: output before any command`);
      steps[steps.length - 1].expected.push(line);
    }
  });
  return steps;
}

Deno.test("README: every console transcript prints exactly what it shows", async () => {
  const text = await readFile(README, "utf8");
  const ws = await demoWorkspace();
  const vars = await env(ws.home);
  const update = Deno.env.get("UPDATE_README") === "1";
  let rewritten = text.split("\n");
  let shift = 0;
  try {
    const consoles = blocks(text).filter((b) => b.lang === "console");
    ok(consoles.length >= 4, "the README shows list, show, check and bundle");
    for (const block of consoles) {
      const steps = transcript(block);
      const lines: string[] = [];
      for (const step of steps) {
        const { code, output } = await bash(step.command, ws.project, vars);
        const shown = output.replaceAll(ws.home, "~").replace(/\n$/, "");
        const actual = shown === "" ? [] : shown.split("\n");
        const where = `README line ${block.line + step.at + 1}: ${step.command}`;
        equal(code, step.exit, `${where}\n${output}`);
        if (!update) deepEqual(actual, step.expected, where);
        lines.push(block.lines[step.at], ...actual);
      }
      const start = block.line + shift;
      rewritten = [
        ...rewritten.slice(0, start),
        ...lines,
        ...rewritten.slice(start + block.lines.length),
      ];
      shift += lines.length - block.lines.length;
    }
    if (update) await writeFile(README, rewritten.join("\n"));
  } finally {
    await rm(ws.root, { recursive: true, force: true });
  }
});

Deno.test("README: every shell command runs and exits 0", async () => {
  const ws = await demoWorkspace();
  const vars = await env(ws.home);
  try {
    const shells = blocks(await readFile(README, "utf8")).filter((b) => b.lang === "sh");
    ok(shells.length >= 3, "quick start, review and development blocks");
    for (const block of shells) {
      // Lines ending in a backslash continue; every command runs, in order, in one shell.
      const commands = block.lines.join("\n").replace(/\\\n/g, " ").split("\n")
        .filter((line) => line.trim() !== "" && !line.trimStart().startsWith("#"));
      const run = commands.filter((c) => !notRun(c));
      const script = ["shopt -s expand_aliases", "set -e", ...run].join("\n");
      const cwd = run.some((c) => / (lock|verify|mcp)\b/.test(c)) ? ws.project : ROOT;
      const { code, output } = await bash(script, cwd, vars);
      equal(code, 0, `README block at line ${block.line}:\n${run.join("\n")}\n${output}`);
    }
  } finally {
    await rm(ws.root, { recursive: true, force: true });
  }
});

Deno.test("README: the MCP client configuration starts a server that serves the demo", async () => {
  const ws = await demoWorkspace();
  const vars = await env(ws.home);
  try {
    const configs = blocks(await readFile(README, "utf8"))
      .filter((b) => b.lang === "json")
      .map((b) => JSON.parse(b.lines.join("\n")))
      .filter((doc) => doc.mcpServers !== undefined);
    ok(configs.length >= 1, "the README shows an mcpServers configuration");
    for (const doc of configs) {
      for (const server of Object.values(doc.mcpServers) as { command: string; args: string[] }[]) {
        const args = server.args.map((a) => a.replace("/path/to/dsh-skills-anywhere", ROOT));
        const transport = new StdioClientTransport({
          command: server.command,
          args,
          cwd: ws.project,
          env: vars,
          stderr: "pipe",
        });
        const client = new Client({ name: "readme", version: "1.0.0" });
        await client.connect(transport);
        try {
          const tools = (await client.listTools()).tools.map((t) => t.name).sort();
          deepEqual(tools, MCP_TOOLS);
          const page = await client.callTool({ name: "list_skills", arguments: {} });
          const listed = JSON.stringify(page.structuredContent ?? page.content);
          ok(listed.includes("pdf-forms") && listed.includes("review-notes"), listed);
        } finally {
          await client.close();
        }
      }
    }
  } finally {
    await rm(ws.root, { recursive: true, force: true });
  }
});

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
}

Deno.test("README and docs: every relative link names a file that exists, and a heading in it", async () => {
  const pages = [
    "README.md",
    ...[...Deno.readDirSync(join(ROOT, "docs"))]
      .filter((e) => e.name.endsWith(".md")).map((e) => `docs/${e.name}`),
  ];
  const broken: string[] = [];
  for (const page of pages) {
    const text = await readFile(join(ROOT, page), "utf8");
    const prose = text.replace(/```[\s\S]*?```/g, "");
    for (const [, target] of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const [file, hash] = target.split("#");
      const path = file === "" ? join(ROOT, page) : join(ROOT, page, "..", file);
      let body: string;
      try {
        body = await readFile(path, "utf8");
      } catch {
        broken.push(`${page}: ${target} (no such file)`);
        continue;
      }
      if (hash === undefined || !path.endsWith(".md")) continue;
      const headings = [...body.matchAll(/^#+ (.+)$/gm)].map((m) => anchor(m[1]));
      if (!headings.includes(hash)) broken.push(`${page}: ${target} (no such heading)`);
    }
  }
  deepEqual(broken, []);
});

Deno.test("README: at most 12 KB, for users (the rest lives in docs/)", async () => {
  const bytes = (await Deno.stat(README)).size;
  ok(bytes <= 12_000, `README.md is ${bytes} bytes`);
});
