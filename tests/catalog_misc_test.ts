// The agent registry, configuration, project root, roots, origins, catalog budget and
// keyword search.
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { agentById, AGENTS } from "../lib/catalog/_agents.ts";
import { applyCatalogBudget, type BudgetSkill } from "../lib/catalog/_budget.ts";
import { findProjectRoot, resolveConfig } from "../lib/catalog/_config.ts";
import { loadCatalog } from "../lib/catalog/_load.ts";
import { originLabel } from "../lib/catalog/_origin.ts";
import { buildRoots, type Root } from "../lib/catalog/_roots.ts";
import { queryTerms, searchSkills } from "../lib/catalog/_search.ts";
import { resolveSource } from "../lib/sources/_resolve.ts";
import { listTree, withTempDir, writeTree } from "./helpers.ts";

// ---------------------------------------------------------------------------------------------
// Agent registry

/** Every directory of `row`, tagged with where it is resolved from. */
function dirsOf(row: (typeof AGENTS)[number]): string[] {
  const user = row.user === undefined ? [] : [`~/${row.user}`];
  return [...(row.project ?? []).map((path) => `./${path}`), ...user];
}

Deno.test("agents: ids and labels are unique; each agent has a skills directory", () => {
  equal(new Set(AGENTS.map((row) => row.id)).size, AGENTS.length);
  equal(new Set(AGENTS.map((row) => row.label)).size, AGENTS.length);
  for (const row of AGENTS) {
    ok(/^[a-z0-9][a-z0-9-]*$/.test(row.id), row.id);
    ok(row.label.trim().length > 0 && row.label === row.label.trim(), row.id);
    ok(dirsOf(row).length > 0, row.id);
  }
});

Deno.test("agents: paths are relative, well-formed and end in skills; docs links are https", () => {
  for (const row of AGENTS) {
    for (const path of [...(row.project ?? []), ...(row.user === undefined ? [] : [row.user])]) {
      ok(!path.startsWith("/") && !path.startsWith("~"), path);
      ok(path.endsWith("/skills"), path);
      for (const segment of path.split("/")) {
        ok(segment !== "" && segment !== "." && segment !== "..", path);
        ok(/^[A-Za-z0-9._-]+$/.test(segment), path);
      }
    }
    if (row.docs !== undefined) equal(new URL(row.docs).protocol, "https:", row.docs);
  }
});

Deno.test("agents: no two agents claim the same directory", () => {
  const owner = new Map<string, string>();
  for (const row of AGENTS) {
    for (const dir of dirsOf(row)) {
      equal(owner.get(dir), undefined, `${dir}: ${owner.get(dir)} and ${row.id}`);
      owner.set(dir, row.id);
    }
  }
});

Deno.test("agents: Claude Code comes first; the shared row is the only one and comes last", () => {
  equal(AGENTS[0].id, "claude-code");
  deepEqual(AGENTS.filter((row) => row.shared).map((row) => row.id), ["agents"]);
  const shared = AGENTS.at(-1)!;
  equal(shared.id, "agents");
  deepEqual(shared.project, [".agents/skills"]);
  equal(shared.user, ".agents/skills");
});

Deno.test("agents: agentById finds every row, and samples that matter", () => {
  for (const row of AGENTS) equal(agentById(row.id), row);
  deepEqual(agentById("claude-code")?.project, [".claude/skills"]);
  equal(agentById("claude-code")?.user, ".claude/skills");
  // User-only agents, two project directories, and a user directory unlike the project one.
  equal(agentById("codex")?.project, undefined);
  equal(agentById("codex")?.user, ".codex/skills");
  deepEqual(agentById("cline")?.project, [".cline/skills", ".clinerules/skills"]);
  deepEqual(agentById("cortex")?.project, [".cortex/skills"]);
  equal(agentById("cortex")?.user, ".snowflake/cortex/skills");
  equal(agentById("nope"), undefined);
  equal(agentById("AGENTS"), undefined);
});

// ---------------------------------------------------------------------------------------------
// Project root

Deno.test("findProjectRoot: nearest ancestor with .git (dir or file), else the cwd", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "outer/.git/HEAD": "ref: refs/heads/main\n",
      "outer/inner/.git": "gitdir: ../.git/worktrees/inner\n",
      "outer/inner/a/b/keep": "",
      "outer/sub/c/keep": "",
      "plain/x/keep": "",
    });
    equal(await findProjectRoot(join(dir, "outer")), join(dir, "outer"));
    equal(await findProjectRoot(join(dir, "outer", "sub", "c")), join(dir, "outer"));
    equal(
      await findProjectRoot(join(dir, "outer", "inner", "a", "b")),
      join(dir, "outer", "inner"),
    );
    equal(await findProjectRoot(join(dir, "outer", "inner")), join(dir, "outer", "inner"));
    equal(await findProjectRoot(join(dir, "plain", "x")), join(dir, "plain", "x"));
    equal(await findProjectRoot(join(dir, "plain", "x", "..", "x")), join(dir, "plain", "x"));
  });
});

// ---------------------------------------------------------------------------------------------
// Roots

const PROJECT = "/work/proj";
const HOME = "/home/tester";

function roots(raw: Parameters<typeof resolveConfig>[0] = {}, sources = [] as {
  scanDir: string;
  display: string;
  rank?: number;
}[], projectRoot: string | null = PROJECT): Root[] {
  return buildRoots(resolveConfig(raw, { HOME }), {
    projectRoot: projectRoot ?? undefined,
    sources,
  });
}

const projectDirCount = AGENTS.filter((a) => !a.shared).reduce(
  (n, a) => n + (a.project?.length ?? 0),
  0,
);
// Each agent's user folder, and its own system folder where it has one (Codex's `.system`).
const userDirCount = AGENTS.filter((a) => !a.shared && a.user !== undefined).length +
  AGENTS.filter((a) => !a.shared && a.system !== undefined).length;

Deno.test("default roots: project 250, user 550, sources 700 (spec rank wins); no plugin installed", () => {
  const list = roots({}, [
    { scanDir: "/cache/github.com/o/r", display: "o/r" },
    { scanDir: "/cache/github.com/o/pinned", display: "o/pinned", rank: 10 },
  ]);
  equal(list.length, projectDirCount + userDirCount + 2);
  const project = list.slice(0, projectDirCount);
  const user = list.slice(projectDirCount, projectDirCount + userDirCount);
  const [source, pinned] = list.slice(projectDirCount + userDirCount);

  for (const root of project) {
    equal(root.rank, 250);
    equal(root.mode, "flat");
    equal(root.source, "anywhere-project");
    equal(root.project, PROJECT);
    equal(root.origin.kind, "agent");
    ok(root.path.startsWith(`${PROJECT}/`), root.path);
  }
  deepEqual(project[0], {
    path: join(PROJECT, ".claude/skills"),
    mode: "flat",
    source: "anywhere-project",
    rank: 250,
    origin: { kind: "agent", agent: "claude-code", scope: "project" },
    label: "claude-code (project)",
    maxDepth: 1,
    project: PROJECT,
    confineTo: PROJECT,
  });
  deepEqual(
    project.filter((r) => r.label === "cline (project)").map((r) => r.path),
    [join(PROJECT, ".cline/skills"), join(PROJECT, ".clinerules/skills")],
  );
  ok(project.some((r) => r.path === join(PROJECT, ".factory/skills")));

  for (const root of user) {
    equal(root.rank, 550);
    equal(root.source, "anywhere-user");
    equal(root.project, undefined);
    ok(root.path.startsWith(`${HOME}/`), root.path);
  }
  deepEqual(user.find((r) => r.label === "codex (user)"), {
    path: join(HOME, ".codex/skills"),
    mode: "flat",
    source: "anywhere-user",
    rank: 550,
    origin: { kind: "agent", agent: "codex", scope: "user" },
    label: "codex (user)",
    maxDepth: 1,
  });
  ok(user.some((r) => r.path === join(HOME, ".snowflake/cortex/skills")));

  deepEqual(source, {
    path: "/cache/github.com/o/r",
    mode: "nested",
    source: "anywhere-source",
    rank: 700,
    origin: { kind: "source", repo: "o/r" },
    label: "source o/r",
    maxDepth: 5,
    confineTo: "/cache/github.com/o/r",
  });
  equal(pinned.rank, 10);
  equal(pinned.label, "source o/pinned");
});

Deno.test("configured ranks and maxDepth apply; the shared row keeps 200/500", () => {
  const list = roots({
    sharedDirs: true,
    maxDepth: 9,
    ranks: { project: 1, user: 2, claudePlugins: 3, sources: 4 },
  }, [{ scanDir: "/s", display: "o/r" }]);
  const by = (label: string) => list.find((r) => r.label === label)!;
  equal(by("claude-code (project)").rank, 1);
  equal(by("claude-code (user)").rank, 2);
  equal(by("agents (project)").rank, 200);
  equal(by("agents (user)").rank, 500);
  equal(by("source o/r").rank, 4);
  equal(by("source o/r").maxDepth, 9);
});

Deno.test("excludeAgents ['claude-code'] and claudePlugins:false remove those roots", () => {
  const list = roots({ excludeAgents: ["claude-code"], claudePlugins: false });
  ok(!list.some((r) => r.label.startsWith("claude-code")));
  ok(!list.some((r) => r.origin.kind === "claude-plugins"));
  ok(!list.some((r) => r.path.includes(".claude")));
  equal(list.length, projectDirCount + userDirCount - 2);
  ok(list.some((r) => r.label === "cursor (project)"));
  const noAgents = roots({ agents: false, extraProjectDirs: ["team"], claudePlugins: false });
  deepEqual(noAgents.map((r) => r.label), ["team (project)"]);
});

Deno.test("roots: extra dirs keep their place; no project root means no project roots", () => {
  const list = roots({ extraProjectDirs: ["./team/skills"], extraUserDirs: ["~/mine"] });
  const extraProject = list.findIndex((r) => r.label === "team/skills (project)");
  equal(extraProject, projectDirCount);
  deepEqual(list[extraProject], {
    path: join(PROJECT, "team/skills"),
    mode: "flat",
    source: "anywhere-project",
    rank: 250,
    origin: { kind: "custom", scope: "project" },
    label: "team/skills (project)",
    maxDepth: 1,
    project: PROJECT,
    confineTo: PROJECT,
  });
  const extraUser = list.findIndex((r) => r.path === join(HOME, "mine"));
  equal(extraUser, projectDirCount + 1 + userDirCount);
  deepEqual(list[extraUser], {
    path: join(HOME, "mine"),
    mode: "flat",
    source: "anywhere-user",
    rank: 550,
    origin: { kind: "custom", scope: "user" },
    label: `${join(HOME, "mine")} (user)`,
    maxDepth: 1,
  });

  const cwdless = roots({ extraProjectDirs: ["team"] }, [], null);
  ok(!cwdless.some((r) => r.source === "anywhere-project"));
  equal(cwdless.length, userDirCount);
});

Deno.test("roots: the home folder is never a project — project root = home gives user roots only", () => {
  const list = roots({ extraProjectDirs: ["team"] }, [], HOME);
  const paths = list.map((r) => r.path);
  equal(new Set(paths).size, paths.length);
  ok(!list.some((r) => r.source === "anywhere-project"));
  const claude = list.filter((r) => r.path === join(HOME, ".claude/skills"));
  deepEqual(claude.map((r) => r.label), ["claude-code (user)"]);
  deepEqual(list, roots({ extraProjectDirs: ["team"] }, [], null));
  deepEqual(
    roots({}, [], HOME + "/"),
    roots({}, [], null),
    "the same folder, spelled with a slash",
  );
});

Deno.test("sharedDirs adds .agents/skills at 200 and ~/.agents/skills at 500", () => {
  const list = roots({ sharedDirs: true });
  const project = list.find((r) => r.label === "agents (project)")!;
  deepEqual(project, {
    path: join(PROJECT, ".agents/skills"),
    mode: "flat",
    source: "anywhere-project",
    rank: 200,
    origin: { kind: "agent", agent: "agents", scope: "project" },
    label: "agents (project)",
    maxDepth: 1,
    project: PROJECT,
    confineTo: PROJECT,
  });
  equal(list.indexOf(project), projectDirCount, "last of the agent project roots");
  const user = list.find((r) => r.label === "agents (user)")!;
  deepEqual(
    [user.path, user.rank, user.source, user.origin],
    [join(HOME, ".agents/skills"), 500, "anywhere-user", {
      kind: "agent",
      agent: "agents",
      scope: "user",
    }],
  );
  for (const raw of [{ sharedDirs: true, excludeAgents: ["agents"] }, {}]) {
    const without = roots(raw);
    ok(!without.some((r) => r.path.endsWith("/.agents/skills")), JSON.stringify(raw));
  }
});

Deno.test("scanning: shared dirs found only when on, and they win over agent dirs", async () => {
  await withTempDir(async (home) => {
    const project = join(home, "repo");
    await writeTree(home, {
      "repo/.git/HEAD": "ref: refs/heads/main\n",
      "repo/.agents/skills/dup/SKILL.md": "---\nname: dup\ndescription: shared\n---\nShared.\n",
      "repo/.claude/skills/dup/SKILL.md": "---\nname: dup\ndescription: claude\n---\nClaude.\n",
      ".agents/skills/home-shared/SKILL.md":
        "---\nname: home-shared\ndescription: h\n---\nHome shared.\n",
    });
    const before = await listTree(home);
    const cwd = join(project, "sub");
    await Deno.mkdir(cwd);
    const off = await loadCatalog(resolveConfig({}, { HOME: home }), { cwd });
    equal(off.projectRoot, project);
    deepEqual(off.report.skills.map((s) => [s.name, s.rank]), [["dup", 250]]);
    const on = await loadCatalog(resolveConfig({ sharedDirs: true }, { HOME: home }), { cwd });
    deepEqual(on.report.skills.map((s) => [s.name, s.rank, s.source]), [
      ["dup", 200, "anywhere-project"],
      ["claude-code-dup", 250, "anywhere-project"],
      ["home-shared", 500, "anywhere-user"],
    ]);
    const excluded = await loadCatalog(
      resolveConfig({ sharedDirs: true, excludeAgents: ["agents"] }, { HOME: home }),
      { cwd },
    );
    deepEqual(excluded.report.skills.map((s) => s.name), ["dup"]);
    await Deno.remove(cwd);
    deepEqual(await listTree(home), before);
  });
});

Deno.test("loadCatalog resolves roots from config, the user sources file and the project", async () => {
  await withTempDir(async (home) => {
    await writeTree(home, {
      "repo/.git/HEAD": "ref: refs/heads/main\n",
      ".dsh/skills-anywhere/sources.json": JSON.stringify({ sources: ["o/from-file"] }),
      [
        `${
          resolveSource("o/from-file", join(home, ".dsh/skills-anywhere/cache")).dir.slice(
            home.length + 1,
          )
        }/a/SKILL.md`
      ]: "---\nname: from-file\ndescription: f\n---\nF.\n",
    });
    const config = resolveConfig({ sources: [{ repo: "o/pinned", rank: 10 }] }, { HOME: home });
    const catalog = await loadCatalog(config, { cwd: join(home, "repo") });
    equal(catalog.projectRoot, join(home, "repo"));
    deepEqual(
      catalog.roots.filter((r) => r.source === "anywhere-source").map((r) => [r.label, r.rank]),
      [["source o/pinned", 10], ["source o/from-file", 700]],
    );
    deepEqual(catalog.report.skills.map((s) => [s.name, s.rank]), [["from-file", 700]]);
    equal(catalog.roots.length, catalog.report.roots.length);
  });
});

// ---------------------------------------------------------------------------------------------
// Origins

Deno.test("originLabel for every origin kind", () => {
  equal(originLabel({ kind: "agent", agent: "codex", scope: "user" }), "codex (user)");
  equal(
    originLabel({ kind: "agent", agent: "claude-code", scope: "project" }),
    "claude-code (project)",
  );
  equal(originLabel({ kind: "custom", scope: "project" }), "custom (project)");
  equal(
    originLabel({ kind: "claude-plugins", marketplace: "official", plugin: "hookify" }),
    "claude plugin hookify@official",
  );
  equal(originLabel({ kind: "source", repo: "anthropics/skills" }), "git anthropics/skills");
});

// ---------------------------------------------------------------------------------------------
// Catalog budget

function budgetSkills(...specs: string[]): BudgetSkill[] {
  return specs.map((spec) => ({
    name: spec.replace(/!$/, ""),
    invocation: { modelInvocable: !spec.endsWith("!") },
  }));
}

function states(
  skills: BudgetSkill[],
  limit: number,
  pin: string[] = [],
  hide: string[] = [],
): [string, string][] {
  const result = applyCatalogBudget(skills, { limit, pin: new Set(pin), hide: new Set(hide) });
  return skills.map((s) => [s.name, result.get(s.name)!]);
}

Deno.test("budget limit 2 over a, b, c → visible, visible, hidden", () => {
  deepEqual(states(budgetSkills("a", "b", "c"), 2), [
    ["a", "visible"],
    ["b", "visible"],
    ["c", "hidden"],
  ]);
});

Deno.test("pin jumps the queue, hide never shows, disabled is uncounted, limit 0 = all", () => {
  const abc = budgetSkills("a", "b", "c");
  deepEqual(states(abc, 2, ["c"]), [["a", "visible"], ["b", "hidden"], ["c", "visible"]]);
  deepEqual(states(abc, 1, ["c", "b"]), [["a", "hidden"], ["b", "visible"], ["c", "hidden"]]);
  deepEqual(states(abc, 5, [], ["a"]), [["a", "hidden"], ["b", "visible"], ["c", "visible"]]);
  deepEqual(states(abc, 0, [], ["b"]), [["a", "visible"], ["b", "hidden"], ["c", "visible"]]);
  deepEqual(states(abc, 2, ["a"], ["a"]), [["a", "hidden"], ["b", "visible"], ["c", "visible"]]);
  const withDisabled = budgetSkills("off!", "a", "b", "c");
  deepEqual(states(withDisabled, 2), [
    ["off", "disabled"],
    ["a", "visible"],
    ["b", "visible"],
    ["c", "hidden"],
  ]);
  deepEqual(states(withDisabled, 2, ["off"]), [
    ["off", "disabled"],
    ["a", "visible"],
    ["b", "visible"],
    ["c", "hidden"],
  ]);
  deepEqual(states(withDisabled, 0), [
    ["off", "disabled"],
    ["a", "visible"],
    ["b", "visible"],
    ["c", "visible"],
  ]);
  equal(applyCatalogBudget([], { limit: 3, pin: new Set(), hide: new Set() }).size, 0);
});

// ---------------------------------------------------------------------------------------------
// Keyword ranker

Deno.test("queryTerms: lowercase, split on non-letters/digits, ≤1-char terms dropped, deduped", () => {
  deepEqual(queryTerms("PDF forms, pdf!"), ["pdf", "forms"]);
  deepEqual(queryTerms("a"), []);
  deepEqual(queryTerms(""), []);
  deepEqual(queryTerms("  ,;!  "), []);
  deepEqual(queryTerms("x y zz"), ["zz"]);
  deepEqual(queryTerms("Café-Résumé v2"), ["café", "résumé", "v2"]);
  deepEqual(queryTerms("日本語 テスト"), ["日本語", "テスト"]);
  deepEqual(queryTerms("react_testing"), ["react", "testing"]);
});

const catalog = [
  { name: "docx", description: "Edit Word documents; can also export to PDF." },
  { name: "pdf-processing", description: "Extract text and tables from files." },
  { name: "react", description: "Build React components." },
  { name: "react-testing", description: "Test React components." },
  { name: "jest", description: "JavaScript testing with Jest." },
  { name: "unrelated", description: "Nothing to see." },
];

// Issue 30 replaced the point rule (name equal +60, word +40, …) by BM25F over whole, stemmed
// words: these tests keep their orders and drop the old points (the rules are tested in
// tests/search_rank_test.ts).
Deno.test("searchSkills: 'pdf' ranks pdf-processing above docx", () => {
  const result = searchSkills(catalog, "pdf", 10);
  deepEqual(result.map((m) => m.skill.name), ["pdf-processing", "docx"]);
  ok(result[0].score > result[1].score);
  equal(result[0].skill, catalog[1], "matches carry the skill object itself");
});

Deno.test("searchSkills: 'react testing' limit 2 → react-testing, react", () => {
  deepEqual(searchSkills(catalog, "react testing", 2).map((m) => m.skill.name), [
    "react-testing",
    "react",
  ]);
  deepEqual(searchSkills(catalog, "react testing", 10).map((m) => [m.skill.name, m.matched]), [
    ["react-testing", [
      { term: "react", fields: ["name", "description"] },
      { term: "testing", fields: ["name", "description"] },
    ]],
    ["react", [{ term: "react", fields: ["name", "description"] }]],
    ["jest", [{ term: "testing", fields: ["description"] }]],
  ]);
});

Deno.test("searchSkills: each field counts, the name most; a skill matching more terms ranks higher", () => {
  const one = (skill: Parameters<typeof searchSkills>[0][number], query: string) =>
    searchSkills([skill, { name: "filler", description: "Other words here." }], query, 5)[0]
      ?.score;
  const name = one({ name: "pdf", description: "-" }, "pdf")!;
  const word = one({ name: "pdf-tools", description: "-" }, "pdf")!;
  const description = one({ name: "x1", description: "About PDF." }, "pdf")!;
  const when = one({ name: "x1", description: "-", whenToUse: "With PDF" }, "pdf")!;
  const origin = one({ name: "x1", description: "-", source: "pdf-repo" }, "pdf")!;
  ok(name >= word && word > description && description > when && when > origin && origin > 0);
  ok(one({ name: "x1", description: "-", provider: "skills-anywhere" }, "skills")! > 0);
  ok(one({ name: "pdf", description: "pdf", whenToUse: "pdf", source: "pdf" }, "pdf")! > name);
  equal(one({ name: "x1", description: "-" }, "pdf"), undefined, "no matched term: dropped");
  const both = one({ name: "pdf-forms", description: "-" }, "pdf forms")!;
  ok(both > one({ name: "pdf-merge", description: "-" }, "pdf forms")!);
});

Deno.test("searchSkills: empty query, limit 0, and name order on equal scores", () => {
  deepEqual(searchSkills(catalog, "a", 10), []);
  deepEqual(searchSkills(catalog, "react", 0), []);
  const ties = [
    { name: "zeta-doc", description: "-" },
    { name: "alpha-doc", description: "-" },
    { name: "mid-doc", description: "-" },
  ];
  deepEqual(searchSkills(ties, "doc", 10).map((m) => m.skill.name), [
    "alpha-doc",
    "mid-doc",
    "zeta-doc",
  ]);
});
