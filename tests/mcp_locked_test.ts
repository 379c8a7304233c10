/**
 * End-to-end tests of `mcp --locked`: the real server child under a real
 * project lock, driven by the SDK 2 client over stdio (tools and the SEP-2640
 * Skills extension) and over Streamable HTTP. Hostile cases first: an edited
 * script, an added skill, a file changed between listing and reading, a lock
 * that is missing, tampered with or broken while the server runs.
 *
 * @module
 */
import { equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { type Sandbox, skillMd, withSandbox, writeTree } from "./helpers.ts";
import { withLocked } from "./mcp_locked_helpers.ts";
import { connectHttp, withHttpServer } from "./mcp_http_helpers.ts";
import { fileSha256, rejection, textOf, type ToolResult } from "./mcp_helpers.ts";

const LOCK = "skills-anywhere.lock.json";
/** Any control character but the newline. */
// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** A project with two skills, one with a script, locked. */
async function lockedProject(box: Sandbox): Promise<void> {
  await writeTree(box.project, {
    ".claude/skills/pdf/SKILL.md": skillMd("pdf", "Fill PDF forms.", "Run the script."),
    ".claude/skills/pdf/scripts/fill.py": "print('fill')\n",
    ".claude/skills/excel/SKILL.md": skillMd("excel", "Edit spreadsheets.", "Body."),
  });
  const locked = await box.cli("lock");
  equal(locked.code, 0, locked.stderr);
}

const script = (box: Sandbox) => join(box.project, ".claude/skills/pdf/scripts/fill.py");

/** Asserts a refused tool call naming the lock's reason. */
function assertRefused(result: ToolResult, why: RegExp): void {
  equal(result.isError, true, textOf(result));
  match(textOf(result), why);
  match(
    textOf(result),
    /serves only skills whose bundle matches their lock: the project's, or the user's for a personal skill \(--locked\)/,
  );
}

Deno.test("mcp --locked: an edited script refuses that skill by name (tool and resources), the others are served", async () => {
  await withSandbox(async (box) => {
    await lockedProject(box);
    await Deno.writeTextFile(script(box), "print('owned')\n");
    await withLocked(box, async (s) => {
      equal((await s.listed()).join(","), "excel");
      assertRefused(
        await s.call("open_skill", { name: "pdf" }),
        /skill "pdf" changed since it was locked/,
      );
      const found = await s.call("find_skills", { query: "pdf forms" });
      ok(!JSON.stringify(found.structuredContent).includes('"pdf"'), textOf(found));
      const uris = (await s.skills.list()).skills.map((e) => e.uri);
      equal(uris.join(","), "skill://excel/SKILL.md");
      match(
        await rejection(s.read("skill://pdf/scripts/fill.py")),
        /"pdf" changed since it was locked/,
      );
      match(await rejection(s.read("skill://pdf/SKILL.md")), /--locked/);
      equal((await s.call("open_skill", { name: "excel" })).isError, undefined);
    });
  });
});

Deno.test("mcp --locked: a skill added after the lock is not offered and is refused as not locked", async () => {
  await withSandbox(async (box) => {
    await lockedProject(box);
    await writeTree(box.project, {
      ".claude/skills/word/SKILL.md": skillMd("word", "Edit documents.", "Body."),
    });
    await withLocked(box, async (s) => {
      equal((await s.listed()).join(","), "excel,pdf");
      assertRefused(
        await s.call("open_skill", { name: "word" }),
        /skill "word" is not in the lock/,
      );
      match(await rejection(s.read("skill://word/SKILL.md")), /"word" is not in the lock/);
    });
  });
});

Deno.test("mcp --locked: a file changed between listing and reading is refused", async () => {
  await withSandbox(async (box) => {
    await lockedProject(box);
    await withLocked(box, async (s) => {
      const { skills } = await s.skills.list();
      const pdf = skills.find((e) => e.uri === "skill://pdf/SKILL.md")!;
      equal((await s.skills.read(pdf, "scripts/fill.py")).text, "print('fill')\n");
      await Deno.writeTextFile(script(box), "print('swapped')\n");
      match(await rejection(s.read("skill://pdf/scripts/fill.py")), /changed/);
      assertRefused(
        await s.call("open_skill", { name: "pdf" }),
        /"pdf" changed since it was locked/,
      );
    });
  });
});

Deno.test("mcp --locked: a lock broken while serving refuses every request with the reason, then a good one serves again", async () => {
  await withSandbox(async (box) => {
    await lockedProject(box);
    const file = join(box.project, LOCK);
    const good = await Deno.readFile(file);
    const stderr = await withLocked(box, async (s) => {
      equal((await s.listed()).length, 2);
      await Deno.writeTextFile(file, "{not json");
      equal((await s.listed()).length, 0);
      assertRefused(
        await s.call("open_skill", { name: "excel" }),
        /the project's lock is invalid: not valid JSON/,
      );
      match(await rejection(s.read("skill://excel/SKILL.md")), /lock is invalid/);
      equal((await s.skills.list()).skills.length, 0);
      await Deno.remove(file);
      assertRefused(await s.call("open_skill", { name: "excel" }), /lock file is gone/);
      await Deno.writeFile(file, good);
      equal((await s.listed()).length, 2);
    });
    ok(!/unexpected error|TypeError/.test(stderr), stderr);
  });
});

Deno.test("mcp --locked without a lock, or with a tampered one, exits 2 with one line and serves nothing", async () => {
  await withSandbox(async (box) => {
    await lockedProject(box);
    const file = join(box.project, LOCK);
    const lock = JSON.parse(await Deno.readTextFile(file));
    lock.skills[1].files[1].sha256 = "0".repeat(64);
    await Deno.writeTextFile(file, JSON.stringify(lock, null, 2));
    const cases: [string[], RegExp][] = [
      [["mcp", "--locked"], /--locked: .*skills-anywhere\.lock\.json.*do not add up/],
      [["mcp", "--locked", "--http", "127.0.0.1:0"], /do not add up/],
    ];
    for (const [args, why] of cases) {
      const run = await box.cli(...args);
      equal(run.code, 2, run.stderr);
      equal(run.stdout, "");
      equal(run.stderr.trimEnd().split("\n").length, 1, run.stderr);
      match(run.stderr, why);
    }
    await Deno.remove(file);
    const none = await box.cli("mcp", "--locked");
    equal(none.code, 2, none.stderr);
    match(
      none.stderr,
      /^dsh-skills-anywhere: --locked: no lock file at \S*skills-anywhere.lock.json; run "dsh-skills-anywhere lock"/,
    );
    equal(none.stderr.trimEnd().split("\n").length, 1, none.stderr);
  });
});

Deno.test("mcp --locked: a hostile skill name in an invalid lock is escaped in the one line", async () => {
  await withSandbox(async (box) => {
    await lockedProject(box);
    await Deno.writeTextFile(
      join(box.project, LOCK),
      JSON.stringify({
        schema: "skills-anywhere-lock-1",
        skills: [{ name: "\u001b[31mred" }],
        sources: [],
      }),
    );
    const run = await box.cli("mcp", "--locked");
    equal(run.code, 2, run.stderr);
    ok(!RAW_CONTROL.test(run.stderr.trimEnd()), run.stderr);
  });
});

Deno.test("mcp --locked serves every locked skill, each receipt carrying the lock file's SHA-256", async () => {
  await withSandbox(async (box) => {
    await lockedProject(box);
    const lockSha = await fileSha256(join(box.project, LOCK));
    await withLocked(box, async (s) => {
      equal((await s.listed()).join(","), "excel,pdf");
      for (const name of ["excel", "pdf"]) {
        const opened = await s.call("open_skill", { name });
        equal(opened.isError, undefined, textOf(opened));
        const receipt = opened.structuredContent!.receipt as Record<string, unknown>;
        equal(receipt.lock_sha256, lockSha);
      }
      const pinned = await s.call("open_skill", {
        name: "pdf",
        expected_bundle_sha256: "0".repeat(64),
      });
      equal(pinned.isError, true);
      const uris = (await s.skills.list()).skills.map((e) => e.uri);
      equal(uris.join(","), "skill://excel/SKILL.md,skill://pdf/SKILL.md");
      const pdf = (await s.skills.list()).skills.find((e) => e.uri === "skill://pdf/SKILL.md")!;
      equal((await s.skills.read(pdf, "scripts/fill.py")).text, "print('fill')\n");
    });
  });
});

Deno.test("mcp --locked --http: only locked skills are served, with the lock's SHA-256 in receipts", async () => {
  await withSandbox(async (box) => {
    await lockedProject(box);
    await writeTree(box.project, {
      ".claude/skills/word/SKILL.md": skillMd("word", "Edit documents.", "Body."),
    });
    const lockSha = await fileSha256(join(box.project, LOCK));
    await withHttpServer(box, ["--locked"], async (server) => {
      const { client } = await connectHttp(server.url, "auto");
      try {
        const listed = await client.callTool({ name: "list_skills", arguments: {} }) as ToolResult;
        const names = (listed.structuredContent!.skills as { name: string }[]).map((s) => s.name);
        equal(names.join(","), "excel,pdf");
        const word = await client.callTool({ name: "open_skill", arguments: { name: "word" } });
        assertRefused(word as ToolResult, /"word" is not in the lock/);
        const pdf = await client.callTool({ name: "open_skill", arguments: { name: "pdf" } });
        const receipt = (pdf as ToolResult).structuredContent!.receipt as Record<string, unknown>;
        equal(receipt.lock_sha256, lockSha);
        const resources = (await client.listResources()).resources.map((r) => r.uri);
        equal(resources.join(","), "skill://excel/SKILL.md,skill://pdf/SKILL.md");
      } finally {
        await client.close();
      }
    });
  });
});
