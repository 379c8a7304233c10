/**
 * Claude Code plugins in the catalog: only what `installed_plugins.json`
 * records as installed and `enabledPlugins` enables, under the real plugin
 * name, with the skill paths each plugin declares. The homes are laid out
 * from the fixtures in `testdata/plugins/` (real marketplace manifests,
 * installed-plugins files of both shapes, settings files).
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { loadCatalog } from "../lib/catalog/_load.ts";
import { resolveConfig } from "../lib/catalog/_config.ts";
import { enabledPlugins } from "../lib/catalog/_plugins.ts";
import type { Log } from "../lib/util.ts";
import { ROOT, type Sandbox, withSandbox, writeTree } from "./helpers.ts";

const FIXTURES = join(ROOT, "testdata", "plugins");

function fixture(name: string): string {
  return Deno.readTextFileSync(join(FIXTURES, name));
}

/** A short stand-in SKILL.md with the real skill's name. */
function stub(name: string, from = "anthropics/skills"): string {
  return `---\nname: ${name}\ndescription: Stand-in for the ${name} skill of ${from}.\n---\n\n# ${name}\n\nFrom ${from}.\n`;
}

/** The skill folders of anthropics/skills (`skills/<name>`), plus its `template/`. */
function anthropicSkillsTree(): Record<string, string> {
  const manifest = JSON.parse(fixture("anthropic-agent-skills.marketplace.json"));
  const tree: Record<string, string> = {
    ".claude-plugin/marketplace.json": fixture("anthropic-agent-skills.marketplace.json"),
    "template/SKILL.md": stub("template-skill"),
    "README.md": "# Skills\n",
  };
  for (const plugin of manifest.plugins) {
    for (const path of plugin.skills) {
      const name = path.split("/").pop();
      tree[`${path.slice(2)}/SKILL.md`] = stub(name);
    }
  }
  return tree;
}

/** Writes `tree` below `dir` in the home's plugin folder. */
function under(dir: string, tree: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(tree).map(([path, text]) => [`${dir}/${path}`, text]));
}

/**
 * A home as Claude Code leaves it: two marketplace checkouts, the plugin
 * cache with five installed plugins, and `installed_plugins.json` of the
 * given shape (`$PLUGINS`, `$PROJECT`, `$OTHER_PROJECT` filled in).
 */
async function layHome(box: Sandbox, registry = "installed_plugins.v2.json"): Promise<string> {
  const plugins = join(box.home, ".claude", "plugins");
  const repo = anthropicSkillsTree();
  const hookify = {
    ".claude-plugin/plugin.json": '{"name": "hookify", "description": "Easily create hooks"}\n',
    "skills/writing-rules/SKILL.md": stub("writing-rules"),
    "commands/hookify.md": "Not a skill.\n",
  };
  const frontend = {
    "skills/frontend-design/SKILL.md": stub("frontend-design", "claude-plugins-official"),
  };
  const amd = { "local-ai-use/SKILL.md": stub("local-ai-use") };
  await writeTree(plugins, {
    ...under("marketplaces/anthropic-agent-skills", repo),
    ...under("marketplaces/claude-plugins-official", {
      ".claude-plugin/marketplace.json": fixture("claude-plugins-official.marketplace.json"),
      "plugins/example-plugin/skills/example-skill/SKILL.md": stub("example-skill"),
      ...under("plugins/hookify", hookify),
      ...under("plugins/frontend-design", frontend),
    }),
    ...under("cache/anthropic-agent-skills/document-skills/9d2f1ae1a7c4", repo),
    ...under("cache/anthropic-agent-skills/example-skills/9d2f1ae1a7c4", repo),
    ...under("cache/claude-plugins-official/hookify/340e33ae5d1f", hookify),
    ...under("cache/claude-plugins-official/frontend-design/340e33ae5d1f", frontend),
    ...under("cache/claude-plugins-official/amd-skills/b641e5fbd17e", amd),
    "installed_plugins.json": fixture(registry)
      .replaceAll("$PLUGINS", plugins)
      .replaceAll("$OTHER_PROJECT", join(box.root, "other"))
      .replaceAll("$PROJECT", box.project),
  });
  return plugins;
}

/** Writes the user's and the project's settings files from the fixtures. */
async function laySettings(box: Sandbox): Promise<void> {
  await writeTree(box.home, { ".claude/settings.json": fixture("settings.user.json") });
  await writeTree(box.project, {
    ".claude/settings.json": fixture("settings.project.json"),
    ".claude/settings.local.json": fixture("settings.local.json"),
  });
}

/** A log that keeps its lines. */
function keep(): { log: Log; lines: string[] } {
  const lines: string[] = [];
  return { log: (_level, message) => lines.push(message), lines };
}

/** `plugin@marketplace: name` of every plugin skill the catalog publishes, sorted. */
async function pluginSkills(box: Sandbox, cwd = box.project): Promise<string[]> {
  const config = resolveConfig({ agents: false }, { HOME: box.home, DSH_HOME: box.dshHome });
  const { report } = await loadCatalog(config, { cwd });
  return report.skills.flatMap((s) =>
    s.origin.kind === "claude-plugins"
      ? [`${s.origin.plugin}@${s.origin.marketplace}: ${s.renamedFrom ?? s.name}`]
      : []
  ).sort();
}

const DOCUMENT = ["docx", "pdf", "pptx", "xlsx"].map((n) =>
  `document-skills@anthropic-agent-skills: ${n}`
);
const EXAMPLE = [
  "algorithmic-art",
  "brand-guidelines",
  "canvas-design",
  "doc-coauthoring",
  "frontend-design",
  "internal-comms",
  "mcp-builder",
  "skill-creator",
  "slack-gif-creator",
  "theme-factory",
  "web-artifacts-builder",
  "webapp-testing",
].map((n) => `example-skills@anthropic-agent-skills: ${n}`);
const HOOKIFY = "hookify@claude-plugins-official: writing-rules";
const FRONTEND = "frontend-design@claude-plugins-official: frontend-design";

Deno.test("plugins (v2): installed and enabled only, under the real plugin name, never template/", async () => {
  await withSandbox(async (box) => {
    await layHome(box);
    await laySettings(box);
    const listed = await pluginSkills(box);
    // document-skills: user true. example-skills: user false, project true. hookify: user true,
    // its skills/ folder. frontend-design: local scope for this project, enabled locally.
    // amd-skills: enabled but installed for another project. claude-api: not installed.
    deepEqual(listed, [...DOCUMENT, ...EXAMPLE, FRONTEND, HOOKIFY].sort());
    ok(!listed.some((s) => s.includes("template")));
    ok(!listed.some((s) => s.includes("claude-api") || s.includes("example-skill@")));
  });
});

Deno.test("plugins: files are read from the install folder, labelled plugin@marketplace", async () => {
  await withSandbox(async (box) => {
    const plugins = await layHome(box);
    await laySettings(box);
    const config = resolveConfig({ agents: false }, { HOME: box.home, DSH_HOME: box.dshHome });
    const { report, roots } = await loadCatalog(config, { cwd: box.project });
    const cache = join(plugins, "cache");
    ok(report.skills.every((s) => s.path.startsWith(cache + "/")));
    const pdf = report.skills.find((s) => s.name === "pdf")!;
    equal(
      pdf.path,
      join(cache, "anthropic-agent-skills/document-skills/9d2f1ae1a7c4/skills/pdf/SKILL.md"),
    );
    equal(pdf.source, "anywhere-claude-plugins");
    equal(pdf.confineTo, join(cache, "anthropic-agent-skills/document-skills/9d2f1ae1a7c4"));
    const hookRoot = roots.find((r) =>
      r.label === "claude plugin hookify@claude-plugins-official"
    )!;
    deepEqual([hookRoot.path, hookRoot.maxDepth], [
      join(cache, "claude-plugins-official/hookify/340e33ae5d1f/skills"),
      1,
    ]);
    const pdfRoot = roots.find((r) => r.path.endsWith("document-skills/9d2f1ae1a7c4/skills/pdf"))!;
    equal(pdfRoot.maxDepth, 0);
  });
});

Deno.test("plugins: no settings entry means not enabled; false disables; a version list enables", async () => {
  await withSandbox(async (box) => {
    await layHome(box);
    deepEqual(await pluginSkills(box), [], "installed but never enabled");
    await writeTree(box.home, { ".claude/settings.json": fixture("settings.user.json") });
    // Outside the project: example-skills stays disabled (user false), frontend-design is local.
    deepEqual(await pluginSkills(box, box.root), [...DOCUMENT, HOOKIFY].sort());
    await writeTree(box.home, {
      ".claude/settings.json": JSON.stringify({
        enabledPlugins: {
          "document-skills@anthropic-agent-skills": false,
          "hookify@claude-plugins-official": ["340e33ae5d1f"],
        },
      }),
    });
    deepEqual(await pluginSkills(box, box.root), [HOOKIFY]);
  });
});

Deno.test("plugins (v1): one install per key; a marketplace install lists only its skills", async () => {
  await withSandbox(async (box) => {
    await layHome(box, "installed_plugins.v1.json");
    await writeTree(box.home, {
      ".claude/settings.json": JSON.stringify({
        enabledPlugins: {
          "example-skills@anthropic-agent-skills": true,
          "hookify@claude-plugins-official": true,
        },
      }),
    });
    deepEqual(await pluginSkills(box, box.root), [...EXAMPLE, HOOKIFY].sort());
  });
});

Deno.test("plugins: a hostile installPath (/etc, ../.., a link out) is refused with a warning", async () => {
  await withSandbox(async (box) => {
    const plugins = join(box.home, ".claude", "plugins");
    const outside = join(box.root, "outside");
    await writeTree(outside, { "skills/stolen/SKILL.md": stub("stolen") });
    await Deno.mkdir(join(plugins, "cache", "m"), { recursive: true });
    await Deno.symlink(outside, join(plugins, "cache", "m", "linked"));
    const install = (installPath: string) => [{ scope: "user", installPath, version: "1" }];
    await writeTree(plugins, {
      "installed_plugins.json": JSON.stringify({
        version: 2,
        plugins: {
          "etc@m": install("/etc"),
          "up@m": install("../.."),
          "dotdot@m": install(join(plugins, "cache", "..", "..", "..", "..", "outside")),
          "linked@m": install(join(plugins, "cache", "m", "linked")),
        },
      }),
    });
    await writeTree(box.home, {
      ".claude/settings.json": JSON.stringify({
        enabledPlugins: { "etc@m": true, "up@m": true, "dotdot@m": true, "linked@m": true },
      }),
    });
    const { log, lines } = keep();
    deepEqual(enabledPlugins(box.home, { log }), []);
    equal(lines.length, 4, lines.join("\n"));
    for (const name of ["etc@m", "up@m", "dotdot@m", "linked@m"]) {
      ok(
        lines.some((l) => l.startsWith(`plugin ${name}: installPath`) && l.includes("outside")),
        name,
      );
    }
    deepEqual(await pluginSkills(box, box.root), []);
  });
});

Deno.test("plugins: a declared skill path that leaves the install folder is refused", async () => {
  await withSandbox(async (box) => {
    const plugins = join(box.home, ".claude", "plugins");
    const dir = join(plugins, "cache", "m", "p", "1.0.0");
    await writeTree(dir, {
      ".claude-plugin/plugin.json": JSON.stringify({
        name: "p",
        skills: ["../../../../..", "./tools/ok"],
      }),
      "tools/ok/SKILL.md": stub("ok"),
    });
    await writeTree(plugins, {
      "installed_plugins.json": JSON.stringify({
        version: 2,
        plugins: { "p@m": [{ scope: "user", installPath: dir, version: "1.0.0" }] },
      }),
    });
    await writeTree(box.home, { ".claude/settings.json": '{"enabledPlugins": {"p@m": true}}' });
    const { log, lines } = keep();
    deepEqual(enabledPlugins(box.home, { log }).map((p) => p.skillPaths), [[
      join(dir, "tools/ok"),
    ]]);
    match(
      lines.join("\n"),
      /plugin p@m: a skill path leaves its install folder/,
    );
    deepEqual(await pluginSkills(box, box.root), ["p@m: ok"]);
  });
});

Deno.test("plugins: malformed files are warnings, never errors", async () => {
  await withSandbox(async (box) => {
    await layHome(box);
    const plugins = join(box.home, ".claude", "plugins");
    const cases: [string, string, RegExp][] = [
      ["installed_plugins.json", "{not json", /installed_plugins\.json is not valid JSON/],
      [
        "installed_plugins.json",
        '{"version": 3, "plugins": {}}',
        /: unknown version; no plugin is read/,
      ],
      [
        "installed_plugins.json",
        '{"version": 2, "plugins": []}',
        /expected an object with a `plugins` object/,
      ],
      [
        "installed_plugins.json",
        "x".repeat(1024 * 1024 + 1),
        /cannot read .*installed_plugins\.json/,
      ],
    ];
    await writeTree(box.home, { ".claude/settings.json": fixture("settings.user.json") });
    for (const [file, text, expected] of cases) {
      await writeTree(plugins, { [file]: text });
      const { log, lines } = keep();
      deepEqual(enabledPlugins(box.home, { log }), []);
      match(lines.join("\n"), expected);
    }
    // One bad entry is skipped; the others stay.
    await writeTree(plugins, {
      "installed_plugins.json": JSON.stringify({
        version: 2,
        plugins: {
          "no-at-sign": [],
          "hookify@claude-plugins-official": [{
            scope: "user",
            installPath: join(plugins, "cache/claude-plugins-official/hookify/340e33ae5d1f"),
          }],
          "document-skills@anthropic-agent-skills": [{ scope: "galaxy", installPath: "/x" }],
        },
      }),
    });
    await writeTree(box.home, { ".claude/settings.json": '{"enabledPlugins": {"a@b": "yes"}}' });
    const { log, lines } = keep();
    deepEqual(enabledPlugins(box.home, { log }), []);
    // Warnings name the file and the reason, never the file's content (issue 27).
    match(lines.join("\n"), /an enabledPlugins entry is not true, false or a list of versions/);
    match(lines.join("\n"), /a key is not <plugin>@<marketplace>/);
    match(lines.join("\n"), /: unknown scope; skipped/);
    equal(/no-at-sign|galaxy|a@b/.test(lines.join("\n")), false, lines.join("\n"));
    await writeTree(box.home, { ".claude/settings.json": fixture("settings.user.json") });
    deepEqual(await pluginSkills(box, box.root), [HOOKIFY]);
  });
});

Deno.test("plugins: claudePlugins false reads none of Claude Code's files", async () => {
  await withSandbox(async (box) => {
    await layHome(box);
    await laySettings(box);
    const config = resolveConfig({ agents: false, claudePlugins: false }, {
      HOME: box.home,
      DSH_HOME: box.dshHome,
    });
    const { report } = await loadCatalog(config, { cwd: box.project });
    deepEqual(report.skills, []);
  });
});

Deno.test("plugins: working in the home folder still reports a malformed plugin file", async () => {
  await withSandbox(async (box) => {
    await layHome(box);
    await writeTree(join(box.home, ".claude", "plugins"), {
      "installed_plugins.json": "{not json",
    });
    const config = resolveConfig({ agents: false }, { HOME: box.home, DSH_HOME: box.dshHome });
    const { log, lines } = keep();
    await loadCatalog(config, { cwd: box.home, log });
    match(lines.join("\n"), /installed_plugins\.json is not valid JSON/);
  });
});
