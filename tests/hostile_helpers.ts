// What the hostile-input and guard tests share: a sandbox with an isolated git (`withWorld`), a
// tree fingerprint, and the MCP fixture with its answer readers.
import { createHash } from "node:crypto";
import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import { join } from "node:path";
import {
  type CliResult,
  currentDenoDir,
  runCli,
  runGit,
  withTempDir,
  writeTree,
} from "./helpers.ts";
import { type RpcMessage, type Sandbox, skillMd, textOf, type ToolResult } from "./mcp_helpers.ts";

// ---------------------------------------------------------------------------
// A sandbox with an isolated git, and a tree fingerprint

export interface World extends Sandbox {
  /** Runs the CLI in the project with the sandbox environment. */
  cli(...args: string[]): Promise<CliResult>;
  /** Runs the test's own git; returns trimmed stdout. */
  git(cwd: string, ...args: string[]): Promise<string>;
  /** Makes a git repository at `<root>/<name>` with `files` committed; returns its path. */
  repo(
    name: string,
    files: Record<string, string>,
    links?: Record<string, string>,
  ): Promise<string>;
}

export async function withWorld(fn: (world: World) => Promise<void>): Promise<void> {
  await withTempDir(async (root) => {
    const home = join(root, "home");
    const dshHome = join(home, ".dsh");
    const project = join(root, "project");
    await Deno.mkdir(dshHome, { recursive: true });
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
      DENO_DIR: await currentDenoDir(),
      DENO_NO_UPDATE_CHECK: "1",
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    };
    const git = (cwd: string, ...args: string[]) => runGit(cwd, args, { env, clearEnv: true });
    const world: World = {
      root,
      home,
      dshHome,
      project,
      env,
      cli: (...args) => runCli(args, { cwd: project, env }),
      git,
      async repo(name, files, links = {}) {
        const dir = join(root, name);
        await Deno.mkdir(dir, { recursive: true });
        await git(dir, "init", "-q");
        await writeTree(dir, files);
        for (const [path, target] of Object.entries(links)) {
          await Deno.mkdir(join(dir, path, ".."), { recursive: true });
          await Deno.symlink(target, join(dir, path));
        }
        await git(dir, "add", "-A");
        await git(dir, "commit", "-q", "-m", "init");
        return dir;
      },
    };
    await fn(world);
  });
}

/**
 * One line per entry below `root` (sorted): path, type, permission bits, modification time,
 * size and SHA-256 of the bytes (or the link target). Paths under `exclude` are left out, and
 * so are the times of their ancestors (creating the excluded directory touches its parent).
 */
export async function fingerprint(root: string, exclude: string[] = []): Promise<string[]> {
  const out: string[] = [];
  const skipTime = (path: string) => exclude.some((e) => e.startsWith(`${path}/`));
  const visit = async (path: string, rel: string) => {
    const info = await lstat(path, { bigint: true });
    const mode = (info.mode & 0o7777n).toString(8);
    const time = skipTime(path) ? "-" : info.mtimeNs.toString();
    if (info.isSymbolicLink()) {
      out.push(`${rel}\tlink\t${mode}\t${time}\t${await readlink(path)}`);
    } else if (info.isFile()) {
      const sha = createHash("sha256").update(await readFile(path)).digest("hex");
      out.push(`${rel}\tfile\t${mode}\t${time}\t${info.size}\t${sha}`);
    } else if (info.isDirectory()) {
      out.push(`${rel}\tdir\t${mode}\t${time}`);
      for (const name of (await readdir(path)).sort()) {
        const child = join(path, name);
        if (!exclude.includes(child)) await visit(child, `${rel}/${name}`);
      }
    } else {
      out.push(`${rel}\tother\t${mode}\t${time}`);
    }
  };
  await visit(root, ".");
  return out;
}

export async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

/** Every path below `dir` (recursively), or [] when it does not exist. */
export async function pathsBelow(dir: string): Promise<string[]> {
  if (!(await exists(dir))) return [];
  return (await fingerprint(dir)).map((line) => line.split("\t")[0]);
}

export const BODY_MARKER = "PDF-BODY-MARKER";

/** Two project skills, one user skill and one author-disabled skill. */
export async function mcpFixture(world: World): Promise<void> {
  await writeTree(world.project, {
    ".claude/skills/pdf-forms/SKILL.md": skillMd("pdf-forms", "Fill PDF forms.", BODY_MARKER),
    ".claude/skills/notes/SKILL.md": skillMd("notes", "Draft notes.", "Notes body."),
    ".claude/skills/secret/SKILL.md": skillMd("secret", "Disabled.", "SECRET-BODY", [
      "disable-model-invocation: true",
    ]),
  });
  await writeTree(world.home, {
    ".codex/skills/review/SKILL.md": skillMd("review", "Review code.", "Review body."),
  });
}

export function isErrorAnswer(message: RpcMessage): boolean {
  return message.error !== undefined || message.result?.isError === true;
}

export function answerText(message: RpcMessage): string {
  if (message.error !== undefined) return message.error.message;
  return textOf(message.result as unknown as ToolResult);
}
