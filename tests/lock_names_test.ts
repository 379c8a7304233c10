/**
 * Names are stable under a project lock: a new skill that collides with a
 * locked name is the one renamed, whatever its rank; a lock only chooses
 * among the skills found (a hostile lock adds, reads or drops nothing), and
 * an invalid lock is ignored for naming with one escaped warning.
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import type { DiscoveredSkill } from "../lib/catalog/_types.ts";
import type { Origin } from "../lib/catalog/_origin.ts";
import { applyPrecedence } from "../lib/catalog/_precedence.ts";
import type { LockedNames } from "../lib/lock/_names.ts";
import { type Sandbox, skillMd, withSandbox, writeTree } from "./helpers.ts";

const LOCK = "skills-anywhere.lock.json";
// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

interface Listed {
  name: string;
  origin: Record<string, string>;
}

async function listed(box: Sandbox): Promise<Listed[]> {
  const result = await box.cli("list", "--json");
  equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout).skills;
}

/** The published name of the skill with that origin scope. */
function nameOf(skills: readonly Listed[], scope: string): string[] {
  return skills.filter((s) => s.origin.scope === scope).map((s) => s.name);
}

async function userPdf(box: Sandbox): Promise<void> {
  await writeTree(box.home, {
    ".claude/skills/pdf/SKILL.md": skillMd("pdf", "The user's PDF skill.", "Body."),
  });
}

async function projectPdf(box: Sandbox): Promise<void> {
  await writeTree(box.project, {
    ".claude/skills/pdf/SKILL.md": skillMd("pdf", "A new project PDF skill.", "Other body."),
  });
}

Deno.test("without a lock, the project's pdf outranks the user's, which is renamed", async () => {
  await withSandbox(async (box) => {
    await userPdf(box);
    await projectPdf(box);
    const skills = await listed(box);
    deepEqual(nameOf(skills, "project"), ["pdf"]);
    deepEqual(nameOf(skills, "user"), ["claude-code-pdf"]);
  });
});

// Issue 28 reverses what this test asserted before (a locked user pdf kept its name over the
// project's): a project lock holds no personal skill, so the project's pdf keeps its name.
Deno.test("a user pdf is never locked by the project: the project's pdf added later keeps its name", async () => {
  await withSandbox(async (box) => {
    await userPdf(box);
    equal((await box.cli("lock")).code, 0);
    await projectPdf(box);
    const skills = await listed(box);
    deepEqual(nameOf(skills, "project"), ["pdf"]);
    deepEqual(nameOf(skills, "user"), ["claude-code-pdf"]);
    const show = await box.cli("show", "pdf", "--json");
    equal(show.code, 0, show.stderr);
    match(show.stdout, /A new project PDF skill/);
    const verify = JSON.parse((await box.cli("verify", "--json")).stdout);
    deepEqual(verify.added, ["pdf"]);
    deepEqual(verify.moved, []);
    deepEqual(verify.changed, []);
  });
});

Deno.test("a lock naming a place where no skill is changes nothing and reads nothing", async () => {
  await withSandbox(async (box) => {
    await userPdf(box);
    await projectPdf(box);
    const lock = {
      schema: "skills-anywhere-lock-1",
      skills: [{
        name: "pdf",
        origin: { kind: "custom", scope: "user" },
        path: "nowhere/SKILL.md",
        skill_sha256: "0".repeat(64),
        bundle_sha256: null,
        bundle_error: "a flat file, not a skill directory",
        files: [],
      }],
      sources: [],
    };
    await Deno.writeTextFile(join(box.project, LOCK), JSON.stringify(lock, null, 2) + "\n");
    const skills = await listed(box);
    deepEqual(nameOf(skills, "project"), ["pdf"]);
    deepEqual(nameOf(skills, "user"), ["claude-code-pdf"]);
    equal(skills.length, 2);
    equal((await box.cli("list", "--json")).stderr, "");
  });
});

Deno.test("an invalid lock is ignored for naming, with one escaped warning, never a crash", async () => {
  await withSandbox(async (box) => {
    await userPdf(box);
    equal((await box.cli("lock")).code, 0);
    await projectPdf(box);
    const lock = JSON.parse(await Deno.readTextFile(join(box.project, LOCK)));
    lock.skills.push({ name: "\u001b[31mzz", origin: {} });
    await Deno.writeTextFile(join(box.project, LOCK), JSON.stringify(lock));
    const result = await box.cli("list", "--json");
    equal(result.code, 0, result.stderr);
    const skills: Listed[] = JSON.parse(result.stdout).skills;
    deepEqual(nameOf(skills, "project"), ["pdf"]);
    const lines = result.stderr.trimEnd().split("\n");
    equal(lines.length, 1, result.stderr);
    match(lines[0], /skills-anywhere\.lock\.json is not used to keep names: skill entry .*zz/);
    ok(!RAW_CONTROL.test(result.stderr), result.stderr);
  });
});

/** A source skill record for applyPrecedence (paths need not exist). */
function sourceSkill(repo: string, rank: number, rootIndex: number): DiscoveredSkill {
  const root = `/nowhere/${repo}`;
  const origin: Origin = { kind: "source", repo, checkout: root };
  return {
    name: "pdf",
    nameDeclared: true,
    description: "A PDF skill.",
    invocation: { modelInvocable: true, userInvocable: true },
    source: "anywhere-source",
    rank,
    path: `${root}/pdf/SKILL.md`,
    directory: `${root}/pdf`,
    metadata: {},
    origin,
    root,
    relativePath: "pdf/SKILL.md",
    rootIndex,
    repairs: [],
    warnings: [],
  };
}

async function published(locked?: LockedNames): Promise<string[]> {
  const found = [sourceSkill("acme/tools", 700, 0), sourceSkill("team/kit", 800, 1)];
  const { skills } = await applyPrecedence(found, { dedupe: false, excludeSkills: [], locked });
  return skills.map((s) => `${s.origin.kind === "source" ? s.origin.repo : "?"}=${s.name}`);
}

Deno.test("a locked name holds even where every member is third-party (else all are renamed)", async () => {
  deepEqual(await published(), ["acme/tools=tools-pdf", "team/kit=kit-pdf"]);
  const locked = new Map([["pdf", {
    origin: { kind: "source", repo: "team/kit" },
    path: "pdf/SKILL.md",
  }]]);
  deepEqual(await published(locked), ["acme/tools=tools-pdf", "team/kit=pdf"]);
});

Deno.test("a locked place that matches no member (other path, other origin field) changes nothing", async () => {
  const otherPath = new Map([["pdf", {
    origin: { kind: "source", repo: "team/kit" },
    path: "skills/pdf/SKILL.md",
  }]]);
  deepEqual(await published(otherPath), ["acme/tools=tools-pdf", "team/kit=kit-pdf"]);
  const extraField = new Map([["pdf", {
    origin: { kind: "source", repo: "team/kit", checkout: "/nowhere/team/kit" },
    path: "pdf/SKILL.md",
  }]]);
  deepEqual(await published(extraField), ["acme/tools=tools-pdf", "team/kit=kit-pdf"]);
});
