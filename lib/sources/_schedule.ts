/**
 * The one background-sync scheduler, shared by the MCP server and the dsh
 * provider: it syncs every Git source in force on start, then on a timer,
 * and on request.
 *
 * Rules:
 * - One run at a time. A plain request during a run shares that run.
 * - A request that brings a project not seen before, or asks for `force`,
 *   during a run queues exactly one follow-up run (later such requests join
 *   it). The follow-up is skipped when the finished run already covered its
 *   projects, or when their trusted project files add no source.
 * - Only sources in force are synced: configuration, the user file, and a
 *   project file the user trusted. A project file waiting for trust is
 *   reported through `onUntrusted` and never cloned.
 * - A background run (start, timer, {@linkcode SyncScheduler.trigger}) that
 *   throws is logged as a warning, never an unhandled rejection.
 * - {@linkcode SyncScheduler.stop} clears the timer, aborts the running git
 *   command and resolves once the run (and a queued one) has settled.
 *
 * @example
 * ```ts
 * import { SyncScheduler } from "./_schedule.ts";
 * const scheduler = new SyncScheduler({
 *   sources: ["owner/repo"],
 *   sourcesFiles: true,
 *   dshHome: "/home/me/.dsh",
 *   cacheDir: "/home/me/.dsh/skills-anywhere/cache",
 *   lockFile: "/home/me/.dsh/skills-anywhere/lock.json",
 *   sync: true,
 *   syncOnStart: true,
 *   syncIntervalMs: 0,
 *   syncTimeoutMs: 120_000,
 * }, { log: () => {}, onChange: () => console.log("a source changed") });
 * scheduler.start(["/repo"]);
 * await scheduler.stop();
 * ```
 * @module
 */
import { errorText } from "../errors.ts";
import type { Log } from "../util.ts";
import {
  collectProjectSources,
  collectSources,
  type SourcesConfig,
  type UntrustedProject,
} from "./_collect.ts";
import { mergeSources } from "./_files.ts";
import type { ResolvedSource } from "./_resolve.ts";
import { syncAll, type SyncResult } from "./_sync.ts";

/** The settings the scheduler reads (a catalog configuration has them all). */
export interface ScheduleConfig extends SourcesConfig {
  /** Whether sources are synced at all. */
  sync: boolean;
  /** Sync once when {@linkcode SyncScheduler.start} runs. */
  syncOnStart: boolean;
  /** Time between background runs; 0 = no timer. */
  syncIntervalMs: number;
  /** Time allowed to one git command. */
  syncTimeoutMs: number;
  /** The lock file every run updates. */
  lockFile: string;
}

/** What the scheduler tells its owner. */
export interface ScheduleOptions {
  /** Progress and problems of collecting and syncing. */
  log: Log;
  /** Called after a run that cloned or updated a source (the catalog is stale). */
  onChange(): void;
  /** Called for a project file whose sources wait for the user's trust. */
  onUntrusted?(untrusted: UntrustedProject): void;
}

/** A sync request: a project to include (its trusted project file), and whether to re-fetch pins. */
export interface SyncRequest {
  /** A project root whose trusted project sources file is synced too. */
  project?: string;
  /** Re-fetch sources pinned to a commit even when checked out. */
  force?: boolean;
}

interface Run {
  promise: Promise<SyncResult[]>;
  /** The projects the run collected sources for. */
  covered: ReadonlySet<string>;
}

interface FollowUp {
  promise: Promise<SyncResult[]>;
  projects: Set<string>;
  force: boolean;
}

/** Whether a run changed a checkout. */
function changedAny(results: readonly SyncResult[]): boolean {
  return results.some((r) => r.status === "cloned" || r.status === "updated");
}

/** Syncs Git sources in the background, one run at a time (see the module doc). */
export class SyncScheduler {
  readonly #config: ScheduleConfig;
  readonly #options: ScheduleOptions;
  readonly #projects = new Set<string>();
  readonly #abort = new AbortController();
  #timer?: ReturnType<typeof setInterval>;
  #running?: Run;
  #followUp?: FollowUp;
  #latest: SyncResult[] = [];
  #stopped = false;

  /** Builds an idle scheduler; {@linkcode SyncScheduler.start} starts it. */
  constructor(config: ScheduleConfig, options: ScheduleOptions) {
    this.#config = config;
    this.#options = options;
  }

  /** Adds `projects`, then syncs now (`syncOnStart`) and starts the timer (`syncIntervalMs`). */
  start(projects: Iterable<string> = []): void {
    for (const project of projects) this.#projects.add(project);
    if (!this.#config.sync || this.#stopped) return;
    if (this.#config.syncOnStart) this.trigger();
    if (this.#config.syncIntervalMs > 0) {
      this.#timer = setInterval(() => this.trigger(), this.#config.syncIntervalMs);
      (this.#timer as { unref?: () => void }).unref?.();
    }
  }

  /** Remembers `project`; true when it was not known before. */
  addProject(project: string): boolean {
    if (this.#projects.has(project)) return false;
    this.#projects.add(project);
    return true;
  }

  /** The sources in force for every known project, plus `extra`'s. */
  async sources(extra?: string): Promise<ResolvedSource[]> {
    const projects = new Set(this.#projects);
    if (extra !== undefined) projects.add(extra);
    return await this.#collect(projects, this.#options.log);
  }

  /** Requests a run in the background; a failure is logged. */
  trigger(request: SyncRequest = {}): void {
    this.request(request).catch((error) =>
      this.#options.log("warn", `background sync failed: ${errorText(error)}`)
    );
  }

  /** Requests a run and resolves with its results (see the module doc for sharing and queueing). */
  async request(request: SyncRequest = {}): Promise<SyncResult[]> {
    if (this.#stopped || !this.#config.sync) return [];
    const force = request.force ?? false;
    if (request.project !== undefined) this.#projects.add(request.project);
    const running = this.#running;
    if (running === undefined) return await this.#start(force);
    if (request.project === undefined && !force) return await running.promise;
    const followUp = this.#followUp ?? this.#queue(running);
    if (request.project !== undefined) followUp.projects.add(request.project);
    followUp.force ||= force;
    return await followUp.promise;
  }

  /** Stops the timer, aborts git and waits for the running and queued runs. Idempotent. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#abort.abort();
    await Promise.allSettled([this.#running?.promise, this.#followUp?.promise]);
  }

  /** Queues the one follow-up of `running`. */
  #queue(running: Run): FollowUp {
    const next: FollowUp = { projects: new Set(), force: false, promise: Promise.resolve([]) };
    next.promise = running.promise.catch((): SyncResult[] => []).then(async () => {
      if (this.#followUp === next) this.#followUp = undefined;
      const fresh = [...next.projects].filter((p) => !running.covered.has(p));
      if (!next.force && !(await this.#addsSources(fresh))) return this.#latest;
      return await (this.#running?.promise ?? this.#start(next.force));
    });
    this.#followUp = next;
    return next;
  }

  /** Starts a run over the sources of every known project. */
  #start(force: boolean): Promise<SyncResult[]> {
    const covered = new Set(this.#projects);
    const promise = this.#run(covered, force).finally(() => {
      if (this.#running?.promise === promise) this.#running = undefined;
    });
    this.#running = { promise, covered };
    return promise;
  }

  async #run(projects: ReadonlySet<string>, force: boolean): Promise<SyncResult[]> {
    const sources = await this.#collect(projects, this.#options.log);
    if (sources.length === 0 || this.#abort.signal.aborted) return [];
    const results = await syncAll(sources, {
      lockFile: this.#config.lockFile,
      force,
      timeoutMs: this.#config.syncTimeoutMs,
      signal: this.#abort.signal,
      log: this.#options.log,
    });
    this.#latest = results;
    if (changedAny(results) && !this.#stopped) this.#options.onChange();
    return results;
  }

  /**
   * Configuration and user-file sources (read once) plus the trusted project
   * files of `projects`, merged.
   */
  async #collect(projects: Iterable<string>, log: Log): Promise<ResolvedSource[]> {
    const lists = [(await collectSources(this.#config, undefined, log)).sources];
    for (const project of projects) lists.push(await this.#projectSources(project, log));
    return mergeSources(...lists);
  }

  /** The sources `project`'s trusted file adds; an untrusted file is reported, not used. */
  async #projectSources(project: string, log: Log): Promise<ResolvedSource[]> {
    const { sources, untrusted } = await collectProjectSources(this.#config, project, log);
    if (untrusted !== undefined) this.#options.onUntrusted?.(untrusted);
    return sources;
  }

  /** Whether a trusted project file of `projects` adds a source to the ones every run syncs. */
  async #addsSources(projects: readonly string[]): Promise<boolean> {
    if (projects.length === 0) return false;
    const quiet: Log = () => {};
    const base = (await collectSources(this.#config, undefined, quiet)).sources;
    for (const project of projects) {
      const added = await this.#projectSources(project, quiet);
      if (mergeSources(base, added).length > base.length) return true;
    }
    return false;
  }
}
