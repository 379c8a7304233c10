/**
 * `check`'s signature findings: when allowed signers are known
 * (`--allowed-signers FILE`, else the `signers` block of the project's lock),
 * each checked SKILL.md's directory is verified against the signature beside
 * it (`<dir>.skills-anywhere.sig`). A signature that does not hold fails the
 * file's check (exit 1); a missing one is a note, unless the project's lock
 * requires signatures. Without known signers nothing is added.
 *
 * @example
 * ```ts
 * import { checkSignatures, signersForCheck } from "./check_signatures.ts";
 * import type { FileCheckReport } from "../lib/check/mod.ts";
 * async function example(report: FileCheckReport) {
 *   const signers = await signersForCheck({ "allowed-signers": "allowed_signers" }, "/repo");
 *   if (signers !== undefined) console.log(await checkSignatures(report, signers, "/repo"));
 * }
 * ```
 * @module
 */
import { basename, dirname, resolve } from "node:path";
import { resolveProject } from "../lib/catalog/mod.ts";
import { KindError } from "../lib/errors.ts";
import { readProjectLock } from "../lib/lock/mod.ts";
import { readAllowedSigners, verifyDirectorySignature } from "../lib/signers.ts";
import { readAllowedSignersFile } from "../lib/sign/mod.ts";
import type { FileCheckReport } from "../lib/check/mod.ts";
import type { OptionValues } from "./args.ts";
import { cliConfig } from "./catalog.ts";
import { escapeTerminal } from "./escape.ts";
import type { SarifLevel } from "./sarif.ts";

/** The allowed signers `check` verifies with, and whether a signature is required. */
export interface CheckSigners {
  text: string;
  require: boolean;
}

/** One checked file's signature verdict. */
export type SignatureEntry =
  | { path: string; status: "signed"; principal: string; fingerprint: string }
  | { path: string; status: "unsigned" | "invalid"; kind: string; message: string };

/** The `--allowed-signers` file a user names: the one signers reader, links followed. */
async function namedSigners(path: string): Promise<string> {
  const read = await readAllowedSignersFile(path);
  if (!read.ok) throw new KindError("bad-allowed-signers", escapeTerminal(read.message));
  return read.text;
}

/**
 * The signers `check` verifies with: `--allowed-signers`, else the project
 * lock's (when it names any); undefined when none is known. An unusable
 * signers file throws its one line (exit 2); an invalid lock is not
 * `check`'s concern and is passed over.
 *
 * @throws {KindError} On an expected failure (its `kind` says which).
 *
 * @example
 * ```ts
 * import { signersForCheck } from "./check_signatures.ts";
 * const signers = await signersForCheck({}, "/repo");
 * console.log(signers?.require);
 * ```
 */
export async function signersForCheck(
  values: OptionValues,
  cwd: string,
): Promise<CheckSigners | undefined> {
  const named = values["allowed-signers"];
  if (named !== undefined) return { text: await namedSigners(resolve(cwd, named)), require: false };
  const { root, lockFile } = await resolveProject(cwd, cliConfig().home);
  const read = await readProjectLock(lockFile);
  if (read === undefined || !read.ok || read.lock.signers === undefined) return undefined;
  const allowed = await readAllowedSigners(root, read.lock.signers);
  if (!allowed.ok) throw new KindError("bad-allowed-signers", allowed.message);
  return { text: allowed.text, require: read.lock.signers.require };
}

/**
 * The signature verdict of each checked SKILL.md's directory (flat files
 * and unreadable inputs are left out).
 *
 * @example
 * ```ts
 * import { checkSignatures } from "./check_signatures.ts";
 * import type { FileCheckReport } from "../lib/check/mod.ts";
 * async function example(report: FileCheckReport) {
 *   const entries = await checkSignatures(report, { text: "", require: false }, "/repo");
 * }
 * ```
 */
export async function checkSignatures(
  report: FileCheckReport,
  signers: CheckSigners,
  cwd: string,
): Promise<SignatureEntry[]> {
  const entries: SignatureEntry[] = [];
  for (const file of report.files) {
    if (file.status === "input_error" || basename(file.path) !== "SKILL.md") continue;
    const directory = dirname(resolve(cwd, file.path));
    const verdict = await verifyDirectorySignature(directory, signers.text);
    if (verdict.ok) {
      const { principal, fingerprint } = verdict;
      entries.push({ path: file.path, status: "signed", principal, fingerprint });
      continue;
    }
    const status = verdict.kind === "unsigned" ? "unsigned" : "invalid";
    entries.push({ path: file.path, status, kind: verdict.kind, message: verdict.message });
  }
  return entries;
}

/**
 * A signature entry's SARIF level: an invalid signature is an error, a
 * missing one an error only when required, else a note; a valid one is not
 * a result.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { signatureLevel } from "./check_signatures.ts";
 * assert.equal(signatureLevel({ path: "SKILL.md", status: "unsigned", kind: "unsigned", message: "" }, false), "note");
 * ```
 */
export function signatureLevel(entry: SignatureEntry, require: boolean): SarifLevel | undefined {
  if (entry.status === "signed") return undefined;
  return entry.status === "invalid" || require ? "error" : "note";
}
