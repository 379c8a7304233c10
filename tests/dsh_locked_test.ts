/**
 * The dsh provider with `locked: true`, in-process against the real
 * `@deepseek-ai/dsh-skill` registry and `@deepseek-ai/dsh-tools` runtime: a
 * project locked by the real CLI, then an edited script and an added skill are
 * not invocable and are refused by name with the lock's reason, the others are
 * served; without a project nothing is; a skill that cannot be bundled (each
 * cause of issue 27's finding 6) is refused with its reason; each served skill
 * says which lock (the project's or the user's) allows it.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { Context } from "@deepseek-ai/cordis";
import { SkillRegistry } from "@deepseek-ai/dsh-skill";
import { SystemPrompt } from "@deepseek-ai/dsh-system-prompt";
import { ToolRuntime } from "@deepseek-ai/dsh-tools";
import * as provider from "../dsh/mod.ts";
import * as tools from "../dsh/tools.ts";
import { run, runCli, sha, skillMd, withTempDir, writeTree } from "./helpers.ts";
import { CAUSES, tamper, writeUnbundlable } from "./unbundlable_fixture.ts";

interface ToolOutcome {
  isError: boolean;
  content: { text?: string }[];
  value?: Record<string, unknown>;
}

interface Mounted {
  ctx: Context & {
    skills: {
      list(
        o: { cwd?: string },
      ): Promise<{ name: string; invocation: { modelInvocable: boolean } }[]>;
      get(
        name: string,
        o: { cwd?: string },
      ): Promise<{ metadata?: Record<string, unknown> } | undefined>;
    };
    tools: { execute(call: Record<string, unknown>): Promise<ToolOutcome> };
  };
}

/** A home and a git project with two skills (one with a script), locked by the CLI. */
async function lockedProject(base: string) {
  const home = join(base, "home");
  const project = join(base, "work", "app");
  await writeTree(project, {
    ".git/HEAD": "ref: refs/heads/main\n",
    ".claude/skills/pdf/SKILL.md": skillMd("pdf", "Fill PDF forms.", "Run the script."),
    ".claude/skills/pdf/scripts/fill.py": "print('fill')\n",
    ".claude/skills/excel/SKILL.md": skillMd("excel", "Edit spreadsheets.", "Body."),
  });
  await Deno.mkdir(home, { recursive: true });
  const env = { HOME: home, DSH_HOME: join(home, ".dsh") };
  const locked = await runCli(["lock"], { cwd: project, env });
  assert.equal(locked.code, 0, locked.stderr);
  return { home, project };
}

async function mount(home: string): Promise<Mounted & { close(): Promise<void> }> {
  const ctx = new Context() as Mounted["ctx"];
  await ctx.plugin(SystemPrompt);
  await ctx.plugin(ToolRuntime);
  await ctx.plugin(SkillRegistry);
  const config = { home, dshHome: join(home, ".dsh"), watch: false, sync: false, locked: true };
  // The plugins type their own narrow views of ctx; the real Context is what dsh passes them.
  const plugin = ctx.plugin.bind(ctx) as unknown as (
    p: unknown,
    c: unknown,
  ) => PromiseLike<unknown>;
  await plugin(provider, config);
  await plugin(tools, {});
  return { ctx, close: async () => void await ctx.fiber.dispose() };
}

let calls = 0;
function call(m: Mounted, name: string, args: Record<string, unknown>, cwd?: string) {
  calls += 1;
  return m.ctx.tools.execute({
    callId: `locked-${calls}`,
    name,
    arguments: args,
    signal: new AbortController().signal,
    agent: { session: { header: { cwd } } },
  });
}

const text = (r: ToolOutcome) => r.content.map((c) => c.text ?? "").join("\n");

Deno.test("dsh locked: an edited script and an added skill are refused by name with the lock's reason, the rest is served", async () => {
  await withTempDir(async (base) => {
    const { home, project } = await lockedProject(base);
    await Deno.writeTextFile(join(project, ".claude/skills/pdf/scripts/fill.py"), "print('x')\n");
    await writeTree(project, {
      ".claude/skills/word/SKILL.md": skillMd("word", "Edit documents.", "Body."),
    });
    const m = await mount(home);
    try {
      const listed = await m.ctx.skills.list({ cwd: project });
      const invocable = listed.filter((s) => s.invocation.modelInvocable).map((s) => s.name);
      assert.deepEqual(invocable.sort(), ["excel"]);
      const pdf = await call(m, "open_skill", { name: "pdf" }, project);
      assert.equal(pdf.isError, true, text(pdf));
      assert.match(text(pdf), /skill "pdf" changed since it was locked; with locked: true/);
      const word = await call(m, "open_skill", { name: "word" }, project);
      assert.equal(word.isError, true, text(word));
      assert.match(text(word), /skill "word" is not in the lock/);
      const found = await call(m, "find_skills", { query: "pdf forms" }, project);
      assert.equal(found.isError, false, text(found));
      assert.doesNotMatch(JSON.stringify(found.value), /"pdf"/);
      const excel = await call(m, "open_skill", { name: "excel" }, project);
      assert.equal(excel.isError, false, text(excel));
      assert.match(text(excel), /Body\./);
    } finally {
      await m.close();
    }
  });
});

Deno.test("dsh locked: without a project there is no lock, so nothing is invocable", async () => {
  await withTempDir(async (base) => {
    const { home } = await lockedProject(base);
    await writeTree(home, {
      ".claude/skills/mine/SKILL.md": skillMd("mine", "A user skill.", "Body."),
    });
    const m = await mount(home);
    try {
      const listed = await m.ctx.skills.list({});
      assert.ok(listed.some((s) => s.name === "mine"));
      assert.ok(listed.every((s) => !s.invocation.modelInvocable));
      const mine = await call(m, "open_skill", { name: "mine" });
      assert.equal(mine.isError, true, text(mine));
      assert.match(text(mine), /no project lock/);
    } finally {
      await m.close();
    }
  });
});

Deno.test("dsh locked: a lock requiring signatures serves the signed skill and refuses the unsigned one by name", async () => {
  await withTempDir(async (base) => {
    const { home, project } = await lockedProject(base);
    const env = { HOME: home, DSH_HOME: join(home, ".dsh") };
    const key = join(base, "ana");
    const made = await run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", key]);
    assert.equal(made.code, 0, made.stderr);
    const pub = (await Deno.readTextFile(`${key}.pub`)).split(" ").slice(0, 2).join(" ");
    await writeTree(project, { "allowed_signers": `ana@example.com ${pub}\n` });
    const signed = await runCli(["sign", ".claude/skills/pdf", "--key", key], {
      cwd: project,
      env,
    });
    assert.equal(signed.code, 0, signed.stderr);
    const file = join(project, "skills-anywhere.lock.json");
    const { schema, skills, sources } = JSON.parse(await Deno.readTextFile(file));
    const signers = { allowed_signers: "allowed_signers", require: true };
    await Deno.writeTextFile(file, JSON.stringify({ schema, signers, skills, sources }));
    const m = await mount(home);
    try {
      const listed = await m.ctx.skills.list({ cwd: project });
      const invocable = listed.filter((s) => s.invocation.modelInvocable).map((s) => s.name);
      assert.deepEqual(invocable, ["pdf"]);
      const excel = await call(m, "open_skill", { name: "excel" }, project);
      assert.equal(excel.isError, true, text(excel));
      assert.match(text(excel), /skill "excel" is not signed by an allowed signer: no signature/);
      const pdf = await call(m, "open_skill", { name: "pdf" }, project);
      assert.equal(pdf.isError, false, text(pdf));
    } finally {
      await m.close();
    }
  });
});

Deno.test("dsh locked: a skill that cannot be bundled (each cause) is refused by name with its reason, the rest is served", async () => {
  await withTempDir(async (base) => {
    const home = join(base, "home");
    const project = join(base, "work", "app");
    await writeTree(project, {
      ".git/HEAD": "ref: refs/heads/main\n",
      ".claude/skills/excel/SKILL.md": skillMd("excel", "Edit spreadsheets.", "Body."),
    });
    for (const cause of CAUSES) await writeUnbundlable(project, ".claude/skills", cause, cause);
    await Deno.mkdir(home, { recursive: true });
    const env = { HOME: home, DSH_HOME: join(home, ".dsh") };
    const locked = await runCli(["lock"], { cwd: project, env });
    assert.equal(locked.code, 0, locked.stderr);
    for (const cause of CAUSES) await tamper(project, ".claude/skills", cause, cause);
    const reasons = {
      link: /a link inside its folder/,
      "skill-too-large": /a SKILL\.md over 128 KiB/,
      "too-many-files": /more than 512 files/,
      "file-too-large": /a file over 16 MiB/,
    };
    const m = await mount(home);
    try {
      const listed = await m.ctx.skills.list({ cwd: project });
      const invocable = listed.filter((s) => s.invocation.modelInvocable).map((s) => s.name);
      assert.deepEqual(invocable, ["excel"]);
      for (const cause of CAUSES) {
        const refused = await call(m, "open_skill", { name: cause }, project);
        assert.equal(refused.isError, true, text(refused));
        assert.match(text(refused), new RegExp(`skill "${cause}" cannot be verified`));
        assert.match(text(refused), reasons[cause]);
      }
      const excel = await call(m, "open_skill", { name: "excel" }, project);
      assert.equal(excel.isError, false, text(excel));
    } finally {
      await m.close();
    }
  });
});

Deno.test("dsh locked: each served skill says which lock allows it, project or user, in its metadata and open_skill", async () => {
  await withTempDir(async (base) => {
    const { home, project } = await lockedProject(base);
    const env = { HOME: home, DSH_HOME: join(home, ".dsh") };
    await writeTree(home, {
      ".claude/skills/notes/SKILL.md": skillMd("notes", "Keep personal notes.", "Body."),
      ".claude/skills/drafts/SKILL.md": skillMd("drafts", "Personal drafts.", "Body."),
    });
    const userLocked = await runCli(["lock", "--user", "notes"], { cwd: project, env });
    assert.equal(userLocked.code, 0, userLocked.stderr);
    const projectLock = join(project, "skills-anywhere.lock.json");
    const userLock = join(home, ".dsh", "skills-anywhere", "user.lock.json");
    const locks = {
      project: {
        kind: "project",
        file: projectLock,
        sha256: sha(await Deno.readFile(projectLock)),
      },
      user: { kind: "user", file: userLock, sha256: sha(await Deno.readFile(userLock)) },
    };
    const m = await mount(home);
    try {
      const listed = await m.ctx.skills.list({ cwd: project });
      const invocable = listed.filter((s) => s.invocation.modelInvocable).map((s) => s.name);
      assert.deepEqual(invocable.sort(), ["excel", "notes", "pdf"]);
      const expected = { excel: locks.project, pdf: locks.project, notes: locks.user };
      for (const [name, lock] of Object.entries(expected)) {
        const got = await m.ctx.skills.get(name, { cwd: project });
        const record = got?.metadata?.skillsAnywhere as Record<string, unknown> | undefined;
        assert.deepEqual(record?.lock, lock, name);
        const opened = await call(m, "open_skill", { name }, project);
        assert.equal(opened.isError, false, text(opened));
        assert.deepEqual(opened.value?.lock, lock, name);
        const words = lock.kind === "user" ? "your user lock" : "the project's lock";
        assert.ok(
          text(opened).endsWith(`\nServed under ${words} (skills-anywhere locked).`),
          text(opened),
        );
      }
      // The one neither lock holds is refused, and says no lock.
      const drafts = await call(m, "open_skill", { name: "drafts" }, project);
      assert.equal(drafts.isError, true, text(drafts));
      assert.doesNotMatch(text(drafts), /Served under/);
    } finally {
      await m.close();
    }
  });
});
