// Project trust and bounded config files, through the real CLI, the real MCP server and real git:
// a cloned project's `.dsh/skills-anywhere.json` is hostile input. Until the user runs `trust`,
// nothing it lists is cloned, synced or listed (every surface says so once on stderr); any change
// to the file, a revoke, or a broken trust file makes it untrusted again. Sources, lock and trust
// files over 1 MiB are refused with one line naming the file, without being read.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { sha256Hex } from "../lib/hash.ts";
import { MAX_CONFIG_BYTES } from "../lib/limits.ts";
import { projectKey, projectTrust, revokeProject, trustProject } from "../lib/sources/_trust.ts";
import { PREFIX } from "../cli/io.ts";
import { cliCommand, exists, listTree, MAIN, mkfifo, run, withTempDir } from "./helpers.ts";
import {
  cli,
  type CliRun,
  gitRepo,
  logGitCalls,
  type Sandbox,
  skillMd,
  textOf,
  withSandbox,
  withSession,
} from "./mcp_helpers.ts";

const NOTICE = /waits? for trust/;
const HUNDRED_MB = 100 * 1024 * 1024;

function paths(box: Sandbox) {
  return {
    projectFile: join(box.project, ".dsh", "skills-anywhere.json"),
    userFile: join(box.dshHome, "skills-anywhere", "sources.json"),
    trustFile: join(box.dshHome, "skills-anywhere", "trust.json"),
    lockFile: join(box.dshHome, "skills-anywhere", "lock.json"),
    cacheDir: join(box.dshHome, "skills-anywhere", "cache"),
  };
}

/** The lines of `text` matching `pattern`. */
function linesMatching(text: string, pattern: RegExp): string[] {
  return text.split("\n").filter((line) => pattern.test(line));
}

/** The CLI's warning lines that match, each carrying the CLI's prefix exactly once (removed). */
function warningsMatching(text: string, pattern: RegExp): string[] {
  return linesMatching(text, pattern).map((line) => {
    ok(line.startsWith(PREFIX) && !line.slice(PREFIX.length).includes("skills-anywhere: "), line);
    return line.slice(PREFIX.length);
  });
}

/** An upstream repository with one skill, listed by the project's sources file. */
async function hostileProject(box: Sandbox): Promise<string> {
  const upstream = join(box.root, "upstream");
  await gitRepo(box, upstream, {
    "skills/from-project/SKILL.md": skillMd("from-project", "Listed by the project.", "Body."),
  });
  await Deno.mkdir(join(box.project, ".dsh"), { recursive: true });
  await Deno.writeTextFile(
    paths(box).projectFile,
    JSON.stringify({ sources: [{ repo: upstream }] }) + "\n",
  );
  return upstream;
}

/** Clone or fetch calls in the git log (`git --version` from doctor is fine). */
async function cloneCalls(read: () => Promise<string[]>): Promise<string[]> {
  return (await read()).filter((line) => /\b(clone|fetch|init|checkout)\b/.test(line));
}

function assertNoticeOnce(run: CliRun, what: string): void {
  deepEqual(linesMatching(run.stderr, NOTICE).length, 1, `${what}: ${run.stderr}`);
}

Deno.test("untrusted project sources: list, sync, sources, doctor clone nothing and say so once", async () => {
  await withSandbox(async (box) => {
    const upstream = await hostileProject(box);
    const gitCalls = await logGitCalls(box);
    const { cacheDir, trustFile, projectFile } = paths(box);

    const list = await cli(box, ["list"]);
    equal(list.code, 0, list.stderr);
    ok(!list.stdout.includes("from-project"), list.stdout);
    assertNoticeOnce(list, "list");
    ok(list.stderr.includes(projectFile), list.stderr);
    ok(list.stderr.includes("dsh-skills-anywhere trust"), list.stderr);

    const listJson = await cli(box, ["list", "--json"]);
    equal(listJson.code, 0);
    deepEqual(JSON.parse(listJson.stdout).skills, []);
    assertNoticeOnce(listJson, "list --json");

    const sync = await cli(box, ["sync"]);
    equal(sync.code, 0, sync.stderr);
    equal(sync.stdout, "No git sources configured.\n");
    assertNoticeOnce(sync, "sync");

    const sources = await cli(box, ["sources"]);
    equal(sources.code, 0, sources.stderr);
    const row = sources.stdout.split("\n").find((line) => line.startsWith(upstream));
    ok(row?.endsWith("untrusted — run `dsh-skills-anywhere trust`"), sources.stdout);
    match(sources.stdout, /^SOURCE {2,}REF {2,}CHECKOUT {2,}STATE$/m);
    match(sources.stdout, /project file: .*skills-anywhere\.json \(untrusted\)$/m);
    const sourcesJson = JSON.parse((await cli(box, ["sources", "--json"])).stdout);
    equal(sourcesJson.length, 1);
    equal(sourcesJson[0].repo, upstream);
    equal(sourcesJson[0].state, "untrusted");
    equal(sourcesJson[0].lock, null);

    const doctor = await cli(box, ["doctor"]);
    equal(doctor.code, 0, doctor.stderr);
    assertNoticeOnce(doctor, "doctor");

    deepEqual(await cloneCalls(gitCalls), [], "no git clone or fetch ran");
    ok(!(await exists(cacheDir)), "nothing was cloned");
    ok(!(await exists(trustFile)), "nothing was trusted");
  });
});

Deno.test("trust without a terminal and without --yes changes nothing (exit 1)", async () => {
  await withSandbox(async (box) => {
    const upstream = await hostileProject(box);
    const run = await cli(box, ["trust"]);
    equal(run.code, 1, run.stderr);
    ok(run.stdout.includes(upstream), "the sources are shown before anything is decided");
    deepEqual(
      linesMatching(run.stderr, /not trusted/),
      [
        "dsh-skills-anywhere: not trusted: no terminal to ask on; nothing changed (use --yes to trust without a prompt)",
      ],
    );
    ok(!(await exists(paths(box).trustFile)), "no trust file");
    ok(!(await exists(paths(box).cacheDir)), "nothing cloned");

    const json = await cli(box, ["trust", "--json"]);
    equal(json.code, 1);
    const doc = JSON.parse(json.stdout);
    equal(doc.state, "untrusted");
    equal(doc.file, paths(box).projectFile);
    deepEqual(doc.sources.map((s: { repo: string }) => s.repo), [upstream]);
    match(doc.sha256, /^[0-9a-f]{64}$/);

    // Usage and a missing file are exit 2.
    equal((await cli(box, ["trust", "extra"])).code, 2);
    equal((await cli(box, ["trust", "--yes", "--revoke"])).code, 2);
    await Deno.remove(paths(box).projectFile);
    const missing = await cli(box, ["trust", "--yes"]);
    equal(missing.code, 2);
    match(missing.stderr, /no project sources file at .*skills-anywhere\.json/);
    ok(!(await exists(paths(box).trustFile)), "still no trust file");
  });
});

Deno.test("trust --yes, then sync clones; one changed byte or --revoke makes it untrusted again", async () => {
  await withSandbox(async (box) => {
    const upstream = await hostileProject(box);
    const { cacheDir, trustFile, projectFile } = paths(box);
    const trusted = await cli(box, ["trust", "--yes"]);
    equal(trusted.code, 0, trusted.stderr);
    match(trusted.stdout, /^trusted .*skills-anywhere\.json \(sha256 [0-9a-f]{12}, recorded in /m);
    const state = JSON.parse(await Deno.readTextFile(trustFile));
    deepEqual(Object.keys(state), ["schema", "projects"]);
    equal(state.schema, "skills-anywhere-trust-1");
    const realProject = await Deno.realPath(box.project);
    deepEqual(Object.keys(state.projects), [realProject]);
    const bytes = await Deno.readFile(projectFile);
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    equal(
      state.projects[realProject].sha256,
      [...digest].map((b) => b.toString(16).padStart(2, "0")).join(""),
    );
    ok(!Number.isNaN(Date.parse(state.projects[realProject].trusted_at)));

    const again = await cli(box, ["trust"]);
    equal(again.code, 0, "already trusted needs no terminal");
    match(again.stdout, /is already trusted/);

    const sync = await cli(box, ["sync"]);
    equal(sync.code, 0, sync.stderr);
    match(sync.stdout, new RegExp(`^${upstream} {2,}cloned {2,}[0-9a-f]{12}$`, "m"));
    ok(await exists(cacheDir), "the trusted source was cloned");
    const list = await cli(box, ["list"]);
    ok(list.stdout.includes("from-project"), list.stdout);
    equal(linesMatching(list.stderr, NOTICE).length, 0, list.stderr);

    // One byte more (a trailing space) and the file is untrusted again: the checkout stays in the
    // cache but is no longer listed.
    await Deno.writeFile(projectFile, new Uint8Array([...bytes, 0x20]));
    const changed = await cli(box, ["list"]);
    ok(!changed.stdout.includes("from-project"), changed.stdout);
    assertNoticeOnce(changed, "list after an edit");
    match(changed.stderr, /changed since it was trusted/);
    const changedSync = await cli(box, ["sync", "--json"]);
    deepEqual(JSON.parse(changedSync.stdout), []);
    assertNoticeOnce(changedSync, "sync after an edit");
    const sources = JSON.parse((await cli(box, ["sources", "--json"])).stdout);
    equal(sources[0].state, "untrusted");

    equal((await cli(box, ["trust", "--yes"])).code, 0);
    ok((await cli(box, ["list"])).stdout.includes("from-project"));

    const revoked = await cli(box, ["trust", "--revoke"]);
    equal(revoked.code, 0, revoked.stderr);
    match(revoked.stdout, /^revoked trust in /);
    const after = await cli(box, ["list"]);
    ok(!after.stdout.includes("from-project"), after.stdout);
    assertNoticeOnce(after, "list after revoke");
    deepEqual(JSON.parse(await Deno.readTextFile(trustFile)).projects, {});
    const twice = await cli(box, ["trust", "--revoke"]);
    equal(twice.code, 0);
    match(twice.stdout, /was not trusted/);
  });
});

Deno.test("a tampered, invalid or oversized trust file trusts nothing, with one warning line", async () => {
  await withSandbox(async (box) => {
    await hostileProject(box);
    const { trustFile } = paths(box);
    equal((await cli(box, ["trust", "--yes"])).code, 0);
    equal((await cli(box, ["sync"])).code, 0);
    const good = JSON.parse(await Deno.readTextFile(trustFile));
    const [key] = Object.keys(good.projects);
    const record = good.projects[key];
    const cases: Record<string, string> = {
      "not JSON": "{",
      "wrong schema": JSON.stringify({ ...good, schema: "skills-anywhere-trust-2" }),
      "extra key": JSON.stringify({ ...good, extra: true }),
      "extra record key": JSON.stringify({
        ...good,
        projects: { [key]: { ...record, also: "/" } },
      }),
      "short hash": JSON.stringify({
        ...good,
        projects: { [key]: { ...record, sha256: record.sha256.slice(1) } },
      }),
      "relative project": JSON.stringify({
        ...good,
        projects: { ...good.projects, "project": record },
      }),
      "an array": "[]",
    };
    for (const [what, text] of Object.entries(cases)) {
      await Deno.writeTextFile(trustFile, text);
      const run = await cli(box, ["list"]);
      equal(run.code, 0, `${what}: ${run.stderr}`);
      ok(!run.stdout.includes("from-project"), `${what}: ${run.stdout}`);
      deepEqual(
        warningsMatching(run.stderr, /trust\.json/),
        [`${trustFile} is not a valid trust file; no project is trusted`],
        what,
      );
      assertNoticeOnce(run, what);
    }
    await Deno.writeFile(trustFile, new Uint8Array([0xff, 0xfe]));
    deepEqual(warningsMatching((await cli(box, ["list"])).stderr, /trust\.json/), [
      `${trustFile} is not a valid trust file; no project is trusted`,
    ], "not UTF-8");
    // A hash of other bytes is simply untrusted (changed), no warning.
    await Deno.writeTextFile(
      trustFile,
      JSON.stringify({ ...good, projects: { [key]: { ...record, sha256: "0".repeat(64) } } }),
    );
    const other = await cli(box, ["list"]);
    ok(!other.stdout.includes("from-project"));
    deepEqual(linesMatching(other.stderr, /trust\.json/), []);
    match(other.stderr, /changed since it was trusted/);

    // 100 MB (sparse) and a named pipe are refused without reading them.
    await Deno.remove(trustFile);
    await Deno.writeFile(trustFile, new Uint8Array());
    await Deno.truncate(trustFile, HUNDRED_MB);
    const big = await cli(box, ["list"]);
    equal(big.code, 0, big.stderr);
    ok(!big.stdout.includes("from-project"));
    deepEqual(warningsMatching(big.stderr, /trust\.json/), [
      `cannot read ${trustFile}: larger than 1 MiB; no project is trusted`,
    ]);
    await Deno.remove(trustFile);
    await mkfifo(trustFile);
    const fifo = await cli(box, ["list"]);
    equal(fifo.code, 0, fifo.stderr);
    deepEqual(warningsMatching(fifo.stderr, /trust\.json/), [
      `cannot read ${trustFile}: not a regular file; no project is trusted`,
    ]);
    // `trust` replaces a broken trust file.
    const retrust = await cli(box, ["trust", "--yes"]);
    equal(retrust.code, 0, retrust.stderr);
    ok((await cli(box, ["list"])).stdout.includes("from-project"));
  });
});

Deno.test("100 MB sources, lock and trust files are refused with one line naming the file", async () => {
  await withSandbox(async (box) => {
    const { projectFile, userFile, lockFile, trustFile } = paths(box);
    const sparse = async (file: string) => {
      await Deno.mkdir(join(file, ".."), { recursive: true });
      await Deno.writeFile(file, new Uint8Array());
      await Deno.truncate(file, HUNDRED_MB);
    };
    for (const file of [projectFile, userFile, trustFile]) {
      // The trust file is read only when a project file lists sources.
      if (file === trustFile) await hostileProject(box);
      await sparse(file);
      const run = await cli(box, ["list"]);
      equal(run.code, 0, run.stderr);
      const lines = linesMatching(run.stderr, /larger than/);
      equal(lines.length, 1, run.stderr);
      ok(lines[0].includes(`cannot read ${file}: larger than 1 MiB`), lines[0]);
      await Deno.remove(file);
    }
    // The project file is refused by `trust` too (exit 2), and nothing is recorded.
    await Deno.remove(projectFile);
    await sparse(projectFile);
    const trust = await cli(box, ["trust", "--yes"]);
    equal(trust.code, 2);
    match(trust.stderr, /cannot read .*skills-anywhere\.json: larger than 1 MiB/);
    ok(!(await exists(trustFile)));
    await Deno.remove(projectFile);
    // `list` never reads the lock; `sources` does.
    await sparse(lockFile);
    const sources = await cli(box, ["sources"]);
    equal(sources.code, 0, sources.stderr);
    deepEqual(warningsMatching(sources.stderr, /lock\.json/), [
      `cannot read ${lockFile}: larger than 1 MiB`,
    ]);
  });
});

Deno.test("a project sources file that is a symlink is never followed (nothing leaks)", async () => {
  await withSandbox(async (box) => {
    const secret = join(box.home, "secret.txt");
    await Deno.writeTextFile(secret, "TOP-SECRET-TOKEN\n");
    await Deno.mkdir(join(box.project, ".dsh"), { recursive: true });
    await Deno.symlink(secret, paths(box).projectFile);
    for (const args of [["list"], ["sources"], ["trust", "--yes"], ["trust", "--json"]]) {
      const run = await cli(box, args);
      ok(!run.stdout.includes("TOP-SECRET") && !run.stderr.includes("TOP-SECRET"), args.join(" "));
      match(run.stderr, /refusing to follow a symbolic link/, args.join(" "));
    }
    equal((await cli(box, ["trust", "--yes"])).code, 2);
    ok(!(await exists(paths(box).trustFile)));
  });
});

/** Runs the CLI under a real pseudo-terminal (util-linux `script`), typing `input`. */
async function underTerminal(box: Sandbox, args: string[], input: string): Promise<CliRun> {
  const command = cliCommand() ?? [Deno.execPath(), "run", "-A", "--quiet", MAIN];
  const quoted = [...command, ...args].map((part) => `'${part.replaceAll("'", "'\\''")}'`).join(
    " ",
  );
  return await run("script", ["-qec", quoted, "/dev/null"], {
    cwd: box.project,
    env: { ...box.env, NO_COLOR: "1" },
    clearEnv: true,
    stdin: input,
  });
}

Deno.test("trust on a terminal asks y/N: no changes nothing, y trusts", async () => {
  await withSandbox(async (box) => {
    await hostileProject(box);
    const declined = await underTerminal(box, ["trust"], "n\n");
    equal(declined.code, 1, declined.stdout);
    match(declined.stdout, /Trust this project's Git sources\? \[y\/N\]/);
    match(declined.stdout, /not trusted; nothing changed/);
    ok(!(await exists(paths(box).trustFile)));

    const accepted = await underTerminal(box, ["trust"], "y\n");
    equal(accepted.code, 0, accepted.stdout);
    match(accepted.stdout, /trusted .*skills-anywhere\.json \(sha256 /);
    ok(await exists(paths(box).trustFile));
    const sources = JSON.parse((await cli(box, ["sources", "--json"])).stdout);
    equal(sources[0].state, "active");
  });
});

Deno.test("mcp: an untrusted project file is never synced; stderr says so once", async () => {
  await withSandbox(async (box) => {
    await hostileProject(box);
    const gitCalls = await logGitCalls(box);
    const stderr = await withSession(box, "auto", async (session) => {
      const first = textOf(await session.call("list_skills"));
      ok(!first.includes("from-project"), first);
      const second = textOf(await session.call("list_skills"));
      ok(!second.includes("from-project"), second);
    });
    equal(linesMatching(stderr, NOTICE).length, 1, stderr);
    deepEqual(await cloneCalls(gitCalls), [], "the background sync cloned nothing");
    ok(!(await exists(paths(box).cacheDir)), "nothing was cloned");
  });
});

Deno.test("mcp: a trusted project file is synced in the background and listed", async () => {
  await withSandbox(async (box) => {
    await hostileProject(box);
    equal((await cli(box, ["trust", "--yes"])).code, 0);
    const stderr = await withSession(box, "auto", async (session) => {
      const deadline = Date.now() + 30_000;
      let text = "";
      while (!text.includes("from-project") && Date.now() < deadline) {
        text = textOf(await session.call("list_skills"));
        if (!text.includes("from-project")) await new Promise((r) => setTimeout(r, 100));
      }
      ok(text.includes("from-project"), text);
    });
    equal(linesMatching(stderr, NOTICE).length, 0, stderr);
  });
});

Deno.test("trust.ts: trust, check, change, revoke round-trip; the key is the real path", async () => {
  await withTempDir(async (dir) => {
    const dshHome = join(dir, "dsh");
    const project = join(dir, "project");
    await Deno.mkdir(project);
    await Deno.symlink(project, join(dir, "link"));
    equal(await projectKey(join(dir, "link")), await Deno.realPath(project));
    equal(
      sha256Hex(new Uint8Array()),
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
    equal(MAX_CONFIG_BYTES, 1024 * 1024);
    deepEqual(await projectTrust(dshHome, project, new Uint8Array()), {
      state: "untrusted",
      sha256: sha256Hex(new Uint8Array()),
    });
    const bytes = new TextEncoder().encode('{"sources": ["o/r"]}');
    equal((await projectTrust(dshHome, project, bytes)).state, "untrusted");
    const record = await trustProject(dshHome, join(dir, "link"), bytes);
    equal(record.sha256, sha256Hex(bytes));
    equal((await projectTrust(dshHome, project, bytes)).state, "trusted");
    equal((await projectTrust(dshHome, project, new Uint8Array([...bytes, 10]))).state, "changed");
    equal(await revokeProject(dshHome, project), true);
    equal(await revokeProject(dshHome, project), false);
    equal((await projectTrust(dshHome, project, bytes)).state, "untrusted");
    deepEqual(await listTree(join(dshHome, "skills-anywhere")), ["trust.json"]);
  });
});
