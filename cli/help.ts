/**
 * The help texts, generated from the command table ({@linkcode COMMANDS}) and
 * the option table ({@linkcode OPTIONS}): the top-level help groups the
 * commands; a command's help explains each option in a sentence, shows
 * examples and the exit codes. `docs/cli.md` is these texts (a test holds it
 * equal; `deno task docs` writes it).
 *
 * @example
 * ```ts
 * import { commandHelp, topHelp } from "./help.ts";
 * console.log(topHelp());
 * console.log(commandHelp("list"));
 * ```
 * @module
 */
import { GLOBAL_OPTIONS, type OptionName, OPTIONS, type OptionSpec } from "./args.ts";
import { type CommandGroup, COMMANDS, GROUPS } from "./commands.ts";
import { PROGRAM } from "./program.ts";
import { VERSION } from "../lib/version.ts";

/** Two-column rows, the first column padded to the widest. */
function columns(rows: readonly (readonly [string, string])[], indent = "  "): string[] {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `${indent}${left.padEnd(width)}  ${right}`.trimEnd());
}

/** How an option is written in help: `-h, --help` or `--cwd <dir>`. */
function optionLabel(name: OptionName): string {
  const spec: OptionSpec = OPTIONS[name];
  const long = spec.value === undefined ? `--${name}` : `--${name} ${spec.value}`;
  return spec.short === undefined ? `    ${long}` : `-${spec.short}, ${long}`;
}

/**
 * The top-level help: the program, the usage, the commands by group, the
 * options every command takes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { topHelp } from "./help.ts";
 * assert.equal(topHelp().startsWith("dsh-skills-anywhere"), true);
 * ```
 */
export function topHelp(): string {
  const lines = [
    `${PROGRAM} ${VERSION}: one catalog of Agent Skills for every coding agent.`,
    "",
    `Usage: ${PROGRAM} <command> [options]`,
    `       ${PROGRAM} help <command>`,
    "",
  ];
  for (const group of Object.keys(GROUPS) as CommandGroup[]) {
    const names = Object.keys(COMMANDS).filter((name) => COMMANDS[name].group === group);
    lines.push(`${GROUPS[group]}:`);
    lines.push(...columns(names.map((name) => [name, COMMANDS[name].summary])), "");
  }
  lines.push("Options for every command:");
  lines.push(...columns(GLOBAL_OPTIONS.map((name) => [optionLabel(name), OPTIONS[name].about])));
  lines.push(
    "",
    `Run "${PROGRAM} <command> --help" for a command's options, examples and exit codes.`,
    "",
  );
  return lines.join("\n");
}

/**
 * The usage line of command `name`, generated from the option table: the command's synopsis (its
 * arguments, and the options it groups, such as `[--json | --format …]`), then `[--<option>
 * <value>]` for each of its options and `--cwd` the synopsis does not already name, so no usage
 * line can omit an option the command takes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { usageLine } from "./help.ts";
 * assert.equal(usageLine("bundle").includes("[--cwd <dir>]"), true);
 * ```
 */
export function usageLine(name: string): string {
  const command = COMMANDS[name];
  const named = new Set(command.synopsis.match(/--[a-z][a-z-]*/g) ?? []);
  const missing = [...command.options, "cwd" as const].filter((o) => !named.has(`--${o}`));
  const generated = missing.map((option) => {
    const spec: OptionSpec = OPTIONS[option];
    return spec.value === undefined ? `[--${option}]` : `[--${option} ${spec.value}]`;
  });
  return [PROGRAM, name, command.synopsis, ...generated].filter((part) => part !== "").join(" ");
}

/**
 * The help of command `name`: summary, usage, arguments, options (its own,
 * then those of every command), examples and exit codes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commandHelp } from "./help.ts";
 * assert.equal(commandHelp("bundle").includes("Exit codes:"), true);
 * ```
 */
export function commandHelp(name: string): string {
  const command = COMMANDS[name];
  const lines = [
    `${PROGRAM} ${name}: ${command.summary}`,
    "",
    `Usage: ${usageLine(name)}`,
  ];
  if (command.aliases !== undefined) lines.push(`Alias: ${command.aliases.join(", ")}`);
  if (command.arguments !== undefined) {
    lines.push("", "Arguments:", ...columns(command.arguments));
  }
  // `--version` works after any command, but it belongs to the top-level help.
  const options = [...command.options, ...GLOBAL_OPTIONS.filter((o) => o !== "version")];
  lines.push(
    "",
    "Options:",
    ...columns(options.map((option) => [
      optionLabel(option),
      command.optionHelp?.[option] ?? OPTIONS[option].about,
    ])),
    "",
    "Examples:",
    ...command.examples.flatMap(([line, what]) => [`  ${line}`, `      ${what}`]),
    "",
    "Exit codes:",
    ...columns(command.exits.map(([code, meaning]) => [String(code), meaning])),
    "",
  );
  return lines.join("\n");
}

/** How every command's output behaves at the shell (docs/cli.md, after the top-level help). */
const AT_THE_SHELL = [
  "## Output at the shell",
  "",
  "- **Pipes.** A reader that stops early (`list | head -1`, quitting `less`) is not an error: the",
  "  command drops the rest of its output and ends as it would have, with its own exit code (0 for a",
  "  listing, 1 for a failed `check` or `verify`) and nothing on stderr, under Deno, Node and the",
  "  binaries alike. It does not exit 141: under `set -o pipefail` a listing cut short by `head` still",
  "  succeeds, and a failed verdict is never turned into another code.",
  "- **Tables that fit.** On a terminal no table line is wider than the terminal (measured in cells:",
  "  wide East Asian characters and emoji take two, combining marks none). The columns share the width",
  "  by priority: names first (cut in the middle, their marks such as `(renamed from x)` first), then",
  "  origins (a plugin keeps its name, its marketplace goes first), then paths (cut in the middle); the",
  "  description gets what is left. Each cut shows `…`. When the description would get less than 30",
  "  columns beside the path, `list` puts each path on its own line under its row. Piped or redirected,",
  "  every cell is whole.",
  "- **Colour.** Only on a terminal, never in `--json`; `NO_COLOR` turns it off, `FORCE_COLOR` on (in",
  "  pipes too).",
  "- **A parse cache.** `list`, `show`, `search`, `route` and `doctor` keep each skill file's parse in",
  "  `<DSH_HOME>/skills-anywhere/parse-cache.json` (mode 0600) and take it from there while the file's",
  "  stamp (device, inode, size, modification and change times) is unchanged, so a second run only",
  "  `lstat`s the files it read the first time. Their output is the same with it as without it;",
  '  deleting the file starts afresh. Nothing that pins, hashes or locks uses it (docs/decisions.md, "A',
  '  parse cache for the catalog commands").',
];

/**
 * `docs/cli.md`: the top-level help, how output behaves at the shell, and every command's help,
 * each in a code block under its heading, exactly as `--help` prints them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { cliReference } from "./help.ts";
 * assert.equal(cliReference().startsWith("# Command reference"), true);
 * ```
 */
export function cliReference(): string {
  const sections = [
    "# Command reference",
    "",
    `Generated from the command table (\`deno task docs\`); a test holds it equal to \`--help\`.`,
    "",
    "```text",
    topHelp().trimEnd(),
    "```",
    "",
    ...AT_THE_SHELL,
  ];
  for (const name of Object.keys(COMMANDS)) {
    sections.push("", `## ${name}`, "", "```text", commandHelp(name).trimEnd(), "```");
  }
  return sections.join("\n") + "\n";
}

/** The README's markers around the top-level help it shows. */
const README_START = "<!-- command reference: generated by `deno task docs` -->";
const README_END = "<!-- end of command reference -->";

/**
 * `readme` with the top-level help (in a code block) between its markers.
 * Throws when the markers are missing.
 *
 * @example
 * ```ts
 * import { readmeWithHelp } from "./help.ts";
 * function example(readme: string) {
 *   const updated = readmeWithHelp(readme);
 * }
 * ```
 */
export function readmeWithHelp(readme: string): string {
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start) throw new Error("README.md lacks the command reference markers");
  const block = ["", "```text", topHelp().trimEnd(), "```", ""].join("\n");
  return readme.slice(0, start + README_START.length) + "\n" + block + "\n" + readme.slice(end);
}
