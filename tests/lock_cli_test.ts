/**
 * End-to-end tests of `lock` and `verify` over real child processes in a
 * sandbox project: hostile locks first (tampered rows, not JSON, wrong
 * schema), then lock → verify clean, an edited script, an added and a removed
 * skill, a hostile name, a subset lock and a Git source's commit.
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { type Sandbox, skillMd, withSandbox, writeTree } from "./helpers.ts";

const LOCK = "skills-anywhere.lock.json";
/** Any control character but the newline. */
// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** A project with two skills, one with a script. */
async function twoSkills(box: Sandbox): Promise<void> {
  await writeTree(box.project, {
    ".claude/skills/pdf/SKILL.md": skillMd("pdf", "Fill PDF forms.", "Run the script."),
    ".claude/skills/pdf/scripts/fill.py": "print('fill')\n",
    ".claude/skills/excel/SKILL.md": skillMd("excel", "Edit spreadsheets.", "Body."),
  });
}

async function readLockJson(box: Sandbox) {
  return JSON.parse(await Deno.readTextFile(join(box.project, LOCK)));
}

/** Asserts exit 2 and exactly one stderr line naming the lock file and how to rewrite it. */
function assertInvalidLock(result: { code: number; stdout: string; stderr: string }, why: RegExp) {
  equal(result.code, 2, result.stderr);
  equal(result.stdout, "");
  const lines = result.stderr.trimEnd().split("\n");
  equal(lines.length, 1, result.stderr);
  match(lines[0], /^dsh-skills-anywhere: .*skills-anywhere\.lock\.json: /);
  match(lines[0], why);
  match(lines[0], /; run "dsh-skills-anywhere lock" to rewrite it$/);
}

Deno.test("verify refuses a lock whose row was tampered with but whose bundle digest was kept", async () => {
  await withSandbox(async (box) => {
    await twoSkills(box);
    equal((await box.cli("lock")).code, 0);
    const lock = await readLockJson(box);
    const pdf = lock.skills.find((s: { name: string }) => s.name === "pdf");
    pdf.files[1].sha256 = "0".repeat(64);
    await Deno.writeTextFile(join(box.project, LOCK), JSON.stringify(lock, null, 2));
    assertInvalidLock(await box.cli("verify"), /skill "pdf" has files that do not add up/);
    assertInvalidLock(await box.cli("verify", "--json"), /do not add up/);
  });
});

Deno.test("verify refuses a lock that is not JSON, or not the lock schema, in one line", async () => {
  await withSandbox(async (box) => {
    await twoSkills(box);
    await Deno.writeTextFile(join(box.project, LOCK), "{not json");
    assertInvalidLock(await box.cli("verify"), /not valid JSON/);
    await Deno.writeTextFile(
      join(box.project, LOCK),
      JSON.stringify({ schema: "skills-anywhere-lock-0", skills: [], sources: [] }),
    );
    assertInvalidLock(await box.cli("verify"), /not a skills-anywhere-lock-1 document/);
    await Deno.writeTextFile(
      join(box.project, LOCK),
      JSON.stringify({
        schema: "skills-anywhere-lock-1",
        skills: [{ name: "\u001b[31mred", origin: {} }],
        sources: [],
      }),
    );
    const hostile = await box.cli("verify");
    assertInvalidLock(hostile, /skill entry ".*red" is malformed/);
    ok(!RAW_CONTROL.test(hostile.stderr), hostile.stderr);
  });
});

Deno.test("verify without a lock exits 2 and says how to write one", async () => {
  await withSandbox(async (box) => {
    await twoSkills(box);
    const result = await box.cli("verify");
    equal(result.code, 2);
    match(
      result.stderr,
      /^dsh-skills-anywhere: no lock file at .*; run "dsh-skills-anywhere lock"/,
    );
  });
});

Deno.test("lock then verify is clean, and a second lock writes the same bytes", async () => {
  await withSandbox(async (box) => {
    await twoSkills(box);
    const first = await box.cli("lock");
    equal(first.code, 0, first.stderr);
    match(first.stdout, /^locked 2 skills \(0 sources\) in .*skills-anywhere\.lock\.json\n$/);
    const bytes = await Deno.readFile(join(box.project, LOCK));
    equal((await box.cli("lock")).code, 0);
    deepEqual(await Deno.readFile(join(box.project, LOCK)), bytes);
    const lock = await readLockJson(box);
    equal(lock.schema, "skills-anywhere-lock-1");
    deepEqual(lock.skills.map((s: { name: string }) => s.name), ["excel", "pdf"]);
    const pdf = lock.skills[1];
    deepEqual(pdf.origin, { agent: "claude-code", kind: "agent", scope: "project" });
    equal(pdf.path, "pdf/SKILL.md");
    deepEqual(pdf.files.map((f: { path: string }) => f.path), ["SKILL.md", "scripts/fill.py"]);
    const verify = await box.cli("verify");
    equal(verify.code, 0, verify.stdout + verify.stderr);
    match(verify.stdout, /^verified 2 skills: all match/);
  });
});

Deno.test("verify names the edited script, exits 1, and its JSON is byte-stable", async () => {
  await withSandbox(async (box) => {
    await twoSkills(box);
    equal((await box.cli("lock")).code, 0);
    await Deno.writeTextFile(
      join(box.project, ".claude/skills/pdf/scripts/fill.py"),
      "print('exfiltrate')\n",
    );
    const human = await box.cli("verify");
    equal(human.code, 1);
    match(human.stdout, /^changed "pdf" \(bundle\)\n {2}changed "scripts\/fill\.py"\n/);
    match(human.stdout, /1 difference from /);
    const json = await box.cli("verify", "--json");
    equal(json.code, 1);
    const report = JSON.parse(json.stdout);
    equal(report.schema, "skills-anywhere-verify-1");
    equal(report.matches, false);
    deepEqual(report.changed[0].changed, ["scripts/fill.py"]);
    equal(report.changed[0].skill_md, false);
    equal((await box.cli("verify", "--json")).stdout, json.stdout);
  });
});

Deno.test("verify lists an added skill as added and a removed one as missing", async () => {
  await withSandbox(async (box) => {
    await twoSkills(box);
    equal((await box.cli("lock")).code, 0);
    await writeTree(box.project, {
      ".claude/skills/new-one/SKILL.md": skillMd("new-one", "Unreviewed.", "Body."),
    });
    await Deno.remove(join(box.project, ".claude/skills/excel"), { recursive: true });
    const result = await box.cli("verify", "--json");
    equal(result.code, 1);
    const report = JSON.parse(result.stdout);
    deepEqual(report.added, ["new-one"]);
    deepEqual(report.missing, ["excel"]);
    deepEqual(report.changed, []);
    const human = await box.cli("verify");
    match(human.stdout, /^missing "excel" .*\nadded "new-one" /m);
  });
});

Deno.test("verify reports a skill that moved to another agent's folder", async () => {
  await withSandbox(async (box) => {
    await twoSkills(box);
    equal((await box.cli("lock")).code, 0);
    await Deno.rename(
      join(box.project, ".claude/skills/excel"),
      join(box.project, ".agents/skills/excel"),
    ).catch(async () => {
      await Deno.mkdir(join(box.project, ".agents/skills"), { recursive: true });
      await Deno.rename(
        join(box.project, ".claude/skills/excel"),
        join(box.project, ".agents/skills/excel"),
      );
    });
    const report = JSON.parse((await box.cli("verify", "--json")).stdout);
    deepEqual(report.moved.map((m: { name: string }) => m.name), ["excel"]);
    deepEqual(report.changed, []);
  });
});

Deno.test("hostile file names are escaped in verify's output; an unbundlable directory says why", async () => {
  await withSandbox(async (box) => {
    await writeTree(box.project, {
      ".claude/skills/evil/SKILL.md": skillMd("evil", "Evil.", "Body."),
      ".claude/skills/evil/ok.txt": "ok\n",
    });
    equal((await box.cli("lock")).code, 0);
    await writeTree(box.project, { '.claude/skills/evil/run\u202e"hs.sh': "rm -rf /\n" });
    const bidi = await box.cli("verify");
    equal(bidi.code, 1);
    ok(!bidi.stdout.includes("\u202e"), JSON.stringify(bidi.stdout));
    match(bidi.stdout, /^changed "evil" \(bundle\)\n {2}added "run.+\\"hs\.sh"\n/);
    await Deno.remove(join(box.project, '.claude/skills/evil/run\u202e"hs.sh'));
    await writeTree(box.project, { ".claude/skills/evil/run\u001b[2J.sh": "rm -rf /\n" });
    const control = await box.cli("verify");
    equal(control.code, 1);
    ok(!RAW_CONTROL.test(control.stdout), JSON.stringify(control.stdout));
    match(control.stdout, /^changed "evil" \(bundle\)\n {2}cannot be bundled now: "/);
    ok(!control.stdout.includes("removed"), control.stdout);
  });
});

Deno.test("lock <name> locks only that skill, keeps other entries, and refuses unknown names", async () => {
  await withSandbox(async (box) => {
    await twoSkills(box);
    equal((await box.cli("lock", "pdf")).code, 0);
    deepEqual((await readLockJson(box)).skills.map((s: { name: string }) => s.name), ["pdf"]);
    const verify = JSON.parse((await box.cli("verify", "--json")).stdout);
    deepEqual(verify.added, ["excel"]);
    equal((await box.cli("lock", "excel")).code, 0);
    deepEqual((await readLockJson(box)).skills.map((s: { name: string }) => s.name), [
      "excel",
      "pdf",
    ]);
    const unknown = await box.cli("lock", "pfd");
    equal(unknown.code, 1);
    match(unknown.stderr, /no skill named "pfd" \(did you mean "pdf"\?\)/);
  });
});

Deno.test("lock refuses the home folder as a project", async () => {
  await withSandbox(async (box) => {
    const result = await box.cli("lock", "--cwd", box.home);
    equal(result.code, 2);
    match(result.stderr, /no project here/);
    ok(!(await Deno.lstat(join(box.home, LOCK)).then(() => true, () => false)));
  });
});

Deno.test("a project Git source skill is locked with its url, ref and commit; sources carry the commit", async () => {
  await withSandbox(async (box) => {
    const repo = await box.repo("team", {
      "skills/lint/SKILL.md": skillMd("lint", "Lint code.", "Body."),
    });
    const head = await box.git(repo, "rev-parse", "HEAD");
    // The project's own source (issue 28: a user-level source is no longer the project's to lock).
    equal((await box.cli("add", repo, "--project")).code, 0);
    equal((await box.cli("trust", "--yes")).code, 0);
    equal((await box.cli("sync")).code, 0);
    equal((await box.cli("lock")).code, 0);
    const lock = await readLockJson(box);
    const lint = lock.skills.find((s: { name: string }) => s.name === "lint");
    equal(lint.origin.kind, "source");
    equal(lint.source.commit, head);
    equal(lint.source.url, repo);
    equal(lock.sources.length, 1);
    equal(lock.sources[0].commit, head);
    equal((await box.cli("verify")).code, 0);
    await box.commit(repo, { "skills/lint/SKILL.md": skillMd("lint", "Lint more.", "Body.") });
    equal((await box.cli("sync", "--force")).code, 0);
    const report = JSON.parse((await box.cli("verify", "--json")).stdout);
    equal(report.sources.length, 1);
    equal(report.sources[0].locked_commit, head);
    deepEqual(report.changed.map((c: { name: string }) => c.name), ["lint"]);
    equal(report.changed[0].skill_md, true);
  });
});

Deno.test("verify refuses a lock file that is a symlink or a folder, in one line", async () => {
  await withSandbox(async (box) => {
    await twoSkills(box);
    const outside = join(box.root, "elsewhere.json");
    equal((await box.cli("lock")).code, 0);
    await Deno.rename(join(box.project, LOCK), outside);
    await Deno.symlink(outside, join(box.project, LOCK));
    assertInvalidLock(await box.cli("verify"), /skills-anywhere\.lock\.json: /);
    await Deno.remove(join(box.project, LOCK));
    await Deno.mkdir(join(box.project, LOCK));
    assertInvalidLock(await box.cli("verify"), /skills-anywhere\.lock\.json: /);
  });
});
