/**
 * Git sources: the source-string parser, the sources and lock files, and git
 * sync.
 *
 * @example
 * ```ts
 * import { resolveSource, syncAll } from "./mod.ts";
 * const source = resolveSource("anthropics/skills", "/home/me/.dsh/skills-anywhere/cache");
 * await syncAll([source], { lockFile: "/home/me/.dsh/skills-anywhere/lock.json" });
 * ```
 * @module
 */
export {
  isGitUrl,
  normalizeSourcePath,
  type ResolvedSource,
  resolveSource,
  sameRepository,
  sameSource,
  sanitizeRef,
  SourceError,
  type SourceSpec,
} from "./resolve.ts";
export {
  type LockEntry,
  type LockFile,
  mergeSources,
  projectSourcesFile,
  readLock,
  readSourcesFile,
  userSourcesFile,
  writeLock,
  writeSourcesFile,
} from "./files.ts";
export {
  DEFAULT_SYNC_TIMEOUT_MS,
  GIT_MISSING,
  gitAvailable,
  isShaLike,
  MAX_GIT_OUTPUT,
  syncAll,
  type SyncAllOptions,
  type SyncLog,
  type SyncOptions,
  type SyncResult,
  syncSource,
  type SyncStatus,
} from "./sync.ts";
