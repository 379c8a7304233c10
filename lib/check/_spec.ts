/**
 * Agent Skills specification conformance: findings with stable rule ids.
 *
 * Scalars are read as strings (the failsafe schema), as the specification's
 * reference validator does, so `version: 1.0` is the string `"1.0"`.
 *
 * The rules, their ids (part of the report contract) and severities are the
 * one table {@linkcode SPEC_RULES} in `spec_rules.ts`; each finding takes its
 * severity from it, except `extension-field`, a warning that is an error with
 * `extensionSeverity: "error"` (the reference validator rejects unknown
 * top-level keys).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { specFindings } from "./_spec.ts";
 * const spec = specFindings("---\nname: demo\ndescription: Demo.\n---\n", { directoryName: "demo" });
 * assert.equal(spec.ok, true);
 * ```
 * @module
 */
import { formatBytes, MAX_BUNDLE_SKILL_BYTES } from "../limits.ts";
import { isPlainObject } from "../util.ts";
import { splitFrontmatter } from "../skill/mod.ts";
import { codePointLength } from "../skill/mod.ts";
import { MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH } from "../skill/mod.ts";
import { parseFrontmatterYaml } from "../skill/mod.ts";
import { SPEC_RULES, type SpecRule, type SpecSeverity } from "./_spec_rules.ts";

export {
  isSpecRule,
  SPEC_RULE_IDS,
  SPEC_RULES,
  type SpecRule,
  type SpecRuleInfo,
  type SpecSeverity,
} from "./_spec_rules.ts";

/** One finding. `line` is the 1-based file line of the key concerned, when known. */
export interface SpecFinding {
  rule: SpecRule;
  severity: SpecSeverity;
  message: string;
  line?: number;
}

/** The `spec` section of a check report. */
export interface SpecReport {
  /** No `error` finding. */
  ok: boolean;
  findings: SpecFinding[];
}

/** Options of {@linkcode specFindings}. */
export interface SpecOptions {
  /** The parent directory name of a `SKILL.md`; the name must equal it. Omit for other files. */
  directoryName?: string;
  /**
   * The severity of `extension-field` (a top-level key outside the
   * specification's six): `"warning"` (default) follows the specification's
   * text; `"error"` gives the reference validator's verdict.
   *
   * @default {"warning"}
   */
  extensionSeverity?: SpecSeverity;
}

/** The six top-level keys the specification defines. */
export const SPEC_KEYS: readonly string[] = [
  "name",
  "description",
  "license",
  "compatibility",
  "metadata",
  "allowed-tools",
];

/** Most compatibility characters. */
export const MAX_COMPATIBILITY_LENGTH = 500;
/** Body lines above which the spec recommends splitting the skill. */
export const MAX_BODY_LINES = 500;
/** Estimated body tokens above which the spec recommends splitting the skill. */
export const MAX_BODY_TOKENS = 5000;

const KNOWN_EXTENSIONS: Record<string, string> = {
  "disable-model-invocation": "Claude Code",
  "user-invocable": "Claude Code",
  "argument-hint": "Claude Code",
  "when-to-use": "Claude Code",
  "model": "Claude Code",
  "context": "Claude Code",
  "agent": "Claude Code",
  "hooks": "Claude Code",
  "whenToUse": "dsh",
};

/**
 * Estimates tokens the way the report documents it: four ASCII characters per
 * token, one token per other code point.
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x80) ascii++;
    else other++;
  }
  return Math.ceil(ascii / 4) + other;
}

/** File line of a top-level key, found by scanning the unindented frontmatter lines. */
function keyLines(yaml: string, firstLine: number): Map<string, number> {
  const lines = new Map<string, number>();
  yaml.split("\n").forEach((text, index) => {
    const match = /^(["']?)([^\s:#"'][^:]*?)\1[ \t]*:(?:[ \t]|$)/.exec(text);
    if (match && !lines.has(match[2])) lines.set(match[2], index + firstLine);
  });
  return lines;
}

/**
 * Checks `raw` against the Agent Skills specification.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(specFindings("---\nname: Bad_Name\ndescription: x\n---\n").findings[0].rule, "name-charset");
 * ```
 */
export function specFindings(raw: string, options: SpecOptions = {}): SpecReport {
  const findings: SpecFinding[] = [];
  const add: Add = (rule, message, line, severity) => {
    const finding: SpecFinding = { rule, severity: severity ?? SPEC_RULES[rule].severity, message };
    if (line !== undefined) finding.line = line;
    findings.push(finding);
  };
  checkFileSize(raw, add);
  const split = splitFrontmatter(raw);
  if (split === undefined) {
    add("frontmatter-missing", "SKILL.md must start with YAML frontmatter between --- lines", 1);
    return { ok: false, findings };
  }
  const parsed = parseFrontmatterYaml(split.yaml, {
    firstLine: split.yamlLine,
    scalarsAsStrings: true,
  });
  if (!parsed.ok) {
    add("yaml-invalid", `invalid YAML: ${parsed.message}`, parsed.line);
    return { ok: false, findings };
  }
  const data = parsed.value ?? {};
  if (!isPlainObject(data)) {
    add("yaml-invalid", "frontmatter must be a YAML mapping", split.yamlLine);
    return { ok: false, findings };
  }
  const lineOf = keyLines(split.yaml, split.yamlLine);
  checkName(data.name, lineOf.get("name"), options.directoryName, add);
  checkDescription(data.description, lineOf.get("description"), add);
  checkOptionalFields(data, lineOf, add);
  const extension = options.extensionSeverity ?? SPEC_RULES["extension-field"].severity;
  checkExtensionFields(data, lineOf, extension, add);
  checkBodySize(split, add);
  return { ok: findings.every((f) => f.severity !== "error"), findings };
}

/** A finding for every key outside the specification, naming the client it belongs to. */
function checkExtensionFields(
  data: Record<string, unknown>,
  lineOf: Map<string, number>,
  severity: SpecSeverity,
  add: Add,
): void {
  for (const key of Object.keys(data)) {
    if (SPEC_KEYS.includes(key)) continue;
    const client = Object.hasOwn(KNOWN_EXTENSIONS, key) ? KNOWN_EXTENSIONS[key] : undefined;
    const message = client === undefined
      ? `"${key}" is not a field of the Agent Skills specification`
      : `"${key}" is a ${client} extension, not a field of the Agent Skills specification`;
    add("extension-field", message, lineOf.get(key), severity);
  }
}

/** Warnings for a body over the recommended line and token counts. */
function checkBodySize(split: { body: string; bodyLine: number }, add: Add): void {
  const body = split.body.trim();
  const bodyLines = body === "" ? 0 : body.split("\n").length;
  if (bodyLines > MAX_BODY_LINES) {
    // The first counted line follows the blank lines that trim() dropped.
    const skipped =
      split.body.slice(0, split.body.length - split.body.trimStart().length).split("\n").length - 1;
    add(
      "body-lines",
      `body has ${bodyLines} lines; the specification recommends at most ${MAX_BODY_LINES}`,
      split.bodyLine + skipped + MAX_BODY_LINES,
    );
  }
  const tokens = estimateTokens(body);
  if (tokens > MAX_BODY_TOKENS) {
    add(
      "body-tokens",
      `body is about ${tokens} tokens; the specification recommends under ${MAX_BODY_TOKENS}`,
    );
  }
}

const encoder = new TextEncoder();

/**
 * A warning for a file over the bundle format's SKILL.md size: the
 * specification sets no limit and every reader here takes it, but it cannot
 * be bundle-pinned. Encodes only text that could be that large.
 */
function checkFileSize(raw: string, add: Add): void {
  if (raw.length * 3 <= MAX_BUNDLE_SKILL_BYTES) return; // a UTF-16 unit is at most 3 UTF-8 bytes
  const bytes = encoder.encode(raw).length;
  if (bytes <= MAX_BUNDLE_SKILL_BYTES) return;
  const limit = formatBytes(MAX_BUNDLE_SKILL_BYTES);
  add(
    "skill-size",
    `file is ${bytes} bytes, over ${limit}; the specification sets no size limit, ` +
      `but a bundle holds a SKILL.md of at most ${limit}, so this skill cannot be bundle-pinned`,
  );
}

/** Records one finding, of its rule's severity unless `severity` says otherwise. */
type Add = (
  rule: SpecRule,
  message: string,
  line?: number,
  severity?: SpecSeverity,
) => void;

/** The name rules that apply to a string name, each with the message it reports. */
const NAME_RULES: readonly {
  rule: SpecRule;
  broken: (name: string) => boolean;
  message: (name: string) => string;
}[] = [
  {
    rule: "name-length",
    broken: (name) => codePointLength(name) > MAX_NAME_LENGTH,
    message: (name) =>
      `name has ${codePointLength(name)} characters; at most ${MAX_NAME_LENGTH} are allowed`,
  },
  {
    rule: "name-charset",
    broken: (name) => !/^[a-z0-9-]*$/.test(name),
    message: (name) =>
      `name ${JSON.stringify(name)} may contain only lowercase a-z, 0-9 and hyphens`,
  },
  {
    rule: "name-hyphen",
    broken: (name) => name.startsWith("-") || name.endsWith("-") || name.includes("--"),
    message: () => "name must not start or end with a hyphen or contain consecutive hyphens",
  },
];

/** The name rules: present, a string, each of {@linkcode NAME_RULES}, and its directory's name. */
function checkName(
  value: unknown,
  line: number | undefined,
  directoryName: string | undefined,
  add: Add,
): void {
  if (value === undefined || value === null || value === "") {
    add("name-missing", "name is required", line);
    return;
  }
  if (typeof value !== "string") {
    add("name-missing", "name must be a string", line);
    return;
  }
  for (const { rule, broken, message } of NAME_RULES) {
    if (broken(value)) add(rule, message(value), line);
  }
  if (directoryName !== undefined && directoryName !== value) {
    const [name, directory] = [JSON.stringify(value), JSON.stringify(directoryName)];
    add("name-directory-mismatch", `name ${name} must match its directory name ${directory}`, line);
  }
}

/** The description rules: present, a non-empty string, and not too long. */
function checkDescription(value: unknown, line: number | undefined, add: Add): void {
  if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) {
    add("description-missing", "description is required and must not be empty", line);
    return;
  }
  if (typeof value !== "string") {
    add("description-missing", "description must be a string", line);
    return;
  }
  const length = codePointLength(value);
  if (length > MAX_DESCRIPTION_LENGTH) {
    add(
      "description-length",
      `description has ${length} characters; at most ${MAX_DESCRIPTION_LENGTH} are allowed`,
      line,
    );
  }
}

/** The rules of the optional fields: compatibility, license, metadata, allowed-tools. */
function checkOptionalFields(
  data: Record<string, unknown>,
  lineOf: Map<string, number>,
  add: Add,
): void {
  if ("compatibility" in data) {
    checkCompatibility(data.compatibility, lineOf.get("compatibility"), add);
  }
  if ("license" in data && typeof data.license !== "string") {
    add("license-type", "license must be a string", lineOf.get("license"));
  }
  if ("metadata" in data) checkMetadata(data.metadata, lineOf.get("metadata"), add);
  if ("allowed-tools" in data && typeof data["allowed-tools"] !== "string") {
    add(
      "allowed-tools-type",
      "allowed-tools must be one space-separated string, not a list or mapping",
      lineOf.get("allowed-tools"),
    );
  }
}

/** `compatibility`: a string of 1 to {@linkcode MAX_COMPATIBILITY_LENGTH} characters. */
function checkCompatibility(value: unknown, line: number | undefined, add: Add): void {
  const length = typeof value === "string" ? codePointLength(value) : -1;
  if (length >= 1 && length <= MAX_COMPATIBILITY_LENGTH) return;
  add(
    "compatibility-length",
    typeof value === "string"
      ? `compatibility has ${length} characters; 1 to ${MAX_COMPATIBILITY_LENGTH} are allowed`
      : "compatibility must be a string of 1 to 500 characters",
    line,
  );
}

/** `metadata`: a mapping from string keys to string values. */
function checkMetadata(value: unknown, line: number | undefined, add: Add): void {
  if (!isPlainObject(value)) {
    add("metadata-type", "metadata must map string keys to string values", line);
    return;
  }
  const bad = Object.entries(value).filter(([, v]) => typeof v !== "string").map(([k]) => k);
  if (bad.length === 0) return;
  add(
    "metadata-type",
    `metadata values must be strings; not: ${bad.map((k) => JSON.stringify(k)).join(", ")}`,
    line,
  );
}
