/**
 * The `sign` and `verify-signature` commands: sign a skill directory's
 * bundle (the canonical message whose SHA-256 is the bundle digest) with an
 * SSH key, as `ssh-keygen -Y sign -n skills-anywhere` would, and verify such
 * a signature against an allowed-signers file, or a Sigstore bundle (cosign's
 * DSSE in-toto attestation over the bundle digest) against a supplied trusted
 * root, identity and OIDC issuer. An encrypted private key is
 * handed to `ssh-keygen` (which asks for its passphrase); no private key is
 * ever written anywhere.
 *
 * @example
 * ```ts
 * import { runVerifySignature } from "./sign.ts";
 * import { processIo } from "./io.ts";
 * const exitCode = await runVerifySignature(["skills/pdf"], {
 *   signature: "skills/pdf.skills-anywhere.sig",
 *   "allowed-signers": ".github/allowed_signers",
 * }, "/repo", processIo());
 * ```
 * @module
 */
import { spawn } from "node:child_process";
import { realpath } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import { BundleError, canonicalString } from "../lib/bundle/mod.ts";
import { readBundle } from "../lib/bundle/mod.ts";
import { KindError } from "../lib/errors.ts";
import { isWithin, readBounded, ReadError, writeWhole } from "../lib/fs/mod.ts";
import { formatBytes, MAX_SIGNING_FILE_BYTES } from "../lib/limits.ts";
import { parsePrivateKey, type PublicKey } from "../lib/sign/mod.ts";
import { parseSignature, SIGNATURE_NAMESPACE, signMessage } from "../lib/sign/mod.ts";
import { type VerifyErrorKind, type VerifyResult, verifySignature } from "../lib/sign/mod.ts";
import { toBase64 } from "../lib/sign/mod.ts";
import { readAllowedSignersFile } from "../lib/sign/mod.ts";
import { concatBytes, tryDecodeUtf8 } from "../lib/util.ts";
import { OPTIONS, type OptionValues, UsageError } from "./args.ts";
import { escapeTerminal, jsonText, quote } from "./escape.ts";
import { type Io, PREFIX } from "./io.ts";
import { outStyles } from "./style.ts";
import { EXIT } from "./program.ts";

/** The schema literal of `verify-signature --json`. */
const VERIFICATION_SCHEMA = "skills-anywhere-signature-verification-1";

/** Refusals that mean the input is not what it claims to be (exit 2), not an invalid signature. */
const BAD_INPUT: ReadonlySet<VerifyErrorKind> = new Set([
  "not-signature",
  "unsupported-key",
  "bad-allowed-signers",
]);

/** Sigstore refusals that mean the input is not what it claims to be (exit 2). */
const SIGSTORE_BAD_INPUT: ReadonlySet<string> = new Set([
  "not-bundle",
  "bad-trusted-root",
  "not-in-toto",
]);

/** A refusal of input (exit 2), one line. */
class InputError extends KindError<string> {}

/** The message the signature covers: the canonical bundle string of the directory, as UTF-8. */
async function bundleMessage(directory: string) {
  try {
    const { manifest } = await readBundle(directory);
    return { manifest, message: new TextEncoder().encode(canonicalString(manifest.files)) };
  } catch (error) {
    if (!(error instanceof BundleError)) throw error;
    throw new InputError(error.kind, `${quote(directory)}: ${error.message}`);
  }
}

/** A small file a user names (a key, a signature, a Sigstore file): bounded, links followed. */
async function readSmall(path: string, what: string): Promise<Uint8Array> {
  try {
    return (await readBounded(path, { maxBytes: MAX_SIGNING_FILE_BYTES, followSymlinks: true }))
      .bytes;
  } catch (error) {
    if (!(error instanceof ReadError)) throw error;
    const why = error.kind === "too-large"
      ? `larger than ${formatBytes(MAX_SIGNING_FILE_BYTES)}`
      : error.message;
    throw new InputError("unreadable", `${what} ${quote(path)}: ${why}`);
  }
}

/** A path as the user would type it: relative to `cwd` when inside it. */
function shown(path: string, cwd: string): string {
  return isWithin(path, cwd) ? relative(cwd, path) : path;
}

/** Where the signature goes: `--out`, or `<dir>.skills-anywhere.sig` beside the directory; never inside it. */
async function outputPath(directory: string, values: OptionValues, cwd: string): Promise<string> {
  const out = resolve(cwd, values.out ?? `${directory}.${SIGNATURE_NAMESPACE}.sig`);
  const realDirectory = await realpath(directory).catch(() => directory);
  const parent = await realpath(dirname(out)).catch(() => undefined);
  if (parent === undefined) {
    throw new InputError("no-folder", `no folder for the signature: ${quote(dirname(out))}`);
  }
  if (isWithin(join(parent, basename(out)), realDirectory, { allowSame: true })) {
    throw new UsageError("the signature must not be written inside the signed directory", "sign");
  }
  return out;
}

/** Signs with `ssh-keygen -Y sign` (for an encrypted key: it asks for the passphrase itself). */
function sshKeygenSign(keyPath: string, message: Uint8Array): Promise<Uint8Array> {
  return new Promise((done, fail) => {
    const child = spawn("ssh-keygen", ["-Y", "sign", "-f", keyPath, "-n", SIGNATURE_NAMESPACE], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    const chunks: Uint8Array[] = [];
    let size = 0;
    child.stdout.on("data", (chunk: Uint8Array) => {
      size += chunk.length;
      if (size <= MAX_SIGNING_FILE_BYTES) chunks.push(chunk);
    });
    child.on("error", (error: Error & { code?: string }) => {
      fail(
        error.code === "ENOENT"
          ? new InputError(
            "encrypted-key",
            "the private key is encrypted and ssh-keygen, which could ask for its passphrase, is not on PATH",
          )
          : error,
      );
    });
    child.on("close", (code) => {
      if (code === 0 && size <= MAX_SIGNING_FILE_BYTES) done(concatBytes(chunks));
      else fail(new InputError("ssh-keygen", `ssh-keygen could not sign (exit ${code})`));
    });
    child.stdin.on("error", () => {}); // ssh-keygen may exit before reading; "close" reports it
    child.stdin.end(message);
  });
}

/** The armored signature of `message` with the key at `keyPath` (its bytes are zeroed once parsed). */
async function signWithKey(message: Uint8Array<ArrayBuffer>, keyPath: string): Promise<string> {
  const bytes = await readSmall(keyPath, "private key");
  const text = tryDecodeUtf8(bytes) ?? "";
  bytes.fill(0);
  const key = await parsePrivateKey(text);
  if (key.ok) return await signMessage(message, key.key, SIGNATURE_NAMESPACE);
  if (key.kind !== "encrypted-key") {
    throw new InputError(key.kind, `private key ${quote(keyPath)}: ${key.message}`);
  }
  return new TextDecoder().decode(await sshKeygenSign(keyPath, message));
}

const KEY_LABELS: Readonly<Record<string, string>> = { "ssh-ed25519": "ED25519", "ssh-rsa": "RSA" };
const keyLabel = (type: string) => KEY_LABELS[type] ?? "ECDSA";

/** The line a reviewer adds to an allowed-signers file to trust this key for this namespace. */
function signerLine(key: PublicKey, identity: string | undefined): string {
  const principal = identity === undefined ? "<principal>" : escapeTerminal(identity);
  return `${principal} namespaces="${SIGNATURE_NAMESPACE}" ${key.type} ${toBase64(key.blob)}`;
}

/**
 * Runs `sign`; returns the exit code (0 signed, 2 refused).
 *
 * @throws {UsageError} When the command line asks for something the command does not take.
 *
 * @example
 * ```ts
 * import { runSign } from "./sign.ts";
 * import { processIo } from "./io.ts";
 * await runSign(["skills/pdf"], { key: "/home/me/.ssh/id_ed25519" }, "/repo", processIo());
 * ```
 */
export async function runSign(
  positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  if (positionals.length !== 1) throw new UsageError("sign takes exactly one directory", "sign");
  if (values.key === undefined) throw new UsageError("sign needs --key <private key>", "sign");
  const directory = resolve(cwd, positionals[0]);
  try {
    const { manifest, message } = await bundleMessage(directory);
    const out = await outputPath(directory, values, cwd);
    const armored = await signWithKey(message, resolve(cwd, values.key));
    const parsed = parseSignature(new TextEncoder().encode(armored));
    if (!parsed.ok) throw new InputError(parsed.kind, `ssh-keygen wrote ${parsed.message}`);
    await writeWhole(out, armored);
    const key = parsed.signature.publicKey;
    io.out(
      [
        `Signed ${quote(shown(directory, cwd))} (bundle SHA-256 ${manifest.sha256}) with ${
          keyLabel(key.type)
        } key ${await key.fingerprint()}`,
        `Signature: ${quote(shown(out, cwd))}`,
        `Allowed signers line: ${signerLine(key, values.identity)}`,
      ].join("\n") + "\n",
    );
    return EXIT.ok;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    io.err(`${PREFIX}sign refused: ${error.message}\n`);
    return EXIT.refused;
  }
}

/** The allowed-signers file `verify-signature` names, through the one signers reader. */
async function readVerifySigners(values: OptionValues, cwd: string): Promise<string> {
  const read = await readAllowedSignersFile(resolve(cwd, values["allowed-signers"]!));
  if (!read.ok) throw new InputError(read.kind, escapeTerminal(read.message));
  return read.text;
}

/**
 * Runs `verify-signature`; returns the exit code (0 valid; 1 invalid
 * signature, unknown or expired signer, or a directory that differs from
 * what was signed; 2 bad input).
 *
 * @example
 * ```ts
 * import { runVerifySignature } from "./sign.ts";
 * import { processIo } from "./io.ts";
 * await runVerifySignature(["skills/pdf"], {
 *   signature: "pdf.sig",
 *   "allowed-signers": "allowed_signers",
 *   identity: "ana@example.com",
 * }, "/repo", processIo());
 * ```
 */
export async function runVerifySignature(
  positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  checkVerifyUsage(positionals, values);
  const directory = resolve(cwd, positionals[0]);
  try {
    if (values["sigstore-bundle"] !== undefined) {
      return await verifySigstore(directory, values, cwd, io);
    }
    const signature = await readSmall(resolve(cwd, values.signature!), "signature");
    const { manifest, message } = await bundleMessage(directory);
    const signers = await readVerifySigners(values, cwd);
    const result = await verifySignature(message, signature, signers, {
      namespace: SIGNATURE_NAMESPACE,
      identity: values.identity,
      now: new Date(),
    });
    const base = { schema: VERIFICATION_SCHEMA, directory, bundle_sha256: manifest.sha256 };
    return printVerdict(result, base, shown(directory, cwd), values, io);
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const { kind, message } = error;
    if (values.json) {
      io.out(jsonText({ schema: VERIFICATION_SCHEMA, valid: false, kind, error: message }));
    } else io.err(`${PREFIX}verify-signature refused: ${message}\n`);
    return EXIT.refused;
  }
}

/**
 * Verifies a Sigstore bundle over the directory against the trusted root and the identity and
 * issuer asked for; the Sigstore packages are loaded here, only when a bundle is to be checked.
 */
async function verifySigstore(
  directory: string,
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  const bundle = await readSmall(resolve(cwd, values["sigstore-bundle"]!), "Sigstore bundle");
  const root = await readSmall(resolve(cwd, values["trusted-root"]!), "trusted root");
  const { manifest } = await bundleMessage(directory);
  const { verifySigstoreBundle } = await import("../lib/sigstore.ts");
  const result = verifySigstoreBundle(bundle, root, manifest.sha256, {
    certificateIdentity: values["certificate-identity"]!,
    certificateIssuer: values["certificate-oidc-issuer"]!,
  });
  const base = { schema: VERIFICATION_SCHEMA, directory, bundle_sha256: manifest.sha256 };
  const where = shown(directory, cwd);
  if (!result.ok) {
    const code = SIGSTORE_BAD_INPUT.has(result.kind) ? EXIT.refused : EXIT.failed;
    return printRefusal(result, code, base, where, values, io);
  }
  const { identity, issuer, subject, predicateType, mediaType } = result;
  if (values.json) {
    const facts = {
      identity,
      issuer,
      subject,
      predicate_type: predicateType,
      media_type: mediaType,
    };
    io.out(jsonText({ ...base, valid: true, method: "sigstore", ...facts }));
  } else {
    const words = `Good Sigstore signature for ${quote(identity)} (OIDC issuer ${
      quote(issuer)
    }) over ${quote(where)}`;
    io.out(outStyles(io).ok(words) + "\n");
  }
  return EXIT.ok;
}

/** The SSH options and the Sigstore options of `verify-signature`: one set or the other. */
const SSH_OPTIONS = ["signature", "allowed-signers", "identity"] as const;
const SIGSTORE_OPTIONS = [
  "sigstore-bundle",
  "trusted-root",
  "certificate-identity",
  "certificate-oidc-issuer",
] as const;

/**
 * Refuses a `verify-signature` command line without one directory and either a signature and a
 * signers file, or a Sigstore bundle, a trusted root, an identity and an issuer (never a mix).
 */
function checkVerifyUsage(positionals: string[], values: OptionValues): void {
  const command = "verify-signature";
  if (positionals.length !== 1) {
    throw new UsageError(`${command} takes exactly one directory`, command);
  }
  const sigstore = values["sigstore-bundle"] !== undefined;
  const [needed, excluded] = sigstore
    ? [SIGSTORE_OPTIONS, SSH_OPTIONS]
    : [SSH_OPTIONS.slice(0, 2), SIGSTORE_OPTIONS];
  const mixed = excluded.find((name) => values[name] !== undefined);
  if (mixed !== undefined) {
    const kind = sigstore ? "--sigstore-bundle" : "--signature";
    const hint = mixed === "identity" ? " (the Sigstore signer is --certificate-identity)" : "";
    throw new UsageError(`--${mixed} cannot be used with ${kind}${hint}`, command);
  }
  const missing = needed.find((name) => values[name] === undefined);
  if (missing !== undefined) {
    const or = missing === "signature" ? " (or --sigstore-bundle <file>)" : "";
    throw new UsageError(`${command} needs --${missing} ${OPTIONS[missing].value}${or}`, command);
  }
}

/** Prints the verdict (stdout when valid or with --json, else one stderr line); returns the exit code. */
function printVerdict(
  result: VerifyResult,
  base: Record<string, string>,
  directory: string,
  values: OptionValues,
  io: Io,
): number {
  if (result.ok) {
    const { principal, fingerprint, keyType } = result;
    if (values.json) {
      io.out(jsonText({ ...base, valid: true, principal, fingerprint, key_type: keyType }));
    } else {
      const words = `Good "${SIGNATURE_NAMESPACE}" signature for ${quote(principal)} with ${
        keyLabel(keyType)
      } key ${fingerprint} over ${quote(directory)}`;
      io.out(outStyles(io).ok(words) + "\n");
    }
    return EXIT.ok;
  }
  return printRefusal(
    result,
    BAD_INPUT.has(result.kind) ? EXIT.refused : EXIT.failed,
    base,
    directory,
    values,
    io,
  );
}

/** Prints a refusal (JSON on stdout, or one stderr line); returns `code`. */
function printRefusal(
  result: { kind: string; message: string },
  code: number,
  base: Record<string, string>,
  directory: string,
  values: OptionValues,
  io: Io,
): number {
  const what = code === EXIT.refused
    ? "verify-signature refused"
    : `invalid signature for ${quote(directory)}`;
  if (values.json) {
    io.out(jsonText({ ...base, valid: false, kind: result.kind, error: result.message }));
  } else io.err(`${PREFIX}${what}: ${escapeTerminal(result.message)}\n`);
  return code;
}
