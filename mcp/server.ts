/**
 * The MCP server: tools `list_skills`, `find_skills`, `open_skill` and the
 * Skills extension (SEP-2640: `skills/list`, `skills/get`, every file of a
 * skill as a `skill://…` resource; see `skills.ts`), with
 * `notifications/resources/list_changed` when the catalog changes, built by
 * a factory over a shared catalog so
 * tests can connect it to any transport. Each tool's schemas sit beside its
 * handler; failures are `isError` results that never contain instructions.
 * Malformed params are -32602 on every method (`./protocol.ts`). The tools
 * serve what the Skills extension serves (one verdict, `./skills.ts`). For a
 * remote client (`remote: true`, Streamable HTTP) the tool output names
 * `skill://` URIs and never a path on this machine; stdio keeps the paths.
 *
 * @example
 * ```ts
 * import { createSkillsAnywhereServer } from "./server.ts";
 * const { server } = createSkillsAnywhereServer({ cwd: "/repo" });
 * ```
 * @module
 */
import { fromJsonSchema, type JsonSchemaType, McpServer } from "@modelcontextprotocol/server";
import { statSync } from "node:fs";
import process from "node:process";
import { setTimeout as later } from "node:timers";
import * as z from "zod";
import { type RawConfig, resolveConfig, type ResolvedConfig } from "../lib/catalog/mod.ts";
import type { DiscoveredSkill } from "../lib/catalog/mod.ts";
import { type Origin, originLabel } from "../lib/catalog/mod.ts";
import { type SearchableSkill, SearchIndex } from "../lib/catalog/mod.ts";
import { sha256Hex } from "../lib/hash.ts";
import { type Failure, failure } from "../lib/errors.ts";
import {
  type FindLimits,
  findLimits,
  findOpenable,
  findSkills,
  freshBody,
  type OpenRefusalKind,
} from "../lib/load/mod.ts";
import {
  type LoadedSkill,
  type LoadFailureKind,
  type OpenOptions,
  openSkill,
} from "../lib/load/mod.ts";
import type { RenderWords } from "../lib/load/mod.ts";
import { LockGate, type LockRefusalKind, openLocked } from "../lib/locked.ts";
import { userLockPath } from "../lib/lock/mod.ts";
import { LOADED_SKILL_SCHEMA } from "../lib/load/mod.ts";
import type { Log } from "../lib/util.ts";
import { TOOL_NAME, VERSION } from "../lib/version.ts";
import { ServedCatalog } from "./catalog.ts";
import { guardParams } from "./protocol.ts";
import { attachSkills, lockRefusal, servedOnly, skillVerdict } from "./skills.ts";

/** The MCP surface's prefix on each diagnostic line; the core's messages carry none. */
const LOG_PREFIX = `${TOOL_NAME}: `;

/**
 * The server's default diagnostics sink: one line on stderr per message, with
 * the MCP surface's prefix added here and nowhere else (stdout carries only MCP).
 *
 * @example
 * ```ts
 * import { stderrLog } from "./server.ts";
 * stderrLog("warn", "background sync failed: offline"); // dsh-skills-anywhere: background sync failed: offline
 * ```
 */
export const stderrLog: Log = (_level, message) => {
  process.stderr.write(`${LOG_PREFIX}${message}\n`);
};

/** Options of {@linkcode createSkillsAnywhereServer}. */
export interface SkillsAnywhereServerOptions {
  /**
   * Working directory (project selection).
   *
   * @default the process cwd
   */
  cwd?: string;
  /** Raw configuration (shared `.agents` folders default on), or an already resolved one. */
  config?: RawConfig | ResolvedConfig;
  /**
   * Diagnostics sink, adding its own prefix.
   *
   * @default {stderrLog}
   */
  log?: Log;
  /**
   * Polling interval of the catalog's fallback in ms (see lib/catalog/_live.ts).
   *
   * @default {2000}
   */
  cacheMs?: number;
  /**
   * Default `find_skills` limit.
   *
   * @default {10}
   */
  findLimit?: number;
  /**
   * Largest `limit` accepted.
   *
   * @default {200}
   */
  maxLimit?: number;
  /** Serve only what the project lock at this path allows (`mcp --locked`); ignored with `catalog`. */
  lockFile?: string;
  /** Reuse a catalog (one per process; servers come and go with connections). */
  catalog?: ServedCatalog;
  /**
   * The client is remote (Streamable HTTP): tool output names each skill's `skill://` URIs and
   * never a path on this machine (default `false`: local clients get the paths they open).
   *
   * @default {false}
   */
  remote?: boolean;
}

/** What the factory returns. */
export interface SkillsAnywhereServer {
  server: McpServer;
  catalog: ServedCatalog;
}

/** The server's instructions to the model. */
export const SERVER_INSTRUCTIONS =
  "This server exposes the Agent Skills installed for every coding agent on this machine, plus configured Git sources, as one catalog. " +
  "Call find_skills with a few keywords, then open_skill with the exact name it returns to load the instructions. " +
  "Resolve scripts and files relative to the returned base directory, and only when a step needs them.";

/** The instructions to a remote client's model: the files are `skill://` resources. */
const REMOTE_INSTRUCTIONS = SERVER_INSTRUCTIONS.replace(
  "relative to the returned base directory",
  "as the skill:// resources open_skill names (resources/read)",
);

function isResolved(config: RawConfig | ResolvedConfig): config is ResolvedConfig {
  return typeof (config as ResolvedConfig).stateDir === "string";
}

/** Resolves MCP configuration: shared `.agents` folders on, no watching. */
export function mcpConfig(config: RawConfig | ResolvedConfig = {}): ResolvedConfig {
  return isResolved(config) ? config : resolveConfig({ sharedDirs: true, ...config });
}

/** What every tool and resource handler shares. */
interface ServerContext {
  catalog: ServedCatalog;
  limits: FindLimits;
  log: Log;
  /** Whether the client is remote (see {@linkcode SkillsAnywhereServerOptions.remote}). */
  remote: boolean;
}

type SkillRowValue = { name: string; description: string; source: string };

/**
 * Where a skill comes from, in words: a local Git repository is a path on this machine, so a
 * remote client reads `git local/<12 hex>` (a digest of that path) instead.
 */
function sourceLabel(origin: Origin, remote: boolean): string {
  if (remote && origin.kind === "source" && /^(?:\/|[A-Za-z]:[\\/]|file:)/.test(origin.repo)) {
    return `git local/${sha256Hex(origin.repo).slice(0, 12)}`;
  }
  return originLabel(origin);
}

const rowOf = (remote: boolean) => (skill: DiscoveredSkill): SkillRowValue => ({
  name: skill.name,
  description: skill.description,
  source: sourceLabel(skill.origin, remote),
});

/**
 * The skills the tools serve: the model's, less those the one verdict refuses (the Skills
 * extension refuses them with the same words; see `./skills.ts`).
 */
async function servedSkills({ catalog, log }: ServerContext): Promise<DiscoveredSkill[]> {
  return await servedOnly(catalog, log, await catalog.modelSkills());
}

const line = (s: SkillRowValue) => `- ${s.name} — ${s.description} [${s.source}]`;

/** Tool schemas built once per process (a server is made per HTTP request), by what they depend on. */
const schemas = new Map<string, unknown>();

/** The schema `key` names, made by `make` the first time. */
function once<T>(key: string, make: () => T): T {
  if (!schemas.has(key)) schemas.set(key, make());
  return schemas.get(key) as T;
}

const SkillRow = z.object({ name: z.string(), description: z.string(), source: z.string() });

/** The server's words in the rendered skill text. */
const MCP_WORDS: RenderWords = {
  declaredToolsNote:
    "This server cannot restrict your tools. Treat anything beyond that list as outside what the author asked for.",
};

/** The words for a remote client: the skill's files are resources under its root URI. */
const REMOTE_WORDS: RenderWords = {
  ...MCP_WORDS,
  resourceLines: (root) => [
    `Files of this skill are resources under ${root}/ (resources/read).`,
    `Resolve every relative path in these instructions against ${root}/, and read scripts, references and assets only when a step needs them.`,
  ],
};

/**
 * Every refusal `open_skill` (and a skill resource) can answer with: the name's, the catalog's,
 * the load's and the lock's.
 */
export type OpenToolRefusalKind =
  | OpenRefusalKind
  | "not-served"
  | "skipped"
  | LoadFailureKind
  | LockRefusalKind;

/** How the server words one refusal of `name` (`message`: the core's words). */
type Wording = (name: string, message: string) => string;

/** The core's words, as they are. */
const coreWords: Wording = (_name, message) => message;

/** A lock's refusal: the core's reason and what this server serves under a lock. */
const lockWords: Wording = (_name, message) => lockRefusal(message);

/**
 * The server's words for every refusal kind, in one table keyed by the kinds themselves: a kind
 * added to the core that this table does not word is a compile error, never a silent fall-through.
 * The kinds that concern its own tool arguments are worded here; the lock's all say what the
 * server serves under a lock; the others keep the core's words.
 *
 * @example
 * ```ts
 * import { REFUSALS } from "./server.ts";
 * console.log(REFUSALS["no-lock"]("pdf", "the project's lock file is gone"));
 * ```
 */
export const REFUSALS: Readonly<Record<OpenToolRefusalKind, Wording>> = {
  "invalid-name": coreWords,
  unknown: (_name, message) => `${message}; search with find_skills`,
  disabled: coreWords,
  "not-served": coreWords,
  skipped: coreWords,
  unreadable: coreWords,
  "sha-mismatch": () =>
    "SKILL.md changed: expected_sha256 does not match; review the current file before loading instructions",
  "bundle-mismatch": () =>
    "Skill bundle changed: expected_bundle_sha256 does not match; review scripts and resources before loading instructions",
  "bundle-invalid": coreWords,
  "not-git": (name) =>
    `skill "${name}" is not from a Git source; expected_source_commit cannot be checked`,
  "commit-unproven": coreWords,
  "commit-mismatch": coreWords,
  "not-locked": lockWords,
  changed: lockWords,
  moved: lockWords,
  unbundlable: lockWords,
  "no-lock": lockWords,
  "invalid-lock": lockWords,
  unsigned: lockWords,
  "bad-signature": lockWords,
  "bad-allowed-signers": lockWords,
};

function refusalText(name: string, refused: Failure<OpenToolRefusalKind>): string {
  return REFUSALS[refused.kind](name, refused.message);
}

function toolError(message: string) {
  return { content: [{ type: "text" as const, text: message }], isError: true };
}

const modelInvocable = (skill: DiscoveredSkill) => skill.invocation.modelInvocable;

/**
 * Opens `name` for a model: the catalog's refusals first, then the load's. A
 * file that cannot be read now is logged with its reason (`asked` names the
 * request: `open_skill` or the resource URI); the model sees only the refusal.
 */
async function openForModel(
  context: ServerContext,
  name: string,
  asked: string,
  options: Omit<OpenOptions, "lenient" | "words" | "warn"> = {},
): Promise<{ ok: true; skill: LoadedSkill } | Failure<OpenToolRefusalKind>> {
  const found = await findOpenable(name, (n) => context.catalog.lookup(n), modelInvocable);
  if (!found.ok && found.kind === "unknown") return await skippedOr(context, name, asked, found);
  if (!found.ok) return found;
  // The one verdict: a skill the Skills extension refuses is refused here in the same words.
  const verdict = await skillVerdict(context.catalog, context.log, found.skill);
  if (verdict?.ok === false) {
    return failure(
      "not-served",
      `skill "${found.skill.name}" is not offered as an MCP skill: ${verdict.message}; doctor lists it`,
    );
  }
  const root = verdict?.ok ? verdict.root : undefined;
  const open = {
    ...options,
    lenient: context.catalog.config.lenient,
    words: context.remote ? REMOTE_WORDS : MCP_WORDS,
    warn: (message: string) => context.log("warn", `${asked}: ${message}`),
    location: context.remote ? remoteLocation(found.skill, root) : undefined,
  };
  const lock = context.catalog.lock;
  return lock === undefined
    ? await openSkill(found.skill, open)
    : await openLocked(lock, found.skill, open);
}

/**
 * Where a remote client finds `skill`: its root URI and `SKILL.md` under it; a skill the offer
 * says nothing of (no offer under a broken lock) is named by a `skill://` URI of its name, never
 * by its path.
 */
function remoteLocation(skill: DiscoveredSkill, root: string | undefined) {
  const directory = root ?? `skill://${encodeURIComponent(skill.name)}`;
  return { directory, path: `${directory}/SKILL.md` };
}

/**
 * A name whose file discovery skipped (too large, not UTF-8, a refused link, …) is refused as
 * such, with the reason in the server's log; the model sees only fixed words and the kind.
 */
async function skippedOr(
  context: ServerContext,
  name: string,
  asked: string,
  unknown: Failure<OpenRefusalKind>,
): Promise<Failure<OpenRefusalKind | "skipped">> {
  const skipped = await context.catalog.skipped(name);
  if (skipped === undefined) return unknown;
  context.log("warn", `${asked}: ${skipped.path}: ${skipped.reason}`);
  return failure(
    "skipped",
    `skill "${name}" is not served: its file was skipped (${skipped.kind}); the server's log says why`,
  );
}

function registerListSkills(server: McpServer, context: ServerContext): void {
  const { limits } = context;
  const row = rowOf(context.remote);
  server.registerTool("list_skills", {
    title: "List skills",
    description:
      "List the skills available to you (name, description, where it comes from), one page at a time.",
    inputSchema: once(`list_skills in ${limits.maxLimit}`, () =>
      z.object({
        limit: z.number().int().min(1).max(limits.maxLimit).optional().describe("page size"),
        offset: z.number().int().min(0).optional().describe("skills to skip"),
      })),
    outputSchema: once(
      "list_skills out",
      () => z.object({ total: z.number(), skills: z.array(SkillRow) }),
    ),
  }, async ({ limit, offset }) => {
    const skills = await servedSkills(context);
    const start = offset ?? 0;
    const page = skills.slice(start, start + (limit ?? limits.maxLimit)).map(row);
    const text = skills.length === 0
      ? "No skills found. Add a git source with `dsh-skills-anywhere add owner/repo` or install skills for any supported agent."
      : [`${page.length} of ${skills.length} skills:`, ...page.map(line)].join("\n");
    return {
      content: [{ type: "text" as const, text }],
      structuredContent: { total: skills.length, skills: page },
    };
  });
}

/** One search index per catalog, shared by every server over it (see {@linkcode searchIndexOf}). */
const searchIndexes = new WeakMap<ServedCatalog, SearchIndex<DiscoveredSkill>>();

/**
 * The catalog's search index over the skills it serves (`servedSkills`: the one verdict applies):
 * created with the first server over the catalog, which starts indexing the first report in the
 * background (a turn for requests every 500 skills), and brought
 * up to date after each change the catalog announces; a search indexes what is still missing.
 * Only skills new to the index (new objects: changed or added) have their SKILL.md read.
 */
function searchIndexOf(context: ServerContext): SearchIndex<DiscoveredSkill> {
  const { catalog } = context;
  let index = searchIndexes.get(catalog);
  if (index !== undefined) return index;
  const made = index = new SearchIndex<DiscoveredSkill>();
  searchIndexes.set(catalog, made);
  const build = () => {
    // Nobody waits for it: it keeps no process alive, and a failure shows in the next request.
    servedSkills(context)
      .then((skills) =>
        made.updateAsync(skills, bodyReader(catalog), {
          turn: () => new Promise<void>((resolve) => void later(resolve, 0).unref()),
          key: versionOf,
          // A turn every 100 skills: an update or a push waits at most ~0.1 s behind the first build.
          yieldEvery: 100,
        })
      )
      .catch(() => {});
  };
  build();
  catalog.onChange(build);
  return made;
}

/**
 * A skill's version for the index, for a catalog that hands over new objects for unchanged
 * skills: what the ranker reads of it and its SKILL.md's identity, size and times (`undefined`
 * when the file cannot be seen: then it is read).
 */
function versionOf(skill: DiscoveredSkill): string | undefined {
  try {
    const file = statSync(skill.path);
    const { name, description, whenToUse, source, provider } = skill as SearchableSkill;
    return JSON.stringify([
      skill.path,
      skill.confineTo ?? null,
      name,
      description,
      whenToUse ?? null,
      source ?? null,
      provider ?? null,
      file.dev,
      file.ino,
      file.size,
      file.mtimeMs,
      file.ctimeMs,
    ]);
  } catch {
    return undefined;
  }
}

/** Each skill's instructions as its file says now (read once per skill new to the index). */
function bodyReader(catalog: ServedCatalog): (skill: DiscoveredSkill) => string | undefined {
  return (skill) => freshBody(skill, catalog.config.lenient);
}

function registerFindSkills(server: McpServer, context: ServerContext): void {
  const { catalog, limits } = context;
  const row = rowOf(context.remote);
  const index = searchIndexOf(context);
  server.registerTool("find_skills", {
    title: "Find skills",
    description:
      "Search the skills by keywords (names and descriptions first, then the instructions); returns the best matches with their exact names for open_skill.",
    inputSchema: once(`find_skills in ${limits.defaultLimit} ${limits.maxLimit}`, () =>
      z.object({
        query: z.string().min(1).describe("keywords"),
        limit: z.number().int().min(1).max(limits.maxLimit).optional().describe(
          `at most this many (default ${limits.defaultLimit})`,
        ),
      })),
    outputSchema: once(
      "find_skills out",
      () => z.object({ total: z.number(), matches: z.array(SkillRow) }),
    ),
  }, async ({ query, limit }) => {
    const skills = await servedSkills(context);
    const body = bodyReader(catalog);
    await index.updateAsync(skills, body, { key: versionOf });
    const found = await findSkills(skills, { query, limit }, { limits, body, index });
    if (!found.ok) return toolError(found.message);
    const total = found.total;
    const matches = found.matches.map((m) => row(m.skill));
    const text = matches.length === 0
      ? `No skills matched "${query.trim()}". ${skills.length} skills searched; try different keywords or list_skills.`
      : [`${matches.length} of ${total} skills matched:`, ...matches.map(line)].join("\n");
    return { content: [{ type: "text" as const, text }], structuredContent: { total, matches } };
  });
}

const HEX64 = z.string().regex(/^[0-9a-f]{64}$/, "must be 64 lowercase hex characters");

/** The loaded skill's facts, as the core defines them; the rendered text is the content. */
const LoadedSkillOutput = fromJsonSchema<Omit<LoadedSkill, "text">>(
  LOADED_SKILL_SCHEMA as unknown as JsonSchemaType,
);

function registerOpenSkill(server: McpServer, context: ServerContext): void {
  server.registerTool("open_skill", {
    title: "Open skill",
    description:
      "Load one skill's instructions by its exact name. Pin what a reviewer approved with expected_sha256 (SKILL.md) or expected_bundle_sha256 (the whole directory).",
    inputSchema: once("open_skill in", () =>
      z.object({
        name: z.string().min(1).describe("the exact published skill name"),
        expected_sha256: HEX64.optional().describe(
          "refuse unless SKILL.md's bytes have this SHA-256",
        ),
        include_bundle: z.boolean().optional().describe(
          "also return the directory's bundle manifest",
        ),
        expected_bundle_sha256: HEX64.optional().describe(
          "refuse unless the skill directory's bundle digest is this",
        ),
        expected_source_commit: z.string().regex(
          /^[0-9a-f]{40}$/,
          "expected_source_commit must be a full 40-character lowercase Git commit",
        ).optional().describe("refuse unless the skill's Git source checkout is at this commit"),
      })),
    outputSchema: LoadedSkillOutput,
  }, async (args) => {
    const { catalog, log } = context;
    const result = await openForModel(context, args.name, `open_skill "${args.name}"`, {
      includeBundle: args.include_bundle,
      expectedSha256: args.expected_sha256,
      expectedBundleSha256: args.expected_bundle_sha256,
      expectedSourceCommit: args.expected_source_commit,
      sourceCommit: {
        cacheDir: catalog.config.cacheDir,
        warn: (message) => log("warn", message),
      },
    });
    if (!result.ok) return toolError(refusalText(args.name, result));
    const { text, ...structured } = result.skill;
    return { content: [{ type: "text" as const, text }], structuredContent: structured };
  });
}

/**
 * Sends `notifications/resources/list_changed` to `server` whenever a rescan changes what the
 * catalog lists, until the server closes (a server that is gone is never kept alive for it).
 */
function announceChanges(server: McpServer, catalog: ServedCatalog): void {
  const ref = new WeakRef(server);
  const off = catalog.onChange(() => {
    const live = ref.deref();
    if (live === undefined) return void off();
    if (live.isConnected()) live.sendResourceListChanged();
  });
  const previous = server.server.onclose;
  server.server.onclose = () => {
    off();
    previous?.();
  };
}

/**
 * Builds one MCP server over the catalog of `options.cwd`: each tool registered
 * by its own function, schemas beside handlers, and the Skills extension attached.
 *
 * @example
 * ```ts
 * import { createSkillsAnywhereServer } from "./server.ts";
 * const { server, catalog } = createSkillsAnywhereServer({ config: { agents: true } });
 * console.log(server.isConnected(), catalog.config.lenient);
 * ```
 */
export function createSkillsAnywhereServer(
  options: SkillsAnywhereServerOptions = {},
): SkillsAnywhereServer {
  const log = options.log ?? stderrLog;
  const config = mcpConfig(options.config);
  const catalog = options.catalog ??
    new ServedCatalog(config, {
      cwd: options.cwd ?? process.cwd(),
      log,
      cacheMs: options.cacheMs,
      lock: options.lockFile === undefined
        ? undefined
        : new LockGate(options.lockFile, { user: userLockPath(config.stateDir) }),
    });
  const server = new McpServer(
    { name: TOOL_NAME, version: VERSION },
    { instructions: options.remote === true ? REMOTE_INSTRUCTIONS : SERVER_INSTRUCTIONS },
  );
  // Malformed params are -32602 on every method registered from here on (see ./protocol.ts); the
  // capabilities come after, as given in the constructor they would register handlers before it.
  guardParams(server);
  // Tools never change while the server runs: no tools.listChanged is advertised.
  server.server.registerCapabilities({
    tools: { listChanged: false },
    resources: { listChanged: true },
  });
  const context = {
    catalog,
    limits: findLimits(options.findLimit, options.maxLimit),
    log,
    remote: options.remote === true,
  };
  registerListSkills(server, context);
  registerFindSkills(server, context);
  registerOpenSkill(server, context);
  // SEP-2640: skills/list, skills/get, resources/directory/read and one resource per file;
  // resources/list in pages.
  attachSkills(server, catalog, log);
  announceChanges(server, catalog);
  return { server, catalog };
}
