/**
 * The `check` command: validate named SKILL.md files and print the report.
 *
 * @example
 * ```ts
 * import { runCheck } from "./check.ts";
 * ```
 * @module
 */
import { checkFiles, type CheckProfile, type FileCheckReport } from "../skill/check_files.ts";
import type { HiddenCharacter } from "../skill/hidden.ts";
import { type OptionValues, UsageError } from "./args.ts";
import { escapeTerminal, jsonText, quote } from "./escape.ts";
import type { Io } from "./io.ts";

const PROFILES: readonly CheckProfile[] = ["strict", "lenient", "spec"];

function selectProfile(values: OptionValues): CheckProfile {
  const profile = values.profile;
  if (profile !== undefined && !PROFILES.includes(profile as CheckProfile)) {
    throw new UsageError(`--profile must be strict, lenient or spec (got ${quote(profile)}).`);
  }
  if (values.lenient && profile !== undefined && profile !== "lenient") {
    throw new UsageError(`--lenient cannot be combined with --profile ${profile}.`);
  }
  return values.lenient ? "lenient" : (profile as CheckProfile | undefined) ?? "strict";
}

/** Runs `check`; returns the exit code. */
export async function runCheck(
  files: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  const profile = selectProfile(values);
  if (files.length === 0) throw new UsageError("check needs at least one file.");
  const report = await checkFiles(files, {
    cwd,
    profile,
    failOnRepair: values["fail-on-repair"],
    requirePinnedSources: values["require-pinned-sources"],
    failOnHiddenCharacters: values["fail-on-hidden-characters"],
    resources: values.resources,
    failOnResourceIssues: values["fail-on-resource-issues"],
  });
  io.out(values.json ? jsonText(report) : renderCheck(report));
  return report.exitCode;
}

/** Where a hidden character sits: raw count and lines, then the decoded fields. */
function hiddenWhere(hidden: HiddenCharacter): string {
  const parts: string[] = [];
  if (hidden.count > 0) {
    parts.push(`x${hidden.count}`);
    parts.push(`line${hidden.lines.length > 1 ? "s" : ""} ${hidden.lines.join(", ")}`);
  }
  if (hidden.fields.length > 0) {
    const plural = hidden.fields.length > 1 ? "s" : "";
    const escaped = hidden.count === 0 ? " (decoded from a YAML escape)" : "";
    parts.push(`field${plural} ${hidden.fields.map(quote).join(", ")}${escaped}`);
  }
  return (hidden.count > 0 ? " " : ", ") + parts.join(", ");
}

/** The human form of a file-check report. Every input-derived string is escaped. */
export function renderCheck(report: FileCheckReport): string {
  const lines: string[] = [];
  for (const file of report.files) {
    lines.push(`${file.status.toUpperCase()} ${quote(file.path)}`);
    if (file.status === "input_error") {
      lines.push(`  ${quote(file.error)}`);
      continue;
    }
    const summary = report.mode === "lenient" ? file.report.lenient : file.report.strict;
    if (!summary.ok) lines.push(`  ${quote(summary.reason)}`);
    else for (const warning of summary.warnings) lines.push(`  Repair: ${quote(warning)}`);
    const surface = file.report.surface;
    for (const source of surface.externalSources) {
      const pin = source.pinned
        ? " (pinned)"
        : report.requirePinnedSources
        ? " (not pinned: required)"
        : " (not pinned)";
      lines.push(`  External source: ${quote(source.host)}${pin}`);
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
    if (file.resources !== undefined) {
      const { present, total } = file.resources.counts;
      lines.push(`  Local resources: ${present}/${total} present`);
      for (const ref of file.resources.references) {
        if (ref.status !== "present") {
          lines.push(`  Resource ${ref.status}, line ${ref.line}: ${quote(ref.url)}`);
        }
      }
    }
    for (const finding of file.report.spec.findings) {
      const line = finding.line === undefined ? "" : ` (line ${finding.line})`;
      lines.push(
        `  Spec ${finding.severity} ${finding.rule}: ${escapeTerminal(finding.message)}${line}`,
      );
    }
  }
  const { passed, failed, inputErrors } = report.counts;
  lines.push(
    "",
    `${passed} passed, ${failed} failed, ${inputErrors} input errors (${report.profile}).`,
    report.scope,
  );
  return lines.join("\n") + "\n";
}
