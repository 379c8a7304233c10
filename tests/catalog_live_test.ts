/**
 * The live catalog (`lib/catalog/_live.ts`) on real files in a sandbox: every kind of change
 * reaches `onChange` with no request, unchanged skills keep their object identity, only changed
 * files are read again (counted by the read hook), the polling fallback sees the same changes,
 * and `close` leaves no watcher or timer behind (Deno's sanitizers check every test).
 *
 * @module
 */
import { deepEqual, equal, notEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { resolveConfig } from "../lib/catalog/_config.ts";
import type { Catalog } from "../lib/catalog/_load.ts";
import type { DiscoveredSkill } from "../lib/catalog/_types.ts";
import { LiveCatalog, type LiveCatalogOptions } from "../lib/catalog/_live.ts";
import { type Sandbox, settlesWithin, skillMd, withSandbox, writeTree } from "./helpers.ts";

/** Generous upper bound for a change to arrive (no timed assertion: only a hang guard). */
const HANG = 10_000;

/** A live catalog over the sandbox, with every read recorded. */
function liveCatalog(box: Sandbox, options: LiveCatalogOptions = {}) {
  const reads: string[] = [];
  const config = resolveConfig({ sharedDirs: true }, { HOME: box.home, DSH_HOME: box.dshHome });
  const live = new LiveCatalog(config, {
    cwd: box.project,
    settleMs: 0,
    onRead: (path) => reads.push(path),
    ...options,
  });
  return { live, reads };
}

/**
 * Listens from now on for the next catalog `onChange` reports whose skills satisfy `until` (a
 * change that does not satisfy it yet, e.g. an editor's intermediate write, is waited past);
 * `wait()` then resolves with it, failing instead of hanging after {@linkcode HANG}.
 */
function nextChange(
  live: LiveCatalog,
  until: (skills: DiscoveredSkill[]) => boolean,
): { wait: () => Promise<Catalog> } {
  let off = () => {};
  const changed = new Promise<Catalog>((resolve) => {
    off = live.onChange((catalog) => {
      if (until(catalog.report.skills)) resolve(catalog);
    });
  });
  return { wait: () => settlesWithin(changed, HANG).finally(() => off()) };
}

const named = (skills: DiscoveredSkill[], name: string) => skills.find((s) => s.name === name);

const projectSkills = (box: Sandbox) => join(box.project, ".claude", "skills");

async function seed(box: Sandbox): Promise<void> {
  await writeTree(projectSkills(box), {
    "alpha/SKILL.md": skillMd("alpha", "Alpha skill.", "A"),
    "alpha/scripts/run.sh": "echo a\n",
    "beta/SKILL.md": skillMd("beta", "Beta skill.", "B"),
    "gamma/SKILL.md": skillMd("gamma", "Gamma skill.", "C"),
  });
}

/** Every kind of change, applied in order, with identity and read checks. */
async function everyChange(box: Sandbox, options: LiveCatalogOptions): Promise<void> {
  await seed(box);
  const { live, reads } = liveCatalog(box, options);
  try {
    const first = await live.report();
    deepEqual(first.skills.map((s) => s.name).sort(), ["alpha", "beta", "gamma"]);
    const dir = projectSkills(box);
    const state = live.watching();
    ok(
      (options.mode === "poll" ? state.polled : state.watched).includes(dir),
      JSON.stringify(state),
    );
    const [alpha, beta, gamma] = ["alpha", "beta", "gamma"].map((n) => named(first.skills, n)!);

    // Add.
    reads.length = 0;
    let change = nextChange(live, (skills) => named(skills, "delta") !== undefined);
    await writeTree(dir, { "delta/SKILL.md": skillMd("delta", "Delta skill.", "D") });
    let skills = (await change.wait()).report.skills;
    deepEqual([...new Set(reads)], [join(dir, "delta", "SKILL.md")], "only the new file is read");
    equal(named(skills, "alpha"), alpha, "unchanged skills keep their identity");
    equal(named(skills, "beta"), beta);
    equal(named(skills, "gamma"), gamma);

    // Edit a SKILL.md.
    reads.length = 0;
    change = nextChange(live, (s) => named(s, "beta")?.description === "Beta, edited.");
    await Deno.writeTextFile(join(dir, "beta", "SKILL.md"), skillMd("beta", "Beta, edited.", "B2"));
    skills = (await change.wait()).report.skills;
    deepEqual([...new Set(reads)], [join(dir, "beta", "SKILL.md")]);
    notEqual(named(skills, "beta"), beta, "a changed skill is a new object");
    equal(named(skills, "alpha"), alpha);
    equal(named(skills, "gamma"), gamma);
    const editedBeta = named(skills, "beta");

    // Edit a script inside a skill: same fields, new object; its SKILL.md alone is read again.
    reads.length = 0;
    change = nextChange(live, (s) => named(s, "alpha") !== alpha);
    await Deno.writeTextFile(join(dir, "alpha", "scripts", "run.sh"), "echo changed\n");
    skills = (await change.wait()).report.skills;
    deepEqual([...new Set(reads)], [join(dir, "alpha", "SKILL.md")]);
    deepEqual({ ...named(skills, "alpha") }, { ...alpha }, "every field is the same");
    equal(named(skills, "beta"), editedBeta);
    equal(named(skills, "gamma"), gamma);
    const editedAlpha = named(skills, "alpha");

    // Remove.
    reads.length = 0;
    change = nextChange(live, (s) => named(s, "gamma") === undefined);
    await Deno.remove(join(dir, "gamma"), { recursive: true });
    skills = (await change.wait()).report.skills;
    deepEqual([...new Set(reads)], []);
    equal(named(skills, "alpha"), editedAlpha);
    equal(named(skills, "beta"), editedBeta);

    // Rename a folder (the skill declares its name: same name, new path).
    change = nextChange(live, (s) => named(s, "delta")?.path.includes("delta-moved") === true);
    await Deno.rename(join(dir, "delta"), join(dir, "delta-moved"));
    skills = (await change.wait()).report.skills;
    equal(named(skills, "delta")!.directory, join(dir, "delta-moved"));
    equal(named(skills, "alpha"), editedAlpha);

    // A root folder created later: the user's ~/.claude/skills did not exist.
    reads.length = 0;
    change = nextChange(live, (s) => named(s, "user-one") !== undefined);
    await writeTree(join(box.home, ".claude", "skills"), {
      "user-one/SKILL.md": skillMd("user-one", "A user skill.", "U"),
    });
    skills = (await change.wait()).report.skills;
    deepEqual([...new Set(reads)], [join(box.home, ".claude", "skills", "user-one", "SKILL.md")]);
    equal(named(skills, "alpha"), editedAlpha);
    equal(named(skills, "beta"), editedBeta);

    // A sources file change rebuilds the root list: a local Git source is added, then synced.
    const source = await box.repo("team-skills", {
      "shared/SKILL.md": skillMd("shared", "From the team source.", "S"),
    });
    reads.length = 0;
    change = nextChange(live, (s) => named(s, "shared") !== undefined);
    equal((await box.cli("add", source)).code, 0);
    equal((await box.cli("sync")).code, 0);
    const catalog = await change.wait();
    equal(catalog.sources.length, 1);
    skills = catalog.report.skills;
    ok(
      reads.length > 0 && reads.every((path) => path.endsWith(join("shared", "SKILL.md"))),
      reads.join(" "),
    );
    equal(named(skills, "alpha"), editedAlpha, "a reload keeps unchanged skills too");
    equal(named(skills, "beta"), editedBeta);
  } finally {
    await live.close();
  }
}

Deno.test("live catalog: add, edit, script edit, remove, rename, new root, sources change (watching)", async () => {
  await withSandbox(async (box) => {
    await everyChange(box, {});
  });
});

Deno.test("live catalog: the polling fallback sees the same changes", async () => {
  await withSandbox(async (box) => {
    await everyChange(box, { mode: "poll", pollMs: 200 });
  });
});

Deno.test("live catalog: folders over the watcher cap are polled, and still followed", async () => {
  await withSandbox(async (box) => {
    await seed(box);
    const userRoot = join(box.home, ".agents", "skills");
    await writeTree(userRoot, { "first/SKILL.md": skillMd("first", "First.", "F") });
    const { live } = liveCatalog(box, { maxWatchers: 1, pollMs: 200 });
    try {
      await live.report();
      const state = live.watching();
      equal(state.watched.length, 1);
      deepEqual(state.polled, [userRoot], JSON.stringify(state));
      const change = nextChange(live, (s) => named(s, "late") !== undefined);
      await writeTree(userRoot, {
        "late/SKILL.md": skillMd("late", "Late.", "L"),
      });
      await change.wait();
    } finally {
      await live.close();
    }
  });
});

Deno.test("live catalog: a report answers from memory and reads nothing when nothing changed", async () => {
  await withSandbox(async (box) => {
    await seed(box);
    const { live, reads } = liveCatalog(box);
    try {
      const first = await live.report();
      equal(new Set(reads).size, 3);
      reads.length = 0;
      const again = await live.report();
      deepEqual([...new Set(reads)], []);
      equal(again, first, "the same report object");
      // A skill folder added and asked for at once (as a name not found is) is found: the root
      // folder's stamp changed. Without `thorough`, a request checks the roots at most every
      // 250 ms (issue 29: 130 stats a request were 41% of the server's time at 10,000 skills).
      await writeTree(projectSkills(box), { "now/SKILL.md": skillMd("now", "Now.", "N") });
      ok(named((await live.catalog({ thorough: true })).report.skills, "now"));
      deepEqual([...new Set(reads)], [join(projectSkills(box), "now", "SKILL.md")]);
    } finally {
      await live.close();
    }
  });
});

Deno.test("live catalog: close stops everything, also before the first load ended", async () => {
  await withSandbox(async (box) => {
    await seed(box);
    const { live } = liveCatalog(box);
    const loading = live.start();
    await live.close();
    await loading;
    deepEqual(live.watching(), { watched: [], polled: [], shallow: [] });
    // Changes after close are not followed and start nothing.
    await writeTree(projectSkills(box), { "after/SKILL.md": skillMd("after", "After.", "A") });
    const { live: polled } = liveCatalog(box, { mode: "poll", pollMs: 100 });
    await polled.report();
    ok(polled.watching().polled.length > 0);
    await polled.close();
    deepEqual(polled.watching(), { watched: [], polled: [], shallow: [] });
  });
});

Deno.test("live catalog: a renamed collision keeps its identity across unrelated changes", async () => {
  await withSandbox(async (box) => {
    await seed(box);
    await writeTree(join(box.home, ".claude", "skills"), {
      "alpha/SKILL.md": skillMd("alpha", "The user's alpha.", "U"),
    });
    const { live } = liveCatalog(box);
    try {
      const first = await live.report();
      const renamed = first.skills.find((s) => s.renamedFrom === "alpha");
      ok(renamed, JSON.stringify(first.skills.map((s) => s.name)));
      const change = nextChange(live, (s) => named(s, "epsilon") !== undefined);
      await writeTree(projectSkills(box), { "epsilon/SKILL.md": skillMd("epsilon", "E.", "E") });
      const skills = (await change.wait()).report.skills;
      equal(skills.find((s) => s.renamedFrom === "alpha"), renamed);
      equal(named(skills, "alpha"), named(first.skills, "alpha"));
    } finally {
      await live.close();
    }
  });
});

Deno.test("live catalog: a project root linked out of the project is neither watched nor polled", async () => {
  await withSandbox(async (box) => {
    // The stranger's project links its skills folder to the victim's home (or `/`).
    await Deno.mkdir(join(box.project, ".claude"), { recursive: true });
    await Deno.symlink(box.home, projectSkills(box));
    await writeTree(join(box.home, ".agents", "skills"), {
      "own/SKILL.md": skillMd("own", "The user's own.", "O"),
    });
    for (const mode of ["watch", "poll"] as const) {
      const { live } = liveCatalog(box, { mode });
      try {
        const report = await live.report();
        deepEqual(report.skills.map((s) => s.name), ["own"]);
        const state = live.watching();
        const followed = [...state.watched, ...state.polled];
        ok(!followed.includes(projectSkills(box)), JSON.stringify(state));
        ok(followed.includes(join(box.home, ".agents", "skills")), JSON.stringify(state));
      } finally {
        await live.close();
      }
    }
  });
});

Deno.test("live catalog: a skill added or removed in an existing root is in the very next report, whatever the events' delay", async () => {
  await withSandbox(async (box) => {
    await seed(box);
    // Polled once a minute: no event arrives during the test, only the per-request root check.
    const { live } = liveCatalog(box, { mode: "poll", pollMs: 60_000 });
    try {
      ok(named((await live.report()).skills, "beta"));
      await writeTree(projectSkills(box), { "delta/SKILL.md": skillMd("delta", "Delta.", "D") });
      ok(named((await live.report()).skills, "delta"), "added, read at once");
      await Deno.remove(join(projectSkills(box), "beta"), { recursive: true });
      equal(named((await live.report()).skills, "beta"), undefined, "removed, gone at once");
      await Deno.remove(join(projectSkills(box), "delta"), { recursive: true });
      equal(named((await live.report()).skills, "delta"), undefined, "and again");
    } finally {
      await live.close();
    }
  });
});
