/**
 * Skill names: the grammar every published name follows, and the
 * normalisation that turns a loose name into one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isSkillName, normalizeSkillName } from "./_names.ts";
 * assert.equal(isSkillName("pdf-forms"), true);
 * assert.equal(normalizeSkillName("PDF Processing"), "pdf-processing");
 * ```
 * @module
 */

/** The longest valid skill name. */
export const MAX_NAME_LENGTH = 64;
/** The longest description allowed: strict parsing fails a longer one, lenient parsing cuts it. */
export const MAX_DESCRIPTION_LENGTH = 1024;

const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Whether `value` is a valid skill name: lowercase ASCII letters and digits in
 * groups joined by single hyphens, 1 to 64 characters.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(isSkillName("ok-name"), true);
 * assert.equal(isSkillName("a--b"), false);
 * ```
 */
export function isSkillName(value: unknown): value is string {
  return typeof value === "string" && value.length >= 1 &&
    value.length <= MAX_NAME_LENGTH && NAME_PATTERN.test(value);
}

/**
 * Normalises a loose name: compatibility decomposition, combining marks
 * removed, lowercase, every run of other characters becomes one hyphen, ends
 * trimmed, cut to 64. Returns `undefined` when nothing valid remains.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(normalizeSkillName("Café Résumé"), "cafe-resume");
 * assert.equal(normalizeSkillName("日本語"), undefined);
 * ```
 */
export function normalizeSkillName(value: string): string | undefined {
  const folded = value.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase();
  let out = "";
  let pendingHyphen = false;
  for (const ch of folded) {
    const code = ch.charCodeAt(0);
    const alnum = (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39);
    if (alnum && ch.length === 1) {
      if (pendingHyphen && out.length > 0) out += "-";
      pendingHyphen = false;
      out += ch;
    } else {
      pendingHyphen = true;
    }
  }
  out = trimHyphens(out.slice(0, MAX_NAME_LENGTH));
  return isSkillName(out) ? out : undefined;
}

function trimHyphens(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && value[start] === "-") start++;
  while (end > start && value[end - 1] === "-") end--;
  return value.slice(start, end);
}
