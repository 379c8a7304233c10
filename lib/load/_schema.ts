/**
 * The output shapes of a load, each defined once as a JSON Schema object
 * (`as const`) from which its TypeScript type is derived with
 * {@linkcode FromSchema}. The code that builds a value is typed by the
 * derived type, and a surface that must describe its output (MCP's
 * `outputSchema`) hands over the same object, so the shape is never restated.
 *
 * Only the JSON Schema a load needs is understood: `type` `string`, `number`,
 * `boolean`, `array` (with `items`) and `object` (with `properties` and
 * `required`); `const`; and `type: [T, "null"]` for a nullable value.
 *
 * @example
 * ```ts
 * import { type FromSchema, LOAD_RECEIPT_SCHEMA } from "./_schema.ts";
 * type Receipt = FromSchema<typeof LOAD_RECEIPT_SCHEMA>;
 * const permissions: Receipt["permissions_enforced"] = false;
 * console.log(permissions);
 * ```
 * @module
 */
import type { BundleManifest } from "../bundle/mod.ts";

type Primitive = { string: string; number: number; integer: number; boolean: boolean };

type Flatten<T> = { [K in keyof T]: T[K] } & unknown;

type FromObject<P, R extends PropertyKey> = Flatten<
  & { -readonly [K in keyof P & R]: FromSchema<P[K]> }
  & { -readonly [K in Exclude<keyof P, R>]?: FromSchema<P[K]> }
>;

/** The TypeScript type of a value that a JSON Schema (written `as const`) accepts. */
export type FromSchema<S> = S extends { const: infer C } ? C
  : S extends { type: readonly [infer T, "null"] }
    ? FromSchema<Omit<S, "type"> & { type: T }> | null
  : S extends { type: "array"; items: infer I } ? FromSchema<I>[]
  : S extends
    { type: "object"; properties: infer P; required: readonly (infer R extends PropertyKey)[] }
    ? FromObject<P, R>
  : S extends { type: "object"; properties: infer P } ? FromObject<P, never>
  : S extends { type: infer T extends keyof Primitive } ? Primitive[T]
  : never;

const STRING = { type: "string" } as const;
const NUMBER = { type: "number" } as const;
const STRINGS = { type: "array", items: STRING } as const;

/** The `skills-anywhere-bundle-1` manifest as JSON Schema (the type is `lib/bundle`'s). */
const BUNDLE_MANIFEST_SCHEMA = {
  type: "object",
  properties: {
    schema: { const: "skills-anywhere-bundle-1" },
    sha256: STRING,
    total_bytes: NUMBER,
    files: {
      type: "array",
      items: {
        type: "object",
        properties: { path: STRING, bytes: NUMBER, sha256: STRING },
        required: ["path", "bytes", "sha256"],
      },
    },
  },
  required: ["schema", "sha256", "total_bytes", "files"],
} as const;

// The schema above describes exactly `BundleManifest`: this fails to compile when they drift.
type Same<A, B> = [A] extends [B] ? [B] extends [A] ? true : false : false;
const bundleSchemaMatches: Same<FromSchema<typeof BUNDLE_MANIFEST_SCHEMA>, BundleManifest> = true;
void bundleSchemaMatches;

/**
 * The `skills-anywhere-load-1` receipt: what was loaded, never the text
 * itself. `source_commit` is present when the load looked the commit up;
 * `lock_sha256` (the SHA-256 of the lock file's bytes) and `lock` (which lock:
 * `project`, or `user` for a personal skill the user lock covers) when the load
 * was enforced by a lock; `signer` (the allowed signer's principal and key
 * fingerprint) when that lock required a signature and it held.
 */
export const LOAD_RECEIPT_SCHEMA = {
  type: "object",
  properties: {
    schema: { const: "skills-anywhere-load-1" },
    load_id: STRING,
    loaded_at: STRING,
    provider: STRING,
    provider_version: STRING,
    name: STRING,
    skill_sha256: STRING,
    content_sha256: STRING,
    bundle_sha256: { type: ["string", "null"] },
    declared_tools: { type: ["array", "null"], items: STRING },
    permissions_enforced: { const: false },
    source_commit: { type: ["string", "null"] },
    lock: { type: "string", enum: ["project", "user"] },
    lock_sha256: STRING,
    signer: {
      type: "object",
      properties: { principal: STRING, fingerprint: STRING },
      required: ["principal", "fingerprint"],
    },
  },
  required: [
    "schema",
    "load_id",
    "loaded_at",
    "provider",
    "provider_version",
    "name",
    "skill_sha256",
    "content_sha256",
    "bundle_sha256",
    "declared_tools",
    "permissions_enforced",
  ],
} as const;

/** The facts of a loaded skill, everything but its rendered text. */
export const LOADED_SKILL_SCHEMA = {
  type: "object",
  properties: {
    name: STRING,
    description: STRING,
    directory: STRING,
    path: STRING,
    source: STRING,
    /** The instructions (body without frontmatter). */
    content: STRING,
    /** SHA-256 of SKILL.md's original bytes (frontmatter and BOM included). */
    sha256: STRING,
    declared_tools: STRINGS,
    bundle: BUNDLE_MANIFEST_SCHEMA,
    receipt: LOAD_RECEIPT_SCHEMA,
  },
  required: ["name", "description", "directory", "path", "source", "content", "sha256", "receipt"],
} as const;
