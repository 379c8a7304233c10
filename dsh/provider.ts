/**
 * The `skills-anywhere` skills provider for dsh's `ctx.skills` registry: the
 * catalog of every agent's folders, plugin marketplaces and Git sources,
 * published as ranked candidates with budget states; `get` reads the file
 * again and applies the author's current opt-out. Git sources sync in the
 * background (the shared scheduler of `lib/sources/_schedule.ts`); flat roots
 * are watched (`watch.ts`) so the registry is told when a skill is added,
 * edited or removed. The records dsh sees are built in `record.ts`, the
 * per-project views in `views.ts`.
 *
 * With `locked: true`, each project is served under its
 * `skills-anywhere.lock.json` (`lib/locked.ts`): a skill the lock does
 * not allow now is still a candidate, so that asking for it by name says why,
 * but neither the model nor the user may invoke it, and `get` refuses it with
 * the lock's reason; an allowed one is read from one fresh read of its
 * directory whose digest must be the locked one. An allowed skill's
 * `skillsAnywhere.lock` says which lock allows it (`project` or `user`), that
 * file and its SHA-256, on the candidate and on each definition (from that
 * load). Without a project (or without a valid lock) nothing is invocable.
 *
 * @example
 * ```ts
 * import { catalogConfig, ProviderConfig } from "./config.ts";
 * import { SkillsAnywhereProvider } from "./provider.ts";
 * const config = catalogConfig(ProviderConfig.parse({ sync: false, watch: false }));
 * const provider = new SkillsAnywhereProvider(config, () => {});
 * const candidates = await provider.list({ cwd: "/repo" });
 * await provider.dispose();
 * ```
 * @module
 */
import { join } from "node:path";
import type { CatalogState } from "../lib/catalog/mod.ts";
import type { DiscoveryReport } from "../lib/catalog/mod.ts";
import { loadCatalog, type Project, resolveProject } from "../lib/catalog/mod.ts";
import type { DiscoveredSkill } from "../lib/catalog/mod.ts";
import { type Failure, failure } from "../lib/errors.ts";
import { readSkillNow } from "../lib/load/mod.ts";
import { LockGate, type LockRefusalKind, readLocked, type Verdict } from "../lib/locked.ts";
import { userLockPath } from "../lib/lock/mod.ts";
import type { UntrustedProject } from "../lib/sources/mod.ts";
import { userSourcesFile } from "../lib/sources/mod.ts";
import type { ResolvedSource } from "../lib/sources/mod.ts";
import { SyncScheduler } from "../lib/sources/mod.ts";
import type { SyncResult } from "../lib/sources/mod.ts";
import type { Log } from "../lib/util.ts";
import { budgetLimit, type DshConfig } from "./config.ts";
import {
  type Candidate,
  type Definition,
  type LockedBy,
  toCandidate,
  toDefinition,
} from "./record.ts";
import { shadowedNames, type WinnerSource } from "./shadows.ts";
import { type ReportView, reportView } from "./report.ts";
import { ProjectViews } from "./views.ts";
import { debounce, type Debounced, Watcher } from "./watch.ts";

export type { Candidate, Definition, Invocation } from "./record.ts";

/** What dsh hands a provider at registration. */
export interface ProviderControl {
  signal: AbortSignal;
  invalidate(): void;
}

/** Budget and exclusion settings that can change while dsh runs. */
export interface RuntimeSettings {
  catalog?: { limit?: number; pin?: string[]; hide?: string[] };
  excludeSkills?: string[];
}

const DEBOUNCE_MS = 80;

/** The notice for a project file whose sources wait for the user's trust. */
function untrustedNotice(untrusted: UntrustedProject): string {
  const changed = untrusted.state === "changed" ? " (the file changed since it was trusted)" : "";
  return `${untrusted.sources.length} Git sources in ${untrusted.file} are not ` +
    `trusted${changed}: they are not cloned or listed; run \`dsh-skills-anywhere trust\` in ` +
    `${untrusted.projectRoot} to review and allow them`;
}

/** Under `locked` without a project: there is no lock to serve by. */
const NO_PROJECT = failure("no-lock", "there is no project here, so no project lock");

/** A lock's refusal: the core's reason and what `locked: true` serves. */
const locked = (message: string) =>
  `${message}; with locked: true only skills whose bundle matches their lock are served ` +
  "(the project's skills-anywhere.lock.json, or the user's lock for a personal skill)";

/**
 * The provider's words for each refusal of a lock (and of a locked read whose SKILL.md no longer
 * parses), keyed by the kinds themselves: a kind the core adds that is not worded here is a
 * compile error. `message` is the core's.
 *
 * @example
 * ```ts
 * import { LOCK_REFUSALS } from "./provider.ts";
 * console.log(LOCK_REFUSALS["invalid-lock"]("the project's lock is invalid: not valid JSON"));
 * ```
 */
export const LOCK_REFUSALS: Readonly<
  Record<LockRefusalKind | "invalid", (message: string) => string>
> = {
  "not-locked": locked,
  changed: locked,
  moved: locked,
  unbundlable: locked,
  "no-lock": locked,
  "invalid-lock": locked,
  unsigned: locked,
  "bad-signature": locked,
  "bad-allowed-signers": locked,
  invalid: locked,
};

/** The provider's words for a lock's refusal. */
function lockWords(refused: Failure<LockRefusalKind | "invalid">): string {
  return LOCK_REFUSALS[refused.kind](refused.message);
}

/** Writes which lock serves a skill into its `skillsAnywhere` record (see `record.ts`). */
function stampLock(metadata: Record<string, unknown>, lock: LockedBy): void {
  const record = metadata.skillsAnywhere;
  metadata.skillsAnywhere = { ...(typeof record === "object" ? record : {}), lock };
}

/** The provider; dsh calls `list` and `get`, the plugin calls `dispose`. */
export class SkillsAnywhereProvider {
  readonly name: string;
  #config: DshConfig;
  readonly #log: Log;
  readonly #control?: ProviderControl;
  readonly #views = new ProjectViews();
  readonly #sync: SyncScheduler;
  readonly #watcher: Watcher;
  readonly #invalidate: Debounced;
  readonly #registry?: WinnerSource;
  readonly #noticed = new Set<string>();
  /** Under `locked`: one gate per lock file, and the skills its latest list saw by name. */
  readonly #gates = new Map<string, { gate: LockGate; skills: Map<string, DiscoveredSkill> }>();
  #disposed = false;

  /**
   * Builds the provider; starts the first sync and the file polls when configured to.
   * `registry` (dsh's, when registered there) tells which names other providers win, so the
   * budget skips them.
   */
  constructor(config: DshConfig, log: Log, control?: ProviderControl, registry?: WinnerSource) {
    this.#config = config;
    this.name = config.providerName;
    this.#log = log;
    this.#control = control;
    this.#invalidate = debounce(() => {
      if (!this.#disposed) this.#control?.invalidate();
    }, DEBOUNCE_MS);
    this.#registry = registry;
    this.#watcher = new Watcher(() => this.#invalidateSoon());
    this.#sync = new SyncScheduler(config, {
      log,
      onChange: () => this.#invalidateSoon(),
      onUntrusted: (untrusted) => this.#noticeUntrusted(untrusted),
    });
    control?.signal.addEventListener("abort", () => void this.dispose(), { once: true });
    this.#sync.start();
    if (config.watch) {
      const plugins = join(config.home, ".claude", "plugins");
      this.#watcher.poll(userSourcesFile(config.dshHome), () => this.#sync.trigger());
      this.#watcher.poll(join(plugins, "known_marketplaces.json"));
      this.#watcher.poll(join(plugins, "installed_plugins.json"));
      this.#watcher.poll(join(config.home, ".claude", "settings.json")); // enabledPlugins
    }
  }

  /** The configuration in force. */
  get currentConfig(): DshConfig {
    return this.#config;
  }

  /**
   * The candidates for `cwd` (its project roots and project sources file included), the budget
   * spent on the names no other provider wins in the viewing `scope` (asked of the registry).
   */
  async list(
    options: { cwd?: string; signal?: AbortSignal; scope?: unknown } = {},
  ): Promise<Candidate[] | { candidates: Candidate[]; complete: false }> {
    const project = options.cwd === undefined
      ? undefined
      : await resolveProject(options.cwd, this.#config.home);
    const projectRoot = project?.root;
    if (project !== undefined && this.#sync.addProject(project.root)) {
      this.#projectSeen(project);
    }
    const { report, roots, untrusted } = await loadCatalog(this.#config, {
      project,
      cwd: options.cwd,
      log: this.#log,
      signal: options.signal,
    });
    if (untrusted !== undefined) this.#noticeUntrusted(untrusted);
    if (this.#config.watch && this.#control !== undefined && !this.#disposed) {
      this.#watcher.watchRoots(roots, projectRoot);
    }
    const verdicts = this.#config.locked ? await this.#lockVerdicts(report, project) : undefined;
    const served = verdicts === undefined
      ? report
      : { ...report, skills: report.skills.filter((s) => verdicts.verdicts.get(s.name)?.ok) };
    const shadowed = this.#registry === undefined || this.#config.catalog.limit === 0
      ? undefined
      : await shadowedNames(this.#registry, this.name, options, served.skills.map((s) => s.name));
    const states = this.#views.remember(projectRoot, served, this.#config.catalog, shadowed);
    const candidates = report.skills.map((skill) => {
      const state = states.get(skill.name);
      const candidate = toCandidate(skill, state ?? "hidden", this.name);
      if (verdicts === undefined) return candidate;
      candidate.locator.projectLock = verdicts.file;
      const verdict = verdicts.verdicts.get(skill.name);
      if (verdict?.ok === true) {
        const kind = verdict.lock ?? "project";
        stampLock(candidate.metadata, {
          kind,
          file: kind === "user" ? userLockPath(this.#config.stateDir) : verdicts.file,
          sha256: verdict.lockSha256 ?? "",
        });
      }
      if (state === undefined) {
        // Refused by the lock: no one may invoke it, and it says why (not the budget's note).
        candidate.invocation = { modelInvocable: false, userInvocable: false };
        const why = verdict !== undefined && !verdict.ok ? `: ${verdict.message}` : "";
        candidate.whenToUse = `Not served under the project's lock (skills-anywhere locked)${why}.`;
      }
      return candidate;
    });
    return report.complete ? candidates : { candidates, complete: false };
  }

  /**
   * Under `locked`: the lock file (`""` without a project) and the lock's verdict on each
   * published skill (refusals said once).
   */
  async #lockVerdicts(report: DiscoveryReport, project: Project | undefined) {
    const verdicts = new Map<string, Verdict>();
    if (project === undefined) {
      for (const skill of report.skills) verdicts.set(skill.name, NO_PROJECT);
      return { file: "", verdicts };
    }
    const file = project.lockFile;
    const gated = this.#gates.get(file) ?? {
      gate: new LockGate(file, { user: userLockPath(this.#config.stateDir) }),
      skills: new Map(),
    };
    this.#gates.set(file, gated);
    gated.skills = new Map(report.skills.map((s) => [s.name, s]));
    const state = await gated.gate.state();
    for (const skill of report.skills) {
      const verdict = await gated.gate.check(skill, state);
      verdicts.set(skill.name, verdict);
      if (!verdict.ok) this.#noticeOnce(lockWords(verdict));
    }
    return { file, verdicts };
  }

  /** Under `locked`: the definition from the one read the lock allowed, or the lock's refusal. */
  async #getLocked(candidate: Candidate, projectLock: string): Promise<Definition> {
    const gated = this.#gates.get(projectLock);
    const skill = gated?.skills.get(candidate.name);
    if (gated === undefined || skill === undefined) throw new Error(lockWords(NO_PROJECT));
    const read = await readLocked(gated.gate, skill, { lenient: this.#config.lenient });
    if (!read.ok) throw new Error(lockWords(read));
    const definition = toDefinition(candidate, read.skill);
    // Which lock allowed this very load (it may have changed since the list).
    stampLock(definition.metadata, {
      kind: read.lock,
      file: read.lock === "user" ? gated.gate.userFile ?? "" : gated.gate.file,
      sha256: read.lockSha256,
    });
    return definition;
  }

  /** A project listed for the first time: sync its sources, poll its sources file. */
  #projectSeen(project: Project): void {
    if (this.#config.syncOnStart) this.#sync.trigger({ project: project.root });
    if (this.#config.watch) {
      this.#watcher.poll(project.sourcesFile, () => this.#sync.trigger());
    }
  }

  /** The body of `candidate`, read now; `undefined` when it is gone or no longer a skill. */
  get(
    candidate: Candidate,
    _options: { signal?: AbortSignal } = {},
  ): Promise<Definition | undefined> {
    const projectLock = candidate.locator.projectLock;
    if (projectLock !== undefined) return this.#getLocked(candidate, projectLock);
    const now = readSkillNow(candidate.locator.path, {
      fallbackName: candidate.name,
      lenient: this.#config.lenient,
      confineTo: candidate.locator.confineTo,
    });
    if (!now.ok && now.kind === "missing") return Promise.resolve(undefined);
    if (!now.ok) {
      this.#log("warn", `${candidate.locator.path} became unreadable: ${now.message}`);
      return Promise.resolve(undefined);
    }
    return Promise.resolve(toDefinition(candidate, now.skill));
  }

  /** `visible`, `hidden` or `disabled` for a published name, from the latest list of `cwd`. */
  async catalogState(name: string, cwd?: string): Promise<CatalogState | undefined> {
    return this.#views.state(await this.#projectOf(cwd), name);
  }

  /** The latest discovery report for `cwd`. */
  async report(cwd?: string): Promise<DiscoveryReport | undefined> {
    return this.#views.report(await this.#projectOf(cwd));
  }

  /**
   * The dsh web card's report for `cwd` (see `report.ts`): from the latest list of its project,
   * listing first when there is none (or the settings changed since).
   */
  async reportView(cwd?: string): Promise<ReportView> {
    const project = await this.#projectOf(cwd);
    for (let attempt = 0; attempt < 3; attempt++) {
      const report = this.#views.report(project);
      const states = this.#views.states(project);
      if (report !== undefined && states !== undefined) {
        const { catalog, excludeSkills } = this.#config;
        return reportView(report, states, { catalog, excludeSkills });
      }
      await this.list({ cwd });
    }
    throw new Error("the catalog changed during three lists in a row");
  }

  /** Replaces the budget and exclusions, forgets cached states and tells dsh at once. */
  reconfigure(settings: RuntimeSettings): void {
    const catalog = { ...this.#config.catalog };
    if (settings.catalog?.limit !== undefined) catalog.limit = budgetLimit(settings.catalog.limit);
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

  /** The Git sources in force for every project seen so far (and `cwd`'s). */
  async sources(cwd?: string): Promise<ResolvedSource[]> {
    return await this.#sync.sources(await this.#projectOf(cwd));
  }

  /**
   * Syncs every Git source now. Concurrent calls share one run; a call with a
   * new `cwd` or `force` during a run queues one follow-up (see
   * `lib/sources/_schedule.ts`).
   */
  async syncAll(cwd?: string, options: { force?: boolean } = {}): Promise<SyncResult[]> {
    if (this.#disposed) return [];
    const project = await this.#projectOf(cwd);
    return await this.#sync.request({ project, force: options.force });
  }

  /** Stops the sync timer, watchers and pollers, aborts git and waits for it. Idempotent. */
  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#invalidate.cancel();
    this.#watcher.close();
    await this.#sync.stop();
  }

  /** The project root of `cwd` (a dsh request's edge), or undefined without a working directory. */
  async #projectOf(cwd: string | undefined): Promise<string | undefined> {
    return cwd === undefined ? undefined : (await resolveProject(cwd, this.#config.home)).root;
  }

  #invalidateSoon(): void {
    if (this.#control !== undefined && !this.#disposed) this.#invalidate.call();
  }

  /** Says once per project file content that its sources wait for the user's trust. */
  #noticeUntrusted(untrusted: UntrustedProject): void {
    const key = `${untrusted.file}\0${untrusted.sha256}`;
    if (this.#noticed.has(key)) return;
    this.#noticed.add(key);
    this.#log("warn", untrustedNotice(untrusted));
  }

  /** Logs `message` once. */
  #noticeOnce(message: string): void {
    if (this.#noticed.has(message)) return;
    this.#noticed.add(message);
    this.#log("warn", message);
  }
}
