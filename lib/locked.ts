/**
 * Enforcing a project's lock while serving: a skill may be served only when
 * the lock names it with the same published name, origin and path, and its
 * directory's bundle digest now equals the locked `bundle_sha256`. A locked
 * skill whose `bundle_sha256` is `null` (it could not be bundled when it was
 * locked) is never served: nothing reviewed can be checked against it; nor is
 * one that cannot be bundled now. Both refusals (kind `unbundlable`) say why,
 * in the words of the lock format's `bundle_error_kind`.
 *
 * {@linkcode LockGate} reads the lock file again whenever it changed on disk
 * (one `lstat` per question otherwise); a lock that is gone or invalid serves
 * nothing, and every question is answered with that reason. Loads go through
 * {@linkcode openLocked}: `openSkill` with the locked digest as
 * `expectedBundleSha256`, so the check is made on the very bytes returned,
 * and the receipt carries the lock file's SHA-256.
 *
 * When the lock names trusted signers with `require: true`, a skill is served
 * only when, besides, the signature beside its directory (see
 * `../lock/signers.ts`) is valid over the LOCKED rows and made by a signer of
 * the allowed-signers file the lock names (read again at each question). As
 * the load then checks the bytes it returns against the locked digest, the
 * bytes served are the ones the signature covers; the receipt names the
 * signer. With `require: false`, signatures are not checked while serving
 * (`verify` reports them).
 *
 * A person's own skills (user folders, plugins, user-level Git sources) are
 * never in a project's lock: a gate given the user lock (`user`, see
 * `../lock/file.ts`) also serves a skill that lock covers, matched by its
 * place (origin and path, whatever name the project's names gave it), with
 * the same digest and signature rules (its signers relative to the user
 * lock's folder). A name the project's lock holds is always judged by the
 * project's lock. The verdict and the receipt say which lock allowed the
 * skill (`lock: "project" | "user"`) and that lock file's SHA-256. A missing
 * user lock covers nothing; an invalid one covers nothing and says why.
 *
 * Refusals are {@linkcode LockRefusalKind} failures in neutral words; each
 * surface words them for its users.
 *
 * @example
 * ```ts
 * import { LockGate } from "./locked.ts";
 * import type { DiscoveredSkill } from "./catalog/mod.ts";
 * async function example(skills: DiscoveredSkill[]) {
 *   const gate = new LockGate("/repo/skills-anywhere.lock.json");
 *   const served = await gate.allowed(skills);
 *   console.log(served.length);
 * }
 * ```
 * @module
 */
import { lstat } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { DigestCache } from "./bundle/mod.ts";
import { BundleError } from "./bundle/mod.ts";
import { readBundle } from "./bundle/mod.ts";
import type { DiscoveredSkill } from "./catalog/mod.ts";
import { type Failure, failure } from "./errors.ts";
import { parseSkillBytes } from "./load/mod.ts";
import { type LoadResult, type OpenOptions, openSkill } from "./load/mod.ts";
import type { ParsedSkill } from "./skill/mod.ts";
import { lockOrigin } from "./lock/mod.ts";
import { readProjectLock } from "./lock/mod.ts";
import { readAllowedSigners, verifySkillSignature } from "./signers.ts";
import {
  isUnbundlableKind,
  type LockOrigin,
  type LockSkill,
  type ProjectLock,
  UNBUNDLABLE_REASONS,
  type UnbundlableKind,
} from "./lock/mod.ts";

/**
 * Every reason a skill is not served under a lock, in one list: a surface's wording table is a
 * `Record<LockRefusalKind, …>`, so a kind added here that a surface does not word is a compile
 * error there (and the list lets a test check every kind at run time).
 *
 * - `not-locked`: the lock does not name this skill.
 * - `changed`: its bundle digest is not the locked one.
 * - `moved`: the lock names it from another origin or path.
 * - `unbundlable`: it had no bundle when locked, or has none now.
 * - `no-lock`: the lock file is gone.
 * - `invalid-lock`: the lock file cannot be read or is not a valid lock.
 * - `unsigned`: the lock requires signatures and none is beside the skill's directory.
 * - `bad-signature`: the lock requires signatures and the skill's is not valid, or not by an
 *   allowed signer.
 * - `bad-allowed-signers`: the lock requires signatures and its allowed-signers file cannot be
 *   used.
 *
 * @example
 * ```ts
 * import { LOCK_REFUSAL_KINDS } from "./locked.ts";
 * console.log(LOCK_REFUSAL_KINDS.includes("no-lock")); // true
 * ```
 */
export const LOCK_REFUSAL_KINDS = [
  "not-locked",
  "changed",
  "moved",
  "unbundlable",
  "no-lock",
  "invalid-lock",
  "unsigned",
  "bad-signature",
  "bad-allowed-signers",
] as const;

/** Why a skill is not served under a lock (see {@linkcode LOCK_REFUSAL_KINDS}). */
export type LockRefusalKind = (typeof LOCK_REFUSAL_KINDS)[number];

/**
 * The refusals of a lock file that cannot be used at all (none of its skills is served): gone,
 * or not a valid lock. Each has one wording per surface.
 *
 * @example
 * ```ts
 * import { LOCK_FILE_REFUSAL_KINDS } from "./locked.ts";
 * console.log(LOCK_FILE_REFUSAL_KINDS); // ["no-lock", "invalid-lock"]
 * ```
 */
export const LOCK_FILE_REFUSAL_KINDS = [
  "no-lock",
  "invalid-lock",
] as const satisfies readonly LockRefusalKind[];

/** Why no skill is served under a lock file (see {@linkcode LOCK_FILE_REFUSAL_KINDS}). */
export type LockFileRefusalKind = (typeof LOCK_FILE_REFUSAL_KINDS)[number];

/**
 * Whether `kind` is one of the lock's refusals ({@linkcode LOCK_REFUSAL_KINDS}).
 *
 * @example
 * ```ts
 * import { isLockRefusalKind } from "./locked.ts";
 * console.log(isLockRefusalKind("changed"), isLockRefusalKind("unknown")); // true false
 * ```
 */
export function isLockRefusalKind(kind: string): kind is LockRefusalKind {
  return (LOCK_REFUSAL_KINDS as readonly string[]).includes(kind);
}

/** A valid lock as read now: the document, its file's SHA-256 and its entries by name. */
export interface LockSnapshot {
  ok: true;
  lock: ProjectLock;
  sha256: string;
  byName: ReadonlyMap<string, LockSkill>;
  /** The user lock read with it (gates given one): its entries by place, or why it is unusable. */
  user?: UserLockState;
}

/** The user lock as read now: its document, file, SHA-256 and entries by place. */
export type UserLockState =
  | {
    ok: true;
    file: string;
    lock: ProjectLock;
    sha256: string;
    byPlace: ReadonlyMap<string, LockSkill>;
  }
  | Failure<"invalid-lock">;

/**
 * The locks a skill can be allowed by: the project's, or the person's user lock.
 *
 * @example
 * ```ts
 * import { LOCK_KINDS } from "./locked.ts";
 * console.log(LOCK_KINDS); // ["project", "user"]
 * ```
 */
export const LOCK_KINDS = ["project", "user"] as const;

/** Which lock allowed a skill (see {@linkcode LOCK_KINDS}). */
export type LockKind = (typeof LOCK_KINDS)[number];

/**
 * Whether `value` names a lock ({@linkcode LOCK_KINDS}), for a record read back from elsewhere.
 *
 * @example
 * ```ts
 * import { isLockKind } from "./locked.ts";
 * console.log(isLockKind("user"), isLockKind("team")); // true false
 * ```
 */
export function isLockKind(value: unknown): value is LockKind {
  return (LOCK_KINDS as readonly unknown[]).includes(value);
}

/** The key of a place: the origin in the lock's form and the path. */
function placeKey(origin: LockOrigin, path: string): string {
  const keys = Object.keys(origin).sort();
  return JSON.stringify([keys.map((k) => [k, origin[k]]), path]);
}

/**
 * The entry that judges `skill` under `snapshot`, and which lock holds it: the project lock's
 * entry of its name, else the user lock's entry of its place.
 *
 * @example
 * ```ts
 * import { entryFor, type LockSnapshot } from "./locked.ts";
 * import type { DiscoveredSkill } from "./catalog/mod.ts";
 * function example(snapshot: LockSnapshot, skill: DiscoveredSkill) {
 *   console.log(entryFor(snapshot, skill)?.lock); // "project", "user" or undefined
 * }
 * ```
 */
export function entryFor(
  snapshot: LockSnapshot,
  skill: DiscoveredSkill,
): { entry: LockSkill; lock: LockKind; sha256: string } | undefined {
  const entry = snapshot.byName.get(skill.name);
  if (entry !== undefined) return { entry, lock: "project", sha256: snapshot.sha256 };
  const user = snapshot.user;
  if (user === undefined || !user.ok) return undefined;
  const mine = user.byPlace.get(placeKey(lockOrigin(skill.origin), skill.relativePath));
  return mine === undefined ? undefined : { entry: mine, lock: "user", sha256: user.sha256 };
}

/** The lock in force: a snapshot, or why nothing is served. */
export type LockState = LockSnapshot | Failure<"no-lock" | "invalid-lock">;

/** A skill the lock allows: its entry, with the digest a load must match. */
export interface Allowed {
  ok: true;
  entry: LockSkill;
  bundleSha256: string;
  /**
   * Which lock allowed it.
   *
   * @default {"project"}
   */
  lock?: LockKind;
  /** The SHA-256 of that lock file's bytes. */
  lockSha256?: string;
  /** The allowed signer, when the lock requires signatures. */
  signer?: { principal: string; fingerprint: string };
}

/** The allowed-signers text one lock requires signatures by; undefined when it requires none. */
export type RequiredSigners =
  | { ok: true; text: string }
  | Failure<"bad-allowed-signers">
  | undefined;

/**
 * The allowed signers of the locks in force, read for several questions: the project lock's
 * and the user lock's (relative to the user lock's folder), each undefined when that lock
 * requires none.
 */
export interface Signers {
  project: RequiredSigners;
  user: RequiredSigners;
}

async function signersOfLock(lock: ProjectLock, folder: string): Promise<RequiredSigners> {
  const signers = lock.signers;
  if (signers === undefined || !signers.require) return undefined;
  return await readAllowedSigners(folder, signers);
}

/** The allowed-signers files the locks in force require signatures by (read now). */
async function signersOf(state: LockSnapshot, lockFile: string): Promise<Signers> {
  const project = await signersOfLock(state.lock, dirname(lockFile));
  const user = state.user?.ok
    ? await signersOfLock(state.user.lock, dirname(state.user.file))
    : undefined;
  return { project, user };
}

/**
 * `verdict` with the signature requirement of `signers` (from {@linkcode LockGate.signers})
 * applied: the signature beside the skill's directory must hold over the locked rows.
 *
 * @example
 * ```ts
 * import { LockGate, signedVerdict, verdictOf } from "./locked.ts";
 * import type { DiscoveredSkill } from "./catalog/mod.ts";
 * async function example(skill: DiscoveredSkill, digest: string) {
 *   const gate = new LockGate("/repo/skills-anywhere.lock.json");
 *   const state = await gate.state();
 *   if (state.ok) {
 *     const verdict = await signedVerdict(verdictOf(state, skill, digest), skill, await gate.signers(state));
 *     console.log(verdict.ok ? verdict.signer?.principal : verdict.kind);
 *   }
 * }
 * ```
 */
export async function signedVerdict(
  verdict: Verdict,
  skill: DiscoveredSkill,
  signers: Signers | undefined,
): Promise<Verdict> {
  if (!verdict.ok) return verdict;
  const mine = verdict.lock === "user" ? signers?.user : signers?.project;
  if (mine === undefined) return verdict;
  const name = JSON.stringify(skill.name);
  if (!mine.ok) {
    return failure("bad-allowed-signers", `cannot check signatures: ${mine.message}`);
  }
  const entry = verdict.entry;
  const signed = await verifySkillSignature(skill.directory, entry.files, mine.text);
  if (signed.ok) {
    return { ...verdict, signer: { principal: signed.principal, fingerprint: signed.fingerprint } };
  }
  const kind = signed.kind === "unsigned" ? "unsigned" : "bad-signature";
  return failure(kind, `skill ${name} is not signed by an allowed signer: ${signed.message}`);
}

/** The lock's verdict on one skill. */
export type Verdict = Allowed | Failure<LockRefusalKind>;

/** A lock read is reused only when the file's identity is unchanged and was settled at read time. */
const SETTLE_NS = 1_000_000_000n;

function sameOrigin(a: LockOrigin, b: LockOrigin): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/** Why a directory cannot be bundled, in words, for a refusal (empty when unknown). */
function because(kind: UnbundlableKind | undefined): string {
  return kind === undefined ? "" : ` (it ${UNBUNDLABLE_REASONS[kind]})`;
}

/** The refusal of a skill that cannot be bundled now, saying why when known. */
function unbundlableNow(name: string, kind?: UnbundlableKind): Failure<"unbundlable"> {
  return failure(
    "unbundlable",
    `skill ${JSON.stringify(name)} cannot be bundled now${because(kind)}, so it cannot be ` +
      `checked against the lock`,
  );
}

/**
 * The lock's verdict on `skill` whose bundle digest is now `bundleSha256`
 * (`undefined` when it cannot be bundled now, `unbundlable` then saying why
 * when known). Pure.
 *
 * @example
 * ```ts
 * import { verdictOf, type LockSnapshot } from "./locked.ts";
 * import type { DiscoveredSkill } from "./catalog/mod.ts";
 * function example(snapshot: LockSnapshot, skill: DiscoveredSkill) {
 *   const verdict = verdictOf(snapshot, skill, "0".repeat(64));
 *   console.log(verdict.ok ? "served" : verdict.kind);
 * }
 * ```
 */
export function verdictOf(
  snapshot: LockSnapshot,
  skill: DiscoveredSkill,
  bundleSha256: string | undefined,
  unbundlable?: UnbundlableKind,
): Verdict {
  const name = JSON.stringify(skill.name);
  const found = entryFor(snapshot, skill);
  if (found === undefined) {
    const user = snapshot.user;
    const why = user === undefined
      ? "is not in the lock"
      : user.ok
      ? "is in neither the project's lock nor the user's lock"
      : `is not in the project's lock, and ${user.message}`;
    return failure("not-locked", `skill ${name} ${why}`);
  }
  const { entry, lock, sha256 } = found;
  if (!sameOrigin(entry.origin, lockOrigin(skill.origin)) || entry.path !== skill.relativePath) {
    return failure(
      "moved",
      `skill ${name} is not where ${LOCK_NAME[lock ?? "project"]} says it comes from`,
    );
  }
  if (entry.bundle_sha256 === null) {
    return failure(
      "unbundlable",
      `skill ${name} cannot be verified: it is locked without a bundle digest${
        inLock(lock)
      }, as it could not be bundled${because(entry.bundle_error_kind)}`,
    );
  }
  if (bundleSha256 === undefined) return unbundlableNow(skill.name, unbundlable);
  if (bundleSha256 !== entry.bundle_sha256) return changedNow(skill.name, lock);
  return { ok: true, entry, bundleSha256, lock, lockSha256: sha256 };
}

/** How a refusal names each lock: a personal skill's entry is the user's lock's, never the project's. */
const LOCK_NAME: Readonly<Record<LockKind, string>> = {
  project: "the lock",
  user: "the user's lock",
};

/** `" in the user's lock"` for an entry of the user's lock; nothing for the project's. */
function inLock(lock: LockKind | undefined): string {
  return lock === "user" ? ` in ${LOCK_NAME.user}` : "";
}

/** The refusal of a skill whose bytes are not the locked ones (`lock`: whose entry it was). */
function changedNow(name: string, lock: LockKind | undefined): Failure<"changed"> {
  return failure(
    "changed",
    `skill ${JSON.stringify(name)} changed since it was locked${inLock(lock)}`,
  );
}

/** The lock file of one project, read again when it changes; see the module doc. */
export class LockGate {
  /** The lock file's path. */
  readonly file: string;
  /** The user lock's path, when personal skills may be served under it. */
  readonly userFile?: string;
  readonly #digests: DigestCache;
  #state?: { key: string; state: LockState };

  /**
   * A gate over the lock at `file`, and over the user lock at `user` when given (see the
   * module doc); bundle digests are kept in `digests` (default a new cache).
   */
  constructor(file: string, options: { digests?: DigestCache; user?: string } = {}) {
    this.file = file;
    this.userFile = options.user;
    this.#digests = options.digests ?? new DigestCache();
  }

  /** The locks in force now (read again when a file changed). Never throws for a bad file. */
  async state(): Promise<LockState> {
    const project = await identityOf(this.file);
    const user = this.userFile === undefined ? "" : await identityOf(this.userFile) ?? "none";
    const key = project === undefined ? undefined : `${project}|${user}`;
    if (key !== undefined && this.#state?.key === key) return this.#state.state;
    const state = await readState(this.file, this.userFile);
    const stable = project !== undefined && settled(project) &&
      (user === "" || user === "none" || settled(user));
    this.#state = key === undefined || !stable ? undefined : { key, state };
    return state;
  }

  /**
   * The verdict on `skill` now: the lock in force, its current bundle digest and, when the lock
   * requires them, its signature (`signers`: the allowed signers as read for several questions).
   */
  async check(skill: DiscoveredSkill, state?: LockState, signers?: Signers): Promise<Verdict> {
    const now = state ?? await this.state();
    if (!now.ok) return now;
    const entry = entryFor(now, skill)?.entry;
    const bundle = entry?.bundle_sha256 == null ? undefined : await this.bundleState(skill);
    const digest = typeof bundle === "object" ? bundle.sha256 : undefined;
    const verdict = verdictOf(now, skill, digest, typeof bundle === "string" ? bundle : undefined);
    return await signedVerdict(verdict, skill, signers ?? await this.signers(now));
  }

  /** The allowed signers the lock in force requires signatures by, read now (undefined: none). */
  signers(state: LockSnapshot): Promise<Signers> {
    return signersOf(state, this.file);
  }

  /** The skills among `skills` the lock allows now, in their order. */
  async allowed(skills: readonly DiscoveredSkill[]): Promise<DiscoveredSkill[]> {
    const state = await this.state();
    if (!state.ok) return [];
    const signers = await this.signers(state);
    const kept: DiscoveredSkill[] = [];
    for (const skill of skills) {
      if ((await this.check(skill, state, signers)).ok) kept.push(skill);
    }
    return kept;
  }

  /** The skill's bundle digest now; `undefined` when it cannot be bundled. */
  async bundleSha256(skill: DiscoveredSkill): Promise<string | undefined> {
    const state = await this.bundleState(skill);
    return typeof state === "object" ? state.sha256 : undefined;
  }

  /** The skill's bundle digest now, or why it cannot be bundled. */
  async bundleState(skill: DiscoveredSkill): Promise<{ sha256: string } | UnbundlableKind> {
    if (basename(skill.path) !== "SKILL.md") return "flat-file";
    try {
      const read = await readBundle(skill.directory, { digests: this.#digests });
      return { sha256: read.manifest.sha256 };
    } catch (error) {
      if (error instanceof BundleError) return unbundlableKindOf(error);
      throw error;
    }
  }
}

/** A bundle refusal's kind as the lock format names it (`unreadable` for any other). */
function unbundlableKindOf(error: BundleError): UnbundlableKind {
  return isUnbundlableKind(error.kind) ? error.kind : "unreadable";
}

async function readState(file: string, userFile?: string): Promise<LockState> {
  const read = await readProjectLock(file);
  if (read === undefined) return lockFileRefusal("no-lock", "project");
  if (!read.ok) return lockFileRefusal("invalid-lock", "project", read.message);
  const byName = new Map(read.lock.skills.map((s) => [s.name, s]));
  const user = userFile === undefined ? undefined : await readUserState(userFile);
  return { ok: true, lock: read.lock, sha256: read.sha256, byName, ...(user ? { user } : {}) };
}

/** The user lock at `file`: undefined when there is none, its refusal when it is invalid. */
async function readUserState(file: string): Promise<UserLockState | undefined> {
  const read = await readProjectLock(file);
  if (read === undefined) return undefined;
  if (!read.ok) return lockFileRefusal("invalid-lock", "user", read.message);
  const byPlace = new Map(read.lock.skills.map((s) => [placeKey(s.origin, s.path), s]));
  return { ok: true, file, lock: read.lock, sha256: read.sha256, byPlace };
}

/** Whose lock a lock-file refusal names. */
const LOCK_OWNER: Readonly<Record<LockKind, string>> = {
  project: "the project's",
  user: "the user's",
};

/** The one wording of each lock-file refusal, in neutral words (`why`: the reader's reason). */
const LOCK_FILE_WORDS: Readonly<
  Record<LockFileRefusalKind, (owner: string, why: string) => string>
> = {
  "no-lock": (owner) => `${owner} lock file is gone`,
  "invalid-lock": (owner, why) => `${owner} lock is invalid: ${why}`,
};

/**
 * The refusal of `lock`'s file that cannot be used (`why`: the reader's reason, for
 * `invalid-lock`), in the one wording of each kind; surfaces add their own words around it.
 *
 * @example
 * ```ts
 * import { lockFileRefusal } from "./locked.ts";
 * console.log(lockFileRefusal("invalid-lock", "user", "not valid JSON").message);
 * // "the user's lock is invalid: not valid JSON"
 * ```
 */
export function lockFileRefusal<K extends LockFileRefusalKind>(
  kind: K,
  lock: LockKind,
  why = "",
): Failure<K> {
  return failure(kind, LOCK_FILE_WORDS[kind](LOCK_OWNER[lock], why));
}

/** The file's identity (device, inode, size, times); `undefined` when it cannot be stat'ed. */
async function identityOf(file: string): Promise<string | undefined> {
  try {
    const s = await lstat(file, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return undefined;
  }
}

/** Whether a file with this identity last changed long enough ago to be trusted unchanged. */
function settled(key: string): boolean {
  const now = BigInt(Date.now()) * 1_000_000n;
  const [, , , mtime, ctime] = key.split(":").map(BigInt);
  return now - mtime > SETTLE_NS && now - ctime > SETTLE_NS;
}

/**
 * Opens `skill` under the lock: refused with the lock's reason unless it is
 * allowed, else `openSkill` with the locked digest as `expectedBundleSha256`
 * (the bytes returned are the ones checked) and the lock file's SHA-256 in the
 * receipt. A caller's own bundle pin that differs from the lock is refused as
 * `bundle-mismatch`; its other pins still apply.
 *
 * @example
 * ```ts
 * import { LockGate, openLocked } from "./locked.ts";
 * import type { DiscoveredSkill } from "./catalog/mod.ts";
 * async function example(skill: DiscoveredSkill) {
 *   const gate = new LockGate("/repo/skills-anywhere.lock.json");
 *   const result = await openLocked(gate, skill, { lenient: true });
 *   console.log(result.ok ? result.skill.receipt.lock_sha256 : result.kind);
 * }
 * ```
 */
export async function openLocked(
  gate: LockGate,
  skill: DiscoveredSkill,
  options: OpenOptions,
): Promise<LoadResult | Failure<LockRefusalKind>> {
  const state = await gate.state();
  if (!state.ok) return state;
  const entry = entryFor(state, skill)?.entry;
  const verdict = await signedVerdict(
    verdictOf(state, skill, entry?.bundle_sha256 ?? undefined),
    skill,
    await gate.signers(state),
  );
  if (!verdict.ok) return verdict;
  const pinned = options.expectedBundleSha256;
  if (pinned !== undefined && pinned !== verdict.bundleSha256) {
    return failure("bundle-mismatch", "the expected bundle digest is not the locked one");
  }
  const result = await openSkill(skill, {
    ...options,
    expectedBundleSha256: verdict.bundleSha256,
    lockSha256: verdict.lockSha256 ?? state.sha256,
    lock: verdict.lock ?? "project",
    signer: verdict.signer,
  });
  if (result.ok || pinned !== undefined) return result;
  if (result.kind === "bundle-mismatch") return changedNow(skill.name, verdict.lock);
  if (result.kind === "bundle-invalid") {
    const now = await gate.bundleState(skill);
    return unbundlableNow(skill.name, typeof now === "string" ? now : undefined);
  }
  return result;
}

/** What {@linkcode readLocked} returns: the skill parsed from the bundle bytes the lock allowed. */
export type LockedRead =
  | { ok: true; skill: ParsedSkill; lockSha256: string; lock: LockKind }
  | Failure<LockRefusalKind | "invalid">;

/**
 * Reads `skill`'s directory once, fresh, and parses its SKILL.md from those
 * bytes, only when their bundle digest is the locked one (for a surface that
 * serves the parsed skill itself, such as a registry's definition).
 *
 * @example
 * ```ts
 * import { LockGate, readLocked } from "./locked.ts";
 * import type { DiscoveredSkill } from "./catalog/mod.ts";
 * async function example(skill: DiscoveredSkill) {
 *   const read = await readLocked(new LockGate("/repo/skills-anywhere.lock.json"), skill, { lenient: true });
 *   console.log(read.ok ? read.skill.content : read.message);
 * }
 * ```
 */
export async function readLocked(
  gate: LockGate,
  skill: DiscoveredSkill,
  options: { lenient: boolean },
): Promise<LockedRead> {
  const state = await gate.state();
  if (!state.ok) return state;
  let read;
  let why: UnbundlableKind | undefined = basename(skill.path) === "SKILL.md"
    ? undefined
    : "flat-file";
  try {
    read = why === undefined ? await readBundle(skill.directory) : undefined;
  } catch (error) {
    if (!(error instanceof BundleError)) throw error;
    why = unbundlableKindOf(error);
  }
  const signers = await gate.signers(state);
  const verdict = await signedVerdict(
    verdictOf(state, skill, read?.manifest.sha256, why),
    skill,
    signers,
  );
  if (!verdict.ok) return verdict;
  const parsed = parseSkillBytes(read!.skillBytes, {
    fallbackName: skill.renamedFrom ?? skill.name,
    lenient: options.lenient,
    confineTo: skill.confineTo,
  });
  return parsed.ok
    ? {
      ok: true,
      skill: parsed.skill,
      lockSha256: verdict.lockSha256 ?? state.sha256,
      lock: verdict.lock ?? "project",
    }
    : parsed;
}
