/**
 * Routing a task to skills: the route document a model fills, read and decided against the
 * current catalog.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseThreshold } from "./mod.ts";
 * assert.equal(parseThreshold("0.5"), 0.5);
 * ```
 *
 * @module
 */
export {
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
} from "./_route.ts";
