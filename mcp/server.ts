/**
 * The MCP server: tools `list_skills`, `find_skills`, `open_skill` and the
 * `skill://{name}` resources, built by a factory over a shared catalog so
 * tests can connect it to any transport. Each tool's schemas sit beside its
 * handler; failures are `isError` results that never contain instructions.
 *
 * @example
 * ```ts
 * import { createSkillsAnywhereServer } from "./server.ts";
 * const { server } = createSkillsAnywhereServer({ cwd: "/repo" });
 * ```
 * @module
 */
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/server";
import process from "node:process";
import * as z from "zod";
import { type RawConfig, resolveConfig, type ResolvedConfig } from "../lib/catalog/config.ts";
import type { DiscoveredSkill, Log } from "../lib/catalog/discover.ts";
import { originLabel } from "../lib/catalog/origin.ts";
import { searchSkills } from "../lib/catalog/search.ts";
import { disabledMessage, openSkill } from "../lib/load/mod.ts";
import { isSkillName } from "../lib/skill/names.ts";
import { TOOL_NAME, VERSION } from "../lib/version.ts";
import { ServedCatalog } from "./catalog.ts";

/** Options of {@linkcode createSkillsAnywhereServer}. */
export interface SkillsAnywhereServerOptions {
  /** Working directory (project selection); default the process cwd. */
  cwd?: string;
  /** Raw configuration (shared `.agents` folders default on), or an already resolved one. */
  config?: RawConfig | ResolvedConfig;
  /** Diagnostics sink (stderr in the CLI). */
  log?: Log;
  /** Catalog freshness in milliseconds (default 3000). */
  cacheMs?: number;
  /** Default `find_skills` limit (default 10). */
  findLimit?: number;
  /** Largest `limit` accepted (default 200). */
  maxLimit?: number;
  /** Reuse a catalog (one per process; servers come and go with connections). */
  catalog?: ServedCatalog;
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

const HEX64 = /^[0-9a-f]{64}$/;

function isResolved(config: RawConfig | ResolvedConfig): config is ResolvedConfig {
  return typeof (config as ResolvedConfig).stateDir === "string";
}

/** Resolves MCP configuration: shared `.agents` folders on, no watching. */
export function mcpConfig(config: RawConfig | ResolvedConfig = {}): ResolvedConfig {
  return isResolved(config) ? config : resolveConfig({ sharedDirs: true, ...config });
}

const row = (skill: DiscoveredSkill) => ({
  name: skill.name,
  description: skill.description,
  source: originLabel(skill.origin),
});

const line = (s: { name: string; description: string; source: string }) =>
  `- ${s.name} — ${s.description} [${s.source}]`;

/**
 * The published skill `name` if a model may open it: a valid name, known (a miss rescans
 * once), and not disabled by its author in the catalog. Shared by `open_skill` and resources.
 */
async function findOpenable(
  catalog: ServedCatalog,
  name: string,
): Promise<{ skill: DiscoveredSkill } | { error: string }> {
  if (!isSkillName(name)) return { error: `invalid skill name "${name}"` };
  const skill = await catalog.lookup(name);
  if (skill === undefined) return { error: `skill "${name}" is unknown; search with find_skills` };
  if (!skill.invocation.modelInvocable) return { error: disabledMessage(name) };
  return { skill };
}

function toolError(message: string) {
  return { content: [{ type: "text" as const, text: message }], isError: true };
}

const SkillRow = z.object({ name: z.string(), description: z.string(), source: z.string() });

const BundleShape = z.object({
  schema: z.literal("skills-anywhere-bundle-1"),
  sha256: z.string(),
  total_bytes: z.number(),
  files: z.array(z.object({ path: z.string(), bytes: z.number(), sha256: z.string() })),
});

const ReceiptShape = z.object({
  schema: z.literal("skills-anywhere-load-1"),
  load_id: z.string(),
  loaded_at: z.string(),
  provider: z.string(),
  provider_version: z.string(),
  name: z.string(),
  skill_sha256: z.string(),
  content_sha256: z.string(),
  bundle_sha256: z.string().nullable(),
  declared_tools: z.array(z.string()).nullable(),
  permissions_enforced: z.literal(false),
  source_commit: z.string().nullable(),
});

/**
 * Builds one MCP server over the catalog of `options.cwd`.
 *
 * @example
 * ```ts
 * const { server, catalog } = createSkillsAnywhereServer({ config: { agents: true } });
 * ```
 */
export function createSkillsAnywhereServer(
  options: SkillsAnywhereServerOptions = {},
): SkillsAnywhereServer {
  const log: Log = options.log ?? ((_level, message) => console.error(message));
  const catalog = options.catalog ??
    new ServedCatalog(mcpConfig(options.config), {
      cwd: options.cwd ?? process.cwd(),
      log,
      cacheMs: options.cacheMs,
    });
  const findLimit = Math.max(1, Math.floor(options.findLimit ?? 10));
  const maxLimit = Math.max(findLimit, Math.floor(options.maxLimit ?? 200));
  const server = new McpServer(
    { name: TOOL_NAME, version: VERSION },
    {
      capabilities: { tools: {}, resources: {}, completions: {} },
      instructions: SERVER_INSTRUCTIONS,
    },
  );

  server.registerTool("list_skills", {
    title: "List skills",
    description:
      "List the skills available to you (name, description, where it comes from), one page at a time.",
    inputSchema: z.object({
      limit: z.number().int().min(1).max(maxLimit).optional().describe("page size"),
      offset: z.number().int().min(0).optional().describe("skills to skip"),
    }),
    outputSchema: z.object({ total: z.number(), skills: z.array(SkillRow) }),
  }, async ({ limit, offset }) => {
    const skills = await catalog.modelSkills();
    const start = offset ?? 0;
    const page = skills.slice(start, start + (limit ?? maxLimit)).map(row);
    const text = skills.length === 0
      ? "No skills found. Add a git source with `dsh-skills-anywhere add owner/repo` or install skills for any supported agent."
      : [`${page.length} of ${skills.length} skills:`, ...page.map(line)].join("\n");
    return {
      content: [{ type: "text" as const, text }],
      structuredContent: { total: skills.length, skills: page },
    };
  });

  server.registerTool("find_skills", {
    title: "Find skills",
    description:
      "Search the skills by keywords; returns the best matches with their exact names for open_skill.",
    inputSchema: z.object({
      query: z.string().min(1).describe("keywords"),
      limit: z.number().int().min(1).max(maxLimit).optional().describe(
        `at most this many (default ${findLimit})`,
      ),
    }),
    outputSchema: z.object({ total: z.number(), matches: z.array(SkillRow) }),
  }, async ({ query, limit }) => {
    const trimmed = query.trim();
    if (trimmed === "") return toolError("query must not be empty");
    const skills = await catalog.modelSkills();
    const ranked = searchSkills(
      skills.map((skill) => ({ skill, ...row(skill) })),
      trimmed,
      limit ?? findLimit,
    );
    const matches = ranked.map(({ skill }) => row(skill.skill));
    const text = matches.length === 0
      ? `No skills matched "${trimmed}". ${skills.length} skills searched; try different keywords or list_skills.`
      : [`${matches.length} of ${skills.length} skills matched:`, ...matches.map(line)].join("\n");
    return {
      content: [{ type: "text" as const, text }],
      structuredContent: { total: skills.length, matches },
    };
  });

  server.registerTool("open_skill", {
    title: "Open skill",
    description:
      "Load one skill's instructions by its exact name. Pin what a reviewer approved with expected_sha256 (SKILL.md) or expected_bundle_sha256 (the whole directory).",
    inputSchema: z.object({
      name: z.string().min(1).describe("the exact published skill name"),
      expected_sha256: z.string().regex(HEX64, "must be 64 lowercase hex characters").optional()
        .describe("refuse unless SKILL.md's bytes have this SHA-256"),
      include_bundle: z.boolean().optional().describe(
        "also return the directory's bundle manifest",
      ),
      expected_bundle_sha256: z.string().regex(HEX64, "must be 64 lowercase hex characters")
        .optional().describe("refuse unless the skill directory's bundle digest is this"),
      expected_source_commit: z.string().regex(
        /^[0-9a-f]{40}$/,
        "expected_source_commit must be a full 40-character lowercase Git commit",
      ).optional().describe("refuse unless the skill's Git source checkout is at this commit"),
    }),
    outputSchema: z.object({
      name: z.string(),
      description: z.string(),
      directory: z.string(),
      path: z.string(),
      source: z.string(),
      content: z.string(),
      sha256: z.string(),
      declared_tools: z.array(z.string()).optional(),
      bundle: BundleShape.optional(),
      receipt: ReceiptShape,
    }),
  }, async (args) => {
    const found = await findOpenable(catalog, args.name);
    if ("error" in found) return toolError(found.error);
    const result = await openSkill(found.skill, {
      lenient: catalog.config.lenient,
      includeBundle: args.include_bundle,
      expectedSha256: args.expected_sha256,
      expectedBundleSha256: args.expected_bundle_sha256,
      expectedSourceCommit: args.expected_source_commit,
      sourceCommit: { cacheDir: catalog.config.cacheDir, warn: (m) => log("warn", m) },
    });
    if (!result.ok) return toolError(result.error);
    const { text, ...structured } = result.skill;
    return { content: [{ type: "text" as const, text }], structuredContent: structured };
  });

  server.registerResource(
    "skill",
    new ResourceTemplate("skill://{name}", {
      list: async () => ({
        resources: (await catalog.modelSkills()).map((skill) => ({
          uri: `skill://${skill.name}`,
          name: skill.name,
          description: skill.description,
          mimeType: "text/markdown",
        })),
      }),
      complete: {
        name: async (value) =>
          (await catalog.modelSkills()).map((s) => s.name).filter((n) => n.startsWith(value)),
      },
    }),
    { title: "Agent Skill", mimeType: "text/markdown" },
    async (uri, variables) => {
      const found = await findOpenable(catalog, String(variables.name));
      if ("error" in found) throw new Error(found.error);
      const result = await openSkill(found.skill, { lenient: catalog.config.lenient });
      if (!result.ok) throw new Error(result.error);
      return { contents: [{ uri: uri.href, mimeType: "text/markdown", text: result.skill.text }] };
    },
  );

  return { server, catalog };
}
