// dsh scenarios: background Git sync, trust of project sources files, dispose, watching. See
// tests/dsh_scenarios.mjs for `env`.
import {
  commitSkills,
  mount,
  names,
  sleep,
  tree,
  trustProjectFile,
  until,
  upstream,
} from "./dsh_fixtures.mjs";

// ---------------------------------------------------------------------------------------------
// Git sync

/** A background sync that clones a new source invalidates; the skill appears. */
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
    assert.deepEqual(env.gitProcesses(t.base), []);
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

/** Config, user-file and project-file sources all sync (queued follow-up). */
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

/** dispose aborts in-flight git and waits for it. */
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
    assert.ok(env.gitProcesses(t.base).length > 0, "a git process is running");
    const started = Date.now();
    await m.fiber.dispose();
    disposed = true;
    // Checked synchronously, before any other event-loop turn could reap a straggler.
    assert.deepEqual(env.gitProcesses(t.base), [], "no git child remains when dispose resolves");
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

/**
 * Editing `<root>/<name>/SKILL.md` (no change to the root itself) is reported, for a skill there
 * at start and for one added while running; the catalog then shows the new description.
 */
export async function watchSeesSkillFileEdits(env) {
  const { assert } = env;
  const t = await tree(env);
  await t.add(t.userSkills, "edited-one", "Before the edit.");
  const m = await mount(env, t.config({ watch: true }));
  const description = async (name) =>
    (await m.ctx.skills.list()).find((s) => s.name === name)?.description;
  try {
    assert.equal(await description("edited-one"), "Before the edit.");
    const before = m.changes.count;
    await sleep(100);
    await t.add(t.userSkills, "edited-one", "After the edit.");
    await until(() => m.changes.count > before, "skills/change after editing SKILL.md");
    await until(async () => (await description("edited-one")) === "After the edit.", "new text");
    await t.add(t.userSkills, "edited-two", "Added while running.");
    await until(async () => (await description("edited-two")) !== undefined, "the added skill");
    const mid = m.changes.count;
    await sleep(100);
    await t.add(t.userSkills, "edited-two", "Edited after it was added.");
    await until(() => m.changes.count > mid, "skills/change after editing the added skill");
    await until(
      async () => (await description("edited-two")) === "Edited after it was added.",
      "the added skill's new text",
    );
  } finally {
    await m.close();
  }
}

/**
 * The provider's log lines (registration, a failed background sync) reach dsh's logger named
 * `skills-anywhere` (the plugin's name, which dsh prints before each line) and carry no prefix
 * of their own: dsh prints "skills-anywhere: provider … registered", not the name twice.
 */
export async function logLinesPrefixedOnce(env) {
  const { assert } = env;
  const t = await tree(env);
  // No start-up sync: the timer's first run fails after the exporter below is registered.
  const m = await mount(
    env,
    t.config({ sync: true, syncOnStart: false, syncIntervalMs: 250, sources: [`${t.base}/gone`] }),
  );
  const messages = [...m.ctx.logger.buffer];
  m.ctx.logger.exporter({
    levels: { default: 3 },
    export: (message) => messages.push(message),
  });
  const ours = () =>
    messages.filter((message) =>
      typeof message.args[0] === "string" && /registered|failed/.test(message.args[0])
    );
  try {
    await until(() => ours().some((m) => / failed: /.test(m.args[0])), "the failed sync's line");
    const lines = ours();
    assert.ok(lines.some((m) => m.args[0].includes("registered")), lines.join("\n"));
    for (const message of lines) {
      assert.equal(message.name, "skills-anywhere", message.args[0]);
      assert.ok(!message.args[0].includes("skills-anywhere: "), `prefixed: ${message.args[0]}`);
    }
  } finally {
    await m.close();
  }
}
