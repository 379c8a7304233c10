/**
 * What the catalog commands' end-to-end tests share, over the one sandbox of `./helpers.ts`: the
 * sandbox options they run with (DSH_HOME outside the home, so the agent trees never hold it), the
 * state files and agent trees of a sandbox, a fixture catalog and small text helpers.
 *
 * @module
 */
import { join } from "node:path";
import { listTree, type Sandbox, type SandboxOptions, writeTree } from "./helpers.ts";

/** A full commit id. */
export const SHA40 = /^[0-9a-f]{40}$/;
/** Any control character but the newline (C0, DEL, C1). */
// deno-lint-ignore no-control-regex
export const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
/** What `list` prints for an empty catalog. */
export const EMPTY_MESSAGE =
  "No skills found outside the dsh defaults. Try: dsh-skills-anywhere add anthropics/skills";
/** The end of a `list` footer that has something to show in `doctor`. */
export const DOCTOR_HINT = " — run `dsh-skills-anywhere doctor` for details";

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

/** A SKILL.md text with a name, a description and a body. */
export function skill(name: string, description: string, body = "Body."): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
}

/** `text` with every regular-expression metacharacter escaped. */
export function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Two skills under `skills/` of an upstream repository. */
export const UPSTREAM = {
  "skills/alpha/SKILL.md": skill("alpha", "First upstream skill."),
  "skills/beta/SKILL.md": skill("beta", "Second upstream skill.", "Beta body."),
  "README.md": "# upstream\n",
};

/**
 * A catalog with every footer count: a shared project skill, a collision
 * (renamed), a hidden duplicate, a repaired file, a skipped file and a plugin.
 */
export async function writeCatalog(box: Sandbox): Promise<void> {
  await writeTree(box.project, {
    ".agents/skills/shared-one/SKILL.md": skill("shared-one", "Shared project skill."),
    ".claude/skills/build/SKILL.md": skill("build", "Build with Claude.", "Claude body."),
    ".cursor/skills/build/SKILL.md": skill("build", "Build with Cursor.", "Cursor body."),
  });
  await writeTree(box.home, {
    ".claude/skills/dup/SKILL.md": skill("dup", "Same everywhere.", "Dup body."),
    ".cursor/skills/dup/SKILL.md": skill("dup", "Same everywhere.", "Dup body."),
    ".claude/skills/nofront/SKILL.md": "Use this when things happen.\n",
    ".codex/skills/review/SKILL.md": skill("review", "Review code.", "Review body."),
    ".codex/skills/broken/SKILL.md": new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x0a]),
    ".claude/plugins/marketplaces/official/plugins/hookify/skills/hook/SKILL.md": skill(
      "hook",
      "A plugin skill.",
      "Hook body.",
    ),
  });
}

/** The paths of the fixture catalog's files (see {@linkcode writeCatalog}). */
export function catalogPaths(box: Sandbox) {
  return {
    shared: join(box.project, ".agents/skills/shared-one/SKILL.md"),
    build: join(box.project, ".claude/skills/build/SKILL.md"),
    cursorBuild: join(box.project, ".cursor/skills/build/SKILL.md"),
    dup: join(box.home, ".claude/skills/dup/SKILL.md"),
    dupHidden: join(box.home, ".cursor/skills/dup/SKILL.md"),
    nofront: join(box.home, ".claude/skills/nofront/SKILL.md"),
    review: join(box.home, ".codex/skills/review/SKILL.md"),
    broken: join(box.home, ".codex/skills/broken/SKILL.md"),
    hook: join(
      box.home,
      ".claude/plugins/marketplaces/official/plugins/hookify/skills/hook/SKILL.md",
    ),
  };
}
