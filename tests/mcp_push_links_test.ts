/**
 * Push when the home is reached through a linked folder (macOS's `/var`, a home on another disk
 * linked into `/home`): an idle client still hears of an edit written in place, and the tools
 * then answer with the new words. Found by the server bench (issue 29), where `HOME` went through
 * a linked parent folder and an in-place edit was never pushed. Real server process, real files,
 * a real SDK client; waits are bounded (hang guards), never timed assertions.
 *
 * @module
 */
import { equal, match } from "node:assert/strict";
import { join } from "node:path";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioClientTransportV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ResourceListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { serverParams, skillMd, withSandbox } from "./mcp_helpers.ts";
import { Notes } from "./mcp_push_helpers.ts";

/** The home through a link to its own folder, or through a link to the folder holding it. */
const LINKS = {
  "the home's folder": async (root: string, home: string) => {
    const linked = join(root, "linked-home");
    await Deno.symlink(home, linked);
    return linked;
  },
  "its parent folder": async (root: string, home: string) => {
    const parent = join(root, "linked-parent");
    await Deno.symlink(root, parent);
    return join(parent, home.slice(root.length + 1));
  },
};

for (const [through, link] of Object.entries(LINKS)) {
  Deno.test(`push through a link to ${through}: an in-place edit of a personal skill is heard and served`, async () => {
    await withSandbox(async (box) => {
      const skill = join(box.home, ".claude/skills/notes");
      await Deno.mkdir(skill, { recursive: true });
      await Deno.writeTextFile(join(skill, "SKILL.md"), skillMd("notes", "Keep plain notes.", "A"));
      // The server sees the home only through the link.
      const linked = await link(box.root, box.home);
      const params = serverParams(box);
      const notes = new Notes();
      const client = new ClientV1({ name: "push-linked", version: "1.0.0" });
      client.setNotificationHandler(ResourceListChangedNotificationSchema, notes.heard);
      await client.connect(
        new StdioClientTransportV1({
          ...params,
          env: { ...params.env, HOME: linked },
          stderr: "ignore",
        }),
      );
      try {
        const seen = notes.count;
        // Written in place (truncated and rewritten), through the real path.
        await Deno.writeTextFile(
          join(skill, "SKILL.md"),
          skillMd("notes", "Keep journal entries.", "B"),
        );
        await notes.after(seen, "an in-place edit through a linked home");
        const found = await client.callTool({
          name: "find_skills",
          arguments: { query: "journal" },
        });
        const text = (found.content as { type: string; text: string }[])[0].text;
        match(text, /notes — Keep journal entries\./);
      } finally {
        await client.close();
      }
    });
  });
}

/** Where a linked skill folder really lives: outside every root, or in another agent's root. */
const TARGETS = {
  "a folder no root holds": (box: { root: string; home: string }) => join(box.root, "mine/notes"),
  "another agent's folder": (box: { root: string; home: string }) =>
    join(box.home, ".agents/skills/notes"),
};

for (const [where, target] of Object.entries(TARGETS)) {
  Deno.test(`push for a linked skill folder in ${where}: an in-place edit is heard and served`, async () => {
    await withSandbox(async (box) => {
      // Tools install a skill by linking its folder into each agent's folder.
      const real = target(box);
      await Deno.mkdir(real, { recursive: true });
      await Deno.writeTextFile(join(real, "SKILL.md"), skillMd("notes", "Keep plain notes.", "A"));
      await Deno.mkdir(join(box.home, ".claude/skills"), { recursive: true });
      await Deno.symlink(real, join(box.home, ".claude/skills/notes"));
      const notes = new Notes();
      const client = new ClientV1({ name: "push-linked-skill", version: "1.0.0" });
      client.setNotificationHandler(ResourceListChangedNotificationSchema, notes.heard);
      await client.connect(new StdioClientTransportV1({ ...serverParams(box), stderr: "ignore" }));
      try {
        const seen = notes.count;
        await Deno.writeTextFile(
          join(real, "SKILL.md"),
          skillMd("notes", "Keep journal entries.", "B"),
        );
        await notes.after(seen, `an in-place edit in ${where}`);
        const found = await client.callTool({
          name: "find_skills",
          arguments: { query: "journal" },
        });
        const text = (found.content as { type: string; text: string }[])[0].text;
        match(text, /notes — Keep journal entries\./);
        const listed = await client.callTool({ name: "list_skills", arguments: {} });
        const all = (listed.content as { type: string; text: string }[])[0].text;
        equal(all.includes("Keep plain notes."), false, all);
      } finally {
        await client.close();
      }
    });
  });
}
