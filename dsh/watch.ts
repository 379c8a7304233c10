/**
 * Change detection for the dsh provider: `fs.watch` on flat skill roots (a
 * `.md` file or a directory added, edited or removed) and on each skill
 * directory `<root>/<name>/` in them (its `SKILL.md` or another file edited;
 * at most 256 per root and 2048 in all), `fs.watchFile` polling of single
 * files (sources files, Claude plugin lists), and a debounce so a burst of
 * events tells dsh once.
 *
 * @example
 * ```ts
 * import { debounce, Watcher } from "./watch.ts";
 * const changed = debounce(() => console.log("skills changed"), 80);
 * const watcher = new Watcher(changed.call);
 * watcher.poll("/home/me/.dsh/skills-anywhere/sources.json");
 * watcher.close();
 * changed.cancel();
 * ```
 * @module
 */
import { type FSWatcher, readdirSync, statSync, unwatchFile, watch, watchFile } from "node:fs";
import { join } from "node:path";
import type { Root } from "../lib/catalog/mod.ts";

const POLL_MS = 2000;
const MAX_WATCHED_PROJECTS = 32;
/** Skill directories watched below one root, and in all (`fs.watch` handles are not free). */
const MAX_SKILL_DIRS_PER_ROOT = 256;
const MAX_WATCHERS = 2048;

/** A debounced call and its cancel. */
export interface Debounced {
  /** Schedules `fn`, replacing a pending call. */
  call(): void;
  /** Drops a pending call. */
  cancel(): void;
}

/**
 * `fn` called once `ms` after the last of a burst of calls.
 *
 * @example
 * ```ts
 * import { debounce } from "./watch.ts";
 * const saved = debounce(() => console.log("saved"), 50);
 * saved.call();
 * saved.call(); // "saved" is printed once
 * ```
 */
export function debounce(fn: () => void, ms: number): Debounced {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cancel = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return {
    call: () => {
      cancel();
      timer = setTimeout(() => {
        timer = undefined;
        fn();
      }, ms);
    },
    cancel,
  };
}

/** Watches flat roots and polls files, calling `changed` on anything that may change the catalog. */
export class Watcher {
  readonly #changed: () => void;
  readonly #watchers = new Map<string, FSWatcher>();
  readonly #perRoot = new Map<string, number>();
  readonly #projects = new Set<string>();
  readonly #polled = new Set<string>();
  #closed = false;

  /** Builds a watcher that reports to `changed`. */
  constructor(changed: () => void) {
    this.#changed = changed;
  }

  /**
   * Watches the flat roots among `roots` not watched yet: user roots, and the
   * project roots of `projectRoot` while fewer than 32 projects are watched.
   */
  watchRoots(roots: readonly Root[], projectRoot: string | undefined): void {
    if (this.#closed) return;
    if (projectRoot !== undefined && !this.#projects.has(projectRoot)) {
      if (this.#projects.size >= MAX_WATCHED_PROJECTS) projectRoot = undefined;
      else this.#projects.add(projectRoot);
    }
    for (const root of roots) {
      if (root.mode !== "flat" || this.#watchers.has(root.path)) continue;
      if (root.project !== undefined && root.project !== projectRoot) continue;
      this.#watchRoot(root.path);
    }
  }

  #watchRoot(path: string): void {
    const watched = this.#watch(path, (name) => {
      if (name === "" || name.endsWith(".md") || !name.includes(".")) this.#changed();
      if (name !== "" && !name.startsWith(".")) this.#rewatchSkillDir(path, name);
    });
    if (!watched) return; // Not there yet: it is picked up by a later list.
    let entries: string[] = [];
    try {
      entries = readdirSync(path).filter((name) => !name.startsWith("."));
    } catch {
      return;
    }
    for (const name of entries.sort()) this.#watchSkillDir(path, name);
  }

  /** `<root>/<name>` was added, removed or replaced: its old watch (if any) is dropped, then renewed. */
  #rewatchSkillDir(root: string, name: string): void {
    const path = join(root, name);
    const old = this.#watchers.get(path);
    if (old !== undefined) {
      old.close();
      this.#watchers.delete(path);
      this.#perRoot.set(root, (this.#perRoot.get(root) ?? 1) - 1);
    }
    this.#watchSkillDir(root, name);
  }

  /** Watches `<root>/<name>` when it is a directory (a skill folder), within the bounds. */
  #watchSkillDir(root: string, name: string): void {
    const path = join(root, name);
    if (this.#closed || this.#watchers.has(path) || this.#watchers.size >= MAX_WATCHERS) return;
    if ((this.#perRoot.get(root) ?? 0) >= MAX_SKILL_DIRS_PER_ROOT) return;
    try {
      if (!statSync(path).isDirectory()) return;
    } catch {
      return;
    }
    if (this.#watch(path, () => this.#changed(), root)) {
      this.#perRoot.set(root, (this.#perRoot.get(root) ?? 0) + 1);
    }
  }

  /** One `fs.watch` on `path`, dropped (and reported as a change) when it fails or goes away. */
  #watch(path: string, onEvent: (name: string) => void, root?: string): boolean {
    try {
      const watcher = watch(path, { persistent: false }, (_event, file) => {
        onEvent(typeof file === "string" ? file : "");
      });
      watcher.on("error", () => {
        watcher.close();
        if (this.#watchers.get(path) === watcher) this.#watchers.delete(path);
        if (root !== undefined) this.#perRoot.set(root, (this.#perRoot.get(root) ?? 1) - 1);
        this.#changed();
      });
      this.#watchers.set(path, watcher);
      return true;
    } catch {
      return false;
    }
  }

  /** Polls `file`; on a change calls `changed`, then `also` (a resync, say). */
  poll(file: string, also?: () => void): void {
    if (this.#polled.has(file) || this.#closed) return;
    this.#polled.add(file);
    watchFile(file, { interval: POLL_MS, persistent: false }, (current, previous) => {
      if (current.mtimeMs === previous.mtimeMs && current.size === previous.size) return;
      this.#changed();
      also?.();
    });
  }

  /** Closes every watcher and poller. Idempotent. */
  close(): void {
    this.#closed = true;
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
    this.#perRoot.clear();
    for (const file of this.#polled) unwatchFile(file);
  }
}
