/**
 * dsh-skills-anywhere as a library: the sum of the core's package faces. Each line below is one
 * package of `lib/` (docs/ARCHITECTURE.md draws them): one SKILL.md (`skill`), reviewing it
 * (`check`), the bundle format, the catalog, Git sources, the project lock and verify, SSH and
 * Sigstore signatures, loading a skill for a consumer, routing, the bounded file reader and safe
 * writer, and the shared text, limits, errors and version.
 *
 * @example
 * ```ts
 * import { loadCatalog, resolveConfig } from "./mod.ts";
 * const { report } = await loadCatalog(resolveConfig({ sharedDirs: true }), { cwd: "." });
 * ```
 * @module
 */
export * from "./lib/bundle/mod.ts";
export * from "./lib/catalog/mod.ts";
export * from "./lib/check/mod.ts";
export * from "./lib/errors.ts";
export * from "./lib/fs/mod.ts";
export * from "./lib/hash.ts";
export * from "./lib/limits.ts";
export * from "./lib/load/mod.ts";
export * from "./lib/lock/mod.ts";
export * from "./lib/route/mod.ts";
export * from "./lib/sign/mod.ts";
export * from "./lib/sigstore.ts";
export * from "./lib/skill/mod.ts";
export * from "./lib/sources/mod.ts";
export * from "./lib/text/mod.ts";
export * from "./lib/util.ts";
export * from "./lib/version.ts";
