/**
 * Every file the tool writes goes through the one writer (`lib/fs/_write.ts`): issue 27's findings
 * 3 and 4 reproduced end to end. A hostile project commits `<target>.tmp-<N> -> ~/.bashrc` for
 * every process id the system can hand out (the old writer's temporary name), a link in place of
 * the target itself, or a `.dsh` folder that is a link out of the project; `lock`, `sign`,
 * `add/remove --project`, `trust` and `sync` must never write through any of them. The writer's
 * own rules (unpredictable exclusive temporary file, no link followed, folder confined to its
 * root, mode kept) are tested on the module directly.
 *
 * @module
 */
import { deepEqual, equal, match, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { WriteError, writeWhole } from "../lib/fs/_write.ts";
import {
  exists,
  listTree,
  mkfifo,
  run,
  type Sandbox,
  skillMd,
  withSandbox,
  withTempDir,
  writeTree,
} from "./helpers.ts";

const BASHRC = "# the user's own shell start-up file\nexport EDITOR=vi\n";
const PROFILE = "# the user's login profile\n";

/**
 * The process ids a child started now can get: every one up to `pid_max` when that is small
 * enough to plant (32768 on most Linux systems), else the next 20,000 after the last one handed
 * out (ids are handed out in order, so the child's is among them).
 */
function pidRange(): [number, number] {
  const read = (file: string) => {
    try {
      return Number(Deno.readTextFileSync(file).trim());
    } catch {
      return undefined;
    }
  };
  const max = read("/proc/sys/kernel/pid_max") ?? 99_999;
  if (max <= 131_072) return [1, max];
  const last = read("/proc/sys/kernel/ns_last_pid") ?? 1;
  return [last + 1, last + 20_000];
}

/** Plants `<dir>/<name>.tmp-<N> -> target` for every process id N (the old writer's names). */
function plantTempLinks(dir: string, name: string, target: string): number {
  Deno.mkdirSync(dir, { recursive: true });
  const [from, to] = pidRange();
  for (let n = from; n <= to; n++) Deno.symlinkSync(target, join(dir, `${name}.tmp-${n}`));
  return to - from + 1;
}

/** The user's ~/.bashrc and ~/.profile, the files the planted links lead to. */
async function homeFiles(box: Sandbox) {
  const bashrc = join(box.home, ".bashrc");
  const profile = join(box.home, ".profile");
  await Deno.writeTextFile(bashrc, BASHRC);
  await Deno.writeTextFile(profile, PROFILE);
  return {
    bashrc,
    profile,
    /** Both still hold exactly what the user wrote. */
    async intact() {
      equal(await Deno.readTextFile(bashrc), BASHRC, "~/.bashrc was overwritten");
      equal(await Deno.readTextFile(profile), PROFILE, "~/.profile was overwritten");
    },
  };
}

/** The entries of `dir` that are not planted `.tmp-N` links: the writer leaves no temporary file. */
async function realEntries(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (/\.tmp-\d+$/.test(entry.name) && entry.isSymlink) continue;
    out.push(entry.name);
  }
  return out.sort();
}

/** A regular file (not a link) that parses as JSON. */
async function regularJson(path: string): Promise<unknown> {
  const info = await Deno.lstat(path);
  ok(info.isFile, `${path} is a regular file`);
  return JSON.parse(await Deno.readTextFile(path));
}

/** A link still leading where it led, its target's bytes unchanged. */
async function linkUntouched(link: string, target: string, bytes: string) {
  ok((await Deno.lstat(link)).isSymlink, `${link} is still a link`);
  equal(await Deno.readLink(link), target);
  equal(await Deno.readTextFile(target), bytes);
}

/** The refusal of the one writer: one line naming the path, in the CLI's words. */
function refusedLine(stderr: string, path: string, why: RegExp): void {
  const lines = stderr.split("\n").filter((l) => l.includes("refusing to write"));
  equal(lines.length, 1, stderr);
  ok(lines[0].startsWith("dsh-skills-anywhere: refusing to write "), lines[0]);
  ok(lines[0].includes(path), `${lines[0]} names ${path}`);
  match(lines[0], why);
  ok(!lines[0].endsWith("."), "no trailing period");
}

const SKILL_DIR = "x$(touch marker)";

Deno.test("lock: <lock>.tmp-N links for every pid never redirect it; ~/.bashrc stays the user's", async () => {
  await withSandbox(async (box) => {
    const home = await homeFiles(box);
    await Deno.mkdir(join(box.project, `.claude/skills/${SKILL_DIR}`), { recursive: true });
    await Deno.writeTextFile(
      join(box.project, `.claude/skills/${SKILL_DIR}/SKILL.md`),
      skillMd("x", "A skill whose folder name is a shell command.", "Body."),
    );
    ok(plantTempLinks(box.project, "skills-anywhere.lock.json", home.bashrc) > 30_000);
    const result = await box.cli("lock");
    await home.intact();
    // Had the lock landed in ~/.bashrc, its folder name would run at the next shell start.
    await run("bash", ["-c", '. "$HOME/.bashrc"'], { cwd: box.root, env: box.env, clearEnv: true });
    equal(await exists(join(box.root, "marker")), false, "a command from the lock ran");
    equal(result.code, 0, result.stderr);
    const lock = await regularJson(join(box.project, "skills-anywhere.lock.json")) as {
      skills: { name: string; path: string }[];
    };
    deepEqual(lock.skills.map((s) => [s.name, s.path]), [["x", `${SKILL_DIR}/SKILL.md`]]);
    deepEqual(await realEntries(box.project), [".claude", ".git", "skills-anywhere.lock.json"]);
  });
});

Deno.test("lock: a lock that is a link is refused in one line; the link and ~/.bashrc untouched", async () => {
  await withSandbox(async (box) => {
    const home = await homeFiles(box);
    await writeTree(box.project, {
      ".claude/skills/pdf/SKILL.md": skillMd("pdf", "Fill PDF forms.", "Body."),
    });
    const lockFile = join(box.project, "skills-anywhere.lock.json");
    await Deno.symlink(home.bashrc, lockFile);
    const result = await box.cli("lock");
    equal(result.code, 2, result.stderr);
    refusedLine(result.stderr, lockFile, /: it is a symbolic link$/);
    await linkUntouched(lockFile, home.bashrc, BASHRC);
    deepEqual(await realEntries(box.project), [".claude", ".git", "skills-anywhere.lock.json"]);
  });
});

Deno.test("lock, lock <name> and lock --user over a lock that is a link: only the writer's line", async () => {
  await withSandbox(async (box) => {
    const home = await homeFiles(box);
    await writeTree(box.project, {
      ".claude/skills/pdf/SKILL.md": skillMd("pdf", "Fill PDF forms.", "Body."),
    });
    await writeTree(box.home, {
      ".claude/skills/notes/SKILL.md": skillMd("notes", "Keep notes.", "Body."),
    });
    const lockFile = join(box.project, "skills-anywhere.lock.json");
    await Deno.symlink(home.bashrc, lockFile);
    const userLock = join(box.dshHome, "skills-anywhere", "user.lock.json");
    await Deno.mkdir(join(box.dshHome, "skills-anywhere"), { recursive: true });
    await Deno.symlink(home.profile, userLock);
    const runs: [string[], string][] = [
      [["lock"], lockFile],
      [["lock", "pdf"], lockFile],
      [["lock", "--user"], userLock],
      [["lock", "--user", "notes"], userLock],
    ];
    for (const [args, file] of runs) {
      const result = await box.cli(...args);
      equal(result.code, 2, `${args.join(" ")}: ${result.stderr}`);
      equal(result.stdout, "", args.join(" "));
      deepEqual(
        result.stderr.split("\n").filter((l) => l !== ""),
        [`dsh-skills-anywhere: refusing to write ${file}: it is a symbolic link`],
        args.join(" "),
      );
    }
    await linkUntouched(lockFile, home.bashrc, BASHRC);
    await linkUntouched(userLock, home.profile, PROFILE);
    await home.intact();
  });
});

async function signingKey(dir: string): Promise<string> {
  const key = join(dir, "key");
  const made = await run("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "t", "-f", key]);
  equal(made.code, 0, made.stderr);
  return key;
}

Deno.test("sign: <sig>.tmp-N links never redirect it, and a .sig that is a link is refused", async () => {
  await withSandbox(async (box) => {
    const home = await homeFiles(box);
    const key = await signingKey(box.root);
    await writeTree(box.project, {
      "skills/pdf/SKILL.md": skillMd("pdf", "Fill PDF forms.", "Body."),
    });
    const sig = "pdf.skills-anywhere.sig";
    plantTempLinks(join(box.project, "skills"), sig, home.bashrc);
    const signed = await box.cli("sign", "skills/pdf", "--key", key);
    await home.intact();
    equal(signed.code, 0, signed.stderr);
    ok((await Deno.lstat(join(box.project, "skills", sig))).isFile);
    match(await Deno.readTextFile(join(box.project, "skills", sig)), /^-----BEGIN SSH SIGNATURE/);
    deepEqual(await realEntries(join(box.project, "skills")), ["pdf", sig]);

    await Deno.remove(join(box.project, "skills", sig));
    await Deno.symlink(home.profile, join(box.project, "skills", sig));
    const refused = await box.cli("sign", "skills/pdf", "--key", key);
    equal(refused.code, 2, refused.stderr);
    refusedLine(refused.stderr, join(box.project, "skills", sig), /symbolic link/);
    await linkUntouched(join(box.project, "skills", sig), home.profile, PROFILE);
    await home.intact();
  });
});

Deno.test("add/remove --project: .dsh/skills-anywhere.json.tmp-N links never redirect them", async () => {
  await withSandbox(async (box) => {
    const home = await homeFiles(box);
    const source = await box.repo("src", { "skills/a/SKILL.md": skillMd("a", "A.", "Body.") });
    const dsh = join(box.project, ".dsh");
    plantTempLinks(dsh, "skills-anywhere.json", home.bashrc);
    const added = await box.cli("add", "--project", source);
    await home.intact();
    equal(added.code, 0, added.stderr);
    deepEqual(await regularJson(join(dsh, "skills-anywhere.json")), {
      sources: [{ repo: source }],
    });
    deepEqual(await realEntries(dsh), ["skills-anywhere.json"]);

    // The same planted links are still there for `remove`.
    const removed = await box.cli("remove", "--project", source);
    await home.intact();
    equal(removed.code, 0, removed.stderr);
    deepEqual(await regularJson(join(dsh, "skills-anywhere.json")), { sources: [] });
    deepEqual(await realEntries(dsh), ["skills-anywhere.json"]);
  });
});

Deno.test("add --project: a .dsh that is a link out of the project is refused in one line", async () => {
  await withSandbox(async (box) => {
    const home = await homeFiles(box);
    const source = await box.repo("src", { "skills/a/SKILL.md": skillMd("a", "A.", "Body.") });
    const outside = join(box.home, ".config");
    await Deno.mkdir(outside);
    await Deno.symlink(outside, join(box.project, ".dsh"));
    const before = await listTree(box.home);
    const result = await box.cli("add", "--project", source);
    equal(result.code, 2, result.stderr);
    refusedLine(
      result.stderr,
      join(box.project, ".dsh", "skills-anywhere.json"),
      /leads outside the project/,
    );
    equal(result.stderr.split("\n").filter((l) => l !== "").length, 1, result.stderr);
    deepEqual(await listTree(outside), []);
    // Nothing new in the home but the tool's own state folder (none is written: refused first).
    deepEqual((await listTree(box.home)).filter((p) => !p.startsWith(".dsh")), before);
    await home.intact();
  });
});

Deno.test("add/remove --project: a project sources file that is a link is refused, untouched", async () => {
  await withSandbox(async (box) => {
    const home = await homeFiles(box);
    const source = await box.repo("src", { "skills/a/SKILL.md": skillMd("a", "A.", "Body.") });
    const file = join(box.project, ".dsh", "skills-anywhere.json");
    await Deno.mkdir(join(box.project, ".dsh"));
    await Deno.symlink(home.bashrc, file);
    for (const args of [["add", "--project", source], ["remove", "--project", source]]) {
      const result = await box.cli(...args);
      equal(result.code, 2, result.stderr);
      equal(result.stderr.split("\n").filter((l) => l !== "").length, 1, result.stderr);
      ok(result.stderr.includes(file), result.stderr);
      match(result.stderr, /symbolic link/);
      await linkUntouched(file, home.bashrc, BASHRC);
    }
    await home.intact();
  });
});

Deno.test("trust: trust.json.tmp-N links never redirect it, and a trust.json link is refused", async () => {
  await withSandbox(async (box) => {
    const home = await homeFiles(box);
    await Deno.mkdir(join(box.project, ".dsh"));
    await Deno.writeTextFile(join(box.project, ".dsh/skills-anywhere.json"), '{"sources": []}\n');
    const state = join(box.dshHome, "skills-anywhere");
    plantTempLinks(state, "trust.json", home.bashrc);
    const trusted = await box.cli("trust", "--yes");
    await home.intact();
    equal(trusted.code, 0, trusted.stderr);
    const doc = await regularJson(join(state, "trust.json")) as { projects: object };
    equal(Object.keys(doc.projects).length, 1);
    deepEqual(await realEntries(state), ["trust.json"]);

    await Deno.remove(join(state, "trust.json"));
    await Deno.symlink(home.profile, join(state, "trust.json"));
    const refused = await box.cli("trust", "--yes");
    equal(refused.code, 2, refused.stderr);
    refusedLine(refused.stderr, join(state, "trust.json"), /symbolic link/);
    await linkUntouched(join(state, "trust.json"), home.profile, PROFILE);
  });
});

Deno.test("sync: lock.json.tmp-N and sync-failures.json.tmp-N links never redirect it", async () => {
  await withSandbox(async (box) => {
    const home = await homeFiles(box);
    const source = await box.repo("src", { "skills/a/SKILL.md": skillMd("a", "A.", "Body.") });
    const state = join(box.dshHome, "skills-anywhere");
    await Deno.mkdir(state, { recursive: true });
    // One source that syncs (a local repository) and one that fails at once (nothing listens).
    const failing = "git://127.0.0.1:9/nothing.git";
    await Deno.writeTextFile(
      join(state, "sources.json"),
      JSON.stringify({ sources: [{ repo: source }, { repo: failing }] }),
    );
    plantTempLinks(state, "lock.json", home.bashrc);
    plantTempLinks(state, "sync-failures.json", home.profile);
    const synced = await box.cli("sync");
    await home.intact();
    equal(synced.code, 1, synced.stderr);
    const lock = await regularJson(join(state, "lock.json")) as Record<string, { sha: string }>;
    equal(Object.keys(lock).length, 1);
    const failures = await regularJson(join(state, "sync-failures.json")) as Record<string, object>;
    equal(Object.keys(failures).length, 1);
    deepEqual(await realEntries(state), [
      "cache",
      "lock.json",
      "sources.json",
      "sync-failures.json",
    ]);

    // The state files themselves as links: each write is refused (a warning naming it), untouched.
    for (const name of ["lock.json", "sync-failures.json"]) {
      await Deno.remove(join(state, name));
    }
    await Deno.symlink(home.bashrc, join(state, "lock.json"));
    await Deno.symlink(home.profile, join(state, "sync-failures.json"));
    const again = await box.cli("sync", "--force");
    for (const name of ["lock.json", "sync-failures.json"]) {
      match(
        again.stderr,
        new RegExp(`could not write ${join(state, name)}: it is a symbolic link`),
      );
    }
    await linkUntouched(join(state, "lock.json"), home.bashrc, BASHRC);
    await linkUntouched(join(state, "sync-failures.json"), home.profile, PROFILE);
  });
});

Deno.test("add: a user sources file that is a link is refused in one line, the link untouched", async () => {
  await withSandbox(async (box) => {
    const home = await homeFiles(box);
    const source = await box.repo("src", { "skills/a/SKILL.md": skillMd("a", "A.", "Body.") });
    const state = join(box.dshHome, "skills-anywhere");
    await Deno.mkdir(state, { recursive: true });
    const shared = join(box.home, "dotfiles-sources.json");
    await Deno.writeTextFile(shared, '{"sources": []}\n');
    await Deno.symlink(shared, join(state, "sources.json"));
    const result = await box.cli("add", source);
    equal(result.code, 2, result.stderr);
    refusedLine(result.stderr, join(state, "sources.json"), /symbolic link/);
    await linkUntouched(join(state, "sources.json"), shared, '{"sources": []}\n');
    await home.intact();
  });
});

// ---------------------------------------------------------------------------
// The writer itself

Deno.test("writeWhole: writes whole, keeps the mode, leaves no temporary file, creates folders", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "a/b/state.json");
    await writeWhole(file, "{}\n", { within: dir });
    equal(await Deno.readTextFile(file), "{}\n");
    await Deno.chmod(file, 0o640);
    await writeWhole(file, new TextEncoder().encode("[1]\n"), { within: dir });
    equal(await Deno.readTextFile(file), "[1]\n");
    equal((await Deno.stat(file)).mode! & 0o777, 0o640);
    await writeWhole(join(dir, "private.json"), "{}", { mode: 0o600 });
    equal((await Deno.stat(join(dir, "private.json"))).mode! & 0o777, 0o600);
    deepEqual(await listTree(dir), ["a", "a/b", "a/b/state.json", "private.json"]);
  });
});

Deno.test("writeWhole: refuses a link target, a folder out of its root, a folder target; replaces a pipe", async () => {
  await withTempDir(async (dir) => {
    const root = join(dir, "root");
    const outside = join(dir, "outside");
    await Deno.mkdir(root);
    await Deno.mkdir(outside);
    await Deno.writeTextFile(join(outside, "victim"), "keep\n");
    const kindOf = async (path: string, options: { within?: string } = {}) => {
      try {
        await writeWhole(path, "x", options);
        return "written";
      } catch (error) {
        ok(error instanceof WriteError, String(error));
        ok(error.message.includes(path), error.message);
        ok(!error.message.endsWith("."), error.message);
        return error.kind;
      }
    };
    await Deno.symlink(join(outside, "victim"), join(root, "link"));
    equal(await kindOf(join(root, "link")), "symlink");
    await Deno.symlink(outside, join(root, "linked"));
    equal(await kindOf(join(root, "linked/new"), { within: root }), "outside");
    equal(await kindOf(join(root, "linked/deeper/new"), { within: root }), "outside");
    equal(await kindOf(join(outside, "new"), { within: root }), "outside");
    await Deno.mkdir(join(root, "folder"));
    equal(await kindOf(join(root, "folder")), "not-regular");
    await mkfifo(join(root, "pipe"));
    equal(await kindOf(join(root, "pipe")), "written", "a pipe in its place is replaced, unopened");
    ok((await Deno.lstat(join(root, "pipe"))).isFile);
    await Deno.writeTextFile(join(root, "file"), "");
    equal(await kindOf(join(root, "file/new")), "not-folder");
    equal(await Deno.readTextFile(join(outside, "victim")), "keep\n");
    deepEqual(await listTree(outside), ["victim"]);
    // A link inside the root that stays inside it is a folder like any other.
    await Deno.mkdir(join(root, "real"));
    await Deno.symlink("real", join(root, "alias"));
    equal(await kindOf(join(root, "alias/new"), { within: root }), "written");
    equal(await Deno.readTextFile(join(root, "real/new")), "x");
    await rejects(writeWhole("/proc/self/new-file", "x"), WriteError);
  });
});
