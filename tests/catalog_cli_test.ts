/**
 * End-to-end tests of the catalog commands — list, agents, doctor — and the CLI's usage errors,
 * escaping and progress, over real child processes in a sandbox: nothing reads or writes the real
 * home.
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { resolveSource } from "../lib/sources/_resolve.ts";
import { cliCommand, exists, MAIN, run, type Sandbox, withSandbox, writeTree } from "./helpers.ts";
import {
  agentTrees,
  cacheDir,
  CATALOG_BOX,
  escapeRe,
  offline,
  projectFile,
  skill,
  table,
  userFile,
} from "./catalog_cli_helpers.ts";

/** Any control character but the newline (C0, DEL, C1). */
// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
/** What `list` prints for an empty catalog. */
const EMPTY_MESSAGE =
  "No skills found in your agents' skill folders, Claude Code plugins or Git sources.\n" +
  "Add a Git source of skills: dsh-skills-anywhere add anthropics/skills\n" +
  "or write your own: ~/.claude/skills/<name>/SKILL.md (any agent's skills folder works)";
/** The end of a `list` footer that has something to show in `doctor`. */
const DOCTOR_HINT = " — see `dsh-skills-anywhere doctor`";
/** The end of a `list` footer's hidden duplicates without `--all`. */
const SEE_ALL = " — see `dsh-skills-anywhere list --all`";

/**
 * A catalog with every footer count: a shared project skill, a collision
 * (renamed), a hidden duplicate, a repaired file, a skipped file and a plugin.
 */
async function writeCatalog(box: Sandbox): Promise<void> {
  await writeTree(box.project, {
    ".agents/skills/shared-one/SKILL.md": skill("shared-one", "Shared project skill."),
    ".claude/skills/build/SKILL.md": skill("build", "Build with Claude.", "Claude body."),
    ".cursor/skills/build/SKILL.md": skill("build", "Build with Cursor.", "Cursor body."),
  });
  await writeTree(box.home, {
    ".claude/skills/dup/SKILL.md": skill("dup", "Same everywhere.", "Dup body."),
    ".cursor/skills/dup/SKILL.md": skill("dup", "Same everywhere.", "Dup body."),
    ".claude/skills/nofront/SKILL.md": "Use this when things happen.\n",
    ".codex/skills/review/SKILL.md": skill("review", "Review code.", "Review body."),
    ".codex/skills/broken/SKILL.md": new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x0a]),
    ".claude/plugins/marketplaces/official/plugins/hookify/skills/hook/SKILL.md": skill(
      "hook",
      "A plugin skill.",
      "Hook body.",
    ),
    ".claude/plugins/installed_plugins.json": JSON.stringify({
      version: 1,
      plugins: {
        "hookify@official": {
          version: "0.1.0",
          installPath: join(box.home, ".claude/plugins/marketplaces/official/plugins/hookify"),
          isLocal: true,
        },
      },
    }),
    ".claude/settings.json": JSON.stringify({ enabledPlugins: { "hookify@official": true } }),
  });
}

/** The paths of the fixture catalog's files (see {@linkcode writeCatalog}). */
function catalogPaths(box: Sandbox) {
  return {
    shared: join(box.project, ".agents/skills/shared-one/SKILL.md"),
    build: join(box.project, ".claude/skills/build/SKILL.md"),
    cursorBuild: join(box.project, ".cursor/skills/build/SKILL.md"),
    dup: join(box.home, ".claude/skills/dup/SKILL.md"),
    dupHidden: join(box.home, ".cursor/skills/dup/SKILL.md"),
    nofront: join(box.home, ".claude/skills/nofront/SKILL.md"),
    review: join(box.home, ".codex/skills/review/SKILL.md"),
    broken: join(box.home, ".codex/skills/broken/SKILL.md"),
    hook: join(
      box.home,
      ".claude/plugins/marketplaces/official/plugins/hookify/skills/hook/SKILL.md",
    ),
  };
}

Deno.test("list: empty catalog message, default command, empty JSON, no sources", async () => {
  await withSandbox(async (box) => {
    const bare = await box.cli();
    equal(bare.code, 0, bare.stderr);
    equal(bare.stdout, `${EMPTY_MESSAGE}\n\n0 skills\n`);
    equal(bare.stderr, "");
    const list = await box.cli("list");
    equal(list.code, 0);
    equal(list.stdout, bare.stdout);

    const json = await box.cli("list", "--json");
    equal(json.code, 0);
    const doc = JSON.parse(json.stdout);
    deepEqual(Object.keys(doc), ["skills", "invalid", "complete"]);
    deepEqual(doc, { skills: [], invalid: [], complete: true });

    const sources = await box.cli("sources");
    equal(sources.code, 0);
    equal(
      sources.stdout,
      "No git sources configured. Add one with: dsh-skills-anywhere add owner/repo\n",
    );
    const sourcesJson = await box.cli("sources", "--json");
    equal(sourcesJson.code, 0);
    deepEqual(JSON.parse(sourcesJson.stdout), []);
    const sync = await box.cli("sync");
    equal(sync.code, 0);
    equal(sync.stdout, "No git sources configured.\n");
    ok(!(await exists(box.dshHome)), "nothing is written under DSH_HOME");
  }, CATALOG_BOX);
});

Deno.test("list: table with origins, ~ paths, whole descriptions when piped, marks, footer counts; --all shows hidden duplicates", async () => {
  await withSandbox(async (box) => {
    await writeCatalog(box);
    const p = catalogPaths(box);
    const before = await agentTrees(box);
    const result = await box.cli("list");
    equal(result.code, 0, result.stderr);
    equal(result.stderr, "", "no progress or warnings when stderr is not a terminal");
    const rows = [
      ["NAME", "FROM", "PATH", "DESCRIPTION"],
      ["shared-one", "agents (project)", p.shared, "Shared project skill."],
      ["build", "claude-code (project)", p.build, "Build with Claude."],
      [
        "cursor-build (renamed from build)",
        "cursor (project)",
        p.cursorBuild,
        "Build with Cursor.",
      ],
      ["dup", "claude-code (user)", "~/.claude/skills/dup/SKILL.md", "Same everywhere."],
      [
        "nofront (repaired)",
        "claude-code (user)",
        "~/.claude/skills/nofront/SKILL.md",
        "Use this when things happen.",
      ],
      ["review", "codex (user)", "~/.codex/skills/review/SKILL.md", "Review code."],
      [
        "hook",
        "claude plugin hookify@official",
        "~/.claude/plugins/marketplaces/official/plugins/hookify/skills/hook/SKILL.md",
        "A plugin skill.",
      ],
    ];
    const footer = "7 skills (1 renamed, 1 repaired); 1 hidden duplicate" +
      `${SEE_ALL}; 1 file skipped${DOCTOR_HINT}`;
    equal(result.stdout, `${table(rows)}\n\n${footer}\n`);
    match(result.stdout, /^NAME {2,}FROM {2,}PATH {2,}DESCRIPTION\n/);

    const all = await box.cli("list", "--all");
    equal(all.code, 0, all.stderr);
    const hidden = table([[
      "  dup",
      "same-content",
      "~/.cursor/skills/dup/SKILL.md",
      "-> ~/.claude/skills/dup/SKILL.md",
    ]]);
    const allFooter = footer.replace(SEE_ALL, "");
    equal(all.stdout, `${table(rows)}\n\nHidden duplicates (1):\n${hidden}\n\n${allFooter}\n`);
    deepEqual(await agentTrees(box), before, "list never writes into agent directories");
  }, CATALOG_BOX);
});

Deno.test("list --json and list --all --json: exact shapes", async () => {
  await withSandbox(async (box) => {
    await writeCatalog(box);
    const p = catalogPaths(box);
    const plain = await box.cli("list", "--json");
    equal(plain.code, 0, plain.stderr);
    const doc = JSON.parse(plain.stdout);
    deepEqual(Object.keys(doc), ["skills", "invalid", "complete"]);
    equal(doc.complete, true);
    deepEqual(doc.invalid, [{ path: p.broken, kind: "not-utf8", reason: "not valid UTF-8" }]);
    deepEqual(
      doc.skills.map((s: { name: string }) => s.name),
      ["shared-one", "build", "cursor-build", "dup", "nofront", "review", "hook"],
    );
    for (const s of doc.skills) {
      deepEqual(Object.keys(s), [
        "name",
        "description",
        "source",
        "rank",
        "path",
        "origin",
        "model_invocable",
        "renamed_from",
        "renamed_because",
        "repaired",
        "warnings",
      ]);
    }
    deepEqual(doc.skills[0], {
      name: "shared-one",
      description: "Shared project skill.",
      source: "anywhere-project",
      rank: 200,
      path: p.shared,
      origin: { kind: "agent", agent: "agents", scope: "project" },
      model_invocable: true,
      renamed_from: null,
      renamed_because: null,
      repaired: false,
      warnings: [],
    });
    deepEqual(doc.skills[1].origin, { kind: "agent", agent: "claude-code", scope: "project" });
    equal(doc.skills[1].rank, 250);
    equal(doc.skills[2].path, p.cursorBuild);
    equal(doc.skills[2].renamed_from, "build");
    // Issue 28: every rename says why (here a plain collision; "locked" when the lock caused it).
    equal(doc.skills[2].renamed_because, "collision");
    equal(doc.skills[2].warnings.length, 1);
    match(doc.skills[2].warnings[0], /collides with another skill; published as "cursor-build"/);
    deepEqual(doc.skills[4].warnings, ["missing YAML frontmatter; derived name and description"]);
    equal(doc.skills[4].repaired, true);
    deepEqual(doc.skills[5], {
      name: "review",
      description: "Review code.",
      source: "anywhere-user",
      rank: 550,
      path: p.review,
      origin: { kind: "agent", agent: "codex", scope: "user" },
      model_invocable: true,
      renamed_from: null,
      renamed_because: null,
      repaired: false,
      warnings: [],
    });
    deepEqual(doc.skills[6].origin, {
      kind: "claude-plugins",
      marketplace: "official",
      plugin: "hookify",
    });
    equal(doc.skills[6].source, "anywhere-claude-plugins");
    equal(doc.skills[6].rank, 580);

    const all = await box.cli("list", "--all", "--json");
    equal(all.code, 0, all.stderr);
    const full = JSON.parse(all.stdout);
    deepEqual(Object.keys(full), ["skills", "dropped", "invalid", "complete"]);
    deepEqual(full.skills, doc.skills);
    deepEqual(full.dropped, [
      { name: "dup", path: p.dupHidden, reason: "same-content", winner: p.dup },
    ]);
    deepEqual(full.invalid, doc.invalid);
  }, CATALOG_BOX);
});

Deno.test("list: a Git source shows `git owner/repo` and repo-relative paths", async () => {
  await withSandbox(async (box) => {
    offline(box);
    // A cached checkout is read as it is: discovery never runs git.
    const checkout = resolveSource("acme/tools", cacheDir(box)).dir;
    await writeTree(box.dshHome, {
      "skills-anywhere/sources.json": JSON.stringify({ sources: ["acme/tools"] }),
    });
    await writeTree(checkout, { "skills/lint/SKILL.md": skill("lint", "Lint things.") });
    const result = await box.cli("list");
    equal(result.code, 0, result.stderr);
    equal(
      result.stdout,
      `${
        table([
          ["NAME", "FROM", "PATH", "DESCRIPTION"],
          ["lint", "git acme/tools", "skills/lint/SKILL.md", "Lint things."],
        ])
      }\n\n1 skill\n`,
    );
    const json = JSON.parse((await box.cli("list", "--json")).stdout);
    deepEqual(json.skills, [{
      name: "lint",
      description: "Lint things.",
      source: "anywhere-source",
      rank: 700,
      path: join(checkout, "skills/lint/SKILL.md"),
      origin: { kind: "source", repo: "acme/tools", checkout },
      model_invocable: true,
      renamed_from: null,
      renamed_because: null,
      repaired: false,
      warnings: [],
    }]);
    const sources = await box.cli("sources");
    equal(sources.code, 0);
    equal(
      sources.stdout,
      `${
        table([
          ["SOURCE", "REF", "CHECKOUT", "STATE"],
          ["acme/tools", "(default)", checkout, "never synced"],
        ])
      }\n\nuser file:    ${userFile(box)}\nproject file: ${projectFile(box)}\n`,
    );
  }, CATALOG_BOX);
});

Deno.test("agents: --json rows, present for created dirs, human table and summary", async () => {
  await withSandbox(async (box) => {
    await Deno.mkdir(join(box.home, ".codex/skills"), { recursive: true });
    await Deno.mkdir(join(box.project, ".cursor/skills"), { recursive: true });
    const before = await agentTrees(box);
    const json = await box.cli("agents", "--json");
    equal(json.code, 0, json.stderr);
    const rows = JSON.parse(json.stdout);
    ok(Array.isArray(rows) && rows.length >= 68, "every agent row is listed");
    for (const row of rows) {
      deepEqual(Object.keys(row), [
        "id",
        "label",
        "project",
        "projectDirs",
        "user",
        "shared",
        "docs",
        "present",
      ]);
      ok(row.user === null || row.user.startsWith("~/"), row.user);
    }
    const byId = new Map(rows.map((r: { id: string }) => [r.id, r]));
    deepEqual(byId.get("codex"), {
      id: "codex",
      label: "OpenAI Codex",
      project: null,
      projectDirs: [],
      user: "~/.codex/skills",
      shared: false,
      docs: "https://developers.openai.com/codex/skills",
      present: true,
    });
    const cursor = byId.get("cursor") as Record<string, unknown>;
    equal(cursor.project, ".cursor/skills");
    equal(cursor.user, "~/.cursor/skills");
    equal(cursor.present, true);
    const claude = byId.get("claude-code") as Record<string, unknown>;
    equal(claude.label, "Claude Code");
    equal(claude.present, false);
    const shared = byId.get("agents") as Record<string, unknown>;
    equal(shared.shared, true);
    equal(shared.project, ".agents/skills");
    equal(shared.user, "~/.agents/skills");
    equal(shared.present, false);
    equal(rows.filter((r: { shared: boolean }) => r.shared).length, 1);
    equal(rows.filter((r: { present: boolean }) => r.present).length, 2);

    const human = await box.cli("agents");
    equal(human.code, 0, human.stderr);
    const lines = human.stdout.split("\n");
    match(lines[0], /^AGENT {2,}ID {2,}PROJECT DIR {2,}USER DIR {2,}FOUND HERE$/);
    ok(lines.some((l) => /^OpenAI Codex {2,}codex {2,}- {2,}~\/\.codex\/skills {2,}yes$/.test(l)));
    ok(
      lines.some((l) =>
        /^Claude Code {2,}claude-code {2,}\.claude\/skills {2,}~\/\.claude\/skills$/.test(l)
      ),
    );
    ok(
      lines.includes(
        `${rows.length} agents supported; 2 have a skills directory on this machine.`,
      ),
      human.stdout,
    );
    deepEqual(await agentTrees(box), before, "agents never creates directories");
  }, CATALOG_BOX);
});
Deno.test("doctor --json: keys, roots, renamed, repaired, skipped and dropped files", async () => {
  await withSandbox(async (box) => {
    await writeCatalog(box);
    const p = catalogPaths(box);
    const json = await box.cli("doctor", "--json");
    equal(json.code, 0, json.stderr);
    const doc = JSON.parse(json.stdout);
    deepEqual(Object.keys(doc), [
      "git",
      "roots",
      "renamed",
      "repaired",
      "model_disabled",
      "invalid",
      "dropped",
      "complete",
      "too_large_for_mcp",
      "uri_refused_for_mcp",
      // The one verdict of the MCP tools and the Skills extension (issue 29).
      "not_served_over_mcp",
      "place_collisions",
      // Failed Git sources and near misses (issue 30, finding 5).
      "failed_sources",
      "near_misses",
    ]);
    equal(doc.git, true);
    equal(doc.complete, true);
    for (const root of doc.roots) {
      deepEqual(Object.keys(root), ["label", "path", "exists", "count"]);
    }
    const byLabel = new Map(doc.roots.map((r: { label: string }) => [r.label, r]));
    deepEqual(byLabel.get("claude-code (user)"), {
      label: "claude-code (user)",
      path: join(box.home, ".claude/skills"),
      exists: true,
      count: 2,
    });
    deepEqual(byLabel.get("claude plugin hookify@official"), {
      label: "claude plugin hookify@official",
      path: join(box.home, ".claude/plugins/marketplaces/official/plugins/hookify/skills"),
      exists: true,
      count: 1,
    });
    const present = doc.roots.filter((r: { exists: boolean }) => r.exists);
    equal(present.length, 7);
    deepEqual(doc.renamed, [{
      name: "cursor-build",
      from: "build",
      path: p.cursorBuild,
      renamed_because: "collision",
    }]);
    deepEqual(doc.repaired, [{
      name: "nofront",
      path: p.nofront,
      warnings: ["missing YAML frontmatter; derived name and description"],
    }]);
    deepEqual(doc.invalid, [{ path: p.broken, kind: "not-utf8", reason: "not valid UTF-8" }]);
    deepEqual(doc.dropped, [
      { name: "dup", path: p.dupHidden, reason: "same-content", winner: p.dup },
    ]);
  }, CATALOG_BOX);
});

Deno.test("doctor: human sections in order, ~ paths, nothing written into agent dirs", async () => {
  await withSandbox(async (box) => {
    await writeCatalog(box);
    const p = catalogPaths(box);
    const before = await agentTrees(box);
    const rootCount = JSON.parse((await box.cli("doctor", "--json")).stdout).roots.length;
    const human = await box.cli("doctor");
    equal(human.code, 0, human.stderr);
    const lines = human.stdout.split("\n");
    equal(lines[0], "git: available");
    equal(lines[1], `state: ${join(box.dshHome, "skills-anywhere")}`);
    const at = (heading: string) => {
      const index = lines.indexOf(heading);
      ok(index > 0, `missing "${heading}" in:\n${human.stdout}`);
      equal(lines[index - 1], "", `blank line before ${heading}`);
      return index;
    };
    const roots = at(`Roots present (7 of ${rootCount}):`);
    const rootLines = lines.slice(roots + 1, roots + 8);
    ok(rootLines.some((l) => /^ {2}claude-code \(user\) {2,}2 {2}~\/\.claude\/skills$/.test(l)));
    ok(rootLines.some((l) => /^ {2}agents \(project\) {2,}1 {2}\//.test(l)), rootLines.join("\n"));
    const renamed = at("Renamed to avoid collisions (1):");
    match(
      lines[renamed + 1],
      new RegExp(`^ {2}build {2}-> cursor-build {2}${escapeRe(p.cursorBuild)}$`),
    );
    const repaired = at("Repaired frontmatter (1):");
    equal(lines[repaired + 1], "  nofront  ~/.claude/skills/nofront/SKILL.md");
    equal(lines[repaired + 2], "    - missing YAML frontmatter; derived name and description");
    const skipped = at("Skipped (1):");
    equal(lines[skipped + 1], "  ~/.codex/skills/broken/SKILL.md");
    equal(lines[skipped + 2], "    - not valid UTF-8");
    const hidden = at("Hidden duplicates (1):");
    match(
      lines[hidden + 1],
      /^ {2}dup {2}same-content {2}~\/\.cursor\/skills\/dup\/SKILL\.md {2}-> ~\/\.claude\/skills\/dup\/SKILL\.md$/,
    );
    ok(!human.stdout.includes("WARNING"), human.stdout);
    ok(roots < renamed && renamed < repaired && repaired < skipped && skipped < hidden);
    deepEqual(await agentTrees(box), before, "doctor never writes into agent dirs");
  }, CATALOG_BOX);
});

Deno.test("misplaced flags and bad arguments are usage errors (exit 2)", async () => {
  await withSandbox(async (box) => {
    const cases: [string[], string][] = [
      [["agents", "--lenient"], "agents does not take --lenient (it is an option of check)"],
      [["list", "--against", "x"], "list does not take --against (it is an option of bundle)"],
      [["list", "extra-arg"], 'list takes no arguments (got "extra-arg")'],
      [["add"], "add takes exactly one source"],
      [["add", "x", "--rank", "abc"], "--rank must be a number"],
      [["sources", "--all"], "sources does not take --all (it is an option of list)"],
    ];
    for (const [args, message] of cases) {
      const result = await box.cli(...args);
      equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
      equal(result.stdout, "", args.join(" "));
      ok(result.stderr.includes(message), `${args.join(" ")}: ${result.stderr}`);
      ok(result.stderr.startsWith("dsh-skills-anywhere: "), result.stderr);
      ok(
        result.stderr.endsWith(`; run "dsh-skills-anywhere ${args[0]} --help" for usage\n`),
        result.stderr,
      );
      equal(result.stderr.split("\n").length, 2, "one line");
    }
    ok(!(await exists(box.dshHome)), "nothing was written");
  }, CATALOG_BOX);
});

Deno.test("list/doctor never print a raw control character from names, descriptions or paths", async () => {
  await withSandbox(async (box) => {
    const esc = "\u001b";
    const csi = "\u009b";
    await writeTree(box.home, {
      // Escapes in double-quoted YAML: ESC, BEL and the C1 CSI.
      ".claude/skills/quoted/SKILL.md":
        '---\nname: "evil\\e[2J\\x9b"\ndescription: "desc \\e]0;title\\a \\x9b31m"\n---\nBody one.\n',
      // Raw control characters in the YAML itself.
      ".claude/skills/raw/SKILL.md":
        `---\nname: raw${esc}[31m${csi}x\ndescription: d${esc}[1m\n---\nBody two.\n`,
      // Control characters in directory names: fallback name, path, skipped file.
      [`.codex/skills/dir${esc}[31m${csi}x/SKILL.md`]: "No frontmatter here.\n",
      [`.codex/skills/bad${esc}]8;;x\u0007/SKILL.md`]: new Uint8Array([0xff, 0xfe, 0x0a]),
      // A flat file whose name carries the escape, colliding with another skill.
      [`.cursor/skills/flat${esc}[0m.md`]: skill("review", "One."),
      ".codex/skills/review/SKILL.md": skill("review", "Two.", "Other body."),
    });
    const before = await agentTrees(box);
    for (const args of [["list"], ["list", "--all"], ["doctor"], []]) {
      const result = await box.cli(...args);
      equal(result.code, 0, `${args.join(" ")}: ${result.stderr}`);
      ok(
        !RAW_CONTROL.test(result.stdout),
        `raw control character on stdout of ${args.join(" ")}: ${JSON.stringify(result.stdout)}`,
      );
      ok(
        !RAW_CONTROL.test(result.stderr),
        `raw control character on stderr of ${args.join(" ")}: ${JSON.stringify(result.stderr)}`,
      );
      ok(result.stdout.includes("\\u001b"), `the escape is shown escaped: ${result.stdout}`);
    }
    const doctor = await box.cli("doctor");
    ok(doctor.stdout.includes("\\u009b"), doctor.stdout);
    deepEqual(await agentTrees(box), before);
  }, CATALOG_BOX);
});

Deno.test("progress goes to stderr only when it is a terminal", async () => {
  await withSandbox(async (box) => {
    await writeTree(box.home, {
      ".claude/skills/a/SKILL.md": skill("a", "A."),
      ".claude/skills/b/SKILL.md": skill("b", "B."),
    });
    const piped = await box.cli("list");
    equal(piped.code, 0, piped.stderr);
    equal(piped.stderr, "");
    // util-linux `script` gives the CLI a real pseudo-terminal.
    const command = cliCommand() ?? [Deno.execPath(), "run", "-A", "--quiet", MAIN];
    const quoted = [...command, "list"].map((part) => `'${part.replaceAll("'", "'\\''")}'`);
    const tty = await run("script", ["-qec", quoted.join(" "), "/dev/null"], {
      cwd: box.project,
      env: { ...box.env, NO_COLOR: "1" },
      clearEnv: true,
    });
    equal(tty.code, 0, tty.stderr);
    match(tty.stdout, /reading skills: 2\/2/);
  }, CATALOG_BOX);
});
