/**
 * The parse cache: what a one-shot catalog command (`list`, `show`, `search`,
 * `route`, `doctor`) keeps between runs so that an unchanged SKILL.md is
 * stamped (one `lstat`, `lib/fs/_stamp.ts`) instead of read and parsed. The
 * long-running server keeps the same in memory (`DiscoveryCache`); nothing
 * that pins, hashes or locks (`check`, `bundle`, `lock`, `verify`, a load)
 * uses either: they read the bytes.
 *
 * Format. One JSON document, written whole through the safe writer, mode 0600,
 * in the state directory (`<dshHome>/skills-anywhere/parse-cache.json`):
 *
 * ```text
 * {"format": "dsh-skills-anywhere parse cache", "version": "<tool version>",
 *  "revision": <PARSE_CACHE_REVISION>,
 *  "files": [[path, stamp, mode, name, nameDeclared, description,
 *             modelInvocable, userInvocable, metadata, warnings, whenToUse, body], …]}
 * ```
 *
 * `path` is the file as the walk found it, `stamp` its {@linkcode fileStampSync}
 * stamp, `mode` how it was parsed (`l` lenient or `s` strict, `f` a flat
 * `<name>.md` or `d` a directory's SKILL.md, `:`, the fallback name), then the
 * parse's fields (`whenToUse` `null` when absent; `warnings` the parse's own
 * repairs and notes) and `body`, the body's dedupe key (a length and hash,
 * never text). A row is used only when path, stamp and mode are all equal.
 *
 * What is kept. Only regular files (a link, a FIFO or a refused file is read
 * as always), only skills that parsed (a file that did not is read again, to
 * say why), only values JSON gives back exactly (a metadata value such as
 * `.inf` is not kept), and only a file whose last change was at least
 * {@linkcode SETTLE_MS} before it was stamped: a rewrite within the same
 * timestamp tick then cannot leave a stale row. Rows of files another run saw
 * (another project's folders) stay while the document fits in
 * {@linkcode MAX_PARSE_CACHE_BYTES}; beyond it only this run's rows are
 * written, and nothing when even those do not fit. A file that is gone never
 * matches again.
 *
 * Reading it. Bounded ({@linkcode MAX_PARSE_CACHE_BYTES}), without following
 * a link or blocking; a document of another version or revision, or one that
 * does not parse, is an empty cache, and a row of the wrong shape is skipped:
 * a damaged cache costs a full read, never a wrong catalog. A write that
 * fails (a read-only home) is silent: the cache only saves time.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ParseCache } from "./_parse_cache.ts";
 * const cache = ParseCache.load("/nonexistent/parse-cache.json");
 * assert.equal(cache.size, 0);
 * ```
 * @module
 */
import { readBoundedTextSync, writeWhole } from "../fs/mod.ts";
import { dirname } from "node:path";
import { isSkillName } from "../skill/mod.ts";
import type { Invocation } from "../skill/mod.ts";
import { isPlainObject } from "../util.ts";
import { VERSION } from "../version.ts";

/** The `format` of a parse cache document. */
const FORMAT = "dsh-skills-anywhere parse cache";

/**
 * Bumped whenever parsing or a kept field changes meaning, so no run trusts a
 * row an older parser wrote (`tests/parse_cache_test.ts` fails while the
 * parser's sources differ from the digest recorded beside this number).
 */
export const PARSE_CACHE_REVISION = 1;

/** How long after its last change a file must have been stamped for its row to be kept. */
export const SETTLE_MS = 1000;

/** Largest parse cache read or written (some 20,000 to 40,000 skills). */
export const MAX_PARSE_CACHE_BYTES = 16 * 1024 * 1024;

/** The parse fields a catalog record is made of (what `DiscoveredSkill` takes from a parse). */
export interface CachedParse {
  name: string;
  nameDeclared: boolean;
  description: string;
  invocation: Invocation;
  metadata: Record<string, unknown>;
  /** The parse's repairs and notes. */
  warnings: string[];
  whenToUse?: string;
}

/** One kept parse: the fields and the body's dedupe key. */
export interface CachedFile {
  parsed: CachedParse;
  body: string;
}

type Row = [
  path: string,
  stamp: string,
  mode: string,
  name: string,
  nameDeclared: boolean,
  description: string,
  modelInvocable: boolean,
  userInvocable: boolean,
  metadata: Record<string, unknown>,
  warnings: string[],
  whenToUse: string | null,
  body: string,
];

/** Whether JSON gives `value` back exactly (finite numbers but `-0`, plain objects, arrays). */
function jsonExact(value: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value) && !Object.is(value, -0);
  if (Array.isArray(value)) return value.every((item) => jsonExact(item, depth + 1));
  if (!isPlainObject(value) || Object.getPrototypeOf(value) !== Object.prototype) return false;
  for (const key in value) if (!jsonExact(value[key], depth + 1)) return false;
  return true;
}

const isText = (value: unknown): value is string => typeof value === "string";

/** The row `value` holds, or `undefined` when it is not one (see the module doc). */
function asRow(value: unknown): Row | undefined {
  if (!Array.isArray(value) || value.length !== 12) return undefined;
  const [path, stamp, mode, name, declared, description, model, user, metadata, warnings, when] =
    value;
  const ok = isText(path) && isText(stamp) && isText(mode) && isText(name) &&
    isSkillName(name) && typeof declared === "boolean" && isText(description) &&
    typeof model === "boolean" && typeof user === "boolean" && isPlainObject(metadata) &&
    Array.isArray(warnings) && warnings.every(isText) && (when === null || isText(when)) &&
    isText(value[11]);
  return ok ? value as Row : undefined;
}

/**
 * The parse cache of one run (see the module doc): {@linkcode ParseCache.load}
 * it, {@linkcode ParseCache.lookup} and {@linkcode ParseCache.record} files
 * while discovering, then {@linkcode ParseCache.save} it.
 */
export class ParseCache {
  #file: string;
  #within: string | undefined;
  #rows: Map<string, Row>;
  #seen = new Set<string>();
  #changed = false;
  /** Files taken from the cache, and files parsed and kept in this run. */
  readonly stats = { hits: 0, kept: 0 };

  private constructor(file: string, within: string | undefined, rows: Map<string, Row>) {
    this.#file = file;
    this.#within = within;
    this.#rows = rows;
  }

  /**
   * Reads the cache at `file`; an empty cache when it is missing, damaged or
   * of another version or revision. `within`: the folder {@linkcode save}
   * confines the file to (the safe writer's `within`; default the file's own
   * folder).
   */
  static load(file: string, options: { within?: string } = {}): ParseCache {
    const rows = new Map<string, Row>();
    const cache = new ParseCache(file, options.within, rows);
    let doc: unknown;
    try {
      doc = JSON.parse(readBoundedTextSync(file, { maxBytes: MAX_PARSE_CACHE_BYTES }));
    } catch {
      return cache;
    }
    if (
      !isPlainObject(doc) || doc.format !== FORMAT || doc.version !== VERSION ||
      doc.revision !== PARSE_CACHE_REVISION || !Array.isArray(doc.files)
    ) {
      return cache;
    }
    for (const value of doc.files) {
      const row = asRow(value);
      if (row !== undefined) rows.set(row[0], row);
    }
    return cache;
  }

  /** How many rows the cache holds. */
  get size(): number {
    return this.#rows.size;
  }

  /** The kept parse of `path` when its stamp and parse mode are the ones given. */
  lookup(path: string, stamp: string, mode: string): CachedFile | undefined {
    this.#seen.add(path);
    const row = this.#rows.get(path);
    if (row === undefined || row[1] !== stamp || row[2] !== mode) return undefined;
    this.stats.hits++;
    const parsed: CachedParse = {
      name: row[3],
      nameDeclared: row[4],
      description: row[5],
      invocation: { modelInvocable: row[6], userInvocable: row[7] },
      metadata: row[8],
      warnings: row[9],
    };
    if (row[10] !== null) parsed.whenToUse = row[10];
    return { parsed, body: row[11] };
  }

  /**
   * Keeps the parse of `path`, stamped `stamp` whose last change was at
   * `newest`, unless it changed too recently ({@linkcode SETTLE_MS}) or holds a
   * value JSON would not give back.
   */
  record(path: string, stamp: string, newest: number, mode: string, file: CachedFile): void {
    this.#seen.add(path);
    const { parsed } = file;
    if (Date.now() - newest < SETTLE_MS || !jsonExact(parsed.metadata)) {
      if (this.#rows.delete(path)) this.#changed = true;
      return;
    }
    this.#rows.set(path, [
      path,
      stamp,
      mode,
      parsed.name,
      parsed.nameDeclared,
      parsed.description,
      parsed.invocation.modelInvocable,
      parsed.invocation.userInvocable,
      parsed.metadata,
      [...parsed.warnings],
      parsed.whenToUse ?? null,
      file.body,
    ]);
    this.stats.kept++;
    this.#changed = true;
  }

  /**
   * Writes the cache when this run changed it (see the module doc); never
   * rejects. Resolves `true` when it wrote.
   */
  async save(): Promise<boolean> {
    if (!this.#changed) return false;
    const rows = [...this.#rows.values()];
    let bytes = encoded(rows);
    if (bytes.length > MAX_PARSE_CACHE_BYTES) {
      bytes = encoded(rows.filter((row) => this.#seen.has(row[0])));
      if (bytes.length > MAX_PARSE_CACHE_BYTES) return false;
    }
    try {
      await writeWhole(this.#file, bytes, {
        mode: 0o600,
        within: this.#within ?? dirname(this.#file),
      });
      this.#changed = false;
      return true;
    } catch {
      return false;
    }
  }
}

/** The document of `rows` as UTF-8. */
function encoded(rows: readonly Row[]): Uint8Array {
  const doc = { format: FORMAT, version: VERSION, revision: PARSE_CACHE_REVISION, files: rows };
  return new TextEncoder().encode(JSON.stringify(doc));
}
