/**
 * YAML for frontmatter: YAML 1.2 core schema, duplicate keys rejected, at most
 * 64 aliases, a bounded expanded size (a "billion laughs" document fails at
 * once) and error messages that name the line in the file.
 *
 * @example
 * ```ts
 * import { parseFrontmatterYaml } from "./_yaml.ts";
 * const result = parseFrontmatterYaml("name: demo", { firstLine: 2 });
 * if (result.ok) console.log(result.value);
 * ```
 * @module
 */
import { FAILSAFE_SCHEMA, load } from "js-yaml";
import { type Failure, failure } from "../errors.ts";
import { readSimpleYaml } from "./_simple_yaml.ts";

/** Most aliases a frontmatter document may use. */
export const MAX_ALIASES = 64;
/** Most nodes the document may expand to once aliases are followed. */
const MAX_EXPANDED_NODES = 10_000;
/** Deepest nesting accepted. */
const MAX_DEPTH = 64;

/**
 * Why YAML was refused: `invalid` when the YAML reader refused it (syntax, a duplicate key,
 * too many aliases, too deep), `expands-too-far` when its aliases expand past the node cap.
 */
export type YamlFailureKind = "invalid" | "expands-too-far";

/** A parse result: the value, or the failure with a one-line message naming the file line. */
export type YamlResult =
  | { ok: true; value: unknown }
  | (Failure<YamlFailureKind> & { line: number });

/** Options of {@linkcode parseFrontmatterYaml}. */
export interface YamlOptions {
  /**
   * The file line of the first YAML line, so errors name file lines.
   *
   * @default {1}
   */
  firstLine?: number;
  /** Read every scalar as a string (the failsafe schema), as the spec rules do. */
  scalarsAsStrings?: boolean;
}

/**
 * Parses one YAML document. Empty or whitespace-only text is `null`.
 *
 * @example
 * ```ts
 * parseFrontmatterYaml("a: 1\na: 2", { firstLine: 2 });
 * // { ok: false, kind: "invalid", message: "duplicated mapping key at line 3, column 1", line: 3 }
 * ```
 */
export function parseFrontmatterYaml(text: string, options: YamlOptions = {}): YamlResult {
  const firstLine = options.firstLine ?? 1;
  if (text.trim() === "") return { ok: true, value: null };
  // The plain `key: value` frontmatter of most skills, read exactly as the full reader would.
  if (!options.scalarsAsStrings) {
    const simple = readSimpleYaml(text);
    if (simple !== undefined) return { ok: true, value: simple };
  }
  let value: unknown;
  try {
    value = load(text, {
      maxAliases: MAX_ALIASES,
      maxDepth: MAX_DEPTH,
      ...(options.scalarsAsStrings ? { schema: FAILSAFE_SCHEMA } : {}),
    });
  } catch (error) {
    const { message, line } = describeYamlError(error, firstLine);
    return { ...failure("invalid", message), line };
  }
  if (expandedSize(value, new Map()) > MAX_EXPANDED_NODES) {
    const message =
      `aliases expand to more than ${MAX_EXPANDED_NODES} nodes (frontmatter from line ${firstLine})`;
    return { ...failure("expands-too-far", message), line: firstLine };
  }
  return { ok: true, value };
}

/** The reader's error as one line naming the file line (its own line when it gives one). */
function describeYamlError(error: unknown, firstLine: number): { message: string; line: number } {
  const e = error as { reason?: unknown; mark?: { line?: number; column?: number } };
  const mark = e?.mark;
  if (typeof e?.reason === "string") {
    if (mark && typeof mark.line === "number" && typeof mark.column === "number") {
      const line = mark.line + firstLine;
      return { message: `${e.reason} at line ${line}, column ${mark.column + 1}`, line };
    }
    return { message: `${e.reason} (frontmatter from line ${firstLine})`, line: firstLine };
  }
  const text = error instanceof RangeError
    ? "nesting is too deep"
    : error instanceof Error
    ? error.message.split("\n")[0]
    : String(error);
  return { message: `${text} (frontmatter from line ${firstLine})`, line: firstLine };
}

/** Counts nodes as if every alias were copied, memoised on shared objects. */
function expandedSize(value: unknown, seen: Map<object, number>): number {
  if (value === null || typeof value !== "object") return 1;
  const known = seen.get(value);
  if (known !== undefined) return known;
  seen.set(value, Infinity); // a cycle can only come from an alias loop
  let size = 1;
  const children = Array.isArray(value) ? value : Object.values(value);
  for (const child of children) {
    size += expandedSize(child, seen);
    if (size > MAX_EXPANDED_NODES) break;
  }
  seen.set(value, size);
  return size;
}

/** A frontmatter text with unquoted `key: value: more` lines quoted, and the lines changed. */
export interface QuotedColons {
  /** The text with every such value written as a double-quoted string. */
  text: string;
  /** The file lines (counted from `firstLine`) whose value was quoted, in order. */
  lines: number[];
}

/** A `key: value` line: indent, key and the value after `: ` (a plain key, any indent). */
const KEY_LINE = /^([ \t]*)([A-Za-z0-9_][A-Za-z0-9_.-]*):[ \t]+(\S.*)$/;
/** The first characters that make a value something other than a plain scalar. */
const NOT_PLAIN = /^["'|>[{&*!#%@`]/;

/**
 * Quotes the plain values that hold `: `, the most common YAML mistake in
 * skills written for other clients (`description: Use this skill when: the
 * user asks`). A value's more-indented continuation lines are folded into
 * it with single spaces, as YAML folds a plain scalar; a ` #` comment is
 * left after the quoted value. Other lines are unchanged. The Agent Skills
 * client implementation guide advises retrying such values as quoted
 * strings; the caller decides whether to.
 *
 * @example
 * ```ts
 * import { quoteColonValues } from "./_yaml.ts";
 * quoteColonValues("name: pdf\ndescription: Use this skill when: the user asks", { firstLine: 2 });
 * // { text: 'name: pdf\ndescription: "Use this skill when: the user asks"', lines: [3] }
 * ```
 */
export function quoteColonValues(text: string, options: { firstLine?: number } = {}): QuotedColons {
  const firstLine = options.firstLine ?? 1;
  const source = text.split("\n");
  const out: string[] = [];
  const lines: number[] = [];
  for (let index = 0; index < source.length; index++) {
    const match = KEY_LINE.exec(source[index]);
    const plain = match === null ? undefined : plainValue(match[3]);
    if (match === null || plain === undefined || !/:[ \t]/.test(plain.value)) {
      out.push(source[index]);
      // A block scalar's lines are text, never keys: copy them unchanged.
      if (match !== null && /^[|>]/.test(match[3])) {
        while (index + 1 < source.length && isBlockLine(source[index + 1], match[1])) {
          out.push(source[++index]);
        }
      }
      continue;
    }
    const [, indent, key] = match;
    const parts = [plain.value];
    let comment = plain.comment;
    // A comment ends a plain scalar: no line after it continues the value.
    while (
      comment === "" && index + 1 < source.length && isContinuation(source[index + 1], indent)
    ) {
      const next = splitComment(source[++index].trim());
      parts.push(next.value);
      comment = next.comment;
    }
    out.push(`${indent}${key}: ${JSON.stringify(parts.join(" "))}${comment}`);
    lines.push(firstLine + index - (parts.length - 1));
  }
  return { text: out.join("\n"), lines };
}

/** A plain scalar and its trailing comment, or `undefined` when the value is not plain. */
function plainValue(raw: string): { value: string; comment: string } | undefined {
  if (NOT_PLAIN.test(raw) || raw.startsWith("- ") || raw.startsWith("? ")) return undefined;
  return splitComment(raw);
}

/** A line's text before a ` #` comment, and the comment with its leading space. */
function splitComment(raw: string): { value: string; comment: string } {
  const hash = raw.search(/[ \t]#/);
  const value = (hash < 0 ? raw : raw.slice(0, hash)).trimEnd();
  return { value, comment: hash < 0 ? "" : raw.slice(hash) };
}

/** Whether `line` continues a plain value whose key sits at `indent`. */
function isContinuation(line: string, indent: string): boolean {
  if (line.trim() === "" || line.trimStart().startsWith("#")) return false;
  const own = /^[ \t]*/.exec(line)![0];
  return own.length > indent.length;
}

/** Whether `line` belongs to a block scalar whose key sits at `indent` (blank lines do). */
function isBlockLine(line: string, indent: string): boolean {
  return line.trim() === "" || /^[ \t]*/.exec(line)![0].length > indent.length;
}
