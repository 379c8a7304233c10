// The help is generated from the command table, and the docs agree with it: every command's
// `--help` printed by the real CLI equals docs/cli.md's block for it, and the README shows the
// top-level help exactly (`deno task docs` rewrites both).
import { equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { COMMANDS } from "../cli/commands.ts";
import { cliReference, readmeWithHelp, topHelp } from "../cli/help.ts";
import { ROOT, runCli } from "./helpers.ts";

Deno.test("docs/cli.md and the README's command reference are what --help prints", async () => {
  const docs = await Deno.readTextFile(join(ROOT, "docs", "cli.md"));
  equal(docs, cliReference(), "docs/cli.md is out of date: run `deno task docs`");
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  equal(readme, readmeWithHelp(readme), "README.md is out of date: run `deno task docs`");
  equal((await runCli(["--help"])).stdout, topHelp());
  for (const name of Object.keys(COMMANDS)) {
    const printed = (await runCli([name, "--help"])).stdout;
    ok(
      docs.includes("```text\n" + printed.trimEnd() + "\n```"),
      `${name} --help differs from docs`,
    );
  }
});

Deno.test("every command's help has a sentence per option, examples and exit codes", () => {
  for (const [name, command] of Object.entries(COMMANDS)) {
    ok(command.examples.length >= 2, `${name}: at least two examples`);
    ok(command.exits.some(([code]) => code === 0), `${name}: exit 0 explained`);
    ok(command.exits.some(([code]) => code === 2), `${name}: exit 2 explained`);
    ok(command.summary.length > 10 && !command.summary.endsWith("."), name);
  }
});
