/**
 * Command-line parsing: one strict `node:util` `parseArgs` over every option
 * the tool knows, then a per-command check that each given option belongs to
 * the command, so misplaced flags get a message that names where they belong.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from "./args.ts";
 * const parsed = parseCommandLine(["check", "--json", "SKILL.md"]);
 * ```
 * @module
 */
import { parseArgs } from "node:util";
import { errorText, KindError } from "../errors.ts";

/** Every option of every command. */
const OPTIONS = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
  cwd: { type: "string" },
  json: { type: "boolean" },
  all: { type: "boolean" },
  project: { type: "boolean" },
  ref: { type: "string" },
  path: { type: "string" },
  rank: { type: "string" },
  force: { type: "boolean" },
  yes: { type: "boolean", short: "y" },
  revoke: { type: "boolean" },
  profile: { type: "string" },
  lenient: { type: "boolean" },
  "fail-on-repair": { type: "boolean" },
  "require-pinned-sources": { type: "boolean" },
  "fail-on-hidden-characters": { type: "boolean" },
  resources: { type: "boolean" },
  "fail-on-resource-issues": { type: "boolean" },
  against: { type: "string" },
} as const;

/** An option name. */
export type OptionName = keyof typeof OPTIONS;

/** Parsed option values. */
export type OptionValues = {
  [K in OptionName]?: (typeof OPTIONS)[K]["type"] extends "string" ? string
    : boolean;
};

/** A command-line mistake (kind `usage`): the message, then usage on stderr, exit 2. */
export class UsageError extends KindError<"usage"> {
  /** The command the mistake belongs to, when known (its usage is shown). */
  readonly command?: string;

  /** Builds a usage error, optionally naming the command. */
  constructor(message: string, command?: string) {
    super("usage", message);
    this.command = command;
  }
}

/** Options only `check` accepts. */
export const CHECK_ONLY: readonly OptionName[] = [
  "profile",
  "lenient",
  "fail-on-repair",
  "require-pinned-sources",
  "fail-on-hidden-characters",
  "resources",
  "fail-on-resource-issues",
];

/** The parsed command line. */
export interface CommandLine {
  /** The command, or `undefined` when none was named. */
  command?: string;
  /** Positional arguments after the command. */
  positionals: string[];
  /** The options given, by name. */
  values: OptionValues;
}

/**
 * Parses `argv` (without the program name).
 *
 * @example
 * ```ts
 * parseCommandLine(["--version"]).values.version; // true
 * ```
 */
export function parseCommandLine(argv: string[]): CommandLine {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    const loose = parseArgs({
      args: argv,
      options: OPTIONS,
      allowPositionals: true,
      strict: false,
    });
    throw new UsageError(errorText(error), loose.positionals[0]);
  }
  const [command, ...positionals] = parsed.positionals;
  return { command, positionals, values: parsed.values as OptionValues };
}

/**
 * Refuses options that `command` does not take, naming where they belong.
 *
 * @example
 * ```ts
 * assertOptions("list", { lenient: true }, ["json"]); // throws "--lenient is only available for check."
 * ```
 */
export function assertOptions(
  command: string,
  values: OptionValues,
  allowed: readonly OptionName[],
): void {
  const given = (Object.keys(values) as OptionName[]).filter((name) =>
    values[name] !== undefined && !["help", "version", "cwd"].includes(name) &&
    !allowed.includes(name)
  );
  if (given.length === 0) return;
  const checkOnly = given.filter((name) => CHECK_ONLY.includes(name));
  if (checkOnly.length > 0) {
    const names = checkOnly.map((n) => `--${n}`).join(", ");
    throw new UsageError(
      `${names} ${checkOnly.length > 1 ? "are" : "is"} only available for check.`,
    );
  }
  if (given.includes("against")) throw new UsageError("--against is only available for bundle.");
  throw new UsageError(`--${given[0]} is not an option of ${command}.`);
}
