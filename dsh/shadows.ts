/**
 * Which of the provider's names another dsh provider wins in a view (viewing
 * scope and working directory), so the catalog budget is spent after dsh's
 * precedence: a name dsh's own `.dsh/skills` or a preset's filesystem
 * provider shadows takes no place. The provider asks the registry itself,
 * from inside its own listing; the registry then lists every provider again,
 * this one included, and that inner listing (recognised through
 * `AsyncLocalStorage`, so a concurrent listing of the same view is not
 * mistaken for it) answers without asking again. The winners do not depend on
 * budget states, so the inner answer is as good as any.
 *
 * @example
 * ```ts
 * import { shadowedNames } from "./shadows.ts";
 * async function example(registry: {
 *   list(o: { cwd?: string; scope?: unknown }): Promise<{ name: string; provider: string }[]>;
 * }) {
 *   const shadowed = await shadowedNames(registry, "skills-anywhere", { cwd: "/repo" }, ["pdf"]);
 *   console.log(shadowed.has("pdf"));
 * }
 * ```
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** What the provider reads of dsh's registry: the winner of each name in a view. */
export interface WinnerSource {
  list(
    options: { cwd?: string; scope?: unknown; signal?: AbortSignal },
  ): Promise<{ name: string; provider: string }[]>;
}

/**
 * The ask in progress, per async context. A token counts only while its ask runs: timers and
 * watchers created inside an ask inherit the context, and must not pass for it afterwards.
 */
const asking = new AsyncLocalStorage<object>();
const running = new Set<object>();

/**
 * The names among `names` that a provider other than `provider` wins in the view of `options`;
 * none when called from the registry listing this function started.
 */
export async function shadowedNames(
  registry: WinnerSource,
  provider: string,
  options: { cwd?: string; scope?: unknown; signal?: AbortSignal },
  names: readonly string[],
): Promise<ReadonlySet<string>> {
  const current = asking.getStore();
  if (current !== undefined && running.has(current)) return new Set();
  const token = {};
  running.add(token);
  let winners: { name: string; provider: string }[];
  try {
    winners = await asking.run(token, () => registry.list(options));
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return new Set(); // the registry could not list this view now: spend as before
  } finally {
    running.delete(token);
  }
  const byName = new Map(winners.map((skill) => [skill.name, skill.provider]));
  return new Set(names.filter((name) => {
    const winner = byName.get(name);
    return winner !== undefined && winner !== provider;
  }));
}
