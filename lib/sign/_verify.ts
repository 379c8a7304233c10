/**
 * Verifies an SSHSIG over a message against an allowed-signers file, as
 * `ssh-keygen -Y verify -I <identity>` does (`sshsig_check_allowed_keys`,
 * `check_allowed_keys_line`): the signature must be in the expected
 * namespace; the first line whose principals match the identity, whose key is
 * the signature's (the same key material, never through a `cert-authority`
 * line), which allows the namespace (`namespaces=`) and is valid at `now` in
 * whole seconds (`valid-after=`, `valid-before=`, both ends inclusive) is the
 * signer; then the signature must be valid over the message. Without an
 * identity, as Git does: `ssh-keygen -Y find-principals`
 * (`sshsig_find_principals`: the first line with the key valid now,
 * namespaces not looked at), then `-Y verify -I` with each principal it
 * prints, in order; the first that verifies is the principal. The file is
 * parsed by `./allowed_signers.ts`, which follows OpenSSH's parser.
 *
 * Pure: bytes and text in, a result out; the lock's signer enforcement and
 * receipts call it the same way the CLI does. No `node:` imports.
 *
 * @example
 * ```ts
 * import { verifySignature } from "./_verify.ts";
 * async function example(
 *   message: Uint8Array<ArrayBuffer>,
 *   signature: Uint8Array,
 *   allowed: string,
 * ) {
 *   const result = await verifySignature(message, signature, allowed, {
 *     namespace: "skills-anywhere",
 *     now: new Date(),
 *   });
 *   if (result.ok) console.log(result.principal, result.fingerprint);
 *   else console.log(result.kind, result.message);
 * }
 * ```
 * @module
 */
import { type Failure, failure } from "../errors.ts";
import {
  type AllowedSigner,
  matchPatternList,
  parseAllowedSigners,
  principalsOf,
} from "./_allowed_signers.ts";
import { type KeyType, type PublicKey, verifyKeySignature } from "./_keys.ts";
import { parseSignature, type SignatureErrorKind, signedData } from "./_sshsig.ts";

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

/** `sshkey_equal`: the same key material (a blob may spell its type or numbers differently). */
function sameKey(a: PublicKey, b: PublicKey): boolean {
  if (a.type !== b.type) return false;
  const fields = (key: PublicKey) => [key.jwk.crv, key.jwk.x, key.jwk.y, key.jwk.n, key.jwk.e];
  return fields(a).join() === fields(b).join();
}

/** Why a line listing the key does not fit at `now` (whole seconds), or undefined when it does. */
function timeRefusal(signer: AllowedSigner, now: number): Failure<VerifyErrorKind> | undefined {
  const at = `allowed signers line ${signer.line}`;
  if (signer.validAfter !== undefined && now < signer.validAfter) {
    return failure("not-yet-valid", `${at} is not valid before ${isoTime(signer.validAfter)}`);
  }
  if (signer.validBefore !== undefined && now > signer.validBefore) {
    return failure("expired", `${at} expired at ${isoTime(signer.validBefore)}`);
  }
  return undefined;
}

const isoTime = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

/** The verification time in whole seconds (as milliseconds), as OpenSSH's `verify_time`. */
const verifyTime = (options: VerifyOptions) => Math.floor(options.now.getTime() / 1000) * 1000;

/** Whether a line's key is the signature's own (never a `cert-authority` line: no certificates). */
const listsKey = (signer: AllowedSigner, key: PublicKey) =>
  !signer.certAuthority && signer.key !== undefined && sameKey(signer.key, key);

/**
 * `sshsig_check_allowed_keys` (`ssh-keygen -Y verify -I identity`): the first
 * line whose principals match `identity` and whose key is the signature's,
 * allowing the namespace and valid now; else why the first such line does
 * not fit, or `unknown-signer`.
 */
function checkAllowed(
  signers: readonly AllowedSigner[],
  key: PublicKey,
  fingerprint: string,
  identity: string,
  options: VerifyOptions,
): AllowedSigner | Failure<VerifyErrorKind> {
  let refusal: Failure<VerifyErrorKind> | undefined;
  for (const signer of signers) {
    if (!matchPatternList(identity, signer.principals) || !listsKey(signer, key)) continue;
    if (
      signer.namespaces !== undefined && !matchPatternList(options.namespace, signer.namespaces)
    ) {
      refusal ??= failure(
        "namespace-not-allowed",
        `allowed signers line ${signer.line} does not allow namespace ${
          JSON.stringify(options.namespace)
        }`,
      );
      continue;
    }
    const why = timeRefusal(signer, verifyTime(options));
    if (why === undefined) return signer;
    refusal ??= why;
  }
  return refusal ??
    failure(
      "unknown-signer",
      `no allowed signer for ${JSON.stringify(identity)} has key ${fingerprint}`,
    );
}

/**
 * Without an identity, as Git does: `ssh-keygen -Y find-principals` (the
 * first line with the key that is valid now, namespaces not looked at), then
 * `-Y verify -I` with each principal it prints, in order; the first that
 * verifies is the signer.
 */
function findSigner(
  signers: readonly AllowedSigner[],
  key: PublicKey,
  fingerprint: string,
  options: VerifyOptions,
): { principal: string } | Failure<VerifyErrorKind> {
  let refusal: Failure<VerifyErrorKind> | undefined;
  const found = signers.find((signer) => {
    if (!listsKey(signer, key)) return false;
    const why = timeRefusal(signer, verifyTime(options));
    refusal ??= why;
    return why === undefined;
  });
  if (found === undefined) {
    return refusal ?? failure("unknown-signer", `no allowed signer has key ${fingerprint}`);
  }
  let first: Failure<VerifyErrorKind> | undefined;
  for (const principal of principalsOf(found.principals)) {
    const checked = checkAllowed(signers, key, fingerprint, principal, options);
    if ("line" in checked) return { principal };
    first ??= checked;
  }
  return first ?? failure("unknown-signer", `no allowed signer has key ${fingerprint}`);
}

/**
 * Verifies `signature` (an armored SSHSIG file's bytes) over `message`
 * against `allowedSigners` (the file's text).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { verifySignature } from "./_verify.ts";
 * const result = await verifySignature(new Uint8Array(), new Uint8Array(), "", {
 *   namespace: "skills-anywhere",
 *   now: new Date(),
 * });
 * assert.equal(result.ok ? result.principal : result.kind, "not-signature");
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
  const signer = options.identity === undefined
    ? findSigner(allowed.signers, sig.publicKey, fingerprint, options)
    : checkAllowed(allowed.signers, sig.publicKey, fingerprint, options.identity, options);
  if ("ok" in signer) return signer;
  const data = await signedData(message, sig.namespace, sig.hash);
  if (!(await verifyKeySignature(sig.publicKey, data, sig.signature))) {
    return failure(
      "bad-signature",
      "the signature does not match these bytes (changed since signing, or signed over other content)",
    );
  }
  const principal = options.identity ?? ("principal" in signer ? signer.principal : "");
  return { ok: true, principal, fingerprint, keyType: sig.publicKey.type };
}
