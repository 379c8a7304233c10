/// <reference lib="dom" />
/**
 * The render half of section 2, "Check a SKILL.md": one `check --json` file
 * entry turned into page elements (a verdict, a list of facts, then one part
 * per finding kind). Every input-derived string is passed through
 * {@linkcode reveal} and set as text, never as HTML.
 *
 * @example
 * ```ts
 * import { renderEntry } from "./check_view.ts";
 * // Type-checked, not run by the doc test: it needs a browser page's document.
 * function example() {
 *   document.body.append(...renderEntry({ path: "x.md", status: "input_error", error: "No such file", kind: "missing" }));
 * }
 * ```
 * @module
 */
import type { LocalCheckReport, ModeSummary } from "../../lib/check/portable.ts";
import type { FileEntry } from "../../lib/check/portable.ts";
import type { SpecFinding } from "../../lib/check/portable.ts";
import { el, plural, reveal } from "./dom.ts";

type CheckedEntry = Exclude<FileEntry, { status: "input_error" }>;

function yesNo(value: boolean): string {
  return value ? "yes" : "no";
}

function section(title: string, ...content: Array<Node | string>): HTMLElement {
  return el("section", { className: "report-part" }, el("h3", { text: title }), ...content);
}

function wide<T extends HTMLElement>(element: T): T {
  element.classList.add("wide");
  return element;
}

function list(items: Array<Node | string>, empty: string): HTMLElement {
  if (items.length === 0) return el("p", { className: "none", text: empty });
  return el("ul", {}, ...items.map((item) => el("li", {}, item)));
}

function fact(term: string, ...value: Array<Node | string>): Node[] {
  return [el("dt", { text: term }), el("dd", {}, ...value)];
}

function modeLine(summary: ModeSummary): string {
  if (!summary.ok) return `rejected: ${reveal(summary.reason)}`;
  const repairs = summary.warnings.length === 0
    ? "no repairs"
    : plural(summary.warnings.length, "repair");
  return `accepted as "${reveal(summary.name)}", ${repairs}`;
}

function findingLine(f: SpecFinding): string {
  const line = f.line === undefined ? "" : ` (line ${f.line})`;
  return `${f.severity} ${f.rule}: ${reveal(f.message)}${line}`;
}

/** Every repair either parse made, labelled with the parse. */
function repairsOf({ strict, lenient }: LocalCheckReport): string[] {
  return [
    ...(strict.ok ? strict.warnings.map((w) => `strict: ${w}`) : []),
    ...(lenient.ok ? lenient.warnings.map((w) => `lenient: ${w}`) : []),
  ];
}

function verdict(status: FileEntry["status"], ...rest: Array<Node | string>): HTMLElement {
  const [className, text] = status === "passed"
    ? ["verdict match", "PASSED"]
    : ["verdict review", status === "failed" ? "FAILED" : "INPUT ERROR"];
  return wide(el("p", {}, el("span", { className, id: "check-verdict", text }), " ", ...rest));
}

function specFact({ spec }: LocalCheckReport): Node[] {
  const errors = spec.findings.filter((f) => f.severity === "error").length;
  const warnings = spec.findings.length - errors;
  return fact(
    "Specification",
    spec.ok
      ? `conforms (${plural(warnings, "warning")})`
      : `does not conform: ${plural(errors, "error")}, ${plural(warnings, "warning")}`,
  );
}

function invocationFacts({ strict, lenient }: LocalCheckReport): Node[] {
  const chosen = strict.ok ? strict : lenient.ok ? lenient : undefined;
  if (chosen === undefined) return fact("Invocation", "unknown: neither parse accepted the file");
  return [
    ...fact("Description", reveal(chosen.description)),
    ...fact(
      "Invocation",
      `model may invoke: ${yesNo(chosen.invocation.modelInvocable)}, ` +
        `user may invoke: ${yesNo(chosen.invocation.userInvocable)} ` +
        `(${strict.ok ? "strict" : "lenient"} parse)`,
    ),
  ];
}

/** The list of facts: file, digest, both parses, conformance, invocation, repairs. */
function facts(entry: CheckedEntry): HTMLElement {
  const { report } = entry;
  const repairs = repairsOf(report).length;
  return wide(el(
    "dl",
    { className: "facts" },
    ...fact(
      "File",
      el("code", { text: reveal(entry.path) }),
      `, ${plural(report.input.bytes, "byte")}, fallback name "${
        reveal(report.input.fallbackName)
      }"`,
    ),
    ...fact("SHA-256", el("code", { className: "digest", text: entry.sha256 })),
    ...fact("Strict", modeLine(report.strict)),
    ...fact("Lenient", modeLine(report.lenient)),
    ...specFact(report),
    ...invocationFacts(report),
    ...fact("Repairs", repairs === 0 ? "none" : `${repairs}, listed below`),
  ));
}

function sourceItem(source: LocalCheckReport["surface"]["externalSources"][number]): Node {
  return el(
    "span",
    {},
    el("strong", { text: reveal(source.host) }),
    " ",
    el("span", {
      className: source.pinned ? "tag pinned" : "tag unpinned",
      text: source.pinned ? "pinned" : "not pinned",
    }),
    el("ul", {}, ...source.urls.map((url) => el("li", {}, el("code", { text: reveal(url) })))),
  );
}

/** The surface parts: external sources, declared tools, hidden characters, not assessed. */
function surfaceSections({ surface }: LocalCheckReport): HTMLElement[] {
  return [
    section(
      "External sources",
      list(surface.externalSources.map(sourceItem), "None: the body names no http(s) URL."),
    ),
    section(
      "Declared tools",
      list(
        surface.declaredTools.map((tool) => el("code", { text: reveal(tool) })),
        "None declared (an empty list does not narrow anything).",
      ),
    ),
    section(
      "Hidden characters",
      list(
        surface.hiddenCharacters.map((h) =>
          `${h.codePoint} ${h.name} (${h.kind}) ×${h.count}, ` +
          `${h.lines.length === 1 ? "line" : "lines"} ${h.lines.join(", ")}`
        ),
        "None.",
      ),
    ),
    wide(el(
      "details",
      { className: "report-part" },
      el("summary", { text: "Not assessed by this check" }),
      list([...surface.notAssessed], ""),
    )),
  ];
}

/**
 * The elements showing one file entry.
 *
 * @example
 * ```ts
 * import { renderEntry } from "./check_view.ts";
 * import { skillEntry } from "./skill_entry.ts";
 * // Type-checked, not run by the doc test: it needs a browser page's document.
 * function example() {
 *   const entry = skillEntry(new Uint8Array(), "", { fileName: "SKILL.md", folder: "" });
 *   document.body.append(...renderEntry(entry));
 * }
 * ```
 */
export function renderEntry(entry: FileEntry): Node[] {
  if (entry.status === "input_error") return [verdict(entry.status, entry.error)];
  const { report } = entry;
  const repairs = repairsOf(report);
  const hint = "as check decides by default: the strict parse must accept the file";
  const parts: Node[] = [
    verdict(entry.status, el("span", { className: "hint", text: hint })),
    facts(entry),
  ];
  if (repairs.length > 0) parts.push(section("Repairs", list(repairs.map(reveal), "")));
  if (report.spec.findings.length > 0) {
    parts.push(
      section("Specification findings", list(report.spec.findings.map(findingLine), "")),
    );
  }
  parts.push(...surfaceSections(report));
  return parts;
}
