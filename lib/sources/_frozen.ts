/**
 * Frozen sync: check out exactly the commits a project's lock records, all
 * or nothing. Every locked source must be configured with the same URL and a
 * full commit, and every configured source must be locked; each commit is
 * then built aside in the cache by `stageCommit` (fetched by its SHA, never a
 * branch head). Only when every one could be had are they put in place and
 * recorded in the user's lock file; otherwise every staged checkout is
 * removed and no checkout, and no lock entry, changes.
 *
 * A lock is a stranger's file: its URLs and commits are compared with the
 * configured sources, never handed to git as they are — git only ever sees a
 * configured URL and a commit that is 40 hex digits.
 *
 * @example
 * ```ts
 * import { resolveSource } from "./_resolve.ts";
 * import { syncFrozen } from "./_frozen.ts";
 * const source = resolveSource("o/r", "/cache");
 * const results = await syncFrozen([source], [
 *   { key: source.key, url: source.url, commit: "a".repeat(40) },
 * ], { lockFile: "/state/lock.json" });
 * ```
 * @module
 */
import { errorText } from "../errors.ts";
import { lockedSourceName, type ResolvedSource, sourceName } from "./_resolve.ts";
import {
  recordSynced,
  stageCommit,
  type StagedCommit,
  type SyncAllOptions,
  type SyncResult,
} from "./_sync.ts";

/** A locked source, by shape (a project lock's `sources` entries are such). */
export interface LockedCommit {
  key: string;
  url: string;
  commit: string | null;
}

/** The status of a source left alone because another one could not be had. */
const NOT_CHANGED = "not changed: another source cannot be had";

/** A source's result without a commit. */
function unsynced(source: ResolvedSource, status: "failed" | "skipped", error: string): SyncResult {
  return { source: sourceName(source), key: source.key, status, sha: null, error };
}

/** What to check out for each configured source, or why it cannot be frozen. */
function plan(
  configured: readonly ResolvedSource[],
  locked: readonly LockedCommit[],
): { wanted: [ResolvedSource, string][]; problems: SyncResult[] } {
  const wanted: [ResolvedSource, string][] = [];
  const problems: SyncResult[] = [];
  const byKey = new Map(configured.map((s) => [s.key, s]));
  for (const entry of locked) {
    const source = byKey.get(entry.key);
    byKey.delete(entry.key);
    if (source === undefined) {
      problems.push({
        source: lockedSourceName(entry, []),
        key: entry.key,
        status: "failed",
        sha: null,
        error: "locked, but not a configured source",
      });
    } else if (entry.url !== source.url) {
      const why = `locked from ${JSON.stringify(entry.url)}, configured from ${source.url}`;
      problems.push(unsynced(source, "failed", why));
    } else if (entry.commit === null) {
      problems.push(unsynced(source, "failed", "the lock records no commit for it"));
    } else wanted.push([source, entry.commit]);
  }
  for (const source of byKey.values()) {
    problems.push(unsynced(source, "failed", "configured, but not in the lock"));
  }
  return { wanted, problems };
}

/**
 * Checks out every source at its locked commit, or changes nothing (see the
 * module doc). Never throws for a source: each result says what happened;
 * any `failed` result means nothing was changed (the others are `skipped`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { syncFrozen } from "./_frozen.ts";
 * const results = await syncFrozen([], [], { lockFile: "/state/lock.json" });
 * assert.equal(results.length, 0);
 * ```
 */
export async function syncFrozen(
  configured: readonly ResolvedSource[],
  locked: readonly LockedCommit[],
  options: SyncAllOptions,
): Promise<SyncResult[]> {
  const { wanted, problems } = plan(configured, locked);
  const staged: StagedCommit[] = [];
  for (const [source, commit] of wanted) {
    try {
      staged.push(await stageCommit(source, commit, options));
    } catch (error) {
      problems.push(unsynced(source, "failed", errorText(error)));
    }
  }
  if (problems.length > 0) {
    for (const stage of staged) await stage.discard().catch(() => {});
    for (const [source] of wanted.filter(([s]) => staged.some((t) => t.source === s))) {
      problems.push(unsynced(source, "skipped", NOT_CHANGED));
    }
    return problems;
  }
  return await applyAll(staged, options);
}

/** Puts every staged checkout in place and records the commits in the user's lock file. */
async function applyAll(staged: readonly StagedCommit[], options: SyncAllOptions) {
  const results: SyncResult[] = [];
  const syncedAt = new Date().toISOString();
  for (const stage of staged) {
    const { source, sha, status } = stage;
    try {
      await stage.apply();
      results.push({ source: sourceName(source), key: source.key, status, sha, error: null });
    } catch (error) {
      results.push(unsynced(source, "failed", errorText(error)));
    }
  }
  const synced = staged.filter((_, i) => results[i].sha !== null);
  await recordSynced(synced.map(({ source, sha }) => ({ source, sha, syncedAt })), options);
  return results;
}
