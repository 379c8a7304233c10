/**
 * The catalog budget: how many skills are listed to a model at once.
 * Author-disabled skills are `disabled` and never count; hidden names are
 * `hidden`; of the rest, pinned names come first, then precedence order, and
 * the first `limit` are `visible` (`limit` 0 means no limit).
 *
 * @example
 * ```ts
 * import { applyCatalogBudget, type BudgetSkill } from "./_budget.ts";
 * // in precedence order
 * function example(skills: BudgetSkill[]) {
 *   applyCatalogBudget(skills, { limit: 2, pin: new Set(), hide: new Set() });
 * }
 * ```
 * @module
 */

/** A skill's place in the catalog. */
export type CatalogState = "visible" | "hidden" | "disabled";

/** What the budget needs of a skill. */
export interface BudgetSkill {
  name: string;
  /** `modelInvocable: false` when the author disabled model invocation (state `disabled`). */
  invocation: { modelInvocable: boolean };
}

/** Budget settings; names are published names. */
export interface Budget {
  /** Most visible skills; 0 means no limit. */
  limit: number;
  /** Names listed before the others, in precedence order. */
  pin: ReadonlySet<string>;
  /** Names never listed (state `hidden`). */
  hide: ReadonlySet<string>;
}

/** States by published name, for skills in precedence order. */
export function applyCatalogBudget(
  skills: readonly BudgetSkill[],
  budget: Budget,
): Map<string, CatalogState> {
  const states = new Map<string, CatalogState>();
  const eligible: BudgetSkill[] = [];
  for (const skill of skills) {
    if (!skill.invocation.modelInvocable) states.set(skill.name, "disabled");
    else if (budget.hide.has(skill.name)) states.set(skill.name, "hidden");
    else eligible.push(skill);
  }
  const ordered = [
    ...eligible.filter((s) => budget.pin.has(s.name)),
    ...eligible.filter((s) => !budget.pin.has(s.name)),
  ];
  ordered.forEach((skill, position) => {
    states.set(skill.name, budget.limit === 0 || position < budget.limit ? "visible" : "hidden");
  });
  return states;
}
