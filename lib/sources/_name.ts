/**
 * The one name a Git source is shown by (see {@linkcode sourceName}). Pure and
 * import-free, so the catalog's origin words and the browser page share it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sourceName } from "./_name.ts";
 * assert.equal(sourceName({ display: "o/r/skills", ref: "v1" }), "o/r/skills@v1");
 * ```
 * @module
 */

/**
 * The one name a source is shown by, in every command and report: its display
 * name (`owner/repo[/path]`, another server's `host/path`, a local
 * repository's absolute path), then `@<ref>` when it has a ref. Never the lock
 * key (`local/<12 hex>`, `github.com/o/r`) nor its cache folder: those are
 * where it is kept, not what it is.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sourceName } from "./_name.ts";
 * assert.equal(sourceName({ display: "/srv/skills" }), "/srv/skills");
 * ```
 */
export function sourceName(source: { display: string; ref?: string }): string {
  return source.ref === undefined ? source.display : `${source.display}@${source.ref}`;
}
