// The paper cuts of issue 30 (finding 5), each through the real CLI: what a person at the shell
// meets on a first day — a check summary that says why spec errors did not fail, a plain empty
// home, a failed Git source named where one looks, Codex's own skills, near misses, plain
// refusals for wrong paths, `lock` outside a project, complete usage lines, the version, and URL
// hosts parsed as a browser parses them.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { COMMANDS } from "../cli/commands.ts";
import { VERSION } from "../lib/version.ts";
import { CATALOG_BOX, offline } from "./catalog_cli_helpers.ts";
import {
  exists,
  listTree,
  ROOT,
  runCli,
  skillMd,
  withSandbox,
  withTempDir,
  writeTree,
} from "./helpers.ts";

const DEMO = skillMd("demo", "A demo skill. Use it in tests.", "# Demo\n\nDo the thing.");

Deno.test("check: spec errors that do not fail the profile are explained, with the profile that would fail them", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, { "other/SKILL.md": DEMO });
    const strict = await runCli(["check", "--cwd", dir, "other"]);
    equal(strict.code, 0, strict.stderr);
    match(strict.stdout, /Spec error name-directory-mismatch/);
    match(
      strict.stdout,
      /\n1 spec error does not fail the strict profile \(it checks the parse only\); --profile spec would fail it\.\n/,
    );
    const spec = await runCli(["check", "--profile", "spec", "--cwd", dir, "other"]);
    equal(spec.code, 1);
    ok(!spec.stdout.includes("does not fail"), spec.stdout);
  });
});

Deno.test("list: an empty home says so in plain words, with the next step", async () => {
  await withSandbox(async (box) => {
    const result = await box.cli("list");
    equal(result.code, 0, result.stderr);
    ok(!result.stdout.includes("dsh defaults"), result.stdout);
    match(
      result.stdout,
      /^No skills found in your agents' skill folders, Claude Code plugins or Git sources\.\n/,
    );
    match(result.stdout, /dsh-skills-anywhere add anthropics\/skills/);
    match(result.stdout, /~\/\.claude\/skills\/<name>\/SKILL\.md/);
  });
});

Deno.test("list and doctor name a Git source whose last sync failed (list once, on stderr)", async () => {
  await withSandbox(async (box) => {
    offline(box);
    const missing = join(box.root, "no-such-repo");
    await writeTree(box.dshHome, {
      "skills-anywhere/sources.json": JSON.stringify({ sources: [missing] }),
    });
    equal((await box.cli("sync")).code, 1);
    const list = await box.cli("list");
    equal(list.code, 0);
    const named = list.stderr.split("\n").filter((line) => line.includes(missing));
    equal(named.length, 1, list.stderr);
    match(named[0], /Git source .* failed to sync .*; see dsh-skills-anywhere sources/);
    ok(!list.stdout.includes(missing), "stdout stays the listing");
    const doctor = await box.cli("doctor");
    equal(doctor.code, 0);
    match(doctor.stdout, /Git sources that failed to sync \(1\):\n {2}\S*no-such-repo/);
    const json = JSON.parse((await box.cli("doctor", "--json")).stdout);
    equal(json.failed_sources.length, 1);
    equal(json.failed_sources[0].source, missing);
    ok(json.failed_sources[0].error.length > 0);
  }, CATALOG_BOX);
});

Deno.test("doctor: near misses (skill.md in lower case, a skill one folder too deep) are hints", async () => {
  await withSandbox(async (box) => {
    await writeTree(box.home, {
      ".claude/skills/lower/skill.md": DEMO,
      ".claude/skills/group/deep/SKILL.md": DEMO,
      ".claude/skills/fine/SKILL.md": skillMd("fine", "Fine. Use it.", "Body."),
    });
    const doctor = await box.cli("doctor");
    equal(doctor.code, 0, doctor.stderr);
    match(doctor.stdout, /Near misses, not read as skills \(2\):/);
    match(doctor.stdout, /lower\/skill\.md: the file must be named SKILL\.md/);
    match(doctor.stdout, /group\/deep\/SKILL\.md: one folder too deep/);
    const json = JSON.parse((await box.cli("doctor", "--json")).stdout);
    deepEqual(json.near_misses.map((n: { kind: string }) => n.kind).sort(), [
      "file-name-case",
      "too-deep",
    ]);
  });
});

Deno.test("Codex's own ~/.codex/skills/.system skills are read, as Codex reads them", async () => {
  await withSandbox(async (box) => {
    await writeTree(box.home, {
      ".codex/skills/.system/skill-creator/SKILL.md": skillMd(
        "skill-creator",
        "Create skills. Use it when asked for a new skill.",
        "Body.",
      ),
    });
    const list = JSON.parse((await box.cli("list", "--json")).stdout);
    const found = list.skills.find((s: { name: string }) => s.name === "skill-creator");
    ok(found !== undefined, JSON.stringify(list.skills.map((s: { name: string }) => s.name)));
    match(found.path, /\.codex\/skills\/\.system\/skill-creator\/SKILL\.md$/);
  });
});

Deno.test("bundle and check refuse a missing path in plain words", async () => {
  await withTempDir(async (dir) => {
    const bundle = await runCli(["bundle", join(dir, "nonexistent")]);
    equal(bundle.code, 2);
    match(bundle.stderr, /no such directory/i);
    ok(!bundle.stderr.includes("Choose a skill directory"), bundle.stderr);
    await writeTree(dir, { "notes.txt": "x" });
    const file = await runCli(["bundle", join(dir, "notes.txt")]);
    equal(file.code, 2);
    match(file.stderr, /not a directory/i);
  });
});

Deno.test("check: a folder of skills suggests its skills; a trailing slash after SKILL.md is refused", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      ".claude/skills/demo/SKILL.md": DEMO,
      ".claude/skills/other/SKILL.md": DEMO,
    });
    const folder = await runCli(["check", "--cwd", dir, ".claude/skills"]);
    equal(folder.code, 2);
    match(
      folder.stdout,
      /No SKILL\.md in the directory\. Did you mean \.claude\/skills\/\*\/SKILL\.md\? \(it holds 2 skill folders\)/,
    );
    const slash = await runCli(["check", "--cwd", dir, ".claude/skills/demo/SKILL.md/"]);
    equal(slash.code, 2, slash.stdout);
    match(slash.stdout, /INPUT_ERROR ".claude\/skills\/demo\/SKILL.md\/"/);
    match(slash.stdout, /Not a directory: drop the trailing slash/);
    const typo = await runCli(["check", "--cwd", dir, ".claude/skills/dmeo"]);
    equal(typo.code, 2);
    match(typo.stdout, /No such file\. Did you mean \.claude\/skills\/demo\?/);
  });
});

Deno.test("lock: outside a project refuses (exit 2, nothing written) unless --cwd names the folder", async () => {
  await withTempDir(async (dir) => {
    const home = join(dir, "home");
    const folder = join(dir, "plain");
    await writeTree(folder, { ".claude/skills/demo/SKILL.md": DEMO });
    await Deno.mkdir(home, { recursive: true });
    const env = { HOME: home, DSH_HOME: join(home, ".dsh") };
    const before = await listTree(dir);
    const refused = await runCli(["lock"], { cwd: folder, env });
    equal(refused.code, 2, refused.stdout);
    match(refused.stderr, /no project here/);
    match(refused.stderr, /--cwd/);
    deepEqual(await listTree(dir), before, "nothing written");
    const named = await runCli(["lock", "--cwd", folder], { cwd: dir, env });
    equal(named.code, 0, named.stderr);
    ok(await exists(join(folder, "skills-anywhere.lock.json")));
  });
});

Deno.test("every usage line names every option of its command, --cwd included", async () => {
  for (const name of Object.keys(COMMANDS)) {
    const help = await runCli([name, "--help"]);
    equal(help.code, 0);
    const usage = help.stdout.slice(
      help.stdout.indexOf("Usage:"),
      help.stdout.indexOf("\n\n", help.stdout.indexOf("Usage:")),
    );
    for (const option of [...COMMANDS[name].options, "cwd"]) {
      ok(usage.includes(`--${option}`), `${name}: ${option} missing from ${usage}`);
    }
  }
  const docs = await Deno.readTextFile(join(ROOT, "docs/cli.md"));
  match(docs, /Usage: dsh-skills-anywhere bundle <directory> .*\[--cwd <dir>\]/);
  match(docs, /Usage: dsh-skills-anywhere sign <directory> .*\[--cwd <dir>\]/);
});

Deno.test("--version is the latest released version of CHANGELOG.md", async () => {
  const result = await runCli(["--version"]);
  equal(result.code, 0);
  const text = await Deno.readTextFile(join(ROOT, "CHANGELOG.md"));
  const released = [...text.matchAll(/^## \[(\d[^\]]*)\]/gm)].map((found) => found[1]);
  equal(released[0], VERSION);
  ok(result.stdout.includes(released[0]), result.stdout);
});

Deno.test("check --require-pinned-sources: hosts are parsed as URLs, IPv6 literals included", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "demo/SKILL.md": skillMd(
        "demo",
        "A demo skill. Use it in tests.",
        "Serve at http://[::1]:8080/x and http://[::1]/y, see HTTP://User@Example.COM:443/z.",
      ),
    });
    const result = await runCli([
      "check",
      "--require-pinned-sources",
      "--json",
      "--cwd",
      dir,
      "demo",
    ]);
    const doc = JSON.parse(result.stdout);
    const hosts = doc.files[0].report.surface.externalSources.map((s: { host: string }) => s.host);
    deepEqual(hosts, ["[::1]", "[::1]:8080", "example.com:443"]);
    equal(result.code, 0, result.stdout);
  });
});
