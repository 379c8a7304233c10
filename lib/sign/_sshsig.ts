/**
 * The `SSHSIG` signature format of OpenSSH (`PROTOCOL.sshsig`), the one
 * `ssh-keygen -Y sign` writes and Git's SSH signing uses: an armored blob
 *
 *     -----BEGIN SSH SIGNATURE-----
 *     base64 of: "SSHSIG" uint32(1) string(public key) string(namespace)
 *                string(reserved) string(hash algorithm) string(signature)
 *     -----END SSH SIGNATURE-----
 *
 * where the signature is over `"SSHSIG" string(namespace) string(reserved)
 * string(hash algorithm) string(H(message))`. Parsing is strict: a bounded
 * size, version 1, a known hash (`sha512` or `sha256`), no truncated field
 * and no trailing byte. Writing wraps the base64 at 70 columns as
 * `ssh-keygen` does. No `node:` imports.
 *
 * @example
 * ```ts
 * import { parseSignature } from "./_sshsig.ts";
 * const parsed = parseSignature(new TextEncoder().encode("not a signature"));
 * if (!parsed.ok) console.log(parsed.kind); // "not-signature"
 * ```
 * @module
 */
import { type Failure, failure } from "../errors.ts";
import { MAX_SIGNING_FILE_BYTES } from "../limits.ts";
import { concatBytes, tryDecodeUtf8 } from "../util.ts";
import { type KeyErrorKind, parsePublicKeyBlob, type PrivateKey, type PublicKey } from "./_keys.ts";
import { fromBase64, toBase64, WireError, WireReader, wireString, wireUint32 } from "./_wire.ts";

/** The namespace of skill-directory signatures (`ssh-keygen -Y … -n skills-anywhere`). */
export const SIGNATURE_NAMESPACE = "skills-anywhere";

/** The hash algorithms an SSHSIG may name. */
export type SignatureHash = "sha512" | "sha256";

/** A parsed SSHSIG. */
export interface SshSignature {
  readonly publicKey: PublicKey;
  readonly namespace: string;
  readonly hash: SignatureHash;
  /** The SSH signature blob (`string algorithm, string bytes`). */
  readonly signature: Uint8Array;
}

/** Why signature bytes are refused: not an SSHSIG at all, or a key this tool cannot check. */
export type SignatureErrorKind = "not-signature" | Exclude<KeyErrorKind, "encrypted-key">;

/** A parsed signature, or why not. */
export type SignatureResult = { ok: true; signature: SshSignature } | Failure<SignatureErrorKind>;

const BEGIN = "-----BEGIN SSH SIGNATURE-----";
const END = "-----END SSH SIGNATURE-----";
const MAGIC = new TextEncoder().encode("SSHSIG");
const WRAP = 70;
const WEB_HASH: Readonly<Record<SignatureHash, string>> = { sha512: "SHA-512", sha256: "SHA-256" };

const notSignature = (why: string) => failure("not-signature", `not an SSH signature (${why})`);

/** The decoded blob between the armor lines, or why not. */
function dearmor(bytes: Uint8Array): Uint8Array | string {
  if (bytes.length > MAX_SIGNING_FILE_BYTES) return "too large";
  const text = tryDecodeUtf8(bytes);
  if (text === undefined) return "not text";
  const lines = text.replaceAll("\r\n", "\n").trim().split("\n");
  if (lines[0] !== BEGIN) return "no BEGIN SSH SIGNATURE line";
  if (lines.length < 3 || lines.at(-1) !== END) return "no END SSH SIGNATURE line";
  return fromBase64(lines.slice(1, -1).join("")) ?? "bad base64";
}

/**
 * Parses an armored SSHSIG file's bytes.
 *
 * @example
 * ```ts
 * import { parseSignature } from "./_sshsig.ts";
 * function example(bytes: Uint8Array) {
 *   const parsed = parseSignature(bytes);
 *   if (parsed.ok) console.log(parsed.signature.namespace);
 * }
 * ```
 */
export function parseSignature(bytes: Uint8Array): SignatureResult {
  const blob = dearmor(bytes);
  if (typeof blob === "string") return notSignature(blob);
  try {
    const reader = new WireReader(blob);
    if (reader.raw(MAGIC.length).some((b, i) => b !== MAGIC[i])) return notSignature("bad magic");
    if (reader.uint32() !== 1) return notSignature("unknown version");
    const key = parsePublicKeyBlob(reader.bytes());
    const namespace = reader.text();
    reader.bytes(); // reserved
    const hash = reader.text();
    const signature = reader.bytes();
    reader.end();
    if (!key.ok) {
      return key.kind === "unsupported-key"
        ? failure(key.kind, key.message)
        : notSignature(key.message);
    }
    if (hash !== "sha512" && hash !== "sha256") return notSignature("unknown hash algorithm");
    return { ok: true, signature: { publicKey: key.key, namespace, hash, signature } };
  } catch (error) {
    if (!(error instanceof WireError)) throw error;
    return notSignature(error.message);
  }
}

/**
 * The bytes an SSHSIG's key signs: the magic, the namespace, the empty
 * reserved field, the hash algorithm and the message's hash.
 *
 * @example
 * ```ts
 * import { signedData } from "./_sshsig.ts";
 * const data = await signedData(new TextEncoder().encode("m"), "skills-anywhere", "sha512");
 * ```
 */
export async function signedData(
  message: Uint8Array<ArrayBuffer>,
  namespace: string,
  hash: SignatureHash,
): Promise<Uint8Array<ArrayBuffer>> {
  const digest = new Uint8Array(await crypto.subtle.digest(WEB_HASH[hash], message));
  return concatBytes([
    MAGIC,
    wireString(namespace),
    wireString(""),
    wireString(hash),
    wireString(digest),
  ]);
}

/**
 * Signs `message` with `key` in `namespace` (SHA-512, as `ssh-keygen`
 * does): the armored SSHSIG text, ending in a newline.
 *
 * @example
 * ```ts
 * import { signMessage } from "./_sshsig.ts";
 * import type { PrivateKey } from "./_keys.ts";
 * async function example(key: PrivateKey) {
 *   const armored = await signMessage(new TextEncoder().encode("m"), key, "skills-anywhere");
 * }
 * ```
 */
export async function signMessage(
  message: Uint8Array<ArrayBuffer>,
  key: PrivateKey,
  namespace: string,
): Promise<string> {
  const signature = await key.sign(await signedData(message, namespace, "sha512"));
  const blob = concatBytes([
    MAGIC,
    wireUint32(1),
    wireString(key.publicKey.blob),
    wireString(namespace),
    wireString(""),
    wireString("sha512"),
    wireString(signature),
  ]);
  const base64 = toBase64(blob);
  const lines = [];
  for (let i = 0; i < base64.length; i += WRAP) lines.push(base64.slice(i, i + WRAP));
  return [BEGIN, ...lines, END, ""].join("\n");
}
