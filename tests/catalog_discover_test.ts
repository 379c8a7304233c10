// Discovery over real temp trees: flat and nested walks, invalid files, metadata,
// plugin origins, symlinks, bad input and abort.
import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { discover } from "../lib/catalog/_discover.ts";
import { MAX_SKILL_READ_BYTES } from "../lib/limits.ts";
import { resolveConfig } from "../lib/catalog/_config.ts";
import { loadCatalog } from "../lib/catalog/_load.ts";
import { resolveSource } from "../lib/sources/_resolve.ts";
import type { Origin } from "../lib/catalog/_origin.ts";
import type { Root } from "../lib/catalog/_roots.ts";
import { walkRoot } from "../lib/catalog/_walk.ts";
import { listTree, mkfifo, withTempDir, writeTree } from "./helpers.ts";

/** A spec-clean SKILL.md. */
function md(name: string, body = `Instructions for ${name}.`): string {
  return `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\n${body}\n`;
}

function flatRoot(
  path: string,
  origin: Origin = { kind: "agent", agent: "claude-code", scope: "project" },
  rank = 250,
): Root {
  return {
    path,
    mode: "flat",
    source: origin.kind === "agent" && origin.scope === "user"
      ? "anywhere-user"
      : "anywhere-project",
    rank,
    origin,
    label: "test root",
    maxDepth: 1,
  };
}

function nestedRoot(
  path: string,
  maxDepth = 5,
  origin: Origin = { kind: "source", repo: "o/r" },
  rank = 700,
): Root {
  return {
    path,
    mode: "nested",
    source: origin.kind === "claude-plugins" ? "anywhere-claude-plugins" : "anywhere-source",
    rank,
    origin,
    label: "test nested root",
    maxDepth,
  };
}

const names = (skills: { name: string }[]) => skills.map((s) => s.name);

Deno.test("a flat root finds alpha/SKILL.md and beta.md and nothing else", async () => {
  await withTempDir(async (dir) => {
    const root = join(dir, "skills");
    const ignored: Record<string, string> = {};
    for (
      const file of [
        "AGENTS.md",
        "CHANGELOG.md",
        "CLAUDE.md",
        "CONTRIBUTING.md",
        "GEMINI.md",
        "LICENSE.md",
        "README.md",
        "README.zh.md",
      ]
    ) ignored[file] = md("ignored");
    await writeTree(root, {
      ...ignored,
      "alpha/SKILL.md": md("alpha"),
      "alpha/notes.md": md("alpha-notes"),
      "beta.md": md("beta"),
      "notes.txt": md("text-file"),
      ".hidden/SKILL.md": md("hidden-dir"),
      ".secret.md": md("hidden-file"),
      "empty-dir/README.md": md("no-skill-md"),
      "deep/inner/SKILL.md": md("too-deep"),
    });
    const report = await discover([flatRoot(root)]);
    deepEqual(names(report.skills), ["alpha", "beta"]);
    deepEqual(report.invalid, []);
    deepEqual(report.dropped, []);
    equal(report.complete, true);
    equal(report.roots[0].exists, true);
    equal(report.roots[0].count, 2);
    const [alpha, beta] = report.skills;
    equal(alpha.path, join(root, "alpha", "SKILL.md"));
    equal(alpha.directory, join(root, "alpha"));
    equal(beta.path, join(root, "beta.md"));
    equal(beta.directory, root, "a flat file's directory is the root");
    equal(beta.relativePath, "beta.md");
    equal(alpha.root, root);
    equal(alpha.rootIndex, 0);
    equal(alpha.source, "anywhere-project");
    equal(alpha.rank, 250);
  });
});

Deno.test("fallback names: directory name and file name without .md", async () => {
  await withTempDir(async (dir) => {
    const body = "---\ndescription: No name here.\n---\nBody.\n";
    await writeTree(dir, { "From Dir/SKILL.md": body, "flat-file.md": body });
    const report = await discover([flatRoot(dir)]);
    deepEqual(names(report.skills), ["from-dir", "flat-file"]);
    equal(report.skills[1].warnings.length, 1);
  });
});

Deno.test("a flat root follows a symlinked skill directory and a symlinked .md", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "elsewhere/linked/SKILL.md": md("linked"),
      "elsewhere/file.md": md("linked-file"),
      "elsewhere/plain/readme.txt": "x",
    });
    const root = join(dir, "root");
    await Deno.mkdir(root);
    await Deno.symlink(join(dir, "elsewhere", "linked"), join(root, "linked"));
    await Deno.symlink(join(dir, "elsewhere", "file.md"), join(root, "file.md"));
    await Deno.symlink(join(dir, "elsewhere", "plain"), join(root, "plain"));
    await Deno.symlink(join(dir, "missing"), join(root, "dangling.md"));
    // The user's own folder: links lead anywhere (a project's may not leave the project).
    const report = await discover([
      flatRoot(root, { kind: "agent", agent: "claude-code", scope: "user" }, 550),
    ]);
    deepEqual(names(report.skills), ["linked-file", "linked"]);
    deepEqual(report.invalid, []);
    equal(report.skills[1].path, join(root, "linked", "SKILL.md"));
  });
});

Deno.test("an absent root is exists:false and the report stays complete", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, { "a-file": "not a directory", "real/one/SKILL.md": md("one") });
    const report = await discover([
      flatRoot(join(dir, "missing")),
      flatRoot(join(dir, "a-file")),
      flatRoot(join(dir, "a-file", "below")),
      nestedRoot(join(dir, "missing-nested")),
      flatRoot(join(dir, "real")),
    ]);
    deepEqual(report.roots.map((r) => [r.exists, r.count]), [
      [false, 0],
      [false, 0],
      [false, 0],
      [false, 0],
      [true, 1],
    ]);
    equal(report.complete, true);
    deepEqual(names(report.skills), ["one"]);
  });
});

Deno.test("a root that cannot be stat'ed warns and marks the report incomplete", async () => {
  await withTempDir(async (dir) => {
    const loop = join(dir, "loop");
    await Deno.symlink(loop, loop); // stat fails with ELOOP, not ENOENT
    const messages: string[] = [];
    const report = await discover([flatRoot(loop)], {
      log: (level, message) => messages.push(`${level}: ${message}`),
    });
    equal(report.complete, false);
    equal(report.roots[0].exists, false);
    equal(messages.length, 1);
    ok(messages[0].startsWith(`warn: cannot access ${loop}: `), messages[0]);
  });
});

Deno.test("an invalid file is recorded with its reason and the others still load", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "broken/SKILL.md": "---\nname: [unclosed\n---\nBody\n",
      "listy/SKILL.md": "---\n- a\n- b\n---\nBody\n",
      "___/SKILL.md": "---\ndescription: No usable name anywhere.\n---\n",
      "good/SKILL.md": md("good"),
      "zz.md": md("zz"),
    });
    const report = await discover([flatRoot(dir)]);
    deepEqual(names(report.skills), ["good", "zz"]);
    equal(report.complete, true);
    deepEqual(report.invalid.map((i) => [i.path, i.root]), [
      [join(dir, "___", "SKILL.md"), dir],
      [join(dir, "broken", "SKILL.md"), dir],
      [join(dir, "listy", "SKILL.md"), dir],
    ]);
    deepEqual(report.invalid.map((i) => i.kind), ["no-name", "yaml", "not-mapping"]);
    for (const invalid of report.invalid) ok(invalid.reason.length > 0);
    equal(report.roots[0].count, 2, "count is the number of parsed skills");
  });
});

Deno.test("strict parsing records what lenient parsing repairs", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "plain/SKILL.md": "# Plain\n\nUse this when plain things happen.\n",
      "clean/SKILL.md": md("clean"),
    });
    const strict = await discover([flatRoot(dir)], { lenient: false });
    deepEqual(names(strict.skills), ["clean"]);
    deepEqual(strict.invalid, [{
      path: join(dir, "plain", "SKILL.md"),
      root: dir,
      kind: "no-frontmatter",
      reason: "missing YAML frontmatter",
    }]);
    const lenient = await discover([flatRoot(dir)]);
    deepEqual(names(lenient.skills), ["clean", "plain"]);
    equal(lenient.skills[1].description, "Use this when plain things happen.");
    deepEqual(lenient.invalid, []);
  });
});

Deno.test("a skill carries origin, root and relativePath as fields; metadata is its own; repairs are warnings", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "clean/SKILL.md": "---\nname: clean\ndescription: Clean.\nlicense: MIT\n" +
        "whenToUse: When it is clean.\n---\nBody\n",
      "repaired/SKILL.md": "---\nname: Code_Review\n---\nReview code carefully.\n",
    });
    const origin: Origin = { kind: "agent", agent: "codex", scope: "user" };
    const report = await discover([flatRoot(dir, origin, 550)]);
    const [clean, repaired] = report.skills;
    equal(clean.name, "clean");
    equal(clean.whenToUse, "When it is clean.");
    deepEqual(clean.warnings, []);
    deepEqual(clean.metadata, {}, "only the author's `metadata` mapping, never `license`");
    equal(clean.root, dir);
    equal(clean.relativePath, "clean/SKILL.md");
    deepEqual(clean.origin, origin);
    equal(clean.source, "anywhere-user");
    equal(clean.rank, 550);

    equal(repaired.name, "code-review");
    deepEqual(repaired.warnings, [
      'name "Code_Review" normalised to "code-review"',
      "description missing; derived from the first paragraph",
    ]);
    deepEqual(repaired.repairs, repaired.warnings);
    equal(repaired.renamedFrom, undefined);
    deepEqual(repaired.metadata, {});
    equal(repaired.relativePath, "repaired/SKILL.md");
    equal(repaired.whenToUse, undefined);
    ok(!("whenToUse" in repaired));
  });
});

Deno.test("relativePath uses forward slashes for nested skills", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, { "skills/pdf/forms/SKILL.md": md("forms") });
    const report = await discover([nestedRoot(dir)]);
    equal(report.skills[0].relativePath, "skills/pdf/forms/SKILL.md");
    equal(report.skills[0].directory, join(dir, "skills", "pdf", "forms"));
  });
});

Deno.test("the nested walk stops at depth 5, treats skill dirs as leaves, skips node_modules/.git", async () => {
  await withTempDir(async (dir) => {
    const skipped: Record<string, string> = {};
    for (
      const name of [
        ".git",
        ".hg",
        ".svn",
        ".venv",
        "__pycache__",
        "build",
        "dist",
        "node_modules",
        "venv",
      ]
    ) skipped[`${name}/inside/SKILL.md`] = md("skipped");
    await writeTree(dir, {
      ...skipped,
      "l1/l2/l3/l4/d5/SKILL.md": md("depth-five"),
      "l1/l2/l3/l4/l5/d6/SKILL.md": md("depth-six"),
      "pack/SKILL.md": md("pack"),
      "pack/sub/SKILL.md": md("leaf-child"),
      "pack/sub/deeper/SKILL.md": md("leaf-grandchild"),
      "a/b/SKILL.md": md("ab"),
    });
    const report = await discover([nestedRoot(dir)]);
    deepEqual(names(report.skills), ["ab", "depth-five", "pack"]);
    const shallow = await discover([nestedRoot(dir, 2)]);
    deepEqual(names(shallow.skills), ["ab", "pack"]);
  });
});

Deno.test("walkRoot lists nested files in sorted order with fallback names", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "z/SKILL.md": md("z"),
      "m/n/SKILL.md": md("n"),
      "a/SKILL.md": md("a"),
      "flat.md": md("flat"),
    });
    const found = await walkRoot({ path: dir, mode: "nested", maxDepth: 5 });
    deepEqual(found.map((f) => [f.file, f.directory, f.fallbackName]), [
      [join(dir, "a", "SKILL.md"), join(dir, "a"), "a"],
      [join(dir, "m", "n", "SKILL.md"), join(dir, "m", "n"), "n"],
      [join(dir, "z", "SKILL.md"), join(dir, "z"), "z"],
    ]);
  });
});

Deno.test("a nested root with its own SKILL.md yields it and the skills below", async () => {
  await withTempDir(async (dir) => {
    const root = join(dir, "repo", "skills", "pdf");
    await writeTree(root, {
      "SKILL.md": "---\ndescription: Fill PDF forms.\n---\nPDF.\n",
      "forms/SKILL.md": md("pdf-forms"),
      "scripts/extra/SKILL.md": md("pdf-extra"),
    });
    const report = await discover([
      nestedRoot(root, 5, { kind: "source", repo: "o/r/skills/pdf" }),
    ]);
    // Path order in plain code units: "SKILL.md" sorts before "forms/…".
    deepEqual(names(report.skills), ["pdf", "pdf-forms", "pdf-extra"]);
    const pdf = report.skills.find((s) => s.name === "pdf")!;
    equal(pdf.path, join(root, "SKILL.md"));
    equal(pdf.directory, root);
    equal(pdf.relativePath, "SKILL.md");
  });
});

Deno.test("a source resolved to one skill directory yields that skill through loadCatalog", async () => {
  await withTempDir(async (home) => {
    const config = resolveConfig({ sources: ["o/r/skills/pdf"] }, { HOME: home });
    const checkout = resolveSource("o/r", config.cacheDir).dir;
    await writeTree(checkout, {
      "skills/pdf/SKILL.md": "---\ndescription: PDF skill.\n---\nPDF body.\n",
      "skills/pdf/more/SKILL.md": md("pdf-more"),
      "skills/other/SKILL.md": md("other"),
    });
    const { report, sources } = await loadCatalog(config);
    equal(sources.length, 1);
    const found = report.skills.filter((s) => s.source === "anywhere-source");
    deepEqual(names(found).sort(), ["pdf", "pdf-more"]);
    deepEqual(found[0].origin, { kind: "source", repo: "o/r/skills/pdf", checkout });
    equal(found[0].rank, 700);
  });
});

Deno.test("a marketplace checkout or plugin cache alone publishes nothing (nothing installed)", async () => {
  await withTempDir(async (home) => {
    const plugins = join(home, ".claude", "plugins");
    await writeTree(plugins, {
      "marketplaces/official/plugins/hookify/skills/writing-hooks/SKILL.md": md("writing-hooks"),
      "marketplaces/anthropic-agent-skills/template/SKILL.md": md("template-skill"),
      "cache/cache-market/my-plugin/1.2.3/skills/cached/SKILL.md": md("cached"),
    });
    const { report, roots } = await loadCatalog(resolveConfig({}, { HOME: home }));
    deepEqual(report.skills, []);
    ok(!roots.some((r) => r.origin.kind === "claude-plugins"));
  });
});

Deno.test("a symlink cycle under a nested root terminates with one skill", async () => {
  await withTempDir(async (dir) => {
    const root = join(dir, "root");
    await writeTree(root, { "skill/SKILL.md": md("only"), "links/readme.txt": "x" });
    await Deno.symlink(root, join(root, "links", "back-to-root"));
    await Deno.symlink(join(root, "links"), join(root, "links", "self"));
    await Deno.symlink("..", join(root, "links", "parent"));
    const report = await discover([nestedRoot(root, 50)]);
    deepEqual(names(report.skills), ["only"]);
    equal(report.skills[0].path, join(root, "skill", "SKILL.md"));
    deepEqual(report.dropped, []);
    equal(report.complete, true);
  });
});

Deno.test("a directory reached twice inside one nested root is admitted once", async () => {
  await withTempDir(async (dir) => {
    const root = join(dir, "root");
    await writeTree(root, { "real/SKILL.md": md("twice") });
    await Deno.symlink(join(root, "real"), join(root, "alias"));
    const found = await walkRoot({ path: root, mode: "nested", maxDepth: 5 });
    equal(found.length, 1);
  });
});

Deno.test("a FIFO named SKILL.md in a flat root is recorded invalid without blocking", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, { "good/SKILL.md": md("good"), "piped/keep.txt": "x" });
    await mkfifo(join(dir, "piped", "SKILL.md"));
    const report = await discover([flatRoot(dir)], { signal: AbortSignal.timeout(20_000) });
    deepEqual(names(report.skills), ["good"]);
    deepEqual(report.invalid, [
      {
        path: join(dir, "piped", "SKILL.md"),
        root: dir,
        kind: "not-regular",
        reason: "not a regular file",
      },
    ]);
    equal(report.complete, true);
  });
});

Deno.test("FIFOs elsewhere (a flat pipe.md, a nested SKILL.md) never block or become skills", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, { "flat/ok.md": md("ok"), "nested/x/keep.txt": "x" });
    await mkfifo(join(dir, "flat", "pipe.md"));
    await mkfifo(join(dir, "nested", "x", "SKILL.md"));
    const report = await discover([flatRoot(join(dir, "flat")), nestedRoot(join(dir, "nested"))], {
      signal: AbortSignal.timeout(20_000),
    });
    deepEqual(names(report.skills), ["ok"]);
    for (const invalid of report.invalid) equal(invalid.kind, "not-regular");
    equal(report.complete, true);
  });
});

Deno.test("a non-UTF-8 SKILL.md is invalid 'not valid UTF-8'", async () => {
  await withTempDir(async (dir) => {
    const bytes = new TextEncoder().encode(md("latin"));
    const bad = new Uint8Array([...bytes, 0xff, 0xfe, 0x0a]);
    await writeTree(dir, { "latin/SKILL.md": bad, "ok/SKILL.md": md("ok") });
    const report = await discover([flatRoot(dir)]);
    deepEqual(names(report.skills), ["ok"]);
    deepEqual(report.invalid, [
      {
        path: join(dir, "latin", "SKILL.md"),
        root: dir,
        kind: "not-utf8",
        reason: "not valid UTF-8",
      },
    ]);
  });
});

Deno.test("a SKILL.md over 1 MiB is invalid; exactly 1 MiB is read", async () => {
  await withTempDir(async (dir) => {
    const fill = (name: string, total: number) => {
      const head = md(name);
      return head + "x".repeat(total - head.length);
    };
    await writeTree(dir, {
      "big/SKILL.md": fill("big", MAX_SKILL_READ_BYTES + 1),
      "edge/SKILL.md": fill("eg", MAX_SKILL_READ_BYTES),
    });
    equal(MAX_SKILL_READ_BYTES, 1024 * 1024);
    const report = await discover([flatRoot(dir)]);
    deepEqual(names(report.skills), ["eg"]);
    equal(report.invalid.length, 1);
    equal(report.invalid[0].path, join(dir, "big", "SKILL.md"));
    equal(report.invalid[0].kind, "too-large");
    equal(report.invalid[0].reason, "larger than 1 MiB");
  });
});

Deno.test("discovery writes nothing into any scanned directory", async () => {
  await withTempDir(async (home) => {
    const project = join(home, "work", "app");
    await writeTree(home, {
      "work/app/.git/HEAD": "ref: refs/heads/main\n",
      "work/app/.claude/skills/proj/SKILL.md": md("proj"),
      "work/app/.agents/skills/shared/SKILL.md": md("shared"),
      ".codex/skills/cx/SKILL.md": md("cx"),
      ".codex/skills/broken/SKILL.md": "---\nname: [\n---\n",
      ".agents/skills/us/SKILL.md": md("us"),
      ".claude/plugins/marketplaces/m/plugins/p/skills/pl/SKILL.md": md("pl"),
      ".claude/plugins/installed_plugins.json": JSON.stringify({
        version: 2,
        plugins: {
          "p@m": [{
            scope: "user",
            installPath: join(home, ".claude/plugins/marketplaces/m/plugins/p"),
          }],
        },
      }),
      ".claude/settings.json": '{"enabledPlugins": {"p@m": true}}',
      [
        `${
          resolveSource("o/r", join(home, ".dsh/skills-anywhere/cache")).dir.slice(home.length + 1)
        }/skills/src/SKILL.md`
      ]: md("src"),
    });
    await Deno.symlink(join(home, ".codex", "skills", "cx"), join(project, ".claude/skills/cx"));
    const before = await listTree(home);
    const config = resolveConfig({ sharedDirs: true, sources: ["o/r"] }, { HOME: home });
    const { report } = await loadCatalog(config, { cwd: join(project, ".claude") });
    deepEqual(names(report.skills).sort(), ["cx", "pl", "proj", "shared", "src", "us"]);
    // The project's link to ~/.codex/skills/cx leaves the project: refused, not a duplicate.
    equal(report.invalid.length, 2);
    equal(report.dropped.length, 0);
    deepEqual(await listTree(home), before);
  });
});

Deno.test("an aborted signal rejects discovery", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, { "a/SKILL.md": md("a"), "b/SKILL.md": md("b"), "c/SKILL.md": md("c") });
    const early = new AbortController();
    early.abort(new Error("stop now"));
    await rejects(discover([flatRoot(dir)], { signal: early.signal }), /stop now/);

    const midway = new AbortController();
    const progress: number[] = [];
    await rejects(
      discover([flatRoot(dir)], {
        signal: midway.signal,
        onProgress: (done) => {
          progress.push(done);
          midway.abort(new Error("stop midway"));
        },
      }),
      /stop midway/,
    );
    ok(progress.length >= 1);

    const config = resolveConfig({}, { HOME: dir });
    await rejects(loadCatalog(config, { signal: early.signal }), /stop now/);
  });
});

Deno.test("onProgress ends at (total, total) and the report keeps root order", async () => {
  await withTempDir(async (dir) => {
    const roots: Root[] = [];
    for (let i = 0; i < 12; i++) {
      const root = join(dir, `r${String(i).padStart(2, "0")}`);
      await writeTree(root, { [`s${i}/SKILL.md`]: md(`s${i}`), [`t${i}.md`]: md(`t${i}`) });
      roots.push(flatRoot(root));
    }
    const seen: [number, number][] = [];
    const report = await discover(roots, { onProgress: (done, total) => seen.push([done, total]) });
    ok(seen.length >= 1);
    deepEqual(seen.at(-1), [24, 24]);
    for (let i = 1; i < seen.length; i++) ok(seen[i][0] >= seen[i - 1][0]);
    deepEqual(report.roots.map((r) => r.root.path), roots.map((r) => r.path));
    deepEqual(report.roots.map((r) => r.count), new Array(12).fill(2));
    deepEqual(
      names(report.skills),
      Array.from({ length: 12 }, (_, i) => [`s${i}`, `t${i}`]).flat(),
    );
  });
});

Deno.test("a Git source never leaves its checkout through a symlink; links inside are followed", async () => {
  await withTempDir(async (dir) => {
    const checkout = join(dir, "cache", "github.com", "o", "r");
    await writeTree(dir, {
      "cache/github.com/o/r/skills/inside/SKILL.md": md("inside"),
      "outside/secret/SKILL.md": md("secret"),
      "outside/loose.md": md("loose"),
    });
    await Deno.mkdir(join(checkout, "skills", "via-file"));
    await Deno.symlink(join(dir, "outside", "secret"), join(checkout, "skills", "escape"));
    await Deno.symlink(
      join(dir, "outside", "loose.md"),
      join(checkout, "skills", "via-file", "SKILL.md"),
    );
    await Deno.symlink(join(checkout, "skills", "inside"), join(checkout, "skills", "alias"));
    const source = await discover([nestedRoot(join(checkout, "skills"))]);
    // The alias and its target are one directory (admitted once by real path).
    deepEqual(names(source.skills), ["inside"]);
    deepEqual(source.invalid.map((i) => [i.path, i.refusal]), [
      [join(checkout, "skills", "escape"), "link"],
      [join(checkout, "skills", "via-file", "SKILL.md"), "link"],
    ]);
    // A Claude Code plugin root is confined to the folder being scanned too.
    const plugin = await discover([
      nestedRoot(join(checkout, "skills"), 5, {
        kind: "claude-plugins",
        marketplace: "m",
        plugin: "p",
      }, 580),
    ]);
    deepEqual(names(plugin.skills).sort(), ["inside"]);
  });
});
