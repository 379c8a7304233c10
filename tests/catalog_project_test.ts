// The one Project value: resolved once from a working directory, then passed down so that
// loadCatalog does not ask "which project is this?" again.
import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { resolveConfig } from "../lib/catalog/_config.ts";
import { loadCatalog } from "../lib/catalog/_load.ts";
import { projectAt, resolveProject } from "../lib/catalog/_project.ts";
import { LOCK_FILE_NAME } from "../lib/lock/_format.ts";
import { withTempDir, writeTree } from "./helpers.ts";

const SKILL = (name: string) => `---\nname: ${name}\ndescription: d\n---\nBody.\n`;

Deno.test("resolveProject: the root of a folder below it and every path derived from it", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, { "repo/.git/HEAD": "ref: refs/heads/main\n", "repo/a/b/keep": "" });
    const home = join(dir, "home");
    const project = await resolveProject(join(dir, "repo", "a", "b"), home);
    deepEqual(project, {
      cwd: join(dir, "repo", "a", "b"),
      root: join(dir, "repo"),
      lockFile: join(dir, "repo", LOCK_FILE_NAME),
      sourcesFile: join(dir, "repo", ".dsh", "skills-anywhere.json"),
      home,
      atHome: false,
    });
  });
});

Deno.test("projectAt: the home folder is marked, a trailing slash included", () => {
  equal(projectAt("/home/me", "/home/me").atHome, true);
  equal(projectAt("/home/me/", "/home/me").atHome, true);
  equal(projectAt("/home/me/app", "/home/me").atHome, false);
  equal(projectAt("/repo", "/home/me").cwd, "/repo");
  equal(projectAt("/repo", "/home/me", "/repo/sub").cwd, "/repo/sub");
});

Deno.test("loadCatalog takes the project it is given instead of finding one from cwd", async () => {
  await withTempDir(async (dir) => {
    // `inner` has no .git of its own: from cwd alone its project root is `outer`.
    await writeTree(dir, {
      "home/keep": "",
      "outer/.git/HEAD": "ref: refs/heads/main\n",
      "outer/.claude/skills/outer-skill/SKILL.md": SKILL("outer-skill"),
      "outer/inner/.claude/skills/inner-skill/SKILL.md": SKILL("inner-skill"),
    });
    const home = join(dir, "home");
    const config = resolveConfig({}, { HOME: home });
    const cwd = join(dir, "outer", "inner");
    const found = await loadCatalog(config, { cwd });
    equal(found.projectRoot, join(dir, "outer"));
    equal(found.project?.root, join(dir, "outer"));
    // Claude Code reads the project root's folder: the root found is `outer`.
    deepEqual(found.report.skills.map((s) => s.name), ["outer-skill"]);

    // The same folder given as its own project (as a caller that resolved it would): kept as is.
    const given = projectAt(cwd, home);
    const passed = await loadCatalog(config, { project: given });
    equal(passed.projectRoot, cwd);
    equal(passed.project, given);
    deepEqual(passed.report.skills.map((s) => s.name), ["inner-skill"]);
  });
});

Deno.test("loadCatalog with a resolved project equals loadCatalog with its cwd", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "home/.claude/skills/mine/SKILL.md": SKILL("mine"),
      "repo/.git/HEAD": "ref: refs/heads/main\n",
      "repo/.claude/skills/ours/SKILL.md": SKILL("ours"),
      "repo/sub/keep": "",
    });
    const home = join(dir, "home");
    const config = resolveConfig({}, { HOME: home });
    const cwd = join(dir, "repo", "sub");
    const byCwd = await loadCatalog(config, { cwd });
    const byProject = await loadCatalog(config, { project: await resolveProject(cwd, home) });
    deepEqual(byProject.roots, byCwd.roots);
    deepEqual(byProject.report.skills, byCwd.report.skills);
    deepEqual(byProject.project, byCwd.project);
  });
});
