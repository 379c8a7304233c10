/**
 * SHA-256 in lowercase hex, synchronously with `node:crypto` (the browser
 * page hashes with Web Crypto in `lib/bundle/manifest.ts` instead).
 *
 * @example
 * ```ts
 * import { sha256Hex } from "./hash.ts";
 * console.log(sha256Hex("")); // "e3b0c442…b855"
 * ```
 * @module
 */
import { createHash } from "node:crypto";

/** Lowercase hex SHA-256 of `data` (a string is hashed as UTF-8). */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}
