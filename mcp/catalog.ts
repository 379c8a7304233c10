/**
 * The catalog as the MCP server sees it: one {@linkcode LiveCatalog} per
 * process (see `lib/catalog/_live.ts`), loaded once, kept in memory, updated
 * as files change and shared by every request and every client.
 *
 * A request never waits for a rescan: {@linkcode ServedCatalog.refresh}
 * answers from memory, once the changes already seen (by the watchers, the
 * fallback polling, or one `stat` of each root folder at most every 250 ms,
 * at once for a name not found) are applied — only the folders that changed
 * are walked again. So a skill installed a moment ago is opened by the next
 * request, and `find_skills`, `list_skills` and
 * `open_skill` all see the same catalog.
 *
 * Listeners added with {@linkcode ServedCatalog.onChange} hear, with no
 * request needed, of every update that changed what is listed (a skill added,
 * removed, renamed, edited, a file in its folder changed); after a Git source
 * changed ({@linkcode ServedCatalog.invalidate}) the catalog is reloaded in
 * the background. {@linkcode ServedCatalog.close} stops the watchers.
 *
 * Under a project lock (`lock`, a {@linkcode LockGate}), the skills offered to
 * the model are only those the lock allows now (the lock file and the skill
 * directories are read again when they changed).
 *
 * @example
 * ```ts
 * import { ServedCatalog } from "./catalog.ts";
 * import { resolveConfig } from "../lib/catalog/mod.ts";
 * const config = resolveConfig({}, { HOME: "/home/me" });
 * const catalog = new ServedCatalog(config, { cwd: "/repo" });
 * const skills = await catalog.modelSkills();
 * await catalog.close();
 * ```
 * @module
 */
import type { ResolvedConfig } from "../lib/catalog/mod.ts";
import { basename } from "node:path";
import type { DiscoveredSkill, DiscoveryReport, InvalidFile } from "../lib/catalog/mod.ts";
import { LiveCatalog, type LiveCatalogOptions } from "../lib/catalog/mod.ts";
import type { LockGate } from "../lib/locked.ts";
import { type Log, silentLog } from "../lib/util.ts";

/** Options of {@linkcode ServedCatalog}. */
export interface ServedCatalogOptions {
  /** Working directory (project selection). */
  cwd?: string;
  /** Diagnostics sink. */
  log?: Log;
  /**
   * The polling interval of the fallback, in milliseconds (default 2000): folders that cannot be
   * watched are polled this often (see `lib/catalog/_live.ts`).
   */
  cacheMs?: number;
  /** Serve only what this project lock allows. */
  lock?: LockGate;
  /**
   * The live catalog's own options (`mode: "poll"` polls every folder).
   *
   * @default {{ mode: "watch" }}
   */
  live?: Omit<LiveCatalogOptions, "cwd" | "log">;
}

/** The served, shared, live view of the catalog. */
export class ServedCatalog {
  /** The resolved configuration the catalog is built from. */
  readonly config: ResolvedConfig;
  /** The project lock enforced, when serving under one. */
  readonly lock?: LockGate;
  readonly #live: LiveCatalog;
  /** The skills a model may invoke, per report (the same array while the report stays). */
  readonly #invocable = new WeakMap<DiscoveryReport, DiscoveredSkill[]>();
  /** Each report's skills by name. */
  readonly #names = new WeakMap<DiscoveryReport, Map<string, DiscoveredSkill>>();

  /** Builds a catalog view over `config` for `options.cwd`; it loads on first use. */
  constructor(config: ResolvedConfig, options: ServedCatalogOptions = {}) {
    this.config = config;
    this.lock = options.lock;
    this.#live = new LiveCatalog(config, {
      pollMs: options.cacheMs,
      ...options.live,
      cwd: options.cwd,
      log: options.log ?? silentLog,
    });
  }

  /**
   * The report in memory (the first call waits for the first load), after the changes already
   * seen are applied; with `force`, after a full reload.
   */
  async refresh(force = false): Promise<DiscoveryReport> {
    if (force) await this.#live.reload();
    return await this.#live.report();
  }

  /**
   * Calls `listener` after each update that changed what is listed (no request needed); returns
   * the function that removes it. The catalog starts following its folders now.
   */
  onChange(listener: () => void): () => void {
    const off = this.#live.onChange(() => listener());
    this.#live.start().catch(() => {});
    return off;
  }

  /** Reloads the catalog in the background (after a Git source changed). */
  invalidate(): void {
    this.#live.reload().catch(() => {});
  }

  /**
   * Published skills whose author allows model invocation (and, under a lock, that the lock
   * allows now), in precedence order.
   */
  async modelSkills(force = false): Promise<DiscoveredSkill[]> {
    const report = await this.refresh(force);
    let skills = this.#invocable.get(report);
    if (skills === undefined) {
      skills = report.skills.filter((s) => s.invocation.modelInvocable);
      this.#invocable.set(report, skills);
    }
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

  /**
   * A published skill by exact name (any invocation), after the changes already seen; on a miss,
   * after every root folder was checked again (a skill installed a moment ago is found).
   */
  async lookup(name: string): Promise<DiscoveredSkill | undefined> {
    const find = (report: DiscoveryReport) => this.#byName(report).get(name);
    return find(await this.refresh()) ??
      find((await this.#live.catalog({ thorough: true })).report);
  }

  /** The report's skills by name (names are unique in a report), built once per report. */
  #byName(report: DiscoveryReport): Map<string, DiscoveredSkill> {
    let names = this.#names.get(report);
    if (names === undefined) {
      names = new Map(report.skills.map((skill) => [skill.name, skill]));
      this.#names.set(report, names);
    }
    return names;
  }

  /** Stops the watchers and timers (the server runners call it when they stop). */
  close(): Promise<void> {
    return this.#live.close();
  }
}
