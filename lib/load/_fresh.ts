/**
 * Reading one skill file again, now: what a consumer does before it hands
 * instructions to a model, so that an edited file or a fresh author opt-out
 * wins over anything cached.
 *
 * The read applies discovery's link policy again, since the file may have
 * changed since it was listed: with `confineTo` (the skill's boundary, a real
 * directory: its project, plugin folder or Git checkout) the whole path is
 * resolved once and must stay inside, and the real path is opened without
 * following links; without it (the user's own folders) a final link is
 * followed but never under `/proc`, `/sys` or `/dev`. Either way the file's
 * reported size must equal the bytes read.
 *
 * @example
 * ```ts
 * import { readSkillNow } from "./_fresh.ts";
 * const now = readSkillNow("/skills/demo/SKILL.md", { fallbackName: "demo", lenient: true });
 * if (now.ok) console.log(now.skill.invocation);
 * else console.log(now.kind); // "missing" or "invalid"
 * ```
 * @module
 */
import { type Failure, failure } from "../errors.ts";
import { decodeUtf8, readBoundedSync, ReadError, resolveLink } from "../fs/mod.ts";
import { MAX_SKILL_READ_BYTES } from "../limits.ts";
import { type ParsedSkill, parseSkillMarkdown } from "../skill/mod.ts";

/** Why a fresh read has no skill: the file is gone, or it is no longer a usable skill. */
export type FreshFailureKind = "missing" | "invalid";

/** The file as it is now: the parsed skill with its bytes, or why there is none. */
export type FreshRead =
  | { ok: true; skill: ParsedSkill; bytes: Uint8Array }
  | Failure<FreshFailureKind>;

/** Options of {@linkcode readSkillNow}. */
export interface FreshOptions {
  /** The published name, used when the frontmatter has none. */
  fallbackName: string;
  /** Repair frontmatter the strict parse refuses, as discovery does. */
  lenient: boolean;
  /** The real directory no link on the way may leave (the skill's `confineTo`). */
  confineTo?: string;
}

/**
 * Whether `path` really lies inside `confineTo` (a real directory) and, with
 * or without it, not under `/proc`, `/sys` or `/dev`. Resolves `path` once.
 *
 * @example
 * ```ts
 * import { staysInside } from "./_fresh.ts";
 * staysInside("/repo/.claude/skills/demo", "/repo"); // false if demo links out of /repo
 * ```
 */
export function staysInside(path: string, confineTo: string | undefined): boolean {
  try {
    resolveLink(path, { within: confineTo });
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads and parses `path` with the bounded reader (regular file, at most
 * 1 MiB, strict UTF-8, never blocking; links as the module doc says). A
 * file that is gone is `missing`; one that is no longer a usable skill is
 * `invalid`, its message the reader's or the parser's wording. Other system
 * errors (permissions, I/O) are thrown as {@linkcode ReadError}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readSkillNow } from "./_fresh.ts";
 * const now = readSkillNow("/gone/SKILL.md", { fallbackName: "gone", lenient: true });
 * assert.equal(now.ok ? now.skill.name : now.kind, "missing");
 * ```
 */
export function readSkillNow(path: string, options: FreshOptions): FreshRead {
  let bytes: Uint8Array;
  const { confineTo } = options;
  try {
    // One file, read now: always compare its size (a pseudo-file never passes for a skill).
    const read = { maxBytes: MAX_SKILL_READ_BYTES, verifySize: true };
    bytes = confineTo === undefined
      ? readBoundedSync(path, { ...read, followSymlinks: true }).bytes
      : readBoundedSync(resolveLink(path, { within: confineTo }), read).bytes;
  } catch (error) {
    if (!(error instanceof ReadError)) throw error;
    if (error.kind === "missing") return failure("missing", error.message);
    if (error.kind === "unreadable") throw error;
    return failure("invalid", error.message);
  }
  return parseSkillBytes(bytes, options);
}

/**
 * Decodes (strict UTF-8) and parses bytes already read, for example the
 * SKILL.md bytes a bundle read hashed.
 *
 * @example
 * ```ts
 * import { parseSkillBytes } from "./_fresh.ts";
 * const bytes = new TextEncoder().encode("---\nname: demo\ndescription: Demo.\n---\nDo it.\n");
 * const now = parseSkillBytes(bytes, { fallbackName: "demo", lenient: false });
 * if (now.ok) console.log(now.skill.content); // "Do it."
 * ```
 */
export function parseSkillBytes(
  bytes: Uint8Array,
  options: FreshOptions,
): { ok: true; skill: ParsedSkill; bytes: Uint8Array } | Failure<"invalid"> {
  let text: string;
  try {
    text = decodeUtf8(bytes);
  } catch (error) {
    if (error instanceof ReadError) return failure("invalid", error.message);
    throw error;
  }
  const parsed = parseSkillMarkdown(text, options);
  if (!parsed.ok) return failure("invalid", parsed.message);
  return { ok: true, skill: parsed.skill, bytes };
}
