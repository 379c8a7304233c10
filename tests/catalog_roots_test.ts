// Which folders the catalog reads, end to end over real CLI and MCP children with a temp HOME:
// the home folder is never a project, a note in a skills folder is not a skill (and is reported),
// skipped files are counted by `list` and logged by MCP, openskills' `.agent/skills` folders, and
// the `.agents/skills` folders between the working directory and the project root. The fixtures
// are in testdata/roots/ (see its LICENSES.md).
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { PREFIX } from "../cli/io.ts";
import { ROOT, runCli, type Sandbox, withSandbox, writeTree } from "./helpers.ts";
import { CATALOG_BOX } from "./catalog_cli_helpers.ts";
import { rejection, withSession } from "./mcp_helpers.ts";

const FIXTURES = join(ROOT, "testdata", "roots");
const fixture = (path: string) => Deno.readTextFileSync(join(FIXTURES, path));

/** anthropics/skills' internal-comms skill, as a user installs it. */
const INTERNAL_COMMS = fixture("internal-comms/SKILL.md");

/** A skill named `name` with a one-line description, repeated as its body. */
const skill = (name: string, description: string) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n\n${description}\n`;

/** Runs the CLI with the sandbox's environment in `cwd`. */
function cliIn(box: Sandbox, cwd: string, ...args: string[]) {
  return runCli(args, { cwd, env: box.env, clearEnv: true });
}

interface ListDoc {
  skills: { name: string; description: string; source: string; rank: number; path: string }[];
  invalid: { path: string; kind: string; reason: string }[];
}

interface DoctorDoc extends ListDoc {
  roots: { label: string; path: string; exists: boolean; count: number }[];
}

async function listJson(box: Sandbox, cwd: string): Promise<ListDoc> {
  const run = await cliIn(box, cwd, "list", "--json");
  equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout);
}

async function doctorJson(box: Sandbox, cwd: string): Promise<DoctorDoc> {
  const run = await cliIn(box, cwd, "doctor", "--json");
  return JSON.parse(run.stdout);
}

// ---------------------------------------------------------------------------------------------
// The home folder is not a project

Deno.test("cd ~ && list: ~/.claude/skills is the user's folder, each root read once", async () => {
  await withSandbox(async (box) => {
    await writeTree(box.home, { ".claude/skills/internal-comms/SKILL.md": INTERNAL_COMMS });
    // Without .git anywhere (the project root falls back to the cwd, the home) and with a home
    // kept under Git (dotfiles), from the home and from a folder below it.
    for (const dotfiles of [false, true]) {
      if (dotfiles) await Deno.mkdir(join(box.home, ".git"));
      for (const cwd of dotfiles ? [box.home, join(box.home, "notes")] : [box.home]) {
        await Deno.mkdir(cwd, { recursive: true });
        const doc = await listJson(box, cwd);
        deepEqual(
          doc.skills.map((s) => [s.name, s.source, s.rank]),
          [["internal-comms", "anywhere-user", 550]],
          cwd,
        );
        const doctor = await doctorJson(box, cwd);
        deepEqual(doctor.roots.filter((r) => r.label.includes("(project")), [], cwd);
        const paths = doctor.roots.map((r) => r.path);
        equal(new Set(paths).size, paths.length);
        deepEqual(doctor.roots.filter((r) => r.count > 0).map((r) => r.label), [
          "claude-code (user)",
        ]);
        const human = await cliIn(box, cwd, "list");
        ok(human.stdout.includes("claude-code (user)"), human.stdout);
        ok(!human.stdout.includes("(project)"), human.stdout);
      }
    }
  }, CATALOG_BOX);
});

// ---------------------------------------------------------------------------------------------
// A note is not a skill; skipped files are counted

/** A real home's ~/.claude/skills: a skill folder, a single-file skill and two notes. */
async function notesHome(box: Sandbox): Promise<string> {
  const skills = join(box.home, ".claude", "skills");
  await writeTree(skills, {
    "internal-comms/SKILL.md": INTERNAL_COMMS,
    "changelog.md": fixture("notes/changelog.md"),
    "todo.md": fixture("notes/todo.md"),
    "standup.md": fixture("notes/standup.md"),
  });
  return skills;
}

Deno.test("a flat .md needs a name or description in a frontmatter; notes are skipped as `note`", async () => {
  await withSandbox(async (box) => {
    const skills = await notesHome(box);
    const doc = await listJson(box, box.project);
    deepEqual(doc.skills.map((s) => [s.name, s.path]), [
      ["changelog", join(skills, "changelog.md")],
      ["internal-comms", join(skills, "internal-comms", "SKILL.md")],
    ]);
    const reason =
      "a note, not a skill: a single .md file needs a frontmatter with a name or a description";
    deepEqual(doc.invalid, [
      { path: join(skills, "standup.md"), kind: "note", reason },
      { path: join(skills, "todo.md"), kind: "note", reason },
    ]);
    const doctor = await doctorJson(box, box.project);
    deepEqual(doctor.invalid.map((i) => [i.path, i.kind]), [
      [join(skills, "standup.md"), "note"],
      [join(skills, "todo.md"), "note"],
    ]);
    const human = await box.cli("doctor");
    ok(human.stdout.includes("Skipped (2):\n  ~/.claude/skills/standup.md\n"), human.stdout);

    // A SKILL.md in a folder keeps the lenient rules: no frontmatter, still a skill.
    await writeTree(skills, { "notes-skill/SKILL.md": fixture("notes/todo.md") });
    const lenient = await listJson(box, box.project);
    ok(lenient.skills.some((s) => s.name === "notes-skill"));
    equal(lenient.invalid.length, 2);
  }, CATALOG_BOX);
});

Deno.test("list ends with the files skipped and points at doctor; nothing skipped, no hint", async () => {
  await withSandbox(async (box) => {
    const skills = await notesHome(box);
    const run = await box.cli("list");
    equal(run.code, 0, run.stderr);
    const lines = run.stdout.trimEnd().split("\n");
    // changelog.md is repaired (its name comes from the file name).
    equal(
      lines.at(-1),
      "2 skills (1 repaired); 2 files skipped — see `dsh-skills-anywhere doctor`",
    );
    await Deno.remove(join(skills, "standup.md"));
    const one = await box.cli("list");
    equal(
      one.stdout.trimEnd().split("\n").at(-1),
      "2 skills (1 repaired); 1 file skipped — see `dsh-skills-anywhere doctor`",
    );
    await Deno.remove(join(skills, "todo.md"));
    await Deno.remove(join(skills, "changelog.md"));
    equal((await box.cli("list")).stdout.trimEnd().split("\n").at(-1), "1 skill");
  }, CATALOG_BOX);
});

// ---------------------------------------------------------------------------------------------
// MCP: a note is never served; an unreadable file is logged with its reason

Deno.test("MCP: open_skill todo is unknown; a skill turned unreadable is refused and logged", async () => {
  await withSandbox(async (box) => {
    const skills = await notesHome(box);
    const path = join(skills, "internal-comms", "SKILL.md");
    let text = "";
    const stderr = await withSession(box, "legacy", async (s) => {
      const todo = await s.call("open_skill", { name: "todo" });
      ok(todo.isError === true);
      ok(!JSON.stringify(todo).includes("Q3 invoices"), "the note's text is never served");
      ok((await s.call("open_skill", { name: "internal-comms" })).isError !== true);

      const bytes = new TextEncoder().encode(INTERNAL_COMMS);
      await Deno.writeFile(path, new Uint8Array([...bytes, 0xff, 0xfe, 0x0a]));
      const refused = await s.call("open_skill", { name: "internal-comms" });
      ok(refused.isError === true);
      text = refused.content.map((c) => c.text).join("");
      const read = await rejection(s.read("skill://internal-comms/SKILL.md"));
      ok(!read.includes("Q3 invoices"), read);
    });
    const lines = stderr.split("\n").filter((line) => line.includes("internal-comms"));
    // The live catalog has seen the change (the file is skipped, with its reason in the log), or
    // not yet (the fresh read refuses it): either way refused, logged, and never served.
    if (text === `skill "internal-comms" is no longer readable at ${path}`) {
      // The offer is rebuilt (and says why it leaves the skill out) when the live catalog sees the
      // change, which may come after the session ended: that line is there, or not yet.
      const offered =
        `${PREFIX}skill "internal-comms" is not offered as an MCP skill: SKILL.md is not valid UTF-8 (${path})`;
      equal(lines[0], `${PREFIX}open_skill "internal-comms": cannot read ${path}: not valid UTF-8`);
      deepEqual(lines.slice(1).filter((line) => line !== offered), [], lines.join("\n"));
    } else {
      equal(
        text,
        `skill "internal-comms" is not served: its file was skipped (not-utf8); the server's log says why`,
      );
      deepEqual(lines, [`${PREFIX}open_skill "internal-comms": ${path}: not valid UTF-8`]);
    }
  }, CATALOG_BOX);
});

// ---------------------------------------------------------------------------------------------
// More folders: openskills' .agent/skills, and .agents/skills from the cwd up to the project root

Deno.test("openskills' universal .agent/skills is read in the project and in the home", async () => {
  await withSandbox(async (box) => {
    await writeTree(box.project, {
      ".agent/skills/changelog/SKILL.md": fixture("notes/changelog.md"),
    });
    await writeTree(box.home, { ".agent/skills/internal-comms/SKILL.md": INTERNAL_COMMS });
    const doc = await listJson(box, box.project);
    deepEqual(doc.skills.map((s) => [s.name, s.source, s.rank, s.path]), [
      [
        "changelog",
        "anywhere-project",
        250,
        join(box.project, ".agent/skills/changelog/SKILL.md"),
      ],
      [
        "internal-comms",
        "anywhere-user",
        550,
        join(box.home, ".agent/skills/internal-comms/SKILL.md"),
      ],
    ]);
    const agents = JSON.parse((await box.cli("agents", "--json")).stdout) as {
      id: string;
      projectDirs: string[];
      user: string;
      present: boolean;
    }[];
    const row = agents.find((a) => a.id === "openskills")!;
    deepEqual([row.projectDirs, row.user, row.present], [
      [".agent/skills"],
      "~/.agent/skills",
      true,
    ]);
  }, CATALOG_BOX);
});

Deno.test(".agents/skills from the cwd up to the project root, nearest first", async () => {
  await withSandbox(async (box) => {
    const app = join(box.project, "packages", "app");
    await writeTree(box.project, {
      ".agents/skills/deploy/SKILL.md": skill("deploy", "Deploys the whole monorepo."),
      ".agents/skills/lint/SKILL.md": skill("lint", "Lints every package."),
      "packages/app/.agents/skills/deploy/SKILL.md": skill("deploy", "Deploys the app only."),
      "packages/app/src/.agents/skills/storybook/SKILL.md": skill("storybook", "Runs Storybook."),
      "packages/api/.agents/skills/migrate/SKILL.md": skill("migrate", "Runs API migrations."),
    });
    const cwd = join(app, "src");
    const doc = await listJson(box, cwd);
    const rows = doc.skills.map((s) => [s.description, s.rank, s.path]);
    deepEqual(rows.slice(0, 2), [
      ["Runs Storybook.", 200, join(cwd, ".agents/skills/storybook/SKILL.md")],
      ["Deploys the app only.", 200, join(app, ".agents/skills/deploy/SKILL.md")],
    ]);
    equal(doc.skills[1].name, "deploy", "the nearest folder keeps the name");
    const root = doc.skills.find((s) => s.description === "Deploys the whole monorepo.");
    equal(root?.name, "agents-deploy", "the farther copy is kept, renamed");
    ok(doc.skills.some((s) => s.name === "lint"));
    ok(!doc.skills.some((s) => s.name === "migrate"), "a sibling package's folder is not read");
    const labels = (await doctorJson(box, cwd)).roots.map((r) => r.label)
      .filter((label) => label.startsWith("agents (project"));
    deepEqual(labels, [
      "agents (project: packages/app/src)",
      "agents (project: packages/app)",
      "agents (project: packages)",
      "agents (project)",
    ]);
    // From the project root, only the root's folder.
    const fromRoot = await listJson(box, box.project);
    deepEqual(fromRoot.skills.map((s) => s.description).sort(), [
      "Deploys the whole monorepo.",
      "Lints every package.",
    ]);
  }, CATALOG_BOX);
});
