/**
 * A project lock is the project's (issue 28): `lock` records the project's
 * own skills (every project-scope folder, nested ones included) and its
 * trusted Git sources, never the reviewer's home; a lock written on one home
 * verifies on another; personal skills are locked apart (`lock --user`,
 * `verify --user`); a locked project name keeps its place whatever a home
 * holds, and a rename the lock causes says so (`renamed_because: "locked"`).
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { type Sandbox, sha, skillMd, withSandbox, writeTree } from "./helpers.ts";
import { textOf } from "./mcp_helpers.ts";
import { withLocked } from "./mcp_locked_helpers.ts";

const LOCK = "skills-anywhere.lock.json";

/** The project's own skills: two at the root, one in a nested package. */
async function projectSkills(box: Sandbox): Promise<void> {
  await writeTree(box.project, {
    ".claude/skills/pdf/SKILL.md": skillMd("pdf", "Fill PDF forms.", "Run the script."),
    ".claude/skills/pdf/scripts/fill.py": "print('fill')\n",
    ".agents/skills/excel/SKILL.md": skillMd("excel", "Edit spreadsheets.", "Body."),
    "packages/app/.agents/skills/deploy/SKILL.md": skillMd("deploy", "Deploy the app.", "Body."),
  });
}

/** A reviewer's home full of personal skills: user folders and a user-level Git source. */
async function busyHome(box: Sandbox): Promise<void> {
  await writeTree(box.home, {
    ".claude/skills/access/SKILL.md": skillMd("access", "Personal access.", "Body."),
    ".claude/skills/access/scripts/run.py": "print('run')\n",
    ".agents/skills/notes/SKILL.md": skillMd("notes", "Personal notes.", "Body."),
  });
  const repo = await box.repo("mine", {
    "skills/snippets/SKILL.md": skillMd("snippets", "Personal snippets.", "Body."),
  });
  equal((await box.cli("add", repo)).code, 0);
  equal((await box.cli("sync")).code, 0);
}

/** Points the sandbox's CLI at another, empty home (a teammate, or CI). */
async function otherHome(box: Sandbox, name: string): Promise<string> {
  const home = join(box.root, name);
  await Deno.mkdir(home, { recursive: true });
  box.env.HOME = home;
  box.env.DSH_HOME = join(home, ".dsh");
  return home;
}

function names(lock: { skills: { name: string }[] }): string[] {
  return lock.skills.map((s) => s.name);
}

Deno.test("lock records only the project's own skills: nothing of the reviewer's home, and it verifies on another home", async () => {
  await withSandbox(async (box) => {
    await projectSkills(box);
    await busyHome(box);
    const locked = await box.cli("lock", "--json");
    equal(locked.code, 0, locked.stderr);
    const summary = JSON.parse(locked.stdout);
    equal(summary.lock, "project");
    equal(summary.skills, 3);
    equal(summary.sources, 0);
    equal(summary.outside, 3);
    match(
      locked.stderr,
      /not in this lock: 3 skills, personal skills .*"dsh-skills-anywhere lock --user"/,
    );
    const text = await Deno.readTextFile(join(box.project, LOCK));
    const lock = JSON.parse(text);
    deepEqual(names(lock), ["deploy", "excel", "pdf"]);
    deepEqual(lock.sources, []);
    ok(!text.includes(box.home), "the lock names the reviewer's home");
    for (const s of lock.skills) equal(s.origin.scope, "project");
    const here = await box.cli("verify", "--json");
    equal(here.code, 0, here.stdout);
    deepEqual(JSON.parse(here.stdout).added, []);
    // A teammate's home with other personal skills, then CI's empty home: the same lock verifies.
    const teammate = await otherHome(box, "teammate");
    await writeTree(teammate, {
      ".claude/skills/pdf/SKILL.md": skillMd("pdf", "The teammate's own PDF skill.", "Body."),
      ".claude/skills/zeta/SKILL.md": skillMd("zeta", "Zeta.", "Body."),
    });
    const there = await box.cli("verify");
    equal(there.code, 0, there.stdout + there.stderr);
    match(there.stdout, /verified 3 skills: all match/);
    const listed = JSON.parse((await box.cli("list", "--json")).stdout).skills;
    const pdf = listed.find((s: { name: string }) => s.name === "pdf");
    equal(pdf.origin.scope, "project");
    const mine = listed.find((s: { renamed_from: string | null }) => s.renamed_from === "pdf");
    equal(mine.origin.scope, "user");
    await otherHome(box, "ci");
    const ci = await box.cli("verify");
    equal(ci.code, 0, ci.stdout + ci.stderr);
    // Written again on the empty home: the same bytes.
    equal((await box.cli("lock")).code, 0);
    equal(await Deno.readTextFile(join(box.project, LOCK)), text);
  });
});

Deno.test("lock --user locks personal skills apart; verify --user names a changed script; the project's verify never sees them", async () => {
  await withSandbox(async (box) => {
    await projectSkills(box);
    await busyHome(box);
    const missing = await box.cli("verify", "--user");
    equal(missing.code, 2);
    match(
      missing.stderr,
      /no lock file at ~\/\.dsh\/skills-anywhere\/user\.lock\.json; run "dsh-skills-anywhere lock --user"/,
    );
    equal((await box.cli("lock")).code, 0);
    const user = await box.cli("lock", "--user", "--json");
    equal(user.code, 0, user.stderr);
    equal(JSON.parse(user.stdout).lock, "user");
    const file = join(box.dshHome, "skills-anywhere", "user.lock.json");
    const lock = JSON.parse(await Deno.readTextFile(file));
    deepEqual(names(lock), ["access", "notes", "snippets"]);
    equal(lock.sources.length, 1);
    ok(lock.sources[0].commit !== null);
    equal((await box.cli("verify", "--user")).code, 0);
    await Deno.writeTextFile(join(box.home, ".claude/skills/access/scripts/run.py"), "print(1)\n");
    const changed = await box.cli("verify", "--user");
    equal(changed.code, 1, changed.stdout);
    match(changed.stdout, /changed "access" \(bundle\)\n {2}changed "scripts\/run\.py"/);
    const project = await box.cli("verify", "--json");
    equal(project.code, 0, project.stdout);
    const report = JSON.parse(project.stdout);
    deepEqual([report.added, report.missing, report.changed], [[], [], []]);
  });
});

Deno.test("a lock written before issue 28 that pinned pdf to a personal copy no longer takes the project's pdf", async () => {
  await withSandbox(async (box) => {
    await writeTree(box.home, {
      ".claude/skills/pdf/SKILL.md": skillMd("pdf", "The reviewer's PDF skill.", "Body."),
    });
    const personal = (name: string) => ({
      name,
      origin: { agent: "claude-code", kind: "agent", scope: "user" },
      path: `${name}/SKILL.md`,
      skill_sha256: "0".repeat(64),
      bundle_sha256: null,
      bundle_error: "a flat file, not a skill directory",
      files: [],
    });
    const lock = {
      schema: "skills-anywhere-lock-1",
      skills: [personal("access"), {
        name: "pdf",
        origin: { agent: "claude-code", kind: "agent", scope: "user" },
        path: "pdf/SKILL.md",
        skill_sha256: "0".repeat(64),
        bundle_sha256: null,
        bundle_error: "a flat file, not a skill directory",
        files: [],
      }],
      sources: [],
    };
    await Deno.writeTextFile(join(box.project, LOCK), JSON.stringify(lock, null, 2) + "\n");
    await writeTree(box.project, {
      ".claude/skills/pdf/SKILL.md": skillMd("pdf", "The project's PDF skill.", "Body."),
    });
    const listed = JSON.parse((await box.cli("list", "--json")).stdout).skills;
    const pdf = listed.find((s: { name: string }) => s.name === "pdf");
    equal(pdf.origin.scope, "project");
    equal(pdf.renamed_because, null);
    // Re-locking one skill drops the personal entries such a lock held.
    equal((await box.cli("lock", "pdf")).code, 0);
    const relocked = JSON.parse(await Deno.readTextFile(join(box.project, LOCK)));
    deepEqual(names(relocked), ["pdf"]);
    equal(relocked.skills[0].origin.scope, "project");
  });
});

Deno.test("a locked project source's pdf keeps its name over a personal pdf; the rename says the lock caused it", async () => {
  await withSandbox(async (box) => {
    const repo = await box.repo("team", {
      "skills/pdf/SKILL.md": skillMd("pdf", "The team's PDF skill.", "Body."),
    });
    equal((await box.cli("add", repo, "--project")).code, 0);
    equal((await box.cli("trust", "--yes")).code, 0);
    equal((await box.cli("sync")).code, 0);
    await writeTree(box.home, {
      ".claude/skills/pdf/SKILL.md": skillMd("pdf", "A teammate's PDF skill.", "Body."),
    });
    // Without the lock, the personal folder outranks the Git source.
    const before = JSON.parse((await box.cli("list", "--json")).stdout).skills;
    equal(before.find((s: { name: string }) => s.name === "pdf").origin.kind, "agent");
    await Deno.remove(join(box.home, ".claude/skills/pdf"), { recursive: true });
    const locked = await box.cli("lock", "--json");
    equal(locked.code, 0, locked.stderr);
    equal(JSON.parse(locked.stdout).skills, 1);
    await writeTree(box.home, {
      ".claude/skills/pdf/SKILL.md": skillMd("pdf", "A teammate's PDF skill.", "Body."),
    });
    const listed = JSON.parse((await box.cli("list", "--json")).stdout).skills;
    const pdf = listed.find((s: { name: string }) => s.name === "pdf");
    equal(pdf.origin.kind, "source");
    const mine = listed.find((s: { renamed_from: string | null }) => s.renamed_from === "pdf");
    equal(mine.origin.scope, "user");
    equal(mine.renamed_because, "locked");
    const human = await box.cli("list");
    match(human.stdout, new RegExp(`${mine.name} \\(renamed from pdf: locked\\)`));
    const doctor = await box.cli("doctor");
    match(
      doctor.stdout,
      /renamed because the project's lock keeps the name "pdf" for another skill/,
    );
    const doc = JSON.parse((await box.cli("doctor", "--json")).stdout);
    deepEqual(
      doc.renamed.map((
        r: { from: string; renamed_because: string },
      ) => [r.from, r.renamed_because]),
      [["pdf", "locked"]],
    );
    equal((await box.cli("verify")).code, 0);
  });
});

/**
 * Installs the plugin `helper@m` (skill `assist`) in the home, enabled by nobody yet; the
 * person's own settings enable `userPlugins` when given.
 */
async function installHelperPlugin(box: Sandbox, userPlugins?: Record<string, boolean>) {
  const plugin = join(box.home, ".claude/plugins/marketplaces/m/plugins/helper");
  await writeTree(box.home, {
    ".claude/plugins/marketplaces/m/plugins/helper/skills/assist/SKILL.md": skillMd(
      "assist",
      "A plugin's skill.",
      "Body.",
    ),
    ".claude/plugins/installed_plugins.json": JSON.stringify({
      version: 2,
      plugins: { "helper@m": [{ scope: "user", installPath: plugin }] },
    }),
    ...(userPlugins === undefined
      ? {}
      : { ".claude/settings.json": JSON.stringify({ enabledPlugins: userPlugins }) }),
  });
}

Deno.test("a plugin the project's own settings enable is outside the project lock, and outside the user lock", async () => {
  await withSandbox(async (box) => {
    await projectSkills(box);
    await installHelperPlugin(box);
    await writeTree(box.project, {
      ".claude/settings.json": JSON.stringify({ enabledPlugins: { "helper@m": true } }),
    });
    const listed = JSON.parse((await box.cli("list", "--json")).stdout).skills;
    ok(listed.some((s: { origin: { kind: string } }) => s.origin.kind === "claude-plugins"));
    const locked = await box.cli("lock", "--json");
    equal(locked.code, 0, locked.stderr);
    equal(JSON.parse(locked.stdout).outside, 1);
    const lock = JSON.parse(await Deno.readTextFile(join(box.project, LOCK)));
    deepEqual(names(lock), ["deploy", "excel", "pdf"]);
    // The user lock holds what the person enabled; this plugin only the project enables.
    equal((await box.cli("lock", "--user")).code, 0);
    const file = join(box.dshHome, "skills-anywhere", "user.lock.json");
    deepEqual(names(JSON.parse(await Deno.readTextFile(file))), []);
    equal((await box.cli("verify")).code, 0);
  });
});

Deno.test("verify names the plugins the project's own settings enable and its lock leaves out, installed or not; the exit code is the lock's", async () => {
  await withSandbox(async (box) => {
    await projectSkills(box);
    // The person's own settings enable a plugin of their own: not the project's to name.
    await installHelperPlugin(box, { "mine@m": true });
    await writeTree(box.project, {
      ".claude/settings.json": JSON.stringify({
        enabledPlugins: { "helper@m": true, "absent@m\u001b[2J": ["1.0.0"], "off@m": false },
      }),
    });
    equal((await box.cli("lock")).code, 0);
    const text = await box.cli("verify");
    equal(text.code, 0, text.stderr);
    deepEqual(text.stdout.split("\n"), [
      "outside plugin \"absent@m\\u001b[2J\" (the project's .claude/settings.json enables it; not installed here): never in the project's lock",
      'outside plugin "helper@m" (the project\'s .claude/settings.json enables it; 1 skill here: "assist"): never in the project\'s lock',
      `verified 3 skills: all match ${join(box.project, LOCK)}`,
      "",
    ]);
    const json = await box.cli("verify", "--json");
    equal(json.code, 0, json.stderr);
    const report = JSON.parse(json.stdout);
    equal(report.matches, true);
    deepEqual(report.outside_plugins, [
      { plugin: "absent@m\u001b[2J", installed: false, skills: [] },
      { plugin: "helper@m", installed: true, skills: ["assist"] },
    ]);
    // A difference still fails, and the plugins are named beside it, not counted with it.
    await Deno.writeTextFile(join(box.project, ".claude/skills/pdf/scripts/fill.py"), "evil\n");
    const changed = await box.cli("verify");
    equal(changed.code, 1);
    const lines = changed.stdout.trimEnd().split("\n");
    equal(lines.at(-1), `1 difference from ${join(box.project, LOCK)}`);
    equal(lines.filter((l) => l.startsWith("outside plugin ")).length, 2);
    // CI's empty home: the project still enables both, neither is installed.
    await otherHome(box, "ci");
    await Deno.writeTextFile(
      join(box.project, ".claude/skills/pdf/scripts/fill.py"),
      "print('fill')\n",
    );
    const ci = JSON.parse((await box.cli("verify", "--json")).stdout);
    equal(ci.matches, true);
    deepEqual(ci.outside_plugins.map((p: { installed: boolean }) => p.installed), [false, false]);
    // verify --user never names them: the user lock is taken without a project.
    equal((await box.cli("lock", "--user")).code, 0);
    const mine = JSON.parse((await box.cli("verify", "--user", "--json")).stdout);
    equal(mine.outside_plugins, undefined);
  });
});

Deno.test("mcp --locked: an invalid user lock serves no personal skill and says why; the project's skills are still served", async () => {
  await withSandbox(async (box) => {
    await projectSkills(box);
    await writeTree(box.home, {
      ".claude/skills/access/SKILL.md": skillMd("access", "Personal access.", "Body."),
    });
    equal((await box.cli("lock")).code, 0);
    equal((await box.cli("lock", "--user")).code, 0);
    const file = join(box.dshHome, "skills-anywhere", "user.lock.json");
    const userSha = sha(await Deno.readFile(file));
    await withLocked(box, async (s) => {
      deepEqual((await s.listed()).sort(), ["access", "excel", "pdf"]);
      const access = await s.call("open_skill", { name: "access" });
      const receipt = access.structuredContent!.receipt as Record<string, unknown>;
      deepEqual([receipt.lock, receipt.lock_sha256], ["user", userSha]);
    });
    // A personal skill changed since the user lock: the refusal names the user lock, not the
    // project's (which never held it).
    const access = join(box.home, ".claude/skills/access/SKILL.md");
    const before = await Deno.readTextFile(access);
    await Deno.writeTextFile(access, before + "More.\n");
    await withLocked(box, async (s) => {
      const refused = await s.call("open_skill", { name: "access" });
      equal(refused.isError, true);
      match(textOf(refused), /skill "access" changed since it was locked in the user's lock; /);
      ok(!/matches the project's lock/.test(textOf(refused)), textOf(refused));
      const project = await s.call("open_skill", { name: "excel" });
      equal(project.isError, undefined, textOf(project));
    });
    await Deno.writeTextFile(access, before);
    await Deno.writeTextFile(file, "{not json");
    await withLocked(box, async (s) => {
      deepEqual((await s.listed()).sort(), ["excel", "pdf"]);
      const access = await s.call("open_skill", { name: "access" });
      equal(access.isError, true);
      match(
        textOf(access),
        /skill "access" is not in the project's lock, and the user's lock is invalid: not valid JSON/,
      );
      equal((await s.call("open_skill", { name: "pdf" })).isError, undefined);
    });
  });
});
