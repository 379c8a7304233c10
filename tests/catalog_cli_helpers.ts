// What the catalog commands' end-to-end tests share: a sandbox (temp HOME and DSH_HOME, an isolated
// git configuration, a temp project with its own `.git`), upstream repositories made with the system
// git, a fixture catalog and small text helpers.
import { join } from "node:path";
import { type CliResult, listTree, runCli, runGit, withTempDir, writeTree } from "./helpers.ts";

export const SHA40 = /^[0-9a-f]{40}$/;
/** Any control character but the newline (C0, DEL, C1). */
// deno-lint-ignore no-control-regex
export const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
export const EMPTY_MESSAGE =
  "No skills found outside the dsh defaults. Try: dsh-skills-anywhere add anthropics/skills";
export const DOCTOR_HINT = " — run `dsh-skills-anywhere doctor` for details";

/** Deno's own cache, kept when HOME moves so the child processes do not refetch anything. */
export const DENO_DIR = Deno.env.get("DENO_DIR") ?? await denoDir();

async function denoDir(): Promise<string> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    env: { NO_COLOR: "1" },
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).output();
  return JSON.parse(new TextDecoder().decode(output.stdout)).denoDir;
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

export function skill(name: string, description: string, body = "Body."): string {
  return `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;
}

export function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

export interface Sandbox {
  root: string;
  home: string;
  dshHome: string;
  /** The temp project (has a `.git` directory); the cwd of every run. */
  project: string;
  userFile: string;
  projectFile: string;
  cacheDir: string;
  /** Runs the CLI in the project with the sandbox environment. */
  cli(...args: string[]): Promise<CliResult>;
  /** Runs the test's own git in `cwd`; returns trimmed stdout. */
  git(cwd: string, ...args: string[]): Promise<string>;
  /** Makes a git repository under the sandbox with `files` committed; returns its path. */
  repo(name: string, files: Record<string, string>): Promise<string>;
  /** Writes `files` in `repo`, commits them and returns the new HEAD. */
  commit(repo: string, files: Record<string, string>): Promise<string>;
  /** Every path below the home and the project (where agent skill directories live). */
  agentTrees(): Promise<string[]>;
}

export async function withSandbox(fn: (box: Sandbox) => Promise<void>): Promise<void> {
  await withTempDir(async (root) => {
    const home = join(root, "home");
    const project = join(root, "project");
    const dshHome = join(root, "dsh");
    await Deno.mkdir(home);
    await Deno.mkdir(join(project, ".git"), { recursive: true });
    const env: Record<string, string> = {
      HOME: home,
      DSH_HOME: dshHome,
      XDG_CONFIG_HOME: join(root, "xdg"),
      GIT_CONFIG_GLOBAL: join(root, "gitconfig"),
      GIT_CONFIG_NOSYSTEM: "1",
      // Only local repositories: a mistake can never reach the network.
      GIT_ALLOW_PROTOCOL: "file",
      GIT_TERMINAL_PROMPT: "0",
      DENO_DIR,
      DENO_NO_UPDATE_CHECK: "1",
    };
    const git = (cwd: string, ...args: string[]) => runGit(cwd, args, { env });
    const commit = async (repo: string, files: Record<string, string>) => {
      await writeTree(repo, files);
      await git(repo, "add", "-A");
      await git(repo, "commit", "-q", "-m", "update");
      return await git(repo, "rev-parse", "HEAD");
    };
    const box: Sandbox = {
      root,
      home,
      dshHome,
      project,
      userFile: join(dshHome, "skills-anywhere", "sources.json"),
      projectFile: join(project, ".dsh", "skills-anywhere.json"),
      cacheDir: join(dshHome, "skills-anywhere", "cache"),
      cli: (...args) => runCli(args, { cwd: project, env }),
      git,
      async repo(name, files) {
        const dir = join(root, name);
        await Deno.mkdir(dir);
        await git(dir, "init", "-q");
        await commit(dir, files);
        return dir;
      },
      commit,
      agentTrees: async () => [
        ...(await listTree(home)).map((p) => `home/${p}`),
        ...(await listTree(project)).map((p) => `project/${p}`),
      ],
    };
    await fn(box);
  });
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
