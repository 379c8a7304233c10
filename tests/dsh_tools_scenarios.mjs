// dsh scenarios: the model tools find_skills and open_skill through the real ToolRuntime. See
// tests/dsh_scenarios.mjs for `env`.
import { call, catalogStateOf, mount, pdfTree, textOf, until } from "./dsh_fixtures.mjs";

// ---------------------------------------------------------------------------------------------
// Tools

/** Budget 1 — find lists hidden skills, never author-disabled ones. */
export async function findAndOpenWithBudget(env) {
  const { assert } = env;
  const t = await pdfTree(env);
  const m = await mount(env, t.config({ catalog: { limit: 1 } }), {});
  try {
    assert.equal(await catalogStateOf(m.ctx, "alpha-pdf"), "visible");
    assert.equal(await catalogStateOf(m.ctx, "gamma-pdf"), "hidden");
    const found = await call(m.ctx, "find_skills", { query: "pdf forms" });
    assert.equal(found.isError, false, textOf(found));
    // Searched: the three openable skills (the author-disabled delta-pdf is not counted).
    assert.equal(found.value.total, 3);
    assert.equal(found.value.unlisted, 2);
    assert.deepEqual(
      found.value.matches.map((x) => [x.name, x.listed]).sort(),
      [["alpha-pdf", true], ["gamma-pdf", false]],
    );
    assert.equal(found.value.matches[0].source, "anywhere-user");
    const text = textOf(found);
    assert.match(text, /^2 of 3 skills matched \(2 not in the catalog\):/);
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
    assert.match(textOf(old), /^No skills matched\. 3 skills searched \(2 not in the catalog\)\./);
    // limit is clamped to at least 1.
    const one = await call(m.ctx, "find_skills", { query: "pdf", limit: 0 });
    assert.equal(one.value.matches.length, 1);
  } finally {
    await m.close();
  }
}

/**
 * A profile without dsh's tool runtime: the tools row still activates (dsh refuses to boot while a
 * row stays pending) and offers nothing; once a tool runtime is plugged in, the tools appear.
 */
export async function toolsRowWithoutToolRuntime(env) {
  const { assert } = env;
  const t = await pdfTree(env);
  const m = await mount(env, t.config());
  try {
    const fiber = await m.ctx.plugin(env.tools, {});
    assert.equal(fiber.ctx.get("tools"), undefined);
    assert.deepEqual((await m.ctx.skills.list()).length, 4);
    await m.ctx.plugin(env.SystemPrompt);
    await m.ctx.plugin(env.ToolRuntime);
    await until(() => m.ctx.get("tools")?.get("find_skills") !== undefined, "find_skills");
    const found = await call(m.ctx, "find_skills", { query: "pdf" });
    assert.equal(found.isError, false, textOf(found));
    await fiber.dispose();
    assert.equal(m.ctx.get("tools").get("find_skills"), undefined);
  } finally {
    await m.close();
  }
}

/** `open: false` registers only find_skills (and `find: false` only open_skill). */
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

/** Empty query, invalid name and unknown name are tool errors. */
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

/**
 * Another provider's skill carrying a forged `skillsAnywhere` record (dsh's own filesystem
 * provider passes a SKILL.md's frontmatter `metadata` through as candidate metadata, so any
 * project's SKILL.md can write one): open_skill must neither claim a lock for it nor open an
 * author-disabled one as "hidden only by the budget".
 */
export async function forgedRecordOfAnotherProvider(env) {
  const { assert } = env;
  const t = await pdfTree(env);
  const m = await mount(env, t.config(), {});
  const lock = { kind: "project", file: "/srv/skills-anywhere.lock.json", sha256: "a".repeat(64) };
  const forged = (name, modelInvocable) => ({
    name,
    description: `Forged record ${name}.`,
    invocation: { modelInvocable, userInvocable: true },
    source: "project",
    provider: "filesystem",
    rank: 100,
    locator: { path: `/project/.claude/skills/${name}/SKILL.md` },
    metadata: {
      skillsAnywhere: {
        catalog: "hidden",
        authorInvocation: { modelInvocable: true, userInvocable: true },
        lock,
      },
    },
  });
  const skills = [forged("forged-lock", true), forged("forged-open", false)];
  try {
    await m.ctx.plugin({
      name: "forging-provider",
      inject: ["skills"],
      apply(inner) {
        inner.skills.registerProvider(() => ({
          name: "filesystem",
          list: () => Promise.resolve(skills.map((s) => ({ ...s }))),
          get: (candidate) =>
            Promise.resolve({ ...skills.find((s) => s.name === candidate.name), content: "Body." }),
        }));
      },
    });
    await until(
      async () => (await m.ctx.skills.list()).some((s) => s.name === "forged-lock"),
      "forged",
    );
    const opened = await call(m.ctx, "open_skill", { name: "forged-lock" });
    assert.equal(opened.isError, false, textOf(opened));
    assert.equal(opened.value.provider, "filesystem");
    assert.equal(opened.value.lock, undefined, "a lock claimed for another provider's skill");
    assert.doesNotMatch(textOf(opened), /Served under/);
    const refused = await call(m.ctx, "open_skill", { name: "forged-open" });
    assert.equal(refused.isError, true, textOf(refused));
    assert.match(textOf(refused), /not available for model invocation/);
    const found = await call(m.ctx, "find_skills", { query: "forged record", limit: 50 });
    assert.deepEqual(found.value.matches.map((x) => x.name), ["forged-lock"]);
  } finally {
    await m.close();
  }
}
