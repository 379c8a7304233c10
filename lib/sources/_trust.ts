/**
 * Project trust: a project's sources file is in force only while the user's
 * trust file records the SHA-256 of its exact bytes for that project root.
 * Any change to the file (one byte) makes it untrusted again, until the user
 * trusts it anew. Trusting grants one thing only: the sources the file lists
 * are cloned into the cache and read like any other Git source.
 *
 * ```
 * <dshHome>/skills-anywhere/trust.json
 * {"schema": "skills-anywhere-trust-1",
 *  "projects": {"<real path of the project root>": {"sha256": "<64 hex>", "trusted_at": "<ISO 8601>",
 *                                                 "sources": ["<clone URL or absolute path>", …]}}}
 * ```
 *
 * `sources` records what was shown when the file was trusted: each entry's
 * clone URL, a relative local path (`./vendor-skills`) resolved against the
 * project root's real path. A record holds only while the file resolves to the
 * same list now; a record without `sources` (written before they were
 * recorded) holds only for a file without relative local paths, whose meaning
 * then depended on the working directory.
 *
 * The trust file is written whole by the one writer (inside the DSH home,
 * never through a link) and read
 * bounded; anything but exactly this shape reads as "nothing trusted", with
 * one warning.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtempSync, rmSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * import { projectTrust, trustProject } from "./_trust.ts";
 * const dsh = mkdtempSync(join(tmpdir(), "dsh-"));
 * const bytes = new TextEncoder().encode('{"sources": ["o/r"]}');
 * await trustProject(dsh, "/work/app", bytes);
 * assert.equal((await projectTrust(dsh, "/work/app", bytes)).state, "trusted");
 * rmSync(dsh, { recursive: true });
 * ```
 * @module
 */
import { realpath } from "node:fs/promises";
import { join, resolve } from "node:path";
import { errorText } from "../errors.ts";
import { writeWhole } from "../fs/mod.ts";
import { sha256Hex } from "../hash.ts";
import { isPlainObject, tryParseJsonBytes } from "../util.ts";
import { readConfigBytes } from "./_files.ts";

/** The `schema` of the trust file. */
const TRUST_SCHEMA = "skills-anywhere-trust-1";

/** One trusted project: the hash of its sources file when it was trusted, and when. */
export interface TrustRecord {
  /** SHA-256 of the project sources file's exact bytes, lower-case hex. */
  sha256: string;
  /** When it was trusted (ISO 8601). */
  trusted_at: string;
  /** What the file's entries resolved to when trusted: clone URLs, local paths absolute. */
  sources?: string[];
}

/**
 * What a project sources file resolves to now, as trust compares it: each
 * entry's clone URL (relative local paths resolved against the project root),
 * and whether any entry is a relative local path.
 */
export interface ResolvedEntries {
  urls: readonly string[];
  relative: boolean;
}

/** The trust file's projects, keyed by the real path of the project root. */
export type TrustedProjects = Record<string, TrustRecord>;

/** What the trust file holds. */
interface TrustRead {
  /** The trusted projects (empty when the file is missing or invalid). */
  projects: TrustedProjects;
  /** Why an existing file was not used, in one line naming it. */
  warning?: string;
}

/**
 * Whether a project sources file is trusted: `trusted` (hash recorded),
 * `changed` (trusted once, with other bytes) or `untrusted` (never, or revoked).
 */
export type TrustState = "trusted" | "changed" | "untrusted";

/** The answer of {@linkcode projectTrust}. */
export interface ProjectTrust {
  /** Trusted as it is, changed since it was trusted, or never trusted. */
  state: TrustState;
  /** The SHA-256 of the bytes asked about. */
  sha256: string;
  /** The trust file's warning, when it could not be used. */
  warning?: string;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * The trust file of a dsh home.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(trustFile("/home/me/.dsh"), "/home/me/.dsh/skills-anywhere/trust.json");
 * ```
 */
export function trustFile(dshHome: string): string {
  return join(dshHome, "skills-anywhere", "trust.json");
}

/**
 * The key a project root is recorded under: its real path (symlinks
 * resolved), or the resolved path when it cannot be resolved.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(await projectKey("/work/app/."), "/work/app");
 * ```
 */
export async function projectKey(projectRoot: string): Promise<string> {
  return await realpath(projectRoot).catch(() => resolve(projectRoot));
}

function hasExactKeys(value: Record<string, unknown>, keys: readonly string[]): boolean {
  const own = Object.keys(value);
  return own.length === keys.length && keys.every((key) => Object.hasOwn(value, key));
}

function toRecord(value: unknown): TrustRecord | undefined {
  if (!isPlainObject(value)) return undefined;
  const withSources = Object.hasOwn(value, "sources");
  const keys = withSources ? ["sha256", "trusted_at", "sources"] : ["sha256", "trusted_at"];
  if (!hasExactKeys(value, keys)) return undefined;
  const { sha256, trusted_at, sources } = value;
  if (typeof sha256 !== "string" || !SHA256_HEX.test(sha256)) return undefined;
  if (typeof trusted_at !== "string") return undefined;
  if (!withSources) return { sha256, trusted_at };
  if (!Array.isArray(sources) || !sources.every((s) => typeof s === "string")) return undefined;
  return { sha256, trusted_at, sources: [...sources] };
}

/** Whether a record with the same bytes still holds for what the file resolves to now. */
function sameResolution(record: TrustRecord, now: ResolvedEntries | undefined): boolean {
  if (now === undefined) return true;
  if (record.sources === undefined) return !now.relative;
  return record.sources.length === now.urls.length &&
    record.sources.every((url, i) => url === now.urls[i]);
}

/**
 * Validates a parsed trust document: exactly `{schema, projects}`, every
 * project an absolute path with exactly `{sha256, trusted_at}`. Returns the
 * projects, or `undefined` when anything is off.
 */
function toProjects(doc: unknown): TrustedProjects | undefined {
  if (!isPlainObject(doc) || !hasExactKeys(doc, ["schema", "projects"])) return undefined;
  if (doc.schema !== TRUST_SCHEMA || !isPlainObject(doc.projects)) return undefined;
  const entries: [string, TrustRecord][] = [];
  for (const [key, value] of Object.entries(doc.projects)) {
    const record = toRecord(value);
    if (record === undefined || !key.startsWith("/") && !/^[A-Za-z]:[\\/]/.test(key)) {
      return undefined;
    }
    entries.push([key, record]);
  }
  // fromEntries defines own properties, so a "__proto__" key stays a plain key.
  return Object.fromEntries(entries);
}

/**
 * Reads the trust file. A missing file trusts nothing; an oversized,
 * unreadable, invalid or tampered one (any other shape) trusts nothing too and
 * says why in `warning`. Never throws.
 */
async function readTrust(path: string): Promise<TrustRead> {
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readConfigBytes(path, { followSymlinks: true });
  } catch (error) {
    return { projects: {}, warning: `${errorText(error)}; no project is trusted` };
  }
  if (bytes === undefined) return { projects: {} };
  const read = tryParseJsonBytes(bytes);
  const projects = toProjects(read.ok ? read.value : undefined);
  if (projects === undefined) {
    return { projects: {}, warning: `${path} is not a valid trust file; no project is trusted` };
  }
  return { projects };
}

/**
 * Whether `bytes` (the project sources file as just read) are trusted for
 * `projectRoot` under `dshHome`; with `resolved` (what the file resolves to
 * now), the record must also have been made for that (see the module doc).
 *
 * @example
 * ```ts
 * const { state } = await projectTrust("/home/me/.dsh", "/work/app", new Uint8Array());
 * ```
 */
export async function projectTrust(
  dshHome: string,
  projectRoot: string,
  bytes: Uint8Array,
  resolved?: ResolvedEntries,
): Promise<ProjectTrust> {
  const sha256 = sha256Hex(bytes);
  const { projects, warning } = await readTrust(trustFile(dshHome));
  const key = await projectKey(projectRoot);
  const record = Object.hasOwn(projects, key) ? projects[key] : undefined;
  const state: TrustState = record === undefined
    ? "untrusted"
    : record.sha256 === sha256 && sameResolution(record, resolved)
    ? "trusted"
    : "changed";
  return { state, sha256, ...(warning !== undefined ? { warning } : {}) };
}

async function writeProjects(dshHome: string, projects: TrustedProjects): Promise<void> {
  const doc = { schema: TRUST_SCHEMA, projects };
  await writeWhole(trustFile(dshHome), `${JSON.stringify(doc, null, 2)}\n`, { within: dshHome });
}

/**
 * Records `bytes` (the project sources file exactly as shown to the user) as
 * trusted for `projectRoot`, with `resolved`, what its entries resolve to
 * (see the module doc). An invalid trust file is replaced. Returns the record
 * written.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mkdtempSync, rmSync } from "node:fs";
 * import { tmpdir } from "node:os";
 * import { join } from "node:path";
 * const dsh = mkdtempSync(join(tmpdir(), "dsh-"));
 * const record = await trustProject(dsh, "/work/app", new TextEncoder().encode("[]"));
 * assert.equal((await projectTrust(dsh, "/work/app", new TextEncoder().encode("[]"))).state, "trusted");
 * rmSync(dsh, { recursive: true });
 * ```
 */
export async function trustProject(
  dshHome: string,
  projectRoot: string,
  bytes: Uint8Array,
  resolved?: ResolvedEntries,
): Promise<TrustRecord> {
  const { projects } = await readTrust(trustFile(dshHome));
  const record: TrustRecord = { sha256: sha256Hex(bytes), trusted_at: new Date().toISOString() };
  if (resolved !== undefined) record.sources = [...resolved.urls];
  const key = await projectKey(projectRoot);
  await writeProjects(dshHome, { ...projects, [key]: record });
  return record;
}

/**
 * Forgets the trust of `projectRoot`. Returns whether it was trusted (the file
 * is left untouched when it was not).
 *
 * @example
 * ```ts
 * await revokeProject("/home/me/.dsh", "/work/app"); // false when it was not trusted
 * ```
 */
export async function revokeProject(dshHome: string, projectRoot: string): Promise<boolean> {
  const { projects } = await readTrust(trustFile(dshHome));
  const key = await projectKey(projectRoot);
  if (!Object.hasOwn(projects, key)) return false;
  const kept = Object.fromEntries(Object.entries(projects).filter(([k]) => k !== key));
  await writeProjects(dshHome, kept);
  return true;
}
