/**
 * SARIF 2.1.0 output for `check` and `verify` (`--format sarif`): one log,
 * one run, the tool named with this version, one rule per rule id the results
 * use (a specification rule, one of `check`'s own gates, or a `verify`
 * difference kind), and results whose locations are relative to the checked
 * folder (`uriBaseId` `%SRCROOT%`), with the line where it is known. Built
 * from the JSON reports only: the same report gives the same bytes.
 *
 * A result's level says what it did to the exit code: `error` failed the file
 * (or `verify`), `warning` is a finding the chosen gates do not enforce, and
 * `note` a specification warning nothing enforces.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { verifySarif } from "./sarif.ts";
 * const report = {
 *   schema: "skills-anywhere-verify-1" as const, matches: false, locked: 1,
 *   changed: [], unverifiable: [], missing: ["pdf"], added: [], moved: [], sources: [],
 * };
 * const log = verifySarif(report, { root: "/repo", lockFile: "/repo/skills-anywhere.lock.json" });
 * assert.equal(log.runs[0].results[0].ruleId, "missing");
 * ```
 * @module
 */
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { VerifyReport } from "../lib/lock/mod.ts";
import type { LockLines } from "../lib/lock/mod.ts";
import type { FileCheckReport, FileEntry } from "../lib/check/mod.ts";
import { isSpecRule, SPEC_RULES, type SpecFinding } from "../lib/check/mod.ts";
import { TOOL_NAME, VERSION } from "../lib/version.ts";
import { type OptionValues, UsageError } from "./args.ts";

/** The `$schema` of every log written. */
export const SARIF_SCHEMA =
  "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json";

/** A result's level. */
export type SarifLevel = "error" | "warning" | "note";

/** Where a result points: a file relative to `%SRCROOT%` (or a `file:` URI outside it). */
export interface SarifLocation {
  physicalLocation: {
    artifactLocation: { uri: string; uriBaseId?: "%SRCROOT%" };
    region?: { startLine: number };
  };
}

/** One result. */
export interface SarifResult {
  ruleId: string;
  level: SarifLevel;
  message: { text: string };
  locations: SarifLocation[];
}

/** One rule the results use. */
export interface SarifRule {
  id: string;
  shortDescription: { text: string };
}

/** A SARIF 2.1.0 log of one run. */
export interface SarifLog {
  $schema: typeof SARIF_SCHEMA;
  version: "2.1.0";
  runs: [{
    tool: { driver: { name: string; version: string; rules: SarifRule[] } };
    results: SarifResult[];
  }];
}

/** The rules of `check`'s own gates (beside the specification's rules). */
type CheckRule =
  | "input-error"
  | "parse"
  | "repair"
  | "unpinned-source"
  | "hidden-characters"
  | "resource-issue";

/** The difference kinds of `verify`. */
type VerifyRule =
  | "changed"
  | "unverifiable"
  | "missing"
  | "added"
  | "moved"
  | "source"
  | "signature"
  | "collision"
  | "uncovered";

/** The one-line description of each rule of `check`'s gates and `verify` (spec rules: `SPEC_RULES`). */
const OWN_RULES: Readonly<Record<CheckRule | VerifyRule, string>> = {
  "input-error": "the file can be read: a regular UTF-8 file within the size limit",
  parse: "the chosen profile's parser accepts the file",
  repair: "the file parses without any repair",
  "unpinned-source": "external sources are pinned to a full commit",
  "hidden-characters": "the file holds no hidden characters (bidirectional, zero-width, tags)",
  "resource-issue": "every local file the text links to or names exists in the skill",
  changed: "the skill's SKILL.md and files are the ones locked",
  unverifiable: "every skill is locked with a bundle digest, so all its files are checked",
  missing: "every locked skill is still found",
  added: "every skill found is locked",
  moved: "every locked skill comes from the origin and path it was locked at",
  source: "every Git source is at its locked commit",
  signature: "the skill directory is signed by an allowed signer, over its current files",
  collision: "no two project places declare the same skill name",
  uncovered: "the whole project tree is walked and covered by the lock",
};

/**
 * The report format asked for: `--format text|json|sarif`, `--json` being
 * `--format json`.
 *
 * @throws {UsageError} When the command line asks for something the command does not take.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { reportFormat } from "./sarif.ts";
 * assert.equal(reportFormat({ format: "sarif" }), "sarif");
 * assert.equal(reportFormat({ json: true }), "json");
 * ```
 */
export function reportFormat(values: OptionValues): "text" | "json" | "sarif" {
  const format = values.format ?? (values.json ? "json" : "text");
  if (format !== "text" && format !== "json" && format !== "sarif") {
    throw new UsageError(`--format must be text, json or sarif (got ${JSON.stringify(format)})`);
  }
  if (values.json && format !== "json") {
    throw new UsageError(`--json cannot be combined with --format ${format}`);
  }
  return format;
}

/** `file`'s URI: relative to `root` (percent-encoded segments), else an absolute `file:` URI. */
function location(file: string, root: string, line?: number): SarifLocation {
  const absolute = resolve(root, file);
  const rel = relative(root, absolute);
  const inside = rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
  const artifactLocation = inside
    ? { uri: rel.split(sep).map(encodeURIComponent).join("/"), uriBaseId: "%SRCROOT%" as const }
    : { uri: pathToFileURL(absolute).href };
  const region = line === undefined ? {} : { region: { startLine: Math.max(1, line) } };
  return { physicalLocation: { artifactLocation, ...region } };
}

/** The log around `results`, with the rules they use in id order. */
function sarifLog(results: SarifResult[]): SarifLog {
  const ids = [...new Set(results.map((r) => r.ruleId))].sort();
  const rules = ids.map((id) => ({ id, shortDescription: { text: ruleDescription(id) } }));
  return {
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [{ tool: { driver: { name: TOOL_NAME, version: VERSION, rules } }, results }],
  };
}

/** A rule's one-line description: a spec rule's summary, a gate's or difference's own, else its id. */
function ruleDescription(id: string): string {
  if (isSpecRule(id)) return SPEC_RULES[id].summary;
  return Object.hasOwn(OWN_RULES, id) ? OWN_RULES[id as keyof typeof OWN_RULES] : id;
}

/** A spec finding's level: enforced by the profile, a reported error, or a warning. */
function specLevel(finding: SpecFinding, profile: FileCheckReport["profile"]): SarifLevel {
  const enforced = profile === "reference" ||
    (profile === "spec" && finding.rule !== "extension-field");
  if (enforced && finding.severity === "error") return "error";
  return finding.severity === "error" ? "warning" : "note";
}

type Add = (rule: string, level: SarifLevel, text: string, line?: number) => void;

/** The surface results of one checked file: repairs, sources, hidden characters, resources. */
function surfaceResults(
  file: Extract<FileEntry, { sha256: string }>,
  r: FileCheckReport,
  add: Add,
) {
  const gate = (on: boolean): SarifLevel => on ? "error" : "warning";
  const summary = r.mode === "lenient" ? file.report.lenient : file.report.strict;
  if (summary.ok) {
    for (const w of summary.warnings) {
      // A repair that names its line (`line 3: …`) is located there, else at the frontmatter.
      const line = Number(/^line (\d+): /.exec(w)?.[1] ?? 1);
      add("repair", gate(r.failOnRepair), `repaired: ${w}`, line);
    }
  }
  for (const s of file.report.surface.externalSources) {
    if (s.pinned || s.reserved) continue;
    const lines = s.lines.join(", ");
    const text = `external source ${s.host} is not pinned to a full commit (line ${lines})`;
    add("unpinned-source", gate(r.requirePinnedSources), text, s.lines[0]);
  }
  for (const h of file.report.surface.hiddenCharacters) {
    const where = h.fields.length > 0 ? ` in ${h.fields.join(", ")}` : "";
    const text = `hidden character ${h.codePoint} ${h.name}${where}`;
    add("hidden-characters", gate(r.failOnHiddenCharacters), text, h.lines[0] ?? 1);
  }
  for (const ref of file.resources?.references ?? []) {
    if (ref.status === "present") continue;
    const text = `local resource ${ref.status}: ${ref.url}`;
    add("resource-issue", gate(r.failOnResourceIssues), text, ref.line);
  }
}

/**
 * The SARIF log of a `check` report (and its signature findings, rule
 * `signature`); paths are resolved against `root` and written relative to it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkSarif } from "./sarif.ts";
 * import { checkFiles } from "../lib/check/mod.ts";
 * const log = checkSarif(await checkFiles(["SKILL.md"], { cwd: "/repo" }), "/repo");
 * assert.equal(log.version, "2.1.0");
 * ```
 */
export function checkSarif(
  report: FileCheckReport,
  root: string,
  signatures: readonly SignatureResult[] = [],
): SarifLog {
  const results: SarifResult[] = [];
  for (const file of report.files) {
    const add: Add = (ruleId, level, text, line) =>
      results.push({
        ruleId,
        level,
        message: { text },
        locations: [location(file.path, root, line)],
      });
    if (file.status === "input_error") {
      add("input-error", "error", file.error);
      continue;
    }
    const summary = report.mode === "lenient" ? file.report.lenient : file.report.strict;
    if (!summary.ok) add("parse", "error", summary.reason, 1);
    surfaceResults(file, report, add);
    for (const f of file.report.spec.findings) {
      add(f.rule, specLevel(f, report.profile), f.message, f.line ?? 1);
    }
  }
  for (const s of signatures) {
    const message = { text: s.text };
    results.push({
      ruleId: "signature",
      level: s.level,
      message,
      locations: [location(s.path, root, 1)],
    });
  }
  return sarifLog(results);
}

/** A signature finding of `check`: the checked file, its level and its words. */
export interface SignatureResult {
  path: string;
  level: SarifLevel;
  text: string;
}

/** Where `verify`'s results point. */
export interface VerifyPlaces {
  /** The folder URIs are relative to (the project root). */
  root: string;
  /** The lock file (absolute). */
  lockFile: string;
  /** Each published skill's Markdown file (absolute), by published name. */
  skillFiles?: ReadonlyMap<string, string>;
  /** The line of each locked skill and source in the lock file (see `lockLines`). */
  lockLines?: LockLines;
  /** Whether the lock requires signatures (a signature finding is then an error, else a warning). */
  signaturesRequired?: boolean;
  /**
   * A source's one name by its lock key (`sourceName`).
   *
   * @default the key itself
   */
  sourceName?: (key: string) => string;
}

/** One changed skill in words: which digests differ and which files. */
function changedText(c: VerifyReport["changed"][number]): string {
  const files = [
    ...c.changed.map((p) => `changed ${p}`),
    ...c.added.map((p) => `added ${p}`),
    ...c.removed.map((p) => `removed ${p}`),
  ];
  const what = c.skill_md ? "SKILL.md differs from the lock" : "its files differ from the lock";
  const why = c.bundle_error === null ? "" : `; cannot be bundled now: ${c.bundle_error}`;
  return `skill ${c.name}: ${what}${files.length > 0 ? ` (${files.join(", ")})` : ""}${why}`;
}

/** One changed file of a changed skill in words. */
const FILE_CHANGES = {
  changed: "differs from the lock",
  added: "is not in the lock",
  removed: "is locked but gone",
} as const;

/**
 * The SARIF log of a `verify` report, each result located at what changed:
 * a changed skill at each of its changed, added or removed files (its
 * SKILL.md when no file row says more), an unverifiable, added or moved
 * skill at its SKILL.md, a missing skill at its entry's line in the lock
 * file, a source at its entry's line (the lock file when it is not locked).
 *
 * @example
 * ```ts
 * import { verifySarif } from "./sarif.ts";
 * import type { VerifyReport } from "../lib/lock/mod.ts";
 * function example(report: VerifyReport) {
 *   verifySarif(report, { root: "/repo", lockFile: "/repo/skills-anywhere.lock.json" });
 * }
 * ```
 */
export function verifySarif(report: VerifyReport, places: VerifyPlaces): SarifLog {
  const results: SarifResult[] = [];
  const inLock = (line?: number) => location(places.lockFile, places.root, line);
  /** A skill's SKILL.md, else its entry in the lock. */
  const at = (name: string) => {
    const file = places.skillFiles?.get(name);
    return file === undefined
      ? inLock(places.lockLines?.skills.get(name))
      : location(file, places.root, 1);
  };
  const push = (ruleId: VerifyRule, text: string, where: SarifLocation, level?: SarifLevel) =>
    results.push({ ruleId, level: level ?? "error", message: { text }, locations: [where] });
  for (const c of report.changed) {
    const file = places.skillFiles?.get(c.name);
    const rows = (["changed", "added", "removed"] as const).flatMap((kind) =>
      c[kind].map((path) => ({ kind, path }))
    );
    if (file === undefined || rows.length === 0) {
      push("changed", changedText(c), at(c.name));
      continue;
    }
    // A removed file is gone: its location has no line to point at.
    for (const { kind, path } of rows) {
      const where = location(
        resolve(dirname(file), path),
        places.root,
        kind === "removed" ? undefined : 1,
      );
      push("changed", `skill ${c.name}: ${path} ${FILE_CHANGES[kind]}`, where);
    }
  }
  for (const u of report.unverifiable) {
    const md = u.skill_md ? "; SKILL.md changed too" : "";
    const text = `skill ${u.name} cannot be verified: ${u.kind}: ${u.reason}${md}`;
    push("unverifiable", text, at(u.name));
  }
  for (const name of report.missing) {
    push(
      "missing",
      `skill ${name} is locked but not found`,
      inLock(places.lockLines?.skills.get(name)),
    );
  }
  for (const name of report.added) push("added", `skill ${name} is found but not locked`, at(name));
  for (const m of report.moved) {
    push("moved", `skill ${m.name} moved from ${m.locked.path} to ${m.current.path}`, at(m.name));
  }
  for (const c of report.collisions ?? []) {
    const files = c.places.map((p) => p.file).join(", ");
    for (const p of c.places) {
      const text = `the name ${c.name} is declared by several project places: ${files}`;
      push("collision", text, location(resolve(places.root, p.file), places.root, 1));
    }
  }
  for (const u of report.uncovered ?? []) {
    push("uncovered", `folder ${u.path} is not covered by the lock (${u.reason})`, inLock());
  }
  for (const s of report.sources) {
    const text = `source ${places.sourceName?.(s.key) ?? s.key}: locked at ${
      s.locked_commit ?? "(none)"
    }, now ${s.current_commit ?? "(none)"}`;
    push("source", text, inLock(places.lockLines?.sources.get(s.key)));
  }
  const level = places.signaturesRequired ? "error" : "warning";
  for (const f of report.signatures ?? []) {
    push("signature", `skill ${f.name}: ${f.kind}: ${f.message}`, at(f.name), level);
  }
  return sarifLog(results);
}

/**
 * One log of the results of `logs` in their order (one run, the rules in id
 * order), so a CI step uploads `check` and `verify` together.
 *
 * @example
 * ```ts
 * import { mergeSarif, type SarifLog } from "./sarif.ts";
 * function example(check: SarifLog, verify: SarifLog) {
 *   mergeSarif([check, verify]).runs[0].results.length;
 * }
 * ```
 */
export function mergeSarif(logs: readonly SarifLog[]): SarifLog {
  return sarifLog(logs.flatMap((log) => log.runs.flatMap((run) => run.results)));
}
