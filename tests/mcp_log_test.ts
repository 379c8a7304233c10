// The MCP server's diagnostics on stderr: every line carries the surface's prefix exactly once,
// whether the server runs as `main.ts mcp` (the CLI's log) or through `runStdio` alone (its own
// default log), with a background sync that really fails (a Git source whose upstream is gone).
import { equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { PREFIX } from "../cli/io.ts";
import { ROOT, writeTree } from "./helpers.ts";
import { gitRepo, type Sandbox, withRawServer, withSandbox, withSession } from "./mcp_helpers.ts";

/** A sources file naming an upstream that does not exist: the background sync fails. */
async function failingSource(box: Sandbox): Promise<void> {
  await writeTree(join(box.dshHome, "skills-anywhere"), {
    "sources.json": JSON.stringify({ sources: [{ repo: join(box.root, "gone") }] }) + "\n",
  });
}

/** Asserts every non-empty line starts with `PREFIX` and names the product once. */
function assertPrefixedOnce(stderr: string): string[] {
  const lines = stderr.split("\n").filter((line) => line !== "");
  for (const line of lines) {
    ok(line.startsWith(PREFIX), `unprefixed: ${line}`);
    ok(!line.slice(PREFIX.length).includes("skills-anywhere: "), `prefixed twice: ${line}`);
  }
  return lines;
}

/** Waits until `text()` contains `needle` (the child works in the background). */
async function until(text: () => string, needle: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!text().includes(needle) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

Deno.test("MCP log: `main.ts mcp` prints one prefixed line for a failed sync", async () => {
  await withSandbox(async (box) => {
    await failingSource(box);
    const stderr = await withSession(box, "legacy", async (s) => {
      await until(s.stderr, "failed");
    });
    const lines = assertPrefixedOnce(stderr);
    equal(lines.filter((line) => / failed: /.test(line)).length, 1, stderr);
  });
});

Deno.test("MCP log: runStdio's own log prefixes a failed sync once", async () => {
  await withSandbox(async (box) => {
    await failingSource(box);
    const module = join(ROOT, "mcp", "mod.ts");
    const code = `import { runStdio } from ${JSON.stringify(module)};\n` +
      `await runStdio({ cwd: ${JSON.stringify(box.project)}, config: { sync: true } });\n`;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["eval", "--quiet", "--config", join(ROOT, "deno.json"), code],
      cwd: box.project,
      env: box.env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    let stderr = "";
    const decoder = new TextDecoder();
    const reading = (async () => {
      for await (const chunk of child.stderr) stderr += decoder.decode(chunk, { stream: true });
    })();
    await until(() => stderr, "failed");
    await child.stdin.close();
    await child.stdout.cancel();
    const status = await child.status;
    await reading;
    equal(status.code, 0, stderr);
    const lines = assertPrefixedOnce(stderr);
    equal(lines.filter((line) => / failed: /.test(line)).length, 1, stderr);
  });
});

Deno.test("MCP log: twelve concurrent large loads leave no listener warning on stderr", async () => {
  await withSandbox(async (box) => {
    const body = "Large instructions line for a big skill.\n".repeat(12_000); // ~0.5 MB
    await writeTree(join(box.home, ".claude", "skills", "big-skill"), {
      "SKILL.md": `---\nname: big-skill\ndescription: A big skill.\n---\n${body}`,
    });
    await withRawServer(box, async (server) => {
      await server.initialize();
      const ids = Array.from({ length: 12 }, (_, i) => 100 + i);
      for (const id of ids) {
        await server.send({
          jsonrpc: "2.0",
          id,
          method: "tools/call",
          params: { name: "open_skill", arguments: { name: "big-skill" } },
        });
      }
      for (const id of ids) await server.waitFor((m) => m.id === id, 60_000);
      const done = await server.finish();
      equal(done.code, 0, done.stderr);
      ok(!done.stderr.includes("MaxListeners"), done.stderr);
      assertPrefixedOnce(done.stderr);
    });
  });
});

Deno.test("MCP log: a short session that ends during its background sync prints nothing", async () => {
  await withSandbox(async (box) => {
    const upstream = join(box.root, "upstream");
    await gitRepo(box, upstream, {
      "skills/demo/SKILL.md": "---\nname: demo\ndescription: A demo.\n---\nBody\n",
    });
    await writeTree(join(box.dshHome, "skills-anywhere"), {
      "sources.json": JSON.stringify({ sources: [{ repo: upstream }] }) + "\n",
    });
    // Each session starts a sync and ends at once, aborting it (clone, then fetch once cloned).
    for (let session = 0; session < 3; session++) {
      await withRawServer(box, async (server) => {
        await server.initialize();
        const done = await server.finish();
        equal(done.code, 0);
        equal(done.stderr, "", `session ${session}`);
      });
    }
  });
});
