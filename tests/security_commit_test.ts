// Commits you can believe: `source_commit` and `expected_source_commit` come
// from the checkout's own git directory, and only while the skill's files are
// exactly that commit's files. Real git, real repositories in temp dirs; the
// attacks run as a hostile upstream would write them.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { openSkill } from "../lib/load/_open.ts";
import { type SourceCommit, sourceCommit } from "../lib/load/_source_commit.ts";
import { resolveSource } from "../lib/sources/_resolve.ts";
import { writeTree } from "./helpers.ts";
import {
  cli,
  git,
  gitCommit,
  gitRepo,
  type Sandbox,
  skillMd,
  textOf,
  type ToolResult,
  withSandbox,
  withSession,
} from "./mcp_helpers.ts";

/** A bare-looking git directory planted inside a skill folder, claiming `head`. */
function fakeGitDir(prefix: string, head: string): Record<string, string> {
  return {
    [`${prefix}/HEAD`]: `${head}\n`,
    [`${prefix}/config`]:
      "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ../..\n",
    [`${prefix}/objects/info/packs`]: "\n",
    [`${prefix}/refs/heads/main`]: `${head}\n`,
  };
}

/** An upstream with skills/foo at v1, added as a source; returns v1 and the checkout. */
async function addedSource(
  box: Sandbox,
): Promise<{ upstream: string; v1: string; checkout: string }> {
  const upstream = join(box.root, "upstream");
  const v1 = await gitRepo(box, upstream, {
    "skills/foo/SKILL.md": skillMd("foo", "Reviewed skill.", "REVIEWED-BODY"),
  });
  const added = await cli(box, ["add", upstream]);
  equal(added.code, 0, added.stderr);
  const checkout = resolveSource(upstream, join(box.dshHome, "skills-anywhere", "cache")).dir;
  return { upstream, v1, checkout };
}

Deno.test("security: a fake git dir inside a skill cannot make new bytes carry the reviewed commit (finding 4)", async () => {
  await withSandbox(async (box) => {
    const { upstream, v1, checkout } = await addedSource(box);
    const v2 = await gitCommit(box, upstream, {
      "skills/foo/SKILL.md": skillMd("foo", "Reviewed skill.", "HOSTILE-BODY"),
      ...fakeGitDir("skills/foo", v1),
    });
    const synced = await cli(box, ["sync"]);
    equal(synced.code, 0, synced.stderr + synced.stdout);
    equal(await git(box, checkout, "rev-parse", "HEAD"), v2);

    await withSession(box, "legacy", async (s) => {
      const pinned: ToolResult = await s.call("open_skill", {
        name: "foo",
        expected_source_commit: v1,
      });
      const text = textOf(pinned);
      equal(pinned.isError, true, `the pinned load was served: ${text}`);
      ok(!text.includes("HOSTILE-BODY"), text);
      ok(text.includes(v2), `the refusal names the real commit: ${text}`);

      const plain = await s.call("open_skill", { name: "foo" });
      const content = plain.structuredContent as
        | { content: string; receipt: { source_commit: string | null } }
        | undefined;
      ok(content !== undefined, textOf(plain));
      equal(content.content, "HOSTILE-BODY");
      ok(content.receipt.source_commit !== v1, "the receipt names the reviewed commit");
      equal(content.receipt.source_commit, v2);
    });
  });
});

// ---------------------------------------------------------------------------
// sourceCommit on real checkouts

/** An upstream with `files` at v1 and `later` at v2, cloned into `<root>/cache/src-1`. */
async function checkoutOf(
  box: Sandbox,
  files: Record<string, string>,
  later: Record<string, string> = {},
): Promise<{ cache: string; checkout: string; skill: string; v1: string; v2: string | undefined }> {
  const upstream = join(box.root, "upstream");
  const v1 = await gitRepo(box, upstream, files);
  const v2 = Object.keys(later).length > 0 ? await gitCommit(box, upstream, later) : undefined;
  const cache = join(box.root, "cache");
  const checkout = join(cache, "src-1");
  await Deno.mkdir(cache, { recursive: true });
  await git(box, cache, "clone", "-q", "--", upstream, checkout);
  return { cache, checkout, skill: join(checkout, "skills", "foo"), v1, v2 };
}

const FOO = { "skills/foo/SKILL.md": skillMd("foo", "Reviewed skill.", "REVIEWED-BODY") };

function refused(result: SourceCommit, kind: string): string {
  ok(!result.ok, `expected a refusal (${kind}), got ${JSON.stringify(result)}`);
  equal(result.kind, kind, result.message);
  return result.message;
}

Deno.test("sourceCommit: a clean checkout reports its HEAD, for a skill folder or the checkout itself", async () => {
  await withSandbox(async (box) => {
    const { cache, checkout, skill, v1 } = await checkoutOf(box, FOO);
    deepEqual(await sourceCommit(skill, { checkout, cacheDir: cache }), { ok: true, commit: v1 });
    deepEqual(await sourceCommit(checkout, { checkout, cacheDir: cache }), {
      ok: true,
      commit: v1,
    });
  });
});

Deno.test("sourceCommit: a fake git dir inside the skill is ignored; the checkout's real HEAD is reported (finding 4)", async () => {
  await withSandbox(async (box) => {
    const upstream = join(box.root, "upstream");
    const v1 = await gitRepo(box, upstream, FOO);
    // The fake claims v1 and has what git's discovery needs to take it for a repository.
    const v2 = await gitCommit(box, upstream, {
      "skills/foo/SKILL.md": skillMd("foo", "Reviewed skill.", "HOSTILE-BODY"),
      ...fakeGitDir("skills/foo", v1),
    });
    const cache = join(box.root, "cache");
    const checkout = join(cache, "src-1");
    await Deno.mkdir(cache, { recursive: true });
    await git(box, cache, "clone", "-q", "--", upstream, checkout);
    const skill = join(checkout, "skills", "foo");
    // The planted directory really is a git dir to git's discovery.
    equal(await git(box, skill, "rev-parse", "HEAD"), v1);
    deepEqual(await sourceCommit(skill, { checkout, cacheDir: cache }), { ok: true, commit: v2 });
  });
});

Deno.test("sourceCommit: a crash mid-sync (HEAD v1, files from v2, index.lock left) is refused (finding 7)", async () => {
  await withSandbox(async (box) => {
    const { cache, checkout, skill, v1 } = await checkoutOf(box, FOO, {
      "skills/foo/SKILL.md": skillMd("foo", "Reviewed skill.", "NEW-BODY"),
      "skills/foo/scripts/run.sh": "echo new\n",
    });
    await git(box, checkout, "checkout", "-q", "--detach", v1);
    equal(await git(box, checkout, "rev-parse", "HEAD"), v1);
    await writeTree(skill, {
      "SKILL.md": skillMd("foo", "Reviewed skill.", "NEW-BODY"),
      "scripts/run.sh": "echo new\n",
    });
    await Deno.writeTextFile(join(checkout, ".git", "index.lock"), "");
    const where = { checkout, cacheDir: cache };
    match(refused(await sourceCommit(skill, where), "locked"), /index\.lock/);
    await Deno.remove(join(checkout, ".git", "index.lock"));
    match(refused(await sourceCommit(skill, where), "dirty"), /SKILL\.md|run\.sh/);
  });
});

Deno.test("sourceCommit: a modified, deleted, untracked or ignored file under the skill is refused", async () => {
  const cases: [string, (skill: string) => Promise<void>][] = [
    ["modified", (skill) => Deno.writeTextFile(join(skill, "SKILL.md"), "changed\n")],
    ["deleted", (skill) => Deno.remove(join(skill, "notes.md"))],
    ["untracked", (skill) => writeTree(skill, { "scripts/extra.sh": "echo extra\n" })],
    ["ignored", (skill) => writeTree(skill, { "hidden.local.md": "added behind .gitignore\n" })],
    ["ignored folder", (skill) => writeTree(skill, { "build/out.md": "ignored folder\n" })],
  ];
  for (const [what, change] of cases) {
    await withSandbox(async (box) => {
      const { cache, checkout, skill, v1 } = await checkoutOf(box, {
        ...FOO,
        "skills/foo/notes.md": "notes\n",
        ".gitignore": "*.local.md\nbuild/\n",
      });
      const where = { checkout, cacheDir: cache };
      deepEqual(await sourceCommit(skill, where), { ok: true, commit: v1 });
      await change(skill);
      match(refused(await sourceCommit(skill, where), "dirty"), /skills\/foo\//);
    }).catch((error) => {
      throw new Error(`${what}: ${error.message}`);
    });
  }
});

Deno.test("sourceCommit: a lock file alone refuses; other skills' changes do not", async () => {
  await withSandbox(async (box) => {
    const { cache, checkout, skill, v1 } = await checkoutOf(box, FOO);
    const where = { checkout, cacheDir: cache };
    await writeTree(checkout, { "skills/bar/SKILL.md": "untracked elsewhere\n" });
    deepEqual(await sourceCommit(skill, where), { ok: true, commit: v1 });
    refused(await sourceCommit(checkout, where), "dirty");
    await Deno.writeTextFile(join(checkout, ".git", "index.lock"), "");
    refused(await sourceCommit(skill, where), "locked");
  });
});

Deno.test("sourceCommit: the checkout must be strictly inside the cache with a real .git directory", async () => {
  await withSandbox(async (box) => {
    const { cache, checkout, skill } = await checkoutOf(box, FOO);
    refused(await sourceCommit(skill, { checkout, cacheDir: join(box.root, "other") }), "missing");
    await Deno.mkdir(join(box.root, "other"));
    refused(
      await sourceCommit(skill, { checkout, cacheDir: join(box.root, "other") }),
      "outside-cache",
    );
    refused(await sourceCommit(skill, { checkout: cache, cacheDir: cache }), "outside-cache");
    // A skill folder that leads out of the checkout through a symlink.
    const outside = join(box.root, "outside-skill");
    await writeTree(outside, { "SKILL.md": "outside\n" });
    await Deno.symlink(outside, join(checkout, "skills", "escape"));
    refused(
      await sourceCommit(join(checkout, "skills", "escape"), { checkout, cacheDir: cache }),
      "outside-checkout",
    );
    // `.git` as a symlink to a real git dir, then as a gitfile: neither is the checkout's own.
    await Deno.rename(join(checkout, ".git"), join(cache, "moved.git"));
    await Deno.symlink(join(cache, "moved.git"), join(checkout, ".git"));
    refused(await sourceCommit(skill, { checkout, cacheDir: cache }), "not-a-checkout");
    await Deno.remove(join(checkout, ".git"));
    await Deno.writeTextFile(join(checkout, ".git"), `gitdir: ${join(cache, "moved.git")}\n`);
    refused(await sourceCommit(skill, { checkout, cacheDir: cache }), "not-a-checkout");
  });
});

Deno.test("openSkill: a Git-source skill without a known checkout has no provable commit", async () => {
  await withSandbox(async (box) => {
    const { cache, checkout, skill, v1 } = await checkoutOf(box, FOO);
    const target = {
      name: "foo",
      path: join(skill, "SKILL.md"),
      directory: skill,
      source: "anywhere-source",
    };
    const warnings: string[] = [];
    const sourceCommitOption = { cacheDir: cache, warn: (m: string) => void warnings.push(m) };
    const unknown = await openSkill({ ...target, origin: { kind: "source", repo: "o/r" } }, {
      lenient: true,
      expectedSourceCommit: v1,
      sourceCommit: sourceCommitOption,
    });
    ok(!unknown.ok);
    equal(unknown.kind, "commit-unproven");
    const known = await openSkill(
      { ...target, origin: { kind: "source", repo: "o/r", checkout } },
      { lenient: true, expectedSourceCommit: v1, sourceCommit: sourceCommitOption },
    );
    ok(known.ok, known.ok ? "" : known.message);
    equal(known.skill.receipt.source_commit, v1);
    await Deno.writeTextFile(join(skill, "SKILL.md"), skillMd("foo", "Reviewed skill.", "EDITED"));
    const edited = await openSkill(
      { ...target, origin: { kind: "source", repo: "o/r", checkout } },
      { lenient: true, sourceCommit: sourceCommitOption },
    );
    ok(edited.ok);
    equal(edited.skill.receipt.source_commit, null);
    equal(warnings.length, 2, warnings.join("\n"));
  });
});
