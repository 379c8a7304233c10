// Hostile Git sources: a sources file (from a cloned project, or pasted by the
// user) and every Git repository are attacker-controlled. Nothing they say may
// write outside the cache, run code, make one source serve another's files,
// or leave the cache broken after a crash. Every test uses real git: local
// repositories, and a real `git daemon` on 127.0.0.1 for URL forms that are
// not local paths. The fake $HOME lives in a temp dir.
import { deepEqual, equal, match, notEqual, ok, throws } from "node:assert/strict";
import { join, relative } from "node:path";
import { type ResolvedSource, resolveSource, SourceError } from "../lib/sources/_resolve.ts";
import { syncAll, syncSource } from "../lib/sources/_sync.ts";
import { sha256Hex } from "../lib/hash.ts";
import {
  exists,
  MAIN,
  runCli,
  runGit,
  type Sandbox,
  withGitDaemon,
  withSandbox,
  writeTree,
} from "./helpers.ts";

/** The sandbox, with a victim's files in its home and the paths the sync writes. */
interface Box extends Sandbox {
  cache: string;
  lockFile: string;
  /** Files and links under `home` (minus the cache and the lock file), each with a digest. */
  snapshot(): Promise<Record<string, string>>;
}

async function withBox(fn: (box: Box) => Promise<void>): Promise<void> {
  await withSandbox(async (sandbox) => {
    const home = sandbox.home;
    const state = join(sandbox.dshHome, "skills-anywhere");
    const cache = join(state, "cache");
    const lockFile = join(state, "lock.json");
    await writeTree(home, {
      ".ssh/authorized_keys": "ssh-ed25519 AAAAVICTIM victim@laptop\n",
      ".config/git/ignore": "*.swp\n",
      "notes/todo.txt": "buy milk\n",
    });
    const snapshot = async () => {
      const out: Record<string, string> = {};
      const walk = async (dir: string) => {
        for await (const entry of Deno.readDir(dir)) {
          const path = join(dir, entry.name);
          if (path === cache || path === lockFile) continue;
          const rel = relative(home, path);
          const info = await Deno.lstat(path);
          if (info.isSymlink) out[rel] = `link ${await Deno.readLink(path)}`;
          else if (info.isDirectory) {
            // The folders that hold the cache are made by the first sync.
            if (!cache.startsWith(`${path}/`)) out[rel] = "dir";
            await walk(path);
          } else {
            out[rel] = sha256Hex(await Deno.readFile(path));
          }
        }
      };
      await walk(home);
      return out;
    };
    await fn({ ...sandbox, cache, lockFile, snapshot });
  });
}

/** Publishes the work repository `work` as the bare repository `<base>/<path>`. */
async function publish(box: Box, work: string, base: string, path: string): Promise<void> {
  await Deno.mkdir(join(base, path, ".."), { recursive: true });
  await box.git(box.root, "clone", "-q", "--bare", "--", work, join(base, path));
}

/** Every entry directly in the cache, each a real directory. */
async function cacheEntries(cache: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(cache)) {
    ok(entry.isDirectory && !entry.isSymlink, `${entry.name} is a plain directory`);
    names.push(entry.name);
  }
  return names.sort();
}

Deno.test("finding 1: nested cache ids cannot replace ~/.ssh or ~/.config/git through a symlink", async () => {
  await withBox(async (box) => {
    const base = join(box.root, "served");
    // The older, nested layout kept `git://127.0.0.1:<port>/a/r` at <cache>/127.0.0.1/<port>/a/r;
    // seven levels up from there is $HOME.
    const up = "../../../../../../..";
    const repoA = await box.repo("a-work", { "README.md": "innocent\n" }, { l: up });
    const keys = await box.repo("keys-work", { authorized_keys: "ssh-ed25519 AAAAEVIL evil\n" });
    const marker = join(box.root, "fsmonitor-ran");
    const config = await box.repo("config-work", {
      config: `[core]\n\tfsmonitor = touch ${marker}\n`,
    });
    await publish(box, repoA, base, "a/r");
    await publish(box, keys, base, "a/r/l/.ssh");
    await publish(box, config, base, "a/r/l/.config/git");
    const victim = await box.repo("home/work/victim", { "v.txt": "mine\n" });
    const before = await box.snapshot();
    let sources: ResolvedSource[] = [];

    await withGitDaemon(base, async (url) => {
      sources = [`${url}/a/r`, `${url}/a/r/l/.ssh`, `${url}/a/r/l/.config/git`].map(
        (repo) => resolveSource(repo, box.cache),
      );
      for (let round = 0; round < 2; round++) {
        const results = await syncAll(sources, { lockFile: box.lockFile });
        deepEqual(await box.snapshot(), before);
        for (const result of results) equal(result.error, null, result.source);
      }
    });
    equal(
      await Deno.readTextFile(join(box.home, ".ssh", "authorized_keys")),
      "ssh-ed25519 AAAAVICTIM victim@laptop\n",
    );
    // The user's own git, with the user's own (untouched) global config, runs nothing.
    await runGit(victim, ["status", "--short"], {
      env: { HOME: box.home, PATH: box.env.PATH, GIT_CONFIG_NOSYSTEM: "1" },
      clearEnv: true,
    });
    equal(await exists(marker), false, "a planted core.fsmonitor ran");
    // Each source has one flat folder of its own, bound to its URL.
    deepEqual(
      await cacheEntries(box.cache),
      sources.map((source) => source.dir.slice(box.cache.length + 1)).sort(),
    );
    for (const source of sources) {
      equal(await box.git(source.dir, "config", "--get", "remote.origin.url"), source.url);
    }
  });
});

Deno.test("finding 2: a source cannot plant hooks in another checkout's .git, and no hook runs", async () => {
  await withBox(async (box) => {
    const base = join(box.root, "served");
    const marker = join(box.root, "hook-ran");
    const hook = `#!/bin/sh\ntouch ${marker}\n`;
    const repoA = await box.repo("b-work", { "README.md": "one\n" });
    const hooks = await box.repo("hooks-work", {
      "post-checkout": hook,
      "reference-transaction": hook,
      "post-merge": hook,
      "pre-auto-gc": hook,
    });
    for (const name of ["post-checkout", "reference-transaction", "post-merge", "pre-auto-gc"]) {
      await Deno.chmod(join(hooks, name), 0o755);
    }
    await box.git(hooks, "add", "-A");
    await box.git(hooks, "commit", "-q", "-m", "exec");
    await publish(box, repoA, base, "b/r");
    await publish(box, hooks, base, "b/r/.GIT/hooks");
    const before = await box.snapshot();

    await withGitDaemon(base, async (url) => {
      const sources = [`${url}/b/r`, `${url}/b/r/.GIT/hooks`].map((repo) =>
        resolveSource(repo, box.cache)
      );
      const first = await syncAll(sources, { lockFile: box.lockFile });
      deepEqual(first.map((r) => r.status), ["cloned", "cloned"]);
      // A new upstream commit: the update fetches and checks out, where hooks would fire.
      await writeTree(repoA, { "README.md": "two\n" });
      await box.git(repoA, "commit", "-q", "-am", "two");
      await box.git(repoA, "push", "-q", "--", join(base, "b/r"), "HEAD:refs/heads/main");
      const second = await syncAll(sources, { lockFile: box.lockFile });
      deepEqual(second.map((r) => r.status), ["updated", "unchanged"]);
      equal(await Deno.readTextFile(join(sources[0].dir, "README.md")), "two\n");
      for (const name of await cacheEntries(box.cache)) {
        const planted = await exists(join(box.cache, name, ".git", "hooks", "post-checkout"));
        equal(planted, false, `hooks planted in ${name}`);
      }
    });
    equal(await exists(marker), false, "a hook from a repository ran");
    deepEqual(await box.snapshot(), before);
  });
});

Deno.test("finding 3: a source never adopts another source's checkout", async () => {
  await withBox(async (box) => {
    const base = join(box.root, "served");
    const real = await box.repo("real-work", { "skills/real/SKILL.md": "real\n" });
    const evil = await box.repo("evil-work", { "skills/real/SKILL.md": "evil\n" });
    await publish(box, real, base, "v/skills");
    await publish(box, evil, base, "v/Skills");
    await withGitDaemon(base, async (url) => {
      // Same id (ids ignore case), different repositories.
      const attacker = resolveSource(`${url}/v/Skills`, box.cache);
      const wanted = resolveSource(`${url}/v/skills`, box.cache);
      equal((await syncSource(attacker)).status, "cloned");
      const result = await syncSource(wanted);
      equal(result.status, "cloned");
      notEqual(wanted.dir, attacker.dir);
      equal(await Deno.readTextFile(join(wanted.dir, "skills/real/SKILL.md")), "real\n");
      equal(await box.git(wanted.dir, "config", "--get", "remote.origin.url"), wanted.url);
    });
  });
});

Deno.test("finding 3: a checkout whose origin is another URL is replaced, never adopted", async () => {
  await withBox(async (box) => {
    const real = await box.repo("real", { "s.txt": "real\n" });
    const evil = await box.repo("evil", { "s.txt": "evil\n" });
    const wanted = resolveSource(real, box.cache);
    const other = resolveSource(evil, box.cache);
    equal((await syncSource(other)).status, "cloned");
    // Whatever put it there (an older version, a hand copy), the folder holds another repository.
    await Deno.rename(other.dir, wanted.dir);
    const realSha = await box.git(real, "rev-parse", "HEAD");
    deepEqual(await syncSource(wanted), {
      source: wanted.display,
      key: wanted.key,
      status: "cloned",
      sha: realSha,
      error: null,
    });
    equal(await Deno.readTextFile(join(wanted.dir, "s.txt")), "real\n");
    equal(await box.git(wanted.dir, "config", "--get", "remote.origin.url"), real);
    deepEqual(await cacheEntries(box.cache), [wanted.dir.slice(box.cache.length + 1)]);
  });
});

Deno.test("finding 9: a failing source never deletes another source's checkout", async () => {
  await withBox(async (box) => {
    const base = join(box.root, "served");
    const real = await box.repo("real-work", { "s.txt": "real\n" });
    await publish(box, real, base, "o/skills");
    await withGitDaemon(base, async (url) => {
      const child = resolveSource(`${url}/o/skills`, box.cache);
      const parent = resolveSource(`${url}/o`, box.cache);
      const cloned = await syncSource(child);
      equal(cloned.status, "cloned");
      const failed = await syncSource(parent);
      equal(failed.status, "failed");
      equal(await Deno.readTextFile(join(child.dir, "s.txt")), "real\n");
      deepEqual(await syncSource(child), { ...cloned, status: "unchanged" });
      deepEqual(await cacheEntries(box.cache), [child.dir.slice(box.cache.length + 1)]);
    });
  });
});

/** Source strings that would put an option, a control character or a non-host in front of git. */
const HOSTILE: Array<string | { repo: string; ref?: string; path?: string }> = [
  "git@-oProxyCommand=touch:r",
  "git@x:--upload-pack=touch",
  "git@x:-u",
  "ssh://-oProxyCommand=touch/r",
  "ssh://h/-oProxyCommand=touch",
  "ssh://git@-oProxyCommand=x/r",
  "ssh://h:-1/r",
  "https://h/o/-r",
  "git://-h/o/r",
  "-o/r",
  "o/-r",
  "o/r/-x",
  "https://h/o/r x",
  "https://h/o/r\tx",
  "o/r\u0007",
  "https://h/o/\u001b[2Jr",
  "git@p/a:r",
  "git@github.com/anthropics:skills",
  "git@/abs/path:r",
  "git@h",
  "git@:r",
  { repo: "o/r", ref: "--upload-pack=touch" },
  { repo: "o/r", ref: "-b" },
  { repo: "o/r", ref: "v1 x" },
  { repo: "o/r", ref: "v1\n" },
  { repo: "o/r", path: "-x/y" },
  { repo: "o/r", path: "a\u0000b" },
  { repo: "o/r", path: ".GIT/hooks" },
];

Deno.test("finding 13: option-like, control-character and non-host source strings are refused when parsed", () => {
  for (const spec of HOSTILE) {
    throws(
      () => resolveSource(spec, "/tmp/dsa-cache"),
      (error: unknown) => error instanceof SourceError,
      JSON.stringify(spec),
    );
  }
  // The ordinary forms still parse.
  for (
    const spec of [
      "o/r",
      "o-x/r.y_z@v1.0-rc",
      "git@github.com:o/r.git",
      "deploy@host.example:srv/repo.git",
      "ssh://git@h.example:2222/o/r.git",
      "https://gitlab.com/g/sub/r.git",
      "/tmp/some dir/repo",
    ]
  ) {
    resolveSource(spec, "/tmp/dsa-cache");
  }
});

Deno.test("finding 13: add refuses a hostile source with exit 2 and writes nothing", async () => {
  await withBox(async (box) => {
    // An ssh that only leaves a mark: no real connection can ever be attempted.
    const marker = join(box.root, "ssh-ran");
    await writeTree(box.root, { "bin/ssh": `#!/bin/sh\ntouch ${marker}\nexit 255\n` });
    await Deno.chmod(join(box.root, "bin/ssh"), 0o755);
    const env = { ...box.env, PATH: `${join(box.root, "bin")}:${box.env.PATH}` };
    for (
      const source of [
        "ssh://-oProxyCommand=touch%20x/r",
        "git@x:--upload-pack=touch",
        "git@-oProxyCommand=x:r",
        "ssh://h/-oProxyCommand=x",
        "git@p/a:r",
      ]
    ) {
      const before = await box.snapshot();
      const result = await runCli(["add", source], { cwd: box.root, env });
      equal(result.code, 2, `${source}: ${result.stderr}`);
      match(result.stderr, /^(?:dsh-)?(?:skills-anywhere: )?refusing source /, result.stderr);
      equal(result.stdout, "");
      deepEqual(await box.snapshot(), before);
      equal(await exists(join(box.home, ".dsh")), false);
    }
    equal(await exists(marker), false);
  });
});

// ---------------------------------------------------------------------------
// Finding 7: a crash (kill -9) in the middle of a sync

/** True while a sync is visibly writing: a staging folder, a half clone or a live index.lock. */
async function writing(cache: string): Promise<boolean> {
  const walk = async (dir: string, depth: number): Promise<boolean> => {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch {
      return false;
    }
    for (const entry of entries) {
      const name = entry.name;
      if (name.startsWith(".staging-") || name.includes(".tmp-") || name === "index.lock") {
        return true;
      }
      if (
        entry.isDirectory && depth < 4 && (depth < 2 || name === ".git") &&
        await walk(join(dir, name), depth + 1)
      ) {
        return true;
      }
    }
    return false;
  };
  return await walk(cache, 0);
}

/** A repository with enough file content that checking it out takes a while. */
async function bigCommit(box: Box, repo: string, fill: string): Promise<string> {
  const files: Record<string, string> = {};
  const blob = fill.repeat(8192);
  for (let i = 0; i < 1500; i++) files[`data/f${i}.txt`] = `${i}\n${blob}`;
  await writeTree(repo, files);
  await box.git(repo, "add", "-A");
  await box.git(repo, "commit", "-q", "-m", fill);
  return await box.git(repo, "rev-parse", "HEAD");
}

/** Runs `sync` in its own process group and kills the whole group with SIGKILL mid-write. */
async function crashSync(box: Box, env: Record<string, string>): Promise<void> {
  const child = new Deno.Command("setsid", {
    args: [Deno.execPath(), "run", "-A", "--quiet", MAIN, "sync"],
    cwd: box.root,
    env,
    clearEnv: true,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  let caught = false;
  const done = child.status.then(() => true);
  while (!caught) {
    if (await writing(box.cache)) {
      Deno.kill(-child.pid, "SIGKILL");
      caught = true;
    } else if (await Promise.race([done, Promise.resolve(false)])) {
      break;
    }
  }
  const status = await child.status;
  ok(caught && status.signal === "SIGKILL", "the sync was killed while it was writing");
}

async function assertClean(box: Box, dir: string, sha: string): Promise<void> {
  equal(await box.git(dir, "rev-parse", "HEAD"), sha);
  equal(await box.git(dir, "status", "--porcelain", "--ignored"), "");
  equal(await exists(join(dir, ".git", "index.lock")), false);
  deepEqual(await cacheEntries(box.cache), [dir.slice(box.cache.length + 1)]);
}

Deno.test("finding 7: after kill -9 during a clone or an update, the next sync succeeds cleanly", async () => {
  await withBox(async (box) => {
    const upstream = await box.repo("big", { "README.md": "big\n" });
    const first = await bigCommit(box, upstream, "a");
    await writeTree(box.home, {
      ".dsh/skills-anywhere/sources.json": JSON.stringify({ sources: [upstream] }),
    });
    const env = box.env;
    const source = resolveSource(upstream, box.cache);

    // killed during the first clone
    await crashSync(box, env);
    const cloned = await runCli(["sync", "--json"], { cwd: box.root, env });
    equal(cloned.code, 0, cloned.stderr);
    equal(JSON.parse(cloned.stdout)[0].status, "cloned");
    await assertClean(box, source.dir, first);

    // killed during an update
    const second = await bigCommit(box, upstream, "b");
    await crashSync(box, env);
    const updated = await runCli(["sync", "--json"], { cwd: box.root, env });
    equal(updated.code, 0, updated.stderr);
    deepEqual(JSON.parse(updated.stdout)[0].sha, second);
    await assertClean(box, source.dir, second);
  });
});
