// Symlinks never leak a file: a cloned project, a plugin marketplace or a Git source may not
// reach outside itself through a link, and no skill file comes from /proc, /sys or /dev (a
// procfs file reports size 0 and reads the process's environment). Every attack runs through
// the real CLI (`list`, `doctor`) and the real MCP server with a secret in its environment; the
// secret and the outside files' contents must appear in no output. Links the user made in their
// own agent folders (as the Vercel `skills` CLI installs them) and links that stay inside a
// project keep working.
import { deepEqual, equal, ok } from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { readBoundedSync, ReadError } from "../lib/fs/_read.ts";
import { readSkillNow } from "../lib/load/_fresh.ts";
import { runGit, withTempDir, writeTree } from "./helpers.ts";
import {
  cli,
  connect,
  rejection,
  type Sandbox,
  type Session,
  skillMd,
  textOf,
  withSandbox,
} from "./mcp_helpers.ts";

/** A value that must never appear in any output. */
const SECRET = `secret-${randomBytes(16).toString("hex")}`;
/** Marks text that lives only in files outside the scanned folders. */
const OUTSIDE = `outside-${randomBytes(8).toString("hex")}`;
/** A line every /etc/passwd has. */
const PASSWD = "root:x:0:0";

const FORBIDDEN = [SECRET, OUTSIDE, PASSWD];

function assertClean(text: string, what: string): void {
  for (const bad of FORBIDDEN) ok(!text.includes(bad), `${what} leaked ${bad}:\n${text}`);
}

/** A skill outside every scanned folder: its text must never be served. */
function outsideSkill(name: string): string {
  return skillMd(name, `Leaked ${OUTSIDE} description.`, `Leaked ${OUTSIDE} body.`);
}

/** The sandbox with SECRET_TOKEN in every child's environment. */
function withSecret<T>(fn: (box: Sandbox) => Promise<T>): Promise<T> {
  return withSandbox(async (box) => {
    box.env.SECRET_TOKEN = SECRET;
    return await fn(box);
  });
}

interface CliView {
  names: string[];
  invalid: { path: string; reason: string }[];
  doctor: string;
  doctorJson: { invalid: { path: string; kind: string; reason: string; refusal?: string }[] };
}

/** Runs `list --json`, `list`, `doctor` and `doctor --json`; checks that none of them leaks. */
async function cliView(box: Sandbox): Promise<CliView> {
  const runs = await Promise.all([
    cli(box, ["list", "--json"]),
    cli(box, ["list"]),
    cli(box, ["doctor"]),
    cli(box, ["doctor", "--json"]),
  ]);
  for (const [i, run] of runs.entries()) {
    equal(run.code, 0, run.stderr);
    assertClean(run.stdout + run.stderr, `CLI run ${i}`);
  }
  const list = JSON.parse(runs[0].stdout) as {
    skills: { name: string }[];
    invalid: { path: string; reason: string }[];
  };
  return {
    names: list.skills.map((s) => s.name).sort(),
    invalid: list.invalid,
    doctor: runs[2].stdout,
    doctorJson: JSON.parse(runs[3].stdout),
  };
}

/**
 * Every MCP surface a model sees: list_skills, find_skills, open_skill and resources for the
 * listed names and for `probe` names, all checked for leaks. Returns the listed names and the
 * names open_skill served.
 */
async function mcpSweep(
  session: Session,
  probe: string[],
): Promise<{ listed: string[]; opened: string[] }> {
  const seen: string[] = [];
  const list = await session.call("list_skills", { limit: 100 });
  seen.push(JSON.stringify(list));
  const listed = ((list.structuredContent?.skills ?? []) as { name: string }[])
    .map((s) => s.name).sort();
  for (const query of ["setup leak passwd environ secret", "stolen leaked outside", "x"]) {
    seen.push(JSON.stringify(await session.call("find_skills", { query })));
  }
  const resources = await session.client.listResources();
  seen.push(JSON.stringify(resources));
  const opened: string[] = [];
  for (const name of [...new Set([...listed, ...probe])]) {
    const open = await session.call("open_skill", { name });
    seen.push(JSON.stringify(open));
    if (!open.isError) opened.push(name);
    try {
      seen.push(JSON.stringify(await session.read(`skill://${name}`)));
    } catch (error) {
      seen.push(error instanceof Error ? error.message : String(error));
    }
  }
  seen.push(session.stderr());
  assertClean(seen.join("\n"), "MCP responses");
  return { listed, opened: opened.sort() };
}

async function withServer<T>(box: Sandbox, fn: (session: Session) => Promise<T>): Promise<T> {
  const session = await connect(box, "auto");
  try {
    return await fn(session);
  } finally {
    assertClean(await session.close(), "MCP server stderr");
  }
}

/** The hostile project of finding 5, plus one real skill and one link that stays inside. */
async function hostileProject(box: Sandbox): Promise<void> {
  const skills = join(box.project, ".claude", "skills");
  await writeTree(box.root, {
    "outside/secret.md": outsideSkill("leak"),
    "outside/skilldir/SKILL.md": outsideSkill("leakdir"),
    "outside/cursor/skills/stolen/SKILL.md": outsideSkill("stolen"),
    "outside/gemini/taken/SKILL.md": outsideSkill("taken"),
  });
  await writeTree(box.project, {
    ".claude/skills/good/SKILL.md": skillMd("good", "A real project skill.", "Good body."),
    ".claude/skills/setup/notes.txt": "x",
    ".claude/skills/leak/notes.txt": "x",
    "docs/inside/SKILL.md": skillMd("inside-linked", "Linked from inside.", "Inside body."),
    ".gemini/keep.txt": "x",
  });
  await Deno.symlink("/proc/self/environ", join(skills, "setup", "SKILL.md"));
  await Deno.symlink("/etc/passwd", join(skills, "x.md"));
  await Deno.symlink(join(box.root, "outside", "secret.md"), join(skills, "leak", "SKILL.md"));
  await Deno.symlink(join(box.root, "outside", "skilldir"), join(skills, "leakdir"));
  await Deno.symlink("../../docs/inside", join(skills, "alias"));
  // The agent folder itself is a link out of the project (a path component below the boundary).
  await Deno.symlink(join(box.root, "outside", "cursor"), join(box.project, ".cursor"));
  await Deno.symlink(join(box.root, "outside", "gemini"), join(box.project, ".gemini", "skills"));
}

const HOSTILE_NAMES = ["setup", "x", "leak", "leakdir", "stolen", "taken", "environ", "passwd"];

Deno.test("a project's committed symlinks leak nothing to the CLI; doctor explains each refusal", async () => {
  await withSecret(async (box) => {
    await hostileProject(box);
    const view = await cliView(box);
    deepEqual(view.names, ["good", "inside-linked"]);
    const reasons = view.invalid.map((i) => i.reason).sort();
    deepEqual(
      reasons,
      [
        `symlink leaves the project: .cursor/skills -> ${
          join(box.root, "outside", "cursor")
        }/skills`,
        `symlink leaves the project: .gemini/skills -> ${join(box.root, "outside", "gemini")}`,
        `symlink leaves the project: leak/SKILL.md -> ${join(box.root, "outside", "secret.md")}`,
        `symlink leaves the project: leakdir -> ${join(box.root, "outside", "skilldir")}`,
        "symlink leaves the project: setup/SKILL.md -> /proc/self/environ",
        "symlink leaves the project: x.md -> /etc/passwd",
      ].sort(),
    );
    ok(view.doctor.includes("Refused for safety (6):"), view.doctor);
    ok(
      view.doctor.includes(
        "    - symlink leaves the project: setup/SKILL.md -> /proc/self/environ",
      ),
      view.doctor,
    );
    ok(view.doctor.includes("not offered to any agent"), view.doctor);
    equal(view.doctorJson.invalid.length, 6);
    for (const entry of view.doctorJson.invalid) {
      equal(entry.refusal, "link", entry.path);
      equal(entry.kind, "outside", entry.path);
    }
  });
});

Deno.test("a project's committed symlinks leak nothing through any MCP surface", async () => {
  await withSecret(async (box) => {
    await hostileProject(box);
    await withServer(box, async (session) => {
      const { listed, opened } = await mcpSweep(session, HOSTILE_NAMES);
      deepEqual(listed, ["good", "inside-linked"]);
      deepEqual(opened, ["good", "inside-linked"]);
      const inside = await session.call("open_skill", { name: "inside-linked" });
      ok(textOf(inside).includes("Inside body."), textOf(inside));
    });
  });
});

Deno.test("open_skill re-checks links: a file or folder swapped for an outside link after listing is refused", async () => {
  await withSecret(async (box) => {
    const skills = join(box.project, ".claude", "skills");
    await writeTree(box.root, {
      "outside/secret.md": outsideSkill("first"),
      "outside/dir/SKILL.md": outsideSkill("second"),
    });
    await writeTree(skills, {
      "first/SKILL.md": skillMd("first", "First.", "First body."),
      "second/SKILL.md": skillMd("second", "Second.", "Second body."),
      "third/SKILL.md": skillMd("third", "Third.", "Third body."),
    });
    await withServer(box, async (session) => {
      const before = await mcpSweep(session, []);
      deepEqual(before.opened, ["first", "second", "third"]);
      await Deno.remove(join(skills, "first", "SKILL.md"));
      await Deno.symlink(join(box.root, "outside", "secret.md"), join(skills, "first", "SKILL.md"));
      await Deno.remove(join(skills, "second"), { recursive: true });
      await Deno.symlink(join(box.root, "outside", "dir"), join(skills, "second"));
      await Deno.remove(join(skills, "third", "SKILL.md"));
      await Deno.symlink("/proc/self/environ", join(skills, "third", "SKILL.md"));
      for (const name of ["first", "second", "third"]) {
        for (const args of [{ name }, { name, include_bundle: true }]) {
          const open = await session.call("open_skill", args);
          ok(open.isError, `${name} must be refused: ${textOf(open)}`);
          assertClean(JSON.stringify(open), `open_skill ${name}`);
        }
        assertClean(await rejection(session.read(`skill://${name}`)), `resource ${name}`);
      }
    });
  });
});

Deno.test("a plugin marketplace's link to / or elsewhere publishes nothing outside it", async () => {
  await withSecret(async (box) => {
    const market = join(box.home, ".claude", "plugins", "marketplaces", "m");
    await writeTree(market, {
      "plugins/p/skills/ok/SKILL.md": skillMd("ok", "A plugin skill.", "Plugin body."),
    });
    await writeTree(box.root, { "outside/plug/skills/stolen/SKILL.md": outsideSkill("stolen") });
    await Deno.symlink("/", join(market, "rootlink"));
    await Deno.symlink(join(box.root, "outside", "plug"), join(market, "plugins", "evil"));
    await Deno.mkdir(join(market, "plugins", "p", "skills", "ok-not"));
    await Deno.symlink(
      "/proc/self/environ",
      join(market, "plugins", "p", "skills", "ok-not", "SKILL.md"),
    );
    // Both plugins installed and enabled; evil's install folder is a link out of ~/.claude/plugins.
    const install = (dir: string) => [{ scope: "user", installPath: join(market, "plugins", dir) }];
    await writeTree(box.home, {
      ".claude/plugins/installed_plugins.json": JSON.stringify({
        version: 2,
        plugins: { "p@m": install("p"), "evil@m": install("evil") },
      }),
      ".claude/settings.json": '{"enabledPlugins": {"p@m": true, "evil@m": true}}',
    });
    const view = await cliView(box);
    deepEqual(view.names, ["ok"]);
    const reasons = view.invalid.map((i) => i.reason).sort();
    deepEqual(reasons, [
      "symlink leaves the plugin folder: ok-not/SKILL.md -> /proc/self/environ",
    ]);
    await withServer(box, async (session) => {
      const { listed } = await mcpSweep(session, ["stolen", "ok-not"]);
      deepEqual(listed, ["ok"]);
    });
  });
});

Deno.test("a Git source whose --path is a symlink out of the checkout publishes nothing", async () => {
  await withSecret(async (box) => {
    await writeTree(box.home, { "private/stolen/SKILL.md": outsideSkill("stolen") });
    const upstream = join(box.root, "upstream");
    await writeTree(upstream, {
      "real/fine/SKILL.md": skillMd("fine", "A source skill.", "Source body."),
    });
    await Deno.symlink(join(box.home, "private"), join(upstream, "skills"));
    await Deno.symlink("../../../../../../../../../../../../..", join(upstream, "up"));
    await runGit(upstream, ["init", "-q"]);
    await runGit(upstream, ["add", "-A"]);
    await runGit(upstream, ["commit", "-q", "-m", "hostile"]);
    await writeTree(box.dshHome, {
      "skills-anywhere/sources.json": JSON.stringify({
        sources: [{ repo: upstream, path: "skills" }, { repo: upstream, path: "real" }, {
          repo: upstream,
          path: "up",
        }],
      }),
    });
    const sync = await cli(box, ["sync"]);
    assertClean(sync.stdout + sync.stderr, "sync");
    const view = await cliView(box);
    ok(!view.names.includes("stolen"), view.names.join(","));
    ok(view.names.includes("fine"), JSON.stringify(view) + sync.stderr);
    await withServer(box, async (session) => {
      const { listed } = await mcpSweep(session, ["stolen"]);
      ok(listed.includes("fine") && !listed.includes("stolen"), listed.join(","));
    });
  });
});

Deno.test("user-scope links keep working (Vercel-style installs); links into /proc are refused", async () => {
  await withSecret(async (box) => {
    const skills = join(box.home, ".claude", "skills");
    await writeTree(box.home, {
      ".agents/skills/vercel-x/SKILL.md": skillMd("vercel-x", "Installed by link.", "Vx body."),
      "stuff/elsewhere/SKILL.md": skillMd("elsewhere", "Linked from HOME.", "Else body."),
      "stuff/flat.md": skillMd("flat-linked", "A linked flat file.", "Flat body."),
      ".claude/skills/envdir/notes.txt": "x",
    });
    await Deno.symlink(join(box.home, ".agents", "skills", "vercel-x"), join(skills, "vercel-x"));
    await Deno.symlink(join(box.home, "stuff", "elsewhere"), join(skills, "elsewhere"));
    await Deno.symlink(join(box.home, "stuff", "flat.md"), join(skills, "flat-linked.md"));
    await Deno.symlink("/proc/self/environ", join(skills, "environ.md"));
    await Deno.symlink("/proc/self/environ", join(skills, "envdir", "SKILL.md"));
    await Deno.symlink("/proc/self", join(skills, "procdir"));
    const view = await cliView(box);
    deepEqual(view.names, ["elsewhere", "flat-linked", "vercel-x"]);
    const reasons = view.invalid.map((i) => i.reason).sort();
    deepEqual(reasons, [
      "symlink leads into /proc, /sys or /dev: envdir/SKILL.md -> /proc/self/environ",
      "symlink leads into /proc, /sys or /dev: environ.md -> /proc/self/environ",
      "symlink leads into /proc, /sys or /dev: procdir -> /proc/self",
    ]);
    ok(view.doctor.includes("Refused for safety (3):"), view.doctor);
    await withServer(box, async (session) => {
      const { opened } = await mcpSweep(session, ["environ", "envdir", "procdir"]);
      deepEqual(opened, ["elsewhere", "flat-linked", "vercel-x"]);
    });
  });
});

Deno.test("a pseudo-file whose size disagrees with what it reads is refused, never content", async () => {
  const readKind = (
    path: string,
    options: { followSymlinks?: boolean; within?: string; verifySize?: boolean },
  ) => {
    try {
      readBoundedSync(path, { maxBytes: 128 * 1024, ...options });
    } catch (error) {
      ok(error instanceof ReadError);
      return error.kind;
    }
    return "read";
  };
  // procfs says "regular file, 0 bytes" and reads the environment.
  equal(
    readKind("/proc/self/environ", { followSymlinks: false, verifySize: true }),
    "size-mismatch",
  );
  const fresh = readSkillNow("/proc/self/environ", { fallbackName: "environ", lenient: true });
  equal(fresh.ok ? "ok" : fresh.kind, "invalid");
  assertClean(JSON.stringify(fresh), "fresh read");
  await withTempDir(async (dir) => {
    await Deno.symlink("/proc/self/environ", join(dir, "SKILL.md"));
    // A followed link never reaches /proc, with or without a boundary.
    equal(readKind(join(dir, "SKILL.md"), { followSymlinks: true }), "outside");
    equal(readKind(join(dir, "SKILL.md"), { followSymlinks: true, within: dir }), "outside");
    equal(readKind(join(dir, "SKILL.md"), {}), "symlink");
  });
});
