/**
 * Where a skill came from, and the one-line label the CLI and MCP show for it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { originLabel } from "./_origin.ts";
 * assert.equal(originLabel({ kind: "agent", agent: "codex", scope: "user" }), "codex (user)");
 * ```
 * @module
 */
import { sourceName } from "../sources/portable.ts";

/** The origin of a root or skill. */
export type Origin =
  | {
    kind: "agent";
    agent: string;
    scope: "project" | "user";
    /**
     * For a project folder below the project root: the folder it sits in,
     * relative to the root, `/`-separated (`packages/app` for
     * `packages/app/.agents/skills`). Absent at the root and for user folders.
     */
    dir?: string;
  }
  | { kind: "custom"; scope: "project" | "user" }
  | {
    kind: "claude-plugins";
    /** The marketplace the plugin was installed from (the part of its key after `@`). */
    marketplace: string;
    /** The plugin's own name (the part of its key before `@`). */
    plugin: string;
  }
  | {
    kind: "source";
    /** The source's display name (`owner/repo[/path]`), without its ref. */
    repo: string;
    /** The source's ref, when it has one: part of its name ({@linkcode sourceName}). */
    ref?: string;
    /** The source's checkout directory (its resolved `dir`), whose own `.git` names the commit. */
    checkout?: string;
  };

/**
 * The label of an origin: `<agent> (<scope>)` (`<agent> (project: <dir>)` below the root), `claude plugin <plugin>@<marketplace>`,
 * `git <owner/repo>[@<ref>]` (the source's one name, {@linkcode sourceName}) or
 * `custom (<scope>)`.
 */
export function originLabel(origin: Origin): string {
  switch (origin.kind) {
    case "agent":
      return origin.dir === undefined
        ? `${origin.agent} (${origin.scope})`
        : `${origin.agent} (${origin.scope}: ${origin.dir})`;
    case "custom":
      return `custom (${origin.scope})`;
    case "claude-plugins":
      return `claude plugin ${origin.plugin}@${origin.marketplace}`;
    case "source":
      return `git ${sourceName({ display: origin.repo, ref: origin.ref })}`;
  }
}
