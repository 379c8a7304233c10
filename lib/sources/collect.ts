/**
 * The Git sources in force for a project: configuration first, then the user
 * sources file, then the project sources file, resolved and de-duplicated.
 * A bad entry or file is a warning, never a failure.
 *
 * @example
 * ```ts
 * import { collectSources } from "./collect.ts";
 * const sources = await collectSources(config, "/repo", (level, message) => console.error(message));
 * ```
 * @module
 */
import type { ResolvedConfig, SourceEntry } from "../catalog/config.ts";
import { mergeSources, projectSourcesFile, readSourcesFile, userSourcesFile } from "./files.ts";
import { type ResolvedSource, resolveSource } from "./resolve.ts";

/** A diagnostic sink. */
export type SourceLog = (level: "info" | "warn", message: string) => void;

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function resolveAll(
  entries: readonly SourceEntry[],
  cacheDir: string,
  log: SourceLog,
): ResolvedSource[] {
  const resolved: ResolvedSource[] = [];
  for (const entry of entries) {
    try {
      resolved.push(resolveSource(entry, cacheDir));
    } catch (error) {
      log("warn", errorText(error));
    }
  }
  return resolved;
}

async function fromFile(path: string, cacheDir: string, log: SourceLog): Promise<ResolvedSource[]> {
  try {
    return resolveAll(await readSourcesFile(path), cacheDir, log);
  } catch (error) {
    log("warn", errorText(error));
    return [];
  }
}

/** Resolves every configured source for `projectRoot` (none for the project file when omitted). */
export async function collectSources(
  config: ResolvedConfig,
  projectRoot: string | undefined,
  log: SourceLog,
): Promise<ResolvedSource[]> {
  const lists = [resolveAll(config.sources, config.cacheDir, log)];
  if (config.sourcesFiles) {
    lists.push(await fromFile(userSourcesFile(config.dshHome), config.cacheDir, log));
    if (projectRoot !== undefined) {
      lists.push(await fromFile(projectSourcesFile(projectRoot), config.cacheDir, log));
    }
  }
  return mergeSources(...lists);
}
