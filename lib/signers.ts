/**
 * The lock's trusted signers: which signature belongs to a locked skill, the
 * project's allowed-signers file read safely, and a locked skill's signature
 * verified over its bundle.
 *
 * A skill's signature is the file `<skill directory>.<namespace>.sig` beside
 * its directory (where signing writes it by default), whatever the skill's
 * origin: in the project, in a user's agent folder, or in a Git source's
 * checkout (where the signature must be committed beside the directory). A
 * flat-file skill has no directory to sign; it cannot be bundled, so a lock
 * never serves it anyway.
 *
 * The allowed-signers file named by the lock (a relative path, validated by
 * `./format.ts`) is read only when its real path is inside the project's real
 * root, the file itself is not a link, and it is at most
 * {@linkcode MAX_SIGNING_FILE_BYTES}: a hostile lock cannot make a reader
 * open anything else.
 *
 * The signature is checked over the canonical bundle message of the bytes
 * given (the current rows for a report, the locked rows for a load, whose
 * bytes the loader then checks against the locked digest). When it does not
 * hold over the current rows but does over the locked ones, the verdict is
 * `changed-since-signed`, naming the files that differ.
 *
 * @example
 * ```ts
 * import { readAllowedSigners, verifySkillSignature } from "./signers.ts";
 * import type { LockSkill } from "./lock/mod.ts";
 * async function example(entry: LockSkill) {
 *   const signers = await readAllowedSigners("/repo", { allowed_signers: "allowed_signers", require: true });
 *   if (signers.ok) {
 *     const verdict = await verifySkillSignature("/repo/skills/pdf", entry.files, signers.text);
 *     console.log(verdict.ok ? verdict.principal : verdict.kind);
 *   }
 * }
 * ```
 * @module
 */
import { basename, join } from "node:path";
import { BundleError, type BundleFile, canonicalString, compareManifests } from "./bundle/mod.ts";
import { readBundle } from "./bundle/mod.ts";
import { type Failure, failure } from "./errors.ts";
import { readBounded, ReadError } from "./fs/mod.ts";
import { MAX_SIGNING_FILE_BYTES } from "./limits.ts";
import { type AllowedSignersFile, readAllowedSignersFile } from "./sign/mod.ts";
import { SIGNATURE_NAMESPACE } from "./sign/mod.ts";
import { type SignatureVerified, type VerifyErrorKind, verifySignature } from "./sign/mod.ts";
import type { SignatureDifference, SignedSkill } from "./lock/mod.ts";
import type { LockSigners, LockSkill, ProjectLock } from "./lock/mod.ts";

/** Why a locked skill's signature is not accepted. */
export type SkillSignatureKind =
  | VerifyErrorKind
  /** No signature file beside the directory. */
  | "unsigned"
  /** The signature holds over the locked files, not over the current ones. */
  | "changed-since-signed";

/** A locked skill's signature verdict. */
export type SkillSignature = SignatureVerified | Failure<SkillSignatureKind>;

/**
 * The signature file of the skill directory `directory`: beside it, never inside it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { signatureFileOf } from "./signers.ts";
 * assert.equal(signatureFileOf("/repo/skills/pdf"), "/repo/skills/pdf.skills-anywhere.sig");
 * ```
 */
export function signatureFileOf(directory: string): string {
  return `${directory}.${SIGNATURE_NAMESPACE}.sig`;
}

/**
 * Reads the allowed-signers file the lock's `signers` names, below the
 * project `root` (the one reader, `readAllowedSignersFile` of
 * `../sign/allowed_signers.ts`, confined to it): inside it
 * (links resolved), not a link, bounded, UTF-8 and in the allowed-signers
 * format; else one `bad-allowed-signers` line.
 *
 * @example
 * ```ts
 * import { readAllowedSigners } from "./signers.ts";
 * const read = await readAllowedSigners("/repo", { allowed_signers: ".github/allowed_signers", require: true });
 * console.log(read.ok ? read.path : read.message);
 * ```
 */
export function readAllowedSigners(
  root: string,
  signers: LockSigners,
): Promise<AllowedSignersFile | Failure<"bad-allowed-signers">> {
  const shown = signers.allowed_signers;
  return readAllowedSignersFile(join(root, ...shown.split("/")), { within: root, shown });
}

/** The signature file's bytes, or why there is none to check. */
async function readSignature(file: string): Promise<Uint8Array | Failure<SkillSignatureKind>> {
  try {
    return (await readBounded(file, { maxBytes: MAX_SIGNING_FILE_BYTES })).bytes;
  } catch (error) {
    if (!(error instanceof ReadError)) throw error;
    if (error.kind === "missing") {
      return failure("unsigned", `no signature ${JSON.stringify(basename(file))} beside it`);
    }
    return failure("not-signature", `its signature file cannot be read (${error.kind})`);
  }
}

const encode = (rows: readonly BundleFile[]) => new TextEncoder().encode(canonicalString(rows));

/** The files that differ between the signed (locked) rows and the current ones. */
function changedFiles(locked: readonly BundleFile[], current: readonly BundleFile[]): string {
  const manifest = (files: readonly BundleFile[]) => ({
    schema: "skills-anywhere-bundle-1" as const,
    sha256: "",
    total_bytes: 0,
    files: [...files],
  });
  const c = compareManifests(manifest(locked), manifest(current));
  return [
    ...c.changed.map((p) => `changed ${JSON.stringify(p)}`),
    ...c.added.map((p) => `added ${JSON.stringify(p)}`),
    ...c.removed.map((p) => `removed ${JSON.stringify(p)}`),
  ].join(", ");
}

/** Options of {@linkcode verifySkillSignature}. */
export interface SkillSignatureOptions {
  /** The rows that were reviewed (a lock's): a signature over them names the changed files. */
  locked?: readonly BundleFile[];
  /**
   * The time signer lines' validity is checked at.
   *
   * @default the present
   */
  now?: Date;
}

/**
 * Verifies the signature beside `directory` over the bundle rows `current`
 * against the allowed-signers text. When it fails over `current` but holds
 * over the `locked` rows, the verdict is `changed-since-signed`, naming the
 * files.
 *
 * @example
 * ```ts
 * import { verifySkillSignature } from "./signers.ts";
 * import type { LockSkill } from "./lock/mod.ts";
 * async function example(entry: LockSkill, allowed: string) {
 *   const verdict = await verifySkillSignature("/repo/skills/pdf", entry.files, allowed);
 *   console.log(verdict.ok ? verdict.fingerprint : verdict.message);
 * }
 * ```
 */
export async function verifySkillSignature(
  directory: string,
  current: readonly BundleFile[],
  allowedSigners: string,
  options: SkillSignatureOptions = {},
): Promise<SkillSignature> {
  const signature = await readSignature(signatureFileOf(directory));
  if (!(signature instanceof Uint8Array)) return signature;
  const how = { namespace: SIGNATURE_NAMESPACE, now: options.now ?? new Date() };
  const result = await verifySignature(encode(current), signature, allowedSigners, how);
  const locked = options.locked ?? [];
  if (result.ok || result.kind !== "bad-signature" || locked.length === 0) return result;
  const signedLocked = await verifySignature(encode(locked), signature, allowedSigners, how);
  if (!signedLocked.ok) return result;
  const files = changedFiles(locked, current);
  return failure(
    "changed-since-signed",
    `the directory changed since it was signed${files === "" ? "" : ` (${files})`}`,
  );
}

/** The signature verdicts of a lock's skills: the differences and the skills validly signed. */
export interface LockSignatures {
  ok: true;
  signatures: SignatureDifference[];
  signed: SignedSkill[];
}

/** One locked skill's signature verdict, now. */
function skillVerdict(
  entry: LockSkill,
  current: LockSkill,
  directory: string,
  allowed: string,
  at: Date,
): Promise<SkillSignature> | SkillSignature {
  if (current.bundle_sha256 === null) {
    return failure("unsigned", "it cannot be bundled now, so no signature can cover it");
  }
  return verifySkillSignature(directory, current.files, allowed, { locked: entry.files, now: at });
}

/**
 * Checks the signature of every skill of the `locked` lock that is still
 * published (`now`, with its directory in `directories`) against the
 * allowed-signers file the lock names (read below `root`). A lock without
 * `signers` gives no verdicts.
 *
 * @example
 * ```ts
 * import { checkLockSignatures } from "./signers.ts";
 * import type { ProjectLock } from "./lock/mod.ts";
 * async function example(locked: ProjectLock, now: ProjectLock) {
 *   const checked = await checkLockSignatures(locked, now, new Map([["pdf", "/repo/skills/pdf"]]), "/repo");
 *   if (checked.ok) console.log(checked.signatures.map((s) => `${s.name}: ${s.kind}`));
 * }
 * ```
 */
export async function checkLockSignatures(
  locked: ProjectLock,
  now: ProjectLock,
  directories: ReadonlyMap<string, string>,
  root: string,
  at: Date = new Date(),
): Promise<LockSignatures | Failure<"bad-allowed-signers">> {
  const result: LockSignatures = { ok: true, signatures: [], signed: [] };
  if (locked.signers === undefined) return result;
  const allowed = await readAllowedSigners(root, locked.signers);
  if (!allowed.ok) return allowed;
  const current = new Map(now.skills.map((s) => [s.name, s]));
  for (const entry of locked.skills) {
    const found = current.get(entry.name);
    const directory = directories.get(entry.name);
    if (found === undefined || directory === undefined) continue;
    const verdict = await skillVerdict(entry, found, directory, allowed.text, at);
    if (verdict.ok) {
      const { principal, fingerprint } = verdict;
      result.signed.push({ name: entry.name, principal, fingerprint });
    } else {
      result.signatures.push({ name: entry.name, kind: verdict.kind, message: verdict.message });
    }
  }
  return result;
}

/**
 * Verifies the signature beside the skill directory `directory` over its
 * bundle as read now: `unsigned` when no signature file is beside it,
 * `unbundlable` when the directory cannot be bundled.
 *
 * @example
 * ```ts
 * import { verifyDirectorySignature } from "./signers.ts";
 * async function example(allowed: string) {
 *   const verdict = await verifyDirectorySignature("/repo/skills/pdf", allowed);
 *   console.log(verdict.ok ? verdict.principal : verdict.kind);
 * }
 * ```
 */
export async function verifyDirectorySignature(
  directory: string,
  allowedSigners: string,
): Promise<SkillSignature | Failure<"unbundlable">> {
  const signature = await readSignature(signatureFileOf(directory));
  if (!(signature instanceof Uint8Array)) return signature;
  let rows: readonly BundleFile[];
  try {
    rows = (await readBundle(directory)).manifest.files;
  } catch (error) {
    if (!(error instanceof BundleError)) throw error;
    return failure("unbundlable", `the directory cannot be bundled: ${error.message}`);
  }
  return await verifySkillSignature(directory, rows, allowedSigners);
}
