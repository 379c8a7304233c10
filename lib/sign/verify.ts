/**
 * Verifies an SSHSIG over a message against an allowed-signers file, as
 * `ssh-keygen -Y verify` does (and, without an identity, as Git does:
 * `ssh-keygen -Y find-principals`, then the first principal found). The
 * signature must be in the expected namespace; a signer line must list the
 * signature's key, match the identity (when one is given), allow the
 * namespace (`namespaces=`) and be valid at `now` (`valid-after=`,
 * `valid-before=`); then the signature must be valid over the message.
 *
 * Pure: bytes and text in, a result out; the lock's signer enforcement and
 * receipts call it the same way the CLI does. No `node:` imports.
 *
 * @example
 * ```ts
 * import { verifySignature } from "./verify.ts";
 * declare const message: Uint8Array<ArrayBuffer>, signature: Uint8Array, allowed: string;
 * const result = await verifySignature(message, signature, allowed, {
 *   namespace: "skills-anywhere",
 *   now: new Date(),
 * });
 * if (result.ok) console.log(result.principal, result.fingerprint);
 * else console.log(result.kind, result.message);
 * ```
 * @module
 */
import { type Failure, failure } from "../errors.ts";
import { type AllowedSigner, matchPatternList, parseAllowedSigners } from "./allowed_signers.ts";
import { type KeyType, type PublicKey, verifyKeySignature } from "./keys.ts";
import { parseSignature, type SignatureErrorKind, signedData } from "./sshsig.ts";

/**
 * Why a signature is refused. The first three are bad input (the files are
 * not what they claim to be); the others are an invalid signature.
 */
export type VerifyErrorKind =
  | SignatureErrorKind
  | "bad-allowed-signers"
  | "wrong-namespace"
  | "unknown-signer"
  | "namespace-not-allowed"
  | "not-yet-valid"
  | "expired"
  | "bad-signature";

/** What makes a signature acceptable. */
export interface VerifyOptions {
  /** The namespace the signature must carry (and its signer line must allow). */
  namespace: string;
  /** The principal the signer must be; without it, the first principal listing the key. */
  identity?: string;
  /** The time `valid-after=`/`valid-before=` are checked against. */
  now: Date;
}

/** A valid signature: who signed, with which key. */
export interface SignatureVerified {
  ok: true;
  /** The identity asked for, or the principals field of the first signer line that fits. */
  principal: string;
  /** The key's `SHA256:` fingerprint, as `ssh-keygen -l` prints it. */
  fingerprint: string;
  keyType: KeyType;
}

/** The verdict of {@linkcode verifySignature}. */
export type VerifyResult = SignatureVerified | Failure<VerifyErrorKind>;

const sameBytes = (a: Uint8Array, b: Uint8Array) =>
  a.length === b.length && a.every((byte, i) => byte === b[i]);

/** Why a line listing the key does not fit, or undefined when it does. */
function lineRefusal(
  signer: AllowedSigner,
  options: VerifyOptions,
): Failure<VerifyErrorKind> | undefined {
  const at = `allowed signers line ${signer.line}`;
  if (signer.namespaces !== undefined && !matchPatternList(options.namespace, signer.namespaces)) {
    return failure(
      "namespace-not-allowed",
      `${at} does not allow namespace ${JSON.stringify(options.namespace)}`,
    );
  }
  const now = options.now.getTime();
  if (signer.validAfter !== undefined && now < signer.validAfter) {
    return failure("not-yet-valid", `${at} is not valid before ${isoTime(signer.validAfter)}`);
  }
  if (signer.validBefore !== undefined && now > signer.validBefore) {
    return failure("expired", `${at} expired at ${isoTime(signer.validBefore)}`);
  }
  return undefined;
}

const isoTime = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

/** The first signer line that fits the key, identity, namespace and time, or why none does. */
function findSigner(
  signers: readonly AllowedSigner[],
  key: PublicKey,
  fingerprint: string,
  options: VerifyOptions,
): AllowedSigner | Failure<VerifyErrorKind> {
  let refusal: Failure<VerifyErrorKind> | undefined;
  for (const signer of signers) {
    if (signer.certAuthority || signer.key === undefined || !sameBytes(signer.key.blob, key.blob)) {
      continue;
    }
    if (options.identity !== undefined && !matchPatternList(options.identity, signer.principals)) {
      continue;
    }
    const why = lineRefusal(signer, options);
    if (why === undefined) return signer;
    refusal ??= why;
  }
  const whom = options.identity === undefined ? "" : ` for ${JSON.stringify(options.identity)}`;
  return refusal ??
    failure("unknown-signer", `no allowed signer${whom} has key ${fingerprint}`);
}

/**
 * Verifies `signature` (an armored SSHSIG file's bytes) over `message`
 * against `allowedSigners` (the file's text).
 *
 * @example
 * ```ts
 * import { verifySignature } from "./verify.ts";
 * const result = await verifySignature(new Uint8Array(), new Uint8Array(), "", {
 *   namespace: "skills-anywhere",
 *   now: new Date(),
 * });
 * console.log(result.ok ? result.principal : result.kind); // "not-signature"
 * ```
 */
export async function verifySignature(
  message: Uint8Array<ArrayBuffer>,
  signature: Uint8Array,
  allowedSigners: string,
  options: VerifyOptions,
): Promise<VerifyResult> {
  const parsed = parseSignature(signature);
  if (!parsed.ok) return parsed;
  const allowed = parseAllowedSigners(allowedSigners);
  if (!allowed.ok) return allowed;
  const sig = parsed.signature;
  if (sig.namespace !== options.namespace) {
    return failure(
      "wrong-namespace",
      `the signature is for namespace ${JSON.stringify(sig.namespace)}, not ${
        JSON.stringify(options.namespace)
      }`,
    );
  }
  const fingerprint = await sig.publicKey.fingerprint();
  const signer = findSigner(allowed.signers, sig.publicKey, fingerprint, options);
  if (!("line" in signer)) return signer;
  const data = await signedData(message, sig.namespace, sig.hash);
  if (!(await verifyKeySignature(sig.publicKey, data, sig.signature))) {
    return failure(
      "bad-signature",
      "the signature does not match these bytes (changed since signing, or signed over other content)",
    );
  }
  const principal = options.identity ?? signer.principals;
  return { ok: true, principal, fingerprint, keyType: sig.publicKey.type };
}
