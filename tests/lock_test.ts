/**
 * The pure lock format (`lib/lock/_format.ts`) and verify's comparison
 * (`lib/lock/_compare.ts`): byte-stable serialisation, every refusal kind of a
 * hostile or malformed lock, and each kind of difference (`unverifiable`
 * included: a skill locked without a bundle digest, or one no lock can hold).
 *
 * @module
 */
import { MAX_LOCK_BYTES } from "../lib/limits.ts";
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { buildManifest } from "../lib/bundle/_manifest.ts";
import { compareLocks } from "../lib/lock/_compare.ts";
import {
  checkedLockText,
  LOCK_SCHEMA,
  type LockSkill,
  parseLock,
  type ProjectLock,
  serialiseLock,
  splitLockable,
  validateLock,
} from "../lib/lock/_format.ts";
import { sha } from "./helpers.ts";

const encode = (text: string) => new TextEncoder().encode(text);

async function skill(name: string, files: Record<string, string>): Promise<LockSkill> {
  const rows = Object.entries(files).map(([path, text]) => ({
    path,
    bytes: encode(text).length,
    sha256: sha(text),
  }));
  const manifest = await buildManifest(rows);
  return {
    name,
    origin: { kind: "agent", agent: "claude-code", scope: "project" },
    path: `${name}/SKILL.md`,
    skill_sha256: sha(files["SKILL.md"]),
    bundle_sha256: manifest.sha256,
    files: manifest.files,
  };
}

function lockOf(skills: LockSkill[], sources: ProjectLock["sources"] = []): ProjectLock {
  return { schema: LOCK_SCHEMA, skills, sources };
}

async function kindOf(value: unknown): Promise<string> {
  const result = await validateLock(value);
  return result.ok ? "ok" : result.kind;
}

Deno.test("serialiseLock sorts entries and keys, so any input order gives the same bytes", async () => {
  const a = await skill("alpha", { "SKILL.md": "a", "run.sh": "x" });
  const b = await skill("beta", { "SKILL.md": "b" });
  const sources = [
    { key: "z/z", url: "https://z", ref: null, commit: "1" },
    { key: "a/a", url: "https://a", ref: "v1", commit: null },
  ];
  const scrambled = { ...b, origin: { scope: "project", kind: "agent", agent: "claude-code" } };
  const one = serialiseLock(lockOf([scrambled, a], sources));
  const two = serialiseLock(lockOf([a, b], [...sources].reverse()));
  equal(one, two);
  ok(one.endsWith("}\n"));
  const parsed = await parseLock(encode(one));
  ok(parsed.ok);
  equal(serialiseLock(parsed.lock), one);
  deepEqual(parsed.lock.sources.map((s) => s.key), ["a/a", "z/z"]);
});

Deno.test("parseLock refuses oversized, non-UTF-8, non-JSON and wrong-schema input by kind", async () => {
  const kind = async (bytes: Uint8Array) => {
    const result = await parseLock(bytes);
    return result.ok ? "ok" : result.kind;
  };
  equal(await kind(new Uint8Array(MAX_LOCK_BYTES + 1)), "too-large");
  equal(await kind(new Uint8Array([0x7b, 0xff, 0x7d])), "not-utf8");
  equal(await kind(encode("{")), "not-json");
  equal(await kind(encode("\ufeff{}")), "not-json");
  equal(await kindOf([]), "wrong-schema");
  equal(await kindOf({ schema: LOCK_SCHEMA, skills: [] }), "wrong-schema");
  equal(await kindOf({ ...lockOf([]), extra: 1 }), "wrong-schema");
  equal(await kindOf({ ...lockOf([]), schema: "skills-anywhere-lock-2" }), "wrong-schema");
  equal(await kindOf(lockOf([])), "ok");
});

Deno.test("validateLock refuses a row changed behind an unchanged bundle_sha256", async () => {
  const good = await skill("pdf", { "SKILL.md": "s", "scripts/fill.py": "print()" });
  equal(await kindOf(lockOf([good])), "ok");
  const tampered = { ...good, files: good.files.map((f) => ({ ...f })) };
  tampered.files[1].sha256 = sha("evil");
  equal(await kindOf(lockOf([tampered])), "digest-mismatch");
  const dropped = { ...good, files: good.files.slice(0, 1) };
  equal(await kindOf(lockOf([dropped])), "digest-mismatch");
  const result = await validateLock(lockOf([tampered]));
  ok(!result.ok && result.message.includes('"pdf"'));
});

Deno.test("validateLock refuses malformed skill entries: paths, digests, keys, null bundles", async () => {
  const good = await skill("pdf", { "SKILL.md": "s" });
  const bad = (patch: Record<string, unknown>) => lockOf([{ ...good, ...patch } as LockSkill]);
  equal(await kindOf(bad({ path: "../escape/SKILL.md" })), "bad-skill");
  equal(await kindOf(bad({ path: "/abs/SKILL.md" })), "bad-skill");
  equal(await kindOf(bad({ skill_sha256: "ABC" })), "bad-skill");
  equal(await kindOf(bad({ name: "" })), "bad-skill");
  equal(await kindOf(bad({ origin: { kind: 3 } })), "bad-skill");
  equal(await kindOf(bad({ surprise: true })), "bad-skill");
  equal(await kindOf(bad({ bundle_sha256: null })), "bad-skill");
  equal(await kindOf(bad({ bundle_sha256: null, bundle_error: "x", files: [] })), "ok");
  equal(await kindOf(bad({ bundle_error: "x" })), "bad-skill");
  equal(
    await kindOf(bad({ files: [{ path: "SKILL.md", bytes: -1, sha256: sha("") }] })),
    "bad-skill",
  );
  equal(await kindOf(bad({ source: { url: "u", ref: null } })), "bad-skill");
  equal(await kindOf(bad({ source: { url: "u", ref: null, commit: "c" } })), "ok");
  equal(await kindOf(lockOf([good], [{ key: "k", url: "u" } as never])), "bad-source");
});

Deno.test("validateLock refuses unsorted or duplicate entries", async () => {
  const a = await skill("a", { "SKILL.md": "a" });
  const b = await skill("b", { "SKILL.md": "b" });
  equal(await kindOf(lockOf([b, a])), "unsorted");
  equal(await kindOf(lockOf([a, a])), "unsorted");
  const source = { key: "k", url: "u", ref: null, commit: null };
  equal(await kindOf(lockOf([a], [source, source])), "unsorted");
});

Deno.test("compareLocks: identical locks match; each difference is reported by kind", async () => {
  const pdf = await skill("pdf", { "SKILL.md": "s", "scripts/fill.py": "print()" });
  const excel = await skill("excel", { "SKILL.md": "e" });
  const source = { key: "o/r", url: "https://o/r", ref: null, commit: "1".repeat(40) };
  const locked = lockOf([excel, pdf], [source]);
  const same = compareLocks(locked, locked);
  ok(same.matches);
  equal(same.locked, 2);

  const edited = await skill("pdf", {
    "SKILL.md": "s",
    "scripts/fill.py": "evil()",
    "new.txt": "",
  });
  const fresh = await skill("fresh", { "SKILL.md": "f" });
  const moved = { ...excel, origin: { kind: "custom", scope: "user" } };
  const now = lockOf([moved, fresh, edited], [{ ...source, commit: "2".repeat(40) }]);
  const report = compareLocks(locked, now);
  equal(report.matches, false);
  deepEqual(report.added, ["fresh"]);
  deepEqual(report.missing, []);
  deepEqual(report.moved.map((m) => m.name), ["excel"]);
  deepEqual(report.changed.map((c) => [c.name, c.skill_md, c.added, c.changed]), [
    ["pdf", false, ["new.txt"], ["scripts/fill.py"]],
  ]);
  deepEqual(report.sources, [{
    key: "o/r",
    locked_commit: "1".repeat(40),
    current_commit: "2".repeat(40),
  }]);
  deepEqual(compareLocks(locked, lockOf([pdf], [])).missing, ["excel"]);
  deepEqual(compareLocks(locked, lockOf([excel, pdf], [])).sources[0].current_commit, null);
});

Deno.test("compareLocks: a directory that cannot be bundled now is changed, with its reason and no rows", async () => {
  const pdf = await skill("pdf", { "SKILL.md": "s", "run.sh": "x" });
  const broken: LockSkill = { ...pdf, bundle_sha256: null, bundle_error: "a link", files: [] };
  const [changed] = compareLocks(lockOf([pdf]), lockOf([broken])).changed;
  equal(changed.bundle_error, "a link");
  deepEqual([changed.added, changed.removed, changed.changed], [[], [], []]);
});

Deno.test("validateLock: bundle_error_kind is one of the format's kinds, only beside a null bundle_sha256", async () => {
  const good = await skill("pdf", { "SKILL.md": "s" });
  const bad = (patch: Record<string, unknown>) => lockOf([{ ...good, ...patch } as LockSkill]);
  const unbundled = { bundle_sha256: null, bundle_error: "x", files: [] };
  equal(await kindOf(bad({ ...unbundled, bundle_error_kind: "link" })), "ok");
  equal(await kindOf(bad({ ...unbundled, bundle_error_kind: "flat-file" })), "ok");
  equal(await kindOf(bad(unbundled)), "ok");
  equal(await kindOf(bad({ ...unbundled, bundle_error_kind: "owned" })), "bad-skill");
  equal(await kindOf(bad({ ...unbundled, bundle_error_kind: "toString" })), "bad-skill");
  equal(await kindOf(bad({ bundle_error_kind: "link" })), "bad-skill");
  const text = serialiseLock(bad({ ...unbundled, bundle_error_kind: "link" }));
  match(text, /"bundle_sha256": null,\n {6}"bundle_error_kind": "link",\n {6}"bundle_error": "x",/);
});

Deno.test("compareLocks: a skill locked without a bundle digest is unverifiable, never a match; a flat file is verified by its digest", async () => {
  const pdf = await skill("pdf", { "SKILL.md": "s", "run.sh": "x" });
  const linked: LockSkill = {
    ...pdf,
    bundle_sha256: null,
    bundle_error_kind: "link",
    bundle_error: 'Bundle links are not supported: "run.sh"',
    files: [],
  };
  const same = compareLocks(lockOf([linked]), lockOf([linked]));
  equal(same.matches, false);
  deepEqual(same.unverifiable, [{
    name: "pdf",
    kind: "link",
    reason: 'Bundle links are not supported: "run.sh"',
    skill_md: false,
  }]);
  deepEqual(same.changed, []);
  const edited = { ...linked, skill_sha256: sha("other") };
  equal(compareLocks(lockOf([linked]), lockOf([edited])).unverifiable[0].skill_md, true);
  // Bundlable now, but the lock holds no digest: still unverifiable until it is locked again.
  const [fixed] = compareLocks(lockOf([linked]), lockOf([pdf])).unverifiable;
  equal(fixed.kind, "no-locked-digest");
  match(fixed.reason, /when locked, it holds a link inside its folder/);
  const flat: LockSkill = {
    ...pdf,
    path: "pdf.md",
    bundle_sha256: null,
    bundle_error_kind: "flat-file",
    bundle_error: "a flat file, not a skill directory",
    files: [],
  };
  equal(compareLocks(lockOf([flat]), lockOf([flat])).matches, true);
  const flatEdited = { ...flat, skill_sha256: sha("edited") };
  deepEqual(compareLocks(lockOf([flat]), lockOf([flatEdited])).changed.map((c) => c.name), [
    "pdf",
  ]);
});

Deno.test("compareLocks: a published skill a lock cannot hold is unverifiable (unlockable), not added; splitLockable leaves it out", async () => {
  const ok1 = await skill("ok", { "SKILL.md": "o" });
  const tab = { ...(await skill("tab", { "SKILL.md": "t" })), path: "a\tb/SKILL.md" };
  const report = compareLocks(lockOf([ok1]), lockOf([ok1, tab]));
  equal(report.matches, false);
  deepEqual(report.added, []);
  deepEqual(report.unverifiable.map((u) => [u.name, u.kind]), [["tab", "unlockable"]]);
  match(report.unverifiable[0].reason, /its path holds/);
  const dup = { ...ok1, path: "other/SKILL.md" };
  const source = { key: "o/r", url: "", ref: null, commit: null };
  const split = await splitLockable(lockOf([ok1, tab, dup], [source]));
  deepEqual(split.lock.skills.map((s) => s.path), ["ok/SKILL.md"]);
  deepEqual(split.lock.sources, []);
  deepEqual(split.refused.map((r) => [r.list, r.index]), [["skills", 1], ["skills", 2], [
    "sources",
    0,
  ]]);
  match(split.refused[0].message, /skill entry "tab" is malformed \(its path holds/);
  ok((await parseLock(encode(serialiseLock(split.lock)))).ok);
});

Deno.test("checkedLockText refuses to give the text of a lock its own parser would refuse", async () => {
  const good = await skill("pdf", { "SKILL.md": "s" });
  const checked = await checkedLockText(lockOf([good]));
  ok(checked.ok);
  equal(checked.text, serialiseLock(lockOf([good])));
  const tab = await checkedLockText(lockOf([{ ...good, path: "a\tb/SKILL.md" }]));
  equal(tab.ok ? "ok" : tab.kind, "bad-skill");
  const twice = await checkedLockText(lockOf([good, good]));
  equal(twice.ok ? "ok" : twice.kind, "unsorted");
});
