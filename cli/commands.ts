/**
 * The command table: every command with its group, synopsis, options,
 * examples and exit codes, from which the help (`<command> --help`, `help
 * <command>`, the top-level help) and `docs/cli.md` are generated.
 *
 * Command modules load lazily, and only the one named: `--help` never pays
 * for the catalog, `list` never for the MCP SDK or Sigstore. A literal
 * `import("./list.ts")` is not lazy under Deno, which fetches and prepares
 * every statically named module of the graph, dynamic ones included, before
 * the first line runs (all 103 source files for `--version`); so each command
 * names its module by file ({@linkcode CommandFile}) and the default loader
 * imports it by a computed URL next to this module, which Deno leaves out of
 * the start-up graph. A bundle, whose files are gone, registers a loader of
 * its own with {@linkcode useCommandLoader} (`npm/cli.ts`: one literal import
 * per file, so esbuild gives each command its chunk).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { COMMANDS } from "./commands.ts";
 * assert.equal(Object.keys(COMMANDS).includes("list"), true);
 * ```
 * @module
 */
import type { OptionName, OptionValues } from "./args.ts";
import type { Io } from "./io.ts";
import { EXIT } from "./program.ts";

/**
 * The modules the commands run from, by file next to this module (types
 * only: nothing here is loaded before a command runs).
 */
export interface CommandModules {
  "./agents.ts": typeof import("./agents.ts");
  "./bundle.ts": typeof import("./bundle.ts");
  "./check.ts": typeof import("./check.ts");
  "./doctor.ts": typeof import("./doctor.ts");
  "./list.ts": typeof import("./list.ts");
  "./lock.ts": typeof import("./lock.ts");
  "./mcp.ts": typeof import("./mcp.ts");
  "./outdated.ts": typeof import("./outdated.ts");
  "./route.ts": typeof import("./route.ts");
  "./search.ts": typeof import("./search.ts");
  "./show.ts": typeof import("./show.ts");
  "./sign.ts": typeof import("./sign.ts");
  "./sources.ts": typeof import("./sources.ts");
  "./sources_edit.ts": typeof import("./sources_edit.ts");
  "./sync.ts": typeof import("./sync.ts");
  "./trust.ts": typeof import("./trust.ts");
}

/** A command module's file, relative to this module. */
export type CommandFile = keyof CommandModules;

/** Loads a command module: resolves to the module namespace of `file`. */
export type CommandLoader = (file: CommandFile) => Promise<unknown>;

/** By default: the file next to this module, by a URL Deno's start-up graph cannot see. */
let loader: CommandLoader = (file) => import(new URL(file, import.meta.url).href);

/**
 * Replaces how command modules load: for a bundle, whose source files are not
 * there (each file is then a chunk, or part of the one file). Call it before
 * `main`.
 *
 * @example
 * ```ts
 * import { useCommandLoader } from "./commands.ts";
 * useCommandLoader((file) => import(new URL(file, import.meta.url).href));
 * ```
 */
export function useCommandLoader(load: CommandLoader): void {
  loader = load;
}

async function load<F extends CommandFile>(file: F): Promise<CommandModules[F]> {
  return await loader(file) as CommandModules[F];
}

/** How the top-level help groups the commands. */
export type CommandGroup = "catalog" | "review" | "serve";

/** The group titles, in the order the help shows them. */
export const GROUPS: Readonly<Record<CommandGroup, string>> = {
  catalog: "Catalog (what your agents can load)",
  review: "Review (prove what a skill is before anyone loads it)",
  serve: "Serve (give the catalog to an agent)",
};

/** One CLI command. */
export interface Command {
  group: CommandGroup;
  /** One line: what the command does. */
  summary: string;
  /** What follows the command's name in the usage line (arguments and options). */
  synopsis: string;
  /** Each positional argument, explained. */
  arguments?: readonly (readonly [string, string])[];
  /** The command's own options (`--cwd`, `--help` and `--version` go with every command). */
  options: readonly OptionName[];
  /** Option help worded for this command, where the shared sentence is not precise. */
  optionHelp?: Partial<Record<OptionName, string>>;
  /** A few command lines with what each does. */
  examples: readonly (readonly [string, string])[];
  /** Each exit code and what it means. */
  exits: readonly (readonly [number, string])[];
  /** Other names the command answers to. */
  aliases?: readonly string[];
  /** Takes no positional arguments. */
  noArguments?: true;
  run(positionals: string[], values: OptionValues, cwd: string, io: Io): Promise<number>;
}

/** The exit code of bad usage, the same for every command. */
const USAGE_EXIT = [
  EXIT.usage,
  "bad usage (an unknown command or option, a missing --cwd folder)",
] as const;

/** The command run when none is named. */
export const DEFAULT_COMMAND = "list";

/** Every command, in the order the help lists them within a group. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  list: {
    group: "catalog",
    summary: "list every skill found, where it came from and what it does (the default command)",
    synopsis: "[--all] [--json] [--cwd <dir>]",
    options: ["json", "all"],
    noArguments: true,
    examples: [
      ["dsh-skills-anywhere", "the same as `list`"],
      ["dsh-skills-anywhere list --all", "also the hidden duplicates, and why each was hidden"],
      ["dsh-skills-anywhere list --json | jq '.skills[].name'", "the names, for a script"],
    ],
    exits: [[0, "always, once the catalog is read"], USAGE_EXIT],
    run: async (...args) => (await load("./list.ts")).runList(...args),
  },
  show: {
    group: "catalog",
    summary: "show one skill as a model would get it: its facts, digests, then its instructions",
    synopsis: "<name> [--json] [--raw] [--cwd <dir>]",
    arguments: [["<name>", "the skill's name as `list` shows it"]],
    options: ["json", "raw"],
    optionHelp: {
      json: "print one JSON document (the facts and the instructions) on stdout",
      raw: "print SKILL.md's bytes as they are: pipe it, don't trust it to a terminal",
    },
    examples: [
      ["dsh-skills-anywhere show pdf", "where pdf comes from, its SHA-256 and its instructions"],
      ["dsh-skills-anywhere show pdf --raw > pdf.SKILL.md", "the file itself, byte for byte"],
      ["dsh-skills-anywhere show pdf --json | jq -r .sha256", "its digest, for a pin"],
    ],
    exits: [
      [0, "shown"],
      [1, "no skill by that name, or its file cannot be read now (the reason is printed)"],
      USAGE_EXIT,
    ],
    run: async (...args) => (await load("./show.ts")).runShow(...args),
  },
  search: {
    group: "catalog",
    summary: "find skills by keywords: names and descriptions first, then the instructions",
    synopsis: "<query...> [--limit <n>] [--json] [--cwd <dir>]",
    arguments: [[
      "<query...>",
      'keywords, matched as whole words in any form (test, tests, testing); word* is a prefix, "two words" a phrase',
    ]],
    options: ["json", "limit"],
    optionHelp: { limit: "show at most <n> matches, 1 to 200 (default 10)" },
    examples: [
      ["dsh-skills-anywhere search excel", "skills about Excel, and why each matched"],
      ["dsh-skills-anywhere search pdf forms --limit 3", "the best three for both words"],
      ["dsh-skills-anywhere search review --json | jq -r '.matches[].name'", "for a script"],
    ],
    exits: [
      [0, "at least one skill matched"],
      [1, "no skill matched (with --json, an empty `matches` list is still printed)"],
      USAGE_EXIT,
    ],
    run: async (...args) => (await load("./search.ts")).runSearch(...args),
  },
  agents: {
    group: "catalog",
    summary: "show every supported agent and its skill folders",
    synopsis: "[--json] [--cwd <dir>]",
    options: ["json"],
    noArguments: true,
    examples: [
      ["dsh-skills-anywhere agents", "which agents' folders exist on this machine"],
      ["dsh-skills-anywhere agents --json", "every agent, its folders and documentation link"],
    ],
    exits: [[0, "always"], USAGE_EXIT],
    run: async (...args) => (await load("./agents.ts")).runAgents(...args),
  },
  doctor: {
    group: "catalog",
    summary: "explain renames, repairs, skipped files and hidden duplicates",
    synopsis: "[--json] [--cwd <dir>]",
    options: ["json"],
    noArguments: true,
    examples: [
      ["dsh-skills-anywhere doctor", "why a skill was renamed, repaired, skipped or hidden"],
      ["dsh-skills-anywhere doctor --json", "the same as one JSON document"],
    ],
    exits: [[0, "always, once the catalog is read"], USAGE_EXIT],
    run: async (...args) => (await load("./doctor.ts")).runDoctor(...args),
  },
  sources: {
    group: "catalog",
    summary: "show the Git sources, where each is checked out and its state",
    synopsis: "[--json] [--cwd <dir>]",
    options: ["json"],
    noArguments: true,
    examples: [
      ["dsh-skills-anywhere sources", "each source, its checkout and state (synced, failed, …)"],
      ["dsh-skills-anywhere sources --json", "the same as one JSON document"],
    ],
    exits: [
      [0, "the sources were listed"],
      [2, "a sources file that cannot be used (not JSON, wrong shape, unreadable), or bad usage"],
    ],
    run: async (...args) => (await load("./sources.ts")).runSources(...args),
  },
  add: {
    group: "catalog",
    summary: "add a Git source (owner/repo, URL or local path) and sync it",
    synopsis: "<source> [--ref <ref>] [--path <dir>] [--rank <n>] [--project] [--cwd <dir>]",
    arguments: [[
      "<source>",
      "owner/repo, owner/repo@tag, owner/repo#branch, a Git URL, or a local repository",
    ]],
    options: ["ref", "path", "rank", "project"],
    optionHelp: {
      ref: "a branch, tag or full commit to check out (default: the remote's default branch)",
    },
    examples: [
      ["dsh-skills-anywhere add anthropics/skills", "the repository's default branch"],
      ["dsh-skills-anywhere add anthropics/skills@v1.2.0", "pinned to a tag"],
      [
        "dsh-skills-anywhere add ./team-skills --path skills --project",
        "a local repository, for everyone working in this project",
      ],
    ],
    exits: [
      [0, "added (or already listed), and synced unless git is missing"],
      [1, "a local repository that does not exist (nothing saved), or the first sync failed"],
      [2, "a source that cannot be parsed, a sources file that cannot be used, or bad usage"],
    ],
    run: async (...args) => (await load("./sources_edit.ts")).runAdd(...args),
  },
  remove: {
    group: "catalog",
    summary: "remove a Git source (every entry of the repository, or one with --ref/--path)",
    synopsis: "<source> [--ref <ref>] [--path <dir>] [--purge] [--project] [--cwd <dir>]",
    arguments: [[
      "<source>",
      "the repository as `sources` lists it; a ref (@v1) or sub-path in it narrows like --ref/--path",
    ]],
    options: ["ref", "path", "purge", "project"],
    optionHelp: {
      ref: "remove only the entry with this ref (default: every ref)",
      path: "remove only the entry with this folder (default: every folder)",
      purge: "also delete the cached checkouts no other source uses (inside the cache only)",
    },
    aliases: ["rm"],
    examples: [
      ["dsh-skills-anywhere remove anthropics/skills", "stop using every entry of that repository"],
      ["dsh-skills-anywhere rm anthropics/skills --ref v1 --purge", "one entry, and its checkout"],
      ["dsh-skills-anywhere rm anthropics/skills --project", "from this project's sources file"],
    ],
    exits: [
      [0, "removed (the output says how many, and what became of each checkout)"],
      [1, "the source was not listed, or a checkout was not deleted (it was not a folder)"],
      [2, "a sources file that cannot be used, or bad usage"],
    ],
    run: async (...args) => (await load("./sources_edit.ts")).runRemove(...args),
  },
  sync: {
    group: "catalog",
    summary: "fetch every Git source now (or, with --frozen, exactly the locked commits)",
    synopsis: "[--force | --frozen] [--json] [--cwd <dir>]",
    options: ["force", "frozen", "json"],
    noArguments: true,
    optionHelp: {
      force: "fetch even sources synced a moment ago, and pinned ones again",
      frozen: "check out exactly the commits of skills-anywhere.lock.json (never a branch " +
        "head); if one cannot be had, change nothing",
    },
    examples: [
      ["dsh-skills-anywhere sync", "fetch the sources that are due"],
      ["dsh-skills-anywhere sync --force", "fetch every source now"],
      ["dsh-skills-anywhere sync --frozen", "in CI: the reviewed commits, all or nothing"],
    ],
    exits: [
      [0, "every source synced (with --frozen: every source at its locked commit)"],
      [
        1,
        "a source failed to sync (`sources` shows why); with --frozen, a locked commit cannot " +
        "be had, a source is not configured or not locked, or its URL differs: nothing changed",
      ],
      [
        2,
        "a sources file that cannot be used; with --frozen, no lock file or an invalid one; " +
        "or bad usage",
      ],
    ],
    run: async (...args) => (await load("./sync.ts")).runSync(...args),
  },
  outdated: {
    group: "catalog",
    summary: "show which Git sources have newer commits upstream than the locked or synced ones",
    synopsis: "[--json] [--cwd <dir>]",
    options: ["json"],
    noArguments: true,
    optionHelp: { json: "print every source's row as one JSON document" },
    examples: [
      ["dsh-skills-anywhere outdated", "each source: locked commit, upstream commit, state"],
      [
        "dsh-skills-anywhere outdated --json | jq -r '.sources[] | select(.state == \"outdated\") | .key'",
        "the sources to update, for a script",
      ],
    ],
    exits: [
      [0, "every source is current (or pinned to a commit)"],
      [1, "updates are available (a ref names a newer commit upstream, or a source never synced)"],
      [2, "a remote could not be asked or has no such ref, an invalid lock file, or bad usage"],
    ],
    run: async (...args) => (await load("./outdated.ts")).runOutdated(...args),
  },
  trust: {
    group: "catalog",
    summary: "review this project's Git sources file and allow it (or --revoke)",
    synopsis: "[--yes] [--revoke] [--json] [--cwd <dir>]",
    options: ["yes", "revoke", "json"],
    noArguments: true,
    optionHelp: { yes: "trust without asking (for scripts, after reading the file yourself)" },
    examples: [
      ["dsh-skills-anywhere trust", "show the project's sources and ask"],
      ["dsh-skills-anywhere trust --revoke", "stop using them"],
    ],
    exits: [
      [0, "trusted (or revoked)"],
      [1, "not trusted: declined, or no terminal and no --yes"],
      [2, "no usable project sources file, or bad usage"],
    ],
    run: async (...args) => (await load("./trust.ts")).runTrust(...args),
  },
  check: {
    group: "review",
    summary: "validate SKILL.md files (parser, specification, sources, hidden characters)",
    synopsis: "[--profile strict|lenient|spec|reference] [--lenient]\n" +
      "    [--fail-on-repair] [--require-pinned-sources] [--fail-on-hidden-characters]\n" +
      "    [--resources] [--fail-on-resource-issues] [--json | --format text|json|sarif]\n" +
      "    [--allowed-signers <file>] [--cwd <dir>]\n" +
      "    [--] <SKILL.md files or skill directories...>",
    arguments: [[
      "<files...>",
      "SKILL.md files, or skill directories (each stands for its SKILL.md)",
    ]],
    options: [
      "json",
      "format",
      "profile",
      "lenient",
      "fail-on-repair",
      "require-pinned-sources",
      "fail-on-hidden-characters",
      "resources",
      "fail-on-resource-issues",
      "allowed-signers",
    ],
    examples: [
      ["dsh-skills-anywhere check skills/pdf", "one skill, strict"],
      [
        "dsh-skills-anywhere check --allowed-signers .github/allowed_signers skills/pdf",
        "also verify skills/pdf.skills-anywhere.sig (a bad signature fails, a missing one is a note)",
      ],
      [
        "dsh-skills-anywhere check --profile spec --require-pinned-sources skills/*/SKILL.md",
        "a CI gate",
      ],
      ["dsh-skills-anywhere check --resources --json SKILL.md", "with local links, as JSON"],
      [
        "dsh-skills-anywhere check --format sarif skills/*/SKILL.md > check.sarif",
        "SARIF 2.1.0 for code scanning (paths relative to the current folder)",
      ],
    ],
    exits: [
      [0, "every file passed"],
      [1, "a file failed its gate, or its directory's signature does not hold"],
      [
        2,
        "a file could not be read (missing, not a regular file, over 1 MiB, not UTF-8), an unusable allowed signers file, or bad usage",
      ],
    ],
    run: async (...args) => (await load("./check.ts")).runCheck(...args),
  },
  bundle: {
    group: "review",
    summary: "record or compare the SHA-256 manifest of a whole skill directory",
    synopsis: "<directory> [--against <manifest.json>] [--json]",
    arguments: [["<directory>", "the skill directory"]],
    options: ["json", "against"],
    examples: [
      [
        "dsh-skills-anywhere bundle skills/pdf --json > pdf.manifest.json",
        "record what you reviewed",
      ],
      [
        "dsh-skills-anywhere bundle skills/pdf --against pdf.manifest.json",
        "prove the directory is still what you reviewed",
      ],
    ],
    exits: [
      [0, "manifest recorded, or the directory matches the manifest"],
      [1, "the directory differs from the manifest (the changed paths are listed)"],
      [2, "refused: an invalid manifest, a limit, a link or special file, or bad usage"],
    ],
    run: async (...args) => (await load("./bundle.ts")).runBundle(...args),
  },
  lock: {
    group: "review",
    summary: "pin the project's own skills and Git sources in skills-anywhere.lock.json",
    synopsis: "[<name>...] [--user] [--json] [--cwd <dir>]",
    arguments: [[
      "<name>...",
      "lock only these skills (the other entries of an existing lock are kept)",
    ]],
    options: ["json", "user"],
    optionHelp: {
      json: "print the lock file's path and counts as one JSON document",
      user:
        "lock your personal skills (user folders, plugins, user-level sources) in the user lock",
    },
    examples: [
      ["dsh-skills-anywhere lock", "record the project's own skills and sources; commit the file"],
      ["dsh-skills-anywhere lock pdf", "re-lock one skill after reviewing its change"],
      ["dsh-skills-anywhere lock --user", "record your personal skills in your user lock"],
    ],
    exits: [
      [0, "written"],
      [
        1,
        "no skill by a given name (the closest names are printed), or a skill the lock's own " +
        "parser would refuse (a control character in its folder name…) was left out, one line " +
        "each (the rest is written)",
      ],
      [
        2,
        "no project (the home folder), an existing lock that is invalid, a lock that would not " +
        "parse (nothing is written), or bad usage",
      ],
    ],
    run: async (...args) => (await load("./lock.ts")).runLock(...args),
  },
  verify: {
    group: "review",
    summary: "compare the project's skills and sources with skills-anywhere.lock.json",
    synopsis: "[--user] [--json | --format text|json|sarif] [--cwd <dir>]",
    options: ["json", "format", "user"],
    noArguments: true,
    optionHelp: {
      json: "print the report as one JSON document (the same inputs, the same bytes)",
      format: "text (default), json (the same as --json) or sarif (SARIF 2.1.0, paths relative " +
        "to the project root)",
      user: "compare your personal skills with your user lock instead",
    },
    examples: [
      [
        "dsh-skills-anywhere verify",
        "each changed, unverifiable, missing, added or moved skill, and sources",
      ],
      ["dsh-skills-anywhere verify --json | jq '.changed[].name'", "for a CI step"],
      ["dsh-skills-anywhere verify --format sarif > verify.sarif", "for code scanning"],
    ],
    exits: [
      [0, "everything matches the lock"],
      [
        1,
        "a difference (each one is listed; a skill that cannot be bundled is one, unverifiable), or, when the lock requires signatures, a locked skill not validly signed by an allowed signer",
      ],
      [
        2,
        "no lock file, an invalid one (not JSON, wrong schema, tampered rows, a signers path outside the project), an unusable allowed signers file, or bad usage",
      ],
    ],
    run: async (...args) => (await load("./lock.ts")).runVerify(...args),
  },
  sign: {
    group: "review",
    summary: "sign a skill directory's bundle with your SSH key (an ssh-keygen -Y sign signature)",
    synopsis: "<directory> --key <private key> [--out <file>] [--identity <principal>]",
    arguments: [["<directory>", "the skill directory"]],
    options: ["key", "out", "identity"],
    optionHelp: {
      out:
        "where the signature goes (default <directory>.skills-anywhere.sig, beside it; never inside it)",
      identity:
        "your principal, for the allowed signers line printed (the signature itself names none)",
    },
    examples: [
      [
        "dsh-skills-anywhere sign skills/pdf --key ~/.ssh/id_ed25519",
        "write skills/pdf.skills-anywhere.sig after reviewing skills/pdf",
      ],
      [
        "dsh-skills-anywhere sign skills/pdf --key ~/.ssh/id_ed25519 --identity ana@example.com --out reviews/pdf.sig",
        "elsewhere, and print the allowed signers line for ana@example.com",
      ],
    ],
    exits: [
      [0, "signed"],
      [
        2,
        "refused: an unreadable directory or key, an unsupported key, ssh-keygen failed (an encrypted key), an --out inside the directory, or bad usage",
      ],
    ],
    run: async (...args) => (await load("./sign.ts")).runSign(...args),
  },
  "verify-signature": {
    group: "review",
    summary:
      "check a skill directory's SSH signature (allowed signers) or Sigstore bundle (trusted root)",
    synopsis:
      "<directory> (--signature <file> --allowed-signers <file> [--identity <principal>] | --sigstore-bundle <file> --trusted-root <file> --certificate-identity <identity> --certificate-oidc-issuer <url>) [--json]",
    arguments: [["<directory>", "the skill directory"]],
    options: [
      "signature",
      "allowed-signers",
      "identity",
      "sigstore-bundle",
      "trusted-root",
      "certificate-identity",
      "certificate-oidc-issuer",
      "json",
    ],
    optionHelp: {
      identity:
        "the signer must be this principal (without it: any principal listing the key, as Git does)",
      "sigstore-bundle":
        "a Sigstore bundle (v0.1 to v0.3) whose DSSE in-toto statement names the directory's bundle digest; instead of --signature",
      json: "print the verdict as one JSON document",
    },
    examples: [
      [
        "dsh-skills-anywhere verify-signature skills/pdf --signature skills/pdf.skills-anywhere.sig --allowed-signers .github/allowed_signers",
        "who signed it, if anyone trusted did",
      ],
      [
        "dsh-skills-anywhere verify-signature skills/pdf --signature pdf.sig --allowed-signers allowed_signers --identity ana@example.com --json",
        "require Ana's signature, for a CI step",
      ],
      [
        "dsh-skills-anywhere verify-signature skills/pdf --sigstore-bundle pdf.sigstore.json --trusted-root trusted_root.json --certificate-identity ana@example.com --certificate-oidc-issuer https://accounts.google.com",
        "a cosign attestation by Ana, checked offline against the trusted root you supply",
      ],
    ],
    exits: [
      [
        0,
        "a valid signature by an allowed signer (or by the Sigstore identity and issuer asked for)",
      ],
      [
        1,
        "invalid: the directory differs from what was signed, an unknown key, a wrong namespace, a signer outside its namespaces or validity dates; for Sigstore: a certificate or timestamp the trusted root does not vouch for, a statement over other content, another identity or issuer",
      ],
      [
        2,
        "bad input: a file that is not an SSH signature, a Sigstore bundle or trusted root, an unsupported key, an invalid allowed signers file, a missing directory, or bad usage (mixing --signature and --sigstore-bundle options)",
      ],
    ],
    run: async (...args) => (await load("./sign.ts")).runVerifySignature(...args),
  },
  mcp: {
    group: "serve",
    summary: "serve the catalog to MCP clients over stdin and stdout, or over HTTP",
    synopsis:
      "[--http [<host>:]<port> [--token-file <file>] [--max-connections <n>] [--request-timeout <seconds>]] [--locked] [--cwd <dir>]",
    options: ["http", "token-file", "max-connections", "request-timeout", "locked"],
    noArguments: true,
    examples: [
      [
        "dsh-skills-anywhere mcp",
        "what an MCP client's configuration runs (typed in a terminal, it says so; Ctrl-D stops it)",
      ],
      ["dsh-skills-anywhere mcp --cwd ~/work/app", "with that project's skills"],
      [
        "dsh-skills-anywhere mcp --http 8080",
        "Streamable HTTP on http://127.0.0.1:8080/mcp (stateless; Ctrl-C stops it)",
      ],
      [
        "dsh-skills-anywhere mcp --http 0.0.0.0:8080 --token-file ~/.config/skills-token",
        "for a team, behind a load balancer: every request needs the bearer token",
      ],
      [
        "dsh-skills-anywhere mcp --locked",
        "serve only what the project's lock names, byte for byte; receipts carry the lock's SHA-256",
      ],
    ],
    exits: [
      [0, "the client closed the connection, or SIGINT/SIGTERM"],
      [
        2,
        "bad usage (an unknown option, a bad --http address, an empty or unreadable " +
        "--token-file, a --max-connections or --request-timeout that is not a whole number " +
        "from 1), an address that cannot be bound, or --locked without a valid lock",
      ],
    ],
    run: async (...args) => (await load("./mcp.ts")).runMcp(...args),
  },
  route: {
    group: "serve",
    summary: "let a model choose a skill for a task, then check its answer against the catalog",
    synopsis: "prepare <task...> [--json] [--cwd <dir>]\n" +
      "       route apply --request <file> --response <file> [--min-confidence <0..1>] [--json]",
    arguments: [
      ["prepare <task...>", "the task in words: up to 8 skills a model may open, best first"],
      ["apply", "check the model's answer to a request (its choice, confidence and model)"],
    ],
    options: ["json", "request", "response", "min-confidence"],
    optionHelp: {
      json: "print the request or the result as one JSON document",
      "min-confidence": "the confidence a choice needs, from 0 to 1 (default 0.7)",
    },
    examples: [
      [
        "dsh-skills-anywhere route prepare fill in a pdf form --json > request.json",
        "the request to give a model",
      ],
      [
        "dsh-skills-anywhere route apply --request request.json --response answer.json",
        "selected, abstain, no_match, stale or invalid_input",
      ],
    ],
    exits: [
      [0, "prepare: a request; apply: selected, abstain (too little confidence) or no_match"],
      [1, "apply: stale (the chosen skill changed, moved or went away since prepare)"],
      [
        2,
        "apply: invalid_input (a result is printed); a task without keywords or match, or bad usage",
      ],
    ],
    run: async (...args) => (await load("./route.ts")).runRoute(...args),
  },
};

/**
 * The command a name means: a command, or an alias of one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { commandNamed } from "./commands.ts";
 * assert.equal(commandNamed("rm"), "remove");
 * ```
 */
export function commandNamed(name: string): string | undefined {
  if (Object.hasOwn(COMMANDS, name)) return name;
  return Object.keys(COMMANDS).find((key) => COMMANDS[key].aliases?.includes(name));
}

/**
 * The commands that take `option`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ownersOf } from "./commands.ts";
 * assert.deepEqual(ownersOf("against"), ["bundle"]);
 * ```
 */
export function ownersOf(option: OptionName): string[] {
  return Object.keys(COMMANDS).filter((name) => COMMANDS[name].options.includes(option));
}
