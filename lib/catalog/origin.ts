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
  | { kind: "claude-plugins"; marketplace?: string; plugin?: string }
  | {
    kind: "source";
    repo: string;
    /** The source's checkout directory (its resolved `dir`), whose own `.git` names the commit. */
    checkout?: string;
  };

/**
 * The label of an origin: `<agent> (<scope>)`, `claude plugin <plugin>[ @ <marketplace>]`,
 * `git <owner/repo>` or `custom (<scope>)`.
 */
export function originLabel(origin: Origin): string {
  switch (origin.kind) {
    case "agent":
      return `${origin.agent} (${origin.scope})`;
    case "custom":
      return `custom (${origin.scope})`;
    case "claude-plugins":
      return `claude plugin ${origin.plugin ?? "?"}${
        origin.marketplace ? ` @ ${origin.marketplace}` : ""
      }`;
    case "source":
      return `git ${origin.repo}`;
  }
}

const VERSION_LIKE = /^\d+\.\d/;

/**
 * Marketplace and plugin of a skill below a Claude Code plugin root, from its
 * path relative to that root: the marketplace is the first segment; the plugin
 * is the segment before the last `skills` segment, or the one before that when
 * it looks like a version (`1.2.3`).
 *
 * @example
 * ```ts
 * pluginOrigin("official/plugins/hookify/skills/x"); // { kind: "claude-plugins", marketplace: "official", plugin: "hookify" }
 * pluginOrigin("cache-market/my-plugin/1.2.3/skills/x"); // plugin "my-plugin"
 * ```
 */
export function pluginOrigin(relativeDir: string): Origin {
  const segments = relativeDir.split("/").filter((s) => s !== "");
  const origin: Origin = { kind: "claude-plugins" };
  if (segments.length > 0) origin.marketplace = segments[0];
  const last = segments.lastIndexOf("skills");
  if (last >= 1) {
    let plugin = segments[last - 1];
    if (VERSION_LIKE.test(plugin) && last >= 2) plugin = segments[last - 2];
    origin.plugin = plugin;
  }
  return origin;
}
