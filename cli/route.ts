/**
 * The `route` command: `route prepare <task...>` writes a request for a model
 * to choose one skill for a task (the openable skills the one ranker puts
 * first, at most 8, author-disabled ones left out before the cap), and
 * `route apply --request <file> --response <file>` checks the model's
 * untrusted answer against the request and the catalog as it is now
 * (`lib/route/_route.ts` has the formats and the rules).
 *
 * Exits: prepare 0 with a request, 2 for an empty task or no openable match;
 * apply 0 `selected`, `abstain` or `no_match`, 1 `stale`, 2 `invalid_input`
 * (a result document is still printed) or a usage mistake (none is).
 *
 * @example
 * ```ts
 * import { runRoute } from "./route.ts";
 * import { processIo } from "./io.ts";
 * // Type-checked, not run by the doc test: it routes over the project at /repo and prints to this process's stdout.
 * async function example() {
 *   const code = await runRoute(["prepare", "fill", "a", "pdf"], { json: true }, "/repo", processIo());
 * }
 * ```
 * @module
 */
import type { DiscoveredSkill } from "../lib/catalog/mod.ts";
import { resolve } from "node:path";
import { originLabel } from "../lib/catalog/mod.ts";
import { queryTerms } from "../lib/catalog/mod.ts";
import { readBoundedSync, ReadError } from "../lib/fs/mod.ts";
import { sha256Hex } from "../lib/hash.ts";
import { findLimits, findSkills, freshBody, isOpenable } from "../lib/load/mod.ts";
import { readSkillNow } from "../lib/load/mod.ts";
import {
  type CurrentSkill,
  decideRoute,
  DEFAULT_THRESHOLD,
  invalidRoute,
  MAX_CANDIDATES,
  MAX_ROUTE_DOCUMENT_BYTES,
  parseThreshold,
  readRouteRequest,
  type RouteCandidate,
  routeRequest,
  type RouteResult,
} from "../lib/route/mod.ts";
import { tryParseJsonBytes } from "../lib/util.ts";
import { TOOL_NAME, VERSION } from "../lib/version.ts";
import { type OptionValues, UsageError } from "./args.ts";
import { cliCatalog } from "./catalog.ts";
import { EXIT, PROGRAM } from "./program.ts";
import { escapeTerminal, jsonText, quote } from "./escape.ts";
import type { Io } from "./io.ts";
import { outStyles } from "./style.ts";

const SUBCOMMANDS = ["prepare", "apply"] as const;
/** Options only `apply` takes, refused for `prepare` with one wording. */
const APPLY_ONLY = ["request", "response", "min-confidence"] as const;

/** Runs `route prepare` or `route apply` (see the module doc for the exits). */
export async function runRoute(
  positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  const [sub, ...rest] = positionals;
  if (sub === "prepare") {
    for (const name of APPLY_ONLY) {
      if (values[name] !== undefined) {
        throw new UsageError(`--${name} is only available for route apply`, "route");
      }
    }
    return await prepare(rest, values, cwd, io);
  }
  if (sub === "apply") {
    if (rest.length > 0) {
      throw new UsageError(`route apply takes no arguments (got ${quote(rest[0])})`, "route");
    }
    return await apply(values, cwd, io);
  }
  const what = sub === undefined
    ? "route needs prepare or apply"
    : `unknown route command ${quote(sub)}`;
  throw new UsageError(`${what} (${SUBCOMMANDS.join(" or ")})`, "route");
}

/** The candidate record of a catalog skill, hashed now; `undefined` when its file cannot be read now. */
function candidateOf(skill: DiscoveredSkill, lenient: boolean): RouteCandidate | undefined {
  const contentHash = hashNow(skill, lenient);
  if (contentHash === undefined) return undefined;
  return {
    id: skill.name,
    description: skill.description,
    origin: originLabel(skill.origin),
    path: skill.path,
    contentHash,
  };
}

/** SHA-256 of the skill's SKILL.md as it reads now, through every fresh-read check. */
function hashNow(skill: DiscoveredSkill, lenient: boolean): string | undefined {
  try {
    const now = readSkillNow(skill.path, {
      fallbackName: skill.name,
      lenient,
      confineTo: skill.confineTo,
    });
    return now.ok ? sha256Hex(now.bytes) : undefined;
  } catch (error) {
    if (error instanceof ReadError) return undefined;
    throw error;
  }
}

async function prepare(
  words: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  const task = words.join(" ").trim();
  if (task === "" || queryTerms(task).length === 0) {
    throw new UsageError(
      `route prepare needs a task with keywords (a word of two or more letters or digits that is not a common word such as "the")`,
      "route",
    );
  }
  const { config, report } = await cliCatalog(cwd, io);
  const body = (skill: DiscoveredSkill) => freshBody(skill, config.lenient);
  const found = await findSkills(report.skills, { query: task, limit: report.skills.length || 1 }, {
    limits: findLimits(MAX_CANDIDATES, Math.max(1, report.skills.length)),
    body,
    openable: (skill) => isOpenable(skill.invocation),
  });
  const candidates: RouteCandidate[] = [];
  for (const match of found.ok ? found.matches : []) {
    if (candidates.length === MAX_CANDIDATES) break;
    const candidate = candidateOf(match.skill, config.lenient);
    if (candidate !== undefined) candidates.push(candidate);
  }
  if (candidates.length === 0) {
    throw new UsageError(
      `no skill a model may open matches ${
        quote(task)
      }; try other keywords, or run "${PROGRAM} search" to see what matches`,
      "route",
    );
  }
  const request = routeRequest(task, candidates, { name: TOOL_NAME, version: VERSION });
  if (values.json) {
    io.out(jsonText(request));
    return EXIT.ok;
  }
  const st = outStyles(io);
  const lines = [`Candidates for ${quote(request.task)} (best first):`];
  for (const c of request.candidates) {
    lines.push(
      `  ${st.bold(escapeTerminal(c.id))}  ${escapeTerminal(c.description)}  ${
        st.dim(escapeTerminal(c.origin))
      }`,
    );
  }
  lines.push(
    "",
    `Save the request with --json, give it to a model, then check its answer: ` +
      `${PROGRAM} route apply --request <request.json> --response <response.json>`,
  );
  io.out(lines.join("\n") + "\n");
  return EXIT.ok;
}

/** A JSON document a person or a model wrote, read bounded; or why it cannot be used. */
function readDocument(
  path: string,
  cwd: string,
  what: string,
): { ok: true; value: unknown } | { ok: false; message: string } {
  const full = resolve(cwd, path);
  let bytes: Uint8Array;
  try {
    bytes = readBoundedSync(full, {
      maxBytes: MAX_ROUTE_DOCUMENT_BYTES,
      followSymlinks: true,
      verifySize: true,
    }).bytes;
  } catch (error) {
    if (!(error instanceof ReadError)) throw error;
    return { ok: false, message: `${what}: ${error.message}` };
  }
  const parsed = tryParseJsonBytes(bytes);
  return parsed.ok ? parsed : { ok: false, message: `${what}: ${parsed.message}` };
}

/** The exit of each outcome. */
const EXITS: Record<RouteResult["outcome"], number> = {
  selected: 0,
  abstain: 0,
  no_match: 0,
  stale: 1,
  invalid_input: 2,
};

async function apply(values: OptionValues, cwd: string, io: Io): Promise<number> {
  const requestPath = values.request;
  const responsePath = values.response;
  if (requestPath === undefined || responsePath === undefined) {
    throw new UsageError(
      `route apply needs --request <file> and --response <file>`,
      "route",
    );
  }
  let threshold = DEFAULT_THRESHOLD;
  if (values["min-confidence"] !== undefined) {
    const parsed = parseThreshold(values["min-confidence"]);
    if (parsed === undefined) {
      throw new UsageError(
        `--min-confidence must be a number from 0 to 1 (got ${quote(values["min-confidence"])})`,
        "route",
      );
    }
    threshold = parsed;
  }
  const requestDoc = readDocument(requestPath, cwd, "request");
  const request = requestDoc.ok ? readRouteRequest(requestDoc.value) : requestDoc;
  let result: RouteResult;
  if (!request.ok) result = invalidRoute(request.message, threshold);
  else {
    const responseDoc = readDocument(responsePath, cwd, "response");
    if (!responseDoc.ok) result = invalidRoute(responseDoc.message, threshold);
    else {
      const { config, report } = await cliCatalog(cwd, io);
      const current = (name: string): CurrentSkill | undefined => {
        const skill = report.skills.find((s) => s.name === name);
        if (skill === undefined) return undefined;
        return {
          openable: isOpenable(skill.invocation),
          path: skill.path,
          contentHash: hashNow(skill, config.lenient),
        };
      };
      result = decideRoute(request.request, responseDoc.value, { threshold, current });
    }
  }
  if (values.json) io.out(jsonText(result));
  else io.out(resultLine(result, io) + "\n");
  return EXITS[result.outcome];
}

/** `<OUTCOME> <detail> — <hint>`, every echoed string quoted and escaped. */
function resultLine(result: RouteResult, io: Io): string {
  const st = outStyles(io);
  const head = result.outcome.toUpperCase();
  const skill = result.skill;
  const detail = result.outcome === "selected" && skill !== null
    ? `${quote(skill.name)} from ${quote(skill.origin)} at ${quote(skill.path)} (${result.reason})`
    : skill !== null
    ? `${quote(skill.name)}: ${escapeTerminal(result.reason)}`
    : escapeTerminal(result.reason);
  const style = result.outcome === "selected"
    ? st.bold
    : result.outcome === "stale" || result.outcome === "invalid_input"
    ? st.warn
    : st.dim;
  return `${style(head)} ${detail} — ${result.hint}`;
}
