/**
 * The one version string and tool name that every surface reports.
 *
 * @example
 * ```ts
 * import { TOOL_NAME, VERSION } from "./version.ts";
 * console.log(`${TOOL_NAME} ${VERSION}`);
 * ```
 * @module
 */

/** The published version of dsh-skills-anywhere. */
export const VERSION = "0.9.0";

/** The tool name used in reports, server info and receipts. */
export const TOOL_NAME = "dsh-skills-anywhere";
