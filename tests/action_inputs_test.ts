/**
 * The Action's interface (issue 28): a superset of the original action's (0.14/0.15). Each input
 * and each output has its own test, every one through `action.yml` as the runner runs it (the
 * shared simulated runner of `action_runner.ts`: the step's `run:` under bash, the inputs
 * substituted into its `env:`, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, a temporary Git repository as
 * the workspace). A gate that is on and finds something fails the step with an error annotation
 * at the file and line; no matching file without `allow-empty` exits 2; a boolean input takes
 * exactly the original's strings. `sarif-file` is tested in `action_test.ts` (written where
 * asked, inside the workspace only, never through a link).
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { type ActionRun, runAction } from "./action_runner.ts";
import { exists, runCli, type Sandbox, skillMd, withSandbox, writeTree } from "./helpers.ts";
import { sarifErrors } from "./sarif_schema.ts";

/** The `::error`/`::warning`/`::notice` lines of a run, without the ones naming no file. */
function located(run: ActionRun): string[] {
  return run.annotations.filter((a) => / file=/.test(a));
}

/** The annotations of `rule` (its title), or all with a file when none is given. */
function annotationsOf(run: ActionRun, rule: string): string[] {
  return run.annotations.filter((a) => a.includes(`title=dsh-skills-anywhere ${rule}::`));
}

/** The input-error annotations (no file, the tool's own title). */
function inputErrors(run: ActionRun): string[] {
  return run.annotations.filter((a) => a.startsWith("::error title=dsh-skills-anywhere::"));
}

/** check's JSON report as the action wrote it. */
async function report(workspace: string, file = "skill-check.json") {
  return JSON.parse(await Deno.readTextFile(join(workspace, file)));
}

const CLEAN = skillMd("clean", "A clean skill.", "Body.");
/** A SKILL.md without frontmatter: strict rejects it, lenient repairs it. */
const NO_FRONTMATTER = "# Notes\n\nTake notes in Markdown.\n";

async function workspaceWith(box: Sandbox, files: Record<string, string>, name = "ws") {
  return await box.repo(name, files);
}

Deno.test("input files: newline-separated pathspecs, # and blank lines ignored, plain lines globbed, : lines as they are, untracked but not ignored", async () => {
  await withSandbox(async (box) => {
    const workspace = await workspaceWith(box, {
      "skills/a/SKILL.md": CLEAN.replace("clean", "a"),
      "other/b/SKILL.md": CLEAN.replace("clean", "b"),
      "deep/x/y/c/SKILL.md": CLEAN.replace("clean", "c"),
      ".gitignore": "ignored/\n",
    });
    await writeTree(workspace, {
      "skills/new/SKILL.md": CLEAN.replace("clean", "new"),
      "ignored/d/SKILL.md": CLEAN.replace("clean", "d"),
    });
    const all = await runAction(box, workspace);
    equal(all.code, 0, all.stdout + all.stderr);
    deepEqual((await report(workspace)).files.map((f: { path: string }) => f.path), [
      "deep/x/y/c/SKILL.md",
      "other/b/SKILL.md",
      "skills/a/SKILL.md",
      "skills/new/SKILL.md",
    ]);
    const some = await runAction(box, workspace, {
      with: {
        files:
          "# only these\n\nskills/*/SKILL.md\n  \n:(glob)deep/**/SKILL.md\n:(exclude)skills/new\n",
      },
    });
    equal(some.code, 0, some.stdout + some.stderr);
    deepEqual((await report(workspace)).files.map((f: { path: string }) => f.path), [
      "deep/x/y/c/SKILL.md",
      "skills/a/SKILL.md",
    ]);
    const comments = await runAction(box, workspace, { with: { files: "# nothing\n\n" } });
    equal(comments.code, 2);
    deepEqual(inputErrors(comments), [
      "::error title=dsh-skills-anywhere::files holds no pathspec: every line is blank or a comment",
    ]);
    const bad = await runAction(box, workspace, { with: { files: ":(nonsense)x" } });
    equal(bad.code, 2);
    match(inputErrors(bad).join("\n"), /files: git ls-files refused the pathspecs: /);
  });
});

Deno.test("input files: a matched file the pull request committed as a link out of the workspace is never read", async () => {
  await withSandbox(async (box) => {
    const secret = join(box.home, ".aws/credentials");
    await Deno.mkdir(join(box.home, ".aws"));
    await Deno.writeTextFile(secret, "# Keys\n\nAKIAEXAMPLESECRET is the runner's key.\n");
    const workspace = await box.repo("ws", { "skills/clean/SKILL.md": CLEAN }, {
      "skills/leak/SKILL.md": secret,
      "skills/inside/SKILL.md": "../clean/SKILL.md",
    });
    const result = await runAction(box, workspace, { with: { lenient: "true" } });
    equal(result.code, 2, result.stdout + result.stderr);
    deepEqual(result.annotations.filter((a) => a.includes("input-error")), [
      "::error file=skills/leak/SKILL.md,title=dsh-skills-anywhere input-error::" +
      "skills/leak/SKILL.md is a link that leads outside the workspace; not checked",
    ]);
    const written = await report(workspace);
    // A link inside the workspace is checked as the file it leads to.
    deepEqual(written.files.map((f: { path: string }) => f.path), [
      "skills/clean/SKILL.md",
      "skills/inside/SKILL.md",
    ]);
    const sarif = await Deno.readTextFile(join(workspace, "dsh-skills-anywhere.sarif"));
    for (
      const text of [result.stdout, result.stderr, result.summary, JSON.stringify(written), sarif]
    ) {
      ok(!text.includes("AKIAEXAMPLESECRET"), text);
    }
  });
});

Deno.test("input path: the files lines match below it; a path leaving the workspace exits 2", async () => {
  await withSandbox(async (box) => {
    const workspace = await workspaceWith(box, {
      "skills/a/SKILL.md": CLEAN.replace("clean", "a"),
      "other/b/SKILL.md": CLEAN.replace("clean", "b"),
      "sk*/c/SKILL.md": CLEAN.replace("clean", "c"),
    });
    const below = await runAction(box, workspace, { with: { path: "skills" } });
    equal(below.code, 0, below.stdout + below.stderr);
    deepEqual((await report(workspace)).files.map((f: { path: string }) => f.path), [
      "skills/a/SKILL.md",
    ]);
    // A folder name is matched as it is, never as a glob.
    const starred = await runAction(box, workspace, { with: { path: "sk*" } });
    equal(starred.code, 0, starred.stdout + starred.stderr);
    deepEqual((await report(workspace)).files.map((f: { path: string }) => f.path), [
      "sk*/c/SKILL.md",
    ]);
    const outside = await runAction(box, workspace, { with: { path: "../elsewhere" } });
    equal(outside.code, 2);
    deepEqual(inputErrors(outside), [
      "::error title=dsh-skills-anywhere::path ../elsewhere is outside the workspace",
    ]);
  });
});

Deno.test("input profile: spec by default, strict ignores the specification, an unknown one exits 2", async () => {
  await withSandbox(async (box) => {
    const workspace = await workspaceWith(box, {
      "skills/mismatch/SKILL.md": skillMd("other-name", "A skill.", "Body."),
    });
    const spec = await runAction(box, workspace);
    equal(spec.code, 1, spec.stdout + spec.stderr);
    equal(annotationsOf(spec, "name-directory-mismatch").length, 1);
    const strict = await runAction(box, workspace, { with: { profile: "strict" } });
    equal(strict.code, 0, strict.stdout + strict.stderr);
    equal((await report(workspace)).profile, "strict");
    const unknown = await runAction(box, workspace, { with: { profile: "loose" } });
    equal(unknown.code, 2);
    deepEqual(inputErrors(unknown), [
      "::error title=dsh-skills-anywhere::profile must be strict, lenient, spec or reference (got loose)",
    ]);
  });
});

Deno.test("input lenient: the lenient parser repairs what strict rejects; not beside another profile; exact boolean strings", async () => {
  await withSandbox(async (box) => {
    const workspace = await workspaceWith(box, { "notes/SKILL.md": NO_FRONTMATTER });
    const strict = await runAction(box, workspace);
    equal(strict.code, 1, strict.stdout + strict.stderr);
    match(
      annotationsOf(strict, "parse")[0],
      /^::error file=notes\/SKILL\.md,line=1,title=dsh-skills-anywhere parse::missing YAML frontmatter/,
    );
    for (const value of ["true", "True", "TRUE"]) {
      const lenient = await runAction(box, workspace, { with: { lenient: value } });
      equal(lenient.code, 0, lenient.stdout + lenient.stderr);
      equal((await report(workspace)).mode, "lenient");
      match(annotationsOf(lenient, "repair")[0], /^::warning file=notes\/SKILL\.md,line=1,/);
    }
    const both = await runAction(box, workspace, { with: { lenient: "true", profile: "spec" } });
    equal(both.code, 2);
    deepEqual(inputErrors(both), [
      "::error title=dsh-skills-anywhere::lenient cannot be combined with profile spec",
    ]);
    const bad = await runAction(box, workspace, { with: { lenient: "yes" } });
    equal(bad.code, 2);
    deepEqual(inputErrors(bad), [
      '::error title=dsh-skills-anywhere::lenient must be true or false (got "yes")',
    ]);
  });
});

Deno.test("input fail-on-repair: a repaired file fails the step with an error at its line", async () => {
  await withSandbox(async (box) => {
    const workspace = await workspaceWith(box, { "notes/SKILL.md": NO_FRONTMATTER });
    const gated = await runAction(box, workspace, {
      with: { lenient: "true", "fail-on-repair": "true" },
    });
    equal(gated.code, 1, gated.stdout + gated.stderr);
    match(
      annotationsOf(gated, "repair")[0],
      /^::error file=notes\/SKILL\.md,line=1,title=dsh-skills-anywhere repair::repaired: /,
    );
    equal((await report(workspace)).failOnRepair, true);
    equal(gated.outputs.failed, "1");
  });
});

/** A skill whose body (line 6) names an unpinned external source. */
const UNPINNED = skillMd("cdn", "Uses a CDN.", "Intro.\nSee https://cdn.jsdelivr.net/npm/x");

Deno.test("input require-pinned-sources: an unpinned source is a warning, and with the gate an error at its line", async () => {
  await withSandbox(async (box) => {
    const workspace = await workspaceWith(box, { "skills/cdn/SKILL.md": UNPINNED });
    const off = await runAction(box, workspace);
    equal(off.code, 0, off.stdout + off.stderr);
    match(
      annotationsOf(off, "unpinned-source")[0],
      /^::warning file=skills\/cdn\/SKILL\.md,line=6,/,
    );
    const on = await runAction(box, workspace, { with: { "require-pinned-sources": "true" } });
    equal(on.code, 1, on.stdout + on.stderr);
    match(annotationsOf(on, "unpinned-source")[0], /^::error file=skills\/cdn\/SKILL\.md,line=6,/);
    deepEqual((await report(workspace)).files[0].unpinnedSources, ["cdn.jsdelivr.net"]);
  });
});

Deno.test("input fail-on-hidden-characters: a zero-width space fails the step with an error at its line", async () => {
  await withSandbox(async (box) => {
    const workspace = await workspaceWith(box, {
      "skills/zw/SKILL.md": skillMd("zw", "Hidden.", "Line one.\nA\u200bB"),
    });
    // The issue's complaint: without the gate a warning, exit 0.
    const off = await runAction(box, workspace);
    equal(off.code, 0, off.stdout + off.stderr);
    match(
      annotationsOf(off, "hidden-characters")[0],
      /^::warning file=skills\/zw\/SKILL\.md,line=6,/,
    );
    const on = await runAction(box, workspace, { with: { "fail-on-hidden-characters": "true" } });
    equal(on.code, 1, on.stdout + on.stderr);
    deepEqual(annotationsOf(on, "hidden-characters"), [
      "::error file=skills/zw/SKILL.md,line=6,title=dsh-skills-anywhere hidden-characters::" +
      "hidden character U+200B ZERO WIDTH SPACE",
    ]);
    equal(on.outputs["exit-code"], "1");
  });
});

/** A skill linking (line 6) to a file it does not hold. */
const MISSING_LINK = skillMd("res", "Links.", "Intro.\nSee [the form](forms/missing.md).");

Deno.test("input resources: local links are checked and a missing one is a warning at its line", async () => {
  await withSandbox(async (box) => {
    const workspace = await workspaceWith(box, { "skills/res/SKILL.md": MISSING_LINK });
    const off = await runAction(box, workspace);
    equal(off.code, 0, off.stdout + off.stderr);
    deepEqual(annotationsOf(off, "resource-issue"), []);
    const on = await runAction(box, workspace, { with: { resources: "true" } });
    equal(on.code, 0, on.stdout + on.stderr);
    deepEqual(annotationsOf(on, "resource-issue"), [
      "::warning file=skills/res/SKILL.md,line=6,title=dsh-skills-anywhere resource-issue::" +
      "local resource missing: forms/missing.md",
    ]);
    equal((await report(workspace)).resources, true);
  });
});

Deno.test("input fail-on-resource-issues: a missing local resource fails the step with an error at its line", async () => {
  await withSandbox(async (box) => {
    const workspace = await workspaceWith(box, { "skills/res/SKILL.md": MISSING_LINK });
    const on = await runAction(box, workspace, { with: { "fail-on-resource-issues": "true" } });
    equal(on.code, 1, on.stdout + on.stderr);
    match(annotationsOf(on, "resource-issue")[0], /^::error file=skills\/res\/SKILL\.md,line=6,/);
    const written = await report(workspace);
    equal(written.failOnResourceIssues, true);
    equal(written.resources, true, "the gate implies resources");
  });
});

Deno.test("input allow-empty: no matching file exits 2 with an error, or passes with a notice; boolean strings exactly as the original", async () => {
  await withSandbox(async (box) => {
    const workspace = await workspaceWith(box, { "README.md": "No skills here.\n" });
    for (const value of ["", "false", "False", "FALSE"]) {
      const empty = await runAction(box, workspace, { with: { "allow-empty": value } });
      equal(empty.code, 2, `${JSON.stringify(value)}: ${empty.stdout}`);
      deepEqual(inputErrors(empty), [
        "::error title=dsh-skills-anywhere::no file matches files (set allow-empty to pass without one)",
      ]);
      equal(empty.outputs["exit-code"], "2");
    }
    for (const value of ["true", "True", "TRUE"]) {
      const allowed = await runAction(box, workspace, { with: { "allow-empty": value } });
      equal(allowed.code, 0, `${value}: ${allowed.stdout}`);
      deepEqual(allowed.annotations, [
        "::notice title=dsh-skills-anywhere::no file matches files; check did not run",
      ]);
      equal(await exists(join(workspace, "skill-check.json")), false, "no report without check");
      equal(allowed.outputs.report, "");
    }
    for (const value of ["yes", "1", "on", " true", "true\n", "tRUE"]) {
      const bad = await runAction(box, workspace, { with: { "allow-empty": value } });
      equal(bad.code, 2, `${JSON.stringify(value)}: ${bad.stdout}`);
      deepEqual(inputErrors(bad), [
        `::error title=dsh-skills-anywhere::allow-empty must be true or false (got ${
          JSON.stringify(value).replaceAll("%", "%25")
        })`,
      ]);
    }
  });
});

Deno.test("input report: check's JSON report where asked, only inside the workspace and never through a link", async () => {
  await withSandbox(async (box) => {
    const workspace = await workspaceWith(box, { "skills/clean/SKILL.md": CLEAN });
    const first = await runAction(box, workspace);
    equal(first.code, 0, first.stdout + first.stderr);
    const written = await report(workspace);
    equal(written.schema, "skills-anywhere-file-check-1");
    deepEqual(written.counts, { passed: 1, failed: 0, inputErrors: 0 });
    const elsewhere = await runAction(box, workspace, { with: { report: "out/checks/r.json" } });
    equal(elsewhere.code, 0, elsewhere.stdout + elsewhere.stderr);
    deepEqual(await report(workspace, "out/checks/r.json"), written);
    equal(elsewhere.outputs.report, "out/checks/r.json");
    const outside = await runAction(box, workspace, { with: { report: "../r.json" } });
    equal(outside.code, 2);
    deepEqual(inputErrors(outside), [
      "::error title=dsh-skills-anywhere::report ../r.json is outside the workspace",
    ]);
    equal(await exists(join(box.root, "r.json")), false);
    const same = await runAction(box, workspace, {
      with: { report: "x.sarif", "sarif-file": "x.sarif" },
    });
    equal(same.code, 2);
    deepEqual(inputErrors(same), [
      "::error title=dsh-skills-anywhere::report and sarif-file name the same file (x.sarif)",
    ]);
    // A report path the pull request committed as a link to the runner's files is refused.
    const bashrc = join(box.home, ".bashrc");
    await Deno.writeTextFile(bashrc, "original\n");
    const linked = await box.repo("ws-linked", { "skills/clean/SKILL.md": CLEAN }, {
      "skill-check.json": bashrc,
    });
    const refused = await runAction(box, linked);
    equal(refused.code, 2, refused.stdout + refused.stderr);
    equal(await Deno.readTextFile(bashrc), "original\n");
    match(
      inputErrors(refused).join("\n"),
      /refusing to write .*skill-check\.json: it is a symbolic link/,
    );
    equal(refused.outputs.report, "");
  });
});

Deno.test("input verify: auto runs it when a lock exists, false never, true without a lock exits 2", async () => {
  await withSandbox(async (box) => {
    const workspace = await workspaceWith(box, {
      ".claude/skills/pdf/SKILL.md": skillMd("pdf", "Fill PDF forms.", "Run the script."),
      ".claude/skills/pdf/scripts/fill.py": "print('fill')\n",
    });
    const unlocked = await runAction(box, workspace, { with: { verify: "true" } });
    equal(unlocked.code, 2, unlocked.stdout + unlocked.stderr);
    equal(unlocked.outputs.verify, "2");
    equal((await runCli(["lock"], { cwd: workspace, env: box.env, clearEnv: true })).code, 0);
    await Deno.writeTextFile(join(workspace, ".claude/skills/pdf/scripts/fill.py"), "rm -rf /\n");
    const auto = await runAction(box, workspace);
    equal(auto.code, 1, auto.stdout + auto.stderr);
    equal(annotationsOf(auto, "changed").length, 1, auto.stdout);
    const off = await runAction(box, workspace, { with: { verify: "false" } });
    equal(off.code, 0, off.stdout + off.stderr);
    deepEqual(annotationsOf(off, "changed"), []);
  });
});

Deno.test("input deno-version: the run step's npx runs that Deno; one npm refuses fails the step", async () => {
  await withSandbox(async (box) => {
    const workspace = await workspaceWith(box, { "skills/clean/SKILL.md": CLEAN });
    const pinned = await runAction(box, workspace, { with: { "deno-version": "2.9.6" } });
    equal(pinned.code, 0, pinned.stdout + pinned.stderr);
    match(pinned.stdout, /\(Deno 2\.9\.6\)\n$/);
    const refused = await runAction(box, workspace, { with: { "deno-version": "not a version" } });
    ok(refused.code !== 0, refused.stdout);
    match(refused.stderr, /Invalid tag name "not a version"/);
    equal(refused.outputs["exit-code"], "", "the script never ran");
  });
});

// ---------------------------------------------------------------------------
// Outputs

/** A workspace with a passing file, a failing one and a lock the skill still matches. */
async function mixed(box: Sandbox) {
  const workspace = await workspaceWith(box, {
    "skills/clean/SKILL.md": CLEAN,
    "skills/mismatch/SKILL.md": skillMd("other-name", "A skill.", "Body."),
  });
  return workspace;
}

Deno.test("output report: the path of the JSON report written", async () => {
  await withSandbox(async (box) => {
    const workspace = await mixed(box);
    const result = await runAction(box, workspace, { with: { report: "reports/check.json" } });
    equal(result.outputs.report, "reports/check.json");
    ok((await Deno.lstat(join(workspace, result.outputs.report))).isFile);
  });
});

Deno.test("outputs passed, failed and input-errors: the report's counts", async () => {
  await withSandbox(async (box) => {
    const workspace = await mixed(box);
    const result = await runAction(box, workspace, {
      with: { files: "skills/*/SKILL.md\n:(literal)skills/gone/SKILL.md" },
    });
    // A pathspec naming a missing file matches nothing; a tracked file deleted from the
    // checkout is matched and unreadable: an input error.
    equal(result.code, 1, result.stdout + result.stderr);
    deepEqual([result.outputs.passed, result.outputs.failed, result.outputs["input-errors"]], [
      "1",
      "1",
      "0",
    ]);
    await Deno.remove(join(workspace, "skills/clean/SKILL.md"));
    const deleted = await runAction(box, workspace);
    equal(deleted.code, 2, deleted.stdout + deleted.stderr);
    deepEqual(
      [deleted.outputs.passed, deleted.outputs.failed, deleted.outputs["input-errors"]],
      ["0", "1", "1"],
    );
    deepEqual((await report(workspace)).counts, { passed: 0, failed: 1, inputErrors: 1 });
  });
});

Deno.test("output exit-code: 0 clean, 1 a finding, 2 an input error, as the step's own", async () => {
  await withSandbox(async (box) => {
    const workspace = await mixed(box);
    const clean = await runAction(box, workspace, { with: { path: "skills/clean" } });
    const finding = await runAction(box, workspace);
    const input = await runAction(box, workspace, { with: { verify: "sometimes" } });
    deepEqual([clean, finding, input].map((r) => [r.code, r.outputs["exit-code"]]), [
      [0, "0"],
      [1, "1"],
      [2, "2"],
    ]);
  });
});

Deno.test("output profile: the profile check used (spec, lenient from lenient, or as given)", async () => {
  await withSandbox(async (box) => {
    const workspace = await mixed(box);
    const given: Record<string, string>[] = [{}, { lenient: "true" }, { profile: "reference" }];
    const profiles = [];
    for (const inputs of given) {
      profiles.push((await runAction(box, workspace, { with: inputs })).outputs.profile);
    }
    deepEqual(profiles, ["spec", "lenient", "reference"]);
  });
});

Deno.test("output verify: verify's exit code, empty when it did not run", async () => {
  await withSandbox(async (box) => {
    const workspace = await workspaceWith(box, {
      ".claude/skills/pdf/SKILL.md": skillMd("pdf", "Fill PDF forms.", "Body."),
    });
    equal((await runAction(box, workspace)).outputs.verify, "");
    equal((await runCli(["lock"], { cwd: workspace, env: box.env, clearEnv: true })).code, 0);
    equal((await runAction(box, workspace)).outputs.verify, "0");
    await writeTree(workspace, { ".claude/skills/pdf/extra.txt": "added\n" });
    const differs = await runAction(box, workspace);
    equal(differs.outputs.verify, "1");
    equal(differs.code, 1);
  });
});

Deno.test("output sarif-file: the SARIF file written, schema-valid, with check's and verify's results", async () => {
  await withSandbox(async (box) => {
    const workspace = await mixed(box);
    const result = await runAction(box, workspace, { with: { "sarif-file": "out/skills.sarif" } });
    equal(result.outputs["sarif-file"], "out/skills.sarif");
    const log = JSON.parse(await Deno.readTextFile(join(workspace, "out/skills.sarif")));
    deepEqual(await sarifErrors(log), []);
    deepEqual(located(result).length, log.runs[0].results.length);
  });
});
