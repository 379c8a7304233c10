/**
 * Parsing one SKILL.md (or flat `<name>.md`) into a skill, strictly or
 * leniently. Lenient parsing repairs what it can and records every repair as
 * a warning; strict parsing never repairs: what lenient would repair, strict
 * fails with a kind (a description over 1024 characters, a bad name, a known
 * field of the wrong type, a value holding an unquoted `: `, a legacy key).
 *
 * The known fields become typed fields (`license`, `compatibility`,
 * `allowedTools` from `allowed-tools` only); the author's `metadata` mapping
 * is kept exactly as written, and the top-level keys the parser does not
 * know are kept apart in `extraFields`.
 *
 * The author's opt-out fails closed: when the first lines of the text declare
 * `disable-model-invocation` (or a legacy key) true, the skill is never
 * model-invocable, even when the frontmatter is unclosed, closed with `----`,
 * preceded by a blank line, a space or a BOM, uses CR-only line ends, or is
 * missing, or the body after a valid frontmatter starts with the key line (the
 * scanner is `declaredOptOut` in `opt_out.ts`). A valid frontmatter's own keys
 * are read as YAML.
 *
 * The text served as a listing (`description`, `whenToUse`) never carries a
 * hidden character: in both modes each is written as a visible `\u` escape,
 * with a warning, as a truncation is.
 *
 * @example
 * ```ts
 * import { parseSkillMarkdown } from "./_parse.ts";
 * const result = parseSkillMarkdown("---\nname: demo\ndescription: A demo.\n---\nBody", {
 *   fallbackName: "demo",
 * });
 * if (result.ok) console.log(result.skill.name, result.skill.content);
 * ```
 * @module
 */
import { type Failure, failure, KindError } from "../errors.ts";
import { isPlainObject } from "../util.ts";
import { splitFrontmatter } from "./_frontmatter.ts";
import { codePointLength, deriveDescription, truncateCodePoints } from "./_description.ts";
import { isSkillName, MAX_DESCRIPTION_LENGTH, normalizeSkillName } from "./_names.ts";
import { parseFrontmatterYaml, quoteColonValues } from "./_yaml.ts";
import { revealHiddenCharacters } from "./_hidden.ts";
import { declaredOptOut } from "./_opt_out.ts";

/** Who may invoke a skill. */
export interface Invocation {
  /** The model may load it on its own. */
  modelInvocable: boolean;
  /** A person may invoke it (for example as `/name`). */
  userInvocable: boolean;
}

/** A successfully parsed skill. */
export interface ParsedSkill {
  /** The valid skill name. */
  name: string;
  /** Whether `name` is the frontmatter's own, valid as written (not normalised, not derived). */
  nameDeclared: boolean;
  /**
   * The description; lenient mode cuts it to 1024 code points. Hidden characters
   * are shown as `\u` escapes in both modes.
   */
  description: string;
  /** Optional `whenToUse` / `when-to-use` text. */
  whenToUse?: string;
  /** Invocation flags from the frontmatter. */
  invocation: Invocation;
  /** `license`, trimmed; absent when unset or blank. */
  license?: string;
  /** `compatibility`, trimmed; absent when unset or blank. */
  compatibility?: string;
  /** The tools the author declares in `allowed-tools` (and nowhere else); absent when none. */
  allowedTools?: string[];
  /** The author's `metadata` mapping exactly as written; `{}` when there is none. */
  metadata: Record<string, unknown>;
  /** Top-level frontmatter keys the parser does not know, with their values as written. */
  extraFields: Record<string, unknown>;
  /** The body without frontmatter, trimmed. */
  content: string;
  /** Repairs applied (lenient) and the notes both modes make (hidden characters, opt-out). */
  warnings: string[];
}

/**
 * Why a document is not a skill:
 *
 * - `no-frontmatter`: strict mode and no closed frontmatter;
 * - `yaml`: the frontmatter is not valid YAML (the message names the file line); lenient
 *   mode first retries values holding an unquoted `: ` as quoted strings;
 * - `not-mapping`: the frontmatter is YAML but not a mapping;
 * - `missing-field`: strict mode and no `name` or `description`;
 * - `invalid-name`: strict mode and a `name` outside the grammar;
 * - `unsupported-field`: strict mode and a legacy camelCase key;
 * - `description-too-long`: strict mode and a description over 1024 characters;
 * - `invalid-field`: strict mode and `metadata` that is not a mapping, `license` or
 *   `compatibility` that is not text, or `allowed-tools` that is neither a string nor
 *   a list of strings;
 * - `not-boolean`: a flag that is not a boolean word (both modes);
 * - `no-name`: lenient mode and nothing, not even the fallback, gives a name;
 * - `no-description`: lenient mode and no body text to derive one from.
 */
export type ParseFailureKind =
  | "no-frontmatter"
  | "yaml"
  | "not-mapping"
  | "missing-field"
  | "invalid-name"
  | "unsupported-field"
  | "description-too-long"
  | "invalid-field"
  | "not-boolean"
  | "no-name"
  | "no-description"
  | "note";

/** The outcome of {@linkcode parseSkillMarkdown}. */
export type ParseResult = { ok: true; skill: ParsedSkill } | Failure<ParseFailureKind>;

/** Options of {@linkcode parseSkillMarkdown}. */
export interface ParseOptions {
  /** The name to fall back on: the directory name or the file name without `.md`. */
  fallbackName?: string;
  /** Repair instead of failing (default `true`). */
  lenient?: boolean;
  /**
   * Require a frontmatter that gives a `name` or a `description` as non-empty
   * text (default `false`): without one, the text is a note (kind `note`),
   * never a skill, in both modes. A frontmatter that is not valid YAML is left
   * to the usual rules. The catalog asks this of a flat root's `<name>.md`.
   */
  requireNamedFrontmatter?: boolean;
}

const KNOWN_KEYS = new Set([
  "name",
  "description",
  "whenToUse",
  "when-to-use",
  "metadata",
  "license",
  "compatibility",
  "allowed-tools",
  "disable-model-invocation",
  "user-invocable",
  "disableModelInvocation",
  "modelInvocable",
  "userInvocable",
]);

const TRUE_WORDS = new Set(["1", "true", "yes", "on"]);
const FALSE_WORDS = new Set(["0", "false", "no", "off"]);

/** Stops the parse; {@linkcode parseSkillMarkdown} turns it into a {@linkcode Failure}. */
function fail(kind: ParseFailureKind, message: string): never {
  throw new KindError(kind, message);
}

/** Reads a string field: numbers become strings, strings are trimmed, blanks are absent. */
function stringField(data: Record<string, unknown>, key: string): string | undefined {
  const value = data[key];
  if (typeof value === "number") return String(value);
  if (typeof value !== "string") return undefined;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

/** Reads a boolean flag with the documented coercions; `undefined` when unset. */
function booleanField(data: Record<string, unknown>, key: string): boolean | undefined {
  const value = data[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "boolean") return value;
  if (value === 1) return true;
  if (value === 0) return false;
  if (typeof value === "string") {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  fail("not-boolean", `frontmatter field "${key}" must be a boolean`);
}

function resolveName(
  data: Record<string, unknown>,
  fallbackName: string,
  lenient: boolean,
  warnings: string[],
): string {
  const raw = stringField(data, "name");
  if (raw !== undefined && isSkillName(raw)) return raw;
  if (!lenient) {
    if (raw === undefined) fail("missing-field", "frontmatter requires name");
    fail("invalid-name", `invalid skill name "${raw}"`);
  }
  if (raw !== undefined) {
    const normalised = normalizeSkillName(raw);
    if (normalised !== undefined) {
      warnings.push(`name "${raw}" normalised to "${normalised}"`);
      return normalised;
    }
  }
  const fromDirectory = fallbackSkillName(raw, fallbackName);
  warnings.push(`name missing or invalid; using "${fromDirectory}" from the directory`);
  return fromDirectory;
}

/** The fallback name normalised, or a `no-name` failure naming both candidates. */
function fallbackSkillName(raw: string | undefined, fallbackName: string): string {
  const name = normalizeSkillName(fallbackName);
  if (name !== undefined) return name;
  const given = raw === undefined ? "undefined" : JSON.stringify(raw);
  fail(
    "no-name",
    `no usable skill name (frontmatter: ${given}, directory: ${JSON.stringify(fallbackName)})`,
  );
}

/** A description derived from the body, or a `no-description` failure. */
function derivedDescription(body: string): string {
  const derived = deriveDescription(body);
  if (derived !== undefined) return derived;
  fail("no-description", "no description in frontmatter and no body text to derive one from");
}

function limitDescription(description: string, warnings: string[]): string {
  // A text has at most as many code points as code units: most descriptions need no count.
  if (description.length <= MAX_DESCRIPTION_LENGTH) return description;
  if (codePointLength(description) <= MAX_DESCRIPTION_LENGTH) return description;
  warnings.push(`description longer than ${MAX_DESCRIPTION_LENGTH} characters; truncated`);
  return truncateCodePoints(description, MAX_DESCRIPTION_LENGTH);
}

/** `text` with hidden characters written as escapes, and a warning when there were any. */
function revealed(text: string, field: string, warnings: string[]): string {
  const visible = revealHiddenCharacters(text);
  if (visible !== text) warnings.push(`${field} held hidden characters; written as \\u escapes`);
  return visible;
}

function resolveDescription(
  data: Record<string, unknown>,
  body: string,
  lenient: boolean,
  warnings: string[],
): string {
  const given = stringField(data, "description");
  if (given !== undefined && lenient) {
    return limitDescription(revealed(given, "description", warnings), warnings);
  }
  if (given !== undefined) {
    const length = codePointLength(given);
    if (length > MAX_DESCRIPTION_LENGTH) {
      fail(
        "description-too-long",
        `description is ${length} characters; at most ${MAX_DESCRIPTION_LENGTH} are allowed`,
      );
    }
    return revealed(given, "description", warnings);
  }
  if (!lenient) fail("missing-field", "frontmatter requires description");
  const derived = derivedDescription(body);
  warnings.push("description missing; derived from the first paragraph");
  return limitDescription(revealed(derived, "description", warnings), warnings);
}

function legacyFlag(
  data: Record<string, unknown>,
  key: string,
  lenient: boolean,
  warnings: string[],
): boolean | undefined {
  if (data[key] === undefined) return undefined;
  if (!lenient) fail("unsupported-field", `frontmatter field "${key}" is unsupported`);
  const value = booleanField(data, key);
  warnings.push(`legacy frontmatter field "${key}" accepted`);
  return value;
}

function resolveInvocation(
  data: Record<string, unknown>,
  lenient: boolean,
  warnings: string[],
): Invocation {
  let disable = booleanField(data, "disable-model-invocation");
  let user = booleanField(data, "user-invocable");
  const legacyDisable = legacyFlag(data, "disableModelInvocation", lenient, warnings);
  const legacyModel = legacyFlag(data, "modelInvocable", lenient, warnings);
  const legacyUser = legacyFlag(data, "userInvocable", lenient, warnings);
  if (disable === undefined) {
    disable = legacyDisable ?? (legacyModel === undefined ? undefined : !legacyModel);
  }
  if (user === undefined) user = legacyUser;
  return { modelInvocable: disable !== true, userInvocable: user !== false };
}

/** The known fields beyond name, description and invocation, read by {@linkcode knownFields}. */
type KnownFields = Pick<
  ParsedSkill,
  "license" | "compatibility" | "allowedTools" | "metadata" | "extraFields"
>;

/**
 * A known field of the wrong type: strict fails with `invalid-field`, lenient
 * ignores it (or its bad items) and says so.
 */
function invalidField(key: string, expected: string, lenient: boolean, warnings: string[]): void {
  if (!lenient) fail("invalid-field", `frontmatter field "${key}" must be ${expected}`);
  warnings.push(`frontmatter field "${key}" is not ${expected}; ignored`);
}

/** A text field: a string (trimmed, blank is absent) or a number; other values are invalid. */
function textField(
  data: Record<string, unknown>,
  key: string,
  lenient: boolean,
  warnings: string[],
): string | undefined {
  const value = data[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string" || typeof value === "number") return stringField(data, key);
  invalidField(key, "a string", lenient, warnings);
  return undefined;
}

/** `allowed-tools`: a space-separated string or a list of strings; absent when empty. */
function allowedTools(value: unknown, lenient: boolean, warnings: string[]): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  let tools: string[] = [];
  if (typeof value === "string") tools = value.trim().split(/\s+/).filter((t) => t !== "");
  else if (Array.isArray(value)) {
    tools = value.filter((t): t is string => typeof t === "string");
    if (tools.length < value.length) {
      invalidField("allowed-tools", "a list of strings", lenient, warnings);
    }
  } else invalidField("allowed-tools", "a string or a list of strings", lenient, warnings);
  return tools.length > 0 ? tools : undefined;
}

/**
 * The author's `metadata` mapping as written; `{}` when unset. The YAML readers build fresh
 * plain objects of own data properties (a `__proto__` key stays a plain key), so the mapping
 * is kept as it came, not copied.
 */
function metadataMapping(value: unknown, lenient: boolean, warnings: string[]) {
  if (value === undefined || value === null) return {};
  if (isPlainObject(value)) return value;
  invalidField("metadata", "a mapping", lenient, warnings);
  return {};
}

/** The top-level keys that are not known fields, with their values (`{}` when none). */
function unknownKeys(data: Record<string, unknown>): Record<string, unknown> {
  let extra: Record<string, unknown> | undefined;
  for (const key of Object.keys(data)) {
    if (KNOWN_KEYS.has(key)) continue;
    extra ??= {};
    // A `__proto__` key stays a plain own key, as the YAML reader made it.
    Object.defineProperty(extra, key, {
      value: data[key],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return extra ?? {};
}

/** The typed known fields, the `metadata` mapping and the unknown top-level keys. */
function knownFields(
  data: Record<string, unknown>,
  lenient: boolean,
  warnings: string[],
): KnownFields {
  const fields: KnownFields = {
    metadata: metadataMapping(data.metadata, lenient, warnings),
    extraFields: unknownKeys(data),
  };
  const license = textField(data, "license", lenient, warnings);
  if (license !== undefined) fields.license = license;
  const compatibility = textField(data, "compatibility", lenient, warnings);
  if (compatibility !== undefined) fields.compatibility = compatibility;
  const tools = allowedTools(data["allowed-tools"], lenient, warnings);
  if (tools !== undefined) fields.allowedTools = tools;
  return fields;
}

/**
 * Parses a skill document. See the module doc for the modes.
 *
 * @example
 * ```ts
 * parseSkillMarkdown("# Notes\n\nUse this for notes.", { fallbackName: "My Dir" });
 * // ok: name "my-dir", description "Use this for notes.", one warning
 * ```
 */
export function parseSkillMarkdown(raw: string, options: ParseOptions = {}): ParseResult {
  const lenient = options.lenient ?? true;
  const fallbackName = options.fallbackName ?? "";
  const named = options.requireNamedFrontmatter ?? false;
  try {
    return { ok: true, skill: parseOrThrow(raw, { fallbackName, lenient, named }) };
  } catch (error) {
    // Only `fail` throws a KindError here; anything else is a bug and propagates.
    if (error instanceof KindError) return failure(error.kind as ParseFailureKind, error.message);
    throw error;
  }
}

/** The warning of an opt-out the frontmatter parse did not see. */
const OPT_OUT_WARNING =
  'author opt-out ("disable-model-invocation") found outside a valid frontmatter; not offered to the model';

/**
 * Applies an opt-out the frontmatter parse missed (see `declaredOptOut` in `opt_out.ts`):
 * `unparsed` is the whole text without a valid frontmatter, else the body after it.
 */
function failClosed(unparsed: string, skill: ParsedSkill): ParsedSkill {
  if (!skill.invocation.modelInvocable || !declaredOptOut(unparsed)) return skill;
  skill.invocation = { ...skill.invocation, modelInvocable: false };
  skill.warnings.push(OPT_OUT_WARNING);
  return skill;
}

/** The one wording of a text that is a note, not a skill (see `requireNamedFrontmatter`). */
const NOTE_MESSAGE =
  "a note, not a skill: a single .md file needs a frontmatter with a name or a description";

const hasText = (value: unknown) => typeof value === "string" && value.trim() !== "";

/** How {@linkcode parseOrThrow} reads a document (see {@linkcode ParseOptions}). */
interface Mode {
  fallbackName: string;
  lenient: boolean;
  /** `requireNamedFrontmatter`. */
  named: boolean;
}

function parseOrThrow(raw: string, mode: Mode): ParsedSkill {
  const { fallbackName, lenient } = mode;
  const split = splitFrontmatter(raw);
  if (split === undefined) {
    if (mode.named) fail("note", NOTE_MESSAGE);
    if (!lenient) fail("no-frontmatter", "missing YAML frontmatter");
    return failClosed(raw, withoutFrontmatter(raw, fallbackName));
  }
  const warnings: string[] = [];
  const value = frontmatterMapping(split.yaml, split.yamlLine, mode, warnings);
  return failClosed(
    split.body,
    fromFrontmatter(value, split.body, { fallbackName, lenient, warnings }),
  );
}

/**
 * The frontmatter's mapping. When the YAML fails, lenient mode retries it once
 * with the values that hold an unquoted `: ` quoted (see
 * {@linkcode quoteColonValues}) and lists each quoted line; the first error
 * stands when the retry fails too or changes nothing.
 */
function frontmatterMapping(
  yaml: string,
  firstLine: number,
  mode: Mode,
  warnings: string[],
): Record<string, unknown> {
  let parsed = parseFrontmatterYaml(yaml, { firstLine });
  if (parsed.ok && mode.named && !namesItself(parsed.value)) fail("note", NOTE_MESSAGE);
  if (!parsed.ok && mode.lenient) {
    const quoted = quoteColonValues(yaml, { firstLine });
    const retried = quoted.lines.length > 0
      ? parseFrontmatterYaml(quoted.text, { firstLine })
      : parsed;
    if (retried.ok) {
      for (const line of quoted.lines) warnings.push(`line ${line}: ${COLON_REPAIR}`);
      parsed = retried;
    }
  }
  if (!parsed.ok) fail("yaml", `invalid YAML frontmatter: ${parsed.message}`);
  const value = parsed.value ?? {};
  if (!isPlainObject(value)) fail("not-mapping", "frontmatter must be a YAML mapping");
  return value;
}

/** Whether a frontmatter value is a mapping with a `name` or a `description` as text. */
function namesItself(value: unknown): boolean {
  return isPlainObject(value) && (hasText(value.name) || hasText(value.description));
}

/** The repair note of a value with an unquoted `: ` read as a quoted string. */
const COLON_REPAIR = 'value holding an unquoted ": " read as a quoted string';

/** Lenient mode without a frontmatter: name from the fallback, description from the body. */
function withoutFrontmatter(raw: string, fallbackName: string): ParsedSkill {
  const body = raw.replace(/\r\n/g, "\n");
  const name = fallbackSkillName(undefined, fallbackName);
  const derived = derivedDescription(body);
  const warnings = ["missing YAML frontmatter; derived name and description"];
  return {
    name,
    nameDeclared: false,
    description: limitDescription(revealed(derived, "description", warnings), warnings),
    invocation: { modelInvocable: true, userInvocable: true },
    metadata: {},
    extraFields: {},
    content: body.trim(),
    warnings,
  };
}

/** A skill from a frontmatter mapping and the body after it. */
function fromFrontmatter(
  value: Record<string, unknown>,
  body: string,
  mode: { fallbackName: string; lenient: boolean; warnings: string[] },
): ParsedSkill {
  const { fallbackName, lenient, warnings } = mode;
  const name = resolveName(value, fallbackName, lenient, warnings);
  const description = resolveDescription(value, body, lenient, warnings);
  const invocation = resolveInvocation(value, lenient, warnings);
  const whenToUse = stringField(value, "whenToUse") ?? stringField(value, "when-to-use");
  const skill: ParsedSkill = {
    name,
    nameDeclared: name === stringField(value, "name"),
    description,
    invocation,
    ...knownFields(value, lenient, warnings),
    content: body.trim(),
    warnings,
  };
  if (whenToUse !== undefined) skill.whenToUse = revealed(whenToUse, "whenToUse", warnings);
  return skill;
}
