/**
 * Where a skill came from, and the one-line label the CLI and MCP show for it.
 *
 * @example
 * ```ts
 * import { originLabel } from "./origin.ts";
 * originLabel({ kind: "agent", agent: "codex", scope: "user" }); // "codex (user)"
 * ```
 * @module
 */

/** The origin of a root or skill. */
export type Origin =
  | { kind: "agent"; agent: string; scope: "project" | "user" }
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
    repo: string;
    /** The source's checkout directory (its resolved `dir`), whose own `.git` names the commit. */
    checkout?: string;
  };

/**
 * The label of an origin: `<agent> (<scope>)`, `claude plugin <plugin>@<marketplace>`,
 * `git <owner/repo>` or `custom (<scope>)`.
 */
export function originLabel(origin: Origin): string {
  switch (origin.kind) {
    case "agent":
      return `${origin.agent} (${origin.scope})`;
    case "custom":
      return `custom (${origin.scope})`;
    case "claude-plugins":
      return `claude plugin ${origin.plugin}@${origin.marketplace}`;
    case "source":
      return `git ${origin.repo}`;
  }
}
