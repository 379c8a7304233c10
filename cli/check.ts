/**
 * The `check` command: validate named SKILL.md files and print the report.
 *
 * @example
 * ```ts
 * import { runCheck } from "./check.ts";
 * import { processIo } from "./io.ts";
 * const exitCode = await runCheck(["SKILL.md"], { json: true }, ".", processIo());
 * ```
 * @module
 */
import type { CheckProfile } from "../lib/check/mod.ts";
import { checkFiles, type FileCheckReport, type FileEntry } from "../lib/check/mod.ts";
import type { HiddenCharacter } from "../lib/skill/mod.ts";
import type { ExternalSource } from "../lib/skill/mod.ts";
import { type OptionValues, UsageError } from "./args.ts";
import { escapeTerminal, jsonText, quote } from "./escape.ts";
import type { Io } from "./io.ts";
import { checkSarif, reportFormat } from "./sarif.ts";
import {
  checkSignatures,
  type SignatureEntry,
  signatureLevel,
  signersForCheck,
} from "./check_signatures.ts";
import { outStyles, type Styles } from "./style.ts";
import { counted } from "../lib/text.ts";
import { EXIT } from "./program.ts";

type CheckedEntry = Exclude<FileEntry, { status: "input_error" }>;

const PROFILES: readonly CheckProfile[] = ["strict", "lenient", "spec", "reference"];

function selectProfile(values: OptionValues): CheckProfile {
  const profile = values.profile;
  if (profile !== undefined && !PROFILES.includes(profile as CheckProfile)) {
    throw new UsageError(
      `--profile must be strict, lenient, spec or reference (got ${quote(profile)})`,
    );
  }
  if (values.lenient && profile !== undefined && profile !== "lenient") {
    throw new UsageError(`--lenient cannot be combined with --profile ${profile}`);
  }
  return values.lenient ? "lenient" : (profile as CheckProfile | undefined) ?? "strict";
}

/**
 * Runs `check`; returns the exit code (0 all passed, 1 a file failed, 2 an input error).
 *
 * @throws {UsageError} When the command line asks for something the command does not take.
 *
 * @example
 * ```ts
 * import { runCheck } from "./check.ts";
 * import { processIo } from "./io.ts";
 * await runCheck(["skills/demo/SKILL.md"], { profile: "spec" }, "/repo", processIo());
 * ```
 */
export async function runCheck(
  files: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  const profile = selectProfile(values);
  reportFormat(values);
  if (files.length === 0) throw new UsageError("check needs at least one file or skill directory");
  const report = await checkFiles(files, {
    cwd,
    profile,
    failOnRepair: values["fail-on-repair"],
    requirePinnedSources: values["require-pinned-sources"],
    failOnHiddenCharacters: values["fail-on-hidden-characters"],
    resources: values.resources,
    failOnResourceIssues: values["fail-on-resource-issues"],
    resourcesHint: "with --resources",
  });
  const format = reportFormat(values);
  const signers = await signersForCheck(values, cwd);
  const signatures = signers === undefined ? [] : await checkSignatures(report, signers, cwd);
  const findings = signatures.flatMap((entry) => {
    const level = signatureLevel(entry, signers?.require === true);
    const text = entry.status === "signed" ? "" : `${entry.kind}: ${entry.message}`;
    return level === undefined ? [] : [{ path: entry.path, level, text }];
  });
  const exitCode = report.exitCode === EXIT.ok && findings.some((f) => f.level === "error")
    ? EXIT.failed
    : report.exitCode;
  if (format === "sarif") io.out(jsonText(checkSarif(report, cwd, findings)));
  else if (format === "json") {
    io.out(jsonText(signers === undefined ? report : { ...report, exitCode, signatures }));
  } else io.out(renderCheck(report, outStyles(io)) + signatureText(signatures, findings));
  return exitCode;
}

/** One line per checked directory's signature, after the report; every path escaped. */
function signatureText(signatures: SignatureEntry[], findings: { level: string }[]): string {
  if (signatures.length === 0) return "";
  const failing = findings.filter((f) => f.level === "error").length;
  return signatures.map((s) =>
    s.status === "signed"
      ? `Signature ${quote(s.path)}: signed by ${quote(s.principal)} (${s.fingerprint})\n`
      : `Signature ${quote(s.path)}: ${escapeTerminal(s.kind)}: ${escapeTerminal(s.message)}\n`
  ).join("") + (failing > 0 ? `${counted(failing, "signature")} not accepted.\n` : "");
}

/** Where a hidden character sits: raw count and lines, then the decoded fields. */
function hiddenWhere(hidden: HiddenCharacter): string {
  const parts: string[] = [];
  if (hidden.count > 0) {
    parts.push(`x${hidden.count}`);
    parts.push(lineList(hidden.lines));
  }
  if (hidden.fields.length > 0) {
    const plural = hidden.fields.length > 1 ? "s" : "";
    const escaped = hidden.count === 0 ? " (decoded from a YAML escape)" : "";
    parts.push(`field${plural} ${hidden.fields.map(quote).join(", ")}${escaped}`);
  }
  return (hidden.count > 0 ? " " : ", ") + parts.join(", ");
}

/** Whether a source is pinned, as the report's gate sees it. */
function pinState(source: ExternalSource, report: FileCheckReport): string {
  if (source.pinned) return "pinned";
  if (source.reserved) return "loopback or reserved name: exempt from pinning";
  return report.requirePinnedSources ? "not pinned: required" : "not pinned";
}

/** `line 3` or `lines 3, 7`. */
function lineList(lines: number[]): string {
  return `line${lines.length > 1 ? "s" : ""} ${lines.join(", ")}`;
}

/** The surface lines of one checked file: sources, declared tools, hidden characters. */
function surfaceLines(file: CheckedEntry, report: FileCheckReport): string[] {
  const lines: string[] = [];
  const surface = file.report.surface;
  for (const source of surface.externalSources) {
    lines.push(
      `  External source: ${quote(source.host)} (${pinState(source, report)}), ${
        lineList(source.lines)
      }`,
    );
  }
  if (surface.declaredTools.length > 0) {
    lines.push(`  Declared tools: ${quote(surface.declaredTools.join(", "))}`);
  }
  for (const hidden of surface.hiddenCharacters) {
    const gate = report.failOnHiddenCharacters ? " (not allowed)" : "";
    lines.push(
      `  Hidden characters: ${hidden.codePoint} ${hidden.name}${hiddenWhere(hidden)}${gate}`,
    );
  }
  return lines;
}

/** The resource and specification lines of one checked file. */
function findingLines(file: CheckedEntry): string[] {
  const lines: string[] = [];
  if (file.resources !== undefined) {
    const { present, total } = file.resources.counts;
    lines.push(`  Local resources: ${present}/${total} present`);
    for (const ref of file.resources.references) {
      if (ref.status === "present") continue;
      const notes = [
        ...(ref.source === "text" ? ["named in the text"] : []),
        ...(ref.onDisk === undefined ? [] : [`on disk: ${quote(ref.onDisk)}`]),
      ];
      const note = notes.length > 0 ? ` (${notes.join("; ")})` : "";
      lines.push(`  Resource ${ref.status}, line ${ref.line}: ${quote(ref.url)}${note}`);
    }
  }
  for (const finding of file.report.spec.findings) {
    const line = finding.line === undefined ? "" : ` (line ${finding.line})`;
    lines.push(
      `  Spec ${finding.severity} ${finding.rule}: ${escapeTerminal(finding.message)}${line}`,
    );
  }
  return lines;
}

/** A file's verdict word, green when it passed and red otherwise. */
function verdict(file: FileEntry, st: Styles): string {
  const word = file.status.toUpperCase();
  return file.status === "passed" ? st.ok(word) : st.bad(word);
}

/** The lines of one file entry. */
function fileLines(file: FileEntry, report: FileCheckReport, st: Styles): string[] {
  const lines = [`${verdict(file, st)} ${quote(file.path)}`];
  if (file.status === "input_error") return [...lines, `  ${quote(file.error)}`];
  const summary = report.mode === "lenient" ? file.report.lenient : file.report.strict;
  if (!summary.ok) lines.push(`  ${quote(summary.reason)}`);
  else for (const warning of summary.warnings) lines.push(`  Repair: ${quote(warning)}`);
  lines.push(`  SHA-256: ${file.sha256}`);
  return [...lines, ...surfaceLines(file, report), ...findingLines(file)];
}

/**
 * Why specification findings shown under a PASSED file did not fail it: the strict and lenient profiles check the
 * parse only (spec errors are shown, not gated), the spec profile lets extension fields pass.
 * Names the profile that would fail them; nothing when every finding shown counts.
 */
function profileNote(report: FileCheckReport): string[] {
  const findings = report.files.flatMap((file) =>
    file.status === "passed" ? file.report.spec.findings : []
  );
  const gated = report.profile === "strict" || report.profile === "lenient";
  if (gated) {
    const errors = findings.filter((f) => f.severity === "error").length;
    if (errors === 0) return [];
    const verb = errors === 1 ? "does" : "do";
    return [
      `${
        counted(errors, "spec error")
      } ${verb} not fail the ${report.profile} profile (it checks ` +
      `the parse only); --profile spec would fail ${errors === 1 ? "it" : "them"}.`,
    ];
  }
  if (report.profile !== "spec") return [];
  const extensions = findings.filter((f) => f.rule === "extension-field").length;
  if (extensions === 0) return [];
  return [
    `${counted(extensions, "extension field")} ${extensions === 1 ? "does" : "do"} not fail the ` +
    `spec profile; --profile reference would fail ${extensions === 1 ? "it" : "them"}.`,
  ];
}

/** The human form of a file-check report. Every input-derived string is escaped, then styled. */
function renderCheck(report: FileCheckReport, st: Styles): string {
  const { passed, failed, inputErrors } = report.counts;
  return [
    ...report.files.flatMap((file) => fileLines(file, report, st)),
    "",
    `${passed} passed, ${failed} failed, ${
      counted(inputErrors, "input error")
    } (${report.profile}).`,
    ...profileNote(report),
    report.scope,
  ].join("\n") + "\n";
}
