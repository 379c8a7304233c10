/**
 * Git sources: source strings, the sources files, trust of a project's sources file, the sync
 * of pinned checkouts and its scheduler.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveSource } from "./mod.ts";
 * assert.equal(resolveSource("o/r", "/tmp/cache").display, "o/r");
 * ```
 *
 * @module
 */
export { checkLocalRepository, purgeCheckout } from "./_cache.ts";
export {
  collectProjectSources,
  collectSources,
  resolveProjectEntries,
  type UntrustedProject,
} from "./_collect.ts";
export {
  type CommitEntry,
  type CommitRecord,
  parseSourcesFile,
  projectSourcesFile,
  readCommitRecord,
  readConfigBytes,
  readSourcesFile,
  readSyncFailures,
  type SyncFailure,
  syncFailuresFile,
  userSourcesFile,
  writeSourcesFile,
} from "./_files.ts";
export { syncFrozen } from "./_frozen.ts";
export { gitAvailable, runGit } from "./_git.ts";
export { type KnownCommit, type OutdatedRow, outdatedSources } from "./_outdated.ts";
export {
  comparablePath,
  isRelativeLocal,
  lockedSourceName,
  rebaseSpec,
  type ResolvedSource,
  resolveSource,
  sameRepository,
  sameSource,
  SourceError,
  sourceName,
  type SourceSpec,
} from "./_resolve.ts";
export { SyncScheduler } from "./_schedule.ts";
export { syncAll, type SyncResult, syncSource } from "./_sync.ts";
export {
  projectKey,
  type ProjectTrust,
  projectTrust,
  type ResolvedEntries,
  revokeProject,
  trustFile,
  trustProject,
  type TrustState,
} from "./_trust.ts";
