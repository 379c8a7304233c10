/**
 * Finding 6 of issue 27, end to end: a skill that cannot be bundled (a link inside its folder, a
 * SKILL.md over 128 KiB, more than 512 files, a file over 16 MiB), in the project and in the
 * user's folder, is locked with its reason and `verify` reports it as `unverifiable` (exit 1, in
 * text, JSON and SARIF), never as a match: before its script changes and after. `mcp --locked`
 * (the real SDK client) refuses each by name with its reason and serves the others; the GitHub
 * Action fails. A skill locked with a digest that has since become unbundlable is a difference.
 * Since issue 28 the user's skills are in the user lock (`lock --user`, `verify --user`).
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { ROOT, run, type Sandbox, skillMd, withSandbox, writeTree } from "./helpers.ts";
import { runAction } from "./action_runner.ts";
import { rejection, textOf } from "./mcp_helpers.ts";
import { withLocked } from "./mcp_locked_helpers.ts";
import { sarifErrors } from "./sarif_schema.ts";
import { type Cause, CAUSES, tamper, writeUnbundlable } from "./unbundlable_fixture.ts";

const LOCK = "skills-anywhere.lock.json";
const PROJECT_FOLDER = ".claude/skills";
const USER_FOLDER = ".claude/skills";
// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** The reason words each cause must be refused with while serving. */
const REASONS: Record<Cause, RegExp> = {
  link: /a link inside its folder/,
  "skill-too-large": /a SKILL\.md over 128 KiB/,
  "too-many-files": /more than 512 files/,
  "file-too-large": /a file over 16 MiB/,
};

/** Each cause as a project skill `p-<cause>` and a user skill `u-<cause>`, plus a plain skill. */
async function unbundlableProject(box: Sandbox): Promise<{ name: string; cause: Cause }[]> {
  const all: { name: string; cause: Cause }[] = [];
  for (const cause of CAUSES) {
    await writeUnbundlable(box.project, PROJECT_FOLDER, `p-${cause}`, cause);
    await writeUnbundlable(box.home, USER_FOLDER, `u-${cause}`, cause);
    all.push({ name: `p-${cause}`, cause }, { name: `u-${cause}`, cause });
  }
  await writeTree(box.project, {
    ".claude/skills/plain/SKILL.md": skillMd("plain", "A plain skill.", "Run the script."),
    ".claude/skills/plain/scripts/run.sh": "echo plain\n",
  });
  return all.sort((a, b) => a.name < b.name ? -1 : 1);
}

async function tamperAll(box: Sandbox) {
  for (const cause of CAUSES) {
    await tamper(box.project, PROJECT_FOLDER, `p-${cause}`, cause);
    await tamper(box.home, USER_FOLDER, `u-${cause}`, cause);
  }
}

interface Unverifiable {
  name: string;
  kind: string;
  reason: string;
  skill_md: boolean;
}

/**
 * Asserts verify's three reports: exit 1, every unbundlable skill `unverifiable`, plain fine.
 * With `user`, of `verify --user` (issue 28: the user's skills are in the user lock).
 */
async function assertUnverifiable(
  box: Sandbox,
  expected: { name: string; cause: Cause }[],
  user = false,
) {
  const flags = user ? ["--user"] : [];
  const json = await box.cli("verify", ...flags, "--json");
  equal(json.code, 1, json.stdout + json.stderr);
  const report = JSON.parse(json.stdout);
  equal(report.matches, false);
  deepEqual(
    report.unverifiable.map((u: Unverifiable) => [u.name, u.kind, u.skill_md]),
    expected.map((e) => [e.name, e.cause, false]),
  );
  for (const u of report.unverifiable as Unverifiable[]) ok(u.reason.length > 0, u.name);
  deepEqual([report.changed, report.added, report.missing, report.moved], [[], [], [], []]);

  const text = await box.cli("verify", ...flags);
  equal(text.code, 1, text.stdout + text.stderr);
  for (const e of expected) match(text.stdout, new RegExp(`^unverifiable "${e.name}"`, "m"));
  ok(!/all match/.test(text.stdout), text.stdout);
  match(text.stdout, new RegExp(`${expected.length} differences from `));

  const sarif = await box.cli("verify", ...flags, "--format", "sarif");
  equal(sarif.code, 1, sarif.stderr);
  const log = JSON.parse(sarif.stdout);
  deepEqual(await sarifErrors(log), []);
  const results = log.runs[0].results as {
    ruleId: string;
    level: string;
    message: { text: string };
    locations: { physicalLocation: { artifactLocation: { uri: string } } }[];
  }[];
  deepEqual(results.map((r) => [r.ruleId, r.level]), expected.map(() => ["unverifiable", "error"]));
  if (user) return;
  const projectOnes = results.filter((r) => r.message.text.startsWith("skill p-"));
  deepEqual(
    projectOnes.map((r) => r.locations[0].physicalLocation.artifactLocation.uri),
    CAUSES.map((c) => `.claude/skills/p-${c}/SKILL.md`).sort(),
  );
  deepEqual(log.runs[0].tool.driver.rules.map((r: { id: string }) => r.id), ["unverifiable"]);
}

Deno.test("verify: a skill that cannot be bundled (each cause, project and user) is unverifiable, before and after its script changes", async () => {
  await withSandbox(async (box) => {
    const expected = await unbundlableProject(box);
    const project = expected.filter((e) => e.name.startsWith("p-"));
    const user = expected.filter((e) => e.name.startsWith("u-"));
    const locked = await box.cli("lock");
    equal(locked.code, 0, locked.stderr);
    // The user's skills are locked apart (issue 28), with the same rules.
    equal((await box.cli("lock", "--user")).code, 0);
    // Never a match, even before anything changes: nothing but SKILL.md could be reviewed.
    await assertUnverifiable(box, project);
    await assertUnverifiable(box, user, true);
    const lock = JSON.parse(await Deno.readTextFile(join(box.project, LOCK)));
    const userLock = JSON.parse(
      await Deno.readTextFile(join(box.dshHome, "skills-anywhere/user.lock.json")),
    );
    for (const e of expected) {
      const skills = e.name.startsWith("p-") ? lock.skills : userLock.skills;
      const entry = skills.find((s: { name: string }) => s.name === e.name);
      equal(entry.bundle_sha256, null, e.name);
      equal(entry.bundle_error_kind, e.cause, e.name);
      deepEqual(entry.files, []);
    }
    await tamperAll(box);
    await assertUnverifiable(box, project);
    await assertUnverifiable(box, user, true);
  });
});

Deno.test("mcp --locked refuses each skill that cannot be bundled by name with its reason, and serves the others", async () => {
  await withSandbox(async (box) => {
    const expected = await unbundlableProject(box);
    equal((await box.cli("lock")).code, 0);
    equal((await box.cli("lock", "--user")).code, 0);
    await tamperAll(box);
    const stderr = await withLocked(box, async (s) => {
      equal((await s.listed()).join(","), "plain");
      for (const e of expected) {
        const refused = await s.call("open_skill", { name: e.name });
        equal(refused.isError, true, textOf(refused));
        match(textOf(refused), new RegExp(`skill "${e.name}" cannot be verified`));
        match(textOf(refused), REASONS[e.cause]);
        ok(!RAW_CONTROL.test(textOf(refused)), textOf(refused));
        match(await rejection(s.read(`skill://${e.name}/scripts/run.sh`)), /cannot be verified/);
      }
      const uris = (await s.skills.list()).skills.map((e) => e.uri);
      equal(uris.join(","), "skill://plain/SKILL.md");
      equal((await s.call("open_skill", { name: "plain" })).isError, undefined);
    });
    ok(!/unexpected error|TypeError/.test(stderr), stderr);
  });
});

Deno.test("a skill locked with a digest that has since become unbundlable is a difference and is refused while serving", async () => {
  await withSandbox(async (box) => {
    for (const cause of CAUSES) {
      await writeTree(box.project, {
        [`.claude/skills/${cause}/SKILL.md`]: skillMd(cause, "Reviewed.", "Run scripts/run.sh."),
        [`.claude/skills/${cause}/scripts/run.sh`]: "echo reviewed\n",
      });
    }
    equal((await box.cli("lock")).code, 0);
    equal((await box.cli("verify")).code, 0);
    const other = join(box.root, "made");
    for (const cause of CAUSES) {
      // Made unbundlable after review: write the cause's skill elsewhere and move its parts in.
      await writeUnbundlable(other, "s", cause, cause);
      await Deno.remove(join(box.project, ".claude/skills", cause), { recursive: true });
      await Deno.rename(join(other, "s", cause), join(box.project, ".claude/skills", cause));
    }
    const json = await box.cli("verify", "--json");
    equal(json.code, 1, json.stdout + json.stderr);
    const report = JSON.parse(json.stdout);
    deepEqual(
      report.changed.map((c: { name: string; bundle_error_kind: string }) => [
        c.name,
        c.bundle_error_kind,
      ]),
      [...CAUSES].sort().map((c) => [c, c]),
    );
    await withLocked(box, async (s) => {
      equal((await s.listed()).join(","), "");
      for (const cause of CAUSES) {
        const refused = await s.call("open_skill", { name: cause });
        equal(refused.isError, true, textOf(refused));
        match(textOf(refused), new RegExp(`skill "${cause}" cannot be bundled now`));
        match(textOf(refused), REASONS[cause]);
      }
    });
  });
});

Deno.test("the GitHub Action fails (exit 1, rule unverifiable) on a locked skill whose folder holds a link", async () => {
  await withSandbox(async (box) => {
    const workspace = await box.repo("ws", {
      ".claude/skills/plain/SKILL.md": skillMd("plain", "A plain skill.", "Body."),
    });
    await writeUnbundlable(workspace, ".claude/skills", "linked", "link");
    const env = { ...box.env, NO_COLOR: "1" };
    const cli = ["run", "-A", "--quiet", join(ROOT, "main.ts")];
    const locked = await run(Deno.execPath(), [...cli, "lock"], { cwd: workspace, env });
    equal(locked.code, 0, locked.stderr);
    await tamper(workspace, ".claude/skills", "linked", "link");
    // The Action through action.yml, as the runner runs it (the one simulated runner).
    const action = await runAction(box, workspace, { with: { "sarif-file": "report.sarif" } });
    equal(action.code, 1, action.stdout + action.stderr);
    match(action.stdout, /^::error file=\.claude\/skills\/linked\/SKILL\.md.*unverifiable::/m);
    const sarif = JSON.parse(await Deno.readTextFile(join(workspace, "report.sarif")));
    deepEqual(sarif.runs[0].tool.driver.rules.map((r: { id: string }) => r.id), ["unverifiable"]);
  });
});
