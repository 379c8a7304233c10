// Dedupe by whole skill directories and renaming around repaired names, over real temp homes built
// from real published skills (testdata/dedupe/, see its LICENSES.md): anthropics/skills'
// `webapp-testing` (a SKILL.md with a helper script) and two neighbouring folders of
// ComposioHQ/awesome-claude-skills whose declared names are both invalid as written.
import { deepEqual, equal, ok } from "node:assert/strict";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { discover, type DiscoveryReport } from "../lib/catalog/_discover.ts";
import type { Origin } from "../lib/catalog/_origin.ts";
import { ROOT, withTempDir, writeTree } from "./helpers.ts";
import { flatRoot } from "./catalog_fixtures.ts";

const FIXTURES = join(ROOT, "testdata", "dedupe");
const CLAUDE_USER: Origin = { kind: "agent", agent: "claude-code", scope: "user" };
const AGENTS_USER: Origin = { kind: "agent", agent: "agents", scope: "user" };
const CLAUDE_PROJECT: Origin = { kind: "agent", agent: "claude-code", scope: "project" };

/** Copies the real `webapp-testing` skill into `~/.claude/skills` and `~/.agents/skills`. */
function twoCopies(home: string): { claude: string; agents: string } {
  const claude = join(home, ".claude", "skills", "webapp-testing");
  const agents = join(home, ".agents", "skills", "webapp-testing");
  for (const target of [claude, agents]) {
    cpSync(join(FIXTURES, "webapp-testing"), target, { recursive: true });
  }
  return { claude, agents };
}

/** Discovers `~/.claude/skills` (first) and `~/.agents/skills`. */
function discoverHome(home: string): Promise<DiscoveryReport> {
  return discover([
    flatRoot(join(home, ".claude", "skills"), 550, CLAUDE_USER),
    flatRoot(join(home, ".agents", "skills"), 560, AGENTS_USER),
  ]);
}

const published = (report: DiscoveryReport) =>
  report.skills.map((s) => [s.name, s.renamedFrom ?? null]);

Deno.test("the same skill directory in two agents' folders is one skill (same-content)", async () => {
  await withTempDir(async (home) => {
    const { claude, agents } = twoCopies(home);
    const report = await discoverHome(home);
    deepEqual(published(report), [["webapp-testing", null]]);
    equal(report.skills[0].path, join(claude, "SKILL.md"));
    deepEqual(
      report.dropped.map((d) => [d.reason, d.skill.path, d.winner.path]),
      [["same-content", join(agents, "SKILL.md"), join(claude, "SKILL.md")]],
    );
  });
});

Deno.test("same SKILL.md, edited script: both kept, the second renamed, nothing hidden", async () => {
  await withTempDir(async (home) => {
    const { agents } = twoCopies(home);
    const script = join(agents, "scripts", "with_server.py");
    const text = await Deno.readTextFile(script);
    await Deno.writeTextFile(script, text.replace("timeout=30", "timeout=120"));
    ok(text.includes("timeout=30"), "the real script has a 30 s timeout to edit");
    const report = await discoverHome(home);
    deepEqual(published(report), [
      ["webapp-testing", null],
      ["agents-webapp-testing", "webapp-testing"],
    ]);
    deepEqual(report.dropped, []);
  });
});

Deno.test("same SKILL.md, one more file: both kept", async () => {
  await withTempDir(async (home) => {
    const { agents } = twoCopies(home);
    await writeTree(agents, { "examples/console_logging.py": "print('added locally')\n" });
    const report = await discoverHome(home);
    equal(report.skills.length, 2);
    deepEqual(report.dropped, []);
  });
});

Deno.test("a copy that cannot be bundled (a link inside) is never collapsed", async () => {
  await withTempDir(async (home) => {
    const { claude, agents } = twoCopies(home);
    await Deno.remove(join(agents, "LICENSE.txt"));
    await Deno.symlink(join(claude, "LICENSE.txt"), join(agents, "LICENSE.txt"));
    const report = await discoverHome(home);
    deepEqual(published(report), [
      ["webapp-testing", null],
      ["agents-webapp-testing", "webapp-testing"],
    ]);
    deepEqual(report.dropped, []);
  });
});

Deno.test("flat files: an identical file is one skill; a changed description keeps both", async () => {
  await withTempDir(async (home) => {
    const skill = await Deno.readTextFile(join(FIXTURES, "webapp-testing", "SKILL.md"));
    await writeTree(home, {
      ".claude/skills/webapp-testing.md": skill,
      ".agents/skills/webapp-testing.md": skill,
    });
    const same = await discoverHome(home);
    deepEqual(published(same), [["webapp-testing", null]]);
    deepEqual(same.dropped.map((d) => d.reason), ["same-content"]);

    const edited = skill.replace("using Playwright", "using Playwright (Chromium only)");
    ok(edited !== skill);
    await writeTree(home, { ".agents/skills/webapp-testing.md": edited });
    const differ = await discoverHome(home);
    deepEqual(published(differ), [
      ["webapp-testing", null],
      ["agents-webapp-testing", "webapp-testing"],
    ]);
    deepEqual(differ.dropped, [], "the same body with another frontmatter is another skill");
  });
});

Deno.test("long bodies (past the 16 KiB body key): identical copies collapse, a one-letter edit keeps both", async () => {
  await withTempDir(async (home) => {
    // The real webapp-testing skill with its body repeated to about 60 KB (under the bundle's
    // 128 KiB SKILL.md limit, so same-content can be confirmed by digest).
    const skill = await Deno.readTextFile(join(FIXTURES, "webapp-testing", "SKILL.md"));
    const [, frontmatter, body] = /^(---\n[\s\S]*?\n---\n)([\s\S]*)$/.exec(skill)!;
    const long = frontmatter + body.repeat(Math.ceil(60_000 / body.length));
    ok(long.length > 16 * 1024 * 3);
    const { claude, agents } = twoCopies(home);
    await writeTree(home, {
      ".claude/skills/webapp-testing/SKILL.md": long,
      ".agents/skills/webapp-testing/SKILL.md": long,
    });
    const same = await discoverHome(home);
    deepEqual(published(same), [["webapp-testing", null]]);
    deepEqual(same.dropped.map((d) => [d.reason, d.skill.path]), [
      ["same-content", join(agents, "SKILL.md")],
    ]);

    // Same length, one letter changed in the middle: another body, never collapsed.
    const middle = Math.floor(long.length / 2);
    const letter = long[middle] === "a" ? "b" : "a";
    const edited = long.slice(0, middle) + letter + long.slice(middle + 1);
    equal(edited.length, long.length);
    await writeTree(home, { ".agents/skills/webapp-testing/SKILL.md": edited });
    const differ = await discoverHome(home);
    deepEqual(published(differ), [
      ["webapp-testing", null],
      ["agents-webapp-testing", "webapp-testing"],
    ]);
    deepEqual(differ.dropped, []);

    // The same long file reached twice through a link is one skill (same-file).
    await Deno.remove(agents, { recursive: true });
    await Deno.symlink(claude, agents);
    const linked = await discoverHome(home);
    deepEqual(linked.dropped.map((d) => d.reason), ["same-file"]);
  });
});

Deno.test("ComposioHQ's launch_darkly-automation never takes the folder launch-darkly-automation", async () => {
  await withTempDir(async (home) => {
    const skills = join(home, ".claude", "skills");
    cpSync(join(FIXTURES, "composio-skills"), skills, { recursive: true });
    const report = await discover([flatRoot(skills, 550, CLAUDE_USER)]);
    const byFolder = Object.fromEntries(
      report.skills.map((s) => [s.relativePath.split("/")[0], [s.name, s.renamedFrom ?? null]]),
    );
    deepEqual(byFolder, {
      // `name: LaunchDarkly Automation`, normalised; no other skill is named or foldered so.
      "launch-darkly-automation": ["launchdarkly-automation", null],
      // `name: launch_darkly-automation` normalises onto the other skill's folder name: renamed.
      "launch_darkly-automation": [
        "claude-code-launch-darkly-automation",
        "launch-darkly-automation",
      ],
    });
    for (const skill of report.skills) equal(skill.nameDeclared, false);
    deepEqual(report.dropped, []);
  });
});

Deno.test("a repaired name loses to a skill that declares it exactly, whatever the precedence", async () => {
  await withTempDir(async (dir) => {
    const declared = await Deno.readTextFile(join(FIXTURES, "webapp-testing", "SKILL.md"));
    const repaired = declared.replace("name: webapp-testing", "name: WebApp Testing")
      .replace("local web applications", "this project's web app");
    await writeTree(dir, {
      // The project ranks first, but its name was repaired ("WebApp Testing" → webapp-testing).
      "project/.claude/skills/web-ui/SKILL.md": repaired,
      "home/.claude/skills/webapp-testing/SKILL.md": declared,
    });
    const report = await discover([
      flatRoot(join(dir, "project/.claude/skills"), 250, CLAUDE_PROJECT),
      flatRoot(join(dir, "home/.claude/skills"), 550, CLAUDE_USER),
    ]);
    deepEqual(published(report), [
      ["claude-code-webapp-testing", "webapp-testing"],
      ["webapp-testing", null],
    ]);
    deepEqual(report.skills.map((s) => s.nameDeclared), [false, true]);
  });
});

Deno.test("a rename never lands on a name some skill's folder has: -2 instead", async () => {
  await withTempDir(async (dir) => {
    const declared = await Deno.readTextFile(join(FIXTURES, "webapp-testing", "SKILL.md"));
    const other = declared.replace("name: webapp-testing", "name: browser-checks");
    await writeTree(dir, {
      "a/webapp-testing/SKILL.md": declared,
      "b/webapp-testing/SKILL.md": declared.replace("Playwright", "Playwright and Selenium"),
      // A folder already called what the second copy would be renamed to.
      "b/claude-code-webapp-testing/SKILL.md": other,
    });
    const report = await discover([
      flatRoot(join(dir, "a"), 550, CLAUDE_USER),
      flatRoot(join(dir, "b"), 560, CLAUDE_USER),
    ]);
    deepEqual(published(report), [
      ["webapp-testing", null],
      ["browser-checks", null],
      ["claude-code-webapp-testing-2", "webapp-testing"],
    ]);
  });
});
