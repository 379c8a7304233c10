/**
 * Whose a skill is, for locking: the project's own (what a project lock
 * records, the same on every machine) or the person's (what only a user lock
 * records).
 *
 * The project's own: every project-scope folder of the project (an agent's
 * project folder, nested ones included, or a custom project folder) and the
 * skills of the Git sources the project's own trusted sources file names.
 * The person's: user folders, user-level Git sources (configuration and the
 * user's sources file) and Claude Code plugins, which live in the person's
 * home whoever enabled them (a plugin the project's settings enable is still
 * installed, at some version, in each home: a project lock cannot hold what
 * another machine may not have; only a user lock, taken where the person's
 * own settings enable it, covers it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lockScopeOf } from "./_scope.ts";
 * assert.equal(lockScopeOf({ kind: "agent", agent: "claude-code", scope: "project" }, new Set()), "project");
 * assert.equal(lockScopeOf({ kind: "claude-plugins", marketplace: "m", plugin: "p" }, new Set()), "user");
 * ```
 * @module
 */
import type { LockOrigin } from "./_format.ts";

/**
 * Where a skill came from, by shape (the catalog's `Origin` is one): this package never imports
 * the catalog.
 */
export type SkillOrigin =
  | { kind: "agent"; agent: string; scope: string; dir?: string }
  | { kind: "custom"; scope: string }
  | { kind: "claude-plugins"; marketplace: string; plugin: string }
  | { kind: "source"; repo: string; checkout?: string };

/** Which lock records a skill: the project's or the person's. */
export type LockScope = "project" | "user";

/**
 * The lock a skill at `origin` belongs in; `projectCheckouts` are the checkout folders of the
 * Git sources the project's own trusted sources file names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lockScopeOf } from "./_scope.ts";
 * assert.equal(lockScopeOf({ kind: "source", repo: "o/r", checkout: "/cache/r" }, new Set(["/cache/r"])), "project");
 * ```
 */
export function lockScopeOf(origin: SkillOrigin, projectCheckouts: ReadonlySet<string>): LockScope {
  switch (origin.kind) {
    case "agent":
    case "custom":
      return origin.scope === "project" ? "project" : "user";
    case "claude-plugins":
      return "user";
    case "source":
      return origin.checkout !== undefined && projectCheckouts.has(origin.checkout)
        ? "project"
        : "user";
  }
}

/**
 * Whether a locked origin can only be a person's (a user folder or a plugin): such an entry in
 * a project lock (written before project locks held only the project's skills) never keeps a
 * name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isPersonalOrigin } from "./_scope.ts";
 * assert.equal(isPersonalOrigin({ kind: "custom", scope: "user" }), true);
 * assert.equal(isPersonalOrigin({ kind: "source", repo: "o/r" }), false);
 * ```
 */
export function isPersonalOrigin(origin: LockOrigin): boolean {
  return origin.kind === "claude-plugins" ||
    ((origin.kind === "agent" || origin.kind === "custom") && origin.scope !== "project");
}
