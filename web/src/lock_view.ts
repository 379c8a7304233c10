/**
 * A project lock (`skills-anywhere-lock-1`, read by the CLI's own parser)
 * set beside a catalog document: which published skills the lock holds at the
 * place they are published from, which it holds elsewhere (moved, or another
 * origin: changed), which it does not name, and which it names that the
 * catalog lacks. A `list --json` export carries no digests, so a change of
 * content at the same place shows only with `verify`; the page says so.
 *
 * @example
 * ```ts
 * import { compareLock } from "./lock_view.ts";
 * import type { CatalogDoc } from "./catalog_doc.ts";
 * import type { ProjectLock } from "../../lib/lock/format.ts";
 * declare const doc: CatalogDoc;
 * declare const lock: ProjectLock;
 * compareLock(doc, lock).changed.map((c) => c.name);
 * ```
 * @module
 */
import { type LockSkill, parseLock, type ProjectLock } from "../../lib/lock/format.ts";
import { MAX_LOCK_BYTES } from "../../lib/limits.ts";
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
 * import { compareLock } from "./lock_view.ts";
 * compareLock({ skills: [], invalid: [], complete: true }, { schema: "skills-anywhere-lock-1", skills: [], sources: [] }).locked; // 0
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
 * import { readLockFile } from "./lock_view.ts";
 * const read = await readLockFile(new File(["{}"], "skills-anywhere.lock.json"));
 * console.log(read.ok); // false
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
    return { ok: false, message: UNREADABLE_MESSAGE.replace(/\.$/, "") };
  }
  const parsed = await parseLock(bytes);
  if (!parsed.ok) return { ok: false, message: parsed.message.replace(/\.$/, "") };
  return { ok: true, lock: parsed.lock };
}
