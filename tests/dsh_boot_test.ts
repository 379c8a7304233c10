// The plugin in a booted DeepSeek Harness (issue 21): dsh 0.1.0-rc.8 under Node 22, installed
// from the npm registry (tests/dsh_boot_helpers.ts), this repository's npm package packed and
// installed with `dsh plugin --profile <p> add <tarball>`, the web and headless profiles booted
// on 127.0.0.1 against a scripted model (tests/dsh_model.ts) that records what the model
// receives. The web profile is driven through dsh's own HTTP API (`session.create`,
// `skill.list`, `session.prompt`); the headless one answers one task. See docs/dsh.md.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { skillMd } from "./helpers.ts";
import { type ChatRequest, type Reply, toolNames } from "./dsh_model.ts";
import { type DshWorld, runDsh, WebDsh, withDshWorld } from "./dsh_boot_helpers.ts";

/** The user patch that works around dsh 0.1.0-rc.8's boot crash (docs/dsh.md). */

/** Our row, restated complete (a patch replaces the row's config): a budget of 3, no Git sync. */
const PROVIDER_ROW = `- id: skills-anywhere
  config:
    agents: true
    claudePlugins: false
    sources: []
    sync: false
    watch: true
    catalog: { limit: 3, pin: [], hide: [] }
`;

/**
 * The skills: ours in ~/.claude/skills (rank 550) and the project's .claude/skills (250);
 * dsh's own in ~/.dsh/skills (its user-dsh root, rank 400). `aa-shadow-*` sort first among ours
 * and are shadowed by dsh's copies everywhere; `both-places` is ours in the project and dsh's
 * in the user root.
 */
async function writeSkills(world: DshWorld): Promise<void> {
  const ours = join(world.home, ".claude", "skills");
  const theirs = join(world.dshHome, "skills");
  const put = async (dir: string, name: string, description: string, front: string[] = []) => {
    await mkdir(join(dir, name), { recursive: true });
    await writeFile(
      join(dir, name, "SKILL.md"),
      skillMd(name, description, `Body of ${name}.`, front),
    );
  };
  for (const name of ["aa-shadow-1", "aa-shadow-2"]) {
    await put(ours, name, `Ours ${name}, shadowed.`);
    await put(theirs, name, `Theirs ${name}.`);
  }
  for (const name of ["ours-a", "ours-b", "ours-c", "ours-d"]) {
    await put(ours, name, `Ours ${name} skill.`);
  }
  await put(ours, "ours-off", "Ours, author-disabled.", ["disable-model-invocation: true"]);
  await put(join(world.project, ".claude", "skills"), "both-places", "Ours in the project.");
  await put(theirs, "both-places", "Theirs in the dsh user folder.");
}

/** Runs `fn` in a fresh world with this file's skills (see `withDshWorld`). */
function withWorld(
  fn: (world: DshWorld, tarball: string) => Promise<void>,
  script?: (request: ChatRequest) => Reply,
): Promise<void> {
  return withDshWorld({ skills: writeSkills, script }, fn);
}

function hmrPatch(world: DshWorld): string {
  return join(world.home, "..", "hmr.patch.yml");
}

function profileDir(world: DshWorld, profile: string): string {
  return join(world.dshHome, "profiles", profile);
}

/** `dsh plugin --profile <profile> add <tarball>`, which needs pnpm on PATH. */
async function addPlugin(world: DshWorld, profile: string, tarball: string): Promise<void> {
  const added = await runDsh(world, ["plugin", "--profile", profile, "add", tarball]);
  equal(added.code, 0, added.stderr);
  const manifest = JSON.parse(
    await readFile(join(profileDir(world, profile), "package.json"), "utf8"),
  );
  ok(manifest.dsh.profile.bundles.includes("dsh-skills-anywhere"), JSON.stringify(manifest));
}

/**
 * Everything the model received in one request (system prompt, messages, tool descriptions):
 * dsh puts the skill catalog in the prompt or in its `skill` tool's description.
 */
function seen(request: ChatRequest): string {
  return JSON.stringify(request);
}

function catalogHas(request: ChatRequest, name: string): boolean {
  return seen(request).includes(name);
}

Deno.test("dsh booted: install needs pnpm, and the web profile's boot needs the hmr row", async () => {
  await withWorld(async (world, tarball) => {
    const noPnpm = await runDsh(world, ["plugin", "--profile", "web", "add", tarball], {
      pnpm: false,
    });
    equal(noPnpm.code, 127);
    match(noPnpm.stderr, /pnpm not found on PATH/);
    await addPlugin(world, "web", tarball);
    const crashed = await runDsh(world, ["--profile", "web", "--no-open", "--port", "0"]);
    ok(crashed.code !== 0);
    match(
      crashed.stdout + crashed.stderr,
      /user patch-layer watching requires the Cordis HMR service/,
    );
  });
});

/**
 * `skill.list` of a session, one row per name, asked again (at most 150 times, 200 ms apart)
 * until `done` holds; fails with the last answer.
 */
async function skillList(
  web: WebDsh,
  sessionId: string,
  done: (rows: Map<string, SkillRow>) => boolean,
): Promise<Map<string, SkillRow>> {
  let rows = new Map<string, SkillRow>();
  for (let attempt = 0; attempt < 150; attempt++) {
    const value = await web.api("skill.list", { sessionId });
    rows = new Map((value.skills as SkillRow[]).map((row) => [row.name, row]));
    if (done(rows)) return rows;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`skill.list never matched: ${JSON.stringify([...rows.values()])}`);
}

interface SkillRow {
  name: string;
  description: string;
  whenToUse?: string;
  modelInvocable: boolean;
}

/** Creates a session in the project (in `preset` when given) and returns its id. */
async function newSession(web: WebDsh, world: DshWorld, preset?: string): Promise<string> {
  const created = await web.api("session.create", {
    cwd: world.project,
    ...(preset === undefined ? {} : { agentPreset: preset }),
  });
  return created.sessionId as string;
}

/**
 * The agent's first or last turn among the model's requests (dsh also asks the model for a
 * session title, without tools).
 */
function agentTurn(requests: readonly ChatRequest[], which: "first" | "last"): ChatRequest {
  const isTurn = (request: ChatRequest) => (request.tools ?? []).length > 0;
  const turn = which === "first" ? requests.find(isTurn) : requests.findLast(isTurn);
  ok(turn, `no agent turn among ${requests.length} requests`);
  return turn;
}

/** Prompts `sessionId` once and returns what the model received. */
async function prompt(web: WebDsh, world: DshWorld, sessionId: string): Promise<ChatRequest> {
  const before = world.model.requests.length;
  await web.api("session.prompt", {
    sessionId,
    mode: "queue",
    content: [{ type: "text", text: "Which skills do you have?" }],
  });
  return await world.model.received(before + 1);
}

const visible = (rows: Map<string, SkillRow>) =>
  [...rows.values()].filter((row) => row.modelInvocable).map((row) => row.name).sort();

/**
 * A preset of the user's own (`$DSH_HOME/.agent-presets/<id>/`): dsh's shipped `standard`
 * composition plus both rows of this plugin, under other provider and tools names.
 */
async function writePreset(world: DshWorld, id: string): Promise<void> {
  const shipped = join(world.install.dshPackage, "config", "agent-presets", "standard");
  const dir = join(world.dshHome, ".agent-presets", id);
  await mkdir(dir, { recursive: true });
  const composition = await readFile(join(shipped, "agent.cordis.yml"), "utf8");
  await writeFile(
    join(dir, "agent.cordis.yml"),
    `${composition}\n- id: skills-anywhere\n  name: dsh-skills-anywhere\n  config:\n    sync: false\n` +
      "- id: skills-anywhere-tools\n  name: dsh-skills-anywhere/tools\n",
  );
  await writeFile(
    join(dir, "preset.yml"),
    "name: Anywhere\ndescription: standard, with skills-anywhere in the preset layer.\norder: 9\n",
  );
}

Deno.test("dsh booted (web): rows, precedence, budget, states, tools per preset", async () => {
  await withWorld(async (world, tarball) => {
    await addPlugin(world, "web", tarball);
    await writeFile(join(profileDir(world, "web"), "cordis.patch.yml"), PROVIDER_ROW);
    await writePreset(world, "anywhere");
    const web = await WebDsh.start(world, ["--patch", hmrPatch(world)]);
    try {
      const standard = await newSession(web, world);
      // (4) The budget of 3 goes to names dsh does not shadow: both-places and aa-shadow-* are
      // dsh's in the standard preset (its filesystem provider sits in the nearer preset layer).
      const rows = await skillList(web, standard, (r) => visible(r).includes("ours-c"));
      deepEqual(visible(rows).filter((n) => n.startsWith("ours")), ["ours-a", "ours-b", "ours-c"]);
      // (3) In the shipped standard preset, dsh's user folder wins a name our project has.
      equal(rows.get("both-places")?.description, "Theirs in the dsh user folder.");
      equal(rows.get("aa-shadow-1")?.description, "Theirs aa-shadow-1.");
      // (6) Budget-hidden and author-disabled differ in skill.list.
      equal(rows.get("ours-d")?.modelInvocable, false);
      match(rows.get("ours-d")?.whenToUse ?? "", /^Not in the model's skill catalog/);
      equal(rows.get("ours-off")?.modelInvocable, false);
      equal(rows.get("ours-off")?.whenToUse, undefined);

      const request = await prompt(web, world, standard);
      for (const name of ["ours-a", "ours-b", "ours-c"]) ok(catalogHas(request, name), name);
      for (const name of ["ours-d", "ours-off"]) ok(!catalogHas(request, name), name);
      // (5) The tools row is opt-in: the standard preset has dsh's skill tool, not ours.
      ok(!toolNames(request).includes("find_skills"), toolNames(request).join());

      // (3)(5) A preset of the user's own with both rows: the tools there alone, and the ranks
      // hold in its layer (our project folder, 250, beats dsh's ~/.dsh/skills, 400).
      const mine = await newSession(web, world, "anywhere");
      const mineRows = await skillList(web, mine, (r) => r.has("both-places"));
      equal(mineRows.get("both-places")?.description, "Ours in the project.");
      const mineRequest = await prompt(web, world, mine);
      for (const name of ["find_skills", "open_skill"]) {
        ok(toolNames(mineRequest).includes(name), toolNames(mineRequest).join());
      }
    } finally {
      await web.stop();
    }
  });
});

/** The first agent turn calls find_skills; every other request gets the text "ok". */
function findOnce(request: ChatRequest): Reply {
  const first = (request.tools ?? []).length > 0 &&
    !request.messages.some((message) => message.role === "tool");
  return first ? { call: { name: "find_skills", arguments: { query: "ours skill" } } } : {
    text: "ok",
  };
}

/** The text of the first tool result the model received. */
function toolResult(requests: readonly ChatRequest[]): string {
  for (const request of requests) {
    const message = request.messages.find((m) => m.role === "tool");
    if (message !== undefined) {
      return typeof message.content === "string"
        ? message.content
        : JSON.stringify(message.content);
    }
  }
  throw new Error(`no tool result among ${requests.length} requests`);
}

Deno.test("dsh booted (headless): ranks hold in one layer, tools opt in, removal", async () => {
  await withWorld(async (world, tarball) => {
    await addPlugin(world, "headless", tarball);
    const patchFile = join(profileDir(world, "headless"), "cordis.patch.yml");
    // (5) The tools row is opt-in: enabled here for the whole (preset-less) profile.
    await writeFile(patchFile, PROVIDER_ROW + "- id: skills-anywhere-tools\n  disabled: false\n");
    const task = ["--profile", "headless", "--patch", hmrPatch(world), "Which skills?"];
    const answered = await runDsh(world, task);
    equal(answered.code, 0, answered.stdout + answered.stderr);
    match(answered.stdout, /ok/);
    const request = agentTurn(world.model.requests, "first");
    const tools = toolNames(request);
    for (const name of ["find_skills", "open_skill", "skill"]) {
      ok(tools.includes(name), tools.join());
    }
    // (3) One layer: our project folder (250) wins over dsh's ~/.dsh/skills (400).
    const system = seen(request);
    ok(system.includes("Ours in the project."), system);
    ok(!system.includes("Theirs in the dsh user folder."), system);
    // (4) The 3 places: both-places, ours-a, ours-b (the shadowed aa-shadow-* take none).
    for (const name of ["ours-a", "ours-b"]) ok(system.includes(`Ours ${name} skill.`), name);
    ok(!system.includes("Ours ours-c skill."), system);
    ok(system.includes("Theirs aa-shadow-1."), system);

    // (6)(8) The model called find_skills: the budget-hidden ours-c is found and marked, the
    // author-disabled ours-off is not, and the counts leave it out, in agreeing words.
    const result = toolResult(world.model.requests);
    match(result, /^\d+ of \d+ skills matched \(\d+ not in the catalog\):/);
    match(result, /- ours-c \(not in catalog: load with open_skill\) — Ours ours-c skill\./);
    ok(!result.includes("ours-off"), result);

    // After `plugin remove` the profile still boots (the rows left in its patch only warn, in the
    // log; the web test shows the line), and the model no longer gets our tools.
    const removed = await runDsh(world, [
      "plugin",
      "--profile",
      "headless",
      "remove",
      "dsh-skills-anywhere",
    ]);
    equal(removed.code, 0, removed.stderr);
    const clean = await runDsh(world, task);
    equal(clean.code, 0, clean.stdout + clean.stderr);
    ok(!toolNames(agentTurn(world.model.requests, "last")).includes("find_skills"));
  }, findOnce);
});

/**
 * A row that, once the profile is up, prints the registry's skills and dsh's log so far (the
 * Cordis logger's buffer: logger name and arguments of each message), then rewrites the SKILL.md
 * at `edit` inside its skill folder and prints the description the registry gives for it (asked
 * again up to 40 times, 100 ms apart, until it changes), then exits 0.
 */
function observerSource(edit: string, name: string): string {
  return `import { writeFileSync } from "node:fs";
export const name = "observer";
export const inject = ["skills"];
const describe = async (ctx) =>
  (await ctx.skills.list({ cwd: process.cwd() })).find((s) => s.name === ${JSON.stringify(name)})
    ?.description;
export function apply(ctx) {
  setTimeout(async () => {
    const skills = await ctx.skills.list({ cwd: process.cwd() });
    console.log("OBSERVED " + JSON.stringify(skills.map((s) => [s.name, s.provider])));
    const log = ctx.logger.buffer.map((m) => [m.name, m.args.map(String).join(" ")]);
    console.log("LOGGED " + JSON.stringify(log));
    const before = await describe(ctx);
    if (before !== undefined) {
      writeFileSync(${JSON.stringify(edit)}, ${
    JSON.stringify(skillMd(name, "Edited here.", "New body."))
  });
      let now = before;
      for (let i = 0; i < 40 && now === before; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        now = await describe(ctx);
      }
      console.log("EDITED " + JSON.stringify(now));
    }
    process.exit(0);
  }, 500);
}
`;
}

/** What the observer printed: the skills (name → provider) and the log lines [logger, text]. */
function observed(stdout: string): { skills: Map<string, string>; log: [string, string][] } {
  const line = (tag: string) => {
    const found = stdout.split("\n").find((text) => text.startsWith(`${tag} `));
    ok(found, stdout);
    return JSON.parse(found.slice(tag.length + 1));
  };
  return { skills: new Map(line("OBSERVED")), log: line("LOGGED") };
}

Deno.test("dsh booted: a profile with the skill registry and no tool runtime; its log; SKILL.md edits", async () => {
  await withWorld(async (world, tarball) => {
    await addPlugin(world, "lean", tarball);
    // Only this plugin's bundle; the profile's own layer adds the skill registry (and the
    // timer and hmr rows dsh's launcher needs), no tool runtime, and turns the tools row on.
    const manifestFile = join(profileDir(world, "lean"), "package.json");
    const manifest = JSON.parse(await readFile(manifestFile, "utf8"));
    manifest.dsh.profile.bundles = ["dsh-skills-anywhere"];
    await writeFile(manifestFile, JSON.stringify(manifest, null, 2));
    const observer = join(world.home, "..", "observer.mjs");
    const edit = join(world.home, ".claude", "skills", "ours-a", "SKILL.md");
    await writeFile(observer, observerSource(edit, "ours-a"));
    await writeFile(
      join(profileDir(world, "lean"), "cordis.patch.yml"),
      `- insert:
    - { id: timer, name: '@deepseek-ai/cordis-plugin-timer' }
    - { id: hmr, name: '@deepseek-ai/cordis-plugin-hmr', config: { root: [] } }
    - { id: skill, name: '@deepseek-ai/dsh-skill' }
    - { id: observer, name: ${JSON.stringify(observer)} }
- id: skills-anywhere-tools
  disabled: false
`,
    );
    const booted = await runDsh(world, ["--profile", "lean"]);
    equal(booted.code, 0, booted.stdout + booted.stderr);
    const first = observed(booted.stdout);
    equal(first.skills.get("ours-a"), "skills-anywhere");
    equal(first.skills.get("both-places"), "skills-anywhere");
    // (8) The registration line: dsh's logger is named after the plugin, the text is not.
    const ours = first.log.filter(([logger]) => logger === "skills-anywhere");
    ok(ours.some(([, text]) => /^provider "skills-anywhere" registered/.test(text)), `${ours}`);
    for (const [, text] of ours) ok(!text.startsWith("skills-anywhere"), text);
    // (2) Editing SKILL.md inside its skill folder reaches dsh's registry.
    ok(booted.stdout.includes('EDITED "Edited here."'), booted.stdout);

    // (8) After `plugin remove`, the rows the user wrote are what dsh's loader warns about.
    const removed = await runDsh(world, [
      "plugin",
      "--profile",
      "lean",
      "remove",
      "dsh-skills-anywhere",
    ]);
    equal(removed.code, 0, removed.stderr);
    const after = await runDsh(world, ["--profile", "lean"]);
    equal(after.code, 0, after.stdout + after.stderr);
    equal(observed(after.stdout).skills.get("ours-a"), undefined);
    const dump = await runDsh(world, ["--profile", "lean", "--dump-config"]);
    match(
      dump.stdout + dump.stderr,
      /cordis\.patch\.yml\] patch: entry "skills-anywhere-tools" not found/,
    );
  });
});
