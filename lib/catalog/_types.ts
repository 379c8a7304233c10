/**
 * The catalog's records, types only: what the catalog knows of a skill it found
 * ({@linkcode DiscoveredSkill}), of a file that could not become one, and the labels those
 * records carry. Every module of the catalog reads them from here, so no module imports another
 * for a type (discovery, precedence, roots and the project walk each stand on this one).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { DiscoveredSkill } from "./_types.ts";
 * const names = (skills: DiscoveredSkill[]) => skills.map((skill) => skill.name);
 * assert.deepEqual(names([]), []);
 * ```
 * @module
 */
import type { ReadErrorKind } from "../fs/mod.ts";
import type { Invocation, ParseFailureKind } from "../skill/mod.ts";
import type { Origin } from "./_origin.ts";

/**
 * Where a root's skills come from, as every surface reports it in a skill's
 * `source` field (`list --json`, MCP results, dsh): a project folder, one of
 * the user's folders, Claude Code plugins, or a Git source.
 */
export type SourceLabel =
  | "anywhere-project"
  | "anywhere-user"
  | "anywhere-claude-plugins"
  | "anywhere-source";

/**
 * Why a skill was renamed: `locked` (the project lock gave its name to another place),
 * `third-party` (every skill sharing it came from a plugin or a Git source), `folder` (its
 * repaired name is another skill's folder name) or `collision` (another skill ranks first).
 */
export type RenameReason = "locked" | "collision" | "third-party" | "folder";

/** A parsed, published skill: what its file says, and where and how the catalog found it. */
export interface DiscoveredSkill {
  name: string;
  /** Whether the file declares `name` exactly (not normalised, not derived from the folder). */
  nameDeclared: boolean;
  description: string;
  whenToUse?: string;
  invocation: Invocation;
  source: SourceLabel;
  rank: number;
  /** Absolute path of the Markdown file. */
  path: string;
  /** The skill directory (the root for flat files). */
  directory: string;
  /** The author's frontmatter `metadata` mapping as written, nothing added. */
  metadata: Record<string, unknown>;
  origin: Origin;
  /** The root path it was found under. */
  root: string;
  /** The file's path below `root`, with `/` separators. */
  relativePath: string;
  /** Position of that root in the root list (a precedence tiebreak). */
  rootIndex: number;
  /** The parser's repairs alone (frontmatter fixed up in lenient mode). */
  repairs: string[];
  /** Every warning about the skill: its repairs, then the collision notice when renamed. */
  warnings: string[];
  /** The name its file declares, when a collision made the catalog publish it as another. */
  renamedFrom?: string;
  /** Why it was renamed, with `renamedFrom` (see `RenameReason` in `./precedence.ts`). */
  renamedBecause?: RenameReason;
  /** The real directory links may not leave when this file is read again (see the module doc). */
  confineTo?: string;
}

/**
 * Why a file could not become a skill: the reader's failure, the parser's, or
 * `note` (a flat `<name>.md` without a name or description; see `walk.ts`).
 */
export type InvalidFileKind = ReadErrorKind | ParseFailureKind;

/** A file that could not become a skill. */
export interface InvalidFile {
  path: string;
  root: string;
  /** The failure class, to switch on (`not-utf8`, `outside`, `no-frontmatter`, …). */
  kind: InvalidFileKind;
  /** The reason in words, for people. */
  reason: string;
  /**
   * Set when the file was refused for safety, not found broken: `link`, a
   * symlink out of its boundary or into `/proc`, `/sys` or `/dev` (its
   * target was never read); `pseudo-file`, a file whose size disagrees with
   * what it reads.
   */
  refusal?: "link" | "pseudo-file";
}
