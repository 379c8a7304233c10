/**
 * Routing a task to one skill through a model, without trusting the model:
 * a request document lists the openable skills a keyword search ranks best
 * for the task, a model answers with its choice, and the answer is checked
 * against the request and against the catalog as it is now.
 *
 * The request, `skills-anywhere-route-request-1`:
 *
 * ```text
 * { "schema": "skills-anywhere-route-request-1",
 *   "task": "<the task, trimmed>",
 *   "tool": { "name": "dsh-skills-anywhere", "version": "<version>" },
 *   "candidates": [ { "id": "<skill name>", "description": "…", "origin": "<where it comes from>",
 *                     "path": "<absolute SKILL.md path>", "contentHash": "<SHA-256 of its bytes>" } ],
 *   "noMatch": "_none",
 *   "question": { "type": "choice", "instructions": "…",
 *                 "criteria": { "<id>": "<description>", …, "_none": "No listed skill fits this task" } } }
 * ```
 *
 * One to {@linkcode MAX_CANDIDATES} candidates with unique ids, each a valid
 * skill name (so never `_none`; a skill named `none` is an ordinary
 * candidate). The response a model writes, untrusted: a JSON object with
 * `choice` (a candidate id or `_none`), and optionally `confidence` (a finite
 * number from 0 to 1) and `model` (a string); any other key, any other type,
 * or a document over {@linkcode MAX_ROUTE_DOCUMENT_BYTES} is invalid input.
 *
 * The result, `skills-anywhere-route-result-1`: `{schema, outcome, choice,
 * confidence, threshold, model, skill: {name, origin, path} | null, reason,
 * hint}`, where the outcome is, in the order decided:
 *
 * - `invalid_input`: the request or the response breaks the rules above;
 * - `abstain`: no confidence, or less than the threshold (default
 *   {@linkcode DEFAULT_THRESHOLD}; a model's confidence is not calibrated);
 * - `no_match`: `_none`, with enough confidence;
 * - `stale`: the chosen skill is gone, no longer openable, at another path,
 *   or its SKILL.md changed since the request was made;
 * - `selected`.
 *
 * Strings the response supplies (`choice`, `model`) are echoed clipped to
 * {@linkcode ECHO_LIMIT} characters and an ellipsis; a key the rules refuse is
 * named the same way; the surfaces escape what they print. Everything here is
 * pure: the caller reads files and the catalog.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decideRoute, routeRequest } from "./_route.ts";
 * const request = routeRequest("fill a pdf form", [{
 *   id: "pdf-forms", description: "Fill PDF forms.", origin: "claude-code (user)",
 *   path: "/home/me/.claude/skills/pdf-forms/SKILL.md", contentHash: "0".repeat(64),
 * }], { name: "dsh-skills-anywhere", version: "1.0.0" });
 * const result = decideRoute(request, { choice: "pdf-forms", confidence: 0.9 }, {
 *   current: () => ({ openable: true, path: request.candidates[0].path, contentHash: "0".repeat(64) }),
 * });
 * assert.equal(result.outcome, "selected");
 * ```
 * @module
 */
import { isSkillName } from "../skill/mod.ts";
import { isPlainObject } from "../util.ts";

/** The request document's schema. */
export const REQUEST_SCHEMA = "skills-anywhere-route-request-1";
/** The result document's schema. */
export const RESULT_SCHEMA = "skills-anywhere-route-result-1";
/** The choice that says no candidate fits. */
export const NO_MATCH = "_none";
/** Most candidates a request lists. */
export const MAX_CANDIDATES = 8;
/** The confidence a choice needs by default. */
export const DEFAULT_THRESHOLD = 0.7;
/** Longest echo of a string the response supplied, before the ellipsis. */
export const ECHO_LIMIT = 200;
/** Largest request or response document read (either is a file a person or a model wrote). */
export const MAX_ROUTE_DOCUMENT_BYTES = 1024 * 1024;

/** One skill a model may choose. */
export interface RouteCandidate {
  /** The skill's published name. */
  id: string;
  description: string;
  /** Where it comes from, in words (`claude-code (user)`). */
  origin: string;
  /** Absolute path of its SKILL.md. */
  path: string;
  /** SHA-256 (hex) of the SKILL.md bytes when the request was made. */
  contentHash: string;
}

/** The request document (see the module doc). */
export interface RouteRequest {
  schema: typeof REQUEST_SCHEMA;
  task: string;
  tool: { name: string; version: string | null };
  candidates: RouteCandidate[];
  noMatch: typeof NO_MATCH;
  question: {
    type: "choice";
    instructions: string;
    criteria: Record<string, string>;
  };
}

/** An outcome of {@linkcode decideRoute}. */
export type RouteOutcome = "selected" | "abstain" | "no_match" | "stale" | "invalid_input";

/** The result document (see the module doc). */
export interface RouteResult {
  schema: typeof RESULT_SCHEMA;
  outcome: RouteOutcome;
  choice: string | null;
  confidence: number | null;
  threshold: number;
  model: string | null;
  skill: { name: string; origin: string; path: string } | null;
  reason: string;
  hint: string;
}

/** The chosen skill as the catalog has it now: what the stale check compares. */
export interface CurrentSkill {
  /** A model may open it now. */
  openable: boolean;
  path: string;
  /** SHA-256 (hex) of its SKILL.md bytes now; `undefined` when the file cannot be read. */
  contentHash: string | undefined;
}

/** Options of {@linkcode decideRoute}. */
export interface DecideOptions {
  /**
   * The confidence a choice needs, from 0 to 1.
   *
   * @default {DEFAULT_THRESHOLD}
   */
  threshold?: number;
  /** The chosen skill now, by name; `undefined` when the catalog no longer has it. */
  current: (name: string) => CurrentSkill | undefined;
}

const INSTRUCTIONS = "Choose the one skill whose description fits the task, or " + NO_MATCH +
  " when none fits. Answer with a JSON object: " +
  '{"choice": "<id or ' + NO_MATCH + '>", "confidence": <0 to 1>, "model": "<your name>"}.';

/** The reasons and hints of each outcome: one table. */
const WORDS = {
  selected: { reason: "chosen with enough confidence", hint: "open this skill for the task" },
  abstainNone: {
    reason: "the response gives no confidence",
    hint: "ask the person which skill fits, or ask again for a confidence",
  },
  abstainLow: {
    reason: "confidence below the threshold",
    hint: "ask the person which skill fits",
  },
  noMatch: {
    reason: "no listed skill fits the task",
    hint: "go on without a skill, or search with other words",
  },
  staleGone: {
    reason: "the chosen skill is no longer in the catalog",
    hint: "make a new request: the catalog changed",
  },
  staleClosed: {
    reason: "the chosen skill may no longer be opened by a model",
    hint: "make a new request: the catalog changed",
  },
  staleMoved: {
    reason: "the chosen name now belongs to a skill at another path",
    hint: "make a new request: the catalog changed",
  },
  staleChanged: {
    reason: "the chosen skill's SKILL.md changed since the request was made",
    hint: "make a new request, and review the change",
  },
  invalid: { hint: "fix the request or the response; nothing was chosen" },
} as const;

/**
 * The request document for `task` over `candidates` (at most
 * {@linkcode MAX_CANDIDATES}, best first, each openable: the caller ranks and
 * filters).
 *
 * @example
 * ```ts
 * import { routeRequest } from "./_route.ts";
 * const request = routeRequest(" tidy notes ", [], { name: "t", version: null });
 * console.log(request.task, request.question.criteria._none); // "tidy notes" "No listed skill fits this task"
 * ```
 */
export function routeRequest(
  task: string,
  candidates: readonly RouteCandidate[],
  tool: { name: string; version: string | null },
): RouteRequest {
  const listed = candidates.slice(0, MAX_CANDIDATES).map((c) => ({ ...c }));
  const criteria: Record<string, string> = {};
  for (const c of listed) define(criteria, c.id, c.description);
  define(criteria, NO_MATCH, "No listed skill fits this task");
  return {
    schema: REQUEST_SCHEMA,
    task: task.trim(),
    tool: { ...tool },
    candidates: listed,
    noMatch: NO_MATCH,
    question: { type: "choice", instructions: INSTRUCTIONS, criteria },
  };
}

/** Sets an own data property (a skill named `__proto__` is impossible, but a key stays a key). */
function define(target: Record<string, string>, key: string, value: string): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** `text` clipped to {@linkcode ECHO_LIMIT} characters (whole code points), with `…` when cut. */
export function clipEcho(text: string): string {
  const points = Array.from(text.length > ECHO_LIMIT * 2 ? text.slice(0, ECHO_LIMIT * 2) : text);
  return points.length > ECHO_LIMIT ? points.slice(0, ECHO_LIMIT).join("") + "…" : text;
}

const HASH = /^[0-9a-f]{64}$/;

/**
 * The request read back from a file a person kept: the rules of the module doc,
 * or why not. Keys beyond the format are refused too: the request is this
 * tool's own document, and one that carries more was edited.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readRouteRequest } from "./_route.ts";
 * assert.equal(readRouteRequest({ schema: "x" }).ok, false);
 * ```
 */
export function readRouteRequest(
  value: unknown,
): { ok: true; request: RouteRequest } | { ok: false; message: string } {
  const bad = (message: string) => ({ ok: false as const, message: `request: ${message}` });
  if (!isPlainObject(value)) return bad("not a JSON object");
  const extra = Object.keys(value).filter((k) => !REQUEST_KEYS.has(k));
  if (extra.length > 0) return bad(`unknown key "${clipEcho(extra[0])}"`);
  if (value.schema !== REQUEST_SCHEMA) return bad(`schema is not "${REQUEST_SCHEMA}"`);
  if (value.noMatch !== NO_MATCH) return bad(`noMatch is not "${NO_MATCH}"`);
  if (typeof value.task !== "string" || value.task.trim() === "") return bad("task is missing");
  const candidates = value.candidates;
  if (!Array.isArray(candidates) || candidates.length < 1 || candidates.length > MAX_CANDIDATES) {
    return bad(`candidates must be a list of 1 to ${MAX_CANDIDATES}`);
  }
  const seen = new Set<string>();
  for (const [i, c] of candidates.entries()) {
    if (!isPlainObject(c)) return bad(`candidate ${i + 1} is not an object`);
    for (const key of ["id", "description", "origin", "path", "contentHash"]) {
      if (typeof c[key] !== "string") return bad(`candidate ${i + 1} has no ${key}`);
    }
    const id = c.id as string;
    if (!isSkillName(id)) return bad(`candidate ${i + 1}'s id is not a skill name`);
    if (seen.has(id)) return bad(`candidate id "${id}" is listed twice`);
    seen.add(id);
    if (!(c.path as string).startsWith("/") && !/^[A-Za-z]:[\\/]/.test(c.path as string)) {
      return bad(`candidate "${id}" has no absolute path`);
    }
    if (!HASH.test(c.contentHash as string)) return bad(`candidate "${id}" has no SHA-256`);
  }
  return { ok: true, request: value as unknown as RouteRequest };
}

const REQUEST_KEYS = new Set([
  "schema",
  "task",
  "tool",
  "candidates",
  "noMatch",
  "question",
]);
const RESPONSE_KEYS = new Set(["choice", "confidence", "model"]);

/**
 * Decides the outcome of `response` (the parsed, untrusted document) to
 * `request` (already read with {@linkcode readRouteRequest}); see the
 * module doc for the order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decideRoute, routeRequest } from "./_route.ts";
 * const request = routeRequest("x", [], { name: "t", version: null });
 * assert.equal(decideRoute(request, { choice: "_none" }, { current: () => undefined }).outcome, "abstain");
 * ```
 */
export function decideRoute(
  request: RouteRequest,
  response: unknown,
  options: DecideOptions,
): RouteResult {
  const threshold = options.threshold ?? DEFAULT_THRESHOLD;
  const base = {
    schema: RESULT_SCHEMA as typeof RESULT_SCHEMA,
    choice: null as string | null,
    confidence: null as number | null,
    threshold,
    model: null as string | null,
    skill: null as RouteResult["skill"],
  };
  const invalid = (reason: string): RouteResult => ({
    ...base,
    outcome: "invalid_input",
    reason: `response: ${reason}`,
    hint: WORDS.invalid.hint,
  });
  if (!isPlainObject(response)) return invalid("not a JSON object");
  const extra = Object.keys(response).filter((k) => !RESPONSE_KEYS.has(k));
  if (extra.length > 0) return invalid(`unknown key "${clipEcho(extra[0])}"`);
  const { choice, confidence, model } = response;
  if (typeof choice !== "string") return invalid("choice is not a string");
  base.choice = clipEcho(choice);
  if (model !== undefined) {
    if (typeof model !== "string") return invalid("model is not a string");
    base.model = clipEcho(model);
  }
  const candidate = request.candidates.find((c) => c.id === choice);
  if (candidate === undefined && choice !== NO_MATCH) {
    return invalid(`choice "${base.choice}" is not a candidate or "${NO_MATCH}"`);
  }
  if (confidence !== undefined) {
    if (typeof confidence !== "number" || !Number.isFinite(confidence)) {
      return invalid("confidence is not a number");
    }
    if (confidence < 0 || confidence > 1) return invalid("confidence is not from 0 to 1");
    base.confidence = confidence;
  }
  const words = (w: { reason: string; hint: string }) => ({ reason: w.reason, hint: w.hint });
  if (base.confidence === null) return { ...base, outcome: "abstain", ...words(WORDS.abstainNone) };
  if (base.confidence < threshold) {
    return { ...base, outcome: "abstain", ...words(WORDS.abstainLow) };
  }
  if (candidate === undefined) return { ...base, outcome: "no_match", ...words(WORDS.noMatch) };
  const skill = { name: candidate.id, origin: candidate.origin, path: candidate.path };
  const now = options.current(candidate.id);
  const stale = now === undefined
    ? WORDS.staleGone
    : !now.openable
    ? WORDS.staleClosed
    : now.path !== candidate.path
    ? WORDS.staleMoved
    : now.contentHash !== candidate.contentHash
    ? WORDS.staleChanged
    : undefined;
  if (stale !== undefined) return { ...base, skill, outcome: "stale", ...words(stale) };
  return { ...base, skill, outcome: "selected", ...words(WORDS.selected) };
}

/**
 * The `invalid_input` result of a request or response refused before anything
 * was decided (nothing echoed, no skill): `reason` names the document and why.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { invalidRoute } from "./_route.ts";
 * assert.equal(invalidRoute("request: not a JSON object", 0.7).outcome, "invalid_input");
 * ```
 */
export function invalidRoute(reason: string, threshold: number): RouteResult {
  return {
    schema: RESULT_SCHEMA,
    outcome: "invalid_input",
    choice: null,
    confidence: null,
    threshold,
    model: null,
    skill: null,
    reason,
    hint: WORDS.invalid.hint,
  };
}

/**
 * Whether `text` is a threshold: a number from 0 to 1 written plainly (`0.5`, `1`, `.75`).
 *
 * @example
 * ```ts
 * import { parseThreshold } from "./_route.ts";
 * console.log(parseThreshold("0.5"), parseThreshold("1.2")); // 0.5 undefined
 * ```
 */
export function parseThreshold(text: string): number | undefined {
  if (!/^(?:0|1|0?\.\d+|1\.0*|0\.\d*)$/.test(text.trim())) return undefined;
  const n = Number(text);
  return n >= 0 && n <= 1 ? n : undefined;
}
