/**
 * Digests in lowercase hex, synchronously with `node:crypto` (the browser
 * page hashes with Web Crypto in `lib/bundle/_manifest.ts` instead).
 *
 * `node:crypto` is loaded on the first digest (`process.getBuiltinModule`),
 * not when this module is imported: loading it costs a command such as
 * `list`, which may hash nothing, about as much as reading a thousand skill
 * files. The one-shot `crypto.hash` is used where the runtime has it (one
 * call instead of three). Under Bun its own `Bun.CryptoHasher` digests
 * instead, and `node:crypto` is never loaded (its streams cost a compiled
 * binary's `show` some 1.7 ms); the digests are the same.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sha256Hex } from "./hash.ts";
 * assert.equal(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
 * ```
 * @module
 */
import process from "node:process";

type Crypto = typeof import("node:crypto");
type OneShot = (algorithm: string, data: Uint8Array | string, encoding: "hex") => string;

let loaded: Crypto | undefined;

/** Bun's own hasher, when running under Bun. */
const BunHasher = (globalThis as { Bun?: { CryptoHasher?: new (algorithm: string) => Digest } }).Bun
  ?.CryptoHasher;

/** `node:crypto`, loaded once on first use. */
function crypto(): Crypto {
  return loaded ??= process.getBuiltinModule("node:crypto") as Crypto;
}

/** A digest fed in pieces (see {@linkcode createDigest}). */
export interface Digest {
  update(data: Uint8Array | string): Digest;
  digest(encoding: "hex"): string;
}

/**
 * An incremental digest with `algorithm`, for data read in chunks.
 *
 * @example
 * ```ts
 * import { createDigest } from "./hash.ts";
 * const hex = createDigest("sha256").update("a").update("bc").digest("hex");
 * ```
 */
export function createDigest(algorithm: "sha1" | "sha256"): Digest {
  if (BunHasher !== undefined) return new BunHasher(algorithm);
  return crypto().createHash(algorithm);
}

/**
 * Lowercase hex digest of `data` with `algorithm` (a string is hashed as UTF-8).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { digestHex } from "./hash.ts";
 * assert.equal(digestHex("sha1", "abc"), "a9993e364706816aba3e25717850c26c9cd0d89d");
 * ```
 */
export function digestHex(algorithm: "sha1" | "sha256", data: Uint8Array | string): string {
  const oneShot = BunHasher === undefined ? (crypto() as { hash?: OneShot }).hash : undefined;
  if (oneShot !== undefined) return oneShot(algorithm, data, "hex");
  return createDigest(algorithm).update(data).digest("hex");
}

/**
 * `bytes` random bytes as lowercase hex, from the Web Crypto API (`crypto.getRandomValues`): for
 * temporary names, without loading `node:crypto` (whose start-up costs a compiled Bun binary more
 * than reading hundreds of skills).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { randomHex } from "./hash.ts";
 * assert.equal(randomHex(4).length, 8);
 * ```
 */
export function randomHex(bytes: number): string {
  let hex = "";
  for (const byte of globalThis.crypto.getRandomValues(new Uint8Array(bytes))) {
    hex += byte.toString(16).padStart(2, "0");
  }
  return hex;
}

/** Lowercase hex SHA-256 of `data` (a string is hashed as UTF-8). */
export function sha256Hex(data: Uint8Array | string): string {
  return digestHex("sha256", data);
}
