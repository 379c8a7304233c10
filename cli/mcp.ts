/**
 * The `mcp` command: the composition root loads the MCP server lazily, so no
 * other command pays for the MCP SDK. Without options it serves stdin and
 * stdout; `--http [HOST:]PORT` serves Streamable HTTP on `/mcp` instead, and
 * `--token-file FILE` makes that endpoint require a bearer token;
 * `--max-connections N` and `--request-timeout SECONDS` change its connection
 * cap and its header and body timeout (defaults in `lib/limits.ts`). `--locked`
 * serves only what the project's lock allows (see `lib/locked.ts`); it
 * refuses to start without a valid lock.
 *
 * @example
 * ```ts
 * import { runMcp } from "./mcp.ts";
 * import { processIo } from "./io.ts";
 * // Type-checked, not run by the doc test: it serves on this process's stdin and stdout.
 * async function example() {
 *   await runMcp([], {}, "/repo", processIo()); // serves until stdin closes
 * }
 * ```
 * @module
 */
import { dirname, resolve } from "node:path";
import { type OptionValues, UsageError } from "./args.ts";
import { type Project, resolveProject } from "../lib/catalog/mod.ts";
import { KindError } from "../lib/errors.ts";
import { readProjectLock } from "../lib/lock/mod.ts";
import { readAllowedSigners } from "../lib/signers.ts";
import { readBoundedTextSync, ReadError } from "../lib/fs/mod.ts";
import { collectSources } from "../lib/sources/mod.ts";
import { cliConfig, stderrLog, untrustedNotice } from "./catalog.ts";
import { tildePath } from "./table.ts";
import { quote } from "./escape.ts";
import { type Io, PREFIX } from "./io.ts";
import { lockFileError } from "./lock.ts";
import { EXIT, mcpRunners } from "./program.ts";

/** What `mcp` says on stderr when a person starts it in a terminal (an MCP client never sees it). */
const TERMINAL_NOTE = `${PREFIX}serving MCP on stdin and stdout for an MCP client; ` +
  "nothing to type here. Stop it with Ctrl-D (end of input) or Ctrl-C\n";

/** The largest token file read (a token is a line, not a document). */
const MAX_TOKEN_FILE_BYTES = 4096;

/** A bearer token: visible ASCII without spaces (RFC 6750's token68 and then some). */
const TOKEN = /^[\x21-\x7e]+$/;

/** Where `--http` listens, and its limits. */
interface ListenAddress {
  host?: string;
  port: number;
  maxConnections?: number;
  requestTimeoutMs?: number;
}

/** The largest `--max-connections` and `--request-timeout` (seconds) taken. */
const MAX_CONNECTIONS = 65_536;
const MAX_TIMEOUT_SECONDS = 3600;

/** A whole number from 1 to `max` given to `--<option>`, or a usage error saying so. */
function wholeNumber(option: string, text: string, max: number): number {
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1 || Number(text) > max) {
    throw new UsageError(`--${option} ${quote(text)}: a whole number from 1 to ${max}`, "mcp");
  }
  return Number(text);
}

/** The limits of `--max-connections` and `--request-timeout`, each only when given. */
function httpLimits(
  values: OptionValues,
): Pick<ListenAddress, "maxConnections" | "requestTimeoutMs"> {
  const connections = values["max-connections"];
  const timeout = values["request-timeout"];
  return {
    ...connections === undefined
      ? {}
      : { maxConnections: wholeNumber("max-connections", connections, MAX_CONNECTIONS) },
    ...timeout === undefined
      ? {}
      : { requestTimeoutMs: 1000 * wholeNumber("request-timeout", timeout, MAX_TIMEOUT_SECONDS) },
  };
}

/**
 * Parses `--http [HOST:]PORT`: a port from 0 (any free one) to 65535, after an
 * optional host name or address (an IPv6 address in brackets: `[::1]:8080`).
 */
function listenAddress(text: string): ListenAddress {
  const colon = text.lastIndexOf(":");
  const host = colon < 0 ? undefined : text.slice(0, colon);
  const port = text.slice(colon + 1);
  const bad = (why: string) => new UsageError(`--http ${quote(text)}: ${why}`, "mcp");
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) {
    throw bad("the port must be a number from 0 to 65535 ([HOST:]PORT)");
  }
  if (host !== undefined && (host === "" || (host.includes(":") && !/^\[[^\]]+\]$/.test(host)))) {
    throw bad("give a host name or address before the colon (an IPv6 address in brackets)");
  }
  return { host, port: Number(port) };
}

/** The token of `--token-file`: read once, trimmed; unreadable, empty or spaced is a usage error. */
function readToken(path: string): string {
  let text: string;
  try {
    text = readBoundedTextSync(path, { maxBytes: MAX_TOKEN_FILE_BYTES, followSymlinks: true });
  } catch (error) {
    if (!(error instanceof ReadError)) throw error;
    throw new UsageError(`--token-file ${quote(path)}: ${error.message}`, "mcp");
  }
  const token = text.trim();
  if (token === "") throw new UsageError(`--token-file ${quote(path)}: the file is empty`, "mcp");
  if (!TOKEN.test(token)) {
    throw new UsageError(
      `--token-file ${quote(path)}: a token is one word of visible ASCII characters`,
      "mcp",
    );
  }
  return token;
}

/** Says once at start that the project's sources file waits for trust and is never synced. */
async function noteUntrusted(project: Project, io: Io): Promise<void> {
  const { mcpConfig } = await mcpRunners();
  const resolved = mcpConfig(MCP_CONFIG);
  const { untrusted } = await collectSources(resolved, project.root, () => {});
  if (untrusted !== undefined) io.err(untrustedNotice(untrusted, resolved.home));
}

/** With `--locked`: the project's lock file, which must exist and be valid now (exit 2 otherwise). */
async function lockedFile(project: Project): Promise<string> {
  const file = project.lockFile;
  const shown = tildePath(file, cliConfig().home);
  const read = await readProjectLock(file);
  if (read === undefined) throw lockFileError("no-lock", shown, { prefix: "--locked: " });
  if (!read.ok) {
    throw lockFileError("invalid-lock", shown, { why: read.message, prefix: "--locked: " });
  }
  const signers = read.lock.signers;
  const allowed = signers?.require ? await readAllowedSigners(dirname(file), signers) : undefined;
  if (allowed?.ok === false) {
    throw new KindError("bad-allowed-signers", `--locked: ${shown}: ${allowed.message}`);
  }
  return file;
}

/** The catalog settings of the served catalog: background sync on, no file watching. */
const MCP_CONFIG = { sync: true, watch: false };

/** Serves Streamable HTTP until SIGINT or SIGTERM, saying where on stderr. */
async function serveHttp(
  address: ListenAddress,
  token: string | undefined,
  lockFile: string | undefined,
  cwd: string,
  io: Io,
) {
  const { runHttp } = await mcpRunners();
  await runHttp({
    cwd,
    lockFile,
    config: MCP_CONFIG,
    log: stderrLog(io),
    ...address,
    token,
    onListening: (endpoint) => {
      io.err(`${PREFIX}serving MCP on ${endpoint.url}; stop it with Ctrl-C\n`);
      if (!endpoint.hostChecked && token === undefined) {
        io.err(
          `${PREFIX}listening on every interface without --token-file: ` +
            "anyone who can reach this port can read your skills\n",
        );
      }
    },
  });
}

/**
 * Runs the stdio server until stdin ends or SIGINT/SIGTERM, or with `--http`
 * the HTTP server until SIGINT/SIGTERM; exit 0. Started with stdin a terminal,
 * the stdio server first says on stderr what it is and how to stop it.
 *
 * @throws {UsageError} When the command line asks for something the command does not take.
 */
export async function runMcp(
  _positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  if (values["token-file"] !== undefined && values.http === undefined) {
    throw new UsageError("--token-file goes with --http (stdio needs no token)", "mcp");
  }
  for (const option of ["max-connections", "request-timeout"] as const) {
    if (values[option] !== undefined && values.http === undefined) {
      throw new UsageError(`--${option} goes with --http (stdio has one client)`, "mcp");
    }
  }
  const address = values.http === undefined
    ? undefined
    : { ...listenAddress(values.http), ...httpLimits(values) };
  const tokenFile = values["token-file"];
  const token = tokenFile === undefined ? undefined : readToken(resolve(cwd, tokenFile));
  const project = await resolveProject(cwd, cliConfig().home);
  const lockFile = values.locked === true ? await lockedFile(project) : undefined;
  if (address === undefined && io.inIsTty) io.err(TERMINAL_NOTE);
  await noteUntrusted(project, io);
  if (address !== undefined) await serveHttp(address, token, lockFile, cwd, io);
  else {
    const { runStdio } = await mcpRunners();
    await runStdio({ cwd, config: MCP_CONFIG, log: stderrLog(io), lockFile });
  }
  return EXIT.ok;
}
