/**
 * The command-line interface: parse, dispatch, map errors to exit codes.
 *
 * Exit codes: 0 success, 1 a checked thing failed (or an unexpected error),
 * 2 bad usage or unusable input, all named in the one table `EXIT`
 * (`program.ts`): a command returns an outcome, and a thrown error is mapped
 * to one here.
 *
 * @example
 * ```ts
 * import { main } from "./mod.ts";
 * const code = await main(["--version"]);
 * ```
 * @module
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import process from "node:process";
import { VERSION } from "../lib/version.ts";
import { didYouMean } from "../lib/text.ts";
import { assertOptions, GLOBAL_OPTIONS, parseCommandLine, UsageError } from "./args.ts";
import { commandNamed, COMMANDS, DEFAULT_COMMAND, ownersOf } from "./commands.ts";
import { KindError } from "../lib/errors.ts";
import { escapeTerminal } from "./escape.ts";
import { commandHelp, topHelp } from "./help.ts";
import { type Io, PREFIX, processIo } from "./io.ts";
import { EXIT, PROGRAM } from "./program.ts";

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

/** The options a command name takes, for suggestions (all of them when it names none). */
function optionsOf(name: string | undefined) {
  const command = name === undefined ? undefined : commandNamed(name);
  return command === undefined
    ? [...new Set(Object.values(COMMANDS).flatMap((c) => c.options)), ...GLOBAL_OPTIONS]
    : [...COMMANDS[command].options, ...GLOBAL_OPTIONS];
}

/** The command `word` names, or a usage error naming the closest commands. */
function commandOf(word: string): string {
  const name = commandNamed(word);
  if (name !== undefined) return name;
  const names = [...Object.keys(COMMANDS), "help", "version"];
  const quoted = names.map((n) => `"${n}"`);
  throw new UsageError(
    `unknown command "${escapeTerminal(word)}"${didYouMean(`"${word}"`, quoted, { max: 2 })}`,
  );
}

/** `--cwd <dir>` resolved, or a usage error when it is not a folder. */
function workingDirectory(given: string | undefined): string {
  const cwd = resolve(process.cwd(), given ?? ".");
  if (given !== undefined && statSync(cwd, { throwIfNoEntry: false })?.isDirectory() !== true) {
    throw new UsageError(`--cwd ${escapeTerminal(given)}: no such folder`);
  }
  return cwd;
}

/** Parses `argv`, checks it against the command table and runs the command. */
async function dispatch(argv: string[], io: Io, named: { command?: string }): Promise<number> {
  const line = parseCommandLine(argv, optionsOf);
  if (line.command === "version" || (line.values.version && line.command === undefined)) {
    io.out(`${VERSION}\n`);
    return EXIT.ok;
  }
  if (line.command === "help") {
    const [topic] = line.positionals;
    io.out(topic === undefined ? topHelp() : commandHelp(commandOf(topic)));
    return EXIT.ok;
  }
  const name = line.command === undefined ? DEFAULT_COMMAND : commandOf(line.command);
  if (line.values.help) {
    io.out(line.command === undefined ? topHelp() : commandHelp(name));
    return EXIT.ok;
  }
  const command = COMMANDS[name];
  named.command = name;
  assertOptions(name, line.values, command.options, ownersOf);
  if (command.noArguments && line.positionals.length > 0) {
    throw new UsageError(
      `${name} takes no arguments (got "${escapeTerminal(line.positionals[0])}")`,
    );
  }
  if (line.values.version) {
    io.out(`${VERSION}\n`);
    return EXIT.ok;
  }
  return await command.run(line.positionals, line.values, workingDirectory(line.values.cwd), io);
}

/**
 * The three classes of thrown error: a command-line mistake (`UsageError`),
 * an expected failure of the core (any other {@linkcode KindError}: a read,
 * source, git, configuration or bundle failure), and anything else (a bug).
 */
type FailureClass = "usage" | "failure" | "bug";

/** Each class of thrown error as an outcome of the one exit-code table ({@linkcode EXIT}). */
const EXIT_CODES: Readonly<Record<FailureClass, number>> = {
  usage: EXIT.usage,
  failure: EXIT.refused,
  bug: EXIT.bug,
};

function classify(error: unknown): FailureClass {
  if (error instanceof UsageError) return "usage";
  return error instanceof KindError ? "failure" : "bug";
}

/**
 * The one place that turns a thrown error into words and an exit code
 * ({@linkcode EXIT_CODES}), one style for all: `dsh-skills-anywhere: <what
 * went wrong>; <what to do>`. A usage mistake points to the help (of its
 * command when known); a core failure prints its one line; a bug prints its
 * stack. Only the CLI adds its prefix.
 */
function reportFailure(error: unknown, command: string | undefined, io: Io): number {
  const failureClass = classify(error);
  if (error instanceof UsageError) {
    const name = command ?? (error.command === undefined ? undefined : commandNamed(error.command));
    const help = name === undefined ? `${PROGRAM} --help` : `${PROGRAM} ${name} --help`;
    io.err(`${PREFIX}${escapeTerminal(error.message)}; run "${help}" for usage\n`);
  } else if (error instanceof KindError) {
    io.err(`${PREFIX}${escapeTerminal(error.message)}\n`);
  } else {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.err(
      `${PREFIX}unexpected error; please report it with this text\n${escapeTerminal(detail)}\n`,
    );
  }
  return EXIT_CODES[failureClass];
}
