/// <reference lib="dom" />
/**
 * Section 2 of the page, "Check a SKILL.md": the chosen file is read and
 * hashed in the page, checked by the CLI's own parser and report code, shown
 * section by section, and offered as a JSON file entry identical in shape to
 * one entry of `check --json`. A newer selection cancels an older pending
 * read; changing the folder name re-checks the same bytes.
 *
 * @example
 * ```ts
 * import { setupCheck } from "./check.ts";
 * setupCheck();
 * ```
 * @module
 */
import type { ModeSummary } from "../../lib/skill/check.ts";
import type { SpecFinding } from "../../lib/skill/spec.ts";
import { byId, download, el, plural, reveal, takeFile } from "./dom.ts";
import {
  CHECK_MESSAGES,
  type FileEntry,
  inputError,
  MAX_SKILL_BYTES,
  sha256Bytes,
  skillEntry,
  type SkillSource,
} from "./skill_entry.ts";

interface Chosen {
  fileName: string;
  /** Absent when the file was refused before reading (too large, unreadable). */
  bytes?: Uint8Array;
  sha256?: string;
  error?: string;
}

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

function modeLine(summary: ModeSummary): string {
  if (!summary.ok) return `rejected: ${reveal(summary.reason)}`;
  const repairs = summary.warnings.length === 0
    ? "no repairs"
    : plural(summary.warnings.length, "repair");
  return `accepted as "${reveal(summary.name)}", ${repairs}`;
}

function fact(term: string, ...value: Array<Node | string>): Node[] {
  return [el("dt", { text: term }), el("dd", {}, ...value)];
}

function findingLine(f: SpecFinding): string {
  return `${f.severity} ${f.rule}: ${reveal(f.message)}${
    f.line === undefined ? "" : ` (line ${f.line})`
  }`;
}

function renderEntry(entry: FileEntry): Node[] {
  if (entry.status === "input_error") {
    return [
      wide(el(
        "p",
        {},
        el("span", { className: "verdict review", id: "check-verdict", text: "INPUT ERROR" }),
        " ",
        entry.error,
      )),
    ];
  }
  const { report } = entry;
  const { strict, lenient, spec, surface } = report;
  const errors = spec.findings.filter((f) => f.severity === "error").length;
  const warnings = spec.findings.length - errors;
  const chosen = strict.ok ? strict : lenient.ok ? lenient : undefined;
  const repairs = [
    ...(strict.ok ? strict.warnings.map((w) => `strict: ${w}`) : []),
    ...(lenient.ok ? lenient.warnings.map((w) => `lenient: ${w}`) : []),
  ];
  const parts: Node[] = [
    wide(el(
      "p",
      {},
      el("span", {
        className: entry.status === "passed" ? "verdict match" : "verdict review",
        id: "check-verdict",
        text: entry.status === "passed" ? "PASSED" : "FAILED",
      }),
      " ",
      el("span", {
        className: "hint",
        text: "as check decides by default: the strict parse must accept the file",
      }),
    )),
    wide(el(
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
      ...fact("Strict", modeLine(strict)),
      ...fact("Lenient", modeLine(lenient)),
      ...fact(
        "Specification",
        spec.ok
          ? `conforms (${plural(warnings, "warning")})`
          : `does not conform: ${plural(errors, "error")}, ${plural(warnings, "warning")}`,
      ),
      ...(chosen === undefined ? fact("Invocation", "unknown: neither parse accepted the file") : [
        ...fact("Description", reveal(chosen.description)),
        ...fact(
          "Invocation",
          `model may invoke: ${yesNo(chosen.invocation.modelInvocable)}, ` +
            `user may invoke: ${yesNo(chosen.invocation.userInvocable)} ` +
            `(${strict.ok ? "strict" : "lenient"} parse)`,
        ),
      ]),
      ...fact("Repairs", repairs.length === 0 ? "none" : `${repairs.length}, listed below`),
    )),
  ];
  if (repairs.length > 0) parts.push(section("Repairs", list(repairs.map(reveal), "")));
  if (spec.findings.length > 0) {
    parts.push(section("Specification findings", list(spec.findings.map(findingLine), "")));
  }
  parts.push(
    section(
      "External sources",
      list(
        surface.externalSources.map((source) =>
          el(
            "span",
            {},
            el("strong", { text: reveal(source.host) }),
            " ",
            el("span", {
              className: source.pinned ? "tag pinned" : "tag unpinned",
              text: source.pinned ? "pinned" : "not pinned",
            }),
            el(
              "ul",
              {},
              ...source.urls.map((url) => el("li", {}, el("code", { text: reveal(url) }))),
            ),
          )
        ),
        "None: the body names no http(s) URL.",
      ),
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
  );
  return parts;
}

/**
 * Wires section 2.
 *
 * @example
 * ```ts
 * setupCheck();
 * ```
 */
export function setupCheck(): void {
  const input = byId<HTMLInputElement>("skill-file");
  const folder = byId<HTMLInputElement>("skill-folder");
  const status = byId("check-status");
  const result = byId("check-result");
  const button = byId<HTMLButtonElement>("download-report");
  let token = 0;
  let chosen: Chosen | undefined;
  let entry: FileEntry | undefined;

  function show(): void {
    if (chosen === undefined) return;
    const source: SkillSource = { fileName: chosen.fileName, folder: folder.value };
    entry = chosen.error !== undefined || chosen.bytes === undefined || chosen.sha256 === undefined
      ? inputError(source, chosen.error ?? CHECK_MESSAGES.unreadable)
      : skillEntry(chosen.bytes, chosen.sha256, source);
    result.dataset.state = "ready";
    status.textContent = `Checked ${reveal(chosen.fileName)} in this page.`;
    result.replaceChildren(...renderEntry(entry));
    button.disabled = false;
  }

  async function select(file: File): Promise<void> {
    const mine = ++token;
    chosen = undefined;
    entry = undefined;
    button.disabled = true;
    result.dataset.state = "loading";
    result.replaceChildren();
    status.textContent = `Reading ${reveal(file.name)}…`;
    let next: Chosen;
    if (file.size > MAX_SKILL_BYTES) {
      next = { fileName: file.name, error: CHECK_MESSAGES.tooLarge };
    } else {
      try {
        const bytes = new Uint8Array(await file.arrayBuffer());
        next = { fileName: file.name, bytes, sha256: await sha256Bytes(bytes) };
      } catch {
        next = { fileName: file.name, error: CHECK_MESSAGES.unreadable };
      }
    }
    if (mine !== token) return; // a newer file was chosen meanwhile
    chosen = next;
    show();
  }

  input.addEventListener("change", () => {
    const file = takeFile(input);
    if (file !== undefined) void select(file);
  });
  folder.addEventListener("input", show);
  button.addEventListener("click", () => {
    if (entry !== undefined) download("skill-check.json", JSON.stringify(entry, null, 2) + "\n");
  });
}
