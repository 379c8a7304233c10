/**
 * The floor of `deno task bench server` (`bench/floor_server.ts`) is only a fair floor if it
 * serves what `mcp` serves: the same tool names, the same `skill://<name>/SKILL.md` URIs with the
 * file's exact bytes under digests the SDK's skills client verifies, and search and open by name.
 * Real child processes, real SDK clients over stdio and Streamable HTTP; no timing.
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { startListening } from "../bench/common.ts";
import {
  currentDenoDir,
  MAIN,
  MCP_TOOLS,
  ROOT,
  skillMd,
  withTempDir,
  writeTree,
} from "./helpers.ts";

const FLOOR = join(ROOT, "bench", "floor_server.ts");
const CONFIG = join(ROOT, "deno.json");

/** A home with two skills in `~/.claude/skills` (one with a script) and a project. */
async function home(dir: string): Promise<{ home: string; project: string; skills: string }> {
  const skills = join(dir, "home", ".claude", "skills");
  await writeTree(dir, {
    "project/.git/HEAD": "ref: refs/heads/main\n",
    "home/.claude/skills/pdf-forms/SKILL.md": skillMd(
      "pdf-forms",
      "Fill PDF forms from a table.",
      "Read the table, then fill every field with pdftk.",
    ),
    "home/.claude/skills/pdf-forms/scripts/fill.sh": "#!/bin/sh\necho fill\n",
    "home/.claude/skills/release-notes/SKILL.md": skillMd(
      "release-notes",
      "Write release notes from the merged pull requests.",
      "Group the changes by kind; link each pull request.",
    ),
  });
  return { home: join(dir, "home"), project: join(dir, "project"), skills };
}

/** What a client sees of a server: tool names, a search, an open, and verified reads. */
async function observe(client: Client) {
  const tools = (await client.listTools()).tools.map((t) => t.name).sort();
  const found = await client.callTool({ name: "find_skills", arguments: { query: "pdftk" } });
  const matches = (found.structuredContent as { matches: { name: string }[] }).matches;
  const opened = await client.callTool({ name: "open_skill", arguments: { name: "pdf-forms" } });
  const read = await client.readResource({ uri: "skill://pdf-forms/SKILL.md" });
  const skills = new SkillsClient(client);
  const { skills: entries } = await skills.list();
  const verified: string[] = [];
  for (const entry of entries) {
    for (const file of entry.resources as { uri: string }[]) {
      if ((await skills.read(entry, file.uri)).verified) verified.push(file.uri);
    }
  }
  return {
    tools,
    first: matches[0]?.name,
    opened: opened.isError !== true,
    text: (read.contents[0] as { text?: string }).text,
    entries: entries.map((e) => e.uri).sort(),
    verified: verified.sort(),
  };
}

Deno.test("bench floor: over stdio it serves what mcp serves (tools, URIs, bytes, verified digests)", async () => {
  await withTempDir(async (dir) => {
    const { home: homeDir, project, skills } = await home(dir);
    const env = {
      HOME: homeDir,
      DSH_HOME: join(homeDir, ".dsh"),
      DENO_DIR: await currentDenoDir(),
      NO_COLOR: "1",
    };
    const seen = [];
    for (const script of [[MAIN, "mcp"], [FLOOR, skills]]) {
      const client = new Client({ name: "floor-test", version: "1.0.0" });
      await client.connect(
        new StdioClientTransport({
          command: Deno.execPath(),
          args: ["run", "-A", "--quiet", "--config", CONFIG, ...script],
          cwd: project,
          env,
          stderr: "ignore",
        }),
      );
      try {
        seen.push(await observe(client));
      } finally {
        await client.close();
      }
    }
    const [ours, floor] = seen;
    deepEqual(floor.tools, ours.tools);
    equal(floor.first, "pdf-forms");
    equal(ours.first, "pdf-forms");
    ok(floor.opened && ours.opened);
    const bytes = await readFile(join(skills, "pdf-forms", "SKILL.md"), "utf8");
    equal(floor.text, bytes);
    equal(ours.text, bytes);
    deepEqual(floor.entries, ours.entries);
    deepEqual(floor.verified, ours.verified);
    ok(floor.verified.includes("skill://pdf-forms/scripts/fill.sh"), floor.verified.join(" "));
  });
});

Deno.test("bench floor: over Streamable HTTP it answers a 2026 client the same way", async () => {
  await withTempDir(async (dir) => {
    const { project, skills } = await home(dir);
    const server = await startListening(
      [Deno.execPath(), "run", "-A", "--quiet", "--config", CONFIG, FLOOR, skills, "--http"],
      project,
      { DENO_DIR: await currentDenoDir(), NO_COLOR: "1" },
    );
    try {
      const client = new Client({ name: "floor-test", version: "1.0.0" }, {
        versionNegotiation: { mode: "auto" },
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      try {
        equal(client.getProtocolEra(), "modern");
        const seen = await observe(client);
        deepEqual(seen.tools, MCP_TOOLS);
        equal(seen.first, "pdf-forms");
        deepEqual(seen.entries, ["skill://pdf-forms/SKILL.md", "skill://release-notes/SKILL.md"]);
        equal(seen.verified.length, 3);
      } finally {
        await client.close();
      }
    } finally {
      await server.stop();
    }
  });
});
