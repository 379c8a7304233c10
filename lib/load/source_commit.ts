/**
 * Which commit a skill from a Git source was loaded at: asked of git in the
 * skill's own checkout, never of an enclosing repository, never guessed from
 * the lock file.
 *
 * @example
 * ```ts
 * import { sourceCommit } from "./source_commit.ts";
 * const result = await sourceCommit("/home/me/.dsh/skills-anywhere/cache/github.com/o/r/skills/pdf", "/home/me/.dsh/skills-anywhere/cache");
 * if (result.ok) console.log(result.commit);
 * ```
 * @module
 */
import { execFile } from "node:child_process";
import { lstat, realpath } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { isWithin } from "../fs/mod.ts";
import process from "node:process";

/** The commit, or why it cannot be proven. */
export type SourceCommit = { ok: true; commit: string } | { ok: false; reason: string };

const TIMEOUT_MS = 5000;
const MAX_OUTPUT = 64 * 1024;

function gitEnv(ceiling: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !key.startsWith("GIT_")) env[key] = value;
  }
  env.GIT_TERMINAL_PROMPT = "0";
  env.GIT_CEILING_DIRECTORIES = ceiling;
  return env;
}

function run(cwd: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      "git",
      ["rev-parse", "--show-toplevel", "HEAD"],
      { cwd, env, timeout: TIMEOUT_MS, maxBuffer: MAX_OUTPUT, encoding: "utf8" },
      (error, stdout, stderr) => {
        if (error) {
          const line = `${stderr}`.split("\n").map((l) => l.trim()).find((l) => l !== "");
          reject(new Error(line ?? error.message));
        } else {
          resolve(stdout);
        }
      },
    );
  });
}

/**
 * The HEAD commit of the checkout that holds `skillDirectory`, which must be
 * a repository strictly inside `cacheDir` with a `.git` directory of its own.
 * Never throws.
 */
export async function sourceCommit(
  skillDirectory: string,
  cacheDir: string,
): Promise<SourceCommit> {
  let cache: string;
  let skill: string;
  try {
    cache = await realpath(cacheDir);
    skill = await realpath(skillDirectory);
  } catch (error) {
    return { ok: false, reason: `cannot resolve the checkout (${(error as Error).message})` };
  }
  let output: string;
  try {
    output = await run(skill, gitEnv(cache));
  } catch (error) {
    return { ok: false, reason: `git rev-parse failed: ${(error as Error).message}` };
  }
  const [top = "", commit = ""] = output.split("\n").map((line) => line.trim());
  if (top === "" || !isAbsolute(top)) {
    return { ok: false, reason: "git named no top-level directory" };
  }
  let topReal: string;
  try {
    topReal = await realpath(top);
  } catch {
    return { ok: false, reason: "the top-level directory cannot be resolved" };
  }
  if (!isWithin(topReal, cache)) {
    return { ok: false, reason: "the repository is not a checkout inside the source cache" };
  }
  const dotGit = await lstat(join(topReal, ".git")).catch(() => undefined);
  if (dotGit === undefined || !dotGit.isDirectory()) {
    return { ok: false, reason: "the checkout has no .git directory of its own" };
  }
  if (!isWithin(skill, topReal, { allowSame: true })) {
    return { ok: false, reason: "the skill is outside its checkout" };
  }
  if (!/^[0-9a-f]{40}$/.test(commit)) return { ok: false, reason: "HEAD is not a full commit" };
  return { ok: true, commit };
}
