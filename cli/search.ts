/**
 * The `search` command: the catalog ranked for a query by the one ranker
 * (`lib/catalog/_search.ts`, through `findSkills` as MCP's and dsh's
 * `find_skills` use it): names and descriptions first, then the instructions,
 * each read now through the fresh reader. Each hit says why it matched. A
 * person sees every skill, those kept from the model marked. No match is exit
 * 1 with one line on stderr, as grep and ripgrep do.
 *
 * @example
 * ```ts
 * import { runSearch } from "./search.ts";
 * import { processIo } from "./io.ts";
 * const code = await runSearch(["excel"], { limit: "5" }, "/repo", processIo());
 * ```
 * @module
 */
import type { DiscoveredSkill } from "../lib/catalog/mod.ts";
import { originLabel } from "../lib/catalog/mod.ts";
import {
  type MatchField,
  queryTerms,
  type SearchMatch,
  type TermMatch,
} from "../lib/catalog/mod.ts";
import { findLimits, findSkills, freshBody } from "../lib/load/mod.ts";
import { type OptionValues, UsageError } from "./args.ts";
import { cliCatalog } from "./catalog.ts";
import { EXIT, PROGRAM } from "./program.ts";
import { escapeTerminal, jsonText, quote } from "./escape.ts";
import { type Io, PREFIX, tableWidth } from "./io.ts";
import { outStyles } from "./style.ts";
import { type Cell, type ColumnFit, formatTable } from "./table.ts";
import { counted } from "../lib/text.ts";

/** The default and the largest `--limit`, the same as `find_skills`'. */
const LIMITS = findLimits();

/** `--limit`'s value: a whole number from 1 to the largest, else a usage error. */
function limitOf(given: string | undefined): number {
  if (given === undefined) return LIMITS.defaultLimit;
  const n = /^\d+$/.test(given) ? Number(given) : NaN;
  if (!(n >= 1 && n <= LIMITS.maxLimit)) {
    throw new UsageError(
      `--limit must be a whole number from 1 to ${LIMITS.maxLimit} (got ${quote(given)})`,
      "search",
    );
  }
  return n;
}

/** The query of the positionals (joined by spaces), or a usage error when it has no term. */
function queryOf(positionals: string[]): string {
  const query = positionals.join(" ");
  if (query.trim() === "") {
    throw new UsageError("search needs a query (search <words...>)", "search");
  }
  if (queryTerms(query).length === 0) {
    throw new UsageError(
      `the query ${quote(query)} has no word of two or more letters or digits ` +
        `that is not a common word such as "the" or "and"`,
      "search",
    );
  }
  return query;
}

/** Runs `search`: 0 with a match, 1 with none. */
export async function runSearch(
  positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  const query = queryOf(positionals);
  const limit = limitOf(values.limit);
  const { config, report } = await cliCatalog(cwd, io);
  const body = (skill: DiscoveredSkill) => freshBody(skill, config.lenient);
  const found = await findSkills(report.skills, { query, limit }, { limits: LIMITS, body });
  if (!found.ok) throw new UsageError(found.message, "search");
  // `search`'s documented `total` is the number of skills searched (findSkills counts matches).
  const total = report.skills.length;
  const { matches } = found;
  if (values.json) io.out(jsonText({ total, matches: matches.map(matchDoc) }));
  else if (matches.length > 0) io.out(matchLines(matches, io).join("\n") + "\n");
  if (matches.length > 0) return EXIT.ok;
  if (!values.json) {
    io.err(
      `${PREFIX}no skill matches ${quote(query)} (${counted(total, "skill")} searched); ` +
        `try other words, or run "${PROGRAM} list" to see them all\n`,
    );
  }
  return EXIT.failed;
}

/** One match of `search --json`. */
function matchDoc({ skill, score, matched }: SearchMatch<DiscoveredSkill>) {
  return {
    name: skill.name,
    description: skill.description,
    from: originLabel(skill.origin),
    source: skill.source,
    path: skill.path,
    model_invocable: skill.invocation.modelInvocable,
    score,
    matched,
  };
}

/** How the text output names each field. */
const FIELD_WORDS: Record<MatchField, string> = {
  name: "name",
  description: "description",
  whenToUse: "when to use",
  origin: "from",
  body: "body",
};

/** Why a hit matched, grouped by field: `name: xlsx; body: excel ×26`. */
function reasons(matched: readonly TermMatch[]): string {
  const parts: string[] = [];
  for (const field of Object.keys(FIELD_WORDS) as MatchField[]) {
    const terms = matched.filter((m) => m.fields.includes(field)).map((m) =>
      field === "body" ? `${m.term} ×${m.occurrences}` : m.term
    );
    if (terms.length > 0) parts.push(`${FIELD_WORDS[field]}: ${terms.join(", ")}`);
  }
  return escapeTerminal(parts.join("; "));
}

/** `text` cut to `width` characters with an ellipsis. */
const MARK = " (not offered to the model)";

/**
 * How a terminal's width is shared: the name first (cut in the middle), the description gets
 * what is left, why it matched keeps at least 12 columns.
 */
const MATCH_COLUMNS: ColumnFit[] = [
  { min: 12, share: 0.3, cut: "middle" },
  { min: 20, share: 1 },
  { min: 12 },
];

/**
 * One line per hit: the name (marked when kept from the model), the
 * description and why it matched; on a terminal, a table fitted to its width,
 * piped, whole.
 */
function matchLines(matches: readonly SearchMatch<DiscoveredSkill>[], io: Io): string[] {
  const style = outStyles(io);
  const width = tableWidth(io);
  if (width !== undefined) {
    return formatTable(
      matches.map(({ skill, matched }): Cell[] => [
        [
          [skill.name, style.bold],
          ...(skill.invocation.modelInvocable ? [] : [[MARK, style.warn] as const]),
        ],
        skill.description.replace(/[\t\n\r ]+/g, " ").trim(),
        [[`[${reasons(matched)}]`, style.dim]],
      ]),
      { width, columns: MATCH_COLUMNS },
    ).split("\n");
  }
  const rows = matches.map(({ skill, matched }) => ({
    name: escapeTerminal(skill.name),
    mark: skill.invocation.modelInvocable ? "" : MARK,
    description: skill.description,
    why: `[${reasons(matched)}]`,
  }));
  const nameWidth = Math.max(...rows.map((r) => r.name.length + r.mark.length));
  return rows.map((r) => {
    const pad = " ".repeat(nameWidth - r.name.length - r.mark.length);
    return `${style.bold(r.name)}${style.warn(r.mark)}${pad}  ${escapeTerminal(r.description)}  ${
      style.dim(r.why)
    }`;
  });
}
