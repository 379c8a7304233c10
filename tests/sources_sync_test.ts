// Git sync against real repositories made with the system git in temp dirs.
// Every git process (ours and the module's) gets an isolated HOME and no
// system config, so the real home and config are never read or written.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { basename, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { readCommitRecord, writeCommitRecord } from "../lib/sources/_files.ts";
import { type ResolvedSource, resolveSource, type SourceSpec } from "../lib/sources/_resolve.ts";
import { gitAvailable } from "../lib/sources/_git.ts";
import { syncAll, type SyncOptions, syncSource } from "../lib/sources/_sync.ts";
import { exists, listTree, type Sandbox, withSandbox, writeTree } from "./helpers.ts";

const SHA40 = /^[0-9a-f]{40}$/;

/** The sandbox with an upstream repository, a cache and the module's log lines. */
interface SyncBox extends Omit<Sandbox, "commit"> {
  cache: string;
  upstream: string;
  /** Log lines captured from the module. */
  lines: string[];
  /** Options for the module: the sandbox environment and a log into `lines`. */
  options(extra?: SyncOptions): SyncOptions;
  resolve(spec: string | SourceSpec): ResolvedSource;
  /** Writes a file in the upstream, commits it and returns the new sha. */
  commit(file: string, text: string): Promise<string>;
}

async function withUpstream(fn: (box: SyncBox) => Promise<void>): Promise<void> {
  await withSandbox(async (sandbox) => {
    const upstream = join(sandbox.root, "upstream");
    await Deno.mkdir(upstream);
    await sandbox.git(upstream, "init", "-q");
    const cache = join(sandbox.root, "cache");
    const lines: string[] = [];
    await fn({
      ...sandbox,
      cache,
      upstream,
      lines,
      options: (extra = {}) => ({
        env: sandbox.env,
        log: (level, message) => lines.push(`${level} ${message}`),
        ...extra,
      }),
      resolve: (spec) => resolveSource(spec, cache),
      commit: (file, text) => sandbox.commit(upstream, { [file]: text }),
    });
  });
}

/** Staging and trash folders (and half clones of the older layout) left next to `dir`. */
async function stagingLeftovers(dir: string): Promise<string[]> {
  try {
    const names = (await Array.fromAsync(Deno.readDir(dirname(dir)))).map((entry) => entry.name);
    return names.filter((name) =>
      name.startsWith(".staging-") || name.startsWith(".trash-") || name.includes(".tmp-")
    ).sort();
  } catch {
    return [];
  }
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = new Deno.Command("true", { stdout: "null", stderr: "null" }).spawn();
  await child.status;
  return child.pid;
}

async function assertNoCheckout(source: ResolvedSource): Promise<void> {
  equal(await exists(source.dir), false, `${source.dir} must not exist`);
  deepEqual(await stagingLeftovers(source.dir), []);
}

Deno.test("gitAvailable probes git once; a missing executable is false", async () => {
  equal(await gitAvailable(), true);
  equal(await gitAvailable(), true);
  equal(await gitAvailable("/nonexistent/bin/git-not-here"), false);
});

Deno.test("clone, then unchanged, then updated after a new upstream commit", async () => {
  await withUpstream(async (box) => {
    const first = await box.commit("skills/demo/SKILL.md", "---\nname: demo\n---\none\n");
    const source = box.resolve(pathToFileURL(box.upstream).href);

    const cloned = await syncSource(source, box.options());
    deepEqual(cloned, {
      source: box.upstream,
      key: source.key,
      status: "cloned",
      sha: first,
      error: null,
    });
    equal(
      await Deno.readTextFile(join(source.dir, "skills/demo/SKILL.md")),
      "---\nname: demo\n---\none\n",
    );
    deepEqual(await stagingLeftovers(source.dir), []);
    deepEqual(box.lines, [`info cloned ${box.upstream} @ ${first.slice(0, 12)}`]);

    const again = await syncSource(source, box.options());
    deepEqual(again, { ...cloned, status: "unchanged" });
    equal(box.lines.length, 1);

    const second = await box.commit("skills/demo/SKILL.md", "---\nname: demo\n---\ntwo\n");
    const updated = await syncSource(source, box.options());
    deepEqual(updated, { ...cloned, status: "updated", sha: second });
    equal(
      await Deno.readTextFile(join(source.dir, "skills/demo/SKILL.md")),
      "---\nname: demo\n---\ntwo\n",
    );
    equal(
      box.lines[1],
      `info updated ${box.upstream} ${first.slice(0, 12)} -> ${second.slice(0, 12)}`,
    );
    equal(await box.git(source.dir, "rev-parse", "HEAD"), second);
  });
});

Deno.test("a plain local path clones the same way", async () => {
  await withUpstream(async (box) => {
    const sha = await box.commit("a.txt", "a");
    const source = box.resolve({ repo: box.upstream, path: "." });
    const result = await syncSource(source, box.options());
    equal(result.status, "cloned");
    equal(result.sha, sha);
    match(source.dir, /\/cache\/local_[0-9a-f]{12}-[0-9a-f]{12}$/);
  });
});

Deno.test("a named branch is cloned and followed", async () => {
  await withUpstream(async (box) => {
    const mainSha = await box.commit("file.txt", "main");
    await box.git(box.upstream, "checkout", "-q", "-b", "dev");
    const devSha = await box.commit("file.txt", "dev");
    await box.git(box.upstream, "checkout", "-q", "main");

    const source = box.resolve({ repo: box.upstream, ref: "dev" });
    match(basename(source.dir), /_dev-[0-9a-f]{12}$/);
    equal(source.key, `${source.id}@dev`);
    const cloned = await syncSource(source, box.options());
    equal(cloned.status, "cloned");
    equal(cloned.sha, devSha);
    equal(await Deno.readTextFile(join(source.dir, "file.txt")), "dev");

    // a commit on main does not move the dev checkout
    await box.commit("other.txt", "main again");
    equal((await syncSource(source, box.options())).status, "unchanged");

    await box.git(box.upstream, "checkout", "-q", "dev");
    const devNext = await box.commit("file.txt", "dev 2");
    const updated = await syncSource(source, box.options());
    equal(updated.status, "updated");
    equal(updated.sha, devNext);
    equal(await Deno.readTextFile(join(source.dir, "file.txt")), "dev 2");
    ok(mainSha !== devNext);
  });
});

Deno.test("a commit pinned by full sha: cloned, unchanged without network, forced = unchanged", async () => {
  await withUpstream(async (box) => {
    const pinned = await box.commit("file.txt", "one");
    await box.commit("file.txt", "two");
    const source = box.resolve({ repo: pathToFileURL(box.upstream).href, ref: pinned });
    ok(basename(source.dir).includes(`_${pinned}-`));

    const cloned = await syncSource(source, box.options());
    equal(cloned.status, "cloned");
    equal(cloned.sha, pinned);
    equal(await Deno.readTextFile(join(source.dir, "file.txt")), "one");

    // already at the pinned commit: no git fetch at all (the upstream is gone)
    const moved = `${box.upstream}-moved`;
    await Deno.rename(box.upstream, moved);
    deepEqual(await syncSource(source, box.options()), { ...cloned, status: "unchanged" });
    await Deno.rename(moved, box.upstream);

    // forced: fetched again, still the same commit
    deepEqual(await syncSource(source, box.options({ force: true })), {
      ...cloned,
      status: "unchanged",
    });
    equal(await Deno.readTextFile(join(source.dir, "file.txt")), "one");
  });
});

Deno.test("a commit pinned by short sha resolves to the full commit", async () => {
  await withUpstream(async (box) => {
    const pinned = await box.commit("file.txt", "one");
    await box.commit("file.txt", "two");
    await box.commit("file.txt", "three");
    const short = pinned.slice(0, 7).toUpperCase();
    const source = box.resolve({ repo: box.upstream, ref: short });

    const cloned = await syncSource(source, box.options());
    equal(cloned.error, null);
    equal(cloned.status, "cloned");
    equal(cloned.sha, pinned);
    equal(await Deno.readTextFile(join(source.dir, "file.txt")), "one");
    deepEqual(await stagingLeftovers(source.dir), []);

    equal((await syncSource(source, box.options())).status, "unchanged");
    const forced = await syncSource(source, box.options({ force: true }));
    equal(forced.status, "unchanged");
    equal(forced.sha, pinned);
  });
});

Deno.test("a checkout moved off its pin is put back", async () => {
  await withUpstream(async (box) => {
    const one = await box.commit("file.txt", "one");
    const two = await box.commit("file.txt", "two");
    const source = box.resolve({ repo: box.upstream, ref: one });
    equal((await syncSource(source, box.options())).sha, one);
    // moved by hand to another commit
    await box.git(source.dir, "fetch", "-q", "--", box.upstream, two);
    await box.git(source.dir, "checkout", "-q", "--detach", "FETCH_HEAD");
    const result = await syncSource(source, box.options());
    equal(result.status, "updated");
    equal(result.sha, one);
    equal(await Deno.readTextFile(join(source.dir, "file.txt")), "one");
    deepEqual(await stagingLeftovers(source.dir), []);
  });
});

Deno.test("an unknown pinned commit fails and leaves nothing behind", async () => {
  await withUpstream(async (box) => {
    await box.commit("file.txt", "one");
    for (const ref of ["deadbee", "0123456789abcdef0123456789abcdef01234567"]) {
      const source = box.resolve({ repo: box.upstream, ref });
      const result = await syncSource(source, box.options());
      equal(result.status, "failed", ref);
      equal(result.sha, null);
      ok(result.error !== null && result.error.length > 0);
      await assertNoCheckout(source);
    }
  });
});

Deno.test("a bad URL fails with one line and leaves no half clone", async () => {
  await withUpstream(async (box) => {
    const sources = [
      box.resolve(join(box.root, "missing-repo")),
      box.resolve(pathToFileURL(join(box.root, "missing-too")).href),
      box.resolve("http://127.0.0.1:1/nobody/here.git"),
      box.resolve({ repo: box.upstream, ref: "no-such-branch" }),
    ];
    await box.commit("file.txt", "one");
    for (const source of sources) {
      const result = await syncSource(source, box.options());
      equal(result.status, "failed", source.display);
      equal(result.sha, null);
      ok(
        result.error !== null && result.error !== "" && !result.error.includes("\n"),
        result.error ?? "",
      );
      await assertNoCheckout(source);
    }
    match(box.lines[0], /^warn sync of .+ failed: /);
  });
});

Deno.test("a failed refresh keeps the previous checkout", async () => {
  await withUpstream(async (box) => {
    const sha = await box.commit("file.txt", "one");
    const source = box.resolve(box.upstream);
    equal((await syncSource(source, box.options())).status, "cloned");
    await Deno.remove(box.upstream, { recursive: true });
    const result = await syncSource(source, box.options());
    equal(result.status, "failed");
    equal(await Deno.readTextFile(join(source.dir, "file.txt")), "one");
    equal(await box.git(source.dir, "rev-parse", "HEAD"), sha);
  });
});

Deno.test("a directory that is not a checkout is replaced by a clone; dead leftovers go", async () => {
  await withUpstream(async (box) => {
    await box.commit("file.txt", "one");
    const source = box.resolve(box.upstream);
    const name = basename(source.dir);
    const dead = await deadPid();
    await writeTree(source.dir, { "stale.txt": "left over" });
    await writeTree(box.cache, {
      [`.staging-${name}-${dead}-00000000/junk.txt`]: "a crashed clone",
      [`.trash-${name}-${dead}-00000000/junk.txt`]: "a crashed swap",
      // a sync running in another process right now is left alone
      [`.staging-${name}-${Deno.pid}-00000000/busy.txt`]: "in progress",
    });
    const result = await syncSource(source, box.options());
    equal(result.status, "cloned");
    equal(await exists(join(source.dir, "stale.txt")), false);
    equal(await Deno.readTextFile(join(source.dir, "file.txt")), "one");
    deepEqual(await stagingLeftovers(source.dir), [`.staging-${name}-${Deno.pid}-00000000`]);
  });
});

Deno.test("a symlink or file in a checkout's place is unlinked, never followed", async () => {
  await withUpstream(async (box) => {
    await box.commit("file.txt", "one");
    const source = box.resolve(box.upstream);
    await writeTree(box.root, { "outside/keep.txt": "keep", "outside/sub/keep.txt": "keep" });
    const outside = join(box.root, "outside");
    const before = await listTree(outside);
    await Deno.mkdir(box.cache, { recursive: true });
    await Deno.symlink(outside, source.dir);
    equal((await syncSource(source, box.options())).status, "cloned");
    equal((await Deno.lstat(source.dir)).isDirectory, true);
    deepEqual(await listTree(outside), before);

    // a folder (not a checkout) holding links out of the cache
    await Deno.remove(source.dir, { recursive: true });
    await Deno.mkdir(source.dir);
    await Deno.symlink(outside, join(source.dir, "escape"));
    await Deno.symlink(join(outside, "keep.txt"), join(source.dir, "file-link"));
    equal((await syncSource(source, box.options())).status, "cloned");
    deepEqual(await listTree(outside), before);

    // a plain file
    await Deno.remove(source.dir, { recursive: true });
    await Deno.writeTextFile(source.dir, "not a folder");
    equal((await syncSource(source, box.options())).status, "cloned");
    equal(await Deno.readTextFile(join(source.dir, "file.txt")), "one");
    deepEqual(await stagingLeftovers(source.dir), []);
  });
});

Deno.test("a checkout with a stale index.lock is rebuilt", async () => {
  await withUpstream(async (box) => {
    const one = await box.commit("file.txt", "one");
    const source = box.resolve(box.upstream);
    equal((await syncSource(source, box.options())).status, "cloned");
    await Deno.writeTextFile(join(source.dir, ".git", "index.lock"), "");
    await Deno.writeTextFile(join(source.dir, "file.txt"), "half written");
    const result = await syncSource(source, box.options());
    deepEqual([result.status, result.sha], ["cloned", one]);
    equal(await exists(join(source.dir, ".git", "index.lock")), false);
    equal(await box.git(source.dir, "status", "--porcelain", "--ignored"), "");
    equal((await syncSource(source, box.options())).status, "unchanged");
  });
});

Deno.test("a source whose folder is not the one its URL and ref give is refused, nothing touched", async () => {
  await withUpstream(async (box) => {
    await box.commit("file.txt", "one");
    const source = box.resolve(box.upstream);
    await writeTree(box.root, { "victim/keep.txt": "keep" });
    const forged: ResolvedSource[] = [
      { ...source, dir: join(box.root, "victim") },
      { ...source, dir: join(box.cache, "..", "victim") },
      { ...source, ref: "other" },
      { ...source, url: join(box.root, "elsewhere") },
    ];
    for (const bad of forged) {
      const result = await syncSource(bad, box.options());
      equal(result.status, "failed", bad.dir);
      match(result.error ?? "", /is not the cache folder of/);
    }
    deepEqual(await listTree(join(box.root, "victim")), ["keep.txt"]);
    equal(await exists(box.cache), false);
  });
});

Deno.test("repository-locating variables cannot redirect git", async () => {
  await withUpstream(async (box) => {
    const sha = await box.commit("file.txt", "one");
    const source = box.resolve(box.upstream);
    const elsewhere = join(box.root, "elsewhere.git");
    const env = { ...box.env, GIT_DIR: elsewhere, GIT_WORK_TREE: box.root };
    const result = await syncSource(source, box.options({ env }));
    equal(result.status, "cloned");
    equal(result.sha, sha);
    equal(await exists(elsewhere), false);
  });
});

Deno.test("a missing git executable is skipped, not failed", async () => {
  await withUpstream(async (box) => {
    await box.commit("file.txt", "one");
    const source = box.resolve(box.upstream);
    const result = await syncSource(source, box.options({ git: join(box.root, "no-git") }));
    deepEqual(result, {
      source: source.display,
      key: source.key,
      status: "skipped",
      sha: null,
      error: "git is not installed or not on PATH",
    });
    await assertNoCheckout(source);
  });
});

/** A git:// server that accepts connections and never answers. */
async function withSilentServer(fn: (url: string) => Promise<void>): Promise<void> {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const connections: Deno.Conn[] = [];
  const accepting = (async () => {
    try {
      for await (const conn of listener) connections.push(conn);
    } catch {
      // listener closed
    }
  })();
  try {
    await fn(`git://127.0.0.1:${listener.addr.port}/silent/repo.git`);
  } finally {
    listener.close();
    await accepting;
    for (const conn of connections) {
      try {
        conn.close();
      } catch {
        // already closed by the peer
      }
    }
  }
}

Deno.test("a git command that hangs is stopped by the timeout, leaving nothing", async () => {
  await withUpstream(async (box) => {
    await withSilentServer(async (url) => {
      const source = box.resolve(url);
      const result = await syncSource(source, box.options({ timeoutMs: 300 }));
      equal(result.status, "failed");
      equal(result.error, "git clone timed out after 300 ms");
      await assertNoCheckout(source);
    });
  });
});

Deno.test("an abort signal stops a running clone, leaving nothing; stopped is skipped, not failed", async () => {
  await withUpstream(async (box) => {
    const logged: string[] = [];
    const log = (_level: string, message: string) => void logged.push(message);
    await withSilentServer(async (url) => {
      const source = box.resolve(url);
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 200);
      const result = await syncSource(source, box.options({ signal: controller.signal, log }));
      clearTimeout(timer);
      equal(result.status, "skipped");
      equal(result.error, "stopped before it finished");
      await assertNoCheckout(source);
    });
    const source = box.resolve(box.upstream);
    await box.commit("file.txt", "one");
    const aborted = await syncSource(source, box.options({ signal: AbortSignal.abort(), log }));
    equal(aborted.status, "skipped");
    await assertNoCheckout(source);
    deepEqual(logged, [], "a stopped sync reports nothing");
  });
});

Deno.test("syncAll writes lock entries for results with a sha, keeping the rest", async () => {
  await withUpstream(async (box) => {
    const mainSha = await box.commit("file.txt", "one");
    await box.git(box.upstream, "branch", "dev");
    const lockFile = join(box.root, "state", "lock.json");
    await writeCommitRecord(lockFile, {
      "kept/entry": { url: "u", sha: "f".repeat(40), syncedAt: "2020-01-01T00:00:00.000Z" },
    });
    const plain = box.resolve(box.upstream);
    const plainSub = box.resolve({ repo: box.upstream, path: "sub" });
    const dev = box.resolve({ repo: box.upstream, ref: "dev" });
    const broken = box.resolve(join(box.root, "missing-repo"));

    const started = Date.now();
    const results = await syncAll([plain, plainSub, dev, broken], {
      ...box.options(),
      lockFile,
    });
    deepEqual(results.map((result) => [result.key, result.status]), [
      [plain.key, "cloned"],
      [dev.key, "cloned"],
      [broken.key, "failed"],
    ]);

    const lock = await readCommitRecord(lockFile);
    deepEqual(Object.keys(lock).sort(), ["kept/entry", dev.key, plain.key].sort());
    deepEqual(Object.keys(lock[plain.key]), ["url", "sha", "syncedAt"]);
    deepEqual(lock[plain.key].url, box.upstream);
    equal(lock[plain.key].sha, mainSha);
    deepEqual(lock[dev.key], {
      url: box.upstream,
      ref: "dev",
      sha: mainSha,
      syncedAt: lock[dev.key].syncedAt,
    });
    ok(Date.parse(lock[plain.key].syncedAt) >= started - 1000);
    match(lock[plain.key].syncedAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    match(lock[plain.key].sha, SHA40);
    const text = await Deno.readTextFile(lockFile);
    equal(text, `${JSON.stringify(lock, null, 2)}\n`);

    // a later run that only fails keeps the earlier entries
    await Deno.remove(box.upstream, { recursive: true });
    const failed = await syncAll([plain], { ...box.options(), lockFile });
    equal(failed[0].status, "failed");
    deepEqual(await readCommitRecord(lockFile), lock);
  });
});

Deno.test("syncAll warns when the lock file cannot be written", async () => {
  await withUpstream(async (box) => {
    await box.commit("file.txt", "one");
    await writeTree(box.root, { "blocker": "a file where a directory should be" });
    const lockFile = join(box.root, "blocker", "lock.json");
    const results = await syncAll([box.resolve(box.upstream)], { ...box.options(), lockFile });
    equal(results[0].status, "cloned");
    const warning = box.lines.find((line) => line.startsWith("warn "));
    ok(warning !== undefined);
    ok(warning.startsWith(`warn could not write ${lockFile}`), warning);
  });
});

Deno.test("syncAll says so when the lock file is over 1 MiB (it is not read)", async () => {
  await withUpstream(async (box) => {
    await box.commit("file.txt", "one");
    const lockFile = join(box.root, "lock.json");
    await Deno.writeTextFile(lockFile, "");
    await Deno.truncate(lockFile, 100 * 1024 * 1024);
    const results = await syncAll([box.resolve(box.upstream)], { ...box.options(), lockFile });
    equal(results[0].status, "cloned");
    const warnings = box.lines.filter((line) =>
      line.startsWith("warn ") && line.includes(lockFile)
    );
    equal(warnings.length, 1, box.lines.join("\n"));
  });
});

Deno.test("a repository around the working directory lends git no configuration", async () => {
  await withUpstream(async (box) => {
    const sha = await box.commit("file.txt", "one");
    const source = box.resolve(box.upstream);
    equal((await syncSource(source, box.options())).status, "cloned");
    // A hostile repository that holds both the working directory and the cache: its config
    // would route the upstream through an "ssh" that runs code.
    const marker = join(box.root, "ran");
    await box.git(box.root, "init", "-q");
    await box.git(box.root, "config", `url.ssh://attacker.invalid/x.insteadOf`, box.upstream);
    await box.git(box.root, "config", "core.sshCommand", `touch ${marker}; false`);
    const cwd = Deno.cwd();
    Deno.chdir(box.root);
    try {
      deepEqual(await syncSource(source, box.options()), {
        source: source.display,
        key: source.key,
        status: "unchanged",
        sha,
        error: null,
      });
    } finally {
      Deno.chdir(cwd);
    }
    equal(await exists(marker), false, "the project's core.sshCommand ran");
  });
});
