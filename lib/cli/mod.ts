/**
 * The command-line interface: parse, dispatch, map errors to exit codes.
 *
 * Exit codes: 0 success, 1 a checked thing failed (or an unexpected error),
 * 2 bad usage or unusable input.
 *
 * @example
 * ```ts
 * import { main } from "./mod.ts";
 * const code = await main(["--version"]);
 * ```
 * @module
 */
import { resolve } from "node:path";
import process from "node:process";
import { VERSION } from "../version.ts";
import {
  assertOptions,
  CHECK_ONLY,
  type OptionName,
  type OptionValues,
  parseCommandLine,
  UsageError,
} from "./args.ts";
import { KindError } from "../errors.ts";
import { escapeTerminal } from "./escape.ts";
import { type Io, PREFIX, processIo } from "./io.ts";

/** One CLI command. */
interface Command {
  summary: string;
  usage: string;
  options: readonly OptionName[];
  /** Takes no positional arguments. */
  noArguments?: true;
  run(positionals: string[], values: OptionValues, cwd: string, io: Io): Promise<number>;
}

// Command modules load lazily, so `--help` or `bundle` never pays for the Markdown parser.
const COMMANDS: Record<string, Command> = {
  list: {
    summary: "list every skill found, with where it came from (default command)",
    usage: "usage: dsh-skills-anywhere list [--all] [--json] [--cwd <dir>]",
    options: ["json", "all"],
    noArguments: true,
    run: async (...args) => (await import("./list.ts")).runList(...args),
  },
  agents: {
    summary: "show every supported agent and its skill directories",
    usage: "usage: dsh-skills-anywhere agents [--json] [--cwd <dir>]",
    options: ["json"],
    noArguments: true,
    run: async (...args) => (await import("./agents.ts")).runAgents(...args),
  },
  sources: {
    summary: "show configured Git sources and their synced commits",
    usage: "usage: dsh-skills-anywhere sources [--json] [--cwd <dir>]",
    options: ["json"],
    noArguments: true,
    run: async (...args) => (await import("./sources.ts")).runSources(...args),
  },
  add: {
    summary: "add a Git source (owner/repo, URL or path) and sync it",
    usage:
      "usage: dsh-skills-anywhere add <source> [--ref <ref>] [--path <dir>] [--rank <n>] [--project] [--cwd <dir>]",
    options: ["ref", "path", "rank", "project"],
    run: async (...args) => (await import("./sources.ts")).runAdd(...args),
  },
  remove: {
    summary: "remove a Git source (alias: rm); the cached checkout is kept",
    usage: "usage: dsh-skills-anywhere remove <source> [--project] [--cwd <dir>]",
    options: ["project"],
    run: async (...args) => (await import("./sources.ts")).runRemove(...args),
  },
  sync: {
    summary: "fetch every Git source now",
    usage: "usage: dsh-skills-anywhere sync [--force] [--json] [--cwd <dir>]",
    options: ["force", "json"],
    noArguments: true,
    run: async (...args) => (await import("./sources.ts")).runSync(...args),
  },
  trust: {
    summary: "review this project's Git sources file and allow it (or --revoke)",
    usage: "usage: dsh-skills-anywhere trust [--yes] [--revoke] [--json] [--cwd <dir>]",
    options: ["yes", "revoke", "json"],
    noArguments: true,
    run: async (...args) => (await import("./trust.ts")).runTrust(...args),
  },
  mcp: {
    summary: "serve the catalog to MCP clients over stdio",
    usage: "usage: dsh-skills-anywhere mcp [--cwd <dir>]",
    options: [],
    noArguments: true,
    run: async (...args) => (await import("./mcp.ts")).runMcp(...args),
  },
  doctor: {
    summary: "explain renames, repairs, skipped files and hidden duplicates",
    usage: "usage: dsh-skills-anywhere doctor [--json] [--cwd <dir>]",
    options: ["json"],
    noArguments: true,
    run: async (...args) => (await import("./doctor.ts")).runDoctor(...args),
  },
  check: {
    summary: "validate SKILL.md files (parser, specification, sources, hidden characters)",
    usage:
      "usage: dsh-skills-anywhere check [--profile strict|lenient|spec|reference] [--lenient]\n" +
      "         [--fail-on-repair] [--require-pinned-sources] [--fail-on-hidden-characters]\n" +
      "         [--resources] [--fail-on-resource-issues] [--json] [--cwd <dir>]\n" +
      "         [--] <SKILL.md files or skill directories...>",
    options: ["json", ...CHECK_ONLY],
    run: async (...args) => (await import("./check.ts")).runCheck(...args),
  },
  bundle: {
    summary: "record or compare the SHA-256 manifest of a whole skill directory",
    usage: "usage: dsh-skills-anywhere bundle <directory> [--against <manifest.json>] [--json]",
    options: ["json", "against"],
    run: async (...args) => (await import("./bundle.ts")).runBundle(...args),
  },
};

/** The default command when none is named. */
const DEFAULT_COMMAND = "list";

/** Top-level help text. */
function helpText(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const rows = Object.entries(COMMANDS).map(([name, command]) =>
    `  ${name.padEnd(width)}  ${command.summary}`
  );
  return [
    `dsh-skills-anywhere ${VERSION}: one catalog of Agent Skills for every coding agent.`,
    "",
    "usage: dsh-skills-anywhere <command> [options]",
    "",
    "Commands:",
    ...rows,
    "",
    "Options for every command:",
    "  --cwd <dir>   work as if started in <dir>",
    "  --json        print one JSON document on stdout",
    "  -h, --help    show help (also after a command)",
    "  --version     print the version",
    "",
  ].join("\n");
}

/**
 * Runs the CLI with `argv` (without the program name) and returns the exit code.
 *
 * @example
 * ```ts
 * import { main } from "./mod.ts";
 * const code = await main(["--version"]);
 * ```
 */
export async function main(argv: string[], io: Io = processIo()): Promise<number> {
  const named: { command?: string } = {};
  try {
    return await dispatch(argv, io, named);
  } catch (error) {
    return reportFailure(error, named.command, io);
  }
}

/** Parses `argv`, checks it against the command table and runs the command. */
async function dispatch(argv: string[], io: Io, named: { command?: string }): Promise<number> {
  const line = parseCommandLine(argv);
  if (line.values.version && line.command === undefined) {
    io.out(`${VERSION}\n`);
    return 0;
  }
  let name = line.command ?? DEFAULT_COMMAND;
  if (name === "rm") name = "remove";
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (line.values.help) {
    io.out(command && line.command !== undefined ? `${command.usage}\n` : helpText());
    return 0;
  }
  if (command === undefined) {
    throw new UsageError(
      line.command === undefined
        ? "name a command."
        : `unknown command "${escapeTerminal(line.command)}"`,
    );
  }
  named.command = name;
  assertOptions(name, line.values, command.options);
  if (command.noArguments && line.positionals.length > 0) {
    throw new UsageError(`${name} takes no arguments.`);
  }
  if (line.values.version) {
    io.out(`${VERSION}\n`);
    return 0;
  }
  const cwd = resolve(process.cwd(), line.values.cwd ?? ".");
  return await command.run(line.positionals, line.values, cwd, io);
}

/**
 * The three classes of thrown error: a command-line mistake (`UsageError`),
 * an expected failure of the core (any other {@linkcode KindError}: a read,
 * source, git, configuration or bundle failure), and anything else (a bug).
 */
type FailureClass = "usage" | "failure" | "bug";

/** The one table from a class of thrown error to the CLI's exit code. */
const EXIT_CODES: Readonly<Record<FailureClass, number>> = { usage: 2, failure: 2, bug: 1 };

function classify(error: unknown): FailureClass {
  if (error instanceof UsageError) return "usage";
  return error instanceof KindError ? "failure" : "bug";
}

/**
 * The one place that turns a thrown error into words and an exit code
 * ({@linkcode EXIT_CODES}): a usage mistake prints the message and the usage;
 * a core failure prints its one line; a bug prints its stack. Only the CLI
 * adds its `dsh-skills-anywhere: ` prefix.
 */
function reportFailure(error: unknown, command: string | undefined, io: Io): number {
  const failureClass = classify(error);
  if (error instanceof UsageError) {
    const name = command ?? error.command;
    const usage = name !== undefined && Object.hasOwn(COMMANDS, name)
      ? `${COMMANDS[name].usage}\n`
      : helpText();
    io.err(`${PREFIX}${escapeTerminal(error.message)}\n\n${usage}`);
  } else if (error instanceof KindError) {
    io.err(`${PREFIX}${escapeTerminal(error.message)}\n`);
  } else {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.err(`${PREFIX}unexpected error\n${escapeTerminal(detail)}\n`);
  }
  return EXIT_CODES[failureClass];
}
