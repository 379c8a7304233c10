/**
 * SSH signatures (SSHSIG) made and verified without a subprocess: keys, the wire format,
 * allowed signers files.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { SIGNATURE_NAMESPACE } from "./mod.ts";
 * assert.equal(SIGNATURE_NAMESPACE, "skills-anywhere");
 * ```
 *
 * @module
 */
export { type AllowedSignersFile, readAllowedSignersFile } from "./_allowed_signers.ts";
export { parsePrivateKey, type PublicKey } from "./_keys.ts";
export { parseSignature, SIGNATURE_NAMESPACE, signMessage } from "./_sshsig.ts";
export {
  type SignatureVerified,
  type VerifyErrorKind,
  type VerifyResult,
  verifySignature,
} from "./_verify.ts";
export { toBase64 } from "./_wire.ts";
