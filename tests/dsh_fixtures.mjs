// Shared fixtures of the dsh scenarios (tests/dsh_*_scenarios.mjs): temp trees, upstream
// repositories, mounting the plugin on a real Cordis context, calling tools. No imports: every
// function takes the scenario `env` (see tests/dsh_scenarios.mjs) or what it returned.

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a truthy value (or fails after `ms`). */
export async function until(check, what, ms = 20_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(40);
  }
}

/** A SKILL.md with `name`, `description` and extra frontmatter lines. */
export function skillMd(name, description, options = {}) {
  const extra = (options.front ?? []).map((line) => `${line}\n`).join("");
  const body = options.body ?? `Instructions of ${name}.`;
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n# ${name}\n\n${body}\n`;
}

/** A temp tree: a home (with its dsh home) and a git project outside it. */
export async function tree(env) {
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
export async function upstream(env, dir, names) {
  await env.fs.mkdir(dir);
  await env.git(["init", "-q", "-b", "main", dir]);
  await commitSkills(env, dir, names);
}

export async function commitSkills(env, dir, names) {
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
export async function mount(env, config, toolsConfig) {
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
export async function mountDirect(env, raw) {
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
export function call(ctx, name, args) {
  calls += 1;
  return ctx.tools.execute({
    callId: `call-${calls}`,
    name,
    arguments: args,
    signal: new AbortController().signal,
  });
}

export function textOf(result) {
  return result.content.map((block) => block.text ?? "").join("\n");
}

export const names = (skills) => skills.map((skill) => skill.name).sort();

export async function catalogStateOf(ctx, name, cwd) {
  const definition = await ctx.skills.get(name, { cwd });
  return definition?.metadata?.skillsAnywhere?.catalog;
}

/** Records the user's trust in the project sources file `text`, as `trust --yes` writes it. */
export async function trustProjectFile(env, t, text) {
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

export async function pdfTree(env) {
  const t = await tree(env);
  await t.add(t.userSkills, "alpha-pdf", "Read PDF files and extract form fields.");
  await t.add(t.userSkills, "beta-docx", "Edit Word documents.");
  await t.add(t.userSkills, "delta-pdf", "Fill PDF forms the old way.", {
    front: ["disable-model-invocation: true"],
  });
  await t.add(t.userSkills, "gamma-pdf", "Fill in PDF forms.");
  return t;
}
