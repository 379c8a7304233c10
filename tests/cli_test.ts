// The CLI skeleton: version, help, one-line usage errors with suggestions and misplaced options,
// over a real child process.
import { equal, match, ok } from "node:assert/strict";
import { VERSION } from "../lib/version.ts";
import { join } from "node:path";
import { runCli, withTempDir, writeTree } from "./helpers.ts";

Deno.test("--version prints the version", async () => {
  const result = await runCli(["--version"]);
  equal(result.code, 0);
  equal(result.stdout, `${VERSION}\n`);
  equal(result.stderr, "");
});

Deno.test("-V, version and --version print the version", async () => {
  for (const args of [["-V"], ["version"], ["list", "--version"]]) {
    const result = await runCli(args);
    equal(result.code, 0, args.join(" "));
    equal(result.stdout, `${VERSION}\n`);
  }
});

Deno.test("--help groups the commands; command help explains options, examples and exit codes", async () => {
  const top = await runCli(["--help"]);
  equal(top.code, 0);
  match(top.stdout, /\nCatalog \(what your agents can load\):\n {2}list /);
  match(top.stdout, /\nReview \(prove what a skill is before anyone loads it\):\n {2}check /);
  match(top.stdout, /\nServe \(give the catalog to an agent\):\n {2}mcp /);
  const check = await runCli(["check", "-h"]);
  equal(check.code, 0);
  match(check.stdout, /^dsh-skills-anywhere check: validate SKILL\.md files/);
  match(check.stdout, /\nUsage: dsh-skills-anywhere check /);
  match(check.stdout, /\n {6}--require-pinned-sources {2,}fail a file naming an external host/);
  match(check.stdout, /\nExamples:\n {2}dsh-skills-anywhere check /);
  match(check.stdout, /\nExit codes:\n {2}0 {2}every file passed\n {2}1 {2}/);
  equal((await runCli(["help", "check"])).stdout, check.stdout, "help check = check --help");
  equal((await runCli(["help"])).stdout, top.stdout);
});

/** Asserts one line on stderr, exit 2, nothing on stdout, and returns the line. */
function oneUsageLine(result: { code: number; stdout: string; stderr: string }): string {
  equal(result.code, 2, result.stderr);
  equal(result.stdout, "");
  const lines = result.stderr.trimEnd().split("\n");
  equal(lines.length, 1, result.stderr);
  ok(lines[0].startsWith("dsh-skills-anywhere: "), lines[0]);
  ok(!/usage: dsh-skills-anywhere|Unknown option|ERR_PARSE_ARGS/.test(lines[0]), lines[0]);
  return lines[0];
}

Deno.test("a mistyped command or option: one line naming the closest, a pointer to --help, exit 2", async () => {
  equal(
    oneUsageLine(await runCli(["lsit"])),
    'dsh-skills-anywhere: unknown command "lsit" (did you mean "list"?); ' +
      'run "dsh-skills-anywhere --help" for usage',
  );
  equal(
    oneUsageLine(await runCli(["list", "--jsn"])),
    "dsh-skills-anywhere: unknown option --jsn (did you mean --json?); " +
      'run "dsh-skills-anywhere list --help" for usage',
  );
  match(oneUsageLine(await runCli(["frobnicate"])), /unknown command "frobnicate"; run /);
  match(
    oneUsageLine(await runCli(["check", "--nope", "x.md"])),
    /unknown option --nope; run "dsh-skills-anywhere check --help"/,
  );
  match(oneUsageLine(await runCli(["list", "--cwd"])), /--cwd needs a value \(--cwd <dir>\)/);
  match(oneUsageLine(await runCli(["list", "--json=yes"])), /--json takes no value/);
  match(
    oneUsageLine(await runCli(["help", "bundel"])),
    /unknown command "bundel" \(did you mean "bundle"\?\)/,
  );
});

Deno.test("unknown command with an escape sequence is escaped", async () => {
  const result = await runCli(["bad\u001b[31mname"]);
  equal(result.code, 2);
  ok(!result.stderr.includes("\u001b"), "raw ESC reached stderr");
  match(result.stderr, /bad\\u001b\[31mname/);
});

Deno.test("a --cwd that does not exist (or is a file): one line, exit 2, for every command", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(join(dir, "file"), "x");
    for (const command of ["list", "agents", "doctor", "sources", "sync", "trust", "mcp"]) {
      for (const cwd of [join(dir, "nonexistent"), join(dir, "file")]) {
        const line = oneUsageLine(await runCli([command, "--cwd", cwd]));
        ok(line.includes(`--cwd ${cwd}: no such folder`), line);
      }
    }
  });
});

Deno.test("misplaced options are refused with where they belong", async () => {
  match(
    oneUsageLine(await runCli(["check", "x.md", "--against", "y.json"])),
    /check does not take --against \(it is an option of bundle\)/,
  );
  match(
    oneUsageLine(await runCli(["list", "--lenient"])),
    /list does not take --lenient \(it is an option of check\)/,
  );
  match(
    oneUsageLine(await runCli(["check", "--profile", "loose", "x.md"])),
    /--profile must be strict, lenient, spec or reference/,
  );
  match(
    oneUsageLine(await runCli(["check", "--lenient", "--profile", "spec", "x.md"])),
    /--lenient cannot be combined with --profile spec/,
  );
});

Deno.test("check with no files is a usage error", async () => {
  match(
    oneUsageLine(await runCli(["check"])),
    /check needs at least one file or skill directory; run "dsh-skills-anywhere check --help" for usage$/,
  );
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
        /^dsh-skills-anywhere: [^:]*skills-anywhere[^ ]*json: (not valid JSON|not \{"sources").*; fix or remove it$/,
      );
      ok(!result.stderr.includes("usage"), result.stderr);
    }
  });
});
