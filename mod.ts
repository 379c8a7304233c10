/**
 * dsh-skills-anywhere as a library: the sum of the core's package faces, one line each
 * (docs/ARCHITECTURE.md draws them): one SKILL.md (`skill`), reviewing it (`check`), the bundle
 * format, the catalog, Git sources, the project lock and verify, serving under it (`locked`),
 * the lock's signatures (`signers`), SSH signatures (`sign`), loading a skill for a consumer,
 * routing, the bounded file reader and safe writer, and the shared text, limits, errors and
 * version. Sigstore bundle verification (`lib/sigstore.ts`) loads its own libraries, so it is
 * left out: import it on its own (JSR `./sigstore`) when you need it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadCatalog, resolveConfig } from "./mod.ts";
 * const { report } = await loadCatalog(resolveConfig({ sharedDirs: true }), { cwd: "." });
 * assert.ok(Array.isArray(report.skills));
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
export * from "./lib/locked.ts";
export * from "./lib/route/mod.ts";
export * from "./lib/sign/mod.ts";
export * from "./lib/signers.ts";
export * from "./lib/skill/mod.ts";
export * from "./lib/sources/mod.ts";
export * from "./lib/text.ts";
export * from "./lib/util.ts";
export * from "./lib/version.ts";
