/**
 * Finding 13 of issue 27, end to end: folder names the lock's own parser refuses (TAB, ESC,
 * newline, DEL, backslash, colon, U+FFFD) in every kind of place (the user's folder, the
 * project, a Claude Code plugin, a Git source). `lock` leaves each out with one escaped line
 * naming its path (exit 1) and writes a lock that parses; `verify` then exits 1 (each one
 * `unverifiable`, kind `unlockable`), never 2; `mcp --locked` serves the others; a poisoned lock
 * written before is healed by locking again. A C1 character, which the parser accepts, is locked.
 * Since issue 28 the project's place is in the project lock, the others (user folder, plugin,
 * user-level source) in the user lock (`lock --user`, `verify --user`): both are checked.
 *
 * @module
 */
import { deepEqual, equal, match, notEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { parseLock } from "../lib/lock/_format.ts";
import { type Sandbox, skillMd, withSandbox, writeTree } from "./helpers.ts";
import { textOf } from "./mcp_helpers.ts";
import { withLocked } from "./mcp_locked_helpers.ts";
import { sarifErrors } from "./sarif_schema.ts";

const LOCK = "skills-anywhere.lock.json";
// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** Folder names the parser refuses in a path, and how the CLI's escaping shows each. */
const REFUSED: Record<string, { dir: string; shown: string }> = {
  tab: { dir: "a\tb", shown: "a\\tb" },
  esc: { dir: "a\u001b[2Jb", shown: "a\\u001b[2Jb" },
  nl: { dir: "a\nb", shown: "a\\nb" },
  del: { dir: "a\u007fb", shown: "a\\u007fb" },
  backslash: { dir: "a\\b", shown: "a\\\\b" },
  colon: { dir: "a:b", shown: "a:b" },
  fffd: { dir: "a\ufffdb", shown: "a\ufffdb" },
};
/** A Git source's skill whose path is over 1,024 bytes (four 255-byte folders). */
const LONG = ["w", "x", "y", "z"].map((c) => c.repeat(255)).join("/");
/** A C1 control (CSI): the bundle path rule accepts it, so it is locked (and shown escaped). */
const ACCEPTED = { c1: "a\u009bb" };

const PLACES = ["p", "u", "pl", "g"] as const;
type Place = typeof PLACES[number];

/** The skill files of one place: every refused and accepted folder, and a plain one. */
function skillsOf(place: Place, prefix: string): Record<string, string> {
  const files: Record<string, string> = {};
  const add = (dir: string, name: string) =>
    files[`${prefix}/${dir}/SKILL.md`] = skillMd(name, `The ${name} skill.`, "Body.");
  for (const [id, { dir }] of Object.entries(REFUSED)) add(dir, `${place}-${id}`);
  for (const [id, dir] of Object.entries(ACCEPTED)) add(dir, `${place}-${id}`);
  add("plain", `${place}-plain`);
  return files;
}

/** Every place holds every folder name: project, user, plugin and Git source. */
async function hostileFolders(box: Sandbox): Promise<void> {
  const plugin = join(box.home, ".claude/plugins/marketplaces/m/plugins/p");
  await writeTree(box.project, skillsOf("p", ".claude/skills"));
  await writeTree(box.home, {
    ...skillsOf("u", ".claude/skills"),
    ...skillsOf("pl", ".claude/plugins/marketplaces/m/plugins/p/skills"),
    ".claude/plugins/installed_plugins.json": JSON.stringify({
      version: 2,
      plugins: { "p@m": [{ scope: "user", installPath: plugin }] },
    }),
    ".claude/settings.json": JSON.stringify({ enabledPlugins: { "p@m": true } }),
  });
  const repo = await box.repo("team", {
    ...skillsOf("g", "skills"),
    [`skills/${LONG}/SKILL.md`]: skillMd("g-long", "A deep skill.", "Body."),
  });
  const added = await box.cli("add", repo);
  equal(added.code, 0, added.stderr);
}

/** The places each lock holds: the project's, and the person's (user folder, plugin, source). */
const OWN: Record<"project" | "user", readonly Place[]> = {
  project: ["p"],
  user: ["u", "pl", "g"],
};
type Which = keyof typeof OWN;
const refusedNames = (which: Which = "project", places: readonly Place[] = OWN[which]) =>
  [
    ...places.flatMap((place) => Object.keys(REFUSED).map((id) => `${place}-${id}`)),
    ...(places.includes("g") ? ["g-long"] : []),
  ].sort();
const servedNames = (places: readonly Place[] = PLACES) =>
  places.flatMap((place) => [`${place}-c1`, `${place}-plain`]).sort();
const flagsOf = (which: Which) => which === "user" ? ["--user"] : [];
const lockFileOf = (box: Sandbox, which: Which) =>
  which === "user" ? join(box.dshHome, "skills-anywhere/user.lock.json") : join(box.project, LOCK);

/** Asserts `lock`'s result: exit 1, one escaped line per refused folder, a lock that parses. */
async function assertLocked(box: Sandbox, which: Which = "project") {
  const places = OWN[which];
  const locked = await box.cli("lock", ...flagsOf(which));
  equal(locked.code, 1, locked.stdout + locked.stderr);
  const counts = which === "user" ? "6 skills \\(1 source\\)" : "2 skills \\(0 sources\\)";
  match(locked.stdout, new RegExp(`^locked ${counts} in `));
  ok(!RAW_CONTROL.test(locked.stderr.replaceAll("\n", "")), JSON.stringify(locked.stderr));
  const lines = locked.stderr.trimEnd().split("\n");
  const left = lines.filter((l) => l.startsWith("dsh-skills-anywhere: left out of the lock: "));
  equal(left.length, refusedNames(which).length, locked.stderr);
  for (const place of places) {
    for (const [id, { shown }] of Object.entries(REFUSED)) {
      const line = left.find((l) => l.includes(`skill "${place}-${id}" at "`));
      ok(line !== undefined, `${place}-${id}: ${locked.stderr}`);
      ok(line.includes(`/${shown}/SKILL.md"`), line);
      match(line, /its path holds/);
    }
  }
  if (which === "user") {
    ok(left.some((l) => l.includes(`skill "g-long" at "`) && l.includes(`/${LONG}/SKILL.md"`)));
  }
  const bytes = await Deno.readFile(lockFileOf(box, which));
  const parsed = await parseLock(bytes);
  ok(parsed.ok, parsed.ok ? "" : parsed.message);
  deepEqual(parsed.lock.skills.map((s) => s.name), servedNames(places));
  return bytes;
}

/** Asserts `verify` exits 1, never 2: each refused folder unverifiable (unlockable), C1 ones fine. */
async function assertVerify(box: Sandbox, which: Which = "project") {
  const flags = flagsOf(which);
  const json = await box.cli("verify", ...flags, "--json");
  equal(json.code, 1, json.stdout + json.stderr);
  const report = JSON.parse(json.stdout);
  deepEqual(
    report.unverifiable.map((u: { name: string; kind: string }) => `${u.name} ${u.kind}`),
    refusedNames(which).map((n) => `${n} unlockable`),
  );
  deepEqual([report.changed, report.added, report.missing, report.moved], [[], [], [], []]);
  const text = await box.cli("verify", ...flags);
  equal(text.code, 1, text.stderr);
  ok(!RAW_CONTROL.test(text.stdout.replaceAll("\n", "")), JSON.stringify(text.stdout));
  const tab = `${OWN[which][0]}-tab`;
  match(
    text.stdout,
    new RegExp(`^unverifiable "${tab}" \\(its files cannot be checked against the lock\\)$`, "m"),
  );
  const sarif = await box.cli("verify", ...flags, "--format", "sarif");
  equal(sarif.code, 1, sarif.stderr);
  const log = JSON.parse(sarif.stdout);
  deepEqual(await sarifErrors(log), []);
  deepEqual(log.runs[0].tool.driver.rules.map((r: { id: string }) => r.id), ["unverifiable"]);
}

Deno.test("lock leaves out every folder its parser would refuse (each character, each place) with one line, and the lock it writes parses", async () => {
  await withSandbox(async (box) => {
    await hostileFolders(box);
    const first = await assertLocked(box);
    await assertVerify(box);
    const mine = await assertLocked(box, "user");
    await assertVerify(box, "user");
    // Locking again gives the same bytes and the same verdicts.
    deepEqual(await assertLocked(box), first);
    await assertVerify(box);
    deepEqual(await assertLocked(box, "user"), mine);
    await assertVerify(box, "user");
    const json = await box.cli("lock", "--json");
    equal(json.code, 1, json.stderr);
    const result = JSON.parse(json.stdout);
    equal(result.skills, 2);
    deepEqual(result.left_out.map((l: { name: string }) => l.name).sort(), refusedNames());
    const tab = result.left_out.find((l: { name: string }) => l.name === "p-tab");
    deepEqual([tab.list, tab.path], ["skills", join(box.project, ".claude/skills/a\tb/SKILL.md")]);
    deepEqual(await Deno.readFile(join(box.project, LOCK)), first);
  });
});

Deno.test("mcp --locked serves every other skill when folders a lock cannot hold are present", async () => {
  await withSandbox(async (box) => {
    await hostileFolders(box);
    const locked = await box.cli("lock");
    notEqual(locked.code, 2, locked.stderr);
    notEqual((await box.cli("lock", "--user")).code, 2);
    await withLocked(box, async (s) => {
      deepEqual((await s.listed()).sort(), servedNames());
      const refused = await s.call("open_skill", { name: "p-tab" });
      equal(refused.isError, true, textOf(refused));
      match(textOf(refused), /skill "p-tab" is in neither the project's lock nor the user's lock/);
      equal((await s.call("open_skill", { name: "g-c1" })).isError, undefined);
    });
  });
});

Deno.test("a lock poisoned by an entry its parser refuses is healed by locking again", async () => {
  await withSandbox(async (box) => {
    await writeTree(box.project, {
      ".claude/skills/ok/SKILL.md": skillMd("ok", "Fine.", "Body."),
      ".claude/skills/a\tb/SKILL.md": skillMd("tabbed", "Tabbed.", "Body."),
    });
    const poisoned = {
      schema: "skills-anywhere-lock-1",
      skills: [{
        name: "tabbed",
        origin: { agent: "claude-code", kind: "agent", scope: "project" },
        path: "a\tb/SKILL.md",
        skill_sha256: "0".repeat(64),
        bundle_sha256: null,
        bundle_error: "x",
        files: [],
      }],
      sources: [],
    };
    await Deno.writeTextFile(join(box.project, LOCK), JSON.stringify(poisoned, null, 2));
    equal((await box.cli("verify")).code, 2);
    const relocked = await box.cli("lock");
    equal(relocked.code, 1, relocked.stderr);
    match(relocked.stderr, /the old lock was invalid/);
    match(relocked.stderr, /left out of the lock: skill "tabbed" at ".*\/a\\tb\/SKILL\.md"/);
    ok((await parseLock(await Deno.readFile(join(box.project, LOCK)))).ok);
    const verify = await box.cli("verify", "--json");
    equal(verify.code, 1, verify.stderr);
    deepEqual(JSON.parse(verify.stdout).unverifiable.map((u: { name: string }) => u.name), [
      "tabbed",
    ]);
  });
});
