// `check` end to end over a real child process: passing, failing and unreadable inputs, the gates,
// the human and JSON reports, the golden JSON report and the spec profile.
import { createHash } from "node:crypto";
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { listTree, mkfifo, ROOT, runCli, withTempDir, writeTree } from "./helpers.ts";

const CLEAN =
  "---\nname: demo\ndescription: A demo skill. Use it in tests.\n---\n# Demo\n\nDo the thing.\n";
const NO_FRONTMATTER = "# Notes\n\nSummarise the notes into action items.\n";

function json(stdout: string) {
  return JSON.parse(stdout);
}

Deno.test("strict rejects a frontmatter-less SKILL.md; --lenient passes it; --fail-on-repair rejects it", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, { "notes/SKILL.md": NO_FRONTMATTER });
    const strict = await runCli(["check", "--cwd", dir, "notes/SKILL.md"]);
    equal(strict.code, 1);
    match(strict.stdout, /^FAILED "notes\/SKILL.md"\n {2}"missing YAML frontmatter"/);
    const lenient = await runCli(["check", "--lenient", "--cwd", dir, "notes/SKILL.md"]);
    equal(lenient.code, 0);
    match(lenient.stdout, /Repair: "missing YAML frontmatter; derived name and description"/);
    const profile = await runCli(["check", "--profile", "lenient", "--cwd", dir, "notes/SKILL.md"]);
    equal(profile.code, 0);
    const repair = await runCli([
      "check",
      "--lenient",
      "--fail-on-repair",
      "--cwd",
      dir,
      "notes/SKILL.md",
    ]);
    equal(repair.code, 1);
  });
});

Deno.test("invalid, missing and valid files: exit 2, counts 1/1/1, input order kept", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, { "bad/SKILL.md": "---\nname: [x\n---\n", "demo/SKILL.md": CLEAN });
    const result = await runCli([
      "check",
      "--json",
      "--cwd",
      dir,
      "bad/SKILL.md",
      "gone/SKILL.md",
      "demo/SKILL.md",
    ]);
    equal(result.code, 2);
    const report = json(result.stdout);
    equal(report.exitCode, 2);
    deepEqual(report.counts, { passed: 1, failed: 1, inputErrors: 1 });
    deepEqual(report.files.map((f: { path: string }) => f.path), [
      "bad/SKILL.md",
      "gone/SKILL.md",
      "demo/SKILL.md",
    ]);
    deepEqual(report.files.map((f: { status: string }) => f.status), [
      "failed",
      "input_error",
      "passed",
    ]);
    equal(report.files[1].error, "No such file");
    equal(report.files[1].kind, "missing");
  });
});

Deno.test("oversized, invalid UTF-8, SKILL.md-less directory and FIFO inputs are input errors (the FIFO never blocks)", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "big/SKILL.md": "---\nname: big\ndescription: big\n---\n" + "漢".repeat(350_000),
      "latin1/SKILL.md": new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xe9, 0x0a]),
    });
    await mkfifo(`${dir}/pipe.md`);
    const result = await runCli([
      "check",
      "--json",
      "--cwd",
      dir,
      "big/SKILL.md",
      "latin1/SKILL.md",
      ".",
      "pipe.md",
    ]);
    equal(result.code, 2);
    const files: { error: string; kind: string }[] = json(result.stdout).files;
    deepEqual(files.map((f) => f.kind), ["too-large", "not-utf8", "missing", "not-regular"]);
    const errors = files.map((f) => f.error);
    deepEqual(errors, [
      "Choose a SKILL.md of 1 MiB or less",
      "Input is not valid UTF-8",
      // A folder of skill folders points at them (issue 30, finding 5).
      "No SKILL.md in the directory. Did you mean ./*/SKILL.md? (it holds 2 skill folders)",
      "Choose a regular Markdown file",
    ]);
  });
});

Deno.test("a symlink named explicitly is followed to its regular file", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, { "demo/SKILL.md": CLEAN });
    await Deno.symlink(`${dir}/demo/SKILL.md`, `${dir}/link.md`);
    const result = await runCli(["check", "--json", "--cwd", dir, "link.md"]);
    equal(result.code, 0, result.stderr);
    equal(json(result.stdout).files[0].report.input.fallbackName, "link");
  });
});

Deno.test("a fallback directory name over 128 characters is an input error", async () => {
  await withTempDir(async (dir) => {
    const long = "d".repeat(129);
    await writeTree(dir, { [`${long}/SKILL.md`]: CLEAN });
    const result = await runCli(["check", "--json", "--cwd", dir, `${long}/SKILL.md`]);
    equal(result.code, 2);
    equal(json(result.stdout).files[0].error, "Use a directory name of 128 characters or less");
  });
});

Deno.test("the report never contains the body, hashes the bytes read, and writes nothing", async () => {
  await withTempDir(async (dir) => {
    const body = "SECRET-BODY-MARKER-7f3a do the private thing";
    const text = `---\nname: demo\ndescription: A demo.\n---\n# Title\n\n${body}\n`;
    await writeTree(dir, { "demo/SKILL.md": text });
    const before = await listTree(dir);
    const result = await runCli(["check", "--json", "--cwd", dir, "demo/SKILL.md"]);
    equal(result.code, 0);
    ok(!result.stdout.includes("SECRET-BODY-MARKER"));
    const expected = createHash("sha256").update(new TextEncoder().encode(text)).digest("hex");
    equal(json(result.stdout).files[0].sha256, expected);
    deepEqual(await listTree(dir), before);
  });
});

Deno.test("names and paths with terminal escape sequences are escaped in human output", async () => {
  await withTempDir(async (dir) => {
    const evil = "evil\u001b]0;owned\u0007\u009b31m";
    await writeTree(dir, {
      [`${evil}/SKILL.md`]: `---\nname: "${
        evil.replace("\u001b", "\\e").replace("\u0007", "\\a")
      }"\ndescription: x\n---\nBody\n`,
    });
    const result = await runCli(["check", "--lenient", "--cwd", dir, `${evil}/SKILL.md`]);
    equal(result.code, 0);
    ok(
      // deno-lint-ignore no-control-regex
      !/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(result.stdout),
      "raw control character reached stdout",
    );
    match(result.stdout, /evil\\u001b\]0;owned\\u0007\\u009b31m/);
  });
});

Deno.test("--require-pinned-sources lists unpinned hosts and fails; a pinned raw URL passes", async () => {
  await withTempDir(async (dir) => {
    const pinned =
      "https://raw.githubusercontent.com/o/r/0123456789abcdef0123456789abcdef01234567/run.sh";
    await writeTree(dir, {
      "pinned/SKILL.md": `---\nname: pinned\ndescription: x\n---\nRun ${pinned}.\n`,
      "loose/SKILL.md":
        `---\nname: loose\ndescription: x\n---\nRun ${pinned} and https://get.acme.dev/x.sh\n`,
    });
    const good = await runCli([
      "check",
      "--require-pinned-sources",
      "--json",
      "--cwd",
      dir,
      "pinned/SKILL.md",
    ]);
    equal(good.code, 0);
    equal(json(good.stdout).files[0].unpinnedSources, undefined);
    const bad = await runCli([
      "check",
      "--require-pinned-sources",
      "--json",
      "--cwd",
      dir,
      "loose/SKILL.md",
    ]);
    equal(bad.code, 1);
    deepEqual(json(bad.stdout).files[0].unpinnedSources, ["get.acme.dev"]);
    const human = await runCli([
      "check",
      "--require-pinned-sources",
      "--cwd",
      dir,
      "loose/SKILL.md",
    ]);
    match(human.stdout, /External source: "get.acme.dev" \(not pinned: required\), line 5/);
    match(human.stdout, /External source: "raw.githubusercontent.com" \(pinned\), line 5/);
  });
});

Deno.test("--fail-on-hidden-characters fails on U+200B, listed even when the YAML is invalid", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "zw/SKILL.md": "---\nname: zw\ndescription: x\n---\nA\u200bB\n",
      "broken/SKILL.md": "---\nname: [\u200b\n---\nx\n",
    });
    const plain = await runCli(["check", "--cwd", dir, "zw/SKILL.md"]);
    equal(plain.code, 0);
    match(plain.stdout, /Hidden characters: U\+200B ZERO WIDTH SPACE x1, line 5\n/);
    const gated = await runCli([
      "check",
      "--fail-on-hidden-characters",
      "--json",
      "--cwd",
      dir,
      "zw/SKILL.md",
      "broken/SKILL.md",
    ]);
    equal(gated.code, 1);
    const files = json(gated.stdout).files;
    equal(files[0].status, "failed");
    equal(files[1].report.surface.hiddenCharacters[0].codePoint, "U+200B");
    equal(files[1].report.strict.ok, false);
  });
});

Deno.test("--resources reports missing, outside, symlink and invalid links; --fail-on-resource-issues exits 1", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "res/SKILL.md":
        "---\nname: res\ndescription: x\n---\n[ok](scripts/a.py)\n[gone](missing.md)\n" +
        "[up](../outside.md)\n[link](linked/a.md)\n[bad](a%zz.md)\n",
      "res/scripts/a.py": "print(1)\n",
      "target/a.md": "x\n",
    });
    await Deno.symlink(`${dir}/target`, `${dir}/res/linked`);
    const result = await runCli(["check", "--resources", "--cwd", dir, "res/SKILL.md"]);
    equal(result.code, 0);
    match(result.stdout, /Local resources: 1\/5 present/);
    match(result.stdout, /Resource missing, line 6: "missing.md"/);
    match(result.stdout, /Resource outside, line 7: "..\/outside.md"/);
    match(result.stdout, /Resource symlink, line 8: "linked\/a.md"/);
    match(result.stdout, /Resource invalid, line 9: "a%zz.md"/);
    const gated = await runCli([
      "check",
      "--fail-on-resource-issues",
      "--json",
      "--cwd",
      dir,
      "res/SKILL.md",
    ]);
    equal(gated.code, 1);
    const report = json(gated.stdout);
    equal(report.resources, true);
    deepEqual(report.files[0].resources.counts, { total: 5, present: 1, issues: 4 });
  });
});

Deno.test("duplicate keys fail with a YAML reason that names the file line", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, { "dup/SKILL.md": "---\nname: dup\nname: again\ndescription: x\n---\n" });
    const result = await runCli(["check", "--lenient", "--json", "--cwd", dir, "dup/SKILL.md"]);
    equal(result.code, 1);
    const [dup] = json(result.stdout).files;
    equal(
      dup.report.lenient.reason,
      "invalid YAML frontmatter: duplicated mapping key at line 3, column 1",
    );
  });
});

Deno.test("spec profile: strict-valid but non-conformant fails; a conformant skill passes all profiles", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, { "other-dir/SKILL.md": CLEAN });
    const strict = await runCli(["check", "--cwd", dir, "other-dir/SKILL.md"]);
    equal(strict.code, 0);
    match(
      strict.stdout,
      /Spec error name-directory-mismatch: name "demo" must match its directory name "other-dir" \(line 2\)/,
    );
    const spec = await runCli([
      "check",
      "--profile",
      "spec",
      "--json",
      "--cwd",
      dir,
      "other-dir/SKILL.md",
    ]);
    equal(spec.code, 1);
    const report = json(spec.stdout);
    equal(report.profile, "spec");
    equal(report.mode, "strict");
    equal(report.files[0].report.spec.ok, false);
  });
  for (const profile of ["strict", "lenient", "spec", "reference"]) {
    const result = await runCli([
      "check",
      "--profile",
      profile,
      "testdata/check/clean-skill/SKILL.md",
    ]);
    equal(result.code, 0, `${profile}: ${result.stdout}`);
    ok(!result.stdout.includes("Spec "), "a clean skill has no findings");
  }
});

Deno.test("golden: the --json report of one mixed run is stable byte for byte", async () => {
  const args = [
    "check",
    "--json",
    "--cwd",
    `${ROOT}testdata/check`,
    "clean-skill/SKILL.md",
    "no-frontmatter/SKILL.md",
    "duplicate-keys/SKILL.md",
    "sources/SKILL.md",
    "missing/SKILL.md",
  ];
  const first = await runCli(args);
  const second = await runCli(args);
  equal(first.code, 2);
  equal(first.stdout, second.stdout);
  const golden = `${ROOT}testdata/check/golden-mixed.json`;
  if (Deno.env.get("UPDATE_GOLDEN") === "1") await Deno.writeTextFile(golden, first.stdout);
  equal(first.stdout, await Deno.readTextFile(golden));
});

Deno.test("--json output escapes DEL, C1 and bidi characters but parses to the same text", async () => {
  await withTempDir(async (dir) => {
    const description = "Reads\u009b31m files\u007f and \u202etxt.exe";
    // The parser serves a description with its hidden characters written as escapes, so the raw
    // text reaches the JSON through the strict failure reason of an invalid name.
    await writeTree(dir, {
      "c1/SKILL.md": `---\nname: "${description}"\ndescription: "${description}"\n---\nBody\n`,
    });
    const result = await runCli(["check", "--json", "--cwd", dir, "c1/SKILL.md"]);
    equal(result.code, 1);
    ok(!/[\u007f-\u009f\u202e]/.test(result.stdout), "raw control character in JSON output");
    match(result.stdout, /Reads\\u009b31m files\\u007f and \\u202etxt\.exe/);
    const report = json(result.stdout).files[0].report;
    equal(report.strict.reason, `invalid skill name "${description}"`);
    equal(report.lenient.description, "Reads\\u009b31m files\\u007f and \\u202etxt.exe");
  });
});

Deno.test("--require-pinned-sources: anthropics webapp-testing's localhost:5173 is listed with its line but passes", async () => {
  const args = ["check", "--require-pinned-sources", "--cwd", `${ROOT}testdata/check`];
  const human = await runCli([...args, "webapp-testing"]);
  equal(human.code, 0, human.stdout);
  match(
    human.stdout,
    /External source: "localhost:5173" \(loopback or reserved name: exempt from pinning\), line 59\n/,
  );
  const report = json((await runCli([...args, "--json", "webapp-testing/SKILL.md"])).stdout);
  equal(report.files[0].unpinnedSources, undefined);
  deepEqual(report.files[0].report.surface.externalSources[0].reserved, true);
});

Deno.test("--require-pinned-sources: example.com passes, a real host (claude.ai) still fails, each with its line", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "coauthor/SKILL.md": "---\nname: coauthor\ndescription: Co-author documents.\n---\n" +
        "1. Open a fresh Claude conversation: https://claude.ai\n\n```js\n" +
        'link: "https://example.com",\nfetch("http://127.0.0.1:8080/api")\n```\n',
    });
    const result = await runCli(["check", "--require-pinned-sources", "--cwd", dir, "coauthor"]);
    equal(result.code, 1);
    match(
      result.stdout,
      /"127\.0\.0\.1:8080" \(loopback or reserved name: exempt from pinning\), line 9/,
    );
    match(result.stdout, /"claude\.ai" \(not pinned: required\), line 5/);
    match(
      result.stdout,
      /"example\.com" \(loopback or reserved name: exempt from pinning\), line 8/,
    );
    const report = json(
      (await runCli(["check", "--require-pinned-sources", "--json", "--cwd", dir, "coauthor"]))
        .stdout,
    );
    deepEqual(report.files[0].unpinnedSources, ["claude.ai"]);
  });
});

Deno.test("a skill directory is checked as its SKILL.md, fallback name from the directory; human output shows the SHA-256", async () => {
  await withTempDir(async (dir) => {
    const text = "---\ndescription: Fills PDF forms.\n---\nBody\n";
    await writeTree(dir, { "skills/pdf-forms/SKILL.md": text, "empty/.keep": "" });
    const human = await runCli(["check", "--lenient", "--cwd", dir, "skills/pdf-forms/", "empty"]);
    equal(human.code, 2);
    const sha = createHash("sha256").update(text).digest("hex");
    match(
      human.stdout,
      new RegExp(`^PASSED "skills/pdf-forms/SKILL.md"\\n(?:.*\\n)*? {2}SHA-256: ${sha}\\n`),
    );
    match(human.stdout, /INPUT_ERROR "empty\/SKILL.md"\n {2}"No SKILL.md in the directory"/);
    const report = json(
      (await runCli(["check", "--json", "--lenient", "--cwd", `${dir}/skills/pdf-forms`, "."]))
        .stdout,
    );
    equal(report.files[0].path, "SKILL.md");
    equal(report.files[0].sha256, sha);
    equal(report.files[0].report.input.fallbackName, "pdf-forms");
    equal(report.files[0].report.lenient.name, "pdf-forms");
  });
});

Deno.test("--resources checks paths named in the text case-sensitively (anthropics pdf's REFERENCE.md for reference.md)", async () => {
  const args = ["check", "--resources", "--cwd", `${ROOT}testdata/check`, "pdf-case"];
  const human = await runCli(args);
  equal(human.code, 0, human.stdout);
  match(human.stdout, /Local resources: 2\/5 present\n/);
  match(
    human.stdout,
    /Resource wrong-case, line 8: "REFERENCE.md" \(named in the text; on disk: "reference.md"\)\n/,
  );
  const failing = await runCli([...args, "--fail-on-resource-issues", "--json"]);
  equal(failing.code, 1);
  const resources = json(failing.stdout).files[0].resources;
  deepEqual(resources.counts, { total: 5, present: 2, issues: 3 });
  // The fixture omits webapp-testing's examples/ folder: the prose names it, so it is missing;
  // the bare script names listed under it (`element_discovery.py`) are not references.
  const webapp = await runCli([
    "check",
    "--fail-on-resource-issues",
    "--cwd",
    `${ROOT}testdata/check`,
    "webapp-testing",
  ]);
  equal(webapp.code, 1, webapp.stdout);
  match(
    webapp.stdout,
    /Local resources: 2\/3 present\n {2}Resource missing, line 93: "examples\/" \(named in the text\)\n/,
  );
  ok(!webapp.stdout.includes("element_discovery"));
});
