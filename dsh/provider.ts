/**
 * The `skills-anywhere` skills provider for dsh's `ctx.skills` registry: the
 * catalog of every agent's folders, plugin marketplaces and Git sources,
 * published as ranked candidates with budget states; `get` reads the file
 * again and applies the author's current opt-out. Git sources sync in the
 * background; flat roots are watched so the registry is told when a skill is
 * added, edited or removed.
 *
 * @example
 * ```ts
 * import { SkillsAnywhereProvider } from "./provider.ts";
 * const provider = new SkillsAnywhereProvider(config, log, control);
 * const candidates = await provider.list({ cwd: "/repo" });
 * ```
 * @module
 */
import { type FSWatcher, unwatchFile, watch, watchFile } from "node:fs";
import { join } from "node:path";
import { applyCatalogBudget, type CatalogState } from "../lib/catalog/budget.ts";
import { findProjectRoot, type ResolvedConfig } from "../lib/catalog/config.ts";
import type { DiscoveredSkill, DiscoveryReport, Log } from "../lib/catalog/discover.ts";
import { loadCatalog } from "../lib/catalog/mod.ts";
import type { Root } from "../lib/catalog/roots.ts";
import { readSkillNow } from "../lib/load/fresh.ts";
import { collectSources, type UntrustedProject } from "../lib/sources/collect.ts";
import { mergeSources, projectSourcesFile, userSourcesFile } from "../lib/sources/files.ts";
import type { ResolvedSource } from "../lib/sources/resolve.ts";
import { syncAll, type SyncResult } from "../lib/sources/sync.ts";

/** What dsh hands a provider at registration. */
export interface ProviderControl {
  signal: AbortSignal;
  invalidate(): void;
}

/** Invocation flags as dsh models them. */
export interface Invocation {
  modelInvocable: boolean;
  userInvocable: boolean;
}

/** A dsh skill candidate. */
export interface Candidate {
  name: string;
  description: string;
  whenToUse?: string;
  invocation: Invocation;
  provider: string;
  source: string;
  rank: number;
  locator: { path: string; directory: string; confineTo?: string };
  path: string;
  resourceBase: { kind: "directory"; path: string };
  metadata: Record<string, unknown>;
}

/** A dsh skill definition (a candidate with its body). */
export interface Definition {
  name: string;
  description: string;
  whenToUse?: string;
  invocation: Invocation;
  source: string;
  provider: string;
  resourceBase: { kind: "directory"; path: string };
  path: string;
  metadata: Record<string, unknown>;
  content: string;
}

/** Budget and exclusion settings that can change while dsh runs. */
export interface RuntimeSettings {
  catalog?: { limit?: number; pin?: string[]; hide?: string[] };
  excludeSkills?: string[];
}

const DEBOUNCE_MS = 80;
const POLL_MS = 2000;
const MAX_WATCHED_PROJECTS = 32;

interface QueuedSync {
  promise: Promise<SyncResult[]>;
  projects: Set<string>;
  force: boolean;
}

interface ProjectView {
  report: DiscoveryReport;
  states: Map<string, CatalogState>;
}

/** The provider; dsh calls `list` and `get`, the plugin calls `dispose`. */
export class SkillsAnywhereProvider {
  readonly name: string;
  #config: ResolvedConfig;
  readonly #log: Log;
  readonly #control?: ProviderControl;
  readonly #views = new Map<string, ProjectView>();
  readonly #projects = new Set<string>();
  readonly #abort = new AbortController();
  readonly #watchers = new Map<string, FSWatcher>();
  readonly #watchedProjects = new Set<string>();
  readonly #polled = new Set<string>();
  readonly #noticed = new Set<string>();
  #timer?: ReturnType<typeof setInterval>;
  #debounce?: ReturnType<typeof setTimeout>;
  #running?: { promise: Promise<SyncResult[]>; covered: Set<string> };
  #queued?: QueuedSync;
  #results: SyncResult[] = [];
  #disposed = false;

  /** Builds the provider; starts the first sync when configured to. */
  constructor(config: ResolvedConfig, log: Log, control?: ProviderControl) {
    this.#config = config;
    this.name = config.providerName;
    this.#log = log;
    this.#control = control;
    control?.signal.addEventListener("abort", () => void this.dispose(), { once: true });
    if (config.sync && config.syncOnStart) void this.syncAll();
    if (config.sync && config.syncIntervalMs > 0) {
      this.#timer = setInterval(() => void this.syncAll(), config.syncIntervalMs);
      (this.#timer as { unref?: () => void }).unref?.();
    }
    if (config.watch) {
      this.#poll(userSourcesFile(config.dshHome), true);
      this.#poll(join(config.home, ".claude", "plugins", "known_marketplaces.json"), false);
      this.#poll(join(config.home, ".claude", "plugins", "installed_plugins.json"), false);
    }
  }

  /** The configuration in force. */
  get currentConfig(): ResolvedConfig {
    return this.#config;
  }

  /** The latest sync results. */
  syncResults(): SyncResult[] {
    return [...this.#results];
  }

  /** The candidates for `cwd` (its project roots and project sources file included). */
  async list(
    options: { cwd?: string; signal?: AbortSignal } = {},
  ): Promise<Candidate[] | { candidates: Candidate[]; complete: false }> {
    const projectRoot = options.cwd === undefined ? undefined : await findProjectRoot(options.cwd);
    if (projectRoot !== undefined && !this.#projects.has(projectRoot)) {
      this.#projects.add(projectRoot);
      if (this.#config.sync && this.#config.syncOnStart) void this.syncAll(options.cwd);
      if (this.#config.watch) this.#poll(projectSourcesFile(projectRoot), true);
    }
    const { report, roots, untrusted } = await loadCatalog(this.#config, {
      cwd: options.cwd,
      log: this.#log,
      signal: options.signal,
    });
    if (untrusted !== undefined) this.#noticeUntrusted(untrusted);
    this.#watch(roots, projectRoot);
    const states = this.#budget(report.skills);
    this.#views.set(projectRoot ?? "", { report, states });
    const candidates = report.skills.map((skill) =>
      this.#candidate(skill, states.get(skill.name)!)
    );
    return report.complete ? candidates : { candidates, complete: false };
  }

  /** The body of `candidate`, read now; `undefined` when it is gone or no longer a skill. */
  get(
    candidate: Candidate,
    _options: { signal?: AbortSignal } = {},
  ): Promise<Definition | undefined> {
    const now = readSkillNow(candidate.locator.path, {
      fallbackName: candidate.name,
      lenient: this.#config.lenient,
      confineTo: candidate.locator.confineTo,
    });
    if (!now.ok && now.kind === "missing") return Promise.resolve(undefined);
    if (!now.ok) {
      this.#log(
        "warn",
        `skills-anywhere: ${candidate.locator.path} became unreadable: ${now.message}`,
      );
      return Promise.resolve(undefined);
    }
    const current = now.skill.invocation;
    const meta = (candidate.metadata.skillsAnywhere ?? {}) as Record<string, unknown>;
    const definition: Definition = {
      name: candidate.name,
      description: now.skill.description,
      invocation: {
        modelInvocable: candidate.invocation.modelInvocable && current.modelInvocable,
        userInvocable: candidate.invocation.userInvocable && current.userInvocable,
      },
      source: candidate.source,
      provider: this.name,
      resourceBase: candidate.resourceBase,
      path: candidate.locator.path,
      metadata: {
        ...now.skill.metadata,
        ...candidate.metadata,
        skillsAnywhere: { ...meta, authorInvocation: current },
      },
      content: now.skill.content,
    };
    if (now.skill.whenToUse !== undefined) definition.whenToUse = now.skill.whenToUse;
    return Promise.resolve(definition);
  }

  /** `visible`, `hidden` or `disabled` for a published name, from the latest list of `cwd`. */
  async catalogState(name: string, cwd?: string): Promise<CatalogState | undefined> {
    const key = cwd === undefined ? "" : await findProjectRoot(cwd);
    return this.#views.get(key)?.states.get(name);
  }

  /** The latest discovery report for `cwd`. */
  async report(cwd?: string): Promise<DiscoveryReport | undefined> {
    const key = cwd === undefined ? "" : await findProjectRoot(cwd);
    return this.#views.get(key)?.report;
  }

  /** Replaces the budget and exclusions, forgets cached states and tells dsh at once. */
  reconfigure(settings: RuntimeSettings): void {
    const catalog = { ...this.#config.catalog };
    if (settings.catalog?.limit !== undefined) {
      catalog.limit = Math.max(0, Math.floor(settings.catalog.limit));
    }
    if (settings.catalog?.pin !== undefined) catalog.pin = [...settings.catalog.pin];
    if (settings.catalog?.hide !== undefined) catalog.hide = [...settings.catalog.hide];
    this.#config = {
      ...this.#config,
      catalog,
      excludeSkills: settings.excludeSkills === undefined
        ? this.#config.excludeSkills
        : [...settings.excludeSkills],
    };
    this.#views.clear();
    this.#control?.invalidate();
  }

  /** The Git sources for every project seen so far (or `cwd`'s). */
  async sources(cwd?: string): Promise<ResolvedSource[]> {
    const projects = new Set(this.#projects);
    if (cwd !== undefined) projects.add(await findProjectRoot(cwd));
    return await this.#collect(projects);
  }

  /** Configuration and user-file sources plus the project files of `projects`, merged. */
  async #collect(projects: Iterable<string>): Promise<ResolvedSource[]> {
    const lists = [(await collectSources(this.#config, undefined, this.#log)).sources];
    for (const project of projects) {
      // A project file waiting for trust is left out: it is never cloned.
      const { sources, untrusted } = await collectSources(this.#config, project, this.#log);
      lists.push(sources);
      if (untrusted !== undefined) this.#noticeUntrusted(untrusted);
    }
    return mergeSources(...lists);
  }

  /**
   * Syncs every Git source now. Concurrent calls share one run; a call with a
   * `cwd` or `force` during a run queues exactly one follow-up, which is
   * skipped when the finished run already covered its projects.
   */
  async syncAll(cwd?: string, options: { force?: boolean } = {}): Promise<SyncResult[]> {
    if (this.#disposed || !this.#config.sync) return [];
    const force = options.force ?? false;
    const project = cwd === undefined ? undefined : await findProjectRoot(cwd);
    if (project !== undefined) this.#projects.add(project);
    const running = this.#running;
    if (running === undefined) return await this.#start(force);
    if (project === undefined && !force) return await running.promise;
    let queued = this.#queued;
    if (queued === undefined) {
      const next: QueuedSync = {
        projects: new Set<string>(),
        force: false,
        promise: Promise.resolve([]),
      };
      next.promise = running.promise.catch((): SyncResult[] => []).then(
        async (): Promise<SyncResult[]> => {
          if (this.#queued === next) this.#queued = undefined;
          const fresh = [...next.projects].filter((p) => !running.covered.has(p));
          if (!next.force && !(await this.#anySourcesIn(fresh))) return this.#results;
          return await (this.#running?.promise ?? this.#start(next.force));
        },
      );
      this.#queued = queued = next;
    }
    if (project !== undefined) queued.projects.add(project);
    queued.force ||= force;
    return await queued.promise;
  }

  /** Whether a trusted project file of `projects` adds a source to the ones every run syncs. */
  async #anySourcesIn(projects: string[]): Promise<boolean> {
    if (projects.length === 0) return false;
    const base = (await collectSources(this.#config, undefined, () => {})).sources.length;
    for (const project of projects) {
      const { sources, untrusted } = await collectSources(this.#config, project, () => {});
      if (untrusted !== undefined) this.#noticeUntrusted(untrusted);
      if (sources.length > base) return true;
    }
    return false;
  }

  /** Says once per project file content that its sources wait for the user's trust. */
  #noticeUntrusted(untrusted: UntrustedProject): void {
    const key = `${untrusted.file}\0${untrusted.sha256}`;
    if (this.#noticed.has(key)) return;
    this.#noticed.add(key);
    this.#log(
      "warn",
      `skills-anywhere: ${untrusted.sources.length} Git sources in ${untrusted.file} are not ` +
        `trusted${
          untrusted.state === "changed" ? " (the file changed since it was trusted)" : ""
        }` +
        `: they are not cloned or listed; run \`dsh-skills-anywhere trust\` in ${untrusted.projectRoot} ` +
        "to review and allow them",
    );
  }

  #start(force: boolean): Promise<SyncResult[]> {
    const covered = new Set(this.#projects);
    const promise = (async () => {
      const sources = await this.#collect(covered);
      if (sources.length === 0) return [];
      const results = await syncAll(sources, {
        lockFile: this.#config.lockFile,
        force,
        timeoutMs: this.#config.syncTimeoutMs,
        signal: this.#abort.signal,
        log: this.#log,
      });
      this.#results = results;
      if (results.some((r) => r.status === "cloned" || r.status === "updated")) {
        this.#invalidateSoon();
      }
      return results;
    })().finally(() => {
      if (this.#running?.promise === promise) this.#running = undefined;
    });
    this.#running = { promise, covered };
    return promise;
  }

  #budget(skills: readonly DiscoveredSkill[]): Map<string, CatalogState> {
    const { limit, pin, hide } = this.#config.catalog;
    return applyCatalogBudget(skills, { limit, pin: new Set(pin), hide: new Set(hide) });
  }

  #candidate(skill: DiscoveredSkill, state: CatalogState): Candidate {
    const author = skill.invocation;
    const invocation = state === "hidden"
      ? { modelInvocable: false, userInvocable: author.userInvocable }
      : { ...author };
    const meta = skill.metadata.skillsAnywhere as Record<string, unknown>;
    const candidate: Candidate = {
      name: skill.name,
      description: skill.description,
      invocation,
      provider: this.name,
      source: skill.source,
      rank: skill.rank,
      locator: {
        path: skill.path,
        directory: skill.directory,
        ...(skill.confineTo === undefined ? {} : { confineTo: skill.confineTo }),
      },
      path: skill.path,
      resourceBase: { kind: "directory", path: skill.directory },
      metadata: {
        ...skill.metadata,
        skillsAnywhere: { ...meta, catalog: state, authorInvocation: { ...author } },
      },
    };
    if (skill.whenToUse !== undefined) candidate.whenToUse = skill.whenToUse;
    return candidate;
  }

  #invalidateSoon(): void {
    if (this.#control === undefined || this.#disposed) return;
    if (this.#debounce !== undefined) clearTimeout(this.#debounce);
    this.#debounce = setTimeout(() => {
      this.#debounce = undefined;
      if (!this.#disposed) this.#control?.invalidate();
    }, DEBOUNCE_MS);
  }

  #watch(roots: readonly Root[], projectRoot: string | undefined): void {
    if (!this.#config.watch || this.#control === undefined || this.#disposed) return;
    if (projectRoot !== undefined && !this.#watchedProjects.has(projectRoot)) {
      if (this.#watchedProjects.size >= MAX_WATCHED_PROJECTS) projectRoot = undefined;
      else this.#watchedProjects.add(projectRoot);
    }
    for (const root of roots) {
      if (root.mode !== "flat" || this.#watchers.has(root.path)) continue;
      if (root.project !== undefined && root.project !== projectRoot) continue;
      try {
        const watcher = watch(root.path, { persistent: false }, (_event, file) => {
          const name = typeof file === "string" ? file : "";
          if (name === "" || name.endsWith(".md") || !name.includes(".")) this.#invalidateSoon();
        });
        watcher.on("error", () => {
          watcher.close();
          this.#watchers.delete(root.path);
          this.#invalidateSoon();
        });
        this.#watchers.set(root.path, watcher);
      } catch {
        // Not there yet: it is picked up by a later list.
      }
    }
  }

  #poll(file: string, resync: boolean): void {
    if (this.#polled.has(file) || this.#disposed) return;
    this.#polled.add(file);
    watchFile(file, { interval: POLL_MS, persistent: false }, (current, previous) => {
      if (current.mtimeMs === previous.mtimeMs && current.size === previous.size) return;
      this.#invalidateSoon();
      if (resync) void this.syncAll(undefined, {});
    });
  }

  /** Stops timers, watchers and pollers, aborts git and waits for it. Idempotent. */
  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    if (this.#timer !== undefined) clearInterval(this.#timer);
    if (this.#debounce !== undefined) clearTimeout(this.#debounce);
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
    for (const file of this.#polled) unwatchFile(file);
    this.#abort.abort();
    await Promise.allSettled([this.#running?.promise, this.#queued?.promise]);
  }
}
