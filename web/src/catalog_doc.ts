/**
 * The catalog the explorer shows: a `list --json` document (with `--all`, its
 * `dropped` rows too), checked field by field before the page uses any of it.
 * The demo catalog recorded by `web/build.ts` is such a document, and so is a
 * teammate's export chosen in the page: both go through {@linkcode parseCatalog}.
 *
 * A document is refused, with one sentence saying why, when it is over
 * {@linkcode MAX_CATALOG_BYTES}, not UTF-8, not JSON, not shaped like
 * `list --json` (a field missing or of the wrong type), has more than
 * {@linkcode MAX_CATALOG_SKILLS} skills, repeats a name, or holds a control
 * character in a name or a path (a description may hold tabs and line breaks).
 * Nothing of the file's content is quoted in a refusal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseCatalog } from "./catalog_doc.ts";
 * const parsed = parseCatalog(new TextEncoder().encode('{"skills": [], "invalid": [], "complete": true}'));
 * assert.equal(parsed.ok, true);
 * ```
 * @module
 */
import { isPlainObject } from "../../lib/util.ts";

/** The largest `list --json` document the page reads (16 MiB). */
export const MAX_CATALOG_BYTES = 16 * 1024 * 1024;
/** The most skills a catalog document may list. */
export const MAX_CATALOG_SKILLS = 10_000;

/** One skill of `list --json`. */
export interface CatalogSkill {
  name: string;
  description: string;
  source: string;
  rank: number;
  path: string;
  origin: Record<string, string>;
  model_invocable: boolean;
  renamed_from: string | null;
  renamed_because: string | null;
  repaired: boolean;
  warnings: string[];
}

/** One skill left out (`list --json --all`): a duplicate or an exclusion. */
export interface CatalogDropped {
  name: string;
  path: string;
  reason: string;
  winner: string;
}

/** One file that could not become a skill. */
export interface CatalogInvalid {
  path: string;
  kind: string;
  reason: string;
}

/** A checked `list --json` document. */
export interface CatalogDoc {
  skills: CatalogSkill[];
  /** Absent when the export was made without `--all`. */
  dropped?: CatalogDropped[];
  invalid: CatalogInvalid[];
  complete: boolean;
}

/** Why a catalog document was refused. */
export type CatalogRefusalKind =
  | "too-large"
  | "not-utf8"
  | "not-json"
  | "wrong-shape"
  | "too-many-skills"
  | "duplicate-name"
  | "control-character";

/** The page's words for each refusal. */
export const CATALOG_REFUSALS: Readonly<Record<CatalogRefusalKind, string>> = {
  "too-large": "The catalog exceeds 16 MiB",
  "not-utf8": "The catalog is not valid UTF-8",
  "not-json": "The catalog is not valid JSON",
  "wrong-shape": "Expected the output of list --json",
  "too-many-skills": "The catalog lists more than 10,000 skills",
  "duplicate-name": "The catalog lists one name twice",
  "control-character": "A name or a path holds a control character",
};

/** A refused catalog: why, in words, and the first field at fault when the shape is wrong. */
export interface CatalogRefusal {
  ok: false;
  kind: CatalogRefusalKind;
  message: string;
  /** Which field (`skills[3].name`), never its content. */
  detail?: string;
}

/** The result of {@linkcode parseCatalog}. */
export type CatalogParse = { ok: true; doc: CatalogDoc } | CatalogRefusal;

class Refused extends Error {
  constructor(readonly kind: CatalogRefusalKind, readonly detail?: string) {
    super(kind);
  }
}

// C0 and C1 controls and DEL; a description may keep tab, line feed and carriage return.
const CONTROL = /\p{Cc}/u;
const CONTROL_IN_TEXT = /[^\P{Cc}\t\n\r]/u;

function text(value: unknown, where: string, strict = true): string {
  if (typeof value !== "string") throw new Refused("wrong-shape", `${where} is not a string`);
  if ((strict ? CONTROL : CONTROL_IN_TEXT).test(value)) {
    throw new Refused("control-character", where);
  }
  return value;
}

function nullableText(value: unknown, where: string): string | null {
  return value === null ? null : text(value, where);
}

function flag(value: unknown, where: string): boolean {
  if (typeof value !== "boolean") throw new Refused("wrong-shape", `${where} is not true or false`);
  return value;
}

function list(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value)) throw new Refused("wrong-shape", `${where} is not a list`);
  return value;
}

function object(value: unknown, where: string): Record<string, unknown> {
  if (!isPlainObject(value)) throw new Refused("wrong-shape", `${where} is not an object`);
  return value;
}

function skillOf(value: unknown, i: number): CatalogSkill {
  const at = `skills[${i}]`;
  const row = object(value, at);
  const name = text(row.name, `${at}.name`);
  if (name === "" || name.length > 200) {
    throw new Refused("wrong-shape", `${at}.name is empty or too long`);
  }
  const origin = object(row.origin, `${at}.origin`);
  const originText: Record<string, string> = {};
  for (const [key, field] of Object.entries(origin)) {
    originText[text(key, `${at}.origin`)] = text(field, `${at}.origin`);
  }
  if (typeof originText.kind !== "string") {
    throw new Refused("wrong-shape", `${at}.origin has no kind`);
  }
  const rank = row.rank;
  if (typeof rank !== "number" || !Number.isFinite(rank)) {
    throw new Refused("wrong-shape", `${at}.rank is not a number`);
  }
  return {
    name,
    description: text(row.description, `${at}.description`, false),
    source: text(row.source, `${at}.source`),
    rank,
    path: text(row.path, `${at}.path`),
    origin: originText,
    model_invocable: flag(row.model_invocable, `${at}.model_invocable`),
    renamed_from: nullableText(row.renamed_from, `${at}.renamed_from`),
    renamed_because: nullableText(row.renamed_because, `${at}.renamed_because`),
    repaired: flag(row.repaired, `${at}.repaired`),
    warnings: list(row.warnings, `${at}.warnings`).map((w, j) =>
      text(w, `${at}.warnings[${j}]`, false)
    ),
  };
}

function droppedOf(value: unknown, i: number): CatalogDropped {
  const at = `dropped[${i}]`;
  const row = object(value, at);
  return {
    name: text(row.name, `${at}.name`),
    path: text(row.path, `${at}.path`),
    reason: text(row.reason, `${at}.reason`),
    winner: text(row.winner, `${at}.winner`),
  };
}

function invalidOf(value: unknown, i: number): CatalogInvalid {
  const at = `invalid[${i}]`;
  const row = object(value, at);
  return {
    path: text(row.path, `${at}.path`),
    kind: text(row.kind, `${at}.kind`),
    reason: text(row.reason, `${at}.reason`, false),
  };
}

/** Checks an already parsed value as a `list --json` document. */
export function catalogFromValue(value: unknown): CatalogParse {
  try {
    const top = object(value, "the document");
    const skills = list(top.skills, "skills");
    if (skills.length > MAX_CATALOG_SKILLS) throw new Refused("too-many-skills");
    const doc: CatalogDoc = {
      skills: skills.map(skillOf),
      ...(top.dropped !== undefined
        ? { dropped: list(top.dropped, "dropped").map(droppedOf) }
        : {}),
      invalid: list(top.invalid ?? [], "invalid").map(invalidOf),
      complete: top.complete === undefined ? true : flag(top.complete, "complete"),
    };
    const names = new Set<string>();
    for (const skill of doc.skills) {
      if (names.has(skill.name)) throw new Refused("duplicate-name");
      names.add(skill.name);
    }
    return { ok: true, doc };
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    return {
      ok: false,
      kind: error.kind,
      message: CATALOG_REFUSALS[error.kind],
      ...(error.detail !== undefined ? { detail: error.detail } : {}),
    };
  }
}

/**
 * The refusal of `kind`, for a caller that refuses before reading (a file over
 * {@linkcode MAX_CATALOG_BYTES} is never read).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { catalogRefusal } from "./catalog_doc.ts";
 * assert.equal(catalogRefusal("too-large").message, "The catalog exceeds 16 MiB");
 * ```
 */
export function catalogRefusal(kind: CatalogRefusalKind): CatalogRefusal {
  return { ok: false, kind, message: CATALOG_REFUSALS[kind] };
}

/**
 * Reads the bytes of a `list --json` export: size, UTF-8, JSON, then shape.
 *
 * @example
 * ```ts
 * import { parseCatalog } from "./catalog_doc.ts";
 * parseCatalog(new TextEncoder().encode("[]")); // { ok: false, kind: "wrong-shape", … }
 * ```
 */
export function parseCatalog(bytes: Uint8Array): CatalogParse {
  const refuse = catalogRefusal;
  if (bytes.byteLength > MAX_CATALOG_BYTES) return refuse("too-large");
  let source: string;
  try {
    source = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return refuse("not-utf8");
  }
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    return refuse("not-json");
  }
  return catalogFromValue(value);
}
