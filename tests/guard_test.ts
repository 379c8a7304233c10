// The guard tests: every command run against a fixture home leaves every skill and agent
// directory untouched, and hostile project sources, trusted, write nothing outside the cache, run
// nothing and leak nothing. Everything runs in temp directories with an isolated git.
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { withGitDaemon, writeTree } from "./helpers.ts";
import { skillMd, textOf, withSession } from "./mcp_helpers.ts";
import { exists, fingerprint, withWorld } from "./hostile_helpers.ts";

// ---------------------------------------------------------------------------
// (d) the guard test: every command, and nothing written into skill or agent directories

Deno.test("guard: every command against a fixture home leaves every skill and agent directory untouched", async () => {
  await withWorld(async (world) => {
    const { home, project } = world;
    const skill = (name: string, extra: string[] = []) =>
      skillMd(name, `The ${name} skill.`, `Body of ${name}. See [ref](reference.md).`, extra);
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
    // A symlinked skill directory and a named pipe where a SKILL.md should be.
    await Deno.symlink(join(home, ".claude/skills/pdf-forms"), join(home, ".cursor/skills/linked"));
    await Deno.mkdir(join(home, ".codex/skills/pipe"), { recursive: true });
    const fifo = await new Deno.Command("mkfifo", {
      args: [join(home, ".codex/skills/pipe/SKILL.md")],
    })
      .output();
    equal(fifo.code, 0);
    const upstream = await world.repo("upstream", {
      "skills/alpha/SKILL.md": skill("alpha"),
      "skills/beta/SKILL.md": skill("beta"),
    });
    const pdf = join(home, ".claude/skills/pdf-forms");
    const review = join(world.root, "review.json");
    const manifest = await world.cli("bundle", "--json", pdf);
    equal(manifest.code, 0, manifest.stderr);
    await Deno.writeTextFile(review, manifest.stdout);
    const skillFiles = (await fingerprint(world.root))
      .map((line) => line.split("\t"))
      .filter(([path, type]) => path.endsWith("/SKILL.md") && type !== "dir")
      .map(([path]) => join(world.root, path))
      .filter((path) => !path.startsWith(upstream));
    equal(skillFiles.length, 17, "12 in the home (one a named pipe), 5 in the project");

    // Only <DSH_HOME>/skills-anywhere may change.
    const allowed = join(world.dshHome, "skills-anywhere");
    const before = await fingerprint(world.root, [allowed]);
    const runs: [string[], number[]][] = [
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
      [["bundle", join(home, ".codex/skills/pipe")], [2]],
      [["add", upstream, "--path", "skills"], [0]],
      [["sources", "--json"], [0]],
      [["sync"], [0]],
      [["sync", "--force", "--json"], [0]],
      [["list", "--json"], [0]],
    ];
    for (const [args, codes] of runs) {
      const run = await world.cli(...args);
      ok(codes.includes(run.code), `${args.slice(0, 4).join(" ")} → ${run.code}: ${run.stderr}`);
    }
    await withSession(world, "auto", async (session) => {
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
    const removed = await world.cli("remove", upstream);
    equal(removed.code, 0, removed.stderr);
    const last = await world.cli("list");
    equal(last.code, 0, last.stderr);

    deepEqual(
      await fingerprint(world.root, [allowed]),
      before,
      "a skill or agent directory changed",
    );
    ok(await exists(join(allowed, "cache")), "the Git source was cloned into the cache");
  });
});

Deno.test("guard: hostile project sources, trusted, write nothing outside the cache, run nothing, leak nothing", async () => {
  await withWorld(async (world) => {
    const { home, project, root } = world;
    const marker = join(root, "PWNED");
    await writeTree(home, {
      ".ssh/authorized_keys": "ssh-ed25519 AAAAVICTIM victim@laptop\n",
      ".config/git/ignore": "*.swp\n",
      ".claude/skills/mine/SKILL.md": skillMd("mine", "My own skill.", "Body."),
    });
    // The attacker's repositories, served over git:// on loopback like any remote.
    const skill = skillMd("payload", "Attacker skill.", "Body.");
    await world.repo("remotes/a/r", { "skills/payload/SKILL.md": skill }, {
      "l": "../../../../../..",
    });
    await world.repo("remotes/evil", {
      "skills/leak/SKILL.md": skill.replace("payload", "leak"),
      // A fake git dir inside a skill, and a config that would run code if git read it.
      "skills/leak/HEAD": "0000000000000000000000000000000000000000\n",
      "skills/leak/config": `[core]\n\tworktree = ../..\n\tfsmonitor = touch ${marker}\n`,
    }, {
      "skills/environ/SKILL.md": "/proc/self/environ",
      "skills/passwd.md": "/etc/passwd",
      "outside": home,
    });
    await withGitDaemon(join(root, "remotes"), async (url) => {
      const port = new URL(url).port;
      await writeTree(project, {
        ".dsh/skills-anywhere.json": JSON.stringify({
          sources: [
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
          ],
        }),
      });
      const allowed = join(world.dshHome, "skills-anywhere");
      const before = await fingerprint(root, [allowed]);
      const trusted = await world.cli("trust", "--yes");
      equal(trusted.code, 0, trusted.stderr);
      for (
        const args of [["sync"], ["sync", "--force"], ["list", "--json"], ["sources"], ["doctor"]]
      ) {
        const run = await world.cli(...args);
        ok([0, 1].includes(run.code), `${args.join(" ")} → ${run.code}: ${run.stderr}`);
        ok(!run.stdout.includes("VICTIM") && !run.stdout.includes("root:x:0:0"), args.join(" "));
      }
      const listed = await world.cli("list", "--json");
      ok(listed.stdout.includes("payload"), "the listed repository itself is served");
      await withSession(world, "auto", async (session) => {
        const all = textOf(await session.call("list_skills", { limit: 100 }));
        ok(!all.includes("root:x:0:0") && !all.includes("VICTIM"), all);
        const { resources } = await session.client.listResources();
        for (const resource of resources) {
          const text = JSON.stringify(await session.read(resource.uri));
          ok(!text.includes("root:x:0:0") && !text.includes("VICTIM"), resource.uri);
        }
      });
      deepEqual(await fingerprint(root, [allowed]), before, "something outside the cache changed");
      equal(await exists(marker), false, "attacker code ran");
    });
  });
});
