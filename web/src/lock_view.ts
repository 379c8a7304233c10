/**
 * A project lock (`skills-anywhere-lock-1`, read by the CLI's own parser)
 * set beside a catalog document: which published skills the lock holds at the
 * place they are published from, which it holds elsewhere (moved, or another
 * origin: changed), which it does not name, and which it names that the
 * catalog lacks. A `list --json` export carries no digests, so a change of
 * content at the same place shows only with `verify`: a `verify --json`
 * report (`skills-anywhere-verify-1`) chosen beside the lock marks each skill
 * whose files differ from it, naming the files, and each it cannot check.
 *
 * @example
 * ```ts
 * import { compareLock } from "./lock_view.ts";
 * import type { CatalogDoc } from "./catalog_doc.ts";
 * import type { ProjectLock } from "../../lib/lock/portable.ts";
 * function example(doc: CatalogDoc, lock: ProjectLock) {
 *   compareLock(doc, lock).changed.map((c) => c.name);
 * }
 * ```
 * @module
 */
import { type LockSkill, parseLock, type ProjectLock } from "../../lib/lock/portable.ts";
import { VERIFY_SCHEMA } from "../../lib/lock/portable.ts";
import { MAX_LOCK_BYTES } from "../../lib/limits.ts";
import { isPlainObject, tryParseJsonBytes } from "../../lib/util.ts";
import { UNREADABLE_MESSAGE } from "./dom.ts";
import type { CatalogDoc, CatalogSkill } from "./catalog_doc.ts";

/** One skill's lock status, in words for its row. */
export interface LockMark {
  status: "locked" | "changed" | "not-locked";
  words: string;
}

/** The lock beside the catalog. */
export interface LockComparison {
  /** Skills held at the place they are published from. */
  locked: number;
  /** Skills the lock holds at another place or origin. */
  changed: Array<{ name: string; words: string }>;
  /** Published names the lock does not hold. */
  unlocked: string[];
  /** Locked names the catalog does not publish. */
  missing: string[];
  /** Every published skill's mark. */
  byName: Map<string, LockMark>;
}

/** A lock origin's words, as `list` writes an origin. */
function originKey(origin: Readonly<Record<string, string>>): string {
  return JSON.stringify(Object.keys(origin).sort().map((key) => [key, origin[key]]));
}

/** The catalog origin with the keys the lock keeps (a source's checkout folder is left out). */
function sameOrigin(skill: CatalogSkill, locked: LockSkill): boolean {
  const kept: Record<string, string> = {};
  for (const key of Object.keys(locked.origin)) {
    if (skill.origin[key] !== undefined) kept[key] = skill.origin[key];
  }
  return Object.keys(kept).length ===
      Object.keys(skill.origin).filter((k) => k !== "checkout").length &&
    originKey(kept) === originKey(locked.origin);
}

function samePlace(skill: CatalogSkill, locked: LockSkill): boolean {
  return sameOrigin(skill, locked) &&
    (skill.path === locked.path || skill.path.endsWith(`/${locked.path}`));
}

/**
 * Compares `lock` with `doc` by published name and place.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareLock } from "./lock_view.ts";
 * assert.equal(compareLock({ skills: [], invalid: [], complete: true }, { schema: "skills-anywhere-lock-1", skills: [], sources: [] }).locked, 0);
 * ```
 */
export function compareLock(doc: CatalogDoc, lock: ProjectLock): LockComparison {
  const held = new Map(lock.skills.map((s) => [s.name, s]));
  const byName = new Map<string, LockMark>();
  const changed: LockComparison["changed"] = [];
  const unlocked: string[] = [];
  let locked = 0;
  for (const skill of doc.skills) {
    const entry = held.get(skill.name);
    if (entry === undefined) {
      unlocked.push(skill.name);
      byName.set(skill.name, { status: "not-locked", words: "not locked" });
    } else if (samePlace(skill, entry)) {
      locked++;
      byName.set(skill.name, { status: "locked", words: "locked" });
    } else {
      const words = sameOrigin(skill, entry)
        ? `changed: locked at ${entry.path}, now elsewhere`
        : "changed: locked from another origin";
      changed.push({ name: skill.name, words });
      byName.set(skill.name, { status: "changed", words });
    }
  }
  const published = new Set(doc.skills.map((s) => s.name));
  const missing = lock.skills.map((s) => s.name).filter((name) => !published.has(name));
  return { locked, changed, unlocked, missing, byName };
}

/** A chosen lock file, parsed by the CLI's parser, or why it was refused. */
export type LockRead = { ok: true; lock: ProjectLock } | { ok: false; message: string };

/**
 * Reads a chosen lock file (at most the CLI's lock size) with the CLI's parser.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readLockFile } from "./lock_view.ts";
 * const read = await readLockFile(new File(["{}"], "skills-anywhere.lock.json"));
 * assert.equal(read.ok, false);
 * ```
 */
export async function readLockFile(file: File): Promise<LockRead> {
  if (file.size > MAX_LOCK_BYTES) {
    return { ok: false, message: "The lock is larger than a lock may be" };
  }
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await file.arrayBuffer());
  } catch {
    return { ok: false, message: UNREADABLE_MESSAGE };
  }
  const parsed = await parseLock(bytes);
  if (!parsed.ok) return { ok: false, message: parsed.message };
  return { ok: true, lock: parsed.lock };
}

/** What the page keeps of a `verify --json` report: the skills whose files differ, in words. */
export interface VerifyMarks {
  /** Each skill `verify` found changed or could not check, with the words for its row. */
  byName: Map<string, string>;
}

/** Most names or file paths one list of a report may hold (a report is at most a lock's size). */
const MAX_REPORT_ITEMS = 100_000;

const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.length <= MAX_REPORT_ITEMS &&
  value.every((item) => typeof item === "string");

/** The words for a changed skill: SKILL.md first, then each file by what happened to it. */
function changedWords(entry: Record<string, unknown>): string {
  const parts: string[] = [];
  if (entry.skill_md === true) parts.push("SKILL.md");
  for (const [key, verb] of [["changed", ""], ["added", "added "], ["removed", "removed "]]) {
    for (const path of entry[key] as string[]) {
      if (path !== "SKILL.md") parts.push(`${verb}${path}`);
    }
  }
  const shown = parts.slice(0, 5).join(", ") +
    (parts.length > 5 ? `, … (${parts.length} files)` : "");
  return parts.length === 0
    ? "changed since it was locked"
    : `changed since it was locked: ${shown}`;
}

/**
 * Reads a `verify --json` report (at most the CLI's lock size): only `changed` and `unverifiable`
 * are kept, each entry checked for the fields the page shows; anything else is refused with the
 * field it stopped at.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readVerifyReport } from "./lock_view.ts";
 * const read = readVerifyReport(new TextEncoder().encode('{"schema":"x"}'));
 * assert.equal(read.ok, false);
 * ```
 */
export function readVerifyReport(
  bytes: Uint8Array,
): { ok: true; marks: VerifyMarks } | { ok: false; message: string } {
  const bad = (message: string) => ({ ok: false as const, message });
  if (bytes.length > MAX_LOCK_BYTES) return bad("The report is larger than a lock may be");
  const parsed = tryParseJsonBytes(bytes);
  if (!parsed.ok) return bad("The report is not UTF-8 JSON");
  const value = parsed.value;
  if (!isPlainObject(value) || value.schema !== VERIFY_SCHEMA) {
    return bad(`The report is not a ${VERIFY_SCHEMA} document (verify --json)`);
  }
  const { changed, unverifiable } = value;
  if (!Array.isArray(changed) || changed.length > MAX_REPORT_ITEMS) {
    return bad("Its changed is not a list");
  }
  if (!Array.isArray(unverifiable) || unverifiable.length > MAX_REPORT_ITEMS) {
    return bad("Its unverifiable is not a list");
  }
  const byName = new Map<string, string>();
  for (const [i, entry] of changed.entries()) {
    if (
      !isPlainObject(entry) || typeof entry.name !== "string" ||
      typeof entry.skill_md !== "boolean" ||
      !isStrings(entry.changed) || !isStrings(entry.added) || !isStrings(entry.removed)
    ) return bad(`Its changed entry ${i + 1} is not a verify entry`);
    byName.set(entry.name, changedWords(entry));
  }
  for (const [i, entry] of unverifiable.entries()) {
    if (!isPlainObject(entry) || typeof entry.name !== "string" || typeof entry.kind !== "string") {
      return bad(`Its unverifiable entry ${i + 1} is not a verify entry`);
    }
    byName.set(entry.name, `cannot be verified (${entry.kind})`);
  }
  return { ok: true, marks: { byName } };
}

/**
 * The lock comparison with a verify report laid over it: each locked skill the report names is
 * `changed`, in the report's words (a skill already changed keeps the lock's words first).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { compareLock, withVerify } from "./lock_view.ts";
 * const lock = compareLock({ skills: [], invalid: [], complete: true }, { schema: "skills-anywhere-lock-1", skills: [], sources: [] });
 * assert.equal(withVerify(lock, { byName: new Map() }).locked, 0);
 * ```
 */
export function withVerify(lock: LockComparison, marks: VerifyMarks): LockComparison {
  const byName = new Map(lock.byName);
  const changed = [...lock.changed];
  let locked = lock.locked;
  for (const [name, words] of marks.byName) {
    const mark = byName.get(name);
    if (mark === undefined || mark.status === "not-locked") continue;
    if (mark.status === "locked") {
      locked--;
      changed.push({ name, words });
      byName.set(name, { status: "changed", words });
    } else {
      const merged = `${mark.words}; ${words}`;
      const at = changed.findIndex((c) => c.name === name);
      if (at >= 0) changed[at] = { name, words: merged };
      byName.set(name, { status: "changed", words: merged });
    }
  }
  return { ...lock, locked, changed, byName };
}
