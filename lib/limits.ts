/**
 * Every size, count and time limit of the tool, defined once.
 *
 * Modules import these names; no module restates a limit as a literal, and
 * messages that quote a limit are built from it ({@linkcode formatBytes}).
 * This module imports nothing, so the browser page uses it unchanged.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatBytes, MAX_BUNDLE_SKILL_BYTES } from "./limits.ts";
 * assert.equal(`SKILL.md exceeds ${formatBytes(MAX_BUNDLE_SKILL_BYTES)}`, "SKILL.md exceeds 128 KiB");
 * ```
 * @module
 */

/**
 * Largest SKILL.md (or flat skill file) read by the catalog, a load, `check`
 * and the browser page. The Agent Skills specification sets no size limit;
 * this one only keeps every read bounded.
 */
export const MAX_SKILL_READ_BYTES = 1024 * 1024;

/**
 * Largest SKILL.md a bundle holds (the bundle format's rule). `check` warns
 * (`skill-size`) about a larger SKILL.md: it is read everywhere, up to
 * {@linkcode MAX_SKILL_READ_BYTES}, but cannot be bundle-pinned.
 */
export const MAX_BUNDLE_SKILL_BYTES = 128 * 1024;

/** Largest other file in a bundle. */
export const MAX_BUNDLE_FILE_BYTES = 16 * 1024 * 1024;

/** Largest bundle: all its files together. */
export const MAX_BUNDLE_TOTAL_BYTES = 32 * 1024 * 1024;

/** Largest project lock (`skills-anywhere.lock.json`) read: a thousand skills of a few dozen files each fit. */
export const MAX_LOCK_BYTES = 32 * 1024 * 1024;

/** Largest sources, lock, trust, config or manifest file read; a larger one is refused. */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * Largest SSH signature, OpenSSH private key, allowed-signers file, Sigstore
 * bundle or Sigstore trusted root read (a 16384-bit RSA key and its signature
 * take under 8 KiB; a Sigstore bundle or the public-good root, 10 to 20 KiB).
 */
export const MAX_SIGNING_FILE_BYTES = 256 * 1024;

/** Time allowed to one git command, and to one background sync, in milliseconds. */
export const DEFAULT_GIT_TIMEOUT_MS = 120_000;

/**
 * Most connections the HTTP endpoint holds open at once (every state: headers awaited, body
 * awaited, answer streaming, idle between requests). One more is answered
 * `503 Service Unavailable` with `Retry-After` and closed, before anything of it is read.
 */
export const DEFAULT_HTTP_MAX_CONNECTIONS = 256;

/**
 * Longest wait, in milliseconds, for a request's headers to be complete, and then again for its
 * body to be complete, on the HTTP endpoint; a slower client is answered `408 Request Timeout`
 * and closed. An answer (a stream of events included) is never cut by it.
 */
export const DEFAULT_HTTP_REQUEST_TIMEOUT_MS = 10_000;

/** Longest time, in milliseconds, an HTTP connection stays open idle between two requests. */
export const HTTP_IDLE_TIMEOUT_MS = 5_000;

/** Largest output read from one git command. */
export const MAX_GIT_OUTPUT_BYTES = 4 * 1024 * 1024;

/**
 * Deepest folder below the project root that `lock` and `verify` look in for
 * agents' project folders (the root is depth 0; a folder deeper than this is
 * reported as not covered, never served under a lock).
 */
export const MAX_PROJECT_TREE_DEPTH = 24;

/**
 * Most directory entries (files and folders together) `lock` and `verify`
 * list while walking the project tree; past it the rest of the tree is
 * reported as not covered.
 */
export const MAX_PROJECT_TREE_ENTRIES = 250_000;

/** Longest file-name-derived fallback skill name shown by `check`. */
export const MAX_FALLBACK_NAME_LENGTH = 128;

/**
 * A byte count in the unit people read: `131072` → `"128 KiB"`,
 * `1048576` → `"1 MiB"`, `1000` → `"1000 bytes"`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatBytes } from "./limits.ts";
 * assert.equal(formatBytes(32 * 1024 * 1024), "32 MiB");
 * ```
 */
export function formatBytes(bytes: number): string {
  const mib = 1024 * 1024;
  if (bytes >= mib && bytes % mib === 0) return `${bytes / mib} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * Most bytes (all files together) one skill may have to be shared over a protocol whose hosts
 * must accept skills up to this size and should not be offered larger ones. (The file count
 * limit of that rule, 512, is the bundle's own `maxFiles`.)
 */
export const MAX_SHARED_SKILL_BYTES = 16 * 1024 * 1024;
