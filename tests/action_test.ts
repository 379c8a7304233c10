/**
 * The GitHub Action end to end: `action.yml`'s run step under the simulated
 * runner of `action_runner.ts` (a temporary Git repository as
 * GITHUB_WORKSPACE, temp GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files),
 * which starts `scripts/action.ts` as the runner would: annotations with GitHub's
 * workflow-command escaping proven on hostile names, the summary table, the
 * outputs, a schema-valid SARIF file and the exit code; a lock and an edited
 * file give verify's difference and exit 1; `action.yml` passes exactly the
 * inputs it declares to that script.
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { fromMarkdown } from "mdast-util-from-markdown";
import { gfmFromMarkdown } from "mdast-util-gfm";
import { gfm } from "micromark-extension-gfm";
import { actionYml, runAction } from "./action_runner.ts";
import { exists, listTree, ROOT, runCli, type Sandbox, skillMd, withSandbox } from "./helpers.ts";
import { sarifErrors } from "./sarif_schema.ts";

const SCRIPT = join(ROOT, "scripts/action.ts");

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
    // Issue 28: every output of action.yml, as the runner evaluates them.
    deepEqual(result.outputs, {
      report: "skill-check.json",
      passed: "1",
      failed: "1",
      "input-errors": "0",
      "exit-code": "1",
      profile: "spec",
      verify: "",
      "sarif-file": "dsh-skills-anywhere.sarif",
    });
    const sarif = JSON.parse(await Deno.readTextFile(join(workspace, "dsh-skills-anywhere.sarif")));
    deepEqual(await sarifErrors(sarif), []);
    equal(sarif.runs[0].results.length, 1);
    match(result.summary, /^## dsh-skills-anywhere: exit 1\n\nRan `check` exit 1\.\n/);
    ok(
      result.summary.includes(
        // Issue 27 (finding 12): every string from the repository is a code span, one per line.
        "| `error` | `name-directory-mismatch` | `skills/we,ird:100%`<br>`name/SKILL.md` | 2 | " +
          '`name "clean-too" must match its directory name "we,ird:100%\\nname"` |',
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
    const clean = await runAction(box, workspace, { with: { "sarif-file": "report.sarif" } });
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
    // Issue 28: one annotation at each changed file, no longer one at SKILL.md.
    deepEqual(edited.annotations, [
      "::error file=.claude/skills/pdf/scripts/fill.py,line=1,title=dsh-skills-anywhere changed::" +
      "skill pdf: scripts/fill.py differs from the lock",
      // In a property , becomes %2C and % %25; in data % becomes %25 and , stays.
      "::error file=.claude/skills/pdf/we%2Cird 100%25 | <b>.txt,line=1," +
      "title=dsh-skills-anywhere changed::skill pdf: we,ird 100%25 | <b>.txt differs from the lock",
    ]);
    // A code span each side of the pipe, which stays an escaped pipe (issue 27, finding 12).
    const row = "| ` .claude/skills/pdf/we,ird 100%  `\\|`  <b>.txt ` | 1 | " +
      "` skill pdf: we,ird 100%  `\\|`  <b>.txt differs from the lock ` |";
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
    // Issue 28: no matching file is exit 2 unless allow-empty; with it, a notice and verify runs.
    const result = await runAction(box, workspace, {
      with: { verify: "auto", "allow-empty": "true" },
    });
    equal(result.code, 2);
    equal(result.annotations.length, 2, result.stdout);
    equal(
      result.annotations[0],
      "::notice title=dsh-skills-anywhere::no file matches files; check did not run",
    );
    match(
      result.annotations[1],
      /^::error title=dsh-skills-anywhere verify::dsh-skills-anywhere: .*not valid JSON/,
    );
    match(result.summary, /Ran `verify` exit 2\./);
    equal(result.outputs["exit-code"], "2");
  });
});

Deno.test("action.yml is composite and passes every declared input to the tested script", async () => {
  const action = await actionYml();
  equal(action.runs.using, "composite");
  equal(action.runs.steps.length, 1);
  const [step] = action.runs.steps;
  match(step.run, /"\$\{GITHUB_ACTION_PATH\}\/scripts\/action\.ts"$/);
  ok(!step.run.includes("${{"), "no expression is spliced into the shell line");
  const passed = Object.entries(step.env ?? {}).filter(([k]) => k.startsWith("INPUT_"));
  deepEqual(
    passed.map(([k, v]) => [k, v]),
    Object.keys(action.inputs).map((name) => [
      `INPUT_${name.toUpperCase().replaceAll("-", "_")}`,
      `\${{ inputs.${name} }}`,
    ]),
  );
  const script = await Deno.readTextFile(SCRIPT);
  for (const [name] of passed.filter(([k]) => k !== "INPUT_DENO_VERSION")) {
    // Read by `input("NAME", …)`, `flag("NAME", …)` or the gates table `["NAME", "--flag"]`.
    const short = name.slice("INPUT_".length);
    ok(
      [`input("${short}"`, `flag("${short}"`, `["${short}", "--`].some((s) => script.includes(s)),
      `${name} is read by the script`,
    );
  }
  for (const [name, output] of Object.entries(action.outputs)) {
    equal(output.value, `\${{ steps.${step.id}.outputs.${name} }}`);
    ok(script.includes(`setOutput("${name}"`), `${name} is written by the script`);
  }
});

// ---------------------------------------------------------------------------
// Issue 27, finding 4: the Action writes only inside the workspace, never through a link.

/** The runner's own files outside the workspace that a PR's links aim at. */
async function runnerFiles(box: Sandbox) {
  const targets = {
    bashrc: join(box.home, ".bashrc"),
    gitconfig: join(box.home, ".gitconfig"),
    // The next step's code: `<runner>/_work/_actions/<owner>/<repo>/<ref>/dist/index.js`.
    action: join(box.root, "_actions/someone/deploy/v1/dist/index.js"),
  };
  await Deno.mkdir(join(box.root, "_actions/someone/deploy/v1/dist"), { recursive: true });
  for (const path of Object.values(targets)) await Deno.writeTextFile(path, `original ${path}\n`);
  return {
    targets,
    async intact() {
      for (const path of Object.values(targets)) {
        equal(await Deno.readTextFile(path), `original ${path}\n`, `${path} was written`);
      }
    },
  };
}

/** The PR's skill: its name is what the old writer put in the file the link led to. */
const PR_SKILL = { "skills/deploy/SKILL.md": skillMd("deploy", "Deploys.", "Body.") };

Deno.test("the action refuses a SARIF file that is a link the PR committed (~/.bashrc, _actions/, ~/.gitconfig)", async () => {
  await withSandbox(async (box) => {
    const runner = await runnerFiles(box);
    for (const [name, target] of Object.entries(runner.targets)) {
      const workspace = await box.repo(`ws-${name}`, PR_SKILL, {
        "dsh-skills-anywhere.sarif": target,
      });
      const result = await runAction(box, workspace);
      equal(result.code, 2, result.stdout + result.stderr);
      await runner.intact();
      const link = join(workspace, "dsh-skills-anywhere.sarif");
      ok((await Deno.lstat(link)).isSymlink, "the link is left as it is");
      equal(await Deno.readLink(link), target);
      const refusals = result.annotations.filter((a) => a.includes("refusing to write"));
      equal(refusals.length, 1, result.stdout);
      match(
        refusals[0],
        /^::error title=dsh-skills-anywhere::refusing to write .*: it is a symbolic link$/,
      );
      equal(result.outputs["exit-code"], "2");
      match(result.summary, /^## dsh-skills-anywhere: exit 2\n/);
    }
  });
});

Deno.test("the action's sarif-file input outside the workspace (../x, absolute, a linked folder) exits 2", async () => {
  await withSandbox(async (box) => {
    const runner = await runnerFiles(box);
    const workspace = await box.repo("ws", PR_SKILL, { reports: box.home });
    const before = await listTree(box.home);
    for (
      const sarif of [
        "../escaped.sarif",
        join(box.root, "escaped.sarif"),
        "reports/escaped.sarif",
        "reports/deeper/escaped.sarif",
        "skills/../../escaped.sarif",
      ]
    ) {
      const result = await runAction(box, workspace, { with: { "sarif-file": sarif } });
      equal(result.code, 2, `${sarif}: ${result.stdout}${result.stderr}`);
      const errors = result.annotations.filter((a) => a.startsWith("::error"));
      equal(errors.length, 1, result.stdout);
      match(errors[0], /^::error title=dsh-skills-anywhere::sarif-file .*outside the workspace/);
      equal(await exists(join(box.root, "escaped.sarif")), false);
      deepEqual(await listTree(box.home), before);
      await runner.intact();
    }
    const badVerify = await runAction(box, workspace, { with: { verify: "maybe" } });
    equal(badVerify.code, 2, badVerify.stdout + badVerify.stderr);
    deepEqual(badVerify.annotations, [
      "::error title=dsh-skills-anywhere::verify must be auto, true or false (got maybe)",
    ]);
    // The runner's files are appended to only outside the workspace.
    const planted = await runAction(box, workspace, {
      env: { GITHUB_STEP_SUMMARY: join(workspace, "summary.md") },
    });
    equal(planted.code, 2, planted.stdout + planted.stderr);
    match(
      planted.annotations.join("\n"),
      /::error title=dsh-skills-anywhere::GITHUB_STEP_SUMMARY: refusing to append to .*summary\.md: it lies in the workspace/,
    );
    equal(await exists(join(workspace, "summary.md")), false);
    // Inside the workspace, absolute or relative, a new folder included: written.
    const inside = await runAction(box, workspace, {
      with: { "sarif-file": join(workspace, "out/new/report.sarif") },
    });
    equal(inside.code, 0, inside.stdout + inside.stderr);
    ok((await Deno.lstat(join(workspace, "out/new/report.sarif"))).isFile);
  });
});

// ---------------------------------------------------------------------------
// Issue 27, finding 12: nothing from input becomes live Markdown in the job summary.

/** Skill names (each quoted in a finding's message) that would be live Markdown or HTML. */
const MARKDOWN_NAMES = [
  "[link](https://evil.example/a)",
  "![image](https://evil.example/i.png)",
  "<https://evil.example/auto>",
  "https://evil.example/bare",
  "www.evil.example",
  "<img src=https://evil.example/x.png>",
  '<a href="https://evil.example">a</a>',
  "a | b | c",
  "``tick`` and ` and ```",
  "`edge",
  "[ref][1] [^1] **bold** <!-- c -->",
];
/** Folder names (each in a row's file cell and message) doing the same without a slash. */
const MARKDOWN_DIRS = ["[f](http:evil.example) www.evil.example", "<b>x <http:evil.example>"];

type MdNode = { type: string; value?: string; children?: MdNode[] };

/** Every node of a GFM (GitHub's dialect: tables, autolink literals, footnotes) tree, in order. */
function gfmNodes(markdown: string): MdNode[] {
  const tree = fromMarkdown(markdown, {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()],
  }) as MdNode;
  const out: MdNode[] = [];
  const walk = (node: MdNode) => {
    out.push(node);
    for (const child of node.children ?? []) walk(child);
  };
  walk(tree);
  return out;
}

/** What a table cell shows: its code spans' and plain text's characters, `<br>` as a line break. */
function cellText(cell: MdNode): string {
  return (cell.children ?? []).map((n) => n.type === "html" ? "\n" : n.value ?? "").join("");
}

Deno.test("the action's job summary: names, paths and messages are code spans, never links, images or HTML", async () => {
  await withSandbox(async (box) => {
    const files: Record<string, string> = {};
    MARKDOWN_NAMES.forEach((name, i) => {
      files[`skills/s${i}/SKILL.md`] = skillMd(JSON.stringify(name), "Hostile.", "Body.");
    });
    for (const dir of MARKDOWN_DIRS) files[`skills/${dir}/SKILL.md`] = skillMd("x", "D.", "B.");
    const workspace = await box.repo("ws", files);
    const result = await runAction(box, workspace);
    equal(result.code, 1, result.stdout + result.stderr);
    const nodes = gfmNodes(result.summary);
    const live = nodes.filter((n) =>
      ["link", "image", "linkReference", "imageReference", "footnoteReference", "definition"]
        .includes(n.type) || (n.type === "html" && n.value !== "<br>")
    );
    deepEqual(live, [], result.summary);
    // One table, five columns in every row, one row per result.
    const sarif = JSON.parse(await Deno.readTextFile(join(workspace, "dsh-skills-anywhere.sarif")));
    equal(nodes.filter((n) => n.type === "table").length, 1);
    equal(nodes.filter((n) => n.type === "tableRow").length, sarif.runs[0].results.length + 1);
    equal(
      nodes.filter((n) => n.type === "tableCell").length,
      5 * (sarif.runs[0].results.length + 1),
    );
    // A cell holds only code spans, escaped pipes between them and <br>; each hostile string is
    // shown whole.
    const cells = nodes.filter((n) => n.type === "tableCell").slice(5);
    for (const cell of cells) {
      for (const child of cell.children ?? []) {
        ok(
          child.type === "inlineCode" || child.type === "html" ||
            (child.type === "text" && child.value === "|") || /^\d+$/.test(child.value ?? ""),
          JSON.stringify(child),
        );
      }
    }
    const shown = cells.map(cellText);
    for (const text of [...MARKDOWN_NAMES, ...MARKDOWN_DIRS]) {
      ok(shown.some((cell) => cell.includes(text)), `${text} is shown:\n${result.summary}`);
    }
  });
});
