/**
 * End-to-end tests of `show` over real child processes in a sandbox: every
 * field, `--raw` byte for byte, `--json`, an unknown name with the closest
 * ones, a skill kept from the model shown marked, hostile text escaped, and a
 * file swapped for a link out of its project after listing refused.
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { loadCatalog } from "../lib/catalog/_load.ts";
import { resolveConfig } from "../lib/catalog/_config.ts";
import type { Io } from "../cli/io.ts";
import { showSkill } from "../cli/show.ts";
import { cliCommand, MAIN, sha, skillMd, withSandbox, writeTree } from "./helpers.ts";
import { CATALOG_BOX } from "./catalog_cli_helpers.ts";

// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

const PDF_BODY = [
  "# Filling PDF forms",
  "",
  "1. Run `python scripts/fields.py form.pdf` to list the fields.",
  "2. Write the values to `values.json`, then run `python scripts/fill.py`.",
].join("\n");

const PDF = skillMd("pdf-forms", "Fill in PDF forms and check the result.", PDF_BODY, [
  "allowed-tools: Bash(python:*) Read",
]);

Deno.test("show: name, description, origin, path, digests, tools, flags, then the instructions", async () => {
  await withSandbox(async (box) => {
    const dir = join(box.home, ".claude/skills/pdf-forms");
    await writeTree(dir, { "SKILL.md": PDF, "scripts/fill.py": "print('fill')\n" });
    const run = await box.cli("show", "pdf-forms");
    equal(run.code, 0, run.stderr);
    equal(run.stderr, "");
    const json = JSON.parse((await box.cli("show", "pdf-forms", "--json")).stdout);
    const bundle = json.bundle_sha256;
    match(bundle, /^[0-9a-f]{64}$/);
    const path = join(dir, "SKILL.md");
    equal(
      run.stdout,
      [
        "name:        pdf-forms",
        "description: Fill in PDF forms and check the result.",
        "from:        claude-code (user)",
        "path:        ~/.claude/skills/pdf-forms/SKILL.md",
        `sha256:      ${sha(PDF)}`,
        `bundle:      ${bundle} (2 files, ${new TextEncoder().encode(PDF).length + 14} bytes)`,
        "tools:       Bash(python:*), Read",
        "model:       offered to the model",
        "person:      may invoke it as /pdf-forms",
        "",
        PDF_BODY,
        "",
      ].join("\n"),
    );
    deepEqual(json, {
      name: "pdf-forms",
      description: "Fill in PDF forms and check the result.",
      from: "claude-code (user)",
      source: json.source,
      origin: { kind: "agent", agent: "claude-code", scope: "user" },
      path,
      directory: dir,
      sha256: sha(PDF),
      bundle_sha256: bundle,
      bundle_files: 2,
      bundle_bytes: new TextEncoder().encode(PDF).length + 14,
      bundle_unavailable: null,
      declared_tools: ["Bash(python:*)", "Read"],
      model_invocable: true,
      user_invocable: true,
      renamed_from: null,
      renamed_because: null,
      instructions: PDF_BODY,
    });
  }, CATALOG_BOX);
});

Deno.test("show --raw: the file's bytes exactly (BOM, CRLF, no final newline added)", async () => {
  await withSandbox(async (box) => {
    const text =
      "\ufeff---\r\nname: crlf\r\ndescription: Windows lines.\r\n---\r\nLine one.\r\nLast";
    await writeTree(box.home, { ".codex/skills/crlf/SKILL.md": text });
    // The bytes themselves: a text decoder would drop the BOM.
    const [program, ...args] = cliCommand() ?? [Deno.execPath(), "run", "-A", "--quiet", MAIN];
    const output = await new Deno.Command(program, {
      args: [...args, "show", "crlf", "--raw"],
      cwd: box.project,
      env: box.env,
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    equal(output.code, 0, new TextDecoder().decode(output.stderr));
    deepEqual(output.stdout, new TextEncoder().encode(text));
    const both = await box.cli("show", "crlf", "--raw", "--json");
    equal(both.code, 2);
    equal(both.stdout, "");
  }, CATALOG_BOX);
});

Deno.test("show: an unknown or invalid name is exit 1 with the closest names, nothing on stdout", async () => {
  await withSandbox(async (box) => {
    await writeTree(box.home, { ".claude/skills/pdf-forms/SKILL.md": PDF });
    const typo = await box.cli("show", "pdf-form");
    equal(typo.code, 1);
    equal(typo.stdout, "");
    equal(
      typo.stderr,
      'dsh-skills-anywhere: no skill named "pdf-form" (did you mean "pdf-forms"?); ' +
        'run "dsh-skills-anywhere list" to see them\n',
    );
    const invalid = await box.cli("show", "PDF Forms\u001b[2J");
    equal(invalid.code, 1);
    equal(invalid.stdout, "");
    equal(
      invalid.stderr,
      'dsh-skills-anywhere: no skill named "PDF Forms\\u001b[2J"; ' +
        'run "dsh-skills-anywhere list" to see them\n',
    );
    const none = await box.cli("show");
    equal(none.code, 2);
    match(none.stderr, /show takes one skill name \(got 0\)/);
  }, CATALOG_BOX);
});

Deno.test("show: a skill its author keeps from the model is shown, marked", async () => {
  await withSandbox(async (box) => {
    const text = skillMd("deploy", "Deploy to production.", "Run the deploy script.", [
      "disable-model-invocation: true",
    ]);
    await writeTree(box.home, { ".claude/skills/deploy/SKILL.md": text });
    const run = await box.cli("show", "deploy");
    equal(run.code, 0, run.stderr);
    match(
      run.stdout,
      /^model: +not offered to the model \(its author disabled model invocation\)$/m,
    );
    ok(run.stdout.endsWith("\nRun the deploy script.\n"));
    const json = JSON.parse((await box.cli("show", "deploy", "--json")).stdout);
    equal(json.model_invocable, false);
    equal(json.instructions, "Run the deploy script.");
  }, CATALOG_BOX);
});

Deno.test("show: hostile description, tools and instructions are escaped; --json stays exact", async () => {
  await withSandbox(async (box) => {
    const body = "Clear \u001b[2J screen\u0007 and \u202e reversed\tkept tab";
    const text = skillMd("evil", '"Red \\u001b[31m text \\u009b"', body, [
      'allowed-tools: "Bash\\u001b]0;title\\u0007"',
    ]);
    await writeTree(box.home, { ".claude/skills/evil/SKILL.md": text });
    const run = await box.cli("show", "evil");
    equal(run.code, 0, run.stderr);
    ok(!RAW_CONTROL.test(run.stdout), JSON.stringify(run.stdout));
    ok(!run.stdout.includes("\u202e"));
    match(run.stdout, /^description: Red \\u001b\[31m text \\u009b$/m);
    ok(run.stdout.includes("Clear \\u001b[2J screen\\u0007 and \\u202e reversed\tkept tab"));
    const json = JSON.parse((await box.cli("show", "evil", "--json")).stdout);
    equal(json.instructions, body);
  }, CATALOG_BOX);
});

Deno.test("show: a flat skill file has no bundle, and says why", async () => {
  await withSandbox(async (box) => {
    await writeTree(box.home, {
      ".claude/skills/flat.md": skillMd("flat", "A flat skill.", "Flat body."),
    });
    const json = JSON.parse((await box.cli("show", "flat", "--json")).stdout);
    equal(json.bundle_sha256, null);
    match(json.bundle_unavailable, /single Markdown file/);
    equal(json.instructions, "Flat body.");
    const text = await box.cli("show", "flat");
    match(text.stdout, /^bundle: +not computed: skill "flat" is a single Markdown file/m);
  }, CATALOG_BOX);
});

/** An Io that keeps what a command writes. */
function captureIo(): Io & { stdout: () => string; stderr: () => string } {
  let out = "";
  let err = "";
  return {
    out: (text) => void (out += text),
    err: (text) => void (err += text),
    errIsTty: false,
    inIsTty: false,
    outIsTty: false,
    color: false,
    errColor: false,
    stdout: () => out,
    stderr: () => err,
  };
}

Deno.test("show: a project skill swapped for a link outside the project after listing is refused", async () => {
  await withSandbox(async (box) => {
    await writeTree(box.project, {
      ".claude/skills/notes/SKILL.md": skillMd("notes", "Notes.", "Safe."),
    });
    await writeTree(box.root, { "outside/SKILL.md": skillMd("notes", "Notes.", "SECRET outside") });
    const config = resolveConfig({ sharedDirs: true, sync: false }, box.env);
    const { report } = await loadCatalog(config, { cwd: box.project });
    const skill = report.skills.find((s) => s.name === "notes");
    ok(skill !== undefined);
    const path = join(box.project, ".claude/skills/notes/SKILL.md");
    await Deno.remove(path);
    await Deno.symlink(join(box.root, "outside/SKILL.md"), path);
    for (const json of [false, true]) {
      const io = captureIo();
      equal(await showSkill(skill, { lenient: config.lenient, json }, io), 1);
      equal(io.stdout(), "");
      ok(!io.stderr().includes("SECRET"));
      match(io.stderr(), /^dsh-skills-anywhere: cannot read .*notes\/SKILL\.md: .+\n$/);
    }
  }, CATALOG_BOX);
});

Deno.test("show: a rename the project's lock caused is marked as list marks it, and --json says renamed_because", async () => {
  await withSandbox(async (box) => {
    const repo = await box.repo("team", {
      "skills/pdf/SKILL.md": skillMd("pdf", "The team's PDF skill.", "Body."),
    });
    equal((await box.cli("add", repo, "--project")).code, 0);
    equal((await box.cli("trust", "--yes")).code, 0);
    equal((await box.cli("sync")).code, 0);
    const locked = await box.cli("lock");
    equal(locked.code, 0, locked.stderr);
    // A teammate's personal pdf would outrank the Git source without the lock.
    await writeTree(box.home, {
      ".claude/skills/pdf/SKILL.md": skillMd("pdf", "A teammate's PDF skill.", "Body."),
    });
    const listed = JSON.parse((await box.cli("list", "--json")).stdout).skills;
    const mine = listed.find((s: { renamed_from: string | null }) => s.renamed_from === "pdf");
    equal(mine.renamed_because, "locked");
    const json = await box.cli("show", mine.name, "--json");
    equal(json.code, 0, json.stderr);
    const doc = JSON.parse(json.stdout);
    equal(doc.renamed_from, "pdf");
    equal(doc.renamed_because, mine.renamed_because);
    const human = await box.cli("show", mine.name);
    equal(human.code, 0, human.stderr);
    const row = human.stdout.split("\n").filter((l) => l.startsWith("renamed from:"));
    deepEqual(row, [
      `renamed from: pdf: locked (the project's lock keeps the name "pdf" for another skill)`,
    ]);
    match(
      (await box.cli("list")).stdout,
      new RegExp(`${mine.name} \\(renamed from pdf: locked\\)`),
    );
    // The project's own pdf is not renamed.
    const own = JSON.parse((await box.cli("show", "pdf", "--json")).stdout);
    equal(own.origin.kind, "source");
    equal(own.renamed_because, null);
  });
});
