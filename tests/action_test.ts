/**
 * The GitHub Action end to end: `scripts/action.ts` as a child process under
 * a simulated runner (a temporary Git repository as GITHUB_WORKSPACE, temp
 * GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files): annotations with GitHub's
 * workflow-command escaping proven on hostile names, the summary table, the
 * outputs, a schema-valid SARIF file and the exit code; a lock and an edited
 * file give verify's difference and exit 1; `action.yml` passes exactly the
 * inputs it declares to that script.
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { load as loadYaml } from "js-yaml";
import { ROOT, run, runCli, type Sandbox, skillMd, withSandbox } from "./helpers.ts";
import { sarifErrors } from "./sarif_schema.ts";

const SCRIPT = join(ROOT, "scripts/action.ts");

/** Runs the action's script in `workspace` as a runner would; returns what it wrote. */
async function runAction(box: Sandbox, workspace: string, inputs: Record<string, string> = {}) {
  const output = join(box.root, "github_output");
  const summary = join(box.root, "step_summary");
  await Deno.writeTextFile(output, "");
  await Deno.writeTextFile(summary, "");
  const result = await run(Deno.execPath(), ["run", "-A", "--quiet", SCRIPT], {
    cwd: workspace,
    env: {
      ...box.env,
      NO_COLOR: "1",
      GITHUB_WORKSPACE: workspace,
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      ...inputs,
    },
    clearEnv: true,
  });
  return {
    ...result,
    annotations: result.stdout.split("\n").filter((l) => l.startsWith("::")),
    outputs: parseOutputs(await Deno.readTextFile(output)),
    summary: await Deno.readTextFile(summary),
  };
}

/** GITHUB_OUTPUT's `name<<delimiter` blocks as a record. */
function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const blocks = text.matchAll(/^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2\n/gm);
  for (const [, name, , value] of blocks) outputs[name] = value;
  return outputs;
}

const HOSTILE_DIR = "we,ird:100%\nname";
/** GitHub's escaping of a property value, written out by hand for the name above. */
/** A file name a bundle accepts, with what workflow commands and Markdown tables treat specially. */
const HOSTILE_DATA = "we,ird 100% | <b>.txt";
const HOSTILE_FILE = "skills/we%2Cird%3A100%25%0Aname/SKILL.md";

Deno.test("the action annotates with escaped properties and data, summarises, writes SARIF and outputs", async () => {
  await withSandbox(async (box) => {
    const workspace = await box.repo("ws", {
      "skills/clean/SKILL.md": skillMd("clean", "A clean skill.", "Body."),
      [`skills/${HOSTILE_DIR}/SKILL.md`]: skillMd(
        "clean-too",
        '"Odd: 100%, a::b\\nnext line | <b>x</b>"',
        "Body.",
      ),
    });
    const result = await runAction(box, workspace);
    equal(result.code, 1, result.stderr);
    deepEqual(result.annotations, [
      `::error file=${HOSTILE_FILE},line=2,title=dsh-skills-anywhere name-directory-mismatch::` +
      'name "clean-too" must match its directory name "we,ird:100%25\\nname"',
    ]);
    deepEqual(result.outputs, { "exit-code": "1", "sarif-file": "dsh-skills-anywhere.sarif" });
    const sarif = JSON.parse(await Deno.readTextFile(join(workspace, "dsh-skills-anywhere.sarif")));
    deepEqual(await sarifErrors(sarif), []);
    equal(sarif.runs[0].results.length, 1);
    match(result.summary, /^## dsh-skills-anywhere: exit 1\n\nRan `check` exit 1\.\n/);
    ok(
      result.summary.includes(
        "| error | name-directory-mismatch | skills/we,ird:100%<br>name/SKILL.md | 2 | " +
          'name "clean-too" must match its directory name "we,ird:100%\\nname" |',
      ),
      result.summary,
    );
  });
});

Deno.test("the action verifies an existing lock: an edited script is annotated and exits 1", async () => {
  await withSandbox(async (box) => {
    const workspace = await box.repo("ws", {
      ".claude/skills/pdf/SKILL.md": skillMd("pdf", "Fill PDF forms.", "Run the script."),
      ".claude/skills/pdf/scripts/fill.py": "print('fill')\n",
      [`.claude/skills/pdf/${HOSTILE_DATA}`]: "notes\n",
    });
    const env = { ...box.env };
    equal((await runCli(["lock"], { cwd: workspace, env, clearEnv: true })).code, 0);
    const clean = await runAction(box, workspace, { INPUT_SARIF_FILE: "report.sarif" });
    equal(clean.code, 0, clean.stdout + clean.stderr);
    deepEqual(clean.annotations, []);
    equal(clean.outputs["sarif-file"], "report.sarif");
    deepEqual(
      await sarifErrors(JSON.parse(await Deno.readTextFile(join(workspace, "report.sarif")))),
      [],
    );
    match(clean.summary, /Ran `check` exit 0, `verify` exit 0\.\n\nNo findings\.\n$/);
    await Deno.writeTextFile(join(workspace, ".claude/skills/pdf/scripts/fill.py"), "rm -rf /\n");
    await Deno.writeTextFile(join(workspace, `.claude/skills/pdf/${HOSTILE_DATA}`), "edited\n");
    const edited = await runAction(box, workspace);
    equal(edited.code, 1, edited.stdout + edited.stderr + edited.summary);
    deepEqual(edited.annotations, [
      "::error file=.claude/skills/pdf/SKILL.md,line=1,title=dsh-skills-anywhere changed::" +
      // In data % becomes %25 and , stays (a bundle refuses a colon or line break in a name).
      "skill pdf: its files differ from the lock (changed scripts/fill.py, " +
      "changed we,ird 100%25 | <b>.txt)",
    ]);
    const row = "(changed scripts/fill.py, changed we,ird 100% &#124; &lt;b&gt;.txt) |";
    ok(edited.summary.includes(row), edited.summary);
    equal(edited.outputs["exit-code"], "1");
    const sarif = JSON.parse(await Deno.readTextFile(join(workspace, "dsh-skills-anywhere.sarif")));
    deepEqual(await sarifErrors(sarif), []);
    deepEqual(sarif.runs[0].tool.driver.rules.map((r: { id: string }) => r.id), ["changed"]);
  });
});

Deno.test("the action with no SKILL.md and an invalid lock reports verify's one line and exits 2", async () => {
  await withSandbox(async (box) => {
    const workspace = await box.repo("ws", { "skills-anywhere.lock.json": "{not json" });
    const result = await runAction(box, workspace, { INPUT_VERIFY: "auto" });
    equal(result.code, 2);
    equal(result.annotations.length, 1, result.stdout);
    match(
      result.annotations[0],
      /^::error title=dsh-skills-anywhere verify::dsh-skills-anywhere: .*not valid JSON/,
    );
    match(result.summary, /Ran `verify` exit 2\./);
    equal(result.outputs["exit-code"], "2");
  });
});

interface ActionYml {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: { id?: string; run: string; env: Record<string, string> }[] };
}

Deno.test("action.yml is composite and passes every declared input to the tested script", async () => {
  const action = loadYaml(await Deno.readTextFile(join(ROOT, "action.yml"))) as ActionYml;
  equal(action.runs.using, "composite");
  equal(action.runs.steps.length, 1);
  const [step] = action.runs.steps;
  match(step.run, /"\$\{GITHUB_ACTION_PATH\}\/scripts\/action\.ts"$/);
  ok(!step.run.includes("${{"), "no expression is spliced into the shell line");
  const passed = Object.entries(step.env).filter(([k]) => k.startsWith("INPUT_"));
  deepEqual(
    passed.map(([k, v]) => [k, v]),
    Object.keys(action.inputs).map((name) => [
      `INPUT_${name.toUpperCase().replaceAll("-", "_")}`,
      `\${{ inputs.${name} }}`,
    ]),
  );
  const script = await Deno.readTextFile(SCRIPT);
  for (const [name] of passed.filter(([k]) => k !== "INPUT_DENO_VERSION")) {
    ok(script.includes(`input("${name.slice("INPUT_".length)}"`), `${name} is read by the script`);
  }
  for (const [name, output] of Object.entries(action.outputs)) {
    equal(output.value, `\${{ steps.${step.id}.outputs.${name} }}`);
    ok(script.includes(`setOutput("${name}"`), `${name} is written by the script`);
  }
});
