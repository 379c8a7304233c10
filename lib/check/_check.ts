/**
 * The per-file parser report `skills-anywhere-local-check-1`: strict and
 * lenient outcomes side by side, the specification findings and the surface.
 * Also the two rules `check` applies around it: {@linkcode checkSkillBytes}
 * (size cap, strict UTF-8, the fallback name) and {@linkcode checkPassed}
 * (the gates). Pure (no file access, no `node:` imports), so the browser page
 * checks a file exactly as the CLI does.
 *
 * @example
 * ```ts
 * import { checkSkill } from "./_check.ts";
 * const report = checkSkill("---\nname: demo\ndescription: Demo.\n---\nBody", {
 *   fallbackName: "demo",
 *   directoryName: "demo",
 * });
 * console.log(report.strict.ok, report.spec.ok);
 * ```
 * @module
 */
import { type Failure, failure } from "../errors.ts";
import { formatBytes, MAX_FALLBACK_NAME_LENGTH, MAX_SKILL_READ_BYTES } from "../limits.ts";
import { NOT_UTF8, tryDecodeUtf8 } from "../util.ts";
import { type Exposure, readExposure } from "../skill/mod.ts";
import { splitFrontmatter } from "../skill/mod.ts";
import { type Invocation, parseSkillMarkdown } from "../skill/mod.ts";
import { specFindings, type SpecReport } from "./_spec.ts";
import { parseFrontmatterYaml } from "../skill/mod.ts";

/** The outcome of one parse mode, without the body. */
export type ModeSummary =
  | {
    ok: true;
    name: string;
    description: string;
    invocation: Invocation;
    warnings: string[];
    /** The keys of the author's `metadata` mapping, sorted. */
    metadataKeys: string[];
    bodyBytes: number;
  }
  | { ok: false; reason: string };

/** The `skills-anywhere-local-check-1` report. */
export interface LocalCheckReport {
  schema: "skills-anywhere-local-check-1";
  input: { bytes: number; fallbackName: string };
  strict: ModeSummary;
  lenient: ModeSummary;
  spec: SpecReport;
  surface: Exposure;
}

/** Options of {@linkcode checkSkill}. */
export interface CheckSkillOptions {
  /** Parent directory name for `SKILL.md`, or the file name without its extension. */
  fallbackName: string;
  /** Set for a file named `SKILL.md`: the specification's directory-name rule applies. */
  directoryName?: string;
  /**
   * The profile the report is for (default `strict`). Under `reference` the
   * `spec` section reports extension fields as errors, as the reference
   * validator does; under every other profile they are warnings.
   *
   * @default {"strict"}
   */
  profile?: CheckProfile;
}

const encoder = new TextEncoder();

function utf8Length(text: string): number {
  return encoder.encode(text).length;
}

/** One parse mode's outcome without the body. */
function summarize(result: ReturnType<typeof parseSkillMarkdown>): ModeSummary {
  if (!result.ok) return { ok: false, reason: result.message };
  const { skill } = result;
  return {
    ok: true,
    name: skill.name,
    description: skill.description,
    invocation: skill.invocation,
    warnings: skill.warnings,
    metadataKeys: Object.keys(skill.metadata).sort(),
    bodyBytes: utf8Length(skill.content),
  };
}

/** The frontmatter value the parser reads, or `undefined` when there is none or it is invalid. */
function frontmatterValue(text: string): unknown {
  const split = splitFrontmatter(text);
  if (split === undefined) return undefined;
  const parsed = parseFrontmatterYaml(split.yaml, { firstLine: split.yamlLine });
  return parsed.ok ? parsed.value : undefined;
}

/**
 * Checks one decoded SKILL.md text. The body never appears in the report.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkSkill } from "./_check.ts";
 * assert.equal(checkSkill("no frontmatter", { fallbackName: "x" }).strict.ok, false);
 * ```
 */
export function checkSkill(text: string, options: CheckSkillOptions): LocalCheckReport {
  const { fallbackName } = options;
  const strict = parseSkillMarkdown(text, { fallbackName, lenient: false });
  const lenient = parseSkillMarkdown(text, { fallbackName, lenient: true });
  const tools = lenient.ok ? lenient.skill.allowedTools : undefined;
  return {
    schema: "skills-anywhere-local-check-1",
    input: { bytes: utf8Length(text), fallbackName },
    strict: summarize(strict),
    lenient: summarize(lenient),
    spec: specFindings(text, {
      directoryName: options.directoryName,
      extensionSeverity: options.profile === "reference" ? "error" : "warning",
    }),
    surface: readExposure(text, {
      body: lenient.ok ? lenient.skill.content : "",
      declaredTools: tools ?? [],
      frontmatter: frontmatterValue(text),
    }),
  };
}

/** Why a file's bytes could not be checked at all. */
export type CheckInputKind = "too-large" | "not-utf8" | "long-name";

/** The sentence the file-check report shows for each {@linkcode CheckInputKind}. */
export const CHECK_INPUT_MESSAGES: Readonly<Record<CheckInputKind, string>> = {
  "too-large": `Choose a SKILL.md of ${formatBytes(MAX_SKILL_READ_BYTES)} or less`,
  "not-utf8": `Input is ${NOT_UTF8}`,
  "long-name": `Use a directory name of ${MAX_FALLBACK_NAME_LENGTH} characters or less`,
};

/** Where checked bytes came from: the file's name and, when known, its folder's name. */
export interface CheckSource {
  /** The file's own name, for example `SKILL.md` or `notes.md`. */
  fileName: string;
  /** The name of the folder holding it; `undefined` when unknown (a browser does not tell). */
  folder?: string;
}

/**
 * The names {@linkcode checkSkill} needs: for a `SKILL.md` in a known folder,
 * the folder's name (and the specification's directory-name rule applies);
 * otherwise the file name without its extension.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fallbackNames } from "./_check.ts";
 * assert.deepEqual(fallbackNames({ fileName: "SKILL.md", folder: "pdf" }), { fallbackName: "pdf", directoryName: "pdf" });
 * assert.deepEqual(fallbackNames({ fileName: "notes.md" }), { fallbackName: "notes" });
 * ```
 */
export function fallbackNames(source: CheckSource): CheckSkillOptions {
  const { fileName, folder } = source;
  if (fileName === "SKILL.md" && folder !== undefined) {
    return { fallbackName: folder, directoryName: folder };
  }
  const dot = fileName.lastIndexOf(".");
  return { fallbackName: dot > 0 ? fileName.slice(0, dot) : fileName };
}

/** A file's bytes checked: the decoded text and its report, or why it could not be checked. */
export type CheckedBytes =
  | { ok: true; text: string; report: LocalCheckReport }
  | Failure<CheckInputKind>;

/**
 * Checks the bytes of one file as a SKILL.md, in the order `check` does:
 * at most {@linkcode MAX_SKILL_READ_BYTES}, strict UTF-8, a fallback name of
 * at most {@linkcode MAX_FALLBACK_NAME_LENGTH} characters, then
 * {@linkcode checkSkill}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkSkillBytes } from "./_check.ts";
 * const bytes = new TextEncoder().encode("---\nname: demo\ndescription: Demo.\n---\n");
 * const checked = checkSkillBytes(bytes, { fileName: "SKILL.md", folder: "demo" });
 * assert.equal(checked.ok ? checked.report.strict.ok : checked.kind, true);
 * ```
 */
export function checkSkillBytes(
  bytes: Uint8Array,
  source: CheckSource,
  options: { profile?: CheckProfile } = {},
): CheckedBytes {
  const refuse = (kind: CheckInputKind) => failure(kind, CHECK_INPUT_MESSAGES[kind]);
  if (bytes.length > MAX_SKILL_READ_BYTES) return refuse("too-large");
  const text = tryDecodeUtf8(bytes);
  if (text === undefined) return refuse("not-utf8");
  const names = fallbackNames(source);
  if (names.fallbackName.length > MAX_FALLBACK_NAME_LENGTH) return refuse("long-name");
  return { ok: true, text, report: checkSkill(text, { ...names, profile: options.profile }) };
}

/**
 * Which parse gates a file: `strict`, `lenient`, `spec` (strict plus no
 * specification error) or `reference` (`spec` plus no extension field: the
 * reference validator's verdict).
 */
export type CheckProfile = "strict" | "lenient" | "spec" | "reference";

/** The gates of {@linkcode checkPassed}; every one is off by default, the profile `strict`. */
export interface CheckGates {
  profile?: CheckProfile;
  failOnRepair?: boolean;
  requirePinnedSources?: boolean;
  failOnHiddenCharacters?: boolean;
  failOnResourceIssues?: boolean;
}

/**
 * The hosts of external sources that are not pinned, in report order;
 * loopback and reserved example hosts never count.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkSkill, unpinnedHosts } from "./_check.ts";
 * const report = checkSkill("---\nname: x\ndescription: X.\n---\nSee https://cdn.jsdelivr.net/a", { fallbackName: "x" });
 * assert.deepEqual(unpinnedHosts(report), ["cdn.jsdelivr.net"]);
 * ```
 */
export function unpinnedHosts(report: LocalCheckReport): string[] {
  return report.surface.externalSources.filter((s) => !s.pinned && !s.reserved).map((s) => s.host);
}

/**
 * The pass rule of `check`: the profile's parse accepts the file, the
 * profile's specification rules find no error, and no enabled gate objects
 * (`resourceIssues` counts broken local links, when they were checked).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkPassed, checkSkill } from "./_check.ts";
 * const report = checkSkill("---\nname: x\ndescription: X.\n---\n", { fallbackName: "x" });
 * assert.equal(checkPassed(report, { profile: "spec" }), true);
 * ```
 */
export function checkPassed(
  report: LocalCheckReport,
  gates: CheckGates = {},
  resourceIssues = 0,
): boolean {
  const profile = gates.profile ?? "strict";
  const summary = profile === "lenient" ? report.lenient : report.strict;
  return summary.ok &&
    (!gates.failOnRepair || summary.warnings.length === 0) &&
    (!gates.requirePinnedSources || unpinnedHosts(report).length === 0) &&
    (!gates.failOnHiddenCharacters || report.surface.hiddenCharacters.length === 0) &&
    (!gates.failOnResourceIssues || resourceIssues === 0) &&
    specPassed(report.spec, profile);
}

/**
 * The specification verdict of a profile: `strict` and `lenient` ignore it,
 * `spec` needs no error finding, `reference` also no extension field
 * (whatever severity the report was built with).
 */
function specPassed(spec: SpecReport, profile: CheckProfile): boolean {
  if (profile === "strict" || profile === "lenient") return true;
  if (!spec.ok) return false;
  return profile === "spec" || spec.findings.every((f) => f.rule !== "extension-field");
}
