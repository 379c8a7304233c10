/**
 * The agent registry: where each coding agent keeps its skills, as one data
 * table. `project` directories are relative to the project root (the nearest
 * ancestor of the working directory with `.git`), `user` directories relative
 * to the home directory. Table order is the tiebreak inside a rank.
 *
 * The shared row `agents` (`.agents/skills`, `~/.agents/skills`) is the
 * cross-client convention; it is scanned only when shared directories are on
 * (the CLI and the standalone MCP server; not inside dsh, whose own provider
 * reads it) and uses the fixed ranks 200 (project) and 500 (user). Its
 * project folder is read, as Codex reads it, in every directory from the
 * working directory up to the project root (`upFromCwd`, see `roots.ts`).
 *
 * The `openskills` row is openskills' "universal" install folder
 * (`openskills install --universal`: `.agent/skills`, singular, in the
 * project and in the home), which openskills itself reads before
 * `.claude/skills`.
 *
 * `docs` links the agent's own documentation of its skill directories where
 * one is known; the paths of the others follow the installer registries.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { agentById, AGENTS } from "./_agents.ts";
 * assert.equal(agentById("codex")?.user, ".codex/skills");
 * assert.equal(AGENTS.length, 72);
 * ```
 * @module
 */

/** One agent row. */
export interface AgentRow {
  /** Stable id, usable in `excludeAgents`. */
  id: string;
  label: string;
  /** Project-relative skill directories. */
  project?: readonly string[];
  /** Home-relative skill directory. */
  user?: string;
  /**
   * Home-relative directory of the skills the agent installs for itself (Codex's
   * `~/.codex/skills/.system`), read after `user` with the same rank: a user skill of the same
   * name ranks first.
   */
  system?: string;
  /** The cross-client shared row. */
  shared?: true;
  /** Its project folders are read in every directory from the cwd up to the project root. */
  upFromCwd?: true;
  /** Documentation of the agent's skill directories. */
  docs?: string;
}

/** Every supported agent, in scan order. */
export const AGENTS: readonly AgentRow[] = [
  {
    id: "claude-code",
    label: "Claude Code",
    project: [".claude/skills"],
    user: ".claude/skills",
    docs: "https://code.claude.com/docs/en/skills",
  },
  {
    id: "codex",
    label: "OpenAI Codex",
    user: ".codex/skills",
    system: ".codex/skills/.system",
    docs: "https://developers.openai.com/codex/skills",
  },
  {
    id: "cursor",
    label: "Cursor",
    project: [".cursor/skills"],
    user: ".cursor/skills",
    docs: "https://cursor.com/docs/context/skills",
  },
  {
    id: "gemini-cli",
    label: "Gemini CLI",
    project: [".gemini/skills"],
    user: ".gemini/skills",
    docs: "https://geminicli.com/docs/cli/using-agent-skills",
  },
  {
    id: "github-copilot",
    label: "GitHub Copilot",
    project: [".github/skills"],
    user: ".copilot/skills",
    docs: "https://docs.github.com/en/copilot/how-tos/copilot-cli/customize-copilot/create-skills",
  },
  { id: "antigravity", label: "Antigravity", user: ".gemini/antigravity/skills" },
  { id: "antigravity-cli", label: "Antigravity CLI", user: ".gemini/antigravity-cli/skills" },
  {
    id: "opencode",
    label: "OpenCode",
    project: [".opencode/skills"],
    user: ".config/opencode/skills",
    docs: "https://opencode.ai/docs/skills",
  },
  {
    id: "universal",
    label: "Amp / Replit / Universal",
    user: ".config/agents/skills",
    docs: "https://ampcode.com/manual#agent-skills",
  },
  {
    id: "openskills",
    label: "OpenSkills universal (.agent)",
    project: [".agent/skills"],
    user: ".agent/skills",
    docs: "https://github.com/numman-ali/openskills",
  },
  {
    id: "windsurf",
    label: "Windsurf",
    project: [".windsurf/skills"],
    user: ".codeium/windsurf/skills",
    docs: "https://docs.windsurf.com/windsurf/cascade/skills",
  },
  {
    id: "kiro-cli",
    label: "Kiro CLI",
    project: [".kiro/skills"],
    user: ".kiro/skills",
    docs: "https://kiro.dev/docs/cli/skills",
  },
  {
    id: "goose",
    label: "Goose",
    project: [".goose/skills"],
    user: ".config/goose/skills",
    docs: "https://block.github.io/goose/docs/guides/context-engineering/using-skills",
  },
  { id: "grok", label: "Grok Build", project: [".grok/skills"], user: ".grok/skills" },
  {
    id: "hermes-agent",
    label: "Hermes Agent",
    project: [".hermes/skills"],
    user: ".hermes/skills",
  },
  {
    id: "roo",
    label: "Roo Code",
    project: [".roo/skills"],
    user: ".roo/skills",
    docs: "https://docs.roocode.com/features/skills",
  },
  {
    id: "cline",
    label: "Cline",
    project: [".cline/skills", ".clinerules/skills"],
    user: ".cline/skills",
    docs: "https://github.com/cline/cline",
  },
  { id: "continue", label: "Continue", project: [".continue/skills"], user: ".continue/skills" },
  { id: "junie", label: "Junie", project: [".junie/skills"], user: ".junie/skills" },
  { id: "qwen-code", label: "Qwen Code", project: [".qwen/skills"], user: ".qwen/skills" },
  { id: "trae", label: "Trae", project: [".trae/skills"], user: ".trae/skills" },
  { id: "trae-cn", label: "Trae CN", user: ".trae-cn/skills" },
  { id: "augment", label: "Augment", project: [".augment/skills"], user: ".augment/skills" },
  { id: "droid", label: "Droid (Factory)", project: [".factory/skills"], user: ".factory/skills" },
  { id: "kilo", label: "Kilo Code", user: ".kilo/skills" },
  { id: "deepagents", label: "Deep Agents", user: ".deepagents/agent/skills" },
  {
    id: "devin",
    label: "Devin for Terminal",
    project: [".devin/skills"],
    user: ".config/devin/skills",
  },
  { id: "crush", label: "Crush", project: [".crush/skills"], user: ".config/crush/skills" },
  { id: "firebender", label: "Firebender", user: ".firebender/skills" },
  { id: "forgecode", label: "ForgeCode", project: [".forge/skills"], user: ".forge/skills" },
  { id: "fx", label: "fx", project: [".fx/skills"], user: ".fx/skills" },
  { id: "iflow-cli", label: "iFlow CLI", project: [".iflow/skills"], user: ".iflow/skills" },
  {
    id: "inference-sh",
    label: "inference.sh",
    project: [".inferencesh/skills"],
    user: ".inferencesh/skills",
  },
  { id: "jazz", label: "Jazz", project: [".jazz/skills"], user: ".jazz/skills" },
  {
    id: "kimchi",
    label: "Kimchi",
    project: [".kimchi/skills"],
    user: ".config/kimchi/harness/skills",
  },
  { id: "kode", label: "Kode", project: [".kode/skills"], user: ".kode/skills" },
  { id: "lingma", label: "Lingma", project: [".lingma/skills"], user: ".lingma/skills" },
  { id: "mcpjam", label: "MCPJam", project: [".mcpjam/skills"], user: ".mcpjam/skills" },
  {
    id: "minimax-code",
    label: "MiniMax Code",
    project: [".minimax/skills"],
    user: ".minimax/skills",
  },
  { id: "mistral-vibe", label: "Mistral Vibe", project: [".vibe/skills"], user: ".vibe/skills" },
  { id: "moxby", label: "Moxby", project: [".moxby/skills"], user: ".moxby/skills" },
  { id: "mux", label: "Mux", project: [".mux/skills"], user: ".mux/skills" },
  { id: "neovate", label: "Neovate", project: [".neovate/skills"], user: ".neovate/skills" },
  { id: "ona", label: "Ona", project: [".ona/skills"], user: ".ona/skills" },
  { id: "openclaw", label: "OpenClaw", user: ".openclaw/skills" },
  {
    id: "openhands",
    label: "OpenHands",
    project: [".openhands/skills"],
    user: ".openhands/skills",
  },
  { id: "pi", label: "Pi", project: [".pi/skills"], user: ".pi/agent/skills" },
  { id: "pochi", label: "Pochi", project: [".pochi/skills"], user: ".pochi/skills" },
  {
    id: "posit-assistant",
    label: "Posit Assistant",
    project: [".posit/assistant/skills"],
    user: ".posit/assistant/skills",
  },
  { id: "qoder", label: "Qoder", project: [".qoder/skills"], user: ".qoder/skills" },
  { id: "qoder-cn", label: "Qoder CN", user: ".qoder-cn/skills" },
  { id: "reasonix", label: "Reasonix", project: [".reasonix/skills"], user: ".reasonix/skills" },
  {
    id: "rovodev",
    label: "Rovo Dev",
    project: [".rovodev/skills"],
    user: ".rovodev/skills",
    docs: "https://support.atlassian.com/rovo/docs/extend-rovo-dev-cli-with-agent-skills",
  },
  {
    id: "tabnine-cli",
    label: "Tabnine CLI",
    project: [".tabnine/agent/skills"],
    user: ".tabnine/agent/skills",
  },
  {
    id: "terramind",
    label: "Terramind",
    project: [".terramind/skills"],
    user: ".terramind/skills",
  },
  {
    id: "tinycloud",
    label: "Tinycloud",
    project: [".tinycloud/skills"],
    user: ".tinycloud/skills",
  },
  { id: "zcode", label: "ZCode", project: [".zcode/skills"], user: ".zcode/skills" },
  {
    id: "zencoder",
    label: "Zencoder / Zenflow",
    project: [".zencoder/skills"],
    user: ".zencoder/skills",
  },
  { id: "adal", label: "AdaL", project: [".adal/skills"], user: ".adal/skills" },
  {
    id: "aider-desk",
    label: "AiderDesk",
    project: [".aider-desk/skills"],
    user: ".aider-desk/skills",
  },
  { id: "astrbot", label: "AstrBot", user: ".astrbot/data/skills" },
  {
    id: "autohand-code",
    label: "Autohand Code CLI",
    project: [".autohand/skills"],
    user: ".autohand/skills",
  },
  { id: "bob", label: "IBM Bob", project: [".bob/skills"], user: ".bob/skills" },
  {
    id: "codearts-agent",
    label: "CodeArts Agent",
    project: [".codeartsdoer/skills"],
    user: ".codeartsdoer/skills",
  },
  {
    id: "codebuddy",
    label: "CodeBuddy",
    project: [".codebuddy/skills"],
    user: ".codebuddy/skills",
  },
  {
    id: "codemaker",
    label: "Codemaker",
    project: [".codemaker/skills"],
    user: ".codemaker/skills",
  },
  {
    id: "codestudio",
    label: "Code Studio",
    project: [".codestudio/skills"],
    user: ".codestudio/skills",
  },
  {
    id: "command-code",
    label: "Command Code",
    project: [".commandcode/skills"],
    user: ".commandcode/skills",
  },
  {
    id: "cortex",
    label: "Cortex Code",
    project: [".cortex/skills"],
    user: ".snowflake/cortex/skills",
  },
  { id: "kimi-cli", label: "Kimi CLI", project: [".kimi/skills"], user: ".kimi/skills" },
  { id: "letta-code", label: "Letta Code", user: ".letta/skills" },
  {
    id: "agents",
    label: "Shared .agents (Codex, Amp, Goose, Zed, Letta Code, …)",
    project: [".agents/skills"],
    user: ".agents/skills",
    shared: true,
    upFromCwd: true,
    docs:
      "https://github.com/agentskills/agentskills/blob/main/docs/client-implementation/adding-skills-support.mdx",
  },
];

const BY_ID = new Map(AGENTS.map((row) => [row.id, row]));

/**
 * The row with `id`, or `undefined`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(agentById("claude-code")?.label, "Claude Code");
 * ```
 */
export function agentById(id: string): AgentRow | undefined {
  return BY_ID.get(id);
}
