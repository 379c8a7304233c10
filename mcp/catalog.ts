/**
 * The catalog as the MCP server sees it: discovered on demand, cached for a
 * few seconds, shared by concurrent requests, rescanned once on a miss so a
 * skill installed a moment ago is found.
 *
 * Within those seconds a request still notices a skill folder added or
 * removed: each root folder's modification and change times are noted after
 * a scan and compared (one `stat` per root) before the cache is used, so
 * `find_skills` and `list_skills` see what `open_skill` sees. An edit inside
 * a skill's own folder waits for the cache to expire.
 *
 * Listeners added with {@linkcode ServedCatalog.onChange} hear when a rescan
 * changed what is listed (a skill added or removed, renamed, moved, its
 * description or its invocation changed); after a Git source changed
 * ({@linkcode ServedCatalog.invalidate}) a rescan starts at once when anyone
 * listens, so the change is announced without waiting for a request.
 *
 * Under a project lock (`lock`, a {@linkcode LockGate}), the skills offered to
 * the model are only those the lock allows now (the lock file and the skill
 * directories are read again when they changed).
 *
 * @example
 * ```ts
 * import { ServedCatalog } from "./catalog.ts";
 * import { resolveConfig } from "../lib/catalog/config.ts";
 * const config = resolveConfig({}, { HOME: "/home/me" });
 * const catalog = new ServedCatalog(config, { cwd: "/repo" });
 * const skills = await catalog.modelSkills();
 * ```
 * @module
 */
import { statSync } from "node:fs";
import type { ResolvedConfig } from "../lib/catalog/config.ts";
import { basename } from "node:path";
import type { DiscoveredSkill, DiscoveryReport, InvalidFile } from "../lib/catalog/discover.ts";
import { loadCatalog } from "../lib/catalog/mod.ts";
import type { LockGate } from "../lib/load/locked.ts";
import { type Log, silentLog } from "../lib/util.ts";

/** Options of {@linkcode ServedCatalog}. */
export interface ServedCatalogOptions {
  /** Working directory (project selection). */
  cwd?: string;
  /** Diagnostics sink. */
  log?: Log;
  /** How long a discovery stays fresh, in milliseconds (default 3000). */
  cacheMs?: number;
  /** Serve only what this project lock allows. */
  lock?: LockGate;
}

/** A cached, shared view of the catalog. */
export class ServedCatalog {
  /** The resolved configuration the catalog is built from. */
  readonly config: ResolvedConfig;
  /** The project lock enforced, when serving under one. */
  readonly lock?: LockGate;
  readonly #cwd?: string;
  readonly #log: Log;
  readonly #cacheMs: number;
  #report?: DiscoveryReport;
  #at = 0;
  /** Each root folder's times when the report was made ("-": absent). */
  #stamps = new Map<string, string>();
  #inflight?: Promise<DiscoveryReport>;
  /** What the latest report lists, to tell a rescan that changed it. */
  #listing?: string;
  readonly #listeners = new Set<() => void>();

  /** Builds a catalog view over `config` for `options.cwd`. */
  constructor(config: ResolvedConfig, options: ServedCatalogOptions = {}) {
    this.config = config;
    this.#cwd = options.cwd;
    this.#log = options.log ?? silentLog;
    this.#cacheMs = options.cacheMs ?? 3000;
    this.lock = options.lock;
  }

  /** The latest report; rescans when stale or when `force` is set. Concurrent calls share a scan. */
  refresh(force = false): Promise<DiscoveryReport> {
    if (
      !force && this.#report && Date.now() - this.#at < this.#cacheMs && !this.#rootsChanged()
    ) {
      return Promise.resolve(this.#report);
    }
    if (this.#inflight && !force) return this.#inflight;
    const scan = loadCatalog(this.config, { cwd: this.#cwd, log: this.#log }).then(
      ({ report }) => {
        this.#report = report;
        this.#at = Date.now();
        this.#noteListing(report);
        this.#stamps = new Map(report.roots.map(({ root }) => [root.path, stampOf(root.path)]));
        return report;
      },
    ).finally(() => {
      if (this.#inflight === scan) this.#inflight = undefined;
    });
    this.#inflight = scan;
    return scan;
  }

  /** Whether a root folder was created, removed, or had an entry added or removed since the scan. */
  #rootsChanged(): boolean {
    for (const [path, stamp] of this.#stamps) if (stampOf(path) !== stamp) return true;
    return false;
  }

  /** Tells the listeners when `report` lists something else than the report before it. */
  #noteListing(report: DiscoveryReport): void {
    const listing = JSON.stringify(
      report.skills.map((s) => [s.name, s.path, s.description, s.invocation.modelInvocable]),
    );
    const changed = this.#listing !== undefined && this.#listing !== listing;
    this.#listing = listing;
    if (!changed) return;
    for (const listener of this.#listeners) {
      try {
        listener();
      } catch (error) {
        this.#log("warn", `catalog change listener failed: ${String(error)}`);
      }
    }
  }

  /**
   * Calls `listener` after each rescan that changed what is listed; returns the function that
   * removes it.
   */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Forgets the cached report (after a Git source changed); rescans now if anyone listens. */
  invalidate(): void {
    this.#at = 0;
    if (this.#listeners.size > 0) this.refresh(true).catch(() => {});
  }

  /**
   * Published skills whose author allows model invocation (and, under a lock, that the lock
   * allows now), in precedence order.
   */
  async modelSkills(force = false): Promise<DiscoveredSkill[]> {
    const skills = (await this.refresh(force)).skills.filter((s) => s.invocation.modelInvocable);
    return this.lock === undefined ? skills : await this.lock.allowed(skills);
  }

  /**
   * The file discovery skipped that would have been skill `name` (its folder,
   * or a flat file, has that name), from the latest report; `undefined` when
   * none.
   */
  async skipped(name: string): Promise<InvalidFile | undefined> {
    const report = await this.refresh();
    return report.invalid.find((file) => {
      const base = basename(file.path);
      return base === "SKILL.md"
        ? basename(file.path.slice(0, -8)) === name
        : base === `${name}.md`;
    });
  }

  /** A published skill by exact name (any invocation), rescanning once on a miss. */
  async lookup(name: string): Promise<DiscoveredSkill | undefined> {
    const find = (report: DiscoveryReport) => report.skills.find((s) => s.name === name);
    return find(await this.refresh()) ?? find(await this.refresh(true));
  }
}

/** A folder's modification and change times, "-" when absent, "?" when it cannot be read. */
function stampOf(path: string): string {
  try {
    const info = statSync(path, { throwIfNoEntry: false });
    return info === undefined ? "-" : `${info.mtimeMs}/${info.ctimeMs}`;
  } catch {
    return "?";
  }
}
