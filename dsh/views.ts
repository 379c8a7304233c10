/**
 * The provider's latest view of each project: the discovery report of its
 * last `list` and the budget state of every published name. The view of no
 * project (a `list` without a `cwd`) is kept under the key `""`.
 *
 * @example
 * ```ts
 * import type { DiscoveryReport } from "../lib/catalog/mod.ts";
 * import { ProjectViews } from "./views.ts";
 * function example(report: DiscoveryReport) {
 *   const views = new ProjectViews();
 *   const states = views.remember("/repo", report, { limit: 1, pin: [], hide: [] });
 *   console.log(views.state("/repo", "pdf"), states.size);
 * }
 * ```
 * @module
 */
import { applyCatalogBudget, type CatalogState } from "../lib/catalog/mod.ts";
import type { DiscoveryReport } from "../lib/catalog/mod.ts";
import type { CatalogBudget } from "./config.ts";

interface ProjectView {
  report: DiscoveryReport;
  states: Map<string, CatalogState>;
}

/** The latest report and budget states per project root. */
export class ProjectViews {
  readonly #views = new Map<string, ProjectView>();

  /**
   * Applies `budget` to `report`, keeps both for `project` and returns the states. Names in
   * `shadowed` (won in dsh by another provider) take no place: they count as hidden.
   */
  remember(
    project: string | undefined,
    report: DiscoveryReport,
    budget: CatalogBudget,
    shadowed: ReadonlySet<string> = new Set(),
  ): Map<string, CatalogState> {
    const states = applyCatalogBudget(report.skills, {
      limit: budget.limit,
      pin: new Set(budget.pin),
      hide: new Set([...budget.hide, ...shadowed]),
    });
    this.#views.set(project ?? "", { report, states });
    return states;
  }

  /** The state of `name` in `project`'s latest view. */
  state(project: string | undefined, name: string): CatalogState | undefined {
    return this.#views.get(project ?? "")?.states.get(name);
  }

  /** The budget states of `project`'s latest view. */
  states(project: string | undefined): ReadonlyMap<string, CatalogState> | undefined {
    return this.#views.get(project ?? "")?.states;
  }

  /** `project`'s latest discovery report. */
  report(project: string | undefined): DiscoveryReport | undefined {
    return this.#views.get(project ?? "")?.report;
  }

  /** Forgets every view (the budget or exclusions changed). */
  clear(): void {
    this.#views.clear();
  }
}
