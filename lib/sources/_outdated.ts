/**
 * Outdated sources: for each Git source, the commit it is locked or synced
 * at and the commit its ref names upstream now (`git ls-remote` through the
 * one runner, with its policy and timeout). Read-only: no checkout, lock or
 * cache file is touched; git runs in a fresh empty temporary folder (so no
 * repository around it lends configuration), removed afterwards.
 *
 * A source pinned to a commit is `pinned` (there is nothing newer to ask
 * for); a ref the remote does not have, or a remote that cannot be reached,
 * is `error`.
 *
 * @example
 * ```ts
 * import { resolveSource } from "./_resolve.ts";
 * import { outdatedSources } from "./_outdated.ts";
 * const rows = await outdatedSources([resolveSource("o/r", "/cache")], () => null, {});
 * console.log(rows[0].state);
 * ```
 * @module
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { errorText } from "../errors.ts";
import { DEFAULT_GIT_TIMEOUT_MS } from "../limits.ts";
import { GIT_MISSING, gitAvailable, remoteCommit } from "./_git.ts";
import { isLocalSource, type ResolvedSource } from "./_resolve.ts";
import { isShaLike } from "./_sync.ts";

/** Where a source's known commit comes from. */
export interface KnownCommit {
  /** The commit (as recorded; compared as lower-case). */
  commit: string;
  /** `project-lock` (the project's lock), `user-lock` (the user lock) or `synced` (the last sync). */
  from: "project-lock" | "user-lock" | "synced";
}

/** One source's row. */
export interface OutdatedRow {
  key: string;
  url: string;
  ref: string | null;
  /** The locked or synced commit, or null when the source was never synced. */
  locked: string | null;
  /** Where `locked` comes from, or null. */
  lockedFrom: KnownCommit["from"] | null;
  /** What the ref names upstream now, or null (pinned, or an error). */
  upstream: string | null;
  /** `current`, `outdated` (upstream differs, or never synced), `pinned` or `error`. */
  state: "current" | "outdated" | "pinned" | "error";
  /** Why the state is `error`, else null. */
  error: string | null;
}

/** Options of {@linkcode outdatedSources}. */
export interface OutdatedOptions {
  /**
   * Per git command, in milliseconds.
   *
   * @default {DEFAULT_GIT_TIMEOUT_MS}
   */
  timeoutMs?: number;
  /**
   * The git executable.
   *
   * @default {"git"}
   */
  git?: string;
  /** Extra environment for git. */
  env?: Record<string, string>;
}

/** The row of one source, given where git may run (undefined: git is missing). */
async function rowOf(
  source: ResolvedSource,
  known: KnownCommit | null,
  cwd: string | undefined,
  options: OutdatedOptions,
): Promise<OutdatedRow> {
  const base = {
    key: source.key,
    url: source.url,
    ref: source.ref ?? null,
    locked: known?.commit ?? null,
    lockedFrom: known?.from ?? null,
  };
  if (isShaLike(source.ref)) return { ...base, upstream: null, state: "pinned", error: null };
  if (cwd === undefined) return { ...base, upstream: null, state: "error", error: GIT_MISSING };
  let upstream: string | undefined;
  try {
    upstream = await remoteCommit(source.url, source.ref, {
      cwd,
      timeoutMs: options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS,
      git: options.git,
      env: options.env,
      allowFileProtocol: isLocalSource(source),
    });
  } catch (error) {
    return { ...base, upstream: null, state: "error", error: errorText(error) };
  }
  if (upstream === undefined) {
    const what = source.ref === undefined ? "HEAD" : `ref ${JSON.stringify(source.ref)}`;
    return { ...base, upstream: null, state: "error", error: `the remote has no ${what}` };
  }
  const same = known !== null && known.commit.toLowerCase() === upstream;
  return { ...base, upstream, state: same ? "current" : "outdated", error: null };
}

/**
 * One row per source (each lock key once): its known commit (`knownOf`) and
 * what its ref names upstream now.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { outdatedSources } from "./_outdated.ts";
 * const rows = await outdatedSources([], () => null, { timeoutMs: 30_000 });
 * assert.equal(rows.length, 0);
 * ```
 */
export async function outdatedSources(
  sources: readonly ResolvedSource[],
  knownOf: (source: ResolvedSource) => KnownCommit | null,
  options: OutdatedOptions,
): Promise<OutdatedRow[]> {
  const unique = sources.filter((s, i) => sources.findIndex((t) => t.key === s.key) === i);
  if (unique.length === 0) return [];
  const available = await gitAvailable(options.git ?? "git");
  const cwd = available ? await mkdtemp(join(tmpdir(), "outdated-")) : undefined;
  try {
    const rows: OutdatedRow[] = [];
    for (const source of unique) rows.push(await rowOf(source, knownOf(source), cwd, options));
    return rows;
  } finally {
    if (cwd !== undefined) await rm(cwd, { recursive: true, force: true });
  }
}
