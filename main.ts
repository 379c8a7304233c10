#!/usr/bin/env -S deno run -A
/**
 * The `dsh-skills-anywhere` command line. Exports {@linkcode main} and runs
 * itself when executed directly.
 *
 * @example
 * ```ts
 * import { main } from "./main.ts";
 * const code = await main(["check", "skills/demo/SKILL.md"]);
 * ```
 * @module
 */
import process from "node:process";
import { main } from "./cli/mod.ts";

export { main };

if (import.meta.main) {
  process.exitCode = await main(process.argv.slice(2));
}
