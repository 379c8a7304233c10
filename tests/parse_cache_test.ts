// The parse cache (lib/catalog/_parse_cache.ts): the catalog commands keep parses between runs and
// take an unchanged file's parse from it. Hostile and stale caches first, then the real CLI over
// real public skills: the catalog with a warm cache is byte for byte the catalog without one.
import { deepEqual, equal, notEqual, ok } from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdir, readFile, stat, symlink, utimes, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import {
  MAX_PARSE_CACHE_BYTES,
  PARSE_CACHE_REVISION,
  ParseCache,
  SETTLE_MS,
} from "../lib/catalog/_parse_cache.ts";
import { fileStampSync } from "../lib/fs/mod.ts";
import { VERSION } from "../lib/version.ts";
import { loadCatalog, resolveConfig } from "../lib/catalog/mod.ts";
import {
  listTree,
  mkfifo,
  ROOT,
  type Sandbox,
  withSandbox,
  withTempDir,
  writeTree,
} from "./helpers.ts";

const FORMAT = "dsh-skills-anywhere parse cache";

/** A parse as the cache keeps it. */
function parsed(name: string, metadata: Record<string, unknown> = {}) {
  return {
    parsed: {
      name,
      nameDeclared: true,
      description: `The ${name} skill.`,
      invocation: { modelInvocable: true, userInvocable: true },
      metadata,
      warnings: [],
    },
    body: "\u000012:abcd",
  };
}

/** A well-formed row for `path`. */
function row(path: string, stamp: string, name = "demo"): unknown[] {
  return [path, stamp, "ld:demo", name, true, "d", true, true, {}, [], null, "\u00001:0"];
}

function doc(files: unknown[], overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    format: FORMAT,
    version: VERSION,
    revision: PARSE_CACHE_REVISION,
    files,
    ...overrides,
  });
}

const settled = () => Date.now() - SETTLE_MS - 5_000;

Deno.test("parse cache: a missing, damaged, foreign, linked, FIFO or oversized cache is an empty one", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "parse-cache.json");
    equal(ParseCache.load(file).size, 0, "missing");
    const good = doc([row("/a/SKILL.md", "1:2:3:4:5")]);
    await writeFile(file, good);
    equal(ParseCache.load(file).size, 1, "the well-formed control");
    for (
      const [what, text] of [
        ["not JSON", good.slice(0, -3)],
        ["another format", doc([row("/a/SKILL.md", "s")], { format: "other" })],
        ["another version", doc([row("/a/SKILL.md", "s")], { version: "0.0.1" })],
        [
          "another revision",
          doc([row("/a/SKILL.md", "s")], { revision: PARSE_CACHE_REVISION + 1 }),
        ],
        ["files not a list", doc([], { files: { "/a/SKILL.md": 1 } })],
        ["an array", "[]"],
      ] as const
    ) {
      await writeFile(file, text);
      equal(ParseCache.load(file).size, 0, what);
    }
    // Rows of the wrong shape are skipped, the rest kept.
    const bad = [
      row("/b/SKILL.md", "s", "Not A Name"),
      [...row("/c/SKILL.md", "s")].slice(0, 11),
      Object.assign([...row("/d/SKILL.md", "s")], { 4: "yes" }),
      Object.assign([...row("/e/SKILL.md", "s")], { 8: [] }),
      Object.assign([...row("/f/SKILL.md", "s")], { 9: [1] }),
      Object.assign([...row("/g/SKILL.md", "s")], { 10: 3 }),
      "row",
    ];
    await writeFile(file, doc([...bad, row("/ok/SKILL.md", "s")]));
    const mixed = ParseCache.load(file);
    equal(mixed.size, 1);
    ok(mixed.lookup("/ok/SKILL.md", "s", "ld:demo") !== undefined);
    // A link is not followed, a FIFO never blocks, an oversized file is not read.
    const target = join(dir, "target.json");
    await writeFile(target, good);
    const link = join(dir, "link.json");
    await symlink(target, link);
    equal(ParseCache.load(link).size, 0, "a link");
    const fifo = join(dir, "fifo.json");
    await mkfifo(fifo);
    equal(ParseCache.load(fifo).size, 0, "a FIFO");
    const big = join(dir, "big.json");
    await writeFile(
      big,
      good.replace('"files":', `"pad":"${"x".repeat(MAX_PARSE_CACHE_BYTES)}","files":`),
    );
    equal(ParseCache.load(big).size, 0, "oversized");
  });
});

Deno.test("parse cache: a row is used only for the same path, stamp and mode", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "state", "parse-cache.json");
    const cache = ParseCache.load(file);
    cache.record("/a/SKILL.md", "1:2:3:4:5", settled(), "ld:a", parsed("a", { n: 1, list: ["x"] }));
    ok(await cache.save());
    const back = ParseCache.load(file);
    deepEqual(back.lookup("/a/SKILL.md", "1:2:3:4:5", "ld:a"), parsed("a", { n: 1, list: ["x"] }));
    equal(back.lookup("/a/SKILL.md", "1:2:3:4:6", "ld:a"), undefined, "another stamp");
    equal(back.lookup("/a/SKILL.md", "1:2:3:4:5", "sd:a"), undefined, "strict, not lenient");
    equal(back.lookup("/a/SKILL.md", "1:2:3:4:5", "lf:a"), undefined, "a flat file");
    equal(back.lookup("/b/SKILL.md", "1:2:3:4:5", "ld:a"), undefined, "another path");
    equal((await stat(file)).mode & 0o777, 0o600);
    // Nothing new: nothing written.
    equal(await back.save(), false);
  });
});

Deno.test("parse cache: a file changed within the settle time, or a value JSON would change, is not kept", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "parse-cache.json");
    const cache = ParseCache.load(file);
    cache.record("/fresh/SKILL.md", "s", Date.now(), "ld:x", parsed("fresh"));
    for (const [name, value] of [["inf", Infinity], ["nan", NaN], ["zero", -0]] as const) {
      cache.record(`/${name}/SKILL.md`, "s", settled(), "ld:x", parsed(name, { value }));
    }
    cache.record(
      "/deep/SKILL.md",
      "s",
      settled(),
      "ld:x",
      parsed("deep", { a: { b: [{ c: -0 }] } }),
    );
    cache.record("/kept/SKILL.md", "s", settled(), "ld:x", parsed("kept", { a: { b: [1.5] } }));
    ok(await cache.save());
    const back = ParseCache.load(file);
    equal(back.size, 1);
    ok(back.lookup("/kept/SKILL.md", "s", "ld:x") !== undefined);
  });
});

Deno.test("parse cache: a stamp changes with every write, a touch and a rename onto the path; what cannot be stamped is not missing", async () => {
  await withTempDir(async (dir) => {
    const path = join(dir, "SKILL.md");
    await writeFile(path, "one");
    const first = fileStampSync(path)!;
    equal(first.kind, "file");
    const { mtime } = await stat(path);
    // A same-size rewrite whose modification time is put back: the change time still moves on.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await writeFile(path, "two");
    await utimes(path, mtime, mtime);
    notEqual(fileStampSync(path)!.stamp, first.stamp);
    const other = join(dir, "other");
    await writeFile(other, "two");
    await Deno.rename(other, path);
    notEqual(fileStampSync(path)!.stamp, first.stamp);
    await symlink(path, join(dir, "link"));
    equal(fileStampSync(join(dir, "link"))!.kind, "link");
    equal(fileStampSync(join(dir, "missing")), undefined);
    // A file where a folder was is nothing there; a path that cannot be looked at is something
    // that cannot be stamped (read normally, never dropped as missing).
    equal(fileStampSync(join(path, "x")), undefined);
    await symlink("loop", join(dir, "loop"));
    const unknown = fileStampSync(join(dir, "loop", "SKILL.md"))!;
    equal(unknown.kind, "unknown");
    equal(unknown.stamp, "");
  });
});

// ---------------------------------------------------------------------------
// Through the real CLI

const SAMPLES = join(ROOT, "testdata", "reference", "samples");

/** Every real SKILL.md of testdata/reference/samples, by its path there. */
async function samples(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.name === "SKILL.md") {
        out[relative(SAMPLES, path)] = await readFile(path, "utf8");
      }
    }
  };
  await walk(SAMPLES);
  return out;
}

/**
 * A home and project of real public skills (testdata/reference/samples, under their licences)
 * spread over three agents and the project, with copies (dedupe), collisions (renames), a flat
 * skill, a metadata value JSON cannot hold, an author opt-out, a link, a FIFO and a file that
 * is not UTF-8; then waits out the settle time so the first run keeps what it parses.
 */
async function realHome(box: Sandbox): Promise<void> {
  const files: Record<string, string | Uint8Array> = {};
  const all = Object.entries(await samples());
  all.forEach(([path, text], i) => {
    const folder = path.replace(/\/SKILL\.md$/, "").replaceAll("/", "--");
    const where = [".claude/skills", ".codex/skills", ".cursor/skills"][i % 3];
    files[`home/${where}/${folder}/SKILL.md`] = text;
    if (i % 7 === 0) files[`project/.claude/skills/${folder}/SKILL.md`] = text;
    if (i % 5 === 0) files[`home/.gemini/skills/${folder}-copy/SKILL.md`] = text;
  });
  Object.assign(files, {
    "home/.claude/skills/flat-note.md":
      "---\nname: flat-note\ndescription: A flat skill.\n---\nBody.\n",
    "home/.claude/skills/odd-meta/SKILL.md":
      "---\nname: odd-meta\ndescription: Odd metadata.\nmetadata:\n  ratio: .inf\n  zero: -0.0\n---\nBody.\n",
    "home/.claude/skills/opted-out/SKILL.md":
      "---\nname: opted-out\ndescription: Opted out.\n---\nBody.\n\ndisable-model-invocation: true\n",
    "home/.claude/skills/latin1/SKILL.md": new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xe9, 0x0a]),
    "home/.claude/skills/when/SKILL.md":
      "---\nname: when\ndescription: Has when.\nwhen-to-use: Always.\n---\nBody.\n",
  });
  await writeTree(box.root, files);
  await Deno.mkdir(join(box.home, ".codex/skills/when-link"), { recursive: true });
  await symlink(
    join(box.home, ".claude/skills/when/SKILL.md"),
    join(box.home, ".codex/skills/when-link/SKILL.md"),
  );
  await Deno.mkdir(join(box.home, ".claude/skills/piped"), { recursive: true });
  await mkfifo(join(box.home, ".claude/skills/piped/SKILL.md"));
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS + 1100));
}

function cacheFile(box: Sandbox): string {
  return join(box.dshHome, "skills-anywhere", "parse-cache.json");
}

Deno.test("CLI: list, show and search over real skills print the same with a cold and a warm cache", async () => {
  await withSandbox(async (box) => {
    await realHome(box);
    const commands = [["list", "--json"], ["list", "--all"], ["search", "pdf", "--json"], [
      "show",
      "when",
    ]];
    const cold = [];
    for (const args of commands) {
      cold.push(await box.cli(...args));
      await Deno.remove(cacheFile(box)).catch(() => {});
    }
    // The first run keeps every settled skill it parsed; the ones after take them from the cache.
    await box.cli("list");
    const kept = JSON.parse(await readFile(cacheFile(box), "utf8"));
    const listed = JSON.parse(cold[0].stdout).skills.length;
    ok(kept.files.length >= listed - 2, `${kept.files.length} rows for ${listed} skills`);
    ok(
      !kept.files.some((r: unknown[]) => r[3] === "odd-meta"),
      "a metadata value JSON would change",
    );
    ok(!kept.files.some((r: unknown[]) => String(r[0]).includes("when-link")), "a link");
    const before = await readFile(cacheFile(box));
    for (const [i, args] of commands.entries()) {
      const warm = await box.cli(...args);
      deepEqual(
        { code: warm.code, stdout: warm.stdout, stderr: warm.stderr },
        { code: cold[i].code, stdout: cold[i].stdout, stderr: cold[i].stderr },
        args.join(" "),
      );
    }
    deepEqual(await readFile(cacheFile(box)), before, "a warm run with nothing new writes nothing");
    equal(cold[0].code, 0);
    ok(JSON.parse(cold[0].stdout).invalid.length >= 1, "the file that is not UTF-8 is reported");
    // The catalog itself, in process: with the warm cache as without any.
    const config = resolveConfig({ sharedDirs: true, sync: false }, box.env);
    const fresh = await loadCatalog(config, { cwd: box.project });
    const cached = await loadCatalog(config, { cwd: box.project, parseCache: true });
    deepEqual(cached.report, fresh.report);
    ok(fresh.report.dropped.length > 0 && fresh.report.skills.some((s) => s.renamedFrom));
  });
});

Deno.test("CLI: a skill rewritten after it was cached is read again, whatever its size and times", async () => {
  await withSandbox(async (box) => {
    const path = join(box.home, ".claude/skills/demo/SKILL.md");
    await writeTree(box.home, {
      ".claude/skills/demo/SKILL.md": "---\nname: demo\ndescription: First words.\n---\nBody.\n",
      ".claude/skills/gone/SKILL.md": "---\nname: gone\ndescription: Soon gone.\n---\nBody.\n",
    });
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS + 1100));
    const first = await box.cli("list", "--json");
    deepEqual(JSON.parse(first.stdout).skills.map((s: { description: string }) => s.description), [
      "First words.",
      "Soon gone.",
    ]);
    const { mtime, atime } = await stat(path);
    // Same size, same modification time: only the change time tells.
    await writeFile(path, "---\nname: demo\ndescription: Other words.\n---\nBody.\n");
    await utimes(path, atime, mtime);
    await Deno.remove(join(box.home, ".claude/skills/gone"), { recursive: true });
    const second = await box.cli("list", "--json");
    deepEqual(JSON.parse(second.stdout).skills.map((s: { description: string }) => s.description), [
      "Other words.",
    ]);
    // The warm run takes the parse from the cache: a row edited by hand for the file's current
    // stamp is what it shows (the cache lives in the user's own state folder, written 0600 by
    // this tool only, and nothing that pins or locks reads it).
    equal((await stat(cacheFile(box))).mode & 0o777, 0o600);
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS + 1100));
    await box.cli("list");
    const kept = JSON.parse(await readFile(cacheFile(box), "utf8"));
    const demo = kept.files.find((r: unknown[]) => r[0] === path);
    demo[5] = "Edited in the cache.";
    await writeFile(cacheFile(box), JSON.stringify(kept));
    const third = await box.cli("list", "--json");
    deepEqual(JSON.parse(third.stdout).skills.map((s: { description: string }) => s.description), [
      "Edited in the cache.",
    ]);
    const shown = await box.cli("show", "demo", "--raw");
    ok(shown.stdout.includes("Other words."), "show --raw reads the file itself");
  });
});

Deno.test("CLI: the cache is written in the state folder only, and a read-only state folder changes nothing", async () => {
  await withSandbox(async (box) => {
    await writeTree(box.home, {
      ".claude/skills/demo/SKILL.md": "---\nname: demo\ndescription: Demo.\n---\nBody.\n",
    });
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS + 1100));
    const before = (await listTree(box.root)).filter((p) => !p.startsWith("home/.dsh"));
    const first = await box.cli("list");
    equal(first.code, 0);
    deepEqual((await listTree(box.root)).filter((p) => !p.startsWith("home/.dsh")), before);
    deepEqual(await listTree(box.dshHome), [
      "skills-anywhere",
      "skills-anywhere/parse-cache.json",
    ]);
    // The cache file replaced by a link to a file elsewhere: never written through.
    const elsewhere = join(box.root, "elsewhere.json");
    await writeFile(elsewhere, "keep");
    await Deno.remove(cacheFile(box));
    await symlink(elsewhere, cacheFile(box));
    const linked = await box.cli("list");
    deepEqual({ code: linked.code, stdout: linked.stdout }, { code: 0, stdout: first.stdout });
    equal(await readFile(elsewhere, "utf8"), "keep");
    // A state folder the tool cannot write: the same listing, no message.
    await Deno.remove(cacheFile(box));
    await Deno.chmod(join(box.dshHome, "skills-anywhere"), 0o500);
    try {
      deepEqual(await box.cli("list"), first);
    } finally {
      await Deno.chmod(join(box.dshHome, "skills-anywhere"), 0o700);
    }
  });
});

// ---------------------------------------------------------------------------
// The revision guard

/** The parser: its sources' digest is recorded beside each PARSE_CACHE_REVISION below. */
const PARSER = "lib/skill";

/** The digest of the parser's sources (test files left out). */
async function parserDigest(): Promise<string> {
  const names = (await readdir(join(ROOT, PARSER))).filter((name) => name.endsWith(".ts"));
  const hash = createHash("sha256");
  for (const name of names.sort()) {
    hash.update(`${name}\u0000${await readFile(join(ROOT, PARSER, name), "utf8")}\u0000`);
  }
  return hash.digest("hex");
}

/** Revision → the digest of the parser's sources it was recorded for. */
const RECORDED: Record<number, string> = {
  1: "d41c20dc5b0e956065c69012a171cef5c5edc30bc8e03246fe21ac17fb7321f5",
};

Deno.test("parse cache: the revision is bumped whenever the parser's sources change", async () => {
  const digest = await parserDigest();
  equal(
    RECORDED[PARSE_CACHE_REVISION],
    digest,
    `the parser changed: bump PARSE_CACHE_REVISION in lib/catalog/_parse_cache.ts and record ` +
      `${PARSE_CACHE_REVISION + 1}: "${digest}" in tests/parse_cache_test.ts (the rows an older ` +
      "parser kept must not be used)",
  );
});
