/**
 * The lock's verdicts in the core (`lib/locked.ts`) over a real temp
 * project: every refusal kind (not locked, changed, moved, unbundlable, no
 * lock, invalid lock), the lock read again when it changes, and a load under
 * the lock with `lock_sha256` in its receipt.
 *
 * @module
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { resolveConfig } from "../lib/catalog/_config.ts";
import { loadCatalog } from "../lib/catalog/_load.ts";
import { sha256Hex } from "../lib/hash.ts";
import { currentLock } from "../lib/lock/_current.ts";
import { LockGate, openLocked, verdictOf } from "../lib/locked.ts";
import { type ProjectLock, serialiseLock } from "../lib/lock/_format.ts";
import { skillMd, withTempDir, writeTree } from "./helpers.ts";

/** A home and a git project with skills pdf (with a script) and excel; its catalog and lock. */
async function project(base: string) {
  const home = join(base, "home");
  const root = join(base, "app");
  await writeTree(root, {
    ".git/HEAD": "ref: refs/heads/main\n",
    ".claude/skills/pdf/SKILL.md": skillMd("pdf", "Fill PDF forms.", "Run the script."),
    ".claude/skills/pdf/scripts/fill.py": "print('fill')\n",
    ".claude/skills/excel/SKILL.md": skillMd("excel", "Edit spreadsheets.", "Body."),
  });
  const config = resolveConfig({ home, claudePlugins: false, sync: false }, { HOME: home });
  const catalog = await loadCatalog(config, { cwd: root });
  const lock = await currentLock(catalog, { lockFile: config.lockFile });
  const file = join(root, "skills-anywhere.lock.json");
  const write = (l: ProjectLock) => Deno.writeTextFile(file, serialiseLock(l));
  await write(lock);
  const skill = (name: string) => catalog.report.skills.find((s) => s.name === name)!;
  return { root, file, lock, write, skill };
}

Deno.test("lock verdicts: allowed, not locked, moved, unbundlable and changed, each with its kind", async () => {
  await withTempDir(async (base) => {
    const p = await project(base);
    const gate = new LockGate(p.file);
    const state = await gate.state();
    ok(state.ok);
    equal((await gate.check(p.skill("pdf"))).ok, true);
    deepEqual((await gate.allowed([p.skill("excel"), p.skill("pdf")])).map((s) => s.name), [
      "excel",
      "pdf",
    ]);
    const pdf = state.byName.get("pdf")!;
    const kindOf = (lock: ProjectLock, digest: string | undefined) => {
      const snapshot = { ...state, lock, byName: new Map(lock.skills.map((s) => [s.name, s])) };
      const verdict = verdictOf(snapshot, p.skill("pdf"), digest);
      return verdict.ok ? "ok" : verdict.kind;
    };
    const only = (entry: typeof pdf) => ({ ...p.lock, skills: [entry] });
    equal(kindOf(only(pdf), pdf.bundle_sha256!), "ok");
    equal(kindOf({ ...p.lock, skills: [] }, pdf.bundle_sha256!), "not-locked");
    equal(kindOf(only({ ...pdf, path: "elsewhere/pdf/SKILL.md" }), pdf.bundle_sha256!), "moved");
    equal(kindOf(only({ ...pdf, origin: { kind: "custom", scope: "project" } }), "x"), "moved");
    equal(
      kindOf(only({ ...pdf, bundle_sha256: null, files: [] }), pdf.bundle_sha256!),
      "unbundlable",
    );
    equal(kindOf(only(pdf), undefined), "unbundlable");
    equal(kindOf(only(pdf), "0".repeat(64)), "changed");
    await Deno.writeTextFile(join(p.root, ".claude/skills/pdf/scripts/fill.py"), "print('x')\n");
    const changed = await gate.check(p.skill("pdf"));
    equal(changed.ok ? "ok" : changed.kind, "changed");
  });
});

Deno.test("lock gate: the lock is read again when it changes; gone or invalid refuses everything", async () => {
  await withTempDir(async (base) => {
    const p = await project(base);
    const gate = new LockGate(p.file);
    equal((await gate.allowed([p.skill("excel"), p.skill("pdf")])).length, 2);
    await p.write({ ...p.lock, skills: p.lock.skills.filter((s) => s.name === "excel") });
    deepEqual((await gate.allowed([p.skill("excel"), p.skill("pdf")])).map((s) => s.name), [
      "excel",
    ]);
    await Deno.writeTextFile(p.file, "{not json");
    const invalid = await gate.check(p.skill("excel"));
    equal(invalid.ok ? "ok" : invalid.kind, "invalid-lock");
    equal((await gate.allowed([p.skill("excel")])).length, 0);
    await Deno.remove(p.file);
    const gone = await gate.check(p.skill("excel"));
    equal(gone.ok ? "ok" : gone.kind, "no-lock");
  });
});

Deno.test("openLocked: the receipt carries the lock file's SHA-256; a caller's other bundle pin is refused", async () => {
  await withTempDir(async (base) => {
    const p = await project(base);
    const gate = new LockGate(p.file);
    const opened = await openLocked(gate, p.skill("pdf"), { lenient: true });
    ok(opened.ok);
    equal(opened.skill.receipt.lock_sha256, sha256Hex(await Deno.readFile(p.file)));
    equal(opened.skill.receipt.bundle_sha256, p.lock.skills[1].bundle_sha256);
    const pinned = await openLocked(gate, p.skill("pdf"), {
      lenient: true,
      expectedBundleSha256: "0".repeat(64),
    });
    equal(pinned.ok ? "ok" : pinned.kind, "bundle-mismatch");
    await Deno.writeTextFile(join(p.root, ".claude/skills/pdf/scripts/fill.py"), "print('x')\n");
    const changed = await openLocked(gate, p.skill("pdf"), { lenient: true });
    equal(changed.ok ? "ok" : changed.kind, "changed");
  });
});
