// `deno task docs`: writes docs/cli.md, the command reference, from the command table (the same
// text `--help` prints), and the top-level help into the README between its markers. A test
// (tests/cli_help_test.ts) fails when either is out of date.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { cliReference, readmeWithHelp } from "../lib/cli/help.ts";

const ROOT = new URL("..", import.meta.url).pathname;
await writeFile(join(ROOT, "docs", "cli.md"), cliReference());
const readme = join(ROOT, "README.md");
await writeFile(readme, readmeWithHelp(await readFile(readme, "utf8")));
console.log("written: docs/cli.md, README.md (command reference)");
