/**
 * Which of the provider's names another dsh provider wins, per view (viewing
 * scope and working directory), so the catalog budget is spent after dsh's
 * precedence: a name dsh's own `.dsh/skills` or a preset's filesystem
 * provider shadows takes no place. The registry is asked after a listing,
 * outside it (a provider cannot ask the registry while the registry asks it);
 * when the answer changes, `changed` is called and the next listing spends
 * the budget again.
 *
 * @example
 * ```ts
 * import { Shadows } from "./shadows.ts";
 * declare const registry: {
 *   list(o: { cwd?: string; scope?: unknown }): Promise<{ name: string; provider: string }[]>;
 * };
 * const shadows = new Shadows("skills-anywhere", registry, () => console.log("spend again"));
 * shadows.check(undefined, "/repo", ["pdf", "docx"]);
 * console.log(shadows.get(undefined, "/repo").size);
 * ```
 * @module
 */

/** What the provider reads of dsh's registry: the winner of each name in a view. */
export interface WinnerSource {
  list(options: { cwd?: string; scope?: unknown }): Promise<{ name: string; provider: string }[]>;
}

const GLOBAL = {};
const NONE: ReadonlySet<string> = new Set();

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size === b.size && [...a].every((name) => b.has(name));
}

/** The names another provider wins, per viewing scope and working directory. */
export class Shadows {
  readonly #byScope = new WeakMap<object, Map<string, ReadonlySet<string>>>();
  readonly #running = new Map<string, { again: string[] | undefined }>();
  readonly #keys = new WeakMap<object, number>();
  #nextKey = 1;
  #closed = false;

  /** `provider`: our provider name; `changed`: called when a view's shadowed names change. */
  constructor(
    readonly provider: string,
    readonly registry: WinnerSource,
    readonly changed: () => void,
  ) {}

  /** The names of ours another provider won in this view, as last seen (none at first). */
  get(scope: unknown, cwd: string | undefined): ReadonlySet<string> {
    return this.#byScope.get(scopeKey(scope))?.get(cwd ?? "") ?? NONE;
  }

  /** Asks the registry, soon, which of `names` another provider wins in this view. */
  check(scope: unknown, cwd: string | undefined, names: readonly string[]): void {
    if (this.#closed) return;
    const id = `${this.#id(scopeKey(scope))}\0${cwd ?? ""}`;
    const running = this.#running.get(id);
    if (running !== undefined) {
      running.again = [...names];
      return;
    }
    const state = { again: undefined as string[] | undefined };
    this.#running.set(id, state);
    setTimeout(async () => {
      try {
        let next: readonly string[] | undefined = names;
        while (next !== undefined && !this.#closed) {
          state.again = undefined;
          await this.#ask(scope, cwd, next);
          next = state.again;
        }
      } finally {
        this.#running.delete(id);
      }
    }, 0);
  }

  async #ask(scope: unknown, cwd: string | undefined, names: readonly string[]): Promise<void> {
    let winners: { name: string; provider: string }[];
    try {
      winners = await this.registry.list({ cwd, scope });
    } catch {
      return; // the registry could not list this view now: keep what is known
    }
    const byName = new Map(winners.map((skill) => [skill.name, skill.provider]));
    const shadowed = new Set(names.filter((name) => {
      const winner = byName.get(name);
      return winner !== undefined && winner !== this.provider;
    }));
    const key = scopeKey(scope);
    const views = this.#byScope.get(key) ?? new Map<string, ReadonlySet<string>>();
    this.#byScope.set(key, views);
    if (sameSet(views.get(cwd ?? "") ?? NONE, shadowed)) return;
    views.set(cwd ?? "", shadowed);
    if (!this.#closed) this.changed();
  }

  #id(key: object): number {
    let id = this.#keys.get(key);
    if (id === undefined) {
      id = this.#nextKey++;
      this.#keys.set(key, id);
    }
    return id;
  }

  /** Stops asking. */
  close(): void {
    this.#closed = true;
  }
}

function scopeKey(scope: unknown): object {
  return typeof scope === "object" && scope !== null ? scope : GLOBAL;
}
