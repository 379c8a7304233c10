/**
 * End-to-end tests of `sync --frozen` and `outdated` with real git
 * repositories in a sandbox: hostile locks first (a URL or commit that would
 * run a command, a commit that does not exist), then all-or-nothing, a
 * source advanced upstream, no lock, an unreachable remote.
 *
 * The sources here are the sandbox user's own (`add` without `--project`): since issue 28 they
 * are pinned by the user lock (`lock --user`), beside the project's lock.
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { exists, listTree, type Sandbox, skillMd, withGitDaemon, withSandbox } from "./helpers.ts";

/** The user lock, where a person's own sources are pinned (issue 28). */
const USER_LOCK = "skills-anywhere/user.lock.json";
// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

interface LockSource {
  key: string;
  url: string;
  ref: string | null;
  commit: string | null;
}

/** A repository with one skill, added as a source of the sandbox's user. */
async function source(box: Sandbox, name: string): Promise<{ repo: string; dir: string }> {
  const repo = await box.repo(name, {
    [`skills/${name}/SKILL.md`]: skillMd(name, `The ${name} skill.`, "Body."),
  });
  const added = await box.cli("add", repo);
  equal(added.code, 0, added.stderr);
  const listed = JSON.parse((await box.cli("sources", "--json")).stdout);
  const dir = listed.find((s: { url: string }) => s.url === repo).dir;
  return { repo, dir };
}

function head(box: Sandbox, dir: string): Promise<string> {
  return box.git(dir, "rev-parse", "HEAD");
}

/** Locks the project (its own skills and sources) and the user's own sources. */
async function lockBoth(box: Sandbox): Promise<void> {
  equal((await box.cli("lock")).code, 0);
  equal((await box.cli("lock", "--user")).code, 0);
}

async function editLockSources(box: Sandbox, edit: (sources: LockSource[]) => void) {
  const file = join(box.dshHome, USER_LOCK);
  const lock = JSON.parse(await Deno.readTextFile(file));
  edit(lock.sources);
  await Deno.writeTextFile(file, JSON.stringify(lock, null, 2) + "\n");
}

function userLockFile(box: Sandbox): string {
  return join(box.dshHome, "skills-anywhere", "lock.json");
}

/** Asserts exit 1, that no marker file was created, and that the checkout did not move. */
async function assertRefusedUnchanged(box: Sandbox, dir: string, before: string, marker: string) {
  const userLock = await Deno.readTextFile(userLockFile(box));
  const result = await box.cli("sync", "--frozen");
  equal(result.code, 1, result.stdout + result.stderr);
  match(result.stderr, /nothing was changed/);
  ok(!RAW_CONTROL.test(result.stdout + result.stderr));
  equal(await head(box, dir), before);
  equal(await Deno.readTextFile(userLockFile(box)), userLock);
  ok(!(await exists(marker)), "a command from the lock ran");
  return result;
}

Deno.test("sync --frozen never hands git a lock's URL or commit that would run a command", async () => {
  await withSandbox(async (box) => {
    const { dir } = await source(box, "lint");
    await lockBoth(box);
    const before = await head(box, dir);
    const marker = join(box.root, "pwned");
    await editLockSources(box, (s) => s[0].url = `ext::sh -c touch% ${marker}`);
    const ext = await assertRefusedUnchanged(box, dir, before, marker);
    match(ext.stdout, /locked from "ext::sh/);
    await editLockSources(box, (s) => s[0].url = `--upload-pack=touch ${marker}`);
    await assertRefusedUnchanged(box, dir, before, marker);
    await lockBoth(box);
    await editLockSources(box, (s) => s[0].commit = `--upload-pack=touch ${marker}`);
    const commit = await assertRefusedUnchanged(box, dir, before, marker);
    match(commit.stdout, /is not a full commit/);
    await editLockSources(box, (s) => s[0].commit = "-\u001b[31m");
    await assertRefusedUnchanged(box, dir, before, marker);
  });
});

Deno.test("sync --frozen changes nothing when one locked commit does not exist upstream", async () => {
  await withSandbox(async (box) => {
    const a = await source(box, "alpha");
    const b = await source(box, "beta");
    await lockBoth(box);
    // alpha floats ahead of its lock; beta's locked commit is one the remote never had.
    await box.commit(a.repo, { "skills/alpha/SKILL.md": skillMd("alpha", "Newer.", "Body.") });
    equal((await box.cli("sync", "--force")).code, 0);
    const floated = await head(box, a.dir);
    await editLockSources(box, (s) => s.find((x) => x.url === b.repo)!.commit = "f".repeat(40));
    const cacheBefore = await listTree(join(a.dir, ".."));
    const result = await assertRefusedUnchanged(box, a.dir, floated, join(box.root, "none"));
    match(result.stdout, /cannot be had/);
    deepEqual(await listTree(join(a.dir, "..")), cacheBefore);
  });
});

Deno.test("a source advanced upstream: outdated exit 1 names it and moves nothing; sync --frozen keeps the locked commit", async () => {
  await withSandbox(async (box) => {
    const { repo, dir } = await source(box, "lint");
    await lockBoth(box);
    const locked = await head(box, dir);
    const current = await box.cli("outdated");
    equal(current.code, 0, current.stdout + current.stderr);
    match(current.stdout, /every source is current/);
    const upstream = await box.commit(repo, {
      "skills/lint/SKILL.md": skillMd("lint", "Lint more.", "Body."),
    });
    const files = await listTree(dir);
    const result = await box.cli("outdated");
    equal(result.code, 1, result.stdout + result.stderr);
    match(result.stdout, /outdated/);
    match(result.stdout, new RegExp(upstream.slice(0, 12)));
    match(result.stdout, new RegExp(`${locked.slice(0, 12)} \\(user-lock\\)`));
    const json = JSON.parse((await box.cli("outdated", "--json")).stdout);
    equal(json.sources.length, 1);
    equal(json.sources[0].state, "outdated");
    equal(json.sources[0].locked, locked);
    equal(json.sources[0].upstream, upstream);
    equal(await head(box, dir), locked);
    deepEqual(await listTree(dir), files);
    const frozen = await box.cli("sync", "--frozen");
    equal(frozen.code, 0, frozen.stdout + frozen.stderr);
    equal(await head(box, dir), locked);
    // Floated to the head, then frozen again: back at the locked commit, fetched by its SHA.
    equal((await box.cli("sync", "--force")).code, 0);
    equal(await head(box, dir), upstream);
    const back = await box.cli("sync", "--frozen", "--json");
    equal(back.code, 0, back.stderr);
    equal(JSON.parse(back.stdout)[0].status, "updated");
    equal(await head(box, dir), locked);
    const userLock = JSON.parse(await Deno.readTextFile(userLockFile(box)));
    equal(Object.values(userLock).map((e) => (e as { sha: string }).sha)[0], locked);
  });
});

Deno.test("sync --frozen without a lock exits 2 in one line; outdated falls back to the synced commit", async () => {
  await withSandbox(async (box) => {
    const { dir } = await source(box, "lint");
    const result = await box.cli("sync", "--frozen");
    equal(result.code, 2);
    equal(result.stdout, "");
    equal(result.stderr.trimEnd().split("\n").length, 1, result.stderr);
    match(
      result.stderr,
      /no lock file at .*skills-anywhere\.lock\.json; run "dsh-skills-anywhere lock"/,
    );
    const both = await box.cli("sync", "--frozen", "--force");
    equal(both.code, 2);
    match(both.stderr, /--frozen and --force cannot be combined/);
    const outdated = JSON.parse((await box.cli("outdated", "--json")).stdout);
    equal(outdated.sources[0].lockedFrom, "synced");
    equal(outdated.sources[0].locked, await head(box, dir));
    equal(outdated.sources[0].state, "current");
  });
});

Deno.test("sync --frozen refuses a source that is configured but not locked, and one locked but not configured", async () => {
  await withSandbox(async (box) => {
    const a = await source(box, "alpha");
    await lockBoth(box);
    const before = await head(box, a.dir);
    const b = await source(box, "beta");
    const missing = await box.cli("sync", "--frozen");
    equal(missing.code, 1);
    match(missing.stdout, /configured, but not in the lock/);
    equal(await head(box, a.dir), before);
    equal((await box.cli("remove", a.repo)).code, 0);
    await lockBoth(box);
    await editLockSources(
      box,
      (s) => s.unshift({ key: "aaa", url: b.repo, ref: null, commit: null }),
    );
    const unknown = await box.cli("sync", "--frozen");
    equal(unknown.code, 1);
    match(unknown.stdout, /locked, but not a configured source/);
  });
});

Deno.test("outdated exits 2 naming a remote that cannot be reached, and changes nothing", async () => {
  await withSandbox(async (box) => {
    const { repo, dir } = await source(box, "lint");
    const files = await listTree(dir);
    await Deno.remove(repo, { recursive: true });
    const result = await box.cli("outdated");
    equal(result.code, 2, result.stdout + result.stderr);
    match(result.stdout, /error: /);
    match(result.stdout, /1 source could not be checked/);
    deepEqual(await listTree(dir), files);
  });
});

Deno.test("over git://: outdated sees the new head, sync --frozen fetches the locked commit by its SHA", async () => {
  await withSandbox(async (box) => {
    const repo = await box.repo("served", {
      "skills/lint/SKILL.md": skillMd("lint", "Lint code.", "Body."),
    });
    const locked = await head(box, repo);
    await withGitDaemon(box.root, async (url) => {
      const added = await box.cli("add", `${url}/served`);
      equal(added.code, 0, added.stderr);
      const dir = JSON.parse((await box.cli("sources", "--json")).stdout)[0].dir;
      await lockBoth(box);
      const upstream = await box.commit(repo, { "skills/lint/more.md": "more\n" });
      const outdated = JSON.parse((await box.cli("outdated", "--json")).stdout);
      equal(outdated.sources[0].state, "outdated");
      equal(outdated.sources[0].upstream, upstream);
      equal((await box.cli("sync", "--force")).code, 0);
      equal(await head(box, dir), upstream);
      const frozen = await box.cli("sync", "--frozen");
      equal(frozen.code, 0, frozen.stdout + frozen.stderr);
      equal(await head(box, dir), locked);
    });
  });
});
