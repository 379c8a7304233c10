/**
 * End-to-end tests of editing and inspecting Git sources through the real CLI, with real git
 * repositories in a sandbox: `remove --purge` never reaches outside the cache, `add` of a missing
 * local repository saves nothing, a source is its repository + ref + path, `remove` narrows and
 * counts, the `add` summary counts hidden duplicates, `sources` shows each checkout's state, and
 * a broken sources file is one line naming it.
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { resolveSource } from "../lib/sources/_resolve.ts";
import { exists, listTree, type Sandbox, withSandbox, writeTree } from "./helpers.ts";
import {
  cacheDir,
  CATALOG_BOX,
  offline,
  projectFile,
  skill,
  userFile,
} from "./catalog_cli_helpers.ts";

/** Two skills under `skills/` of an upstream repository. */
const UPSTREAM = {
  "skills/alpha/SKILL.md": skill("alpha", "First upstream skill."),
  "skills/beta/SKILL.md": skill("beta", "Second upstream skill.", "Beta body."),
};

/** The checkout folder of `spec` in the sandbox's cache. */
function checkoutOf(box: Sandbox, spec: string | { repo: string; ref?: string }): string {
  return resolveSource(spec, cacheDir(box)).dir;
}

/** Writes the user sources file with `sources`; returns its exact text. */
async function writeUserSources(box: Sandbox, sources: unknown[]): Promise<string> {
  const text = JSON.stringify({ sources }, null, 2) + "\n";
  await writeTree(box.dshHome, { "skills-anywhere/sources.json": text });
  return text;
}

/** The stderr lines, each checked to carry the one prefix. */
function errLines(stderr: string): string[] {
  const lines = stderr.trimEnd().split("\n").filter((line) => line !== "");
  for (const line of lines) ok(line.startsWith("dsh-skills-anywhere: "), line);
  return lines;
}

Deno.test("remove --purge: a checkout that is a symlink to an outside folder is refused; nothing outside is touched", async () => {
  await withSandbox(async (box) => {
    offline(box);
    const upstream = await box.repo("upstream", UPSTREAM);
    const outside = join(box.root, "outside");
    await writeTree(outside, { "precious.txt": "keep me\n", "deep/SKILL.md": "x\n" });
    await writeUserSources(box, [upstream]);
    const dir = checkoutOf(box, upstream);
    await Deno.mkdir(cacheDir(box), { recursive: true });
    await Deno.symlink(outside, dir);

    const result = await box.cli("rm", upstream, "--purge");
    equal(result.code, 1, result.stderr);
    equal(result.stdout, `removed 1 source from ${userFile(box)}: ${upstream}\n`);
    const [line] = errLines(result.stderr);
    equal(
      line,
      `dsh-skills-anywhere: ${dir} is not a folder (a link or a file); left alone; ` +
        "delete it yourself if you want",
    );
    deepEqual(await listTree(outside), ["deep", "deep/SKILL.md", "precious.txt"]);
    ok((await Deno.lstat(dir)).isSymlink, "the link itself is left alone");
    deepEqual(JSON.parse(await Deno.readTextFile(userFile(box))), { sources: [] });
  }, CATALOG_BOX);
});

Deno.test("remove --purge: links inside a checkout are removed, never followed", async () => {
  await withSandbox(async (box) => {
    offline(box);
    const outside = join(box.root, "outside");
    await writeTree(outside, { "precious.txt": "keep me\n" });
    const upstream = await box.repo("upstream", UPSTREAM, { "skills/out": outside });
    await writeUserSources(box, [upstream]);
    equal((await box.cli("sync")).code, 0);
    const dir = checkoutOf(box, upstream);
    ok((await Deno.lstat(join(dir, "skills/out"))).isSymlink);

    const result = await box.cli("remove", upstream, "--purge");
    equal(result.code, 0, result.stderr);
    equal(
      result.stdout,
      `removed 1 source from ${userFile(box)}: ${upstream}\ndeleted the cached checkout ${dir}\n`,
    );
    ok(!(await exists(dir)));
    deepEqual(await listTree(outside), ["precious.txt"]);
    const lock = JSON.parse(
      await Deno.readTextFile(join(box.dshHome, "skills-anywhere/lock.json")),
    );
    deepEqual(lock, {}, "the purged source's lock entry is forgotten");
  }, CATALOG_BOX);
});

Deno.test("add: a local path that does not exist, or is no repository → exit 1, one line, nothing saved", async () => {
  await withSandbox(async (box) => {
    offline(box);
    const text = await writeUserSources(box, ["o/r"]);
    const missing = join(box.root, "no-such-dir");
    const plain = join(box.root, "plain");
    await writeTree(plain, { "skills/x/SKILL.md": skill("x", "Not in git.") });
    const cases: [string[], string][] = [
      [["add", missing], `${missing} does not exist`],
      [["add", missing, "--project"], `${missing} does not exist`],
      [["add", `file://${missing}`], `${missing} does not exist`],
      [["add", plain, "--path", "skills"], `${plain} is not a Git repository`],
      [
        ["add", join(plain, "skills/x/SKILL.md")],
        `${join(plain, "skills/x/SKILL.md")} is not a folder`,
      ],
    ];
    for (const [args, why] of cases) {
      const result = await box.cli(...args);
      equal(result.code, 1, result.stderr);
      equal(result.stdout, "");
      deepEqual(errLines(result.stderr), [`dsh-skills-anywhere: ${why}; nothing was added`]);
    }
    equal(await Deno.readTextFile(userFile(box)), text, "the user file is unchanged byte for byte");
    ok(!(await exists(projectFile(box))), "no project file");
    ok(!(await exists(cacheDir(box))), "no cache folder");
  }, CATALOG_BOX);
});

Deno.test("add: another --ref or --path of a listed repository is a new entry; the same one is already listed", async () => {
  await withSandbox(async (box) => {
    offline(box);
    const upstream = await box.repo("upstream", UPSTREAM);
    await box.git(upstream, "tag", "v1");
    equal((await box.cli("add", upstream, "--path", "skills")).code, 0);
    const withRef = await box.cli("add", upstream, "--path", "skills", "--ref", "v1");
    equal(withRef.code, 0, withRef.stderr);
    match(withRef.stdout, new RegExp(`^added ${upstream}/skills@v1 to `));
    const atPath = await box.cli("add", `${upstream}`, "--path", "skills/alpha");
    equal(atPath.code, 0, atPath.stderr);
    const text = await Deno.readTextFile(userFile(box));
    deepEqual(JSON.parse(text).sources, [
      { repo: upstream, path: "skills" },
      { repo: upstream, ref: "v1", path: "skills" },
      { repo: upstream, path: "skills/alpha" },
    ]);
    for (const args of [["--path", "skills"], ["--path", "./skills/", "--ref", "v1"]]) {
      const again = await box.cli("add", upstream, ...args);
      equal(again.code, 0, again.stderr);
      match(again.stdout, new RegExp(`^${upstream}/skills(@v1)? is already listed in .*\n$`));
      equal(await Deno.readTextFile(userFile(box)), text, "file unchanged");
    }
    const sources = JSON.parse((await box.cli("sources", "--json")).stdout);
    equal(sources.length, 3);
    equal(new Set(sources.map((s: { dir: string }) => s.dir)).size, 2, "a ref is its own checkout");
  }, CATALOG_BOX);
});

Deno.test("remove: --ref/--path narrow to one entry; without them every entry goes, counted", async () => {
  await withSandbox(async (box) => {
    offline(box);
    const other = "acme/tools";
    const text = await writeUserSources(box, [
      "o/r",
      { repo: "o/r", ref: "v1" },
      { repo: "o/r", path: "skills" },
      other,
    ]);
    const none = await box.cli("rm", "o/r", "--ref", "v2");
    equal(none.code, 1);
    deepEqual(errLines(none.stderr), [
      `dsh-skills-anywhere: o/r@v2 is not listed in ${
        userFile(box)
      }; listed: o/r, o/r@v1, o/r/skills`,
    ]);
    equal(await Deno.readTextFile(userFile(box)), text);

    const one = await box.cli("rm", "o/r", "--ref", "v1");
    equal(one.code, 0, one.stderr);
    equal(one.stdout, `removed 1 source from ${userFile(box)}: o/r@v1\n`);
    const byPath = await box.cli("rm", "o/r/skills");
    equal(byPath.stdout, `removed 1 source from ${userFile(box)}: o/r/skills\n`);
    await writeUserSources(box, ["o/r", { repo: "o/r", ref: "v1" }, other]);
    const all = await box.cli("remove", "https://github.com/o/r.git");
    equal(all.code, 0, all.stderr);
    equal(all.stdout, `removed 2 sources from ${userFile(box)}: o/r, o/r@v1\n`);
    deepEqual(JSON.parse(await Deno.readTextFile(userFile(box))).sources, [{ repo: other }]);
  }, CATALOG_BOX);
});

Deno.test("remove: the checkout stays unless --purge, and one another entry uses is kept", async () => {
  await withSandbox(async (box) => {
    offline(box);
    const upstream = await box.repo("upstream", UPSTREAM);
    await writeUserSources(box, [{ repo: upstream, path: "skills" }, {
      repo: upstream,
      path: "skills/alpha",
    }]);
    equal((await box.cli("sync")).code, 0);
    const dir = checkoutOf(box, upstream);
    const shared = await box.cli("rm", upstream, "--path", "skills/alpha", "--purge");
    equal(shared.code, 0, shared.stderr);
    equal(
      shared.stdout,
      `removed 1 source from ${userFile(box)}: ${upstream}/skills/alpha\n` +
        `kept the cached checkout ${dir}: another source uses it\n`,
    );
    const kept = await box.cli("rm", upstream);
    equal(
      kept.stdout,
      `removed 1 source from ${userFile(box)}: ${upstream}/skills\n` +
        `kept the cached checkout ${dir} (--purge deletes it)\n`,
    );
    ok(await exists(join(dir, "skills/alpha/SKILL.md")));
  }, CATALOG_BOX);
});

Deno.test("add: the summary counts the skills found, hidden as duplicates and renamed", async () => {
  await withSandbox(async (box) => {
    offline(box);
    const upstream = await box.repo("upstream", {
      ...UPSTREAM,
      "skills/gamma/SKILL.md": skill("gamma", "Third upstream skill."),
    });
    // alpha: the same bytes as a skill you already have; beta: another skill of that name.
    await writeTree(box.home, {
      ".claude/skills/alpha/SKILL.md": skill("alpha", "First upstream skill."),
      ".claude/skills/beta/SKILL.md": skill("beta", "A different beta."),
    });
    const added = await box.cli("add", upstream, "--path", "skills");
    equal(added.code, 0, added.stderr);
    const last = added.stdout.trimEnd().split("\n").pop();
    equal(
      last,
      `3 skills found in ${upstream}/skills, 1 hidden as a duplicate of a skill you already have, ` +
        "1 renamed for a name clash",
    );
  }, CATALOG_BOX);
});

Deno.test("sources: each checkout's location and state — never synced, synced, failed with reason", async () => {
  await withSandbox(async (box) => {
    offline(box);
    const upstream = await box.repo("upstream", UPSTREAM);
    const gone = join(box.root, "gone");
    await box.repo("gone", UPSTREAM);
    await writeUserSources(box, [upstream, gone]);
    const never = await box.cli("sources");
    equal(never.code, 0, never.stderr);
    const header = never.stdout.split("\n")[0];
    match(header, /^SOURCE {2,}REF {2,}CHECKOUT {2,}STATE$/);
    const rowOf = (out: string, name: string) =>
      out.split("\n").find((line) => line.startsWith(`${name} `)) ?? "";
    match(rowOf(never.stdout, upstream), new RegExp(`${checkoutOf(box, upstream)} +never synced$`));

    equal((await box.cli("sync")).code, 0);
    await Deno.remove(gone, { recursive: true });
    equal((await box.cli("sync")).code, 1);
    const sha = await box.git(upstream, "rev-parse", "HEAD");
    const after = await box.cli("sources");
    match(
      rowOf(after.stdout, upstream),
      new RegExp(`synced ${sha.slice(0, 12)} \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC$`),
    );
    match(
      rowOf(after.stdout, gone),
      new RegExp(`failed \\d{4}-[-\\d :]+ UTC: .+ \\(last synced [0-9a-f]{12} .+ UTC\\)$`),
    );
    const json = JSON.parse((await box.cli("sources", "--json")).stdout);
    const [good, bad] = json;
    deepEqual(
      [good.state, good.status, good.failure, good.checkedOut, good.lock.sha],
      ["active", "synced", null, true, sha],
    );
    equal(bad.status, "failed");
    ok(typeof bad.failure.error === "string" && bad.failure.error.length > 0, bad.failure);
    ok(!Number.isNaN(Date.parse(bad.failure.at)));
  }, CATALOG_BOX);
});

Deno.test("a broken sources file: one line naming the file and what is wrong, exit 2; list only warns", async () => {
  await withSandbox(async (box) => {
    offline(box);
    const cases: [string, RegExp][] = [
      ["{ not json", /: not valid JSON \(.+\); fix or remove it$/],
      ['{"sources": 7}', /: not \{"sources": \[\.\.\.\]\}; fix or remove it$/],
      [
        '{"sources": ["o/r", 5]}',
        /: entry 2 is not a source string or \{repo, ref\?, path\?, rank\?\}; fix or remove it$/,
      ],
    ];
    for (const [content, why] of cases) {
      await writeTree(box.dshHome, { "skills-anywhere/sources.json": content });
      for (
        const args of [["sources"], ["sync"], ["add", "o/x"], ["rm", "o/r"], ["sources", "--json"]]
      ) {
        const result = await box.cli(...args);
        equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
        equal(result.stdout, "");
        const lines = errLines(result.stderr);
        equal(lines.length, 1, result.stderr);
        ok(lines[0].startsWith(`dsh-skills-anywhere: ${userFile(box)}: `), lines[0]);
        match(lines[0], why);
        ok(!lines[0].includes("usage"), lines[0]);
      }
      equal(await Deno.readTextFile(userFile(box)), content, "the broken file is left as it was");
      const list = await box.cli("list");
      equal(list.code, 0, list.stderr);
    }
  }, CATALOG_BOX);
});
