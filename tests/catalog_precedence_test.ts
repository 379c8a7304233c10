// Precedence, dedupe, exclusion and collision renaming, over real temp trees and over built
// skill records.
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { resolveConfig } from "../lib/catalog/_config.ts";
import { discover } from "../lib/catalog/_discover.ts";
import type { DiscoveredSkill } from "../lib/catalog/_types.ts";
import { loadCatalog } from "../lib/catalog/_load.ts";
import type { Origin } from "../lib/catalog/_origin.ts";
import { applyPrecedence } from "../lib/catalog/_precedence.ts";
import { resolveSource } from "../lib/sources/_resolve.ts";
import { withTempDir, writeTree } from "./helpers.ts";
import { flatRoot } from "./catalog_fixtures.ts";

function md(name: string, body = `Instructions for ${name}.`): string {
  return `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\n${body}\n`;
}

const CLAUDE_PROJECT: Origin = { kind: "agent", agent: "claude-code", scope: "project" };
const CURSOR_PROJECT: Origin = { kind: "agent", agent: "cursor", scope: "project" };
const CODEX_USER: Origin = { kind: "agent", agent: "codex", scope: "user" };

/** The body of each built record (its path when none is given): discovery's body keys. */
const BODIES = new WeakMap<DiscoveredSkill, string>();
const bodyKey = (skill: DiscoveredSkill) => BODIES.get(skill);

/** A discovered-skill record for calling applyPrecedence directly (paths need not exist). */
function record(
  name: string,
  options: {
    origin: Origin;
    rank?: number;
    rootIndex?: number;
    root?: string;
    path?: string;
    body?: string;
    warnings?: string[];
  },
): DiscoveredSkill {
  const root = options.root ?? `/nowhere/root-${options.rootIndex ?? 0}`;
  const path = options.path ?? `${root}/${name}/SKILL.md`;
  const warnings = options.warnings ?? [];
  const skill: DiscoveredSkill = {
    name,
    nameDeclared: true,
    description: `The ${name} skill.`,
    invocation: { modelInvocable: true, userInvocable: true },
    source: "anywhere-project",
    rank: options.rank ?? 250,
    path,
    directory: `${root}/${name}`,
    metadata: {},
    origin: options.origin,
    root,
    relativePath: `${name}/SKILL.md`,
    rootIndex: options.rootIndex ?? 0,
    repairs: warnings,
    warnings: [...warnings],
  };
  BODIES.set(skill, options.body ?? path);
  return skill;
}

const plugin = (name: string): Origin => ({
  kind: "claude-plugins",
  marketplace: "claude-plugins-official",
  plugin: name,
});

const names = (skills: { name: string }[]) => skills.map((s) => s.name);

Deno.test("the same file via a symlink in two roots is one skill; the lower rank wins (same-file)", async () => {
  await withTempDir(async (dir) => {
    const user = join(dir, "user");
    const project = join(dir, "project");
    await writeTree(user, { "shared/SKILL.md": md("shared"), "shared.md": md("shared-flat") });
    await Deno.mkdir(project);
    await Deno.symlink(join(user, "shared"), join(project, "shared"));
    await Deno.symlink(join(user, "shared.md"), join(project, "shared.md"));
    // The higher-rank root comes first in the list: rank decides, not list position.
    const report = await discover([
      flatRoot(user, 550, CODEX_USER),
      // The project's links may reach anything inside its project folder (here: `dir`).
      { ...flatRoot(project, 250, CLAUDE_PROJECT), project: dir },
    ]);
    deepEqual(names(report.skills), ["shared-flat", "shared"]);
    for (const skill of report.skills) equal(skill.root, project);
    deepEqual(
      report.dropped.map((d) => [d.reason, d.skill.path, d.winner.path]),
      [
        ["same-file", join(user, "shared.md"), join(project, "shared.md")],
        ["same-file", join(user, "shared", "SKILL.md"), join(project, "shared", "SKILL.md")],
      ],
    );
    deepEqual(report.roots.map((r) => r.count), [2, 2], "counts are per root, before dedupe");
  });
});

Deno.test("one file reached under two directory names is still same-file", async () => {
  await withTempDir(async (dir) => {
    const body = "---\ndescription: Named by its folder.\n---\nSame bytes.\n";
    await writeTree(dir, { "a/first/SKILL.md": body });
    await Deno.mkdir(join(dir, "b"));
    await Deno.symlink(join(dir, "a", "first"), join(dir, "b", "second"));
    const report = await discover([
      flatRoot(join(dir, "a"), 250, CLAUDE_PROJECT),
      flatRoot(join(dir, "b"), 550, CODEX_USER),
    ]);
    deepEqual(names(report.skills), ["first"]);
    equal(report.dropped.length, 1);
    equal(report.dropped[0].reason, "same-file");
    equal(report.dropped[0].skill.name, "second");
  });
});

Deno.test("byte-identical same-name copies: one kept, same-content", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "project/dup/SKILL.md": md("dup", "Identical body."),
      "user/dup/SKILL.md": md("dup", "Identical body."),
      "user/twin-body/SKILL.md": md("twin-body", "Identical body."),
    });
    const report = await discover([
      flatRoot(join(dir, "user"), 550, CODEX_USER),
      flatRoot(join(dir, "project"), 250, CLAUDE_PROJECT),
    ]);
    deepEqual(names(report.skills), ["dup", "twin-body"], "different names, same body: both kept");
    equal(report.skills[0].root, join(dir, "project"));
    equal(report.dropped.length, 1);
    const [drop] = report.dropped;
    equal(drop.reason, "same-content");
    equal(drop.skill.path, join(dir, "user", "dup", "SKILL.md"));
    equal(drop.winner, report.skills[0]);
  });
});

Deno.test("same name, different content: kept and renamed flat-diff", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "one/flat/diff/SKILL.md": md("diff", "Version one."),
      "two/flat/diff.md": md("diff", "Version two."),
    });
    const custom: Origin = { kind: "custom", scope: "user" };
    const report = await discover([
      flatRoot(join(dir, "one", "flat"), 550, custom),
      flatRoot(join(dir, "two", "flat"), 550, custom),
    ]);
    deepEqual(names(report.skills), ["diff", "flat-diff"]);
    deepEqual(report.dropped, []);
    const [kept, renamed] = report.skills;
    deepEqual(kept.warnings, []);
    equal(kept.renamedFrom, undefined);
    const warning = 'name "diff" collides with another skill; published as "flat-diff"';
    deepEqual(renamed.warnings, [warning]);
    deepEqual(renamed.repairs, [], "a collision is not a repair");
    equal(renamed.renamedFrom, "diff");
    equal(renamed.path, join(dir, "two", "flat", "diff.md"));
  });
});

Deno.test("dedupe:false keeps both copies (identical and symlinked)", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "claude/same/SKILL.md": md("same", "Identical."),
      "cursor/same/SKILL.md": md("same", "Identical."),
      "codex/real/SKILL.md": md("real"),
    });
    await Deno.symlink(join(dir, "codex", "real"), join(dir, "claude", "real"));
    const roots = [
      { ...flatRoot(join(dir, "claude"), 250, CLAUDE_PROJECT), project: dir },
      flatRoot(join(dir, "cursor"), 250, CURSOR_PROJECT),
      flatRoot(join(dir, "codex"), 550, CODEX_USER),
    ];
    const off = await discover(roots, { dedupe: false });
    deepEqual(names(off.skills), ["real", "same", "cursor-same", "codex-real"]);
    deepEqual(off.dropped, []);
    const on = await discover(roots);
    deepEqual(names(on.skills), ["real", "same"]);
    deepEqual(on.dropped.map((d) => d.reason).sort(), ["same-content", "same-file"]);
  });
});

Deno.test("excludeSkills drops by raw name", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "alpha/SKILL.md": md("alpha"),
      "beta/SKILL.md": md("beta"),
      "Gamma Dir/SKILL.md": "---\nname: Gamma Skill\ndescription: g\n---\nG\n",
    });
    const report = await discover([flatRoot(dir, 250, CLAUDE_PROJECT)], {
      excludeSkills: ["beta", "gamma-skill"],
    });
    deepEqual(names(report.skills), ["alpha"]);
    deepEqual(
      report.dropped.map((d) => [d.reason, d.skill.name, d.winner === d.skill]),
      [["excluded", "gamma-skill", true], ["excluded", "beta", true]],
    );
  });
});

Deno.test("excludeSkills matches published names such as telegram-access; raw access drops all", async () => {
  await withTempDir(async (home) => {
    await writeTree(join(home, ".claude", "plugins", "cache", "official"), {
      "discord/0.0.1/skills/access/SKILL.md": md("access", "Discord access."),
      "telegram/0.0.4/skills/access/SKILL.md": md("access", "Telegram access."),
    });
    const cache = join(home, ".claude", "plugins", "cache", "official");
    await install(home, {
      "discord@official": join(cache, "discord/0.0.1"),
      "telegram@official": join(cache, "telegram/0.0.4"),
    });
    const published = await loadCatalog(
      resolveConfig({ excludeSkills: ["telegram-access"] }, { HOME: home }),
    );
    deepEqual(names(published.report.skills), ["discord-access"]);
    deepEqual(
      published.report.dropped.map((d) => [d.reason, d.skill.name, d.skill.renamedFrom]),
      [["excluded", "telegram-access", "access"]],
    );
    const raw = await loadCatalog(resolveConfig({ excludeSkills: ["access"] }, { HOME: home }));
    deepEqual(raw.report.skills, []);
    deepEqual(raw.report.dropped.map((d) => [d.reason, d.skill.name]), [
      ["excluded", "access"],
      ["excluded", "access"],
    ]);
  });
});

Deno.test("ordering: rank, then root order, then path (zed in an earlier root precedes alpha)", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "first/zed/SKILL.md": md("zed"),
      "first/yak.md": md("yak"),
      "second/alpha/SKILL.md": md("alpha"),
      "second/Upper/SKILL.md": md("upper"),
      "late/aaa/SKILL.md": md("aaa"),
      "early/zzz/SKILL.md": md("zzz"),
    });
    const report = await discover([
      flatRoot(join(dir, "late"), 700, { kind: "source", repo: "o/late" }),
      flatRoot(join(dir, "first"), 550, CODEX_USER),
      flatRoot(join(dir, "second"), 550, { kind: "custom", scope: "user" }),
      flatRoot(join(dir, "early"), 10, { kind: "source", repo: "o/early" }),
    ]);
    // Paths compare in plain code units: "Upper" sorts before "alpha".
    deepEqual(names(report.skills), ["zzz", "yak", "zed", "upper", "alpha", "aaa"]);
  });
});

Deno.test("precedence orders by rank, root index, then code-unit path", async () => {
  const o = CLAUDE_PROJECT;
  const a = record("a", { origin: o, rank: 250, rootIndex: 3, path: "/z/SKILL.md" });
  const b = record("b", { origin: o, rank: 550, rootIndex: 0, path: "/a/SKILL.md" });
  const c = record("c", { origin: o, rank: 250, rootIndex: 1, path: "/z/SKILL.md" });
  const d = record("d", { origin: o, rank: 250, rootIndex: 1, path: "/Z/SKILL.md" });
  const { skills } = await applyPrecedence([a, b, c, d], { dedupe: false, excludeSkills: [] });
  deepEqual(names(skills), ["d", "c", "a", "b"]);
});

Deno.test("codex configure + 3 plugins + source anthropics/skills", async () => {
  await withTempDir(async (home) => {
    const market = join(home, ".claude", "plugins", "marketplaces", "claude-plugins-official");
    const config = resolveConfig({ sources: ["anthropics/skills"] }, { HOME: home });
    await writeTree(home, { ".codex/skills/configure/SKILL.md": md("configure", "Codex.") });
    await writeTree(market, {
      "external_plugins/discord/skills/configure/SKILL.md": md("configure", "Discord."),
      "external_plugins/imessage/skills/configure/SKILL.md": md("configure", "iMessage."),
      "external_plugins/telegram/skills/configure/SKILL.md": md("configure", "Telegram."),
    });
    const installs = Object.fromEntries(["discord", "imessage", "telegram"].map((p) => [
      `${p}@claude-plugins-official`,
      [{ scope: "user", installPath: join(market, "external_plugins", p) }],
    ]));
    await writeTree(home, {
      ".claude/plugins/installed_plugins.json": JSON.stringify({ version: 2, plugins: installs }),
      ".claude/settings.json": JSON.stringify({
        enabledPlugins: Object.fromEntries(Object.keys(installs).map((k) => [k, true])),
      }),
    });
    await writeTree(resolveSource("anthropics/skills", config.cacheDir).dir, {
      "skills/configure/SKILL.md": md("configure", "Source."),
    });
    const { report } = await loadCatalog(config);
    deepEqual(names(report.skills), [
      "configure",
      "discord-configure",
      "imessage-configure",
      "telegram-configure",
      "skills-configure",
    ]);
    deepEqual(report.skills.map((s) => s.origin.kind), [
      "agent",
      "claude-plugins",
      "claude-plugins",
      "claude-plugins",
      "source",
    ]);
    deepEqual(report.skills.map((s) => s.renamedFrom), [
      undefined,
      "configure",
      "configure",
      "configure",
      "configure",
    ]);
    deepEqual(report.dropped, []);
  });
});

Deno.test("an all-plugin collision prefixes every member: no bare access", async () => {
  await withTempDir(async (home) => {
    await writeTree(join(home, ".claude", "plugins", "marketplaces", "official", "plugins"), {
      "discord/skills/access/SKILL.md": md("access", "Discord access."),
      "telegram/skills/access/SKILL.md": md("access", "Telegram access."),
    });
    const checkout = join(home, ".claude", "plugins", "marketplaces", "official", "plugins");
    await install(home, {
      "discord@official": join(checkout, "discord"),
      "telegram@official": join(checkout, "telegram"),
    });
    const { report } = await loadCatalog(resolveConfig({}, { HOME: home }));
    deepEqual(names(report.skills), ["discord-access", "telegram-access"]);
    ok(!names(report.skills).includes("access"));
    deepEqual(report.skills[0].warnings, [
      'name "access" collides with another skill; published as "discord-access"',
    ]);
  });
});

Deno.test("plugin and source collisions rename every member; a source prefix is its last segment", async () => {
  const kept = await precedence([
    record("lint", { origin: plugin("ruff"), rank: 580, rootIndex: 0 }),
    record("lint", { origin: { kind: "source", repo: "acme/tools/" }, rank: 700, rootIndex: 1 }),
    record("lint", {
      origin: { kind: "source", repo: "o/r/skills/lint" },
      rank: 700,
      rootIndex: 2,
    }),
  ]);
  deepEqual(names(kept), ["ruff-lint", "tools-lint", "lint-lint"]);
});

Deno.test("a mixed group keeps the bare name for the first member, even a source ranked first", async () => {
  const kept = await precedence([
    record("configure", { origin: CODEX_USER, rank: 550, rootIndex: 0 }),
    record("configure", { origin: { kind: "source", repo: "o/first" }, rank: 10, rootIndex: 1 }),
  ]);
  deepEqual(names(kept), ["configure", "codex-configure"]);
  equal(kept[0].origin.kind, "source");
});

Deno.test("rename prefixes are normalised; unknown plugin names fall back to the root folder", async () => {
  const kept = await precedence([
    record("tool", { origin: CLAUDE_PROJECT, rootIndex: 0 }),
    record("tool", { origin: plugin("My_Plugin"), rank: 580, rootIndex: 1 }),
    record("tool", {
      origin: { kind: "claude-plugins", marketplace: "m", plugin: "" },
      rank: 580,
      rootIndex: 2,
      root: "/x/Odd Market",
    }),
    record("tool", {
      origin: { kind: "custom", scope: "project" },
      rank: 250,
      rootIndex: 3,
      root: "/x/team-skills",
    }),
  ]);
  deepEqual(names(kept), ["tool", "team-skills-tool", "my-plugin-tool", "odd-market-tool"]);
});

Deno.test("a renamed skill keeps its parse warnings and appends the collision warning", async () => {
  const repaired = 'name "Dup" normalised to "dup"';
  const kept = await precedence([
    record("dup", { origin: CLAUDE_PROJECT, rootIndex: 0 }),
    record("dup", { origin: CURSOR_PROJECT, rootIndex: 1, warnings: [repaired] }),
  ]);
  const collision = 'name "dup" collides with another skill; published as "cursor-dup"';
  deepEqual(kept[1].warnings, [repaired, collision]);
  deepEqual(kept[1].repairs, [repaired]);
  equal(kept[1].renamedFrom, "dup");
  equal(kept[1].relativePath, "dup/SKILL.md", "other fields are kept");
});

Deno.test("a rename never reuses a taken name: build, cursor-build, cursor-build-2", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "claude/build/SKILL.md": md("build", "Claude build."),
      "claude/cursor-build/SKILL.md": md("cursor-build"),
      "cursor/build/SKILL.md": md("build", "Cursor build."),
    });
    const report = await discover([
      flatRoot(join(dir, "claude"), 250, CLAUDE_PROJECT),
      flatRoot(join(dir, "cursor"), 250, CURSOR_PROJECT),
    ]);
    deepEqual(names(report.skills), ["build", "cursor-build", "cursor-build-2"]);
    equal(report.skills[2].renamedFrom, "build");
  });
});

Deno.test("a 70-char prefix+name collision terminates, names ≤ 64, suffix kept", async () => {
  await withTempDir(async (dir) => {
    const long = "a".repeat(63);
    equal(`cursor-${long}`.length, 70);
    await writeTree(dir, {
      [`claude/${long}/SKILL.md`]: md(long, "Claude."),
      [`cursor-project/${long}/SKILL.md`]: md(long, "Cursor project."),
      [`cursor-user/${long}/SKILL.md`]: md(long, "Cursor user."),
    });
    const report = await discover([
      flatRoot(join(dir, "claude"), 250, CLAUDE_PROJECT),
      flatRoot(join(dir, "cursor-project"), 250, CURSOR_PROJECT),
      flatRoot(join(dir, "cursor-user"), 550, { kind: "agent", agent: "cursor", scope: "user" }),
    ]);
    const published = names(report.skills);
    deepEqual(published, [long, `cursor-${"a".repeat(57)}`, `cursor-${"a".repeat(55)}-2`]);
    for (const name of published) ok(name.length <= 64, name);
  });
});

Deno.test("many long colliding names all get distinct suffixed names within 64 chars", async () => {
  const long = "x-".repeat(31) + "y"; // 63 chars, hyphens everywhere a cut may land
  const members = Array.from({ length: 15 }, (_, i) =>
    record(long, {
      origin: plugin("long-plugin-name"),
      rank: 580,
      rootIndex: i,
    }));
  const kept = await precedence(members);
  const published = names(kept);
  equal(new Set(published).size, 15);
  for (const name of published) {
    ok(name.length <= 64, name);
    ok(/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name), name);
  }
  ok(!published.includes(long));
  for (let n = 2; n <= 15; n++) ok(published[n - 1].endsWith(`-${n}`), published[n - 1]);
});

/** applyPrecedence with dedupe on and no exclusions. */
/** Records each `<plugin>@<marketplace>` → install folder as installed and enables it. */
async function install(home: string, installs: Record<string, string>): Promise<void> {
  const plugins = Object.fromEntries(
    Object.entries(installs).map(([key, installPath]) => [key, [{ scope: "user", installPath }]]),
  );
  await writeTree(home, {
    ".claude/plugins/installed_plugins.json": JSON.stringify({ version: 2, plugins }),
    ".claude/settings.json": JSON.stringify({
      enabledPlugins: Object.fromEntries(Object.keys(installs).map((key) => [key, true])),
    }),
  });
}

async function precedence(found: DiscoveredSkill[]): Promise<DiscoveredSkill[]> {
  return (await applyPrecedence(found, { dedupe: true, excludeSkills: [], bodyKey })).skills;
}
