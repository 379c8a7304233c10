// The CLI skeleton: version, help, usage errors and misplaced options, over a real child process.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { VERSION } from "../lib/version.ts";
import { join } from "node:path";
import { runCli, withTempDir, writeTree } from "./helpers.ts";

Deno.test("--version prints the version", async () => {
  const result = await runCli(["--version"]);
  equal(result.code, 0);
  equal(result.stdout, `${VERSION}\n`);
  equal(result.stderr, "");
});

Deno.test("--help lists the commands on stdout; command help shows its usage", async () => {
  const top = await runCli(["--help"]);
  equal(top.code, 0);
  match(top.stdout, /Commands:/);
  match(top.stdout, /\n {2}check /);
  const check = await runCli(["check", "-h"]);
  equal(check.code, 0);
  match(check.stdout, /^usage: dsh-skills-anywhere check /);
});

Deno.test("unknown command: message and usage on stderr, exit 2", async () => {
  const result = await runCli(["frobnicate"]);
  equal(result.code, 2);
  equal(result.stdout, "");
  match(result.stderr, /unknown command "frobnicate"/);
  match(result.stderr, /usage: dsh-skills-anywhere <command>/);
});

Deno.test("unknown command with an escape sequence is escaped", async () => {
  const result = await runCli(["bad\u001b[31mname"]);
  equal(result.code, 2);
  ok(!result.stderr.includes("\u001b"), "raw ESC reached stderr");
  match(result.stderr, /bad\\u001b\[31mname/);
});

Deno.test("unknown option: exit 2 with usage", async () => {
  const result = await runCli(["check", "--nope", "x.md"]);
  equal(result.code, 2);
  match(result.stderr, /--nope/);
  match(result.stderr, /usage: dsh-skills-anywhere check/);
});

Deno.test("misplaced options are refused with where they belong", async () => {
  const against = await runCli(["check", "x.md", "--against", "y.json"]);
  equal(against.code, 2);
  match(against.stderr, /--against is only available for bundle\./);
  const profile = await runCli(["check", "--profile", "loose", "x.md"]);
  equal(profile.code, 2);
  match(profile.stderr, /--profile must be strict, lenient, spec or reference/);
  const both = await runCli(["check", "--lenient", "--profile", "spec", "x.md"]);
  equal(both.code, 2);
  match(both.stderr, /--lenient cannot be combined with --profile spec/);
});

Deno.test("check with no files is a usage error", async () => {
  const result = await runCli(["check"]);
  equal(result.code, 2);
  match(result.stderr, /check needs at least one file/);
  deepEqual(result.stdout, "");
});

Deno.test("a broken sources file: one prefix, no usage text, exit 2 (unusable input, not bad usage)", async () => {
  await withTempDir(async (dir) => {
    const home = join(dir, "home");
    const project = join(dir, "project");
    await writeTree(dir, {
      "home/.dsh/skills-anywhere/sources.json": "{ not json",
      "project/.git/HEAD": "ref: refs/heads/main\n",
      "project/.dsh/skills-anywhere.json": '{"sources": 7}',
    });
    const env = { HOME: home, DSH_HOME: join(home, ".dsh") };
    for (const args of [["add", "owner/repo"], ["add", "owner/repo", "--project"]]) {
      const result = await runCli([...args, "--cwd", project], { env });
      equal(result.code, 2, result.stderr);
      equal(result.stdout, "");
      const lines = result.stderr.trimEnd().split("\n");
      equal(lines.length, 1, result.stderr);
      match(
        lines[0],
        /^dsh-skills-anywhere: [^:]*skills-anywhere[^ ]*json (is not valid JSON|must be)/,
      );
      ok(!result.stderr.includes("usage:"), result.stderr);
    }
  });
});
