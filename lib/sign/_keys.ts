/**
 * OpenSSH keys: public key blobs and lines (`ssh-ed25519 AAAA… comment`),
 * their `SHA256:` fingerprints as `ssh-keygen -l` prints them, unencrypted
 * `openssh-key-v1` private keys, and the raw SSH signature of each key type
 * (Ed25519; RSA with `rsa-sha2-512`/`rsa-sha2-256`; ECDSA on nistp256, 384
 * and 521). The cryptography is Web Crypto, so the module has no `node:`
 * imports; a key becomes a JSON Web Key and a non-extractable `CryptoKey`,
 * and nothing here writes anything anywhere.
 *
 * Not supported, refused with a kind: certificates (`*-cert-v01@openssh.com`),
 * security keys (`sk-*`), DSA, and encrypted private keys (kind
 * `encrypted-key`: a surface may hand those to `ssh-keygen`).
 *
 * @example
 * ```ts
 * import { parsePublicKeyFields } from "./_keys.ts";
 * const parsed = parsePublicKeyFields("ssh-ed25519", "AAAAC3NzaC1lZDI1NTE5AAAAINPgX4m4ccKEOUaauSyWhCQG1x0Udv+oHMODxA+BuEWc");
 * if (parsed.ok) console.log(await parsed.key.fingerprint()); // "SHA256:…"
 * ```
 * @module
 */
import { type Failure, failure } from "../errors.ts";
import { concatBytes } from "../util.ts";
import {
  fromBase64,
  toBase64,
  toBase64Url,
  WireError,
  wireMpint,
  WireReader,
  wireString,
} from "./_wire.ts";

/** Why a key is refused. */
export type KeyErrorKind = "not-key" | "unsupported-key" | "encrypted-key";

/** The key types this module signs and verifies with. */
export type KeyType =
  | "ssh-ed25519"
  | "ssh-rsa"
  | "ecdsa-sha2-nistp256"
  | "ecdsa-sha2-nistp384"
  | "ecdsa-sha2-nistp521";

const CURVES = {
  "ecdsa-sha2-nistp256": {
    name: "nistp256",
    crv: "P-256",
    hash: "SHA-256",
    size: 32,
    p: 2n ** 256n - 2n ** 224n + 2n ** 192n + 2n ** 96n - 1n,
    b: 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn,
    n: 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n,
  },
  "ecdsa-sha2-nistp384": {
    name: "nistp384",
    crv: "P-384",
    hash: "SHA-384",
    size: 48,
    p: 2n ** 384n - 2n ** 128n - 2n ** 96n + 2n ** 32n - 1n,
    b: 0xb3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aefn,
    n: 0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973n,
  },
  "ecdsa-sha2-nistp521": {
    name: "nistp521",
    crv: "P-521",
    hash: "SHA-512",
    size: 66,
    p: 2n ** 521n - 1n,
    b: 0x0051953eb9618e1c9a1f929a21a0b68540eea2da725b99b315f3b8b489918ef109e156193951ec7e937b1652c0bd3bb1bf073573df883d2c34f1ef451fd46b503f00n,
    n: 0x01fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffa51868783bf2f966b7fcc0148f709a5d03bb5c9b8899c47aebb6fb71e91386409n,
  },
} as const;
type EcType = keyof typeof CURVES;

const RSA_HASHES: Readonly<Record<string, string>> = {
  "rsa-sha2-512": "SHA-512",
  "rsa-sha2-256": "SHA-256",
};

/** A public key: its type, its wire blob (what fingerprints and signatures name) and its JWK. */
export interface PublicKey {
  readonly type: KeyType;
  readonly blob: Uint8Array;
  readonly jwk: JsonWebKey;
  /** `SHA256:` and the unpadded base64 of the blob's SHA-256, as `ssh-keygen -l` prints it. */
  fingerprint(): Promise<string>;
}

/** A private key that can sign; its secret stays in a non-extractable `CryptoKey`. */
export interface PrivateKey {
  readonly publicKey: PublicKey;
  /** The SSH signature blob (`string algorithm, string signature`) of `data`. */
  sign(data: Uint8Array<ArrayBuffer>): Promise<Uint8Array>;
}

/** A parsed public key, or why not. */
export type PublicKeyResult = { ok: true; key: PublicKey } | Failure<KeyErrorKind>;

/** A parsed private key, or why not. */
export type PrivateKeyResult = { ok: true; key: PrivateKey } | Failure<KeyErrorKind>;

const isEc = (type: string): type is EcType => Object.hasOwn(CURVES, type);

/** Why a key type is not one of ours, in words. */
function unsupported(type: string): Failure<"unsupported-key"> {
  const what = type.includes("-cert-") ? "certificates are not supported" : "unsupported key type";
  return failure("unsupported-key", `${what}: ${JSON.stringify(type.slice(0, 64))}`);
}

const toBigInt = (bytes: Uint8Array) =>
  bytes.reduce((value, byte) => (value << 8n) | BigInt(byte), 0n);
const bitLength = (value: bigint) => value === 0n ? 0 : value.toString(2).length;

/**
 * OpenSSH's `sshkey_ec_validate_public` for a prime-order NIST curve: the
 * point lies on the curve (`y² = x³ - 3x + b mod p`, coordinates below `p`),
 * each coordinate has more bits than half the order's and is below
 * `order - 1` (the order check `nQ = ∞` holds for every curve point, as the
 * cofactor is 1).
 */
function validPoint(curve: (typeof CURVES)[EcType], xBytes: Uint8Array, yBytes: Uint8Array) {
  const [x, y] = [toBigInt(xBytes), toBigInt(yBytes)];
  const { p, b, n } = curve;
  if (x >= p || y >= p) return false;
  if ((y * y - (x * x * x - 3n * x + b)) % p !== 0n) return false;
  const half = Math.floor(bitLength(n) / 2);
  return bitLength(x) > half && bitLength(y) > half && x < n - 1n && y < n - 1n;
}

/** The JWK of the public fields that follow the type name in a blob or a private key. */
function readPublicJwk(type: KeyType, reader: WireReader): JsonWebKey {
  if (type === "ssh-ed25519") {
    const x = reader.bytes();
    if (x.length !== 32) throw new WireError("malformed", "bad Ed25519 key");
    return { kty: "OKP", crv: "Ed25519", x: toBase64Url(x) };
  }
  if (type === "ssh-rsa") {
    const e = reader.mpint();
    const n = reader.mpint();
    if (bitLength(toBigInt(n)) < 1024 || n.length > 2048 || e.length === 0) {
      throw new WireError("malformed", "RSA keys need 1024 to 16384 bits");
    }
    return { kty: "RSA", n: toBase64Url(n), e: toBase64Url(e) };
  }
  const curve = CURVES[type];
  if (reader.text() !== curve.name) throw new WireError("malformed", "curve name mismatch");
  const q = reader.bytes();
  if (q.length !== 1 + 2 * curve.size || q[0] !== 4) throw new WireError("malformed", "bad point");
  if (!validPoint(curve, q.slice(1, 1 + curve.size), q.slice(1 + curve.size))) {
    throw new WireError("malformed", "the point is not a valid public key on its curve");
  }
  return {
    kty: "EC",
    crv: curve.crv,
    x: toBase64Url(q.slice(1, 1 + curve.size)),
    y: toBase64Url(q.slice(1 + curve.size)),
  };
}

function makePublicKey(type: KeyType, blob: Uint8Array, jwk: JsonWebKey): PublicKey {
  return {
    type,
    blob,
    jwk,
    fingerprint: async () => {
      const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(blob)));
      return `SHA256:${toBase64(digest).replace(/=+$/, "")}`;
    },
  };
}

/**
 * Reads a public key blob (the wire form inside key lines and signatures).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePublicKeyBlob } from "./_keys.ts";
 * assert.equal(parsePublicKeyBlob(new Uint8Array(3)).ok, false);
 * ```
 */
export function parsePublicKeyBlob(blob: Uint8Array): PublicKeyResult {
  try {
    const reader = new WireReader(blob);
    const type = reader.text();
    if (type !== "ssh-ed25519" && type !== "ssh-rsa" && !isEc(type)) return unsupported(type);
    const jwk = readPublicJwk(type, reader);
    reader.end();
    return { ok: true, key: makePublicKey(type, blob.slice(), jwk) };
  } catch (error) {
    if (!(error instanceof WireError)) throw error;
    return failure("not-key", `malformed public key (${error.message})`);
  }
}

/**
 * Reads the key type and base64 fields of an OpenSSH public key line; the
 * type must be the blob's own.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parsePublicKeyFields } from "./_keys.ts";
 * assert.equal(parsePublicKeyFields("ssh-ed25519", "%%").ok, false);
 * ```
 */
export function parsePublicKeyFields(type: string, base64: string): PublicKeyResult {
  const blob = fromBase64(base64);
  if (blob === undefined) return failure("not-key", "the key is not base64");
  const parsed = parsePublicKeyBlob(blob);
  if (parsed.ok && parsed.key.type !== type) {
    return failure("not-key", "the key's type disagrees with its blob");
  }
  return parsed;
}

/** Converts a raw Web Crypto signature to the SSH signature blob (ECDSA's `r || s` as two mpints). */
function sshSignatureBlob(type: KeyType, algorithm: string, raw: Uint8Array): Uint8Array {
  if (!isEc(type)) return concatBytes([wireString(algorithm), wireString(raw)]);
  const half = raw.length / 2;
  const inner = concatBytes([wireMpint(raw.slice(0, half)), wireMpint(raw.slice(half))]);
  return concatBytes([wireString(algorithm), wireString(inner)]);
}

/** The Web Crypto algorithm of a key type and an SSH signature algorithm, or undefined. */
function webAlgorithm(
  type: KeyType,
  algorithm: string,
): { name: string; hash?: string; namedCurve?: string } | undefined {
  if (type === "ssh-ed25519") return algorithm === type ? { name: "Ed25519" } : undefined;
  if (type === "ssh-rsa") {
    const hash = RSA_HASHES[algorithm];
    return hash === undefined ? undefined : { name: "RSASSA-PKCS1-v1_5", hash };
  }
  const curve = CURVES[type];
  return algorithm === type
    ? { name: "ECDSA", hash: curve.hash, namedCurve: curve.crv }
    : undefined;
}

/** An ECDSA signature's `mpint r, mpint s` as Web Crypto's fixed-size `r || s`. */
function ecRaw(type: EcType, inner: Uint8Array): Uint8Array<ArrayBuffer> {
  const size = CURVES[type].size;
  const reader = new WireReader(inner);
  const r = reader.mpint();
  const s = reader.mpint();
  reader.end();
  if (r.length > size || s.length > size) throw new WireError("malformed", "bad ECDSA signature");
  const out = new Uint8Array(2 * size);
  out.set(r, size - r.length);
  out.set(s, 2 * size - s.length);
  return out;
}

/**
 * Whether `signature` (an SSH signature blob) is `key`'s valid signature of
 * `data`; a malformed blob or an algorithm that does not fit the key is
 * `false`. RSA takes `rsa-sha2-512` or `rsa-sha2-256` (not SHA-1 `ssh-rsa`,
 * which OpenSSH refuses in these signatures too).
 *
 * @example
 * ```ts
 * import { parsePublicKeyBlob, verifyKeySignature } from "./_keys.ts";
 * async function example(blob: Uint8Array, data: Uint8Array<ArrayBuffer>, signature: Uint8Array) {
 *   const parsed = parsePublicKeyBlob(blob);
 *   if (parsed.ok) console.log(await verifyKeySignature(parsed.key, data, signature));
 * }
 * ```
 */
export async function verifyKeySignature(
  key: PublicKey,
  data: Uint8Array<ArrayBuffer>,
  signature: Uint8Array,
): Promise<boolean> {
  try {
    const reader = new WireReader(signature);
    const algorithm = webAlgorithm(key.type, reader.text());
    const raw = reader.bytes();
    reader.end();
    if (algorithm === undefined) return false;
    const bytes = isEc(key.type) ? ecRaw(key.type, raw) : new Uint8Array(raw);
    const cryptoKey = await crypto.subtle.importKey("jwk", key.jwk, algorithm, false, ["verify"]);
    return await crypto.subtle.verify(algorithm, cryptoKey, bytes, data);
  } catch (error) {
    if (error instanceof WireError) return false;
    throw error;
  }
}

/** The private JWK fields of an `openssh-key-v1` private section, after its type and public fields. */
function readPrivateJwk(
  type: Exclude<KeyType, "ssh-rsa">,
  pub: JsonWebKey,
  reader: WireReader,
): JsonWebKey {
  if (type === "ssh-ed25519") {
    const secret = reader.bytes();
    if (secret.length !== 64) throw new WireError("malformed", "bad Ed25519 secret");
    return { ...pub, d: toBase64Url(secret.slice(0, 32)) };
  }
  return { ...pub, d: toBase64Url(padTo(reader.mpint(), CURVES[type].size)) };
}

function padTo(bytes: Uint8Array, size: number): Uint8Array {
  if (bytes.length > size) throw new WireError("malformed", "bad ECDSA secret");
  const out = new Uint8Array(size);
  out.set(bytes, size - bytes.length);
  return out;
}

const toBig = (bytes: Uint8Array) =>
  BigInt("0x0" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""));
const fromBig = (value: bigint) => {
  const hex = value.toString(16);
  const even = hex.length % 2 ? "0" + hex : hex;
  return Uint8Array.from(even.match(/../g) ?? [], (h) => parseInt(h, 16));
};

/** RSA's private fields in OpenSSH's order (the public `n`, `e` come again first), with the CRT exponents computed. */
function readRsaPrivate(pub: JsonWebKey, reader: WireReader): JsonWebKey {
  const n = reader.mpint();
  const e = reader.mpint();
  if (toBase64Url(n) !== pub.n || toBase64Url(e) !== pub.e) {
    throw new WireError("malformed", "RSA public fields differ");
  }
  const d = reader.mpint();
  const iqmp = reader.mpint();
  const p = reader.mpint();
  const q = reader.mpint();
  const dBig = toBig(d);
  return {
    ...pub,
    d: toBase64Url(d),
    p: toBase64Url(p),
    q: toBase64Url(q),
    dp: toBase64Url(fromBig(dBig % (toBig(p) - 1n))),
    dq: toBase64Url(fromBig(dBig % (toBig(q) - 1n))),
    qi: toBase64Url(iqmp),
  };
}

const PRIVATE_BEGIN = "-----BEGIN OPENSSH PRIVATE KEY-----";
const PRIVATE_END = "-----END OPENSSH PRIVATE KEY-----";
const AUTH_MAGIC = "openssh-key-v1\0";

/** The base64 body between the armor lines, decoded, or undefined. */
function dearmorPrivate(text: string): Uint8Array | undefined {
  const lines = text.replaceAll("\r\n", "\n").trim().split("\n");
  if (lines[0] !== PRIVATE_BEGIN || lines.at(-1) !== PRIVATE_END) return undefined;
  return fromBase64(lines.slice(1, -1).join("").trim());
}

/**
 * Reads an unencrypted OpenSSH private key (`-----BEGIN OPENSSH PRIVATE
 * KEY-----`, `openssh-key-v1`, cipher `none`) holding one key. An encrypted
 * one is kind `encrypted-key`; anything else `not-key` or `unsupported-key`.
 * The secret goes straight into a non-extractable `CryptoKey`.
 *
 * @example
 * ```ts
 * import { parsePrivateKey } from "./_keys.ts";
 * const parsed = await parsePrivateKey("-----BEGIN RSA PRIVATE KEY-----");
 * if (!parsed.ok) console.log(parsed.kind); // "not-key"
 * ```
 */
export async function parsePrivateKey(text: string): Promise<PrivateKeyResult> {
  const bytes = dearmorPrivate(text);
  if (bytes === undefined) return failure("not-key", "not an OpenSSH private key");
  try {
    const reader = new WireReader(bytes);
    if (new TextDecoder().decode(reader.raw(AUTH_MAGIC.length)) !== AUTH_MAGIC) {
      return failure("not-key", "not an OpenSSH private key");
    }
    const cipher = reader.text();
    reader.text(); // kdf name
    reader.bytes(); // kdf options
    if (cipher !== "none") return failure("encrypted-key", "the private key is encrypted");
    if (reader.uint32() !== 1) return failure("unsupported-key", "a key file with several keys");
    const outer = parsePublicKeyBlob(reader.bytes());
    if (!outer.ok) return outer;
    const section = reader.bytes();
    reader.end();
    return await privateFromSection(outer.key, new WireReader(section));
  } catch (error) {
    if (!(error instanceof WireError)) throw error;
    return failure("not-key", `malformed private key (${error.message})`);
  }
}

/** The private section: two equal check words, the key, a comment, then padding 1, 2, 3…. */
async function privateFromSection(pub: PublicKey, reader: WireReader): Promise<PrivateKeyResult> {
  if (reader.uint32() !== reader.uint32()) {
    return failure("not-key", "malformed private key (check words differ)");
  }
  if (reader.text() !== pub.type) throw new WireError("malformed", "key types differ");
  let jwk: JsonWebKey;
  if (pub.type === "ssh-rsa") jwk = readRsaPrivate(pub.jwk, reader);
  else {
    const again = readPublicJwk(pub.type, reader);
    if (JSON.stringify(again) !== JSON.stringify(pub.jwk)) {
      throw new WireError("malformed", "public fields differ");
    }
    jwk = readPrivateJwk(pub.type, pub.jwk, reader);
  }
  reader.bytes(); // comment
  for (let pad = 1; !reader.done(); pad++) {
    if (reader.raw(1)[0] !== (pad & 255)) throw new WireError("malformed", "bad padding");
  }
  return { ok: true, key: await makePrivateKey(pub, jwk) };
}

async function makePrivateKey(publicKey: PublicKey, jwk: JsonWebKey): Promise<PrivateKey> {
  const algorithm = publicKey.type === "ssh-rsa" ? "rsa-sha2-512" : publicKey.type;
  const web = webAlgorithm(publicKey.type, algorithm)!;
  const key = await crypto.subtle.importKey("jwk", jwk, web, false, ["sign"]);
  return {
    publicKey,
    sign: async (data) => {
      const raw = new Uint8Array(await crypto.subtle.sign(web, key, data));
      return sshSignatureBlob(publicKey.type, algorithm, raw);
    },
  };
}
