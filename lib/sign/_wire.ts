/**
 * The SSH wire encoding (RFC 4251 §5) that SSH keys and signatures are made
 * of: `uint32`, `string` (a 32-bit length, then the bytes) and `mpint`, read
 * strictly (a length past the end is refused, never clamped) and written
 * back; plus strict base64, since every SSH file carries these blobs in it.
 *
 * No `node:` imports: the browser page could use it unchanged.
 *
 * @example
 * ```ts
 * import { WireReader, wireString } from "./_wire.ts";
 * const reader = new WireReader(wireString("ssh-ed25519"));
 * console.log(reader.text(), reader.done()); // "ssh-ed25519" true
 * ```
 * @module
 */
import { KindError } from "../errors.ts";
import { concatBytes, tryDecodeUtf8 } from "../util.ts";

/** A blob that is not what the SSH wire format promised: truncated, oversized or with bytes left over. */
export class WireError extends KindError<"malformed"> {}

const encoder = new TextEncoder();

/**
 * Reads SSH wire fields one after another; any read past the end throws a
 * {@linkcode WireError}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { WireReader } from "./_wire.ts";
 * const reader = new WireReader(new Uint8Array([0, 0, 0, 1]));
 * assert.equal(reader.uint32(), 1);
 * ```
 */
export class WireReader {
  #bytes: Uint8Array;
  #at = 0;

  /** Reads `bytes` from the start. */
  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }

  /** The next `count` bytes, raw. */
  raw(count: number): Uint8Array {
    if (count < 0 || this.#at + count > this.#bytes.length) {
      throw new WireError("malformed", "truncated");
    }
    const out = this.#bytes.slice(this.#at, this.#at + count);
    this.#at += count;
    return out;
  }

  /** A big-endian 32-bit unsigned integer. */
  uint32(): number {
    const b = this.raw(4);
    return ((b[0] << 24) >>> 0) + (b[1] << 16) + (b[2] << 8) + b[3];
  }

  /** A `string`'s bytes. */
  bytes(): Uint8Array {
    return this.raw(this.uint32());
  }

  /** A `string` that must be UTF-8 text. */
  text(): string {
    const text = tryDecodeUtf8(this.bytes());
    if (text === undefined) throw new WireError("malformed", "text is not UTF-8");
    return text;
  }

  /** An `mpint` that must be positive (or zero), without its sign byte. */
  mpint(): Uint8Array {
    const bytes = this.bytes();
    if (bytes.length > 0 && bytes[0] & 0x80) throw new WireError("malformed", "negative mpint");
    let start = 0;
    while (start < bytes.length && bytes[start] === 0) start++;
    return bytes.slice(start);
  }

  /** How many bytes are left to read. */
  remaining(): number {
    return this.#bytes.length - this.#at;
  }

  /** Whether every byte was read. */
  done(): boolean {
    return this.#at === this.#bytes.length;
  }

  /** Refuses bytes left over. */
  end(): void {
    if (!this.done()) throw new WireError("malformed", "trailing bytes");
  }
}

/**
 * A 32-bit big-endian length prefix.
 *
 * @example
 * ```ts
 * import { wireUint32 } from "./_wire.ts";
 * console.log(wireUint32(1)); // Uint8Array [0, 0, 0, 1]
 * ```
 */
export function wireUint32(value: number): Uint8Array {
  return new Uint8Array([value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255]);
}

/**
 * An SSH `string` of bytes or of a text's UTF-8.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wireString } from "./_wire.ts";
 * assert.equal(wireString("ab").length, 6);
 * ```
 */
export function wireString(value: Uint8Array | string): Uint8Array<ArrayBuffer> {
  const bytes = typeof value === "string" ? encoder.encode(value) : value;
  return concatBytes([wireUint32(bytes.length), bytes]);
}

/**
 * An SSH `mpint` of a positive integer given as unsigned big-endian bytes.
 *
 * @example
 * ```ts
 * import { wireMpint } from "./_wire.ts";
 * console.log(wireMpint(new Uint8Array([0x80]))); // Uint8Array [0, 0, 0, 2, 0, 128]
 * ```
 */
export function wireMpint(value: Uint8Array): Uint8Array<ArrayBuffer> {
  let start = 0;
  while (start < value.length && value[start] === 0) start++;
  const trimmed = value.slice(start);
  return wireString(
    trimmed.length > 0 && trimmed[0] & 0x80 ? concatBytes([new Uint8Array([0]), trimmed]) : trimmed,
  );
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Decodes canonical base64 (padded, no whitespace), or `undefined`.
 *
 * @example
 * ```ts
 * import { fromBase64 } from "./_wire.ts";
 * console.log(fromBase64("AAE="), fromBase64("A*")); // Uint8Array [0, 1] undefined
 * ```
 */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (text.length % 4 !== 0 || !BASE64.test(text)) return undefined;
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return undefined;
  }
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return toBase64(bytes) === text ? bytes : undefined;
}

/**
 * Encodes bytes as padded base64.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toBase64 } from "./_wire.ts";
 * assert.equal(toBase64(new Uint8Array([0, 1])), "AAE=");
 * ```
 */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/**
 * Unpadded base64url, as JSON Web Keys spell their numbers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toBase64Url } from "./_wire.ts";
 * assert.equal(toBase64Url(new Uint8Array([251, 255])), "-_8");
 * ```
 */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/=+$/, "").replaceAll("+", "-").replaceAll("/", "_");
}
