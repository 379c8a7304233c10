/**
 * The author's opt-out, found without trusting the frontmatter to be well
 * formed: a bounded, linear scan of the first lines of a skill's text for
 * `disable-model-invocation: true` (or a legacy key), so that a sloppy or
 * hostile frontmatter (unclosed, closed with `----`, preceded by a blank
 * line, a space or a BOM, CR-only line ends, missing) never makes a skill
 * its author disabled model-invocable. The parser (`parse.ts`) applies it
 * after its own YAML read; the module imports nothing, so the browser uses
 * it unchanged.
 *
 * @example
 * ```ts
 * import { declaredOptOut } from "./_opt_out.ts";
 * declaredOptOut("---\nname: x\ndisable-model-invocation: true\n"); // true (unclosed)
 * ```
 * @module
 */

/** Most characters of the text the opt-out scan reads. */
const OPT_OUT_SCAN_CHARS = 8192;
/** Most lines of the text the opt-out scan reads. */
const OPT_OUT_SCAN_LINES = 64;

/** Opt-out keys with the value that opts out, compared lower-case without `-` and `_`. */
const OPT_OUT_KEYS: ReadonlyMap<string, boolean> = new Map([
  ["disablemodelinvocation", true],
  ["modelinvocable", false],
]);
const LOOSE_TRUE = new Set(["true", "yes", "on", "y", "1"]);
const LOOSE_FALSE = new Set(["false", "no", "off", "n", "0"]);

/** Removes one pair of matching outer quotes. */
function unquote(text: string): string {
  const first = text[0];
  if (text.length >= 2 && (first === '"' || first === "'") && text[text.length - 1] === first) {
    return text.slice(1, -1).trim();
  }
  return text;
}

/** The boolean a `key: value` line sets for an opt-out key, or `undefined`. */
function optOutLine(line: string): boolean | undefined {
  const colon = line.indexOf(":");
  if (colon < 0) return undefined;
  const key = unquote(line.slice(0, colon).trim()).toLowerCase().replace(/[-_]/g, "");
  const optsOutWhen = OPT_OUT_KEYS.get(key);
  if (optsOutWhen === undefined) return undefined;
  let value = line.slice(colon + 1);
  const comment = value.indexOf(" #");
  if (comment >= 0) value = value.slice(0, comment);
  const word = unquote(value.trim()).toLowerCase();
  if (LOOSE_TRUE.has(word)) return optsOutWhen;
  if (LOOSE_FALSE.has(word)) return !optsOutWhen;
  return undefined;
}

/**
 * Whether the first lines of `text` declare the author's opt-out
 * (`disable-model-invocation`, `disableModelInvocation` true, or
 * `modelInvocable` false; any case, quoting, YAML 1.1/1.2 boolean word).
 *
 * A bounded, linear scan of at most 8192 characters and 64 lines, split on LF, CRLF or CR, each line
 * stripped of leading spaces, tabs and BOMs. It reads the YAML-looking head of
 * the file: blank lines, delimiter lines (`---`, `----`, `...`), indented
 * lines, list items, lines with a colon, and `#` comments after an opening
 * delimiter. It stops at the first other line (a Markdown heading or prose) or at a
 * code fence, so prose later in the body never opts out.
 *
 * @example
 * ```ts
 * import { declaredOptOut } from "./_opt_out.ts";
 * declaredOptOut("\n---\nname: x\ndisable-model-invocation: true\n"); // true
 * declaredOptOut("# Notes\n\ndisable-model-invocation: true\n"); // false
 * ```
 */
export function declaredOptOut(text: string): boolean {
  const head = text.slice(0, OPT_OUT_SCAN_CHARS);
  let start = 0;
  let delimiters = 0;
  for (let count = 0; count < OPT_OUT_SCAN_LINES && start <= head.length; count++) {
    let end = start;
    while (end < head.length && head[end] !== "\n" && head[end] !== "\r") end++;
    // A line cut by the character bound is not read.
    if (end === head.length && head.length < text.length) return false;
    const raw = head.slice(start, end);
    start = end + (head[end] === "\r" && head[end + 1] === "\n" ? 2 : 1);
    const line = raw.replace(/^[ \t\uFEFF]+/, "").trimEnd();
    if (line === "") continue;
    if (line.startsWith("```") || line.startsWith("~~~")) return false;
    if (/^(?:-{3,}|\.{3})$/.test(line)) {
      delimiters++;
      continue;
    }
    // Inside a frontmatter `#` starts a comment; elsewhere a Markdown heading starts the body.
    if (line.startsWith("#")) {
      if (delimiters % 2 === 1) continue;
      return false;
    }
    if (optOutLine(line) === true) return true;
    const yamlLike = /^[ \t]/.test(raw) || line.includes(":") || line.startsWith("-");
    if (!yamlLike) return false;
  }
  return false;
}
