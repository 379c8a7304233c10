// tests/dsh_helpers.mjs's git process check counts only the git processes working for the marker
// it is given: under `deno test --parallel` other test files start git in the same process.
import { deepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { gitProcesses } from "./dsh_helpers.mjs";
import { withTempDir } from "./helpers.ts";

/** Starts `git cat-file --batch` in `cwd` (it waits on its stdin until closed). */
function waitingGit(cwd: string): Deno.ChildProcess {
  return new Deno.Command("git", {
    args: ["cat-file", "--batch"],
    cwd,
    stdin: "piped",
    stdout: "null",
    stderr: "null",
  }).spawn();
}

Deno.test("gitProcesses(marker) counts this scenario's git, not another test's", async () => {
  await withTempDir(async (dir) => {
    const mine = join(dir, "mine");
    const other = join(dir, "other");
    for (const folder of [mine, other]) {
      await Deno.mkdir(folder);
      const init = await new Deno.Command("git", { args: ["init", "-q"], cwd: folder }).output();
      ok(init.success);
    }
    const theirs = waitingGit(other);
    try {
      deepEqual(gitProcesses(mine), [], "another folder's git is not counted");
      deepEqual(gitProcesses(other), [theirs.pid]);
      const ours = waitingGit(mine);
      deepEqual(gitProcesses(mine), [ours.pid]);
      await ours.stdin.close();
      await ours.status;
      deepEqual(gitProcesses(mine), [], "reaped: gone");
    } finally {
      await theirs.stdin.close();
      await theirs.status;
    }
  });
});
