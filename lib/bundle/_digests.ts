/**
 * Per-file digests kept by file identity (device, inode, size, modification
 * and change times, from `lstat` with nanoseconds), so a directory read again
 * re-reads only the files that changed. A file whose change time is within
 * `settleMs` of now is hashed but not kept: a same-size rewrite inside one
 * timestamp tick would otherwise keep a stale digest (git's "racily clean").
 *
 * @example
 * ```ts
 * import { DigestCache } from "./_digests.ts";
 * import { readBundle } from "./_read.ts";
 * const digests = new DigestCache();
 * await readBundle("testdata/check/clean-skill", { digests }); // hashes every file
 * await readBundle("testdata/check/clean-skill", { digests }); // reads none that were kept
 * console.log(digests.hits, digests.misses);
 * ```
 * @module
 */
import type { BigIntStats } from "node:fs";

/** What is kept for one file: its SHA-256 (hex), its size, and its bytes when asked to keep them. */
export interface CachedDigest {
  sha256: string;
  size: number;
  bytes?: Uint8Array<ArrayBuffer>;
}

/** Options of {@linkcode DigestCache}. */
export interface DigestCacheOptions {
  /**
   * Most files kept; the oldest is forgotten first.
   *
   * @default {200_000}
   */
  maxEntries?: number;
  /**
   * A file changed less than this many milliseconds ago is not kept.
   *
   * @default {1000}
   */
  settleMs?: number;
}

const NS_PER_MS = 1_000_000n;

/** A cache of file digests keyed by file identity; see the module doc. */
export class DigestCache {
  readonly #entries = new Map<string, CachedDigest>();
  readonly #maxEntries: number;
  readonly #settleNs: bigint;
  /** Lookups answered from the cache. */
  hits = 0;
  /** Lookups that found nothing (the file is read). */
  misses = 0;

  /** An empty cache. */
  constructor(options: DigestCacheOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 200_000;
    this.#settleNs = BigInt(options.settleMs ?? 1000) * NS_PER_MS;
  }

  /** The digest kept for a file with this identity, if any. */
  get(stat: BigIntStats): CachedDigest | undefined {
    const found = this.#entries.get(identityKey(stat));
    if (found === undefined) this.misses++;
    else this.hits++;
    return found;
  }

  /** Keeps `digest` for a file with this identity, unless it changed too recently. */
  set(stat: BigIntStats, digest: CachedDigest): void {
    const now = BigInt(Date.now()) * NS_PER_MS;
    if (now - stat.ctimeNs < this.#settleNs || now - stat.mtimeNs < this.#settleNs) return;
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(identityKey(stat), digest);
  }
}

function identityKey(stat: BigIntStats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}
