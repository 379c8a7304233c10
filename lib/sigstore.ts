/**
 * Verifies a Sigstore bundle over a skill directory, offline, as cosign,
 * ToolHive and Chainguard produce them: a DSSE envelope whose in-toto
 * statement names the directory's bundle digest as a subject
 * (`{"digest": {"sha256": "<bundle digest>"}}`, any subject name), signed by
 * a short-lived certificate that chains to a certificate authority of a
 * trusted root the caller supplies (the `TrustedRoot` JSON of Sigstore's
 * protobuf-specs, `trusted_root.json`; nothing is fetched, no TUF).
 *
 * Evidence required is what the root can check: at least one verified
 * timestamp (an RFC 3161 timestamp of a timestamp authority of the root, or a
 * transparency-log entry's integrated time), one transparency-log entry when
 * the root names a log, one SCT when it names a CT log. Then the certificate's
 * identity (its SAN) and OIDC issuer (Fulcio extension 1.3.6.1.4.1.57264.1.8,
 * or .1.1) must equal the policy's, exactly, as cosign's
 * `--certificate-identity` and `--certificate-oidc-issuer` do.
 *
 * Bundle media types v0.1, v0.2 and v0.3 are read (by `@sigstore/bundle`);
 * the cryptography is `@sigstore/verify`'s. Those packages are only loaded by
 * a caller that imports this module (the CLI imports it on use).
 *
 * @example
 * ```ts
 * import { verifySigstoreBundle } from "./sigstore.ts";
 * function example(bundle: Uint8Array, trustedRoot: Uint8Array, digest: string) {
 *   const result = verifySigstoreBundle(bundle, trustedRoot, digest, {
 *     certificateIdentity: "ana@example.com",
 *     certificateIssuer: "https://accounts.google.com",
 *   });
 *   console.log(result.ok ? result.identity : `${result.kind}: ${result.message}`);
 * }
 * ```
 * @module
 */
import { type Bundle, bundleFromJSON } from "@sigstore/bundle";
import { TrustedRoot } from "@sigstore/protobuf-specs";
import {
  type SignedEntity,
  type Signer,
  toSignedEntity,
  toTrustMaterial,
  type TrustMaterial,
  VerificationError,
  Verifier,
} from "@sigstore/verify";
import nodeCrypto, { type KeyObject } from "node:crypto";
import { type Failure, failure } from "./errors.ts";
import { formatBytes, MAX_SIGNING_FILE_BYTES } from "./limits.ts";
import { tryParseJsonBytes } from "./util.ts";

/** The DSSE payload type of an in-toto statement. */
const IN_TOTO_PAYLOAD_TYPE = "application/vnd.in-toto+json";

/** The in-toto statement types read (v0.1 and v1). */
const STATEMENT_TYPES: ReadonlySet<string> = new Set([
  "https://in-toto.io/Statement/v0.1",
  "https://in-toto.io/Statement/v1",
]);

/**
 * Why a Sigstore bundle is refused. `not-bundle`, `bad-trusted-root` and
 * `not-in-toto` are bad input (the files are not what they claim to be); the
 * others are an invalid signature.
 */
export type SigstoreErrorKind =
  | "not-bundle"
  | "bad-trusted-root"
  | "not-in-toto"
  | "untrusted"
  | "bad-signature"
  | "subject-mismatch"
  | "identity-mismatch"
  | "issuer-mismatch";

/** Who must have signed: compared exactly with the certificate. */
export interface SigstorePolicy {
  /** The certificate's subject alternative name (an email address or a URI). */
  certificateIdentity: string;
  /** The OIDC issuer the certificate records (Fulcio's issuer extension). */
  certificateIssuer: string;
}

/** A valid Sigstore bundle over the directory. */
export interface SigstoreVerified {
  ok: true;
  /** The certificate's subject alternative name. */
  identity: string;
  /** The certificate's OIDC issuer. */
  issuer: string;
  /** The name of the in-toto subject whose digest is the bundle digest. */
  subject: string;
  /** The in-toto predicate type of the statement. */
  predicateType: string;
  /** The bundle's media type (its version). */
  mediaType: string;
}

/** The verdict of {@linkcode verifySigstoreBundle}. */
export type SigstoreResult = SigstoreVerified | Failure<SigstoreErrorKind>;

/** Parses bounded JSON bytes, or undefined. */
function parseJson(bytes: Uint8Array): unknown {
  if (bytes.length > MAX_SIGNING_FILE_BYTES) return undefined;
  const read = tryParseJsonBytes(bytes);
  return read.ok ? read.value : undefined;
}

const tooLarge = (bytes: Uint8Array) =>
  bytes.length > MAX_SIGNING_FILE_BYTES
    ? `: larger than ${formatBytes(MAX_SIGNING_FILE_BYTES)}`
    : "";

/** The bundle and the entity the verifier checks, or why the bytes are not a bundle. */
function readBundle(
  bytes: Uint8Array,
): { bundle: Bundle; entity: SignedEntity } | Failure<SigstoreErrorKind> {
  const json = parseJson(bytes);
  const refusal = (why: string) => failure("not-bundle", `not a Sigstore bundle${why}`);
  if (json === undefined) return refusal(tooLarge(bytes) || ": not JSON");
  try {
    const bundle = bundleFromJSON(json);
    if (bundle.content.$case !== "dsseEnvelope") {
      return failure(
        "not-in-toto",
        "the Sigstore bundle signs a message digest, not a DSSE envelope with an in-toto statement",
      );
    }
    return { bundle, entity: toSignedEntity(bundle) };
  } catch (error) {
    return refusal(`: ${oneLine(error)}`);
  }
}

/** The trust material of a `trusted_root.json`, or why it is not one. */
function readTrustedRoot(bytes: Uint8Array): TrustMaterial | Failure<SigstoreErrorKind> {
  const json = parseJson(bytes);
  const refusal = (why: string) => failure("bad-trusted-root", `not a Sigstore trusted root${why}`);
  if (json === null || typeof json !== "object" || Array.isArray(json)) {
    return refusal(tooLarge(bytes) || ": not a JSON object");
  }
  try {
    const root = TrustedRoot.fromJSON(json);
    if (root.certificateAuthorities.length === 0) {
      return refusal(": it names no certificate authority");
    }
    return toTrustMaterial(root);
  } catch (error) {
    return refusal(`: ${oneLine(error)}`);
  }
}

/** An error's message on one line. */
function oneLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Runs `fn` with `node:crypto`'s `verify` choosing SHA-256 for an ECDSA or RSA key when no digest
 * is named, as Node does (Deno's `node:crypto` has no default digest, and `@sigstore/verify`
 * names none for DSSE signatures, signed entry timestamps and checkpoints). `fn` is synchronous,
 * so nothing else runs while the replacement is in place.
 */
function withNodeDefaultDigest<T>(fn: () => T): T {
  const original = nodeCrypto.verify;
  const patched = (...args: Parameters<typeof original>) => {
    const [algorithm, data, key, signature] = args;
    const type = (key as KeyObject).asymmetricKeyType;
    const digest = algorithm ?? (type === "ec" || type === "rsa" ? "sha256" : algorithm);
    return original(digest, data, key, signature);
  };
  nodeCrypto.verify = patched as typeof original;
  try {
    return fn();
  } finally {
    nodeCrypto.verify = original;
  }
}

/** Runs the cryptographic checks (chain, evidence, signature); returns the signer or why not. */
function verifyEntity(
  entity: SignedEntity,
  trust: TrustMaterial,
): Signer | Failure<SigstoreErrorKind> {
  const verifier = new Verifier(trust, {
    tlogThreshold: trust.tlogs.length > 0 ? 1 : 0,
    ctlogThreshold: trust.ctlogs.length > 0 ? 1 : 0,
    timestampThreshold: 1,
  });
  try {
    return withNodeDefaultDigest(() => verifier.verify(entity));
  } catch (error) {
    if (!(error instanceof VerificationError)) {
      return failure("untrusted", `the Sigstore bundle cannot be verified: ${oneLine(error)}`);
    }
    if (error.code === "SIGNATURE_ERROR") {
      return failure(
        "bad-signature",
        "the signature does not match the signed statement (changed since signing)",
      );
    }
    return failure("untrusted", `not trusted by this root: ${oneLine(error)}`);
  }
}

/** The in-toto subject naming `digest`, or why the statement does not. */
function findSubject(
  bundle: Bundle,
  digest: string,
): { subject: string; predicateType: string } | Failure<SigstoreErrorKind> {
  if (bundle.content.$case !== "dsseEnvelope") throw new Error("unreachable: checked on reading");
  const envelope = bundle.content.dsseEnvelope;
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE) {
    return failure(
      "not-in-toto",
      `the DSSE payload type is ${
        JSON.stringify(envelope.payloadType)
      }, not ${IN_TOTO_PAYLOAD_TYPE}`,
    );
  }
  const statement = parseJson(envelope.payload) as Record<string, unknown> | undefined;
  if (
    statement === null || typeof statement !== "object" ||
    !STATEMENT_TYPES.has(statement._type as string) || !Array.isArray(statement.subject)
  ) {
    return failure("not-in-toto", "the signed payload is not an in-toto statement");
  }
  const predicateType = typeof statement.predicateType === "string" ? statement.predicateType : "";
  for (const subject of statement.subject as unknown[]) {
    const row = subject as { name?: unknown; digest?: { sha256?: unknown } } | null;
    if (typeof row?.digest?.sha256 === "string" && row.digest.sha256.toLowerCase() === digest) {
      return { subject: typeof row.name === "string" ? row.name : "", predicateType };
    }
  }
  return failure(
    "subject-mismatch",
    `the signed statement names no subject with this directory's bundle digest sha256:${digest}`,
  );
}

/** Why the signer's identity or issuer differs from the policy, or undefined. */
function policyRefusal(
  identity: string,
  issuer: string,
  policy: SigstorePolicy,
): Failure<SigstoreErrorKind> | undefined {
  if (identity !== policy.certificateIdentity) {
    return failure(
      "identity-mismatch",
      `signed by ${JSON.stringify(identity)}, not ${JSON.stringify(policy.certificateIdentity)}`,
    );
  }
  if (issuer !== policy.certificateIssuer) {
    return failure(
      "issuer-mismatch",
      `the signer's OIDC issuer is ${JSON.stringify(issuer)}, not ${
        JSON.stringify(policy.certificateIssuer)
      }`,
    );
  }
  return undefined;
}

/**
 * Verifies a Sigstore bundle (the file's bytes) over the directory whose
 * bundle digest is `digest` (lowercase hex SHA-256), against the trusted
 * root (the file's bytes) and the policy.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { verifySigstoreBundle } from "./sigstore.ts";
 * const bytes = new TextEncoder().encode("{}");
 * const result = verifySigstoreBundle(bytes, bytes, "0".repeat(64), {
 *   certificateIdentity: "ana@example.com",
 *   certificateIssuer: "https://accounts.google.com",
 * });
 * assert.equal(result.ok ? result.identity : result.kind, "not-bundle");
 * ```
 */
export function verifySigstoreBundle(
  bundleBytes: Uint8Array,
  trustedRootBytes: Uint8Array,
  digest: string,
  policy: SigstorePolicy,
): SigstoreResult {
  const read = readBundle(bundleBytes);
  if (!("bundle" in read)) return read;
  const trust = readTrustedRoot(trustedRootBytes);
  if ("ok" in trust) return trust;
  const signer = verifyEntity(read.entity, trust);
  if ("ok" in signer) return signer;
  const found = findSubject(read.bundle, digest);
  if ("ok" in found) return found;
  const identity = signer.identity?.subjectAlternativeName ?? "";
  const issuer = signer.identity?.extensions?.issuer ?? "";
  const refusal = policyRefusal(identity, issuer, policy);
  if (refusal !== undefined) return refusal;
  return { ok: true, identity, issuer, ...found, mediaType: read.bundle.mediaType };
}
