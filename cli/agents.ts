/**
 * The `agents` command: every supported agent, its skill directories, and
 * which of them exist here.
 *
 * @example
 * ```ts
 * import { runAgents } from "./agents.ts";
 * import { processIo } from "./io.ts";
 * const code = await runAgents([], { json: true }, "/repo", processIo());
 * ```
 * @module
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { type AgentRow, AGENTS } from "../lib/catalog/mod.ts";
import { resolveProject } from "../lib/catalog/mod.ts";
import type { OptionValues } from "./args.ts";
import { cliConfig } from "./catalog.ts";
import { jsonText } from "./escape.ts";
import { type Io, tableWidth } from "./io.ts";
import { outStyles, type Styles } from "./style.ts";
import { type ColumnFit, formatTable } from "./table.ts";
import { EXIT } from "./program.ts";

/** Whether `path` is a directory (following links); false when it cannot be read. */
async function isDirectory(path: string): Promise<boolean> {
  return await stat(path).then((s) => s.isDirectory(), () => false);
}

/** One row of `agents --json`. */
type AgentsDocRow = Awaited<ReturnType<typeof agentRow>>;

/** Runs `agents`; always exit 0. */
export async function runAgents(
  _positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  const config = cliConfig({ sharedDirs: true });
  const { root } = await resolveProject(cwd, config.home);
  const rows = await Promise.all(AGENTS.map((agent) => agentRow(agent, root, config.home)));
  io.out(values.json ? jsonText(rows) : agentsText(rows, outStyles(io), tableWidth(io)));
  return EXIT.ok;
}

/** What `agents` says of one agent, with whether one of its skill directories exists here. */
async function agentRow(agent: AgentRow, projectRoot: string, home: string) {
  const dirs = [
    ...(agent.project ?? []).map((d) => join(projectRoot, d)),
    ...(agent.user === undefined ? [] : [join(home, agent.user)]),
  ];
  const present = (await Promise.all(dirs.map(isDirectory))).some(Boolean);
  return {
    id: agent.id,
    label: agent.label,
    project: agent.project?.[0] ?? null,
    projectDirs: [...(agent.project ?? [])],
    user: agent.user === undefined ? null : `~/${agent.user}`,
    shared: agent.shared === true,
    docs: agent.docs ?? null,
    present,
  };
}

/** How the agents table shares a narrow terminal: the agent, its id, then its folders. */
const AGENT_COLUMNS: ColumnFit[] = [
  { min: 10, share: 0.2 },
  { min: 8, share: 0.15 },
  { min: 12, share: 0.3, cut: "middle" },
  { min: 12, share: 0.25, cut: "middle" },
  { min: 3 },
];

/** The human table (bold headers), then how many agents have a skills directory here. */
function agentsText(
  rows: readonly AgentsDocRow[],
  st: Styles,
  width: number | undefined,
): string {
  const table = formatTable([
    ["AGENT", "ID", "PROJECT DIR", "USER DIR", "FOUND HERE"].map((h) => [[h, st.bold]] as const),
    ...rows.map((r) => [
      r.label,
      r.id,
      r.projectDirs.length > 0 ? r.projectDirs.join(", ") : "-",
      r.user ?? "-",
      r.present ? "yes" : "",
    ]),
  ], width === undefined ? {} : { width, columns: AGENT_COLUMNS });
  const found = rows.filter((r) => r.present).length;
  const have = found === 1 ? "1 has" : `${found} have`;
  return `${table}\n\n${rows.length} agents supported; ${have} a skills directory on this machine.\n` +
    "The shared .agents/skills directories are read by the CLI and the standalone MCP server; inside dsh, dsh's built-in provider reads them.\n";
}
