/**
 * Human output on a terminal and in a pipe, through the real CLI: a pseudo-terminal from
 * util-linux `script` (with `stty cols` for the width) for fitted descriptions, colour and the
 * `mcp` note; plain pipes for whole descriptions and `FORCE_COLOR`. Hostile names and descriptions
 * (escape sequences) stay escaped under colour and truncation, and `--json` is never coloured.
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import {
  cliCommand,
  MAIN,
  run,
  runCli,
  type Sandbox,
  withSandbox,
  withTempDir,
  writeTree,
} from "./helpers.ts";
import { CATALOG_BOX, skill } from "./catalog_cli_helpers.ts";
import { join } from "node:path";

/** The SGR sequences the CLI's styles write (bold, dim, their reset; green, red, yellow, reset). */
// deno-lint-ignore no-control-regex
const OUR_SGR = /\u001b\[(?:1|2|22|31|32|33|39)m/g;
/** `text` as the CLI's styles write it. */
const sgr = (open: number, close: number) => (text: string) =>
  `\u001b[${open}m${text}\u001b[${close}m`;
const [dim, green, red, yellow] = [sgr(2, 22), sgr(32, 39), sgr(31, 39), sgr(33, 39)];
/** Any raw control character but the newline. */
// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
/** An escape cut short: `\u` not followed by four hex digits or a braced code point. */
const CUT_ESCAPE = /\\u(?![0-9a-f]{4}|\{[0-9a-f]+\})/;

const PDF_TEXT = "Extract text and tables from PDF files, fill forms, merge and split documents. " +
  "Use when working with PDF files or when the user mentions PDFs, forms or extraction.";

/**
 * A home with a long description, a description made of escape sequences, a folder name with
 * one, a renamed user-only skill, a repaired one and a hidden duplicate.
 */
async function writeHome(box: Sandbox): Promise<void> {
  await writeTree(box.home, {
    ".claude/skills/pdf/SKILL.md": skill("pdf", PDF_TEXT),
    ".claude/skills/evil/SKILL.md": `---\nname: evil\ndescription: "a${
      "\\e[31m\\x9b".repeat(30)
    }"\n---\nBody.\n`,
    ".cursor/skills/pdf/SKILL.md":
      "---\nname: pdf\ndescription: Cursor's PDF skill.\ndisable-model-invocation: true\n---\nB.\n",
    ".claude/skills/loose/SKILL.md": "Use this when things happen.\n",
    ".claude/skills/dup/SKILL.md": skill("dup", "Same.", "Same body."),
    ".codex/skills/dup/SKILL.md": skill("dup", "Same.", "Same body."),
    // A raw escape sequence in a folder name reaches the PATH column (shown dim).
    ".codex/skills/dir\u001b[31m/SKILL.md": skill("hostile", "Hostile path."),
  });
}

/** `text` as a shell word. */
function shellWord(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

/** Options of {@linkcode inTerminal}. */
interface TerminalOptions {
  /** The terminal's width. */
  columns: number;
  /** Variables added to the sandbox environment (TERM is xterm, NO_COLOR unset by default). */
  env?: Record<string, string>;
  /** Keep stderr on the terminal too (default: stderr goes to /dev/null). */
  stderr?: boolean;
  /** Typed into the terminal. */
  input?: string;
}

/** Runs the CLI with stdin, stdout (and stderr) on a pseudo-terminal; returns what it showed. */
async function inTerminal(box: Sandbox, args: string[], options: TerminalOptions) {
  const command = [...(cliCommand() ?? [Deno.execPath(), "run", "-A", "--quiet", MAIN]), ...args];
  const redirect = options.stderr ? "" : " 2>/dev/null";
  const script = `stty cols ${options.columns} rows 40; exec ${
    command.map(shellWord).join(" ")
  }${redirect}`;
  const result = await run("script", ["-qec", script, "/dev/null"], {
    cwd: box.project,
    env: { ...box.env, TERM: "xterm", ...options.env },
    clearEnv: true,
    ...(options.input === undefined ? {} : { stdin: options.input }),
  });
  equal(result.code, 0, result.stdout + result.stderr);
  return result.stdout.replaceAll("\r\n", "\n");
}

/** The columns a line takes on screen: our colour codes removed, one per code point. */
function screenWidth(line: string): number {
  return [...line.replace(OUR_SGR, "")].length;
}

/** Proves no input-derived control character reached the screen and no escape was cut. */
function assertEscaped(text: string): void {
  const plain = text.replace(OUR_SGR, "");
  ok(!RAW_CONTROL.test(plain), `raw control character: ${JSON.stringify(plain)}`);
  ok(!CUT_ESCAPE.test(plain), `an escape was cut: ${JSON.stringify(plain)}`);
  ok(plain.includes("\\u001b[31m"), "the hostile description is shown escaped");
}

Deno.test("list on a wide terminal: descriptions cut with … to the width, colour, escapes whole", async () => {
  await withSandbox(async (box) => {
    await writeHome(box);
    const shown = await inTerminal(box, ["list"], { columns: 160 });
    const lines = shown.split("\n");
    ok(lines[0].startsWith("\u001b[1mNAME\u001b[22m "), "bold headers");
    match(lines[0].replace(OUR_SGR, ""), /^NAME +FROM +PATH +DESCRIPTION$/);
    const rows = lines.slice(1, lines.indexOf(""));
    equal(rows.length, 6);
    for (const row of rows) ok(screenWidth(row) <= 160, `wider than 160: ${row}`);
    const pdf = rows.find((r) => r.startsWith("pdf "))!;
    ok(pdf.includes(dim("~/.claude/skills/pdf/SKILL.md")), "the path is dim");
    match(pdf, /Extract text and tables from PDF .*…$/);
    equal(screenWidth(pdf), 160, "a cut description fills the line");
    const evil = rows.find((r) => r.startsWith("evil"))!;
    match(evil, /…$/);
    const marked = rows.find((r) => r.startsWith("cursor-pdf"))!;
    ok(marked.includes("\u001b[33m (renamed from pdf)\u001b[39m\u001b[33m (user-only)\u001b[39m"));
    ok(rows.some((r) => r.startsWith("loose\u001b[33m (repaired)\u001b[39m")));
    assertEscaped(shown);
  }, CATALOG_BOX);
});

Deno.test("list on a narrow terminal: each path on its own line, descriptions fitted beside NAME and FROM", async () => {
  await withSandbox(async (box) => {
    await writeHome(box);
    const shown = await inTerminal(box, ["list"], { columns: 80, env: { NO_COLOR: "1" } });
    ok(!shown.includes("\u001b"), "NO_COLOR=1 turns colour off on a terminal");
    const lines = shown.split("\n");
    match(lines[0], /^NAME +FROM +DESCRIPTION$/);
    const table = lines.slice(1, lines.indexOf(""));
    equal(table.length, 12, "a row and a path line per skill");
    for (const [i, line] of table.entries()) {
      ok(screenWidth(line) <= 80, `wider than 80: ${line}`);
      if (i % 2 === 1) match(line, /^ {2}~\/\.[a-z]+\/skills\/\S+\/SKILL\.md$/);
    }
    match(table[table.findIndex((l) => l.startsWith("pdf "))], /Extract text.*…$/);
    assertEscaped(shown);
  }, CATALOG_BOX);
});

Deno.test("list piped: whole descriptions and no colour; FORCE_COLOR=1 colours a pipe; --json never", async () => {
  await withSandbox(async (box) => {
    await writeHome(box);
    box.env.NO_COLOR = "";
    const piped = await box.cli("list");
    equal(piped.code, 0, piped.stderr);
    ok(!piped.stdout.includes("\u001b"), "no colour in a pipe");
    ok(piped.stdout.includes(PDF_TEXT), "the whole description");
    ok(!piped.stdout.includes("…"));
    ok(piped.stdout.includes(`a${"\\u001b[31m\\u009b".repeat(30)}`), "escaped, whole");

    box.env.FORCE_COLOR = "1";
    const forced = await box.cli("list");
    ok(forced.stdout.startsWith("\u001b[1mNAME\u001b[22m"), forced.stdout);
    ok(forced.stdout.replace(OUR_SGR, "").includes(PDF_TEXT), "still whole in a pipe");
    assertEscaped(forced.stdout);
    const json = await box.cli("list", "--json");
    ok(!json.stdout.includes("\u001b"), "--json is never coloured");
    equal(JSON.parse(json.stdout).skills.length, 6);
    const all = await box.cli("list", "--all");
    ok(all.stdout.includes("\u001b[1mHidden duplicates (1):\u001b[22m"), all.stdout);
    const doctor = await box.cli("doctor");
    ok(doctor.stdout.includes("\u001b[1mHidden duplicates (1):\u001b[22m"), doctor.stdout);
    ok(!RAW_CONTROL.test(doctor.stdout.replace(OUR_SGR, "")), doctor.stdout);
  }, CATALOG_BOX);
});

Deno.test("list --json on a terminal: no colour, whole descriptions", async () => {
  await withSandbox(async (box) => {
    await writeHome(box);
    const shown = await inTerminal(box, ["list", "--json"], { columns: 60 });
    ok(!shown.includes("\u001b"), shown);
    const doc = JSON.parse(shown);
    deepEqual(doc.skills.map((s: { name: string }) => s.name).sort(), [
      "cursor-pdf",
      "dup",
      "evil",
      "hostile",
      "loose",
      "pdf",
    ]);
    ok(doc.skills.some((s: { description: string }) => s.description === PDF_TEXT));
  }, CATALOG_BOX);
});

Deno.test("check and bundle verdicts are coloured only when colour is wanted", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "good/SKILL.md": skill("good", "A good skill. Use it in tests."),
      "bad/SKILL.md": "---\nname: [x\n---\n",
    });
    const env = { FORCE_COLOR: "1" };
    const check = await runCli(["check", "--cwd", dir, "good", "bad"], { env });
    equal(check.code, 1);
    ok(check.stdout.startsWith(`${green("PASSED")} "good/SKILL.md"\n`), check.stdout);
    ok(check.stdout.includes(`\n${red("FAILED")} "bad/SKILL.md"\n`), check.stdout);
    match(check.stdout, /\n1 passed, 1 failed, 0 input errors \(strict\)\.\n/);
    const plain = await runCli(["check", "--cwd", dir, "good", "bad"]);
    ok(!plain.stdout.includes("\u001b"), "NO_COLOR=1 and a pipe: no colour");
    const json = await runCli(["check", "--json", "--cwd", dir, "good"], { env });
    ok(!json.stdout.includes("\u001b"));

    const manifest = `${dir}/good.bundle.json`;
    await Deno.writeTextFile(manifest, (await runCli(["bundle", "--json", `${dir}/good`])).stdout);
    const same = await runCli(["bundle", `${dir}/good`, "--against", manifest], { env });
    equal(same.code, 0, same.stderr);
    match(same.stdout, /\n1 file, \d+ bytes\n/);
    ok(same.stdout.includes(`\n${green("Matches the reviewed bundle.")}\n`), same.stdout);
    await writeTree(dir, { "good/extra.txt": "x" });
    const differs = await runCli(["bundle", `${dir}/good`, "--against", manifest], { env });
    equal(differs.code, 1);
    ok(differs.stdout.includes(`${red("Bundle differs from the reviewed inventory.")}\n`));
    ok(differs.stdout.includes(`\n${yellow("ADDED")} "extra.txt"\n`), differs.stdout);
  });
});

Deno.test("mcp in a terminal says on stderr that it speaks MCP and how to stop it; piped, nothing", async () => {
  await withSandbox(async (box) => {
    const note = "dsh-skills-anywhere: serving MCP on stdin and stdout for an MCP client; " +
      "nothing to type here. Stop it with Ctrl-D (end of input) or Ctrl-C\n";
    // Ctrl-D typed into the terminal ends stdin, and with it the server.
    const shown = await inTerminal(box, ["mcp"], { columns: 80, stderr: true, input: "\u0004" });
    ok(shown.includes(note), JSON.stringify(shown));
    const piped = await runCli(["mcp"], {
      cwd: box.project,
      env: box.env,
      clearEnv: true,
      stdin: "",
    });
    equal(piped.code, 0, piped.stderr);
    equal(piped.stderr, "", "an MCP client's pipe gets no note");
    equal(piped.stdout, "");
  }, CATALOG_BOX);
});

/** Skill names of real public repositories (anthropics/skills, obra/superpowers), some long. */
const REAL_NAMES = [
  "brand-guidelines",
  "skill-creator",
  "test-driven-development",
  "verification-before-completion",
  "subagent-driven-development",
  "finishing-a-development-branch",
  "dispatching-parallel-agents",
  "using-git-worktrees",
];

/** Claude Code plugins as marketplaces publish them: `<plugin>@<marketplace>`. */
const PLUGINS = [
  ["skill-creator", "claude-plugins-official"],
  ["superpowers", "superpowers-marketplace"],
  ["document-skills", "anthropic-agent-skills"],
];

/**
 * A home where every real name is published by Claude Code, Cursor and Codex with different
 * texts (so two of each are renamed `<agent>-<name> (renamed from <name>)`), by three plugins,
 * a hidden duplicate, and a skill whose description has wide (CJK) characters and combining marks.
 */
async function writeLongHome(box: Sandbox): Promise<void> {
  const files: Record<string, string> = {};
  const description = (who: string, name: string) =>
    `${who}'s ${name}, a long description from a real repository, so that every table has ` +
    "something to cut. Use it when the user asks for it by name or describes the task it does.";
  for (const name of REAL_NAMES) {
    for (const agent of [".claude", ".cursor", ".codex"]) {
      files[`${agent}/skills/${name}/SKILL.md`] = skill(name, description(agent, name), agent);
    }
  }
  const installed: Record<string, unknown> = {};
  const enabled: Record<string, boolean> = {};
  for (const [plugin, market] of PLUGINS) {
    const dir = `.claude/plugins/cache/${market}/${plugin}/1.0.0`;
    files[`${dir}/skills/${plugin}-guide/SKILL.md`] = skill(
      `${plugin}-guide`,
      description(plugin, "guide"),
    );
    installed[`${plugin}@${market}`] = [
      { scope: "user", installPath: join(box.home, dir), version: "1.0.0" },
    ];
    enabled[`${plugin}@${market}`] = true;
  }
  files[".claude/plugins/installed_plugins.json"] = JSON.stringify({
    version: 2,
    plugins: installed,
  });
  files[".claude/settings.json"] = JSON.stringify({ enabledPlugins: enabled });
  // The same file in two agents: one is a hidden duplicate (list --all, doctor).
  const same = skill("finishing-a-development-branch-the-same-everywhere", description("x", "y"));
  files[".claude/skills/finishing-a-development-branch-the-same-everywhere/SKILL.md"] = same;
  files[".gemini/skills/finishing-a-development-branch-the-same-everywhere/SKILL.md"] = same;
  files[".claude/skills/spreadsheet-report/SKILL.md"] = skill(
    "spreadsheet-report",
    "表計算ソフトのデータを分析してレポートを作成します。Café crème, naïve e\u0301 résumé.",
  );
  await writeTree(box.home, files);
}

/**
 * The cells each line takes on screen, measured by python3's `unicodedata` (an implementation
 * independent of the CLI's): East Asian Wide and Fullwidth characters 2, combining marks 0.
 */
async function cellWidths(lines: string[]): Promise<number[]> {
  const program = "import json, sys, unicodedata\n" +
    "w = lambda c: 0 if unicodedata.combining(c) else " +
    "2 if unicodedata.east_asian_width(c) in 'WF' else 1\n" +
    "print(json.dumps([sum(w(c) for c in l) for l in json.load(sys.stdin)]))\n";
  const plain = lines.map((line) => line.replace(OUR_SGR, ""));
  const result = await run("python3", ["-c", program], { stdin: JSON.stringify(plain) });
  equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
}

/** Proves no line of `shown` (or of its lines that `pick` keeps) is wider than `columns` cells. */
async function assertFits(
  shown: string,
  columns: number,
  what: string,
  pick: (lines: string[]) => string[] = (lines) => lines,
): Promise<void> {
  const lines = pick(shown.split("\n"));
  ok(lines.length > 0, `${what}: no lines`);
  const widths = await cellWidths(lines);
  widths.forEach((w, i) =>
    ok(w <= columns, `${what}: line ${i} is ${w} > ${columns}: ${lines[i]}`)
  );
}

/** The part of `name` that tells it apart: whole, or (cut in the middle) its start and its end. */
function survives(line: string, name: string): boolean {
  if (line.includes(name)) return true;
  const cut = new RegExp(`${escapeRe(name.slice(0, 4))}[^ ]*…[^ ]*${escapeRe(name.slice(-4))}`);
  return cut.test(line);
}

/** `text` with every regular-expression metacharacter escaped. */
function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

for (const columns of [60, 80, 100, 160]) {
  Deno.test(`tables on a ${columns}-column terminal: no line wider, every name told apart, piped whole`, async () => {
    await withSandbox(async (box) => {
      await writeLongHome(box);
      const piped = await box.cli("list", "--json");
      const skills = JSON.parse(piped.stdout).skills as {
        name: string;
        renamed_from: string | null;
        origin: { kind: string; plugin?: string };
      }[];
      ok(skills.length >= 27, `only ${skills.length} skills`);
      ok(skills.some((s) => s.name.length + (s.renamed_from?.length ?? 0) > 40), "long renames");

      const list = await inTerminal(box, ["list"], { columns });
      await assertFits(list, columns, "list");
      const lines = list.split("\n").map((l) => l.replace(OUR_SGR, ""));
      for (const s of skills) {
        const row = lines.find((l) => survives(l.split("  ")[0], s.name));
        ok(row !== undefined, `${s.name} cannot be told apart at ${columns}:\n${list}`);
        if (s.origin.kind === "claude-plugins") {
          ok(lines.some((l) => l.includes(s.origin.plugin!)), `${s.origin.plugin} lost`);
        }
      }
      ok(lines.some((l) => l.includes("…")), "something was cut");
      const all = await inTerminal(box, ["list", "--all"], { columns });
      await assertFits(all, columns, "list --all");
      ok(all.includes("Hidden duplicates (1):"), all);
      // doctor's tables are its indented lines; agents' table ends at its first blank line.
      const doctor = await inTerminal(box, ["doctor"], { columns });
      await assertFits(doctor, columns, "doctor", (ls) => ls.filter((l) => l.startsWith("  ")));
      ok(doctor.includes("Renamed to avoid collisions (16):"), doctor);
      const agents = await inTerminal(box, ["agents"], { columns });
      await assertFits(agents, columns, "agents", (ls) => ls.slice(0, ls.indexOf("")));
      const search = await inTerminal(box, ["search", "description", "--limit", "40"], { columns });
      await assertFits(search, columns, "search");
      ok(search.split("\n").length >= 28, search);

      const whole = await box.cli("list");
      ok(!whole.stdout.includes("…"), "piped: nothing cut");
      for (const s of skills) ok(whole.stdout.includes(s.name), s.name);
      ok(whole.stdout.includes("claude plugin skill-creator@claude-plugins-official"));
      ok(whole.stdout.includes("(renamed from verification-before-completion)"));
    }, CATALOG_BOX);
  });
}

Deno.test("sources, outdated and sync on narrow terminals: no line wider, the source's ends kept", async () => {
  await withSandbox(async (box) => {
    const name = "a-git-source-with-a-long-repository-name-from-a-real-organisation";
    const upstream = await box.repo(name, {
      "skills/writing-plans/SKILL.md": skill("writing-plans", "Write plans. Use it first."),
    });
    const added = await box.cli("add", upstream, "--path", "skills");
    equal(added.code, 0, added.stderr);
    for (const columns of [60, 80]) {
      for (const args of [["sources"], ["outdated"], ["sync"]]) {
        const shown = await inTerminal(box, args, { columns });
        await assertFits(shown, columns, args[0], (ls) => ls.slice(0, ls.indexOf("")));
        // `sources` shows a local source by its path: its start and its end (the sub-path) survive.
        const row = shown.split("\n")[1].replace(OUR_SGR, "");
        if (args[0] === "sources") ok(row.startsWith("/") && /…[^ ]*skills /.test(row), row);
      }
    }
    const piped = await box.cli("sources");
    ok(piped.stdout.includes(name) && !piped.stdout.includes("…"), piped.stdout);
  }, CATALOG_BOX);
});
