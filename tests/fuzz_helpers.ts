// Shared by the property-based tests (tests/fuzz_*_test.ts, fast-check): the seed and run count
// (FUZZ_SEED and FUZZ_RUNS; `deno task fuzz` runs 5,000 per property), the per-case bound, and
// the arbitrary-string generators every target is fed.
import { ok } from "node:assert/strict";
import fc from "fast-check";

export const SEED = Number(Deno.env.get("FUZZ_SEED") ?? "20260710");
export const RUNS = Number(Deno.env.get("FUZZ_RUNS") ?? "300");
if (!Number.isSafeInteger(SEED) || !Number.isSafeInteger(RUNS) || RUNS < 1) {
  throw new Error("FUZZ_SEED and FUZZ_RUNS must be integers (FUZZ_RUNS ≥ 1)");
}
console.log(`fuzz: seed ${SEED}, ${RUNS} runs per property (FUZZ_SEED / FUZZ_RUNS to change)`);

/** The runner parameters every property uses; a failure prints the seed and path to replay. */
export const PARAMS = { seed: SEED, numRuns: RUNS } as const;
/** A generous bound per case: catches a hang or a quadratic blow-up, not a slow machine. */
const CASE_BUDGET_MS = 2000;

/** Runs `fn` and asserts it finished within the per-case budget. */
export function bounded<T>(what: string, fn: () => T): T {
  const start = performance.now();
  const result = fn();
  const elapsed = performance.now() - start;
  ok(elapsed < CASE_BUDGET_MS, `${what} took ${elapsed.toFixed(0)} ms`);
  return result;
}

/** {@linkcode bounded} for a promise. */
export async function boundedAsync<T>(what: string, fn: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await fn();
  const elapsed = performance.now() - start;
  ok(elapsed < CASE_BUDGET_MS, `${what} took ${elapsed.toFixed(0)} ms`);
  return result;
}

/** Characters a hostile input would use: controls, bidi, invisible, separators, tags, surrogates. */
export const HOSTILE_CHARS = [
  "\u0000",
  "\u0007",
  "\u0008",
  "\t",
  "\n",
  "\r",
  "\u001b",
  "\u007f",
  "\u0080",
  "\u0085",
  "\u009b",
  "\u009f",
  "\u00ad",
  "\u034f",
  "\u061c",
  "\u115f",
  "\u180e",
  "\u200b",
  "\u200c",
  "\u200d",
  "\u200e",
  "\u200f",
  "\u2028",
  "\u2029",
  "\u202a",
  "\u202b",
  "\u202c",
  "\u202d",
  "\u202e",
  "\u2060",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
  "\u3164",
  "\ufeff",
  "\ufffd",
  "\ud800",
  "\udbff",
  "\udc00",
  "\udfff",
  "\u{e0001}",
  "\u{e0041}",
  "\u{e007f}",
  "\u{e0100}",
  "\u{1f600}",
  "é",
  "日",
  "\\",
  ":",
  "/",
  ".",
  '"',
  "%",
  "@",
  "#",
];

/** One UTF-16 unit of any kind: a full code point, a lone code unit, or a hostile character. */
export const anyUnit = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) },
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_CHARS) },
  { weight: 3, arbitrary: fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 1 }) },
);

/** Arbitrary full-Unicode strings, lone surrogates included. */
export const anyString = (maxLength = 300) => fc.string({ unit: anyUnit, maxLength });
