/**
 * End-to-end tests of the Git source commands — sources, sync, add, remove|rm — over real child
 * processes in a sandbox, with upstream repositories made with the system git. Every git the CLI
 * runs may use local repositories only.
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { resolveSource } from "../lib/sources/_resolve.ts";
import { exists, listTree, withSandbox, writeTree } from "./helpers.ts";
import {
  agentTrees,
  cacheDir,
  CATALOG_BOX,
  escapeRe,
  offline,
  projectFile,
  skill,
  table,
  userFile,
} from "./catalog_cli_helpers.ts";

/** A full commit id. */
const SHA40 = /^[0-9a-f]{40}$/;
/** Two skills under `skills/` of an upstream repository. */
const UPSTREAM = {
  "skills/alpha/SKILL.md": skill("alpha", "First upstream skill."),
  "skills/beta/SKILL.md": skill("beta", "Second upstream skill.", "Beta body."),
  "README.md": "# upstream\n",
};

Deno.test("sources/sync: lock null then filled; cloned, updated, unchanged; list shows git rows", async () => {
  await withSandbox(async (box) => {
    offline(box);
    const upstream = await box.repo("upstream", UPSTREAM);
    const first = await box.git(upstream, "rev-parse", "HEAD");
    await writeTree(box.dshHome, {
      "skills-anywhere/sources.json": JSON.stringify({
        sources: [{ repo: upstream, path: "skills" }],
      }),
    });
    const display = `${upstream}/skills`;

    const unsynced = await box.cli("sources", "--json");
    equal(unsynced.code, 0, unsynced.stderr);
    const [entry] = JSON.parse(unsynced.stdout);
    deepEqual(Object.keys(entry).sort(), [
      "checkedOut",
      "dir",
      "display",
      "failure",
      "id",
      "key",
      "lock",
      "path",
      "repo",
      "scanDir",
      "state",
      "status",
      "url",
    ]);
    equal(entry.state, "active");
    match(entry.id, /^local\/[0-9a-f]{12}$/);
    equal(entry.key, entry.id);
    equal(entry.repo, upstream);
    equal(entry.path, "skills");
    equal(entry.url, upstream);
    equal(entry.display, display);
    equal(entry.dir, resolveSource(upstream, cacheDir(box)).dir);
    equal(entry.scanDir, join(entry.dir, "skills"));
    equal(entry.lock, null);
    const never = await box.cli("sources");
    match(never.stdout, new RegExp(`^SOURCE {2,}REF {2,}CHECKOUT {2,}STATE\n`));
    ok(never.stdout.includes("(default)") && never.stdout.includes("never synced"), never.stdout);

    const before = await agentTrees(box);
    const cloned = await box.cli("sync");
    equal(cloned.code, 0, cloned.stderr);
    equal(
      cloned.stdout,
      `${table([["SOURCE", "STATUS", "COMMIT"], [display, "cloned", first.slice(0, 12)]])}\n`,
    );
    const synced = JSON.parse((await box.cli("sources", "--json")).stdout);
    deepEqual(Object.keys(synced[0].lock), ["url", "sha", "syncedAt"]);
    equal(synced[0].lock.url, upstream);
    equal(synced[0].lock.sha, first);
    match(synced[0].lock.sha, SHA40);
    ok(!Number.isNaN(Date.parse(synced[0].lock.syncedAt)), synced[0].lock.syncedAt);
    const human = await box.cli("sources");
    ok(human.stdout.includes(first.slice(0, 12)), human.stdout);

    const second = await box.commit(upstream, {
      "skills/gamma/SKILL.md": skill("gamma", "Third upstream skill.", "Gamma body."),
    });
    const updated = await box.cli("sync");
    equal(updated.code, 0, updated.stderr);
    equal(
      updated.stdout,
      `${table([["SOURCE", "STATUS", "COMMIT"], [display, "updated", second.slice(0, 12)]])}\n`,
    );
    const unchanged = await box.cli("sync", "--json");
    equal(unchanged.code, 0, unchanged.stderr);
    deepEqual(JSON.parse(unchanged.stdout), [
      { source: display, status: "unchanged", sha: second, error: null },
    ]);
    deepEqual(Object.keys(JSON.parse(unchanged.stdout)[0]), ["source", "status", "sha", "error"]);

    const list = await box.cli("list");
    equal(list.code, 0, list.stderr);
    equal(
      list.stdout,
      `${
        table([
          ["NAME", "FROM", "PATH", "DESCRIPTION"],
          ["alpha", `git ${display}`, "skills/alpha/SKILL.md", "First upstream skill."],
          ["beta", `git ${display}`, "skills/beta/SKILL.md", "Second upstream skill."],
          ["gamma", `git ${display}`, "skills/gamma/SKILL.md", "Third upstream skill."],
        ])
      }\n\n3 skills\n`,
    );
    const doctor = await box.cli("doctor");
    equal(doctor.code, 0, doctor.stderr);
    deepEqual(await agentTrees(box), before, "sync/list/doctor never write into agent dirs");
  }, CATALOG_BOX);
});

Deno.test("add/remove: add a local repo with --path, duplicate is already in, rm alias, unlisted → 1", async () => {
  await withSandbox(async (box) => {
    offline(box);
    const upstream = await box.repo("upstream", UPSTREAM);
    const sha = await box.git(upstream, "rev-parse", "HEAD");
    const display = `${upstream}/skills`;
    const before = await agentTrees(box);

    const added = await box.cli("add", upstream, "--path", "skills");
    equal(added.code, 0, added.stderr);
    equal(
      added.stdout,
      `added ${display} to ${userFile(box)}\n` +
        `${table([["SOURCE", "STATUS", "COMMIT"], [display, "cloned", sha.slice(0, 12)]])}\n` +
        `2 skills found in ${display}\n`,
    );
    const written = await Deno.readTextFile(userFile(box));
    deepEqual(JSON.parse(written), { sources: [{ repo: upstream, path: "skills" }] });

    const again = await box.cli("add", upstream, "--path", "skills");
    equal(again.code, 0, again.stderr);
    equal(again.stdout, `${display} is already listed in ${userFile(box)}\n`);
    equal(await Deno.readTextFile(userFile(box)), written, "no duplicate entry is appended");

    const removed = await box.cli("rm", upstream);
    equal(removed.code, 0, removed.stderr);
    equal(
      removed.stdout,
      `removed 1 source from ${userFile(box)}: ${display}\n` +
        `kept the cached checkout ${
          resolveSource(upstream, cacheDir(box)).dir
        } (--purge deletes it)\n`,
    );
    deepEqual(JSON.parse(await Deno.readTextFile(userFile(box))), { sources: [] });

    const missing = await box.cli("remove", upstream);
    equal(missing.code, 1);
    equal(missing.stdout, "");
    ok(missing.stderr.includes(`${upstream} is not listed in ${userFile(box)}`), missing.stderr);
    deepEqual(await agentTrees(box), before, "add/remove never write into agent dirs");
  }, CATALOG_BOX);
});

Deno.test("add: `o/r/skills` and `o/r --path skills` are the same source", async () => {
  await withSandbox(async (box) => {
    offline(box);
    const cases: [unknown, string[]][] = [
      [{ repo: "o/r", path: "skills" }, ["add", "o/r/skills"]],
      ["o/r/skills", ["add", "o/r", "--path", "skills"]],
    ];
    for (const [entry, args] of cases) {
      const text = JSON.stringify({ sources: [entry] }, null, 2) + "\n";
      await writeTree(box.dshHome, { "skills-anywhere/sources.json": text });
      const result = await box.cli(...args);
      equal(result.code, 0, result.stderr);
      equal(result.stdout, `o/r/skills is already listed in ${userFile(box)}\n`);
      equal(await Deno.readTextFile(userFile(box)), text);
      ok(!(await exists(cacheDir(box))), "nothing was synced");
    }
  }, CATALOG_BOX);
});

Deno.test("add --project writes <project>/.dsh/skills-anywhere.json", async () => {
  await withSandbox(async (box) => {
    offline(box);
    const upstream = await box.repo("upstream", UPSTREAM);
    const result = await box.cli("add", upstream, "--project");
    equal(result.code, 0, result.stderr);
    const lines = result.stdout.trimEnd().split("\n");
    equal(lines[0], `added ${upstream} to ${projectFile(box)}`);
    match(lines[2], new RegExp(`^${escapeRe(upstream)} {2,}cloned {2,}[0-9a-f]{12}$`));
    equal(lines[3], `2 skills found in ${upstream}`);
    deepEqual(JSON.parse(await Deno.readTextFile(projectFile(box))), {
      sources: [{ repo: upstream }],
    });
    ok(!(await exists(userFile(box))), "the user file is untouched");
    const sources = JSON.parse((await box.cli("sources", "--json")).stdout);
    equal(sources.length, 1);
    equal(sources[0].display, upstream);
    match(sources[0].lock.sha, SHA40);
  }, CATALOG_BOX);
});

Deno.test("add: a hostile source is refused with exit 2 and nothing is written", async () => {
  await withSandbox(async (box) => {
    offline(box);
    for (const args of [["add", "github:../.."], ["add", "github:../..", "--project"]]) {
      const result = await box.cli(...args);
      equal(result.code, 2, result.stderr);
      equal(result.stdout, "");
      ok(
        result.stderr.includes('cannot parse source "github:../.." (invalid path segment'),
        result.stderr,
      );
    }
    ok(!(await exists(box.dshHome)), "no user file, cache or lock");
    ok(!(await exists(join(box.project, ".dsh"))), "no project file");
  }, CATALOG_BOX);
});

Deno.test("sync: a broken source fails with exit 1 (table and JSON), no half clone", async () => {
  await withSandbox(async (box) => {
    offline(box);
    const missing = join(box.root, "no-such-repo");
    await writeTree(box.dshHome, {
      "skills-anywhere/sources.json": JSON.stringify({ sources: [missing] }),
    });
    const human = await box.cli("sync");
    equal(human.code, 1);
    const lines = human.stdout.trimEnd().split("\n");
    match(lines[0], /^SOURCE {2,}STATUS {2,}COMMIT$/);
    match(lines[1], new RegExp(`^${escapeRe(missing)} {2,}failed {2,}\\S`));
    ok(human.stderr.length > 0, "the failure is reported on stderr");

    const json = await box.cli("sync", "--json");
    equal(json.code, 1);
    const doc = JSON.parse(json.stdout);
    equal(doc.length, 1);
    deepEqual(Object.keys(doc[0]), ["source", "status", "sha", "error"]);
    equal(doc[0].source, missing);
    equal(doc[0].status, "failed");
    equal(doc[0].sha, null);
    ok(typeof doc[0].error === "string" && doc[0].error.length > 0);
    const cached = await exists(cacheDir(box)) ? await listTree(cacheDir(box)) : [];
    ok(!cached.some((p) => p.includes(".tmp-")), `half clone left: ${cached}`);
    const sources = JSON.parse((await box.cli("sources", "--json")).stdout);
    equal(sources[0].lock, null);
  }, CATALOG_BOX);
});
