/**
 * The guard tests: every command run against a fixture home leaves every skill and agent
 * directory untouched, and hostile project sources, trusted, write nothing outside the cache, run
 * nothing and leak nothing. Everything runs in a sandbox with an isolated git.
 *
 * @module
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { exists, mkfifo, type Sandbox, withGitDaemon, withSandbox, writeTree } from "./helpers.ts";
import { skillMd, textOf, withSession } from "./mcp_helpers.ts";
import { fingerprint, lockDown } from "./hostile_helpers.ts";

/** A SKILL.md of the guard fixture (with a link to a resource). */
function guardSkill(name: string, extra: string[] = []): string {
  return skillMd(name, `The ${name} skill.`, `Body of ${name}. See [ref](reference.md).`, extra);
}

/**
 * Every kind of skill the catalog reads, in the home and the project: agents' directories,
 * plugins, a repaired and a broken file, an author-disabled skill, an escape in a name, a
 * symlinked skill directory and a named pipe where a SKILL.md should be.
 */
async function writeGuardFixture({ home, project }: Sandbox): Promise<void> {
  const skill = guardSkill;
  await writeTree(home, {
    ".claude/skills/pdf-forms/SKILL.md": skill("pdf-forms", ["allowed-tools: Read Bash"]),
    ".claude/skills/pdf-forms/reference.md": "# Reference\n",
    ".claude/skills/pdf-forms/scripts/fill.py": "print('fill')\n",
    ".claude/skills/nofront/SKILL.md": "Use this when things happen.\n",
    ".claude/skills/broken/SKILL.md": new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0x0a]),
    ".claude/skills/secret/SKILL.md": skill("secret", ["disable-model-invocation: true"]),
    ".claude/skills/escape/SKILL.md": skill("escape\u001b[31m", []),
    ".codex/skills/review/SKILL.md": skill("review"),
    ".cursor/skills/build/SKILL.md": skill("build"),
    ".gemini/skills/search/SKILL.md": skill("search"),
    ".agents/skills/shared/SKILL.md": skill("shared"),
    ".claude/plugins/known_marketplaces.json": "{}\n",
    ".claude/plugins/installed_plugins.json": "{}\n",
    ".claude/plugins/marketplaces/official/plugins/hookify/skills/hook/SKILL.md": skill("hook"),
    ".claude/plugins/cache/market/my-plugin/1.2.3/skills/cached/SKILL.md": skill("cached"),
  });
  await writeTree(project, {
    ".claude/skills/build/SKILL.md": skill("build"),
    ".claude/skills/deploy/SKILL.md": skill("deploy"),
    ".cursor/skills/lint/SKILL.md": skill("lint"),
    ".agents/skills/team/SKILL.md": skill("team"),
    ".gemini/skills/search/SKILL.md": skill("search"),
  });
  await Deno.symlink(join(home, ".claude/skills/pdf-forms"), join(home, ".cursor/skills/linked"));
  await Deno.mkdir(join(home, ".codex/skills/pipe"), { recursive: true });
  await mkfifo(join(home, ".codex/skills/pipe/SKILL.md"));
}

/** Every CLI command (with its allowed exit codes) the guard runs, in order. */
function guardRuns(
  paths: { skillFiles: string[]; pdf: string; review: string; pipe: string; upstream: string },
): [string[], number[]][] {
  const { skillFiles, pdf, review, pipe, upstream } = paths;
  return [
    [["list"], [0]],
    [["list", "--all"], [0]],
    [["list", "--all", "--json"], [0]],
    [["agents"], [0]],
    [["agents", "--json"], [0]],
    [["sources"], [0]],
    [["doctor"], [0]],
    [["doctor", "--json"], [0]],
    [["check", ...skillFiles], [2]],
    [["check", "--json", "--resources", "--profile", "spec", ...skillFiles], [2]],
    [["check", "--lenient", "--fail-on-hidden-characters", ...skillFiles], [2]],
    [["bundle", pdf], [0]],
    [["bundle", "--json", pdf], [0]],
    [["bundle", "--against", review, pdf], [0]],
    [["bundle", pipe], [2]],
    [["add", upstream, "--path", "skills"], [0]],
    [["sources", "--json"], [0]],
    [["sync"], [0]],
    [["sync", "--force", "--json"], [0]],
    [["list", "--json"], [0]],
  ];
}

/** Every MCP tool and resource, through a real SDK client. */
async function exerciseMcp(box: Sandbox): Promise<void> {
  await withSession(box, "auto", async (session) => {
    const listed = await session.call("list_skills", { limit: 50 });
    ok(textOf(listed).includes("pdf-forms"), textOf(listed));
    ok(textOf(listed).includes("alpha"), "the Git source is served");
    const found = await session.call("find_skills", { query: "pdf" });
    ok(textOf(found).includes("pdf-forms"));
    const opened = await session.call("open_skill", { name: "pdf-forms", include_bundle: true });
    equal(opened.isError, undefined, textOf(opened));
    const pinned = await session.call("open_skill", {
      name: "pdf-forms",
      expected_sha256: "0".repeat(64),
    });
    equal(pinned.isError, true);
    const disabled = await session.call("open_skill", { name: "secret" });
    equal(disabled.isError, true);
    const { resources } = await session.client.listResources();
    ok(resources.length > 5);
    await session.client.listResourceTemplates();
    for (const resource of resources) await session.read(resource.uri);
  });
}

/** Every SKILL.md path below `root` (regular files, links and pipes; not directories). */
async function skillFilesBelow(root: string): Promise<string[]> {
  return (await fingerprint(root))
    .map((line) => line.split("\t"))
    .filter(([path, type]) => path.endsWith("/SKILL.md") && type !== "dir")
    .map(([path]) => join(root, path));
}

Deno.test("guard: every command against a fixture home leaves every skill and agent directory untouched", async () => {
  await withSandbox(async (box) => {
    await lockDown(box);
    await writeGuardFixture(box);
    const upstream = await box.repo("upstream", {
      "skills/alpha/SKILL.md": guardSkill("alpha"),
      "skills/beta/SKILL.md": guardSkill("beta"),
    });
    const pdf = join(box.home, ".claude/skills/pdf-forms");
    const review = join(box.root, "review.json");
    const manifest = await box.cli("bundle", "--json", pdf);
    equal(manifest.code, 0, manifest.stderr);
    await Deno.writeTextFile(review, manifest.stdout);
    const skillFiles = (await skillFilesBelow(box.root)).filter((p) => !p.startsWith(upstream));
    equal(skillFiles.length, 17, "12 in the home (one a named pipe), 5 in the project");

    // Only <DSH_HOME>/skills-anywhere may change.
    const allowed = join(box.dshHome, "skills-anywhere");
    const before = await fingerprint(box.root, [allowed]);
    const pipe = join(box.home, ".codex/skills/pipe");
    for (const [args, codes] of guardRuns({ skillFiles, pdf, review, pipe, upstream })) {
      const run = await box.cli(...args);
      ok(codes.includes(run.code), `${args.slice(0, 4).join(" ")} → ${run.code}: ${run.stderr}`);
    }
    await exerciseMcp(box);
    const removed = await box.cli("remove", upstream);
    equal(removed.code, 0, removed.stderr);
    const last = await box.cli("list");
    equal(last.code, 0, last.stderr);

    deepEqual(await fingerprint(box.root, [allowed]), before, "a skill or agent directory changed");
    ok(await exists(join(allowed, "cache")), "the Git source was cloned into the cache");
  });
});

/** Secrets in the victim's home, one own skill, and the attacker's repositories below `remotes/`. */
async function writeAttack(box: Sandbox, marker: string): Promise<void> {
  await writeTree(box.home, {
    ".ssh/authorized_keys": "ssh-ed25519 AAAAVICTIM victim@laptop\n",
    ".config/git/ignore": "*.swp\n",
    ".claude/skills/mine/SKILL.md": skillMd("mine", "My own skill.", "Body."),
  });
  const skill = skillMd("payload", "Attacker skill.", "Body.");
  await box.repo("remotes/a/r", { "skills/payload/SKILL.md": skill }, {
    "l": "../../../../../..",
  });
  await box.repo("remotes/evil", {
    "skills/leak/SKILL.md": skill.replace("payload", "leak"),
    // A fake git dir inside a skill, and a config that would run code if git read it.
    "skills/leak/HEAD": "0000000000000000000000000000000000000000\n",
    "skills/leak/config": `[core]\n\tworktree = ../..\n\tfsmonitor = touch ${marker}\n`,
  }, {
    "skills/environ/SKILL.md": "/proc/self/environ",
    "skills/passwd.md": "/etc/passwd",
    "outside": box.home,
  });
}

/** The project's hostile sources: paths through links, fake git dirs, option injection. */
function hostileSources(url: string, marker: string): unknown[] {
  const port = new URL(url).port;
  return [
    `${url}/a/r`,
    `${url}/a/r/l/.ssh`,
    `${url}/a/r/l/.config/git`,
    `${url}/a/r/.GIT/hooks`,
    { repo: `${url}/evil`, path: "outside" },
    { repo: `${url}/evil`, path: "skills" },
    `git@-oProxyCommand=touch ${marker}:x/y`,
    `ssh://-oProxyCommand=touch%20${marker}/x`,
    `git@x:--upload-pack=touch ${marker}`,
    `ssh://127.0.0.1:${port}/-oProxyCommand=x`,
  ];
}

/** Whether `text` shows the victim's SSH key or /etc/passwd. */
function leaks(text: string): boolean {
  return text.includes("VICTIM") || text.includes("root:x:0:0");
}

Deno.test("guard: hostile project sources, trusted, write nothing outside the cache, run nothing, leak nothing", async () => {
  await withSandbox(async (box) => {
    await lockDown(box);
    const marker = join(box.root, "PWNED");
    await writeAttack(box, marker);
    // The attacker's repositories, served over git:// on loopback like any remote.
    await withGitDaemon(join(box.root, "remotes"), async (url) => {
      await writeTree(box.project, {
        ".dsh/skills-anywhere.json": JSON.stringify({ sources: hostileSources(url, marker) }),
      });
      const allowed = join(box.dshHome, "skills-anywhere");
      const before = await fingerprint(box.root, [allowed]);
      const trusted = await box.cli("trust", "--yes");
      equal(trusted.code, 0, trusted.stderr);
      for (
        const args of [["sync"], ["sync", "--force"], ["list", "--json"], ["sources"], ["doctor"]]
      ) {
        const run = await box.cli(...args);
        ok([0, 1].includes(run.code), `${args.join(" ")} → ${run.code}: ${run.stderr}`);
        ok(!leaks(run.stdout), args.join(" "));
      }
      const listed = await box.cli("list", "--json");
      ok(listed.stdout.includes("payload"), "the listed repository itself is served");
      await withSession(box, "auto", async (session) => {
        const all = textOf(await session.call("list_skills", { limit: 100 }));
        ok(!leaks(all), all);
        const { resources } = await session.client.listResources();
        for (const resource of resources) {
          ok(!leaks(JSON.stringify(await session.read(resource.uri))), resource.uri);
        }
      });
      deepEqual(
        await fingerprint(box.root, [allowed]),
        before,
        "something outside the cache changed",
      );
      equal(await exists(marker), false, "attacker code ran");
    });
  });
});
