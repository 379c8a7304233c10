/**
 * Relative local sources resolve against the file that names them (issue 27, finding 8): a
 * trusted project file naming `./vendor-skills` means `<project>/vendor-skills` whether the tool
 * is started in the project, in a folder below it, or elsewhere with `--cwd <project>` (as
 * docs/mcp.md advises); `trust` shows and records that absolute path, and a `vendor-skills` beside
 * another working directory is never cloned. The user's sources file resolves against the dsh
 * home. Real CLI children, real git, a real SDK 2 client.
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { MAIN, runCli, type Sandbox, skillMd, withSandbox, writeTree } from "./helpers.ts";
import { gitRepo, logGitCalls, type ToolResult } from "./mcp_helpers.ts";
import { rebaseSpec, resolveSource, sameSource } from "../lib/sources/_resolve.ts";

const PROJECT_FILE = ".dsh/skills-anywhere.json";

/** Runs the CLI with the sandbox's environment in `cwd`. */
function cliIn(box: Sandbox, cwd: string, ...args: string[]) {
  return runCli(args, { cwd, env: box.env, clearEnv: true });
}

/**
 * The project lists `./vendor-skills` (a repository inside it); decoys named `vendor-skills` wait
 * beside another working directory and in a folder below the project.
 */
async function vendoredProject(box: Sandbox) {
  const vendor = join(box.project, "vendor-skills");
  await gitRepo(box, vendor, {
    "skills/vendored/SKILL.md": skillMd("vendored", "Reviewed vendor skill.", "Body."),
  });
  const elsewhere = join(box.root, "elsewhere");
  await gitRepo(box, join(elsewhere, "vendor-skills"), {
    "skills/planted/SKILL.md": skillMd("planted", "Nobody reviewed this.", "Body."),
  });
  const sub = join(box.project, "packages/app");
  await gitRepo(box, join(sub, "vendor-skills"), {
    "skills/planted-below/SKILL.md": skillMd("planted-below", "Nobody reviewed this.", "Body."),
  });
  await writeTree(box.project, {
    [PROJECT_FILE]: JSON.stringify({ sources: ["./vendor-skills"] }) + "\n",
  });
  return { vendor: await Deno.realPath(vendor), elsewhere, sub };
}

function names(stdout: string): string[] {
  return (JSON.parse(stdout).skills as { name: string }[]).map((s) => s.name).sort();
}

Deno.test("a trusted ./vendor-skills means the project's folder from another cwd and from a subfolder", async () => {
  await withSandbox(async (box) => {
    const { vendor, elsewhere, sub } = await vendoredProject(box);
    const calls = await logGitCalls(box);
    const shown = await cliIn(box, elsewhere, "trust", "--cwd", box.project);
    equal(shown.code, 1, "no terminal, no --yes: nothing trusted");
    ok(shown.stdout.includes(vendor), shown.stdout);
    const trusted = await cliIn(box, elsewhere, "trust", "--yes", "--json", "--cwd", box.project);
    equal(trusted.code, 0, trusted.stderr);
    deepEqual(JSON.parse(trusted.stdout).sources.map((s: { url: string }) => s.url), [vendor]);
    const state = JSON.parse(
      await Deno.readTextFile(join(box.dshHome, "skills-anywhere/trust.json")),
    );
    deepEqual(state.projects[await Deno.realPath(box.project)].sources, [vendor]);

    const sync = await cliIn(box, elsewhere, "sync", "--cwd", box.project);
    equal(sync.code, 0, sync.stderr);
    match(sync.stdout, new RegExp(`^${vendor} {2,}cloned `, "m"));
    for (const [cwd, args] of [[elsewhere, ["--cwd", box.project]], [sub, []], [box.project, []]]) {
      const list = await cliIn(box, cwd as string, "list", "--json", ...args as string[]);
      equal(list.code, 0, list.stderr);
      deepEqual(names(list.stdout), ["vendored"], `${cwd}: ${list.stdout}`);
      equal((await cliIn(box, cwd as string, "sync", ...args as string[])).code, 0);
    }
    const cloned = (await calls()).filter((line) => /\bclone\b/.test(line));
    ok(cloned.length > 0 && cloned.every((line) => line.includes(vendor)), cloned.join("\n"));
    ok(!cloned.some((line) => line.includes(elsewhere) || line.includes(sub)), cloned.join("\n"));
  });
});

Deno.test("mcp --cwd <project> started elsewhere serves the project's vendor skills, never the decoy", async () => {
  await withSandbox(async (box) => {
    const { elsewhere } = await vendoredProject(box);
    equal((await box.cli("trust", "--yes")).code, 0);
    equal((await box.cli("sync")).code, 0);
    const transport = new StdioClientTransport({
      command: Deno.execPath(),
      args: ["run", "-A", "--quiet", MAIN, "mcp", "--cwd", box.project],
      env: box.env,
      cwd: elsewhere,
      stderr: "pipe",
    });
    let stderr = "";
    (transport.stderr as Readable | null)?.on("data", (chunk) => stderr += String(chunk));
    const client = new Client({ name: "relative-sources", version: "1.0.0" });
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: "list_skills", arguments: {} }) as ToolResult;
      const listed = (result.structuredContent!.skills as { name: string }[]).map((s) => s.name);
      deepEqual(listed, ["vendored"], stderr);
    } finally {
      await client.close();
    }
  });
});

Deno.test("a trust record made before sources were recorded does not hold for a relative path", async () => {
  await withSandbox(async (box) => {
    await vendoredProject(box);
    const bytes = await Deno.readFile(join(box.project, PROJECT_FILE));
    const sha256 = [...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))]
      .map((b) => b.toString(16).padStart(2, "0")).join("");
    await writeTree(box.dshHome, {
      "skills-anywhere/trust.json": JSON.stringify({
        schema: "skills-anywhere-trust-1",
        projects: { [await Deno.realPath(box.project)]: { sha256, trusted_at: "2026-01-01" } },
      }),
    });
    const list = await box.cli("list", "--json");
    equal(list.code, 0, list.stderr);
    match(list.stderr, /waits? for trust/);
    const sync = await box.cli("sync", "--json");
    deepEqual(JSON.parse(sync.stdout), []);
  });
});

Deno.test("the user's sources file resolves ./ against the dsh home; add writes what every cwd reads the same", async () => {
  await withSandbox(async (box) => {
    const own = join(box.dshHome, "user-skills");
    await gitRepo(box, own, { "skills/mine/SKILL.md": skillMd("mine", "Mine.", "Body.") });
    await gitRepo(box, join(box.project, "user-skills"), {
      "skills/decoy/SKILL.md": skillMd("decoy", "Decoy.", "Body."),
    });
    await writeTree(box.dshHome, {
      "skills-anywhere/sources.json": JSON.stringify({ sources: ["./user-skills"] }),
    });
    equal((await box.cli("sync")).code, 0);
    deepEqual(names((await box.cli("list", "--json")).stdout), ["mine"]);

    const sub = join(box.project, "packages/app");
    await gitRepo(box, join(sub, "local"), {
      "skills/added/SKILL.md": skillMd("added", "A.", "B."),
    });
    const added = await cliIn(box, sub, "add", "./local@main");
    equal(added.code, 0, added.stderr);
    const user = JSON.parse(
      await Deno.readTextFile(join(box.dshHome, "skills-anywhere/sources.json")),
    );
    deepEqual(user.sources[1], { repo: await Deno.realPath(join(sub, "local")), ref: "main" });
    const project = await cliIn(box, sub, "add", "--project", "./local");
    equal(project.code, 0, project.stderr);
    const file = JSON.parse(await Deno.readTextFile(join(box.project, PROJECT_FILE)));
    deepEqual(file.sources, [{ repo: "./packages/app/local" }]);
    const removed = await cliIn(box, sub, "remove", "./local");
    equal(removed.code, 0, removed.stderr);
  });
});

Deno.test("resolveSource resolves ./ and ../ against the base; rebaseSpec writes them for another base", () => {
  const cache = "/cache";
  equal(resolveSource("./x", cache, { base: "/p" }).url, "/p/x");
  equal(resolveSource("../x@v1", cache, { base: "/p/q" }).url, "/p/x");
  equal(resolveSource("../x@v1", cache, { base: "/p/q" }).ref, "v1");
  equal(resolveSource("/abs/x", cache, { base: "/p" }).url, "/abs/x");
  equal(resolveSource("file:///abs/x", cache, { base: "/p" }).url, "/abs/x");
  ok(sameSource("./x", "/p/x", { base: "/p" }));
  ok(!sameSource("./x", "/elsewhere/x", { base: "/p" }));
  equal(rebaseSpec("./x", "/w/a"), "/w/a/x");
  deepEqual(rebaseSpec("./x@v1", "/w/a"), { repo: "/w/a/x", ref: "v1" });
  equal(rebaseSpec("./x", "/w/a", "/w"), "./a/x");
  equal(rebaseSpec("../x", "/w/a", "/w/b"), "../x");
  equal(rebaseSpec("./", "/w", "/w"), "./");
  deepEqual(rebaseSpec({ repo: "./x", path: "skills" }, "/w/a", "/w"), {
    repo: "./a/x",
    path: "skills",
  });
  equal(rebaseSpec("o/r", "/w"), "o/r");
});
