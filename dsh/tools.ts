/**
 * The Cordis plugin `skills-anywhere-tools` (`dsh-skills-anywhere/tools`):
 * model tools `find_skills` and `open_skill` over the whole dsh skill
 * registry. Author-disabled skills are never found and never opened; a skill
 * hidden only by the catalog budget can still be opened by name.
 *
 * @example
 * ```ts
 * import * as tools from "./tools.ts";
 * await ctx.plugin(tools, { findLimit: 5 });
 * ```
 * @module
 */
import { defineTool } from "@deepseek-ai/dsh-tools";
import { renderSkillContent } from "@deepseek-ai/dsh-skill";
import { searchSkills } from "../lib/catalog/search.ts";
import { isSkillName } from "../lib/skill/names.ts";
import { ToolsConfig, type ToolsConfigValue } from "./config.ts";

/** The Cordis plugin name. */
export const name = "skills-anywhere-tools";
/** The services the plugin needs. */
export const inject = ["skills", "tools"];
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

interface Exec {
  signal: AbortSignal;
  agent?: { session?: { header?: { cwd?: string } } };
}

function viewOptions(exec: Exec) {
  return { cwd: exec.agent?.session?.header?.cwd, signal: exec.signal, scope: exec.agent };
}

/** Openable: the model may invoke it, or only the budget hid it (not its author). */
export function isOpenable(skill: SkillSummary): boolean {
  if (skill.invocation.modelInvocable) return true;
  const meta = skill.metadata?.skillsAnywhere as
    | { catalog?: string; authorInvocation?: { modelInvocable?: boolean } }
    | undefined;
  return meta?.catalog === "hidden" && meta.authorInvocation?.modelInvocable !== false;
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

/** Registers the tools the configuration enables. */
export function apply(ctx: ToolsContext, config: ToolsConfigValue): void {
  const findLimit = Math.max(1, Math.floor(config.findLimit));
  const findMaxLimit = Math.max(findLimit, Math.floor(config.findMaxLimit));
  if (config.find) {
    ctx.tools.register(defineTool({
      name: "find_skills",
      description:
        "Search every available skill by keywords, including skills not listed in the catalog. Returns exact names for open_skill.",
      parameters: {
        query: { type: "string", required: true, description: "keywords" },
        limit: { type: "number", description: `at most this many (default ${findLimit})` },
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
        render(_args, value) {
          const v = value as {
            total: number;
            unlisted: number;
            matches: Array<{ name: string; description: string; listed: boolean }>;
          };
          const text = v.matches.length === 0
            ? `No skills matched. ${v.total} skills searched (${v.unlisted} not in the catalog). Try different keywords.`
            : [
              `${v.matches.length} of ${v.total} skills matched (${v.unlisted} searched skills are not in the catalog):`,
              ...v.matches.map((m) =>
                `- ${m.name}${
                  m.listed ? "" : " (not in catalog: load with open_skill)"
                } — ${m.description}`
              ),
            ].join("\n");
          return [{ type: "text", text }];
        },
      },
      presentCall: (args) => ({
        card: "generic",
        title: `Find skills: ${(args as { query: string }).query}`,
        kind: "search",
      }),
      isConcurrencySafe: () => true,
      async execute(args, exec) {
        const { query, limit } = args as { query: string; limit?: number };
        const trimmed = query.trim();
        if (trimmed === "") throw new Error("query must not be empty");
        const view = viewOptions(exec as unknown as Exec);
        const all = await ctx.skills.list(view);
        const bounded = Math.min(findMaxLimit, Math.max(1, Math.floor(limit ?? findLimit)));
        // The registry's summaries carry no metadata (a budget-hidden skill looks like an
        // author-disabled one) and may predate an edit, so each match is confirmed by loading
        // it the way open_skill does: find lists what open_skill opens, and nothing else.
        const matches: Array<
          { name: string; description: string; listed: boolean; source: string }
        > = [];
        for (const { skill } of searchSkills(all, trimmed, all.length)) {
          if (matches.length >= bounded) break;
          const loaded = await ctx.skills.get(skill.name, view).catch((error) => {
            if (view.signal.aborted) throw error;
            return undefined; // unreadable now: not something open_skill would serve
          });
          if (loaded === undefined || !isOpenable(loaded)) continue;
          matches.push({
            name: skill.name,
            description: skill.description,
            listed: skill.invocation.modelInvocable,
            source: skill.source,
          });
        }
        return {
          total: all.length,
          unlisted: all.filter((s) => !s.invocation.modelInvocable).length,
          matches,
        };
      },
    }));
  }
  if (config.open) {
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
          },
        },
        render(_args, value) {
          return [{ type: "text", text: renderSkillContent(value as never) }];
        },
      },
      presentCall: (args) => ({
        card: "generic",
        title: `Open skill ${(args as { name: string }).name}`,
        kind: "read",
      }),
      isConcurrencySafe: () => true,
      async execute(args, exec) {
        const { name } = args as { name: string };
        if (!isSkillName(name)) throw new Error(`invalid skill name "${name}"`);
        const skill = await ctx.skills.get(name, viewOptions(exec as unknown as Exec));
        if (skill === undefined) {
          throw new Error(
            `skill "${name}" is unknown or no longer available; search with find_skills`,
          );
        }
        if (!isOpenable(skill)) {
          throw new Error(`skill "${name}" is not available for model invocation`);
        }
        const base = { name: skill.name, provider: skill.provider, content: skill.content };
        return skill.resourceBase === undefined
          ? base
          : { ...base, resourceBase: JSON.parse(JSON.stringify(skill.resourceBase)) as JsonValue };
      },
    }));
  }
}
