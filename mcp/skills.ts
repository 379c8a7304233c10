/**
 * The MCP Skills extension (SEP-2640) over the served catalog: a
 * `SkillSource` for the SDK's `SkillsExtension`. Every skill the model may
 * invoke that can be shared (see `lib/load/_share.ts`) is an entry: its
 * `SKILL.md` URI, its frontmatter as the SDK reads it, and every file of its
 * directory with `sha256:` digest and size — the rows `bundle --json`
 * reports. Each file is a resource `skill://<path>/<file>` whose last path
 * segment before the file is the frontmatter name: `skill://pdf/SKILL.md`,
 * or for a skill the catalog renamed for a collision, under the rename's
 * prefix (`skill://codex/configure/SKILL.md`), never under the new name.
 * Each URI names one file of one skill: the places are given by the core's
 * URI space (`lib/load/_uri_space.ts`, in the catalog's precedence order), and
 * a later skill whose root or files would meet an earlier one's is not
 * offered (the log says why; `doctor` lists it), never merged or written over.
 *
 * The offer is built once per catalog report and kept until the report
 * changes or a read finds a file changed. Each skill's read, entry and files
 * are kept by the catalog's skill object (an unchanged skill is the same
 * object in the next report), and digests by file identity
 * ({@linkcode DigestCache}), so a rebuild reads, digests and parses only what
 * changed. Reads are fresh and must match the published size and digest, or
 * they are refused (the core's verified read, `lib/load/_served.ts`); a read
 * is a map lookup and one bounded read and hash. `resources/list` comes in pages of
 * {@linkcode PAGE_SIZE} ({@linkcode attachSkills}).
 *
 * One verdict ({@linkcode skillVerdict}, the core's `shareVerdict`) decides
 * which skills are served: the tools refuse what the extension refuses, in
 * the same words. A `SKILL.md` the SDK's strict entry check refuses but the
 * catalog took (a description over 1,024 characters, cut by lenient mode) is
 * served with the catalog's name and description and the real digests.
 *
 * Under a project lock the offer holds only the skills the lock allows: their
 * bundle digest, from the same read as their rows, equals the locked one, so
 * every file served has the locked row's size and digest. A skill the lock
 * refuses is not listed, and any request for its URIs is refused with the
 * lock's reason; a lock that is gone or invalid refuses every request.
 *
 * @example
 * ```ts
 * import { McpServer } from "@modelcontextprotocol/server";
 * import { skillsExtension } from "./skills.ts";
 * import { ServedCatalog } from "./catalog.ts";
 * import { resolveConfig } from "../lib/catalog/mod.ts";
 * const catalog = new ServedCatalog(resolveConfig({}), { cwd: "/repo" });
 * const server = new McpServer({ name: "demo", version: "1.0.0" });
 * skillsExtension(catalog, () => {}).attach(server);
 * ```
 * @module
 */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type Resource,
  ResourceNotFoundError,
} from "@modelcontextprotocol/server";
import {
  DIRECTORY_MIME_TYPE,
  type Skill,
  SkillCatalogError,
  skillEntry,
  type SkillReadResult,
  SkillsExtension,
  type SkillSource,
} from "@modelcontextprotocol/server/ext/skills";
import { DigestCache } from "../lib/bundle/mod.ts";
import type { DiscoveredSkill, DiscoveryReport } from "../lib/catalog/mod.ts";
import {
  type Shareable,
  type SharedSkill,
  type ShareRefusal,
  shareSkills,
  shareVerdict,
  type ShareVerdictKind,
  SIZE_REFUSALS,
} from "../lib/load/mod.ts";
import { type Failure, failure } from "../lib/errors.ts";
import { type PublishedFile, readServedSync } from "../lib/load/mod.ts";
import { skillPath, skillRootUri } from "../lib/load/mod.ts";
import { type LockState, signedVerdict, type Signers, verdictOf } from "../lib/locked.ts";
import { compareCodeUnits, type Log, tryDecodeUtf8 } from "../lib/util.ts";
import type { ServedCatalog } from "./catalog.ts";

/**
 * Items per page of `skills/list`, `resources/list` and `resources/directory/read`. The SDK 2
 * client follows `nextCursor` by itself for at most 64 pages (`listMaxPages`), so 500 lets a
 * default client list 32,000 skills (a page of 100 failed it past 6,400); a page of 500 `SKILL.md`
 * resources is about 150 KB.
 */
export const PAGE_SIZE = 500;

/** One served file: where it is on disk and what was published for it. */
interface ServedFile extends PublishedFile {
  /** The catalog skill it belongs to. */
  skill: DiscoveredSkill;
  uri: string;
  mimeType: string;
}

/** What the catalog offers over the extension, built from one catalog report. */
interface Offer {
  /** Entries sorted by URI (the one order for pages and cursors). */
  entries: Skill[];
  byUri: Map<string, Skill>;
  files: Map<string, ServedFile>;
  dirs: Map<string, Resource[]>;
  listed: Resource[];
  /** Under a lock: the root URI of each refused skill and why. */
  refused: Map<string, string>;
  /** Under a lock that is gone or invalid: why nothing is served. */
  blocked?: string;
  /** By SKILL.md path: the root URI of each served skill, or why the verdict refuses it. */
  verdicts: Map<string, Verdict>;
}

/** The one verdict on a catalog skill: served under a root URI, or refused with the reason. */
export type Verdict = { ok: true; root: string } | Failure<ShareVerdictKind | "gone">;

/** A served skill before it joins the offer. */
interface Built {
  skill: DiscoveredSkill;
  entry: Skill;
  root: string;
  files: ServedFile[];
}

const MIME_TYPES: Record<string, string> = {
  md: "text/markdown",
  txt: "text/plain",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  py: "text/x-python",
  sh: "application/x-sh",
  js: "text/javascript",
  ts: "text/typescript",
  html: "text/html",
  png: "image/png",
  pdf: "application/pdf",
};

function mimeTypeOf(path: string): string {
  const dot = path.lastIndexOf(".");
  const extension = dot <= path.lastIndexOf("/") + 1 ? "" : path.slice(dot + 1).toLowerCase();
  return Object.hasOwn(MIME_TYPES, extension) ? MIME_TYPES[extension] : "application/octet-stream";
}

/** A URI in the one spelling lookups use (WHATWG serialisation, no fragment); `undefined` if none. */
function uriKey(uri: string): string | undefined {
  try {
    const url = new URL(uri);
    url.hash = "";
    return url.href;
  } catch {
    return undefined;
  }
}

/**
 * The MCP surface's words for a lock's refusal (`message` is the core's), shared by the tools
 * and the Skills extension.
 *
 * @example
 * ```ts
 * import { lockRefusal } from "./skills.ts";
 * lockRefusal('skill "pdf" changed since it was locked');
 * ```
 */
export function lockRefusal(message: string): string {
  return `${message}; this server serves only skills whose bundle matches their lock: the project's, or the user's for a personal skill (--locked)`;
}

/** Whether this is a skill the extension may offer at all: the author allows the model. */
const offerable = (skill: DiscoveredSkill) => skill.invocation.modelInvocable;

/**
 * The `SkillSource` over one served catalog; shared by every server of the
 * process (one per catalog, see {@linkcode skillsExtension}).
 */
class CatalogSkillSource implements SkillSource {
  readonly #catalog: ServedCatalog;
  readonly #log: Log;
  readonly #digests = new DigestCache();
  /**
   * Per catalog skill object (an unchanged skill is the same object in the next report): how
   * reading it went, and what it became in the offer under which root. A rebuild reads, digests
   * and parses only skills it has not seen.
   */
  readonly #reads = new WeakMap<DiscoveredSkill, Shareable | Failure<ShareRefusal>>();
  readonly #built = new WeakMap<DiscoveredSkill, Built>();
  /**
   * Entries by skill path, SKILL.md digest and catalog description, from the last build: a
   * catalog that gives new objects for unchanged skills still has their frontmatter parsed once.
   */
  #entries = new Map<string, Skill>();
  #nextEntries = new Map<string, Skill>();
  #offer?: { report: DiscoveryReport; lock?: string; offer: Promise<Offer> };
  /** Refusals already logged, so a rebuild does not repeat them. */
  readonly #said = new Set<string>();

  constructor(catalog: ServedCatalog, log: Log) {
    this.#catalog = catalog;
    this.#log = log;
  }

  /** The offer of the current report, built once per report (concurrent callers share it). */
  async #current(): Promise<Offer> {
    const report = await this.#catalog.refresh();
    const lock = await this.#catalog.lock?.state();
    // The user lock is part of the key: a personal skill it newly covers (or no longer) is offered anew.
    const user = lock?.ok ? lock.user : undefined;
    const userKey = user === undefined ? "" : user.ok ? user.sha256 : user.message;
    const lockKey = lock === undefined
      ? undefined
      : lock.ok
      ? `${lock.sha256}|${userKey}`
      : lock.message;
    if (this.#offer?.report !== report || this.#offer.lock !== lockKey) {
      const offer = this.#build(report, lock);
      this.#offer = { report, lock: lockKey, offer };
      offer.catch(() => {
        if (this.#offer?.offer === offer) this.#offer = undefined;
      });
    }
    return await this.#offer.offer;
  }

  /**
   * The verdict on `skill` in the current offer: its root URI when it is served, the reason
   * when it is refused, `undefined` when the offer says nothing of it
   * (a skill the lock refuses, or no offer under a broken lock: those refusals are the load's).
   */
  async verdict(skill: DiscoveredSkill): Promise<Verdict | undefined> {
    return toolVerdict((await this.#current()).verdicts.get(skill.path));
  }

  /** Every verdict of the current offer, by SKILL.md path (see {@linkcode verdict}). */
  async verdicts(): Promise<ReadonlyMap<string, Verdict>> {
    return (await this.#current()).verdicts;
  }

  /** Forgets the offer and what `skill` was read as: the next request reads it again. */
  #stale(skill: DiscoveredSkill): void {
    this.#reads.delete(skill);
    this.#built.delete(skill);
    this.#offer = undefined;
  }

  async #build(report: DiscoveryReport, lock: LockState | undefined): Promise<Offer> {
    if (lock !== undefined && !lock.ok) return { ...assemble([]), blocked: lock.message };
    const built: Built[] = [];
    const refused = new Map<string, string>();
    const verdicts = new Map<string, Verdict>();
    const signers = lock?.ok ? await this.#catalog.lock?.signers(lock) : undefined;
    // One place per skill in the skill:// space, in precedence order, before the lock's verdict:
    // what each URI names does not depend on --locked, and doctor reports the same refusals.
    const shared = await shareSkills(report.skills.filter(offerable), {
      digests: this.#digests,
      lenient: this.#catalog.config.lenient,
      known: this.#reads,
    });
    this.#nextEntries = new Map();
    for (const one of shared) {
      const served = await this.#buildOne(one, lock, refused, signers, verdicts);
      if (served !== undefined) built.push(served);
    }
    this.#entries = this.#nextEntries;
    return { ...assemble(built), refused, verdicts };
  }

  /** One skill's entry and files, or `undefined` (refusal logged) when it cannot be served. */
  async #buildOne(
    one: SharedSkill,
    lock: LockState | undefined,
    refused: Map<string, string>,
    signers: Signers | undefined,
    verdicts: Map<string, Verdict>,
  ): Promise<Built | undefined> {
    const { skill, shared, place } = one;
    const locked = lock?.ok
      ? await signedVerdict(
        verdictOf(lock, skill, shared.ok ? shared.bundleSha256 : undefined),
        skill,
        signers,
      )
      : undefined;
    if (locked?.ok === false) {
      const root = skillRootUri(skillPath(skill));
      if (root !== undefined) refused.set(root, locked.message);
      return this.#refuse(skill, locked.message);
    }
    const verdict = shareVerdict(one);
    if (verdict !== undefined) {
      verdicts.set(skill.path, verdict);
      return this.#refuse(skill, verdict.message);
    }
    if (!shared.ok || place === undefined || !place.ok) return undefined; // refused above
    const known = this.#built.get(skill);
    if (known !== undefined && known.root === place.root) {
      verdicts.set(skill.path, { ok: true, root: place.root });
      return known;
    }
    let directory: string;
    try {
      directory = realpathSync(skill.directory);
    } catch {
      const gone = failure("gone", "its folder is gone");
      verdicts.set(skill.path, gone);
      return this.#refuse(skill, gone.message);
    }
    let flat: string | undefined;
    try {
      flat = shared.flatFile === undefined ? undefined : realpathSync(shared.flatFile);
    } catch {
      return this.#refuse(skill, "its file is gone");
    }
    const files = shared.files.map((row, i): ServedFile => ({
      skill,
      uri: place.uris[i],
      // A single Markdown file is its skill's one file, served as SKILL.md.
      abs: flat ?? join(directory, ...row.path.split("/")),
      size: row.bytes,
      sha256: row.sha256,
      mimeType: mimeTypeOf(row.path),
    })).sort((a, b) => compareCodeUnits(a.uri, b.uri));
    const resources = files.map((f) => ({
      uri: f.uri,
      digest: `sha256:${f.sha256}`,
      size: f.size,
    }));
    const skillMd = shared.files.find((f) => f.path === "SKILL.md")!;
    const key = `${place.root}\0${skillMd.sha256}\0${skill.description}`;
    let base = this.#entries.get(key);
    if (base === undefined) {
      const bytes = shared.skillBytes ?? listedBytes(files, `${place.root}/SKILL.md`, skillMd);
      if (bytes === undefined) {
        // Changed since it was read: read again at the next build.
        this.#reads.delete(skill);
        return this.#refuse(skill, "its SKILL.md changed while it was listed");
      }
      base = await entryOf(place.claim.path, place.root, bytes, skill);
    }
    this.#nextEntries.set(key, base);
    const built = { skill, entry: { ...base, resources }, root: place.root, files };
    this.#built.set(skill, built);
    // The entry is built: the read keeps its rows and digests, not the file's text.
    if (shared.skillBytes !== undefined) {
      this.#reads.set(skill, { ...shared, skillBytes: undefined });
    }
    verdicts.set(skill.path, { ok: true, root: place.root });
    return built;
  }

  #refuse(skill: DiscoveredSkill, reason: string): undefined {
    const line = `skill "${skill.name}" is not offered as an MCP skill: ${reason} (${skill.path})`;
    if (!this.#said.has(line)) this.#log("warn", line);
    this.#said.add(line);
    return undefined;
  }

  async list({ cursor }: { cursor?: string }): Promise<{ skills: Skill[]; nextCursor?: string }> {
    const { items, nextCursor } = page((await this.#current()).entries, cursor, (s) => s.uri);
    return nextCursor === undefined ? { skills: items } : { skills: items, nextCursor };
  }

  async get(uri: string): Promise<Skill | undefined> {
    const key = uriKey(uri);
    if (key === undefined) return undefined;
    const offer = await this.#current();
    return offer.byUri.get(key) ?? refuseLocked(offer, key);
  }

  async read(uri: string): Promise<SkillReadResult | undefined> {
    const offer = await this.#current();
    const key = uriKey(uri);
    const file = key === undefined ? undefined : offer.files.get(key);
    if (file !== undefined) {
      const served = this.#readChecked(file);
      if (served !== undefined) return served;
      // The file changed since the offer was built: build it again (only changed files are
      // re-read) and serve the fresh bytes when they verify against the new offer.
      this.#stale(file.skill);
      const fresh = await this.#current();
      const again = fresh.files.get(file.uri);
      const bytes = again === undefined ? undefined : this.#readChecked(again);
      if (bytes !== undefined) return bytes;
      // Under a lock the fresh offer may refuse the skill now: say the lock's reason.
      if (again === undefined) refuseLocked(fresh, file.uri);
      // No longer served: the rebuild logged why. Still served: it changed again as it was read.
      if (again !== undefined) {
        this.#log("warn", `${file.uri}: ${file.abs} changed while it was read; not served`);
      }
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        again === undefined
          ? `${file.uri} is no longer served; list the skills again`
          : `${file.uri} changed while it was read; read it again`,
      );
    }
    if (key !== undefined && offer.dirs.has(key)) {
      throw new ResourceNotFoundError(uri, `${uri} is a directory; use resources/directory/read`);
    }
    return key === undefined ? undefined : refuseLocked(offer, key);
  }

  /**
   * The file's bytes now when they are exactly what the offer published (the core's verified
   * read, `readServedSync`); `undefined` if not.
   */
  #readChecked(file: ServedFile): SkillReadResult | undefined {
    const read = readServedSync(file);
    if (!read.ok) return undefined;
    const text = tryDecodeUtf8(read.bytes);
    return text === undefined
      ? { bytes: read.bytes, mimeType: file.mimeType }
      : { text, mimeType: file.mimeType };
  }

  async readDirectory(
    uri: string,
    { cursor }: { cursor?: string },
  ): Promise<{ resources: Resource[]; nextCursor?: string } | undefined> {
    const key = uriKey(uri);
    if (key === undefined) return undefined;
    const offer = await this.#current();
    const children = offer.dirs.get(key);
    if (children === undefined) return refuseLocked(offer, key);
    const { items, nextCursor } = page(children, cursor, (r) => r.uri);
    return nextCursor === undefined ? { resources: items } : { resources: items, nextCursor };
  }

  async listResources(): Promise<Resource[]> {
    return [...(await this.#current()).listed];
  }

  /** One page of `resources/list` (each served `SKILL.md`, by URI) after `cursor`. */
  async listResourcesPage(
    cursor?: string,
  ): Promise<{ resources: Resource[]; nextCursor?: string }> {
    const { items, nextCursor } = page((await this.#current()).listed, cursor, (r) => r.uri);
    return nextCursor === undefined ? { resources: items } : { resources: items, nextCursor };
  }
}

/**
 * The entry of a skill at `path` (root URI `root`): its frontmatter as the SDK reads the
 * `SKILL.md` bytes; when the SDK refuses them but the catalog took the skill (lenient mode cut
 * a description over 1,024 characters, or took the name from the folder), the catalog's name
 * and description. The resources (with the real files' digests) are added by the caller.
 */
async function entryOf(
  path: string,
  root: string,
  bytes: Uint8Array<ArrayBuffer>,
  skill: DiscoveredSkill,
): Promise<Skill> {
  try {
    const entry = await skillEntry(path, { "SKILL.md": bytes });
    // The SDK spells the root as the URI space does; if it did not, the catalog's entry is used.
    if (entry.uri === `${root}/SKILL.md`) return entry;
  } catch (error) {
    if (!(error instanceof SkillCatalogError)) throw error;
  }
  const name = path.split("/").pop()!;
  return {
    uri: `${root}/SKILL.md`,
    frontmatter: { name, description: skill.description },
    resources: [],
  };
}

/**
 * The SKILL.md bytes of a skill whose read dropped them, read again from `files` (the one at
 * `uri`) by the core's verified read; `undefined` unless they are exactly the listed size and
 * digest.
 */
function listedBytes(
  files: readonly ServedFile[],
  uri: string,
  row: { bytes: number; sha256: string },
): Uint8Array<ArrayBuffer> | undefined {
  const file = files.find((f) => f.uri === uri);
  if (file === undefined) return undefined;
  const read = readServedSync({ abs: file.abs, size: row.bytes, sha256: row.sha256 });
  return read.ok ? read.bytes : undefined;
}

/**
 * Under a lock, a URI of a skill the lock refuses (or any URI, when the lock is gone or invalid)
 * is refused with the reason; otherwise `undefined` (not served).
 */
function refuseLocked(offer: Offer, key: string): undefined {
  let why = offer.blocked;
  for (const [root, message] of offer.refused) {
    if (why === undefined && (key === root || key.startsWith(`${root}/`))) why = message;
  }
  if (why === undefined) return undefined;
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, lockRefusal(why));
}

/** What an opaque cursor says before it is encoded: the last key of the page before. */
const CURSOR_PREFIX = "after:";

/** An opaque cursor naming the last key of a page (base64url of `after:<key>`). */
function encodeCursor(key: string): string {
  const bytes = new TextEncoder().encode(CURSOR_PREFIX + key);
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** The key a cursor from {@linkcode encodeCursor} names; `undefined` for anything else. */
function decodeCursor(cursor: string): string | undefined {
  if (!/^[A-Za-z0-9_-]{1,8192}$/.test(cursor)) return undefined;
  try {
    const text = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    const decoded = tryDecodeUtf8(Uint8Array.from(text, (c) => c.charCodeAt(0)));
    if (decoded === undefined || !decoded.startsWith(CURSOR_PREFIX)) return undefined;
    const key = decoded.slice(CURSOR_PREFIX.length);
    return encodeCursor(key) === cursor && uriKey(key) === key ? key : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One page of `items` (sorted by `keyOf`) after `cursor`, an opaque cursor this server gave;
 * any other cursor is refused (-32602).
 */
function page<T>(items: T[], cursor: string | undefined, keyOf: (item: T) => string) {
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  if (cursor !== undefined && after === undefined) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid cursor");
  }
  const start = after === undefined ? 0 : items.findIndex((item) => keyOf(item) > after);
  const from = start === -1 ? items.length : start;
  const slice = items.slice(from, from + PAGE_SIZE);
  const more = from + PAGE_SIZE < items.length;
  return {
    items: slice,
    nextCursor: more ? encodeCursor(keyOf(slice[slice.length - 1])) : undefined,
  };
}

/** The offer's lookups: entries by URI, files by URI, each directory's children, the listing. */
function assemble(built: Built[]): Offer {
  const entries = built.map((b) => b.entry).sort((a, b) => compareCodeUnits(a.uri, b.uri));
  const files = new Map<string, ServedFile>();
  const dirs = new Map<string, Map<string, Resource>>();
  for (const { root, files: own } of built) {
    dirs.set(root, dirs.get(root) ?? new Map());
    for (const file of own) {
      files.set(file.uri, file);
      addToDirs(dirs, root, file);
    }
  }
  const sorted = new Map(
    [...dirs].map(([uri, children]) => [
      uri,
      [...children.values()].sort((a, b) => compareCodeUnits(a.uri, b.uri)),
    ]),
  );
  const listed = built.map(({ skill, entry, files }) => ({
    uri: entry.uri,
    name: entry.frontmatter.name,
    title: skill.name,
    description: entry.frontmatter.description,
    mimeType: "text/markdown",
    size: files.find((f) => f.uri === entry.uri)?.size,
  })).sort((a, b) => compareCodeUnits(a.uri, b.uri));
  const byUri = new Map(entries.map((e) => [e.uri, e]));
  return { entries, byUri, files, dirs: sorted, listed, refused: new Map(), verdicts: new Map() };
}

/** Adds `file` and every folder on its way below `root` to the children of their parents. */
function addToDirs(dirs: Map<string, Map<string, Resource>>, root: string, file: ServedFile) {
  const segments = file.uri.slice(root.length + 1).split("/");
  let parent = root;
  for (const [index, segment] of segments.entries()) {
    const uri = `${parent}/${segment}`;
    const children = dirs.get(parent) ?? new Map<string, Resource>();
    dirs.set(parent, children);
    const name = decodeURIComponent(segment);
    if (index === segments.length - 1) {
      children.set(uri, { uri, name, mimeType: file.mimeType, size: file.size });
    } else {
      children.set(uri, { uri, name, mimeType: DIRECTORY_MIME_TYPE });
      parent = uri;
    }
  }
}

/**
 * The one verdict on `skill` (from `catalog`'s current report) shared by the tools and the Skills
 * extension: its root URI when served, the reason when refused, `undefined` when the extension
 * says nothing of it (a lock's refusal: the load words those).
 *
 * @example
 * ```ts
 * import { skillVerdict } from "./skills.ts";
 * import { ServedCatalog } from "./catalog.ts";
 * import { resolveConfig } from "../lib/catalog/mod.ts";
 * const catalog = new ServedCatalog(resolveConfig({}), { cwd: "/repo" });
 * const pdf = await catalog.lookup("pdf");
 * if (pdf !== undefined) console.log(await skillVerdict(catalog, () => {}, pdf));
 * ```
 */
export async function skillVerdict(
  catalog: ServedCatalog,
  log: Log,
  skill: DiscoveredSkill,
): Promise<Verdict | undefined> {
  skillsExtension(catalog, log);
  return await sources.get(catalog)!.verdict(skill);
}

/**
 * `skills` less those the one verdict refuses (see {@linkcode skillVerdict}); one offer for all.
 *
 * @example
 * ```ts
 * import { servedOnly } from "./skills.ts";
 * import { ServedCatalog } from "./catalog.ts";
 * import { resolveConfig } from "../lib/catalog/mod.ts";
 * const catalog = new ServedCatalog(resolveConfig({}), { cwd: "/repo" });
 * const served = await servedOnly(catalog, () => {}, await catalog.modelSkills());
 * ```
 */
export async function servedOnly(
  catalog: ServedCatalog,
  log: Log,
  skills: DiscoveredSkill[],
): Promise<DiscoveredSkill[]> {
  skillsExtension(catalog, log);
  const verdicts = await sources.get(catalog)!.verdicts();
  // The same skills under the same verdicts give the same array (the search index then has
  // nothing to do): a catalog between changes hands over the same list on every request.
  const known = servedLists.get(skills);
  if (known?.verdicts === verdicts) return known.served;
  const served = skills.filter((skill) => toolVerdict(verdicts.get(skill.path))?.ok !== false);
  servedLists.set(skills, { verdicts, served });
  return served;
}

/** The last {@linkcode servedOnly} answer for each list of skills, with the verdicts it used. */
const servedLists = new WeakMap<
  DiscoveredSkill[],
  { verdicts: ReadonlyMap<string, Verdict>; served: DiscoveredSkill[] }
>();

/**
 * The verdict as the tools apply it: a SKILL.md that no longer parses or that its author
 * disabled is refused by the load itself, fresh, in its own words; the size limits of sharing
 * every file do not concern a tool that serves the instructions alone (`doctor` lists them).
 */
function toolVerdict(verdict: Verdict | undefined): Verdict | undefined {
  if (verdict?.ok !== false) return verdict;
  const loads = verdict.kind === "invalid" || verdict.kind === "disabled";
  return loads || SIZE_REFUSALS.has(verdict.kind) ? undefined : verdict;
}

const extensions = new WeakMap<ServedCatalog, SkillsExtension>();
const sources = new WeakMap<ServedCatalog, CatalogSkillSource>();

/**
 * The Skills extension over `catalog`, one per catalog (every server of the process attaches the
 * same one, so entries and digests are built once). Entries are private to this machine and
 * never cached by the client (`ttlMs` 0).
 *
 * @example
 * ```ts
 * import { McpServer } from "@modelcontextprotocol/server";
 * import { skillsExtension } from "./skills.ts";
 * import { ServedCatalog } from "./catalog.ts";
 * import { resolveConfig } from "../lib/catalog/mod.ts";
 * const catalog = new ServedCatalog(resolveConfig({}), { cwd: "/repo" });
 * skillsExtension(catalog, () => {}).attach(new McpServer({ name: "demo", version: "1.0.0" }));
 * ```
 */
export function skillsExtension(catalog: ServedCatalog, log: Log): SkillsExtension {
  let extension = extensions.get(catalog);
  if (extension === undefined) {
    const source = new CatalogSkillSource(catalog, log);
    sources.set(catalog, source);
    extension = new SkillsExtension({
      source,
      cacheHint: { ttlMs: 0, cacheScope: "private" },
      onWarning: (warning) => log("warn", `${warning.path}: ${warning.message}`),
    });
    extensions.set(catalog, extension);
  }
  return extension;
}

/**
 * Attaches the Skills extension over `catalog` to `server` and pages its `resources/list`: the
 * SDK's handler lists every resource of the template at once and ignores the cursor, so it is
 * replaced by one that gives {@linkcode PAGE_SIZE} `SKILL.md` resources a page, sorted by URI,
 * with an opaque cursor (any other cursor is -32602). Both SDK generations follow `nextCursor`.
 *
 * @example
 * ```ts
 * import { McpServer } from "@modelcontextprotocol/server";
 * import { attachSkills } from "./skills.ts";
 * import { ServedCatalog } from "./catalog.ts";
 * import { resolveConfig } from "../lib/catalog/mod.ts";
 * const catalog = new ServedCatalog(resolveConfig({}), { cwd: "/repo" });
 * attachSkills(new McpServer({ name: "demo", version: "1.0.0" }), catalog, () => {});
 * ```
 */
export function attachSkills(server: McpServer, catalog: ServedCatalog, log: Log): void {
  skillsExtension(catalog, log).attach(server);
  const source = sources.get(catalog)!;
  server.server.removeRequestHandler("resources/list");
  server.server.setRequestHandler(
    "resources/list",
    (request) => source.listResourcesPage(request.params?.cursor),
  );
}
