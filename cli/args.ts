/**
 * Command-line parsing: one table of every option the tool knows (its type,
 * its value placeholder and one sentence of help), read token by token, so
 * every mistake gets one line of our own words: an unknown option with the
 * closest valid one (`--jsn` → `--json`), an option missing its value, a
 * switch given a value. A per-command check then refuses options that belong
 * to another command, naming where they belong.
 *
 * @example
 * ```ts
 * import { parseCommandLine } from "./args.ts";
 * const parsed = parseCommandLine(["check", "--json", "SKILL.md"]);
 * ```
 * @module
 */
import { parseArgs } from "node:util";
import { KindError } from "../lib/errors.ts";
import { didYouMean } from "../lib/text.ts";
import { DEFAULT_HTTP_MAX_CONNECTIONS, DEFAULT_HTTP_REQUEST_TIMEOUT_MS } from "../lib/limits.ts";

/** One option: its type, the placeholder of its value, a short letter and its help. */
export interface OptionSpec {
  type: "boolean" | "string";
  /** The value's placeholder in help (`<dir>`), for a string option. */
  value?: string;
  short?: string;
  /** One sentence of help; a command may word it for itself (`Command.optionHelp`). */
  about: string;
}

/** Every option of every command. */
export const OPTIONS = {
  help: { type: "boolean", short: "h", about: "show this help" },
  version: { type: "boolean", short: "V", about: "print the version" },
  cwd: {
    type: "string",
    value: "<dir>",
    about: "work as if started in <dir> (it must exist); its project root decides project skills",
  },
  json: { type: "boolean", about: "print one JSON document on stdout, without colour" },
  format: {
    type: "string",
    value: "<format>",
    about: "text (default), json (the same as --json) or sarif (SARIF 2.1.0, for code scanning)",
  },
  all: { type: "boolean", about: "also list the hidden duplicates and excluded skills" },
  project: {
    type: "boolean",
    about: "edit this project's sources file (.dsh/skills-anywhere.json) instead of your own",
  },
  ref: { type: "string", value: "<ref>", about: "a branch, tag or full commit to check out" },
  path: {
    type: "string",
    value: "<dir>",
    about: "the folder inside the repository that holds the skills",
  },
  rank: {
    type: "string",
    value: "<n>",
    about: "the precedence of the source's skills (a lower rank wins a name)",
  },
  force: { type: "boolean", about: "fetch even sources synced a moment ago" },
  frozen: {
    type: "boolean",
    about: "check out exactly the commits of the project's lock, or change nothing",
  },
  yes: { type: "boolean", short: "y", about: "answer yes without asking" },
  revoke: { type: "boolean", about: "withdraw the trust given before" },
  profile: {
    type: "string",
    value: "<name>",
    about: "strict (default), lenient, spec or reference: what a file must satisfy to pass",
  },
  lenient: { type: "boolean", about: "the same as --profile lenient" },
  "fail-on-repair": { type: "boolean", about: "fail a file whose parse needed any repair" },
  "require-pinned-sources": {
    type: "boolean",
    about: "fail a file naming an external host by anything but a full-commit address",
  },
  "fail-on-hidden-characters": {
    type: "boolean",
    about: "fail a file with hidden characters (bidirectional controls, zero-width, tags)",
  },
  resources: {
    type: "boolean",
    about: "also check the local files the text links to or names",
  },
  "fail-on-resource-issues": {
    type: "boolean",
    about: "fail a file with a broken local reference (implies --resources)",
  },
  against: {
    type: "string",
    value: "<manifest.json>",
    about: "compare the directory with a manifest recorded before",
  },
  limit: {
    type: "string",
    value: "<n>",
    about: "show at most <n> results",
  },
  raw: { type: "boolean", about: "print the file's bytes only" },
  key: {
    type: "string",
    value: "<private key>",
    about: "the OpenSSH private key to sign with (an encrypted one is handed to ssh-keygen)",
  },
  out: { type: "string", value: "<file>", about: "write the result to <file>" },
  identity: {
    type: "string",
    value: "<principal>",
    about: "the signer's principal, as in the allowed signers file (for example an email)",
  },
  signature: { type: "string", value: "<file>", about: "the SSH signature file to check" },
  "allowed-signers": {
    type: "string",
    value: "<file>",
    about:
      "the trusted keys, in ssh-keygen's allowed signers format (as Git's gpg.ssh.allowedSignersFile)",
  },
  "sigstore-bundle": {
    type: "string",
    value: "<file>",
    about:
      "the Sigstore bundle to check (a DSSE envelope with an in-toto statement, as cosign writes)",
  },
  "trusted-root": {
    type: "string",
    value: "<file>",
    about:
      "the Sigstore trusted root (trusted_root.json) whose authorities are trusted; nothing is fetched",
  },
  "certificate-identity": {
    type: "string",
    value: "<identity>",
    about: "the signing certificate's identity (its SAN: an email or a URI), matched exactly",
  },
  "certificate-oidc-issuer": {
    type: "string",
    value: "<url>",
    about: "the OIDC issuer the signing certificate records, matched exactly",
  },
  purge: { type: "boolean", about: "also delete the cached checkout (inside the cache only)" },
  http: {
    type: "string",
    value: "[<host>:]<port>",
    about:
      "serve Streamable HTTP on /mcp at that address (host 127.0.0.1 unless given; port 0 picks one)",
  },
  "token-file": {
    type: "string",
    value: "<file>",
    about: "require Authorization: Bearer <token>, the token read once from <file>",
  },
  "max-connections": {
    type: "string",
    value: "<n>",
    about:
      `hold at most <n> connections open at once (default ${DEFAULT_HTTP_MAX_CONNECTIONS}); one more is answered 503`,
  },
  "request-timeout": {
    type: "string",
    value: "<seconds>",
    about: `wait at most <seconds> for a request's headers, then for its body (default ${
      DEFAULT_HTTP_REQUEST_TIMEOUT_MS / 1000
    })`,
  },
  user: {
    type: "boolean",
    about: "the user lock (~/.dsh/skills-anywhere/user.lock.json): your personal skills alone",
  },
  request: {
    type: "string",
    value: "<file>",
    about: "the request document route prepare wrote",
  },
  response: {
    type: "string",
    value: "<file>",
    about: 'the model\'s answer: {"choice": …, "confidence": …, "model": …}',
  },
  "min-confidence": {
    type: "string",
    value: "<0..1>",
    about: "the confidence a choice needs (default 0.7)",
  },
  locked: {
    type: "boolean",
    about: "serve only the skills whose bundle matches the project's skills-anywhere.lock.json",
  },
} as const satisfies Record<string, OptionSpec>;

/** An option name. */
export type OptionName = keyof typeof OPTIONS;

/** Parsed option values. */
export type OptionValues = {
  [K in OptionName]?: (typeof OPTIONS)[K]["type"] extends "string" ? string
    : boolean;
};

/** Options every command takes. */
export const GLOBAL_OPTIONS: readonly OptionName[] = ["cwd", "help", "version"];

/**
 * A command-line mistake (kind `usage`): one line on stderr, a pointer to the
 * help, exit 2.
 */
export class UsageError extends KindError<"usage"> {
  /** The command the mistake belongs to, when known (its help is pointed to). */
  readonly command?: string;

  /** Builds a usage error, optionally naming the command. */
  constructor(message: string, command?: string) {
    super("usage", message);
    this.command = command;
  }
}

/** The parsed command line. */
export interface CommandLine {
  /** The command, or `undefined` when none was named. */
  command?: string;
  /** Positional arguments after the command. */
  positionals: string[];
  /** The options given, by name. */
  values: OptionValues;
}

/** The option spelled `--name` (or `-x`) as the user wrote it. */
function spelled(rawName: string): string {
  return rawName.startsWith("--") || rawName.length === 2 ? rawName : `--${rawName}`;
}

/**
 * Parses `argv` (without the program name). `optionsOf` names the options a
 * command takes, for the suggestion after an unknown option (default: all).
 *
 * @throws {UsageError} When the command line asks for something the command does not take.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(parseCommandLine(["--version"]).values.version, true);
 * ```
 */
export function parseCommandLine(
  argv: string[],
  optionsOf: (command: string | undefined) => readonly OptionName[] = () =>
    Object.keys(OPTIONS) as OptionName[],
): CommandLine {
  const { tokens } = parseArgs({
    args: argv,
    options: OPTIONS,
    allowPositionals: true,
    strict: false,
    tokens: true,
  });
  const positionals = tokens.flatMap((t) => t.kind === "positional" ? [t.value] : []);
  const command = positionals[0];
  const values: Record<string, string | boolean> = {};
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    const name = spelled(token.rawName);
    if (!Object.hasOwn(OPTIONS, token.name)) {
      const known = optionsOf(command).map((o) => `--${o}`);
      throw new UsageError(`unknown option ${name}${didYouMean(name, known, { max: 2 })}`, command);
    }
    const spec: OptionSpec = OPTIONS[token.name as OptionName];
    if (spec.type === "string") {
      if (
        token.value === undefined || (token.inlineValue !== true && token.value.startsWith("-"))
      ) {
        throw new UsageError(`${name} needs a value (${name} ${spec.value})`, command);
      }
      values[token.name] = token.value;
    } else {
      if (token.inlineValue) throw new UsageError(`${name} takes no value`, command);
      values[token.name] = true;
    }
  }
  return { command, positionals: positionals.slice(1), values: values as OptionValues };
}

/**
 * Refuses options that `command` does not take, naming where they belong.
 *
 * @throws {UsageError} When the command line asks for something the command does not take.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.throws(() => assertOptions("list", { lenient: true }, ["json"]), {
 *   message: "list does not take --lenient",
 * });
 * ```
 */
export function assertOptions(
  command: string,
  values: OptionValues,
  allowed: readonly OptionName[],
  ownersOf: (option: OptionName) => readonly string[] = () => [],
): void {
  const given = (Object.keys(values) as OptionName[]).filter((name) =>
    values[name] !== undefined && !GLOBAL_OPTIONS.includes(name) && !allowed.includes(name)
  );
  if (given.length === 0) return;
  const option = given[0];
  const owners = ownersOf(option);
  const where = owners.length === 0 ? "" : ` (it is an option of ${owners.join(", ")})`;
  throw new UsageError(`${command} does not take --${option}${where}`, command);
}
