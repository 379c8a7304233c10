/**
 * The team review chain of issue 28, as one scenario with three separate
 * homes: a reviewer locks and signs (with `signers.require`, real
 * `ssh-keygen` keys) a project with its own skills and a project Git source
 * served by a real `git daemon` on 127.0.0.1, and pushes it to a bare
 * remote; a teammate whose home holds other personal skills clones, trusts,
 * `sync --frozen`, `verify` (exit 0), and `mcp --locked` (a real MCP SDK
 * client) serves exactly the reviewed bytes with receipts naming the lock and
 * the signer; CI on an empty home does `sync --frozen` and `verify` (exit 0);
 * a pull request that edits one script makes CI exit 1 naming that file, and
 * the teammate's `mcp --locked` refuses that skill only.
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  type CliResult,
  runCli,
  runGit,
  type Sandbox,
  sha,
  skillMd,
  withGitDaemon,
  withSandbox,
  writeTree,
} from "./helpers.ts";
import { textOf } from "./mcp_helpers.ts";
import { type Locked, withLocked } from "./mcp_locked_helpers.ts";
import { fingerprintOf, LOCK, newKey } from "./signers_fixture.ts";

/** One person's machine: a home of its own, and the CLI and git run with it. */
interface Machine {
  home: string;
  env: Record<string, string>;
  cli(cwd: string, ...args: string[]): Promise<CliResult>;
  git(cwd: string, ...args: string[]): Promise<string>;
}

/** A machine with its own home (`<root>/<name>`), DSH_HOME and git configuration. */
async function machine(box: Sandbox, name: string): Promise<Machine> {
  const home = join(box.root, name);
  await Deno.mkdir(home, { recursive: true });
  const env = {
    ...box.env,
    HOME: home,
    DSH_HOME: join(home, ".dsh"),
    XDG_CONFIG_HOME: join(home, ".config"),
    GIT_CONFIG_GLOBAL: join(home, ".gitconfig"),
  };
  const gitEnv = {
    ...env,
    GIT_AUTHOR_NAME: name,
    GIT_AUTHOR_EMAIL: `${name}@example.invalid`,
    GIT_COMMITTER_NAME: name,
    GIT_COMMITTER_EMAIL: `${name}@example.invalid`,
  };
  return {
    home,
    env,
    cli: (cwd, ...args) => runCli(args, { cwd, env, clearEnv: true }),
    git: (cwd, ...args) => runGit(cwd, args, { env: gitEnv, clearEnv: true }),
  };
}

/**
 * Opens each of `names` and asserts its receipt: the project lock (by its SHA-256), the locked
 * bundle digest, and the reviewer as signer.
 */
async function assertReceipts(
  s: Locked,
  names: string[],
  lock: { skills: { name: string; bundle_sha256: string }[] },
  lockSha: string,
  fingerprint: string,
): Promise<void> {
  for (const name of names) {
    const entry = lock.skills.find((e) => e.name === name)!;
    const opened = await s.call("open_skill", { name });
    equal(opened.isError, undefined, textOf(opened));
    const receipt = opened.structuredContent!.receipt as Record<string, unknown>;
    equal(receipt.lock, "project");
    equal(receipt.lock_sha256, lockSha);
    equal(receipt.bundle_sha256, entry.bundle_sha256);
    deepEqual(receipt.signer, { principal: "ana@example.com", fingerprint });
  }
}

/** Asserts exit `code`, showing both streams when it differs. */
function exits(result: CliResult, code: number): CliResult {
  equal(result.code, code, `exit ${result.code}\n${result.stdout}\n${result.stderr}`);
  return result;
}

const PDF_SCRIPT = "print('fill the form')\n";

/** The team's skills repository, signed by the reviewer, served over git:// below `served`. */
async function teamSource(box: Sandbox, reviewer: Machine, key: string): Promise<string> {
  const repo = join(box.root, "served", "team-skills");
  await writeTree(repo, {
    "skills/lint/SKILL.md": skillMd("lint", "Lint the code.", "Run scripts/lint.sh."),
    "skills/lint/scripts/lint.sh": "echo lint\n",
  });
  await reviewer.git(repo, "init", "-q");
  exits(await reviewer.cli(repo, "sign", "skills/lint", "--key", key), 0);
  await reviewer.git(repo, "add", "--all");
  await reviewer.git(repo, "commit", "-q", "-m", "lint, signed");
  return await reviewer.git(repo, "rev-parse", "HEAD");
}

/** The reviewer's project: its own skills (one nested), its source, signed and locked. */
async function reviewedProject(
  box: Sandbox,
  reviewer: Machine,
  url: string,
  key: string,
  pub: string,
): Promise<string> {
  const project = join(box.root, "reviewer-project");
  await writeTree(project, {
    ".claude/skills/pdf/SKILL.md": skillMd("pdf", "Fill PDF forms.", "Run scripts/fill.py."),
    ".claude/skills/pdf/scripts/fill.py": PDF_SCRIPT,
    ".agents/skills/excel/SKILL.md": skillMd("excel", "Edit spreadsheets.", "Body."),
    "packages/app/.agents/skills/deploy/SKILL.md": skillMd("deploy", "Deploy the app.", "Body."),
    ".github/allowed_signers": `ana@example.com namespaces="skills-anywhere" ${pub}\n`,
  });
  await reviewer.git(project, "init", "-q", "-b", "main");
  exits(await reviewer.cli(project, "add", `${url}/team-skills`, "--project"), 0);
  exits(await reviewer.cli(project, "trust", "--yes"), 0);
  exits(await reviewer.cli(project, "sync"), 0);
  for (
    const dir of [
      ".claude/skills/pdf",
      ".agents/skills/excel",
      "packages/app/.agents/skills/deploy",
    ]
  ) {
    exits(await reviewer.cli(project, "sign", dir, "--key", key), 0);
  }
  exits(await reviewer.cli(project, "lock"), 0);
  // The reviewer names the trusted signers and requires them; lock keeps the block from now on.
  const file = join(project, LOCK);
  const { schema, skills, sources } = JSON.parse(await Deno.readTextFile(file));
  const signers = { allowed_signers: ".github/allowed_signers", require: true };
  await Deno.writeTextFile(file, JSON.stringify({ schema, signers, skills, sources }, null, 2));
  exits(await reviewer.cli(project, "lock"), 0);
  return project;
}

Deno.test("the team chain: a reviewer locks and signs, a teammate and CI on other homes verify, a pull request that edits one script is caught", async () => {
  await withSandbox(async (box) => {
    const reviewer = await machine(box, "reviewer");
    const teammate = await machine(box, "teammate");
    const ci = await machine(box, "ci");
    // The reviewer's and the teammate's homes each hold personal skills the project never sees.
    await writeTree(reviewer.home, {
      ".claude/skills/access/SKILL.md": skillMd("access", "The reviewer's access.", "Body."),
      ".agents/skills/notes/SKILL.md": skillMd("notes", "The reviewer's notes.", "Body."),
    });
    await writeTree(teammate.home, {
      ".claude/skills/pdf/SKILL.md": skillMd("pdf", "The teammate's own PDF skill.", "Body."),
      ".claude/skills/zeta/SKILL.md": skillMd("zeta", "The teammate's zeta.", "Body."),
    });
    await newKey(box, "ana");
    const pub = (await Deno.readTextFile(join(box.root, "ana.pub"))).split(" ").slice(0, 2)
      .join(" ");
    const key = join(box.root, "ana");
    const fingerprint = await fingerprintOf(box, "ana");
    const sourceCommit = await teamSource(box, reviewer, key);

    await withGitDaemon(join(box.root, "served"), async (url) => {
      const project = await reviewedProject(box, reviewer, url, key, pub);
      const lockText = await Deno.readTextFile(join(project, LOCK));
      const lock = JSON.parse(lockText);
      deepEqual(lock.skills.map((s: { name: string }) => s.name), [
        "deploy",
        "excel",
        "lint",
        "pdf",
      ]);
      deepEqual(lock.sources.map((s: { commit: string }) => s.commit), [sourceCommit]);
      ok(!lockText.includes(reviewer.home), "the lock names the reviewer's home");
      deepEqual(lock.signers, { allowed_signers: ".github/allowed_signers", require: true });
      exits(await reviewer.cli(project, "verify"), 0);
      const remote = join(box.root, "remote.git");
      await reviewer.git(box.root, "init", "-q", "--bare", "-b", "main", remote);
      await reviewer.git(project, "add", "--all");
      await reviewer.git(project, "commit", "-q", "-m", "skills, reviewed");
      await reviewer.git(project, "push", "-q", remote, "main");

      // The teammate: clone, trust, the locked commits, verify.
      const mine = join(box.root, "teammate-project");
      await teammate.git(box.root, "clone", "-q", remote, mine);
      exits(await teammate.cli(mine, "trust", "--yes"), 0);
      exits(await teammate.cli(mine, "sync", "--frozen"), 0);
      const verified = exits(await teammate.cli(mine, "verify"), 0);
      match(verified.stdout, /verified 4 skills, 4 signed: all match/);
      const lockSha = sha(await Deno.readFile(join(mine, LOCK)));
      equal(lockSha, sha(lockText));
      const served = { ...box, env: teammate.env };
      const receipts = (s: Locked, names: string[]) =>
        assertReceipts(s, names, lock, lockSha, fingerprint);
      // An agent started in packages/app is served its nested skill too (issue 27), still locked.
      await withLocked(served, async (s) => {
        deepEqual((await s.listed()).sort(), ["deploy", "excel", "lint", "pdf"]);
        await receipts(s, ["deploy"]);
      }, { cwd: join(mine, "packages/app") });
      await withLocked(served, async (s) => {
        deepEqual((await s.listed()).sort(), ["excel", "lint", "pdf"]);
        await receipts(s, ["excel", "lint", "pdf"]);
        const script = await s.read("skill://pdf/scripts/fill.py") as {
          contents: { text?: string }[];
        };
        equal(script.contents[0].text, PDF_SCRIPT);
        // The teammate's personal skills are in no lock: refused, and the project's pdf kept.
        const zeta = await s.call("open_skill", { name: "zeta" });
        equal(zeta.isError, true);
        match(textOf(zeta), /skill "zeta" is not in the lock/);
      }, { cwd: mine });

      // CI: an empty home, a fresh clone.
      const runner = join(box.root, "ci-project");
      await ci.git(box.root, "clone", "-q", remote, runner);
      exits(await ci.cli(runner, "trust", "--yes"), 0);
      exits(await ci.cli(runner, "sync", "--frozen"), 0);
      exits(await ci.cli(runner, "verify"), 0);

      // A pull request edits one script: CI names the file; the teammate's server refuses pdf only.
      await ci.git(runner, "checkout", "-q", "-b", "pr");
      await Deno.writeTextFile(join(runner, ".claude/skills/pdf/scripts/fill.py"), "import os\n");
      await ci.git(runner, "commit", "-q", "-am", "pdf: a small change");
      await ci.git(runner, "push", "-q", remote, "pr");
      const caught = exits(await ci.cli(runner, "verify"), 1);
      match(caught.stdout, /^changed "pdf" \(bundle\)\n {2}changed "scripts\/fill\.py"$/m);
      ok(!/"(excel|deploy|lint)"/.test(caught.stdout), caught.stdout);
      const json = JSON.parse(exits(await ci.cli(runner, "verify", "--json"), 1).stdout);
      deepEqual(json.changed.map((c: { name: string; changed: string[] }) => [c.name, c.changed]), [
        ["pdf", ["scripts/fill.py"]],
      ]);
      await teammate.git(mine, "fetch", "-q", remote, "pr");
      await teammate.git(mine, "checkout", "-q", "FETCH_HEAD");
      await withLocked(served, async (s) => {
        deepEqual((await s.listed()).sort(), ["excel", "lint"]);
        const pdf = await s.call("open_skill", { name: "pdf" });
        equal(pdf.isError, true);
        match(textOf(pdf), /skill "pdf" changed since it was locked/);
        for (const name of ["excel", "lint"]) {
          equal((await s.call("open_skill", { name })).isError, undefined, name);
        }
      }, { cwd: mine });

      // The teammate locks personal skills apart: served under the user lock, and the receipt says so.
      exits(await teammate.cli(mine, "lock", "--user"), 0);
      const userLock = join(teammate.home, ".dsh/skills-anywhere/user.lock.json");
      const userSha = sha(await Deno.readFile(userLock));
      await withLocked(served, async (s) => {
        const zeta = await s.call("open_skill", { name: "zeta" });
        equal(zeta.isError, undefined, textOf(zeta));
        const receipt = zeta.structuredContent!.receipt as Record<string, unknown>;
        equal(receipt.lock, "user");
        equal(receipt.lock_sha256, userSha);
        const pdf = await s.call("open_skill", { name: "pdf" });
        equal(pdf.isError, true);
      }, { cwd: mine });
      exits(await teammate.cli(mine, "verify", "--user"), 0);
    });
  });
});
