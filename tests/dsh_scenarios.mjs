// dsh integration scenarios, run in-process against the REAL `@deepseek-ai/dsh-skill` registry and
// `@deepseek-ai/dsh-tools` runtime, once with the sources (tests/dsh_test.ts) and once with the
// packed npm package under Node (the runner tests/dsh_test.ts writes). This file has no imports:
// every scenario receives `env` = {
//   Context, SkillRegistry, SystemPrompt, ToolRuntime, renderSkillContent,  (the dsh packages)
//   provider, tools,               (the `skills-anywhere` and `skills-anywhere-tools` modules)
//   assert,                        (node:assert/strict)
//   fs: {tempDir, write, read, mkdir, remove, exists}, git(args, cwd),
//   silentServer() -> {port, connections(), close()}, gitProcesses() -> pids (synchronous)
// }.
// Every provider gets explicit temp `home` and `dshHome`; `watch` and `sync` are off except in
// the tests about them. References: REF §12 items 34–44, 94–96; REF §11 #3, #6, #11, #14, #21.

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a truthy value (or fails after `ms`). */
async function until(check, what, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(40);
  }
}

/** A SKILL.md with `name`, `description` and extra frontmatter lines. */
function skillMd(name, description, options = {}) {
  const extra = (options.front ?? []).map((line) => `${line}\n`).join("");
  const body = options.body ?? `Instructions of ${name}.`;
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\n\n${body}\n`;
}

/** A temp tree: a home (with its dsh home) and a git project outside it. */
async function tree(env) {
  const base = await env.fs.tempDir();
  const home = `${base}/home`;
  const project = `${base}/work/app`;
  await env.fs.mkdir(home);
  await env.fs.mkdir(`${project}/.git`);
  const t = {
    base,
    home,
    dshHome: `${home}/.dsh`,
    project,
    userSkills: `${home}/.claude/skills`,
    projectSkills: `${project}/.claude/skills`,
    /** The provider row config: explicit homes, no watching, no git, unless overridden. */
    config: (extra = {}) => ({
      home,
      dshHome: `${home}/.dsh`,
      watch: false,
      sync: false,
      ...extra,
    }),
    /** Writes `<dir>/<name>/SKILL.md`. */
    add: (dir, name, description, options) =>
      env.fs.write(`${dir}/${name}/SKILL.md`, skillMd(name, description, options)),
  };
  return t;
}

/** A git repository at `dir` with `skills/<name>/SKILL.md` for each name, committed. */
async function upstream(env, dir, names) {
  await env.fs.mkdir(dir);
  await env.git(["init", "-q", "-b", "main", dir]);
  await commitSkills(env, dir, names);
}

async function commitSkills(env, dir, names) {
  for (const name of names) {
    await env.fs.write(`${dir}/skills/${name}/SKILL.md`, skillMd(name, `The ${name} skill.`));
  }
  await env.git(["add", "-A"], dir);
  await env.git(["commit", "-q", "-m", `add ${names.join(" ")}`], dir);
}

/**
 * Mounts dsh's services and the provider plugin on a new root context: SystemPrompt, then
 * ToolRuntime (only with `toolsConfig`), then SkillRegistry, the provider, the tools plugin.
 */
async function mount(env, config, toolsConfig) {
  const ctx = new env.Context();
  if (toolsConfig !== undefined) {
    await ctx.plugin(env.SystemPrompt);
    await ctx.plugin(env.ToolRuntime);
  }
  await ctx.plugin(env.SkillRegistry);
  const fiber = await ctx.plugin(env.provider, config);
  if (toolsConfig !== undefined) await ctx.plugin(env.tools, toolsConfig);
  const changes = { count: 0 };
  ctx.on("skills/change", () => {
    changes.count += 1;
  });
  return { ctx, fiber, changes, close: () => ctx.fiber.dispose() };
}

/**
 * The provider class itself, registered on the real registry the way the plugin's `apply` does,
 * for what the registry does not pass through (ranks, raw candidates, `reconfigure`, states).
 */
async function mountDirect(env, raw) {
  const ctx = new env.Context();
  await ctx.plugin(env.SkillRegistry);
  const parsed = await env.provider.Config["~standard"].validate(raw);
  env.assert.equal(parsed.issues, undefined);
  const resolved = env.provider.catalogConfig(parsed.value);
  let instance;
  await ctx.plugin({
    name: "skills-anywhere-probe",
    inject: ["skills"],
    apply(inner) {
      inner.skills.registerProvider((control) => {
        instance = new env.provider.SkillsAnywhereProvider(resolved, () => {}, control);
        return instance;
      });
    },
  });
  const changes = { count: 0 };
  ctx.on("skills/change", () => {
    changes.count += 1;
  });
  return { ctx, provider: instance, changes, close: () => ctx.fiber.dispose() };
}

let calls = 0;

/** Executes a tool through the real ToolRuntime. */
function call(ctx, name, args) {
  calls += 1;
  return ctx.tools.execute({
    callId: `call-${calls}`,
    name,
    arguments: args,
    signal: new AbortController().signal,
  });
}

function textOf(result) {
  return result.content.map((block) => block.text ?? "").join("\n");
}

const names = (skills) => skills.map((skill) => skill.name).sort();

async function catalogStateOf(ctx, name, cwd) {
  const definition = await ctx.skills.get(name, { cwd });
  return definition?.metadata?.skillsAnywhere?.catalog;
}

// ---------------------------------------------------------------------------------------------
// Plugin shape, registration, configuration

/** `ctx.plugin(provider)` registers provider "skills-anywhere"; candidates carry its name. */
export async function pluginRegistersProvider(env) {
  const { assert } = env;
  assert.equal(env.provider.name, "skills-anywhere");
  assert.deepEqual([...env.provider.inject], ["skills"]);
  assert.equal(env.tools.name, "skills-anywhere-tools");
  assert.deepEqual([...env.tools.inject], ["skills", "tools"]);
  const t = await tree(env);
  await t.add(t.userSkills, "user-one", "A user skill.");
  await t.add(t.projectSkills, "project-one", "A project skill.");
  const m = await mount(env, t.config());
  try {
    const skills = await m.ctx.skills.list({ cwd: t.project });
    assert.deepEqual(names(skills), ["project-one", "user-one"]);
    for (const skill of skills) assert.equal(skill.provider, "skills-anywhere");
    assert.equal(skills.find((s) => s.name === "user-one").source, "anywhere-user");
    assert.equal(skills.find((s) => s.name === "project-one").source, "anywhere-project");
    // Without a cwd there are no project roots.
    assert.deepEqual(names(await m.ctx.skills.list()), ["user-one"]);
    const definition = await m.ctx.skills.get("user-one");
    assert.equal(definition.provider, "skills-anywhere");
    assert.deepEqual(definition.resourceBase, {
      kind: "directory",
      path: `${t.userSkills}/user-one`,
    });
    // A second row with the same provider name is refused by the registry.
    await assert.rejects(async () => {
      await m.ctx.plugin(env.provider, t.config());
    }, /already registered/);
    // Disposing the plugin unregisters the provider.
    await m.fiber.dispose();
    assert.deepEqual(await m.ctx.skills.list({ cwd: t.project }), []);
  } finally {
    await m.close();
  }
}

/** The Config schema fills REF §9.2 defaults and rejects wrong types through `ctx.plugin`. */
export async function configSchema(env) {
  const { assert } = env;
  const parsed = await env.provider.Config["~standard"].validate({});
  assert.equal(parsed.issues, undefined);
  const d = parsed.value;
  assert.equal(d.providerName, "skills-anywhere");
  assert.equal(d.agents, true);
  assert.equal(d.sharedDirs, false);
  assert.equal(d.claudePlugins, true);
  assert.deepEqual(d.sources, []);
  assert.equal(d.sourcesFiles, true);
  assert.equal(d.sync, true);
  assert.equal(d.syncOnStart, true);
  assert.equal(d.syncIntervalMs, 21_600_000);
  assert.equal(d.syncTimeoutMs, 120_000);
  assert.equal(d.maxDepth, 5);
  assert.equal(d.watch, true);
  assert.deepEqual(d.catalog, { limit: 50, pin: [], hide: [] });
  const tools = await env.tools.Config["~standard"].validate({});
  assert.deepEqual(tools.value, { findLimit: 10, findMaxLimit: 50, find: true, open: true });

  const t = await tree(env);
  const ctx = new env.Context();
  await ctx.plugin(env.SkillRegistry);
  try {
    for (
      const bad of [
        { agents: "yes" },
        { catalog: { limit: "many" } },
        { sources: [42] },
        { excludeAgents: "claude-code" },
      ]
    ) {
      await assert.rejects(
        async () => {
          await ctx.plugin(env.provider, t.config(bad));
        },
        undefined,
        JSON.stringify(bad),
      );
    }
    // A good config still registers (no half-registered provider was left behind).
    await ctx.plugin(env.provider, t.config());
    assert.deepEqual(await ctx.skills.list(), []);
  } finally {
    await ctx.fiber.dispose();
  }
}

// ---------------------------------------------------------------------------------------------
// Catalog budget (REF §3.4, §12 items 34–36)

/** REF §12 #34: limit 2 over a, b, c → visible, visible, hidden. */
export async function budgetLimitTwo(env) {
  const { assert } = env;
  const t = await tree(env);
  for (const name of ["a", "b", "c"]) await t.add(t.userSkills, name, `Skill ${name}.`);
  const m = await mount(env, t.config({ catalog: { limit: 2 } }));
  try {
    const skills = await m.ctx.skills.list();
    assert.deepEqual(
      skills.map((s) => [s.name, s.invocation.modelInvocable]),
      [["a", true], ["b", true], ["c", false]],
    );
    assert.equal(await catalogStateOf(m.ctx, "a"), "visible");
    assert.equal(await catalogStateOf(m.ctx, "b"), "visible");
    assert.equal(await catalogStateOf(m.ctx, "c"), "hidden");
  } finally {
    await m.close();
  }
}

/** REF §12 #35: pin jumps the queue, hide never shows, disabled is uncounted, limit 0 = all. */
export async function budgetPinHideDisabled(env) {
  const { assert } = env;
  const t = await tree(env);
  await t.add(t.userSkills, "a", "Skill a.", { front: ["disable-model-invocation: true"] });
  for (const name of ["b", "c", "d"]) await t.add(t.userSkills, name, `Skill ${name}.`);
  const statesFor = async (catalog) => {
    const m = await mount(env, t.config({ catalog }));
    try {
      const out = {};
      for (const name of ["a", "b", "c", "d"]) out[name] = await catalogStateOf(m.ctx, name);
      return out;
    } finally {
      await m.close();
    }
  };
  assert.deepEqual(await statesFor({ limit: 2 }), {
    a: "disabled",
    b: "visible",
    c: "visible",
    d: "hidden",
  });
  assert.deepEqual(await statesFor({ limit: 2, pin: ["d"] }), {
    a: "disabled",
    b: "visible",
    c: "hidden",
    d: "visible",
  });
  assert.deepEqual(await statesFor({ limit: 2, pin: ["d"], hide: ["b"] }), {
    a: "disabled",
    b: "hidden",
    c: "visible",
    d: "visible",
  });
  assert.deepEqual(await statesFor({ limit: 0, hide: ["c"] }), {
    a: "disabled",
    b: "visible",
    c: "hidden",
    d: "visible",
  });
  assert.deepEqual(await statesFor({ limit: 0 }), {
    a: "disabled",
    b: "visible",
    c: "visible",
    d: "visible",
  });
  // A fractional limit is floored (1.9 → 1).
  assert.deepEqual(await statesFor({ limit: 1.9 }), {
    a: "disabled",
    b: "visible",
    c: "hidden",
    d: "hidden",
  });
}

/** REF §12 #36: hidden → {modelInvocable:false, userInvocable:<author>}, state and author kept. */
export async function hiddenCandidatesPublished(env) {
  const { assert } = env;
  const t = await tree(env);
  await t.add(t.userSkills, "a", "Skill a.");
  await t.add(t.userSkills, "b", "Skill b.");
  await t.add(t.userSkills, "c", "Skill c.", { front: ["user-invocable: false"] });
  const raw = t.config({ catalog: { limit: 1 } });
  // What the registry sees.
  const m = await mount(env, raw);
  try {
    const byName = Object.fromEntries(
      (await m.ctx.skills.list()).map((s) => [s.name, s.invocation]),
    );
    assert.deepEqual(byName.a, { modelInvocable: true, userInvocable: true });
    assert.deepEqual(byName.b, { modelInvocable: false, userInvocable: true });
    assert.deepEqual(byName.c, { modelInvocable: false, userInvocable: false });
    const b = await m.ctx.skills.get("b");
    assert.deepEqual(b.invocation, { modelInvocable: false, userInvocable: true });
    assert.equal(b.metadata.skillsAnywhere.catalog, "hidden");
    assert.deepEqual(b.metadata.skillsAnywhere.authorInvocation, {
      modelInvocable: true,
      userInvocable: true,
    });
  } finally {
    await m.close();
  }
  // The candidates themselves.
  const d = await mountDirect(env, raw);
  try {
    const candidates = await d.provider.list({});
    const b = candidates.find((c) => c.name === "b");
    assert.deepEqual(b.invocation, { modelInvocable: false, userInvocable: true });
    assert.equal(b.metadata.skillsAnywhere.catalog, "hidden");
    assert.deepEqual(b.metadata.skillsAnywhere.authorInvocation, {
      modelInvocable: true,
      userInvocable: true,
    });
    const c = candidates.find((x) => x.name === "c");
    assert.deepEqual(c.invocation, { modelInvocable: false, userInvocable: false });
    assert.deepEqual(c.metadata.skillsAnywhere.authorInvocation, {
      modelInvocable: true,
      userInvocable: false,
    });
    const a = candidates.find((x) => x.name === "a");
    assert.equal(a.metadata.skillsAnywhere.catalog, "visible");
    assert.equal(a.provider, "skills-anywhere");
    assert.equal(a.path, `${t.userSkills}/a/SKILL.md`);
    assert.deepEqual(a.locator, {
      path: `${t.userSkills}/a/SKILL.md`,
      directory: `${t.userSkills}/a`,
    });
    assert.deepEqual(a.resourceBase, { kind: "directory", path: `${t.userSkills}/a` });
    assert.equal(await d.provider.catalogState("b"), "hidden");
  } finally {
    await d.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Roots and ranks (REF §12 items 37, 38, 44; REF §11 #21)

/** REF §12 #37: project 250, user 550, plugins 580, sources 700; a spec rank overrides. */
export async function providerRanks(env) {
  const { assert } = env;
  const t = await tree(env);
  await t.add(t.projectSkills, "in-project", "Project skill.");
  await t.add(t.userSkills, "in-user", "User skill.");
  await t.add(
    `${t.home}/.claude/plugins/marketplaces/market/plugins/tool/skills`,
    "in-plugin",
    "Plugin skill.",
  );
  await upstream(env, `${t.base}/up-default`, ["from-default"]);
  await upstream(env, `${t.base}/up-ranked`, ["from-ranked"]);
  const raw = t.config({
    sync: true,
    syncOnStart: false,
    syncIntervalMs: 0,
    sources: [`${t.base}/up-default`, { repo: `${t.base}/up-ranked`, rank: 10 }],
  });
  const d = await mountDirect(env, raw);
  try {
    const results = await d.provider.syncAll();
    assert.deepEqual(results.map((r) => r.status), ["cloned", "cloned"]);
    const candidates = await d.provider.list({ cwd: t.project });
    const rank = Object.fromEntries(candidates.map((c) => [c.name, [c.rank, c.source]]));
    assert.deepEqual(rank, {
      "in-project": [250, "anywhere-project"],
      "in-user": [550, "anywhere-user"],
      "in-plugin": [580, "anywhere-claude-plugins"],
      "from-default": [700, "anywhere-source"],
      "from-ranked": [10, "anywhere-source"],
    });
    // The registry honours those ranks against another contribution (runtime skills rank 250).
    const runtime = (name) =>
      d.ctx.skills.register({
        name,
        description: "runtime copy",
        content: "runtime body",
        source: "runtime",
      });
    runtime("in-user");
    runtime("from-ranked");
    const listed = await d.ctx.skills.list({ cwd: t.project });
    assert.equal(listed.find((s) => s.name === "in-user").provider, "runtime");
    assert.equal(listed.find((s) => s.name === "from-ranked").provider, "skills-anywhere");
  } finally {
    await d.close();
  }
  // Partial rank overrides merge over the defaults.
  const o = await mountDirect(env, t.config({ ranks: { user: 123 } }));
  try {
    const candidates = await o.provider.list({ cwd: t.project });
    const rank = Object.fromEntries(candidates.map((c) => [c.name, c.rank]));
    assert.deepEqual(rank, { "in-project": 250, "in-user": 123, "in-plugin": 580 });
  } finally {
    await o.close();
  }
}

/** REF §12 #38: `excludeAgents: ['claude-code']` and `claudePlugins: false` remove those roots. */
export async function excludeAgentsAndPlugins(env) {
  const { assert } = env;
  const t = await tree(env);
  await t.add(t.projectSkills, "claude-project", "Claude project skill.");
  await t.add(t.userSkills, "claude-user", "Claude user skill.");
  await t.add(`${t.home}/.cursor/skills`, "cursor-user", "Cursor user skill.");
  await t.add(`${t.project}/.cursor/skills`, "cursor-project", "Cursor project skill.");
  await t.add(
    `${t.home}/.claude/plugins/marketplaces/market/plugins/tool/skills`,
    "plugin-skill",
    "Plugin skill.",
  );
  const listed = async (extra) => {
    const m = await mount(env, t.config(extra));
    try {
      return names(await m.ctx.skills.list({ cwd: t.project }));
    } finally {
      await m.close();
    }
  };
  assert.deepEqual(await listed({}), [
    "claude-project",
    "claude-user",
    "cursor-project",
    "cursor-user",
    "plugin-skill",
  ]);
  assert.deepEqual(await listed({ excludeAgents: ["claude-code"] }), [
    "cursor-project",
    "cursor-user",
    "plugin-skill",
  ]);
  assert.deepEqual(await listed({ claudePlugins: false }), [
    "claude-project",
    "claude-user",
    "cursor-project",
    "cursor-user",
  ]);
  assert.deepEqual(await listed({ agents: false }), ["plugin-skill"]);
}

/** REF §12 #44, §11 #21: no `.agents` roots by default in dsh; 200/500 when on; excludable. */
export async function sharedDirs(env) {
  const { assert } = env;
  const t = await tree(env);
  await t.add(`${t.project}/.agents/skills`, "shared-project", "Shared project skill.");
  await t.add(`${t.home}/.agents/skills`, "shared-user", "Shared user skill.");
  await t.add(t.userSkills, "claude-user", "Claude user skill.");
  const m = await mount(env, t.config());
  try {
    assert.deepEqual(names(await m.ctx.skills.list({ cwd: t.project })), ["claude-user"]);
  } finally {
    await m.close();
  }
  const on = await mountDirect(env, t.config({ sharedDirs: true }));
  try {
    const candidates = await on.provider.list({ cwd: t.project });
    const rank = Object.fromEntries(candidates.map((c) => [c.name, [c.rank, c.source]]));
    assert.deepEqual(rank, {
      "shared-project": [200, "anywhere-project"],
      "shared-user": [500, "anywhere-user"],
      "claude-user": [550, "anywhere-user"],
    });
    assert.deepEqual(names(await on.ctx.skills.list({ cwd: t.project })), [
      "claude-user",
      "shared-project",
      "shared-user",
    ]);
  } finally {
    await on.close();
  }
  const excluded = await mount(env, t.config({ sharedDirs: true, excludeAgents: ["agents"] }));
  try {
    assert.deepEqual(names(await excluded.ctx.skills.list({ cwd: t.project })), ["claude-user"]);
  } finally {
    await excluded.close();
  }
}

// ---------------------------------------------------------------------------------------------
// get(): fresh reads (REF §12 items 39, 40; REF §11 #14)

/** REF §12 #39: a fresh author opt-out after list → not invocable and not openable (0 and 50). */
export async function freshAuthorOptOut(env) {
  const { assert } = env;
  for (const limit of [0, 50]) {
    const t = await tree(env);
    await t.add(t.userSkills, "opt-out", "A skill whose author changes their mind.");
    const m = await mount(env, t.config({ catalog: { limit } }), {});
    try {
      const before = await m.ctx.skills.list();
      assert.deepEqual(before[0].invocation, { modelInvocable: true, userInvocable: true });
      const opened = await call(m.ctx, "open_skill", { name: "opt-out" });
      assert.equal(opened.isError, false, textOf(opened));
      await t.add(t.userSkills, "opt-out", "A skill whose author changes their mind.", {
        front: ["disable-model-invocation: true"],
      });
      // Discovery is cached (no watcher): the summary still says invocable …
      assert.equal(
        (await m.ctx.skills.list())[0].invocation.modelInvocable,
        true,
        `limit ${limit}`,
      );
      // … but the load applies the author's current setting.
      const definition = await m.ctx.skills.get("opt-out");
      assert.equal(definition.invocation.modelInvocable, false, `limit ${limit}`);
      assert.equal(definition.invocation.userInvocable, true);
      assert.equal(definition.metadata.skillsAnywhere.catalog, "visible");
      assert.deepEqual(definition.metadata.skillsAnywhere.authorInvocation, {
        modelInvocable: false,
        userInvocable: true,
      });
      const refused = await call(m.ctx, "open_skill", { name: "opt-out" });
      assert.equal(refused.isError, true, `limit ${limit}`);
      assert.match(textOf(refused), /skill "opt-out" is not available for model invocation/);
      const found = await call(m.ctx, "find_skills", { query: "author mind" });
      assert.equal(found.isError, false);
      assert.deepEqual(found.value.matches, [], `limit ${limit}`);
    } finally {
      await m.close();
    }
  }
}

/** REF §11 #14: newly disabled applies at load despite cached discovery, also budget-hidden. */
export async function newlyDisabledBudgetHidden(env) {
  const { assert } = env;
  const t = await tree(env);
  await t.add(t.userSkills, "alpha-notes", "Take notes about alpha.");
  await t.add(t.userSkills, "beta-notes", "Take notes about beta.");
  const m = await mount(env, t.config({ catalog: { limit: 1 } }), {});
  try {
    assert.equal(await catalogStateOf(m.ctx, "beta-notes"), "hidden");
    const found = await call(m.ctx, "find_skills", { query: "beta" });
    assert.deepEqual(found.value.matches.map((x) => [x.name, x.listed]), [["beta-notes", false]]);
    const opened = await call(m.ctx, "open_skill", { name: "beta-notes" });
    assert.equal(opened.isError, false, textOf(opened));
    await t.add(t.userSkills, "beta-notes", "Take notes about beta.", {
      front: ["disable-model-invocation: yes"],
    });
    const definition = await m.ctx.skills.get("beta-notes");
    assert.equal(definition.metadata.skillsAnywhere.catalog, "hidden");
    assert.equal(definition.metadata.skillsAnywhere.authorInvocation.modelInvocable, false);
    const refused = await call(m.ctx, "open_skill", { name: "beta-notes" });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /not available for model invocation/);
    const again = await call(m.ctx, "find_skills", { query: "beta" });
    assert.deepEqual(again.value.matches, []);
  } finally {
    await m.close();
  }
}

/** REF §12 #40: get re-reads edited content and returns undefined once the file is gone. */
export async function getRereadsAndDeleted(env) {
  const { assert } = env;
  const t = await tree(env);
  await t.add(t.userSkills, "changing", "First description.", { body: "First body." });
  await env.fs.write(`${t.userSkills}/flat-one.md`, skillMd("flat-one", "A flat file skill."));
  const m = await mount(env, t.config());
  try {
    assert.deepEqual(names(await m.ctx.skills.list()), ["changing", "flat-one"]);
    assert.match((await m.ctx.skills.get("changing")).content, /First body\./);
    await t.add(t.userSkills, "changing", "Second description.", { body: "Second body." });
    const edited = await m.ctx.skills.get("changing");
    assert.match(edited.content, /Second body\./);
    assert.doesNotMatch(edited.content, /First body/);
    assert.equal(edited.description, "Second description.");
    // A drifted frontmatter name keeps the published name.
    await env.fs.write(
      `${t.userSkills}/changing/SKILL.md`,
      skillMd("renamed", "Third.", { body: "Third body." }),
    );
    const drifted = await m.ctx.skills.get("changing");
    assert.equal(drifted.name, "changing");
    assert.match(drifted.content, /Third body\./);
    await env.fs.remove(`${t.userSkills}/changing`);
    assert.equal(await m.ctx.skills.get("changing"), undefined);
    await env.fs.remove(`${t.userSkills}/flat-one.md`);
    assert.equal(await m.ctx.skills.get("flat-one"), undefined);
    // Replaced with bytes that are not UTF-8: refused, not served.
    // (The registry caches the catalog: a skill added now is not listed until invalidated.)
    await t.add(t.userSkills, "later-bad", "Fine for now.");
    assert.equal(await m.ctx.skills.get("later-bad"), undefined);
  } finally {
    await m.close();
  }
  // A file replaced with bytes that are not UTF-8 is refused, not served.
  const n = await mount(env, t.config());
  try {
    assert.ok(await n.ctx.skills.get("later-bad"));
    await env.fs.write(
      `${t.userSkills}/later-bad/SKILL.md`,
      new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x0a]),
    );
    assert.equal(await n.ctx.skills.get("later-bad"), undefined);
  } finally {
    await n.close();
  }
}

// ---------------------------------------------------------------------------------------------
// reconfigure (REF §12 item 41)

/** REF §12 #41: reconfigure changes states, pins, hides and exclusions, and invalidates. */
export async function reconfigureInvalidates(env) {
  const { assert } = env;
  const t = await tree(env);
  for (const name of ["a", "b", "c", "d"]) await t.add(t.userSkills, name, `Skill ${name}.`);
  const d = await mountDirect(env, t.config());
  try {
    const invocable = async () =>
      Object.fromEntries(
        (await d.ctx.skills.list()).map((s) => [s.name, s.invocation.modelInvocable]),
      );
    assert.deepEqual(await invocable(), { a: true, b: true, c: true, d: true });
    assert.equal(await d.provider.catalogState("d"), "visible");
    const before = d.changes.count;
    d.provider.reconfigure({
      catalog: { limit: 1, pin: ["c"], hide: ["a"] },
      excludeSkills: ["d"],
    });
    assert.equal(d.changes.count, before + 1, "reconfigure emits skills/change at once");
    assert.equal(await d.provider.catalogState("a"), undefined, "cached states are cleared");
    assert.deepEqual(await invocable(), { a: false, b: false, c: true });
    assert.equal(await d.provider.catalogState("a"), "hidden");
    assert.equal(await d.provider.catalogState("b"), "hidden");
    assert.equal(await d.provider.catalogState("c"), "visible");
    const report = await d.provider.report();
    assert.deepEqual(
      report.dropped.map((x) => [x.skill.name, x.reason]),
      [["d", "excluded"]],
    );
    assert.deepEqual(d.provider.currentConfig.catalog, { limit: 1, pin: ["c"], hide: ["a"] });
    // Only the given settings change: the pins and hides stay, the limit goes.
    d.provider.reconfigure({ catalog: { limit: 0 } });
    assert.deepEqual(await invocable(), { a: false, b: true, c: true });
    d.provider.reconfigure({ excludeSkills: [], catalog: { hide: [], limit: 2.7 } });
    assert.deepEqual(await invocable(), { a: true, b: false, c: true, d: false });
    assert.equal(d.provider.currentConfig.catalog.limit, 2);
  } finally {
    await d.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Git sync (REF §12 items 42, 43; REF §11 #3, #11)

/** REF §12 #42: a background sync that clones a new source invalidates; the skill appears. */
export async function backgroundSyncInvalidates(env) {
  const { assert } = env;
  const t = await tree(env);
  const repo = `${t.base}/upstream`;
  await upstream(env, repo, ["from-source"]);
  // No start-up sync: the first list is certainly before the clone; the timer clones it.
  const m = await mount(
    env,
    t.config({ sync: true, syncOnStart: false, syncIntervalMs: 250, sources: [repo] }),
  );
  try {
    assert.deepEqual(await m.ctx.skills.list(), []);
    const before = m.changes.count;
    await until(() => m.changes.count > before, "skills/change after the clone");
    const skills = await m.ctx.skills.list();
    assert.deepEqual(names(skills), ["from-source"]);
    assert.equal(skills[0].source, "anywhere-source");
    // A new upstream commit is pulled by a later run and invalidates again.
    await commitSkills(env, repo, ["second-source"]);
    await until(
      async () => names(await m.ctx.skills.list()).includes("second-source"),
      "the updated checkout to be listed",
    );
    assert.match((await m.ctx.skills.get("second-source")).content, /Instructions of second/);
  } finally {
    await m.close();
  }
}

/** Records the user's trust in the project sources file `text`, as `trust --yes` writes it. */
async function trustProjectFile(env, t, text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  const sha256 = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  await env.fs.write(
    `${t.dshHome}/skills-anywhere/trust.json`,
    JSON.stringify({
      schema: "skills-anywhere-trust-1",
      projects: { [t.project]: { sha256, trusted_at: new Date().toISOString() } },
    }),
  );
}

/** Security: a project sources file the user has not trusted is never cloned; said once. */
export async function untrustedProjectNeverCloned(env) {
  const { assert } = env;
  const t = await tree(env);
  await upstream(env, `${t.base}/up-project`, ["from-project"]);
  const text = JSON.stringify({ sources: [`${t.base}/up-project`] });
  await env.fs.write(`${t.project}/.dsh/skills-anywhere.json`, text);
  const parsed = await env.provider.Config["~standard"].validate(
    t.config({ sync: true, syncOnStart: true, syncIntervalMs: 0 }),
  );
  const lines = [];
  const provider = new env.provider.SkillsAnywhereProvider(
    env.provider.catalogConfig(parsed.value),
    (_level, message) => lines.push(message),
  );
  try {
    assert.deepEqual(names(await provider.list({ cwd: t.project })), []);
    assert.deepEqual(await provider.syncAll(t.project), []);
    assert.deepEqual(names(await provider.list({ cwd: t.project })), []);
    assert.deepEqual(await provider.sources(t.project), []);
    assert.equal(await env.fs.exists(`${t.dshHome}/skills-anywhere/cache`), false);
    assert.deepEqual(env.gitProcesses(), []);
    const notices = lines.filter((line) => line.includes("are not trusted"));
    assert.equal(notices.length, 1, lines.join("\n"));
    assert.ok(notices[0].includes("dsh-skills-anywhere trust"), notices[0]);
    // Trusted exactly as it is, the same file is cloned and listed.
    await trustProjectFile(env, t, text);
    const results = await provider.syncAll(t.project, { force: true });
    assert.deepEqual(results.map((r) => r.status), ["cloned"]);
    assert.deepEqual(names(await provider.list({ cwd: t.project })), ["from-project"]);
  } finally {
    await provider.dispose();
  }
}

/** REF §12 #43, §11 #3: config, user-file and project-file sources all sync (queued follow-up). */
export async function sourcesFromEverywhere(env) {
  const { assert } = env;
  const t = await tree(env);
  await upstream(env, `${t.base}/up-config`, ["from-config"]);
  await upstream(env, `${t.base}/up-user`, ["from-user"]);
  await upstream(env, `${t.base}/up-project`, ["from-project"]);
  await env.fs.write(
    `${t.dshHome}/skills-anywhere/sources.json`,
    JSON.stringify({ sources: [`${t.base}/up-user`] }),
  );
  const projectText = JSON.stringify({ sources: [{ repo: `${t.base}/up-project` }] });
  await env.fs.write(`${t.project}/.dsh/skills-anywhere.json`, projectText);
  await trustProjectFile(env, t, projectText);
  const m = await mount(
    env,
    t.config({
      sync: true,
      syncOnStart: true,
      syncIntervalMs: 0,
      sources: [`${t.base}/up-config`],
    }),
  );
  try {
    // This list arrives while the start-up sync (config + user file) is running; it asks for
    // the project's sources, which must be cloned by the queued follow-up run.
    await m.ctx.skills.list({ cwd: t.project });
    await until(async () => {
      const listed = names(await m.ctx.skills.list({ cwd: t.project }));
      return ["from-config", "from-project", "from-user"].every((n) => listed.includes(n));
    }, "all three sources to be cloned and listed");
    // The checkout appears before the run that cloned it writes the lock file: wait for both.
    const readLock = async () =>
      JSON.parse(await env.fs.read(`${t.dshHome}/skills-anywhere/lock.json`).catch(() => "{}"));
    await until(async () => Object.keys(await readLock()).length === 3, "three lock entries");
    const lock = await readLock();
    assert.equal(Object.keys(lock).length, 3);
    for (const entry of Object.values(lock)) assert.match(entry.sha, /^[0-9a-f]{40}$/);
    // A cwd-less view does not include the project's source, but its checkout is there.
    assert.deepEqual(names(await m.ctx.skills.list()), ["from-config", "from-user"]);
  } finally {
    await m.close();
  }
}

/** REF §11 #11: dispose aborts in-flight git and waits for it. */
export async function disposeAbortsGit(env) {
  const { assert } = env;
  const t = await tree(env);
  const server = await env.silentServer();
  const m = await mount(
    env,
    t.config({
      sync: true,
      syncOnStart: true,
      syncIntervalMs: 0,
      syncTimeoutMs: 60_000,
      sources: [`git://127.0.0.1:${server.port}/x`],
    }),
  );
  let disposed = false;
  try {
    await until(() => server.connections() > 0, "git to connect to the silent server");
    assert.ok(env.gitProcesses().length > 0, "a git process is running");
    const started = Date.now();
    await m.fiber.dispose();
    disposed = true;
    // Checked synchronously, before any other event-loop turn could reap a straggler.
    assert.deepEqual(env.gitProcesses(), [], "no git child remains when dispose resolves");
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 5_000, `dispose took ${elapsed} ms`);
    // Nothing half-cloned is left in the cache.
    const cache = `${t.dshHome}/skills-anywhere/cache/127.0.0.1/${server.port}`;
    assert.equal(await env.fs.exists(`${cache}/x`), false);
  } finally {
    if (!disposed) await m.fiber.dispose();
    await m.close();
    await server.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Watching

/** A change in a watched flat root triggers a (debounced) `skills/change`. */
export async function watchTriggersChange(env) {
  const { assert } = env;
  const t = await tree(env);
  await t.add(t.userSkills, "watched-one", "Already there.");
  const m = await mount(env, t.config({ watch: true }));
  try {
    assert.deepEqual(names(await m.ctx.skills.list()), ["watched-one"]);
    const before = m.changes.count;
    await sleep(100);
    await t.add(t.userSkills, "watched-two", "Added while running.");
    await until(() => m.changes.count > before, "skills/change after adding a skill");
    await sleep(250);
    // Debounced: one burst of file events gives few invalidations, not one per event.
    assert.ok(m.changes.count - before <= 3, `${m.changes.count - before} invalidations`);
    assert.deepEqual(names(await m.ctx.skills.list()), ["watched-one", "watched-two"]);
    const mid = m.changes.count;
    await env.fs.remove(`${t.userSkills}/watched-one`);
    await until(() => m.changes.count > mid, "skills/change after removing a skill");
    assert.deepEqual(names(await m.ctx.skills.list()), ["watched-two"]);
  } finally {
    await m.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Tools (REF §12 items 94–96; REF §11 #6)

async function pdfTree(env) {
  const t = await tree(env);
  await t.add(t.userSkills, "alpha-pdf", "Read PDF files and extract form fields.");
  await t.add(t.userSkills, "beta-docx", "Edit Word documents.");
  await t.add(t.userSkills, "delta-pdf", "Fill PDF forms the old way.", {
    front: ["disable-model-invocation: true"],
  });
  await t.add(t.userSkills, "gamma-pdf", "Fill in PDF forms.");
  return t;
}

/** REF §12 #94, §11 #6: budget 1 — find lists hidden skills, never author-disabled ones. */
export async function findAndOpenWithBudget(env) {
  const { assert } = env;
  const t = await pdfTree(env);
  const m = await mount(env, t.config({ catalog: { limit: 1 } }), {});
  try {
    assert.equal(await catalogStateOf(m.ctx, "alpha-pdf"), "visible");
    assert.equal(await catalogStateOf(m.ctx, "gamma-pdf"), "hidden");
    const found = await call(m.ctx, "find_skills", { query: "pdf forms" });
    assert.equal(found.isError, false, textOf(found));
    assert.equal(found.value.total, 4);
    assert.equal(found.value.unlisted, 3);
    assert.deepEqual(
      found.value.matches.map((x) => [x.name, x.listed]).sort(),
      [["alpha-pdf", true], ["gamma-pdf", false]],
    );
    assert.equal(found.value.matches[0].source, "anywhere-user");
    const text = textOf(found);
    assert.match(text, /^2 of 4 skills matched \(3 searched skills are not in the catalog\):/);
    assert.match(
      text,
      /- gamma-pdf \(not in catalog: load with open_skill\) — Fill in PDF forms\./,
    );
    assert.match(text, /- alpha-pdf — Read PDF files/);
    assert.doesNotMatch(text, /beta-docx|delta-pdf/);
    // The hidden one opens, rendered with dsh's renderSkillContent.
    const opened = await call(m.ctx, "open_skill", { name: "gamma-pdf" });
    assert.equal(opened.isError, false, textOf(opened));
    assert.equal(opened.value.name, "gamma-pdf");
    assert.equal(opened.value.provider, "skills-anywhere");
    assert.deepEqual(opened.value.resourceBase, {
      kind: "directory",
      path: `${t.userSkills}/gamma-pdf`,
    });
    assert.match(opened.value.content, /Instructions of gamma-pdf\./);
    assert.equal(textOf(opened), env.renderSkillContent(opened.value));
    assert.match(textOf(opened), /<skill_content name="gamma-pdf"/);
    // The author-disabled one is refused and never found.
    const refused = await call(m.ctx, "open_skill", { name: "delta-pdf" });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /skill "delta-pdf" is not available for model invocation/);
    const old = await call(m.ctx, "find_skills", { query: "old way", limit: 50 });
    assert.deepEqual(old.value.matches, []);
    assert.match(textOf(old), /^No skills matched\. 4 skills searched \(3 not in the catalog\)\./);
    // limit is clamped to at least 1.
    const one = await call(m.ctx, "find_skills", { query: "pdf", limit: 0 });
    assert.equal(one.value.matches.length, 1);
  } finally {
    await m.close();
  }
}

/** REF §12 #95: `open: false` registers only find_skills (and `find: false` only open_skill). */
export async function toolSwitches(env) {
  const { assert } = env;
  const t = await pdfTree(env);
  const m = await mount(env, t.config(), { open: false });
  try {
    assert.ok(m.ctx.tools.get("find_skills"));
    assert.equal(m.ctx.tools.get("open_skill"), undefined);
    const schemas = m.ctx.tools.schemas().map((s) => s.name);
    assert.ok(schemas.includes("find_skills"));
    assert.ok(!schemas.includes("open_skill"));
    const result = await call(m.ctx, "open_skill", { name: "alpha-pdf" });
    assert.equal(result.isError, true);
  } finally {
    await m.close();
  }
  const n = await mount(env, t.config(), { find: false });
  try {
    assert.equal(n.ctx.tools.get("find_skills"), undefined);
    assert.ok(n.ctx.tools.get("open_skill"));
  } finally {
    await n.close();
  }
}

/** REF §12 #96: empty query, invalid name and unknown name are tool errors. */
export async function toolErrors(env) {
  const { assert } = env;
  const t = await pdfTree(env);
  const m = await mount(env, t.config(), {});
  try {
    const empty = await call(m.ctx, "find_skills", { query: "   " });
    assert.equal(empty.isError, true);
    assert.match(textOf(empty), /query must not be empty/);
    const bad = await call(m.ctx, "open_skill", { name: "Bad Name" });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /invalid skill name "Bad Name"/);
    const unknown = await call(m.ctx, "open_skill", { name: "no-such-skill" });
    assert.equal(unknown.isError, true);
    assert.match(
      textOf(unknown),
      /skill "no-such-skill" is unknown or no longer available; search with find_skills/,
    );
    const missingArg = await call(m.ctx, "find_skills", {});
    assert.equal(missingArg.isError, true);
  } finally {
    await m.close();
  }
}
