// The one background-sync scheduler (lib/sources/_schedule.ts), with real git and local
// upstream repositories in a temp dir.
import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import { type ScheduleConfig, SyncScheduler } from "../lib/sources/_schedule.ts";
import { runGit, withTempDir, writeTree } from "./helpers.ts";

/** A committed repository at `<dir>/<name>` with one skill. */
async function upstream(dir: string, name: string): Promise<string> {
  const repo = join(dir, name);
  await writeTree(repo, {
    [`skills/${name}/SKILL.md`]: `---\nname: ${name}\ndescription: The ${name} skill.\n---\n`,
  });
  await runGit(repo, ["init", "-q"]);
  await runGit(repo, ["add", "-A"]);
  await runGit(repo, ["commit", "-q", "-m", "add"]);
  return repo;
}

function config(dir: string, extra: Partial<ScheduleConfig> = {}): ScheduleConfig {
  const dshHome = join(dir, "home", ".dsh");
  return {
    sources: [],
    sourcesFiles: true,
    dshHome,
    cacheDir: join(dshHome, "skills-anywhere", "cache"),
    lockFile: join(dshHome, "skills-anywhere", "lock.json"),
    sync: true,
    syncOnStart: false,
    syncIntervalMs: 0,
    syncTimeoutMs: 60_000,
    ...extra,
  };
}

Deno.test("schedule: concurrent plain requests share one run; a change is reported once", async () => {
  await withTempDir(async (dir) => {
    const repo = await upstream(dir, "one");
    let changes = 0;
    const scheduler = new SyncScheduler(config(dir, { sources: [repo] }), {
      log: () => {},
      onChange: () => changes++,
    });
    const [a, b] = await Promise.all([scheduler.request(), scheduler.request()]);
    equal(a, b, "the second request shares the first run");
    deepEqual(a.map((r) => r.status), ["cloned"]);
    equal(changes, 1);
    deepEqual((await scheduler.request()).map((r) => r.status), ["unchanged"]);
    equal(changes, 1, "an unchanged run reports nothing");
    await scheduler.stop();
  });
});

Deno.test("schedule: a new project during a run queues one follow-up with its sources", async () => {
  await withTempDir(async (dir) => {
    const shared = await upstream(dir, "shared");
    const extra = await upstream(dir, "extra");
    const project = join(dir, "project");
    const text = JSON.stringify({ sources: [extra] });
    await writeTree(project, { ".git/HEAD": "ref: refs/heads/main\n" });
    await writeTree(project, { ".dsh/skills-anywhere.json": text });
    const untrusted: string[] = [];
    const scheduler = new SyncScheduler(config(dir, { sources: [shared] }), {
      log: () => {},
      onChange: () => {},
      onUntrusted: (u) => untrusted.push(u.file),
    });
    const first = scheduler.request();
    const followUp = scheduler.request({ project });
    deepEqual((await first).map((r) => r.status), ["cloned"]);
    // The project file is not trusted: the follow-up adds nothing and returns the latest run.
    equal(await followUp, await first);
    deepEqual(untrusted, [join(project, ".dsh", "skills-anywhere.json")]);
    deepEqual((await scheduler.sources()).map((s) => s.url), [shared]);
    await scheduler.stop();
  });
});

Deno.test("schedule: off, or stopped, nothing runs; stop is idempotent", async () => {
  await withTempDir(async (dir) => {
    const repo = await upstream(dir, "one");
    const off = new SyncScheduler(config(dir, { sources: [repo], sync: false }), {
      log: () => {},
      onChange: () => {},
    });
    off.start();
    deepEqual(await off.request(), []);
    await off.stop();
    const stopped = new SyncScheduler(config(dir, { sources: [repo] }), {
      log: () => {},
      onChange: () => {},
    });
    await stopped.stop();
    await stopped.stop();
    deepEqual(await stopped.request({ force: true }), []);
  });
});
