/**
 * Digests in lowercase hex, synchronously with `node:crypto` (the browser
 * page hashes with Web Crypto in `lib/bundle/manifest.ts` instead). The
 * one-shot `crypto.hash` is used where the runtime has it (one call instead
 * of three: discovery hashes every skill body it reads).
 *
 * @example
 * ```ts
 * import { sha256Hex } from "./hash.ts";
 * console.log(sha256Hex("")); // "e3b0c442…b855"
 * ```
 * @module
 */
import * as crypto from "node:crypto";

type OneShot = (algorithm: string, data: Uint8Array | string, encoding: "hex") => string;

/** `crypto.hash` (Node 20.12+, Deno); absent on older runtimes. */
const oneShot = (crypto as { hash?: OneShot }).hash;

/**
 * Lowercase hex digest of `data` with `algorithm` (a string is hashed as UTF-8).
 *
 * @example
 * ```ts
 * import { digestHex } from "./hash.ts";
 * console.log(digestHex("sha1", "abc")); // "a9993e36…9cd0d89d"
 * ```
 */
export function digestHex(algorithm: "sha1" | "sha256", data: Uint8Array | string): string {
  if (oneShot !== undefined) return oneShot(algorithm, data, "hex");
  return crypto.createHash(algorithm).update(data).digest("hex");
}

/** Lowercase hex SHA-256 of `data` (a string is hashed as UTF-8). */
export function sha256Hex(data: Uint8Array | string): string {
  return digestHex("sha256", data);
}
