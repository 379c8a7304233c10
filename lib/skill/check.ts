/**
 * The per-file parser report `skills-anywhere-local-check-1`: strict and
 * lenient outcomes side by side, the specification findings and the surface.
 * Pure (no file access), so the browser page produces the same report.
 *
 * @example
 * ```ts
 * import { checkSkill } from "./check.ts";
 * const report = checkSkill("---\nname: demo\ndescription: Demo.\n---\nBody", {
 *   fallbackName: "demo",
 *   directoryName: "demo",
 * });
 * console.log(report.strict.ok, report.spec.ok);
 * ```
 * @module
 */
import { splitFrontmatter } from "./frontmatter.ts";
import { type Invocation, parseSkillMarkdown } from "./parse.ts";
import { specFindings, type SpecReport } from "./spec.ts";
import { readSurface, type Surface } from "./surface.ts";
import { parseFrontmatterYaml } from "./yaml.ts";

/** The outcome of one parse mode, without the body. */
export type ModeSummary =
  | {
    ok: true;
    name: string;
    description: string;
    invocation: Invocation;
    warnings: string[];
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
  surface: Surface;
}

/** Options of {@linkcode checkSkill}. */
export interface CheckSkillOptions {
  /** Parent directory name for `SKILL.md`, or the file name without its extension. */
  fallbackName: string;
  /** Set for a file named `SKILL.md`: the specification's directory-name rule applies. */
  directoryName?: string;
}

const encoder = new TextEncoder();

/** UTF-8 length of `text` in bytes. */
export function utf8Length(text: string): number {
  return encoder.encode(text).length;
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
 * checkSkill("no frontmatter", { fallbackName: "x" }).strict; // { ok: false, reason: "missing YAML frontmatter" }
 * ```
 */
export function checkSkill(text: string, options: CheckSkillOptions): LocalCheckReport {
  const { fallbackName } = options;
  const strict = parseSkillMarkdown(text, { fallbackName, lenient: false });
  const lenient = parseSkillMarkdown(text, { fallbackName, lenient: true });
  const summarize = (result: typeof strict): ModeSummary =>
    result.ok
      ? {
        ok: true,
        name: result.skill.name,
        description: result.skill.description,
        invocation: result.skill.invocation,
        warnings: result.skill.warnings,
        metadataKeys: Object.keys(result.skill.metadata).sort(),
        bodyBytes: utf8Length(result.skill.content),
      }
      : { ok: false, reason: result.message };
  const tools = lenient.ok ? lenient.skill.metadata.allowedTools : undefined;
  return {
    schema: "skills-anywhere-local-check-1",
    input: { bytes: utf8Length(text), fallbackName },
    strict: summarize(strict),
    lenient: summarize(lenient),
    spec: specFindings(text, { directoryName: options.directoryName }),
    surface: readSurface(text, {
      body: lenient.ok ? lenient.skill.content : "",
      declaredTools: Array.isArray(tools) ? tools : [],
      frontmatter: frontmatterValue(text),
    }),
  };
}
