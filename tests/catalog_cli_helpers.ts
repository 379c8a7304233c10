/**
 * What the catalog commands' end-to-end tests share, over the one sandbox of `./helpers.ts`: the
 * sandbox options they run with (DSH_HOME outside the home, so the agent trees never hold it), the
 * state files and agent trees of a sandbox, and small text helpers.
 *
 * @module
 */
import { join } from "node:path";
import { listTree, type Sandbox, type SandboxOptions, skillMd } from "./helpers.ts";

/** The sandbox of these tests: DSH_HOME at `<root>/dsh`, beside the home (not created). */
export const CATALOG_BOX: SandboxOptions = { dshHome: "dsh" };

/** Lets every git the CLI runs use local repositories only: a mistake never reaches the network. */
export function offline(box: Sandbox): Sandbox {
  box.env.GIT_ALLOW_PROTOCOL = "file";
  return box;
}

/** The user sources file. */
export function userFile(box: Sandbox): string {
  return join(box.dshHome, "skills-anywhere", "sources.json");
}

/** The project sources file. */
export function projectFile(box: Sandbox): string {
  return join(box.project, ".dsh", "skills-anywhere.json");
}

/** The cache of Git source checkouts. */
export function cacheDir(box: Sandbox): string {
  return join(box.dshHome, "skills-anywhere", "cache");
}

/** Every path below the home and the project (where agent skill directories live). */
export async function agentTrees(box: Sandbox): Promise<string[]> {
  return [
    ...(await listTree(box.home)).map((p) => `home/${p}`),
    ...(await listTree(box.project)).map((p) => `project/${p}`),
  ];
}

/** The expected table: columns padded to the widest cell, two spaces between, trailing spaces trimmed. */
export function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => widths[i] = Math.max(widths[i] ?? 0, cell.length));
  }
  return rows.map((row) =>
    row.map((cell, i) => i === row.length - 1 ? cell : cell.padEnd(widths[i])).join("  ").trimEnd()
  ).join("\n");
}

/** A SKILL.md text with a name, a description and a body (default "Body."). */
export function skill(name: string, description: string, body = "Body."): string {
  return skillMd(name, description, body);
}

/** `text` with every regular-expression metacharacter escaped. */
export function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
