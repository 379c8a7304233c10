// dsh scenarios: the plugin and its configuration, the catalog budget, roots and ranks, fresh
// reads in get(), reconfigure. See tests/dsh_scenarios.mjs for `env`.
import {
  call,
  catalogStateOf,
  mount,
  mountDirect,
  names,
  skillMd,
  textOf,
  tree,
  upstream,
} from "./dsh_fixtures.mjs";

// ---------------------------------------------------------------------------------------------
// Plugin shape, registration, configuration

/** `ctx.plugin(provider)` registers provider "skills-anywhere"; candidates carry its name. */
export async function pluginRegistersProvider(env) {
  const { assert } = env;
  assert.equal(env.provider.name, "skills-anywhere");
  // The row waits for no service; its provider waits for the registry (a sub-plugin).
  assert.deepEqual([...env.provider.inject], []);
  assert.equal(env.tools.name, "skills-anywhere-tools");
  // The tools row activates with the registry alone (see toolsRowWithoutToolRuntime).
  assert.deepEqual([...env.tools.inject], ["skills"]);
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

/** The Config schema fills the documented defaults and rejects wrong types through `ctx.plugin`. */
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
  assert.deepEqual(tools.value, {
    findLimit: 10,
    findMaxLimit: 50,
    find: true,
    open: true,
    provider: "skills-anywhere",
  });

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
// Catalog budget

/** Limit 2 over a, b, c → visible, visible, hidden. */
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

/**
 * The budget is spent after dsh's precedence: with limit 2 over a, b, c, d and another provider
 * (rank 100, like dsh's project `.dsh/skills`) winning a and b, the two places go to c and d.
 */
export async function budgetSkipsShadowedNames(env) {
  const { assert } = env;
  const t = await tree(env);
  for (const name of ["a", "b", "c", "d"]) await t.add(t.userSkills, name, `Skill ${name}.`);
  const m = await mount(env, t.config({ catalog: { limit: 2 } }));
  const theirs = (name) => ({
    name,
    description: `Their ${name}.`,
    invocation: { modelInvocable: true, userInvocable: true },
    source: "project-dsh",
    provider: "filesystem",
    rank: 100,
    locator: name,
  });
  try {
    await m.ctx.plugin({
      name: "dsh-filesystem-stand-in",
      inject: ["skills"],
      apply(inner) {
        inner.skills.registerProvider(() => ({
          name: "filesystem",
          list: () => [theirs("a"), theirs("b")],
          get: (candidate) => ({ ...theirs(candidate.name), content: "Theirs." }),
        }));
      },
    });
    const ours = async () =>
      (await m.ctx.skills.list())
        .filter((s) => s.provider === "skills-anywhere" && s.invocation.modelInvocable)
        .map((s) => s.name);
    // The very first listing already spends the places after dsh's precedence.
    assert.deepEqual(await ours(), ["c", "d"]);
    const all = await m.ctx.skills.list();
    assert.deepEqual(all.map((s) => [s.name, s.provider]), [
      ["a", "filesystem"],
      ["b", "filesystem"],
      ["c", "skills-anywhere"],
      ["d", "skills-anywhere"],
    ]);
  } finally {
    await m.close();
  }
}

/** Pin jumps the queue, hide never shows, disabled is uncounted, limit 0 = all. */
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

/** Hidden → {modelInvocable:false, userInvocable:<author>}, state and author kept. */
export async function hiddenCandidatesPublished(env) {
  const { assert } = env;
  const t = await tree(env);
  await t.add(t.userSkills, "a", "Skill a.");
  await t.add(t.userSkills, "b", "Skill b.");
  await t.add(t.userSkills, "c", "Skill c.", { front: ["user-invocable: false"] });
  await t.add(t.userSkills, "d", "Skill d.", { front: ["disable-model-invocation: true"] });
  const raw = t.config({ catalog: { limit: 1 } });
  // What the registry sees.
  const m = await mount(env, raw);
  try {
    const listed = await m.ctx.skills.list();
    const byName = Object.fromEntries(listed.map((s) => [s.name, s.invocation]));
    assert.deepEqual(byName.a, { modelInvocable: true, userInvocable: true });
    // Budget-hidden and author-disabled stay apart in what dsh's `/` menu reads (whenToUse).
    const when = Object.fromEntries(listed.map((s) => [s.name, s.whenToUse]));
    assert.match(when.b, /^Not in the model's skill catalog \(skills-anywhere budget\)/);
    assert.equal(when.c, when.b);
    assert.deepEqual(byName.d, { modelInvocable: false, userInvocable: true });
    assert.equal(when.a, undefined);
    assert.equal(when.d, undefined);
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
// Roots and ranks

/** Records the plugin `tool@market` (its marketplace checkout) as installed and enables it. */
async function installTool(t) {
  const { mkdir, writeFile } = await import("node:fs/promises");
  const plugins = `${t.home}/.claude/plugins`;
  const installPath = `${plugins}/marketplaces/market/plugins/tool`;
  await mkdir(plugins, { recursive: true });
  await writeFile(
    `${plugins}/installed_plugins.json`,
    JSON.stringify({ version: 2, plugins: { "tool@market": [{ scope: "user", installPath }] } }),
  );
  await writeFile(
    `${t.home}/.claude/settings.json`,
    JSON.stringify({ enabledPlugins: { "tool@market": true } }),
  );
}

/** Ranks: project 250, user 550, plugins 580, sources 700; a spec rank overrides. */
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
  await installTool(t);
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

/** `excludeAgents: ['claude-code']` and `claudePlugins: false` remove those roots. */
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
  await installTool(t);
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

/** No `.agents` roots by default in dsh; 200/500 when on; excludable. */
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
// get(): fresh reads

/** A fresh author opt-out after list → not invocable and not openable (0 and 50). */
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

/** Newly disabled applies at load despite cached discovery, also budget-hidden. */
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

/** get re-reads edited content and returns undefined once the file is gone. */
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
// reconfigure

/** reconfigure changes states, pins, hides and exclusions, and invalidates. */
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
