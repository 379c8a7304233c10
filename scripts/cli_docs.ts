// `deno task docs`: writes docs/cli.md, the command reference, from the command table (the same
// text `--help` prints), the top-level help into the README between its markers, and the spec
// rule tables of the check docs from SPEC_RULES (scripts/rule_docs.ts). Tests
// (tests/cli_help_test.ts, tests/spec_rules_test.ts) fail when any is out of date.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { cliReference, readmeWithHelp } from "../cli/help.ts";
import { RULE_DOCS, withRuleTable } from "./rule_docs.ts";

const ROOT = new URL("..", import.meta.url).pathname;
await writeFile(join(ROOT, "docs", "cli.md"), cliReference());
const readme = join(ROOT, "README.md");
await writeFile(readme, readmeWithHelp(await readFile(readme, "utf8")));
for (const { file, table } of RULE_DOCS) {
  const path = join(ROOT, file);
  await writeFile(path, withRuleTable(await readFile(path, "utf8"), table()));
}
const rules = RULE_DOCS.map((doc) => doc.file).join(", ");
console.log(`written: docs/cli.md, README.md (command reference), ${rules} (spec rules)`);
