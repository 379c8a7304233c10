/**
 * The error model, after `ReadError` in `lib/fs/`.
 *
 * An expected failure (a missing file, a bad source string, a manifest that
 * does not parse) is a value, `{ ok: false, kind, message }`: a `kind` from a
 * closed union that callers switch on, and one plain sentence (capitalised or
 * not as the module's table says, never ending in a period, never naming a
 * product prefix, a CLI flag or an MCP tool). Where throwing is right (deep in
 * a walk, or across an async boundary a caller cannot thread a result
 * through), the thrown value is a {@linkcode KindError} carrying the same
 * two fields. Surfaces (CLI, MCP, dsh, browser) turn kinds into their own
 * words, prefixes and exit codes; tests assert kinds, not sentences.
 *
 * This module imports nothing, so the browser page uses it unchanged.
 *
 * @example
 * ```ts
 * import { failure, type Failure } from "./errors.ts";
 * type Parsed = { ok: true; value: number } | Failure<"empty" | "not-a-number">;
 * function parse(text: string): Parsed {
 *   if (text === "") return failure("empty", "nothing to parse");
 *   const value = Number(text);
 *   return Number.isNaN(value) ? failure("not-a-number", `not a number: ${text}`) : { ok: true, value };
 * }
 * const result = parse("x");
 * if (!result.ok) console.log(result.kind); // "not-a-number"
 * ```
 * @module
 */

/** An expected failure as a value: a `kind` to switch on and one sentence to show. */
export interface Failure<K extends string = string> {
  readonly ok: false;
  /** The failure class, from a closed union. */
  readonly kind: K;
  /** One sentence for people; never parsed. */
  readonly message: string;
}

/**
 * Builds a {@linkcode Failure}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { failure } from "./errors.ts";
 * assert.equal(failure("missing", "no such file").kind, "missing");
 * ```
 */
export function failure<K extends string>(kind: K, message: string): Failure<K> {
  return { ok: false, kind, message };
}

/**
 * The one thrown error shape: an `Error` with a `kind`. Each package names its
 * own union (`ReadErrorKind`, `SourceErrorKind`, …) and may subclass this to
 * carry extra fields.
 *
 * @example
 * ```ts
 * import { KindError } from "./errors.ts";
 * try {
 *   throw new KindError("refused", "refusing an option-like URL");
 * } catch (error) {
 *   if (error instanceof KindError) console.log(error.kind); // "refused"
 * }
 * ```
 */
export class KindError<K extends string = string> extends Error {
  /** The failure class. */
  readonly kind: K;

  /** Builds an error of the given kind. */
  constructor(kind: K, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.kind = kind;
  }
}

/**
 * The text of anything thrown: an `Error`'s message, else its string form.
 *
 * @example
 * ```ts
 * import { errorText } from "./errors.ts";
 * console.log(errorText(new Error("boom")), errorText("plain")); // "boom plain"
 * ```
 */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
