// What the SKILL.md parser and YAML tests share: a document builder, the two parse modes, result
// unwrappers, and the "billion laughs" alias bomb.
import type { ParsedSkill, ParseOptions, ParseResult } from "../lib/skill/parse.ts";

/** A document with the given frontmatter lines and body. */
export function doc(frontmatter: string[], body = "Body text."): string {
  return `---\n${frontmatter.join("\n")}\n---\n${body}`;
}

/** The parsed skill of a result that must have succeeded. */
export function parsed(result: ParseResult): ParsedSkill {
  if (!result.ok) throw new Error(`expected success, got failure: ${result.message}`);
  return result.skill;
}

/** The message of a result that must have failed. */
export function failure(result: ParseResult): string {
  if (result.ok) throw new Error(`expected failure, got skill ${JSON.stringify(result.skill)}`);
  return result.message;
}

/** Strict parsing with a fallback name. */
export const strict: ParseOptions = { fallbackName: "fallback", lenient: false };

/** Lenient parsing with a fallback name. */
export const lenient: ParseOptions = { fallbackName: "fallback", lenient: true };

/** A YAML alias bomb: nine levels of nine aliases each (9^9 nodes once expanded). */
export const BILLION_LAUGHS: readonly string[] = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]",
  "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]",
  "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]",
  "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]",
  "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]",
  "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]",
  "h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]",
  "i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]",
];
