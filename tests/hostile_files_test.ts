/**
 * Faults in the files a command reads, end to end through the CLI: `bundle` on a tree that changes
 * while it is read (the reader's own races, grown, replaced and churning files, are tested in
 * `bundle_read_test.ts`), a manifest inside the skill directory, a SKILL.md deleted between two
 * `check` runs, and `sync` with an unreachable or malicious repository. Everything runs in a
 * sandbox with an isolated git; nothing reaches the network.
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { grewRefusal } from "../lib/bundle/_manifest.ts";
import { READ_MESSAGES } from "../lib/bundle/_read.ts";
import {
  type CliResult,
  exists,
  type Sandbox,
  withSandbox,
  withTempDir,
  writeTree,
} from "./helpers.ts";
import { skillMd, textOf, withSession } from "./mcp_helpers.ts";
import { fingerprint, lockDown } from "./hostile_helpers.ts";

// ---------------------------------------------------------------------------
// A tree that changes while `bundle` reads it; a file deleted between two `check` runs

const MiB = 1024 * 1024;

function noise(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

/**
 * Runs the shell loop body `body` (`$1` = `dir`) over and over in a child while `bundle --json`
 * runs against `dir`, up to `tries` times, stopping at the first refusal. Reading starts once
 * `ready()` holds; the writer is stopped (and has exited) before the runs are returned.
 */
async function bundleWhileWriting(
  box: Sandbox,
  dir: string,
  body: string,
  ready: () => Promise<boolean>,
  tries = 20,
): Promise<CliResult[]> {
  const runs: CliResult[] = [];
  await withTempDir(async (control) => {
    const stop = join(control, "stop");
    const writer = new Deno.Command("sh", {
      args: ["-c", `while [ ! -e "$2" ]; do ${body}; done`, "sh", dir, stop],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    const exited = writer.status.then(() => true);
    try {
      while (!(await ready())) {
        const pause = new Promise<false>((resolve) => setTimeout(() => resolve(false), 5));
        if (await Promise.race([exited, pause])) throw new Error("the writer ended early");
      }
      for (let i = 0; i < tries; i++) {
        const run = await box.cli("bundle", "--json", dir);
        runs.push(run);
        if (run.code !== 0) break;
      }
    } finally {
      // Ask the loop to finish its current iteration (so no cp is left running).
      await Deno.writeTextFile(stop, "");
      const guard = setTimeout(() => writer.kill("SIGKILL"), 60_000);
      await writer.status;
      clearTimeout(guard);
    }
  });
  return runs;
}

const SKILL = skillMd("moving", "A skill whose files move.", "Body.");

async function bundleDigestOf(box: Sandbox, dir: string): Promise<string> {
  const run = await box.cli("bundle", "--json", dir);
  equal(run.code, 0, run.stdout + run.stderr);
  return JSON.parse(run.stdout).sha256;
}

Deno.test("hostile bundle: a file deleted and recreated during reading is a JSON refusal (exit 2)", async () => {
  await withSandbox(async (box) => {
    await lockDown(box);
    const big = noise(8 * MiB, 7);
    const dir = join(box.root, "skills", "deleted");
    const asset = join(dir, "assets/big.bin");
    await writeTree(dir, { "SKILL.md": SKILL, "assets/big.bin": big, "z.txt": "z" });
    // `$1.src` (outside the skill) holds a copy of the asset's bytes.
    await Deno.writeFile(`${dir}.src`, big);
    const before = await bundleDigestOf(box, dir);
    const inode = async () => (await Deno.lstat(asset).catch(() => undefined))?.ino;
    const startIno = await inode();
    const runs = await bundleWhileWriting(
      box,
      dir,
      'rm -f "$1/assets/big.bin"; cp "$1.src" "$1/assets/big.bin"',
      async () => (await inode()) !== startIno,
    );
    for (const run of runs) {
      if (run.code === 0) {
        equal(JSON.parse(run.stdout).schema, "skills-anywhere-bundle-1");
        continue;
      }
      equal(run.code, 2, run.stderr);
      const error = JSON.parse(run.stdout);
      equal(error.schema, "skills-anywhere-bundle-error-1");
      ok(
        error.error === READ_MESSAGES.changed ||
          error.error === grewRefusal("assets/big.bin").message,
        error.error,
      );
    }
    ok(runs.some((r) => r.code === 2), `never reported in ${runs.length} runs`);
    // Once the writer has stopped, the directory reads again: same bytes, same digest.
    equal(await bundleDigestOf(box, dir), before);
  });
});

Deno.test("hostile bundle: a manifest inside the skill directory is refused, however it is named", async () => {
  await withSandbox(async (box) => {
    await lockDown(box);
    const dir = join(box.root, "skills", "pinned");
    await writeTree(dir, { "SKILL.md": SKILL, "sub/x.txt": "x" });
    const manifest = await box.cli("bundle", "--json", dir);
    equal(manifest.code, 0, manifest.stderr);
    // `..review.json` starts with two dots but lies inside: a prefix test would call it outside.
    for (const name of ["..review.json", "...json", "sub/..m.json", "review.json"]) {
      await Deno.writeTextFile(join(dir, name), manifest.stdout);
      const run = await box.cli("bundle", "--json", "--against", join(dir, name), dir);
      equal(run.code, 2, `${name}: ${run.stdout}`);
      equal(JSON.parse(run.stdout).error, "Keep the review manifest outside the skill directory");
      await Deno.remove(join(dir, name));
    }
    // Next to the directory (a name that starts with the directory's own name) is outside.
    await Deno.writeTextFile(`${dir}..json`, manifest.stdout);
    const beside = await box.cli("bundle", "--json", "--against", `${dir}..json`, dir);
    equal(beside.code, 0, beside.stdout);
    equal(JSON.parse(beside.stdout).matches, true);
  });
});

Deno.test("hostile check: a SKILL.md deleted between two runs is an input error (exit 2)", async () => {
  await withSandbox(async (box) => {
    await lockDown(box);
    const file = join(box.project, ".claude/skills/gone/SKILL.md");
    await writeTree(box.project, {
      ".claude/skills/gone/SKILL.md": skillMd("gone", "Gone.", "B"),
    });
    const first = await box.cli("check", "--json", file);
    equal(first.code, 0, first.stdout);
    await Deno.remove(file);
    const second = await box.cli("check", "--json", file);
    equal(second.code, 2, second.stdout);
    const report = JSON.parse(second.stdout);
    deepEqual(report.files.map((f: { status: string; error?: string }) => [f.status, f.error]), [
      ["input_error", "No such file"],
    ]);
    const human = await box.cli("check", file);
    equal(human.code, 2);
    ok(!(await exists(file)), "nothing was recreated");
  });
});

/** Every path below `dir` (recursively), or [] when it does not exist. */
async function pathsBelow(dir: string): Promise<string[]> {
  if (!(await exists(dir))) return [];
  return (await fingerprint(dir)).map((line) => line.split("\t")[0]);
}

// ---------------------------------------------------------------------------
// `sync` with an unreachable or a malicious repository

/** Writes the user sources file (inside DSH_HOME/skills-anywhere, where writes are allowed). */
async function writeSources(box: Sandbox, sources: unknown[]): Promise<void> {
  await writeTree(box.dshHome, {
    "skills-anywhere/sources.json": JSON.stringify({ sources }, null, 2) + "\n",
  });
}

interface SourceRow {
  repo: string;
  dir: string;
  scanDir: string;
  lock: unknown;
}

async function sourceRows(box: Sandbox): Promise<SourceRow[]> {
  const run = await box.cli("sources", "--json");
  equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout);
}

/** No checkout and no staging directory (`<dir>.tmp-*`) for `dir`. */
async function assertNoHalfClone(dir: string): Promise<void> {
  ok(!(await exists(dir)), `a checkout was left at ${dir}`);
  const parent = join(dir, "..");
  const base = dir.split("/").pop()!;
  const siblings = await exists(parent) ? [...Deno.readDirSync(parent)].map((e) => e.name) : [];
  deepEqual(
    siblings.filter((name) => name.startsWith(`${base}.tmp-`)),
    [],
    "a staging dir was left",
  );
}

Deno.test("hostile sync: an unreachable repository fails (exit 1) with no half clone and nothing outside DSH_HOME", async () => {
  await withSandbox(async (box) => {
    await lockDown(box);
    // git:// is allowed here so that git really tries (and fails) to connect to 127.0.0.1:1.
    box.env.GIT_ALLOW_PROTOCOL = "file:git";
    await writeSources(box, ["git://127.0.0.1:1/x", {
      repo: "git://127.0.0.1:1/y",
      ref: "main",
    }]);
    const rows = await sourceRows(box);
    equal(rows.length, 2);
    const before = await fingerprint(box.root, [box.dshHome]);
    for (const args of [["sync"], ["sync", "--json"], ["sync", "--force"]]) {
      const run = await box.cli(...args);
      equal(run.code, 1, `${args.join(" ")}: ${run.stdout}${run.stderr}`);
      if (args.includes("--json")) {
        const results = JSON.parse(run.stdout);
        deepEqual(results.map((r: { status: string }) => r.status), ["failed", "failed"]);
        for (const result of results) match(result.error, /unable to connect/);
      }
      for (const row of rows) await assertNoHalfClone(row.dir);
    }
    const cache = join(box.dshHome, "skills-anywhere/cache");
    ok((await pathsBelow(cache)).every((p) => !p.includes(".tmp-")), "a staging dir was left");
    const list = await box.cli("list");
    equal(list.code, 0, list.stderr);
    for (const row of await sourceRows(box)) equal(row.lock, null);
    deepEqual(await fingerprint(box.root, [box.dshHome]), before, "written outside DSH_HOME");
  });
});

Deno.test("hostile sync: a repository whose symlinks point outside its checkout shows nothing from outside", async () => {
  await withSandbox(async (box) => {
    await lockDown(box);
    const outside = join(box.root, "outside");
    await writeTree(outside, {
      "SKILL.md": skillMd("escaped", "OUTSIDE-MARKER from beyond the checkout.", "OUTSIDE-BODY"),
      "inner/SKILL.md": skillMd("escaped-inner", "OUTSIDE-MARKER inner.", "OUTSIDE-BODY"),
    });
    // Where the checkout will live, so that a relative link can climb out of it exactly.
    const upstreamPath = join(box.root, "evil");
    await writeSources(box, [{ repo: upstreamPath, path: "skills" }]);
    const [row] = await sourceRows(box);
    const climb = "../".repeat(row.scanDir.split("/").length - 1) + outside.slice(1);
    await box.repo("evil", {
      "skills/good/SKILL.md": skillMd("good", "A skill inside the repository.", "Good body."),
    }, {
      "skills/evil-abs": outside,
      "skills/evil-rel": climb,
      "skills/evil-file/SKILL.md": join(outside, "SKILL.md"),
      "skills/etc": "/etc",
      "skills/home": box.home,
    });
    const before = await fingerprint(box.root, [box.dshHome]);

    const sync = await box.cli("sync", "--json");
    equal(sync.code, 0, sync.stdout + sync.stderr);
    deepEqual(JSON.parse(sync.stdout).map((r: { status: string }) => r.status), ["cloned"]);
    // The links arrived in the checkout as links, and they do escape it.
    equal(await Deno.readLink(join(row.scanDir, "evil-rel")), climb);
    ok(
      await exists(join(row.scanDir, "evil-rel", "SKILL.md")),
      "the relative link resolves outside",
    );

    for (const args of [["list"], ["list", "--all", "--json"], ["doctor"], ["doctor", "--json"]]) {
      const run = await box.cli(...args);
      equal(run.code, 0, `${args.join(" ")}: ${run.stderr}`);
      ok(!run.stdout.includes("OUTSIDE-MARKER"), `${args.join(" ")} shows an outside skill`);
      ok(!run.stdout.includes("escaped"), `${args.join(" ")} shows an outside skill`);
    }
    const listed = JSON.parse((await box.cli("list", "--json")).stdout);
    const names = (Array.isArray(listed) ? listed : listed.skills).map((s: { name: string }) =>
      s.name
    );
    deepEqual(names, ["good"]);

    // An MCP client sees the same catalog, and cannot open what lies behind the links.
    await withSession(box, "auto", async (session) => {
      const all = await session.call("list_skills", {});
      ok(!textOf(all).includes("OUTSIDE"), textOf(all));
      ok(textOf(all).includes("good"));
      for (const name of ["escaped", "escaped-inner"]) {
        const opened = await session.call("open_skill", { name });
        equal(opened.isError, true);
        ok(!textOf(opened).includes("OUTSIDE-BODY"));
      }
    });

    // Source strings and sub-paths that climb out are refused before anything is written.
    for (
      const args of [
        ["add", upstreamPath, "--path", "../../outside"],
        ["add", "github:o/r/../../../x"],
        ["add", "https://github.com/../.."],
        ["add", "git@h:../../.."],
      ]
    ) {
      const run = await box.cli(...args);
      equal(run.code, 2, `${args.join(" ")}: ${run.stdout}${run.stderr}`);
    }
    deepEqual((await sourceRows(box)).map((r) => r.repo), [upstreamPath]);
    deepEqual(await fingerprint(box.root, [box.dshHome]), before, "written outside DSH_HOME");
  });
});
