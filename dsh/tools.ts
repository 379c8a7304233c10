/**
 * The Cordis plugin `skills-anywhere-tools` (`dsh-skills-anywhere/tools`):
 * model tools `find_skills` and `open_skill` over the whole dsh skill
 * registry. Author-disabled skills are never found and never opened; a skill
 * hidden only by the catalog budget can still be opened by name. Under the
 * provider's `locked: true`, `open_skill` says which lock allowed the skill
 * (`lock: {kind, file, sha256}`, and one line after the instructions). The search,
 * its limits, the openable rule and the refusals are the core's
 * (`lib/load/_find.ts`, shared with the MCP server); this module adds the dsh
 * registry, its catalog state and its words.
 *
 * @example
 * ```ts
 * import * as tools from "./tools.ts";
 * async function example(ctx: { plugin(plugin: unknown, config: unknown): Promise<unknown> }) {
 *   await ctx.plugin(tools, { findLimit: 5 });
 * }
 * ```
 * @module
 */
import { defineTool } from "@deepseek-ai/dsh-tools";
import { renderSkillContent } from "@deepseek-ai/dsh-skill";
import type { Failure } from "../lib/errors.ts";
import {
  type FindLimits,
  findLimits,
  findOpenable,
  findSkills,
  type Invocability,
  isOpenable,
  type OpenRefusalKind,
} from "../lib/load/mod.ts";
import { counted } from "../lib/text.ts";
import { readDshRecord } from "./record.ts";
import { ToolsConfig, type ToolsConfigValue } from "./config.ts";

/** The Cordis plugin name. */
export const name = "skills-anywhere-tools";
/**
 * The services the row needs to activate: only the skill registry. The tools
 * themselves are registered once dsh's tool runtime (`tools`) is there too, in
 * a child of the row, so a profile without a tool runtime still boots (dsh
 * refuses to start while a row stays pending) and simply offers no tools.
 */
export const inject = ["skills"];
/** The configuration schema. */
export const Config = ToolsConfig;

type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

interface SkillSummary {
  name: string;
  description: string;
  whenToUse?: string;
  invocation: { modelInvocable: boolean; userInvocable: boolean };
  source: string;
  provider: string;
  resourceBase?: unknown;
  metadata?: Record<string, unknown>;
}

interface SkillDefinition extends SkillSummary {
  content: string;
}

interface ToolsContext {
  skills: {
    list(options: { cwd?: string; signal?: AbortSignal; scope?: unknown }): Promise<SkillSummary[]>;
    get(
      name: string,
      options: { cwd?: string; signal?: AbortSignal; scope?: unknown },
    ): Promise<SkillDefinition | undefined>;
  };
  tools: { register(definition: unknown): () => void };
}

/** The row's own context: Cordis's `inject` starts a child once the services exist. */
interface PluginContext {
  inject(services: string[], apply: (ctx: ToolsContext) => void): unknown;
}

interface Exec {
  signal: AbortSignal;
  agent?: { session?: { header?: { cwd?: string } } };
}

function viewOptions(exec: Exec) {
  return { cwd: exec.agent?.session?.header?.cwd, signal: exec.signal, scope: exec.agent };
}

/**
 * The `skillsAnywhere` record of a skill, read only from this package's own provider (named
 * `provider`). Another provider's metadata is whatever its files say (dsh's filesystem provider
 * passes a SKILL.md's frontmatter `metadata` through), so a record there is the author's words,
 * never a catalog fact: it neither claims a lock nor opens an author-disabled skill.
 */
function recordOf(skill: SkillSummary, provider: string): ReturnType<typeof readDshRecord> {
  return skill.provider === provider ? readDshRecord(skill.metadata) : {};
}

/** A registry skill's facts for the core's openable rule. */
function invocability(skill: SkillSummary, provider: string): Invocability {
  const record = recordOf(skill, provider);
  return {
    modelInvocable: skill.invocation.modelInvocable,
    hiddenOnlyByBudget: record.catalog === "hidden" &&
      record.authorInvocation?.modelInvocable !== false,
  };
}

/** The core's openable rule over registry skills, trusting `provider`'s records alone. */
const openableBy = (provider: string) => (skill: SkillSummary) =>
  isOpenable(invocability(skill, provider));

/** Every refusal these tools answer with themselves: a name's, the catalog's and a query's. */
type ToolRefusalKind = OpenRefusalKind | "empty-query";

/**
 * The tools' words for each refusal kind, keyed by the kinds themselves (a kind the core adds
 * that is not worded here is a compile error); `message` is the core's. A lock's refusal comes
 * from the provider, in its words.
 */
const REFUSALS: Readonly<Record<ToolRefusalKind, (message: string) => string>> = {
  "invalid-name": (message) => message,
  unknown: (message) => `${message}; search with find_skills`,
  disabled: (message) => message,
  "empty-query": (message) => message,
};

/** A refusal in the words of these tools. */
function refusal(refused: Failure<ToolRefusalKind>): Error {
  return new Error(REFUSALS[refused.kind](refused.message));
}

const MATCH = {
  type: "object",
  additionalProperties: false,
  properties: {
    name: { type: "string" },
    description: { type: "string" },
    listed: { type: "boolean" },
    source: { type: "string" },
  },
} as const;

interface FindValue {
  total: number;
  unlisted: number;
  matches: Array<{ name: string; description: string; listed: boolean; source: string }>;
}

function renderFound(value: FindValue): string {
  const unlisted = `${value.unlisted} not in the catalog`;
  if (value.matches.length === 0) {
    return `No skills matched. ${
      counted(value.total, "skill")
    } searched (${unlisted}). Try different keywords.`;
  }
  return [
    `${value.matches.length} of ${counted(value.total, "skill")} matched (${unlisted}):`,
    ...value.matches.map((m) =>
      `- ${m.name}${m.listed ? "" : " (not in catalog: load with open_skill)"} — ${m.description}`
    ),
  ].join("\n");
}

/**
 * Searches the whole registry, bodies included (each skill's content, loaded through the
 * registry once per search). Its summaries carry no metadata (a budget-hidden skill looks
 * like an author-disabled one) and may predate an edit, so each skill is judged by its load,
 * the way open_skill judges it: find lists what open_skill opens, and nothing else, and the
 * counts it gives (`total` searched, `unlisted` of them) leave author-disabled skills out.
 */
async function find(
  ctx: ToolsContext,
  limits: FindLimits,
  provider: string,
  args: { query: string; limit?: number },
  exec: Exec,
): Promise<FindValue> {
  const view = viewOptions(exec);
  const loads = new Map<string, Promise<SkillDefinition | undefined>>();
  const load = (skill: SkillSummary) => {
    let loading = loads.get(skill.name);
    if (loading === undefined) {
      loading = ctx.skills.get(skill.name, view).catch((error) => {
        if (view.signal.aborted) throw error;
        return undefined; // unreadable now: not something open_skill would serve
      });
      loads.set(skill.name, loading);
    }
    return loading;
  };
  const confirmed = async (skill: SkillSummary) => {
    const loaded = await load(skill);
    return loaded !== undefined && openableBy(provider)(loaded);
  };
  const all = await ctx.skills.list(view);
  const searchable: SkillSummary[] = [];
  for (const skill of all) if (await confirmed(skill)) searchable.push(skill);
  const body = async (skill: SkillSummary) => (await load(skill))?.content;
  const found = await findSkills(searchable, args, { limits, body });
  if (!found.ok) throw refusal(found);
  return {
    // dsh's documented `total` is the number of skills searched (find.ts now counts matches).
    total: searchable.length,
    unlisted: searchable.filter((s) => !s.invocation.modelInvocable).length,
    matches: found.matches.map(({ skill }) => ({
      name: skill.name,
      description: skill.description,
      listed: skill.invocation.modelInvocable,
      source: skill.source,
    })),
  };
}

function registerFind(ctx: ToolsContext, limits: FindLimits, provider: string): void {
  ctx.tools.register(defineTool({
    name: "find_skills",
    description:
      "Search every available skill by keywords, including skills not listed in the catalog. Returns exact names for open_skill.",
    parameters: {
      query: { type: "string", required: true, description: "keywords" },
      limit: { type: "number", description: `at most this many (default ${limits.defaultLimit})` },
    },
    output: {
      schema: {
        type: "object",
        additionalProperties: false,
        properties: {
          total: { type: "number" },
          unlisted: { type: "number" },
          matches: { type: "array", items: MATCH },
        },
      },
      render: (_args, value) => [{ type: "text", text: renderFound(value as FindValue) }],
    },
    presentCall: (args) => ({
      card: "generic",
      title: `Find skills: ${(args as { query: string }).query}`,
      kind: "search",
    }),
    isConcurrencySafe: () => true,
    execute: (args, exec) =>
      find(
        ctx,
        limits,
        provider,
        args as { query: string; limit?: number },
        exec as unknown as Exec,
      ),
  }));
}

async function open(ctx: ToolsContext, provider: string, name: string, exec: Exec) {
  const view = viewOptions(exec);
  const found = await findOpenable(name, (n) => ctx.skills.get(n, view), openableBy(provider));
  if (!found.ok) throw refusal(found);
  const skill = found.skill;
  const lock = recordOf(skill, provider).lock;
  const base = {
    name: skill.name,
    provider: skill.provider,
    content: skill.content,
    // Under locked: true, the lock that allowed this load, as an MCP receipt names it.
    ...(lock === undefined ? {} : { lock: { ...lock } }),
  };
  return skill.resourceBase === undefined
    ? base
    : { ...base, resourceBase: JSON.parse(JSON.stringify(skill.resourceBase)) as JsonValue };
}

/** The lock an opened skill is served under, as `open` returns it. */
type OpenedLock = NonNullable<ReturnType<typeof readDshRecord>["lock"]>;

const LOCK_WORDS: Readonly<Record<OpenedLock["kind"], string>> = {
  project: "the project's lock",
  user: "your user lock",
};

/**
 * The text the model reads: dsh's own rendering of the skill, then, when a lock allowed it, one
 * line saying which lock (the file's SHA-256 is in the structured value).
 */
function renderOpened(value: { lock?: OpenedLock }): string {
  const content = renderSkillContent(value as never);
  if (value.lock === undefined) return content;
  return `${content}\nServed under ${LOCK_WORDS[value.lock.kind]} (skills-anywhere locked).`;
}

function registerOpen(ctx: ToolsContext, provider: string): void {
  ctx.tools.register(defineTool({
    name: "open_skill",
    description:
      "Load one skill's instructions by its exact name (as returned by find_skills), including skills not listed in the catalog.",
    parameters: { name: { type: "string", required: true, description: "exact skill name" } },
    output: {
      schema: {
        type: "object",
        additionalProperties: true,
        properties: {
          name: { type: "string" },
          provider: { type: "string" },
          resourceBase: { type: "json" },
          content: { type: "string" },
          lock: {
            type: "object",
            additionalProperties: false,
            properties: {
              kind: { type: "string" },
              file: { type: "string" },
              sha256: { type: "string" },
            },
          },
        },
      },
      render: (_args, value) => [{ type: "text", text: renderOpened(value as never) }],
    },
    presentCall: (args) => ({
      card: "generic",
      title: `Open skill ${(args as { name: string }).name}`,
      kind: "read",
    }),
    isConcurrencySafe: () => true,
    execute: (args, exec) =>
      open(ctx, provider, (args as { name: string }).name, exec as unknown as Exec),
  }));
}

/**
 * Registers the tools the configuration enables, as soon as (and whenever)
 * dsh's tool runtime is there.
 *
 * @example
 * ```ts
 * import { apply } from "./tools.ts";
 * function example(ctx: Parameters<typeof apply>[0]) {
 *   apply(ctx, { findLimit: 10, findMaxLimit: 50, find: true, open: true, provider: "skills-anywhere" });
 * }
 * ```
 */
export function apply(ctx: PluginContext, config: ToolsConfigValue): void {
  ctx.inject(["skills", "tools"], (inner) => {
    const limits = findLimits(config.findLimit, config.findMaxLimit);
    if (config.find) registerFind(inner, limits, config.provider);
    if (config.open) registerOpen(inner, config.provider);
  });
}
