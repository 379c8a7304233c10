/**
 * `check` over named files: read each one with the bounded reader, build its
 * parser report, apply the gates and assemble `skills-anywhere-file-check-1`.
 * The report has no timestamps, so identical inputs give identical bytes.
 *
 * @example
 * ```ts
 * import { checkFiles } from "./check_files.ts";
 * const report = await checkFiles(["skills/demo/SKILL.md"], { cwd: "/repo" });
 * console.log(report.exitCode);
 * ```
 * @module
 */
import { createHash } from "node:crypto";
import process from "node:process";
import { basename, dirname, extname, resolve } from "node:path";
import { decodeUtf8, readBounded, ReadError } from "../fs/mod.ts";
import { TOOL_NAME, VERSION } from "../version.ts";
import { checkSkill, type LocalCheckReport } from "./check.ts";
import { checkResources, type ResourcesReport } from "./resources.ts";

/** Largest SKILL.md accepted, in bytes (128 KiB). */
export const MAX_SKILL_BYTES = 131072;
/** Longest fallback (directory) name accepted. */
export const MAX_FALLBACK_LENGTH = 128;

/** Which parse gates a file. */
export type CheckProfile = "strict" | "lenient" | "spec";

/** Options of {@linkcode checkFiles}. */
export interface CheckFilesOptions {
  /** Directory that relative paths are resolved against (default: the process cwd). */
  cwd?: string;
  /** `strict` (default), `lenient`, or `spec` (strict plus no spec error). */
  profile?: CheckProfile;
  failOnRepair?: boolean;
  requirePinnedSources?: boolean;
  failOnHiddenCharacters?: boolean;
  /** Check local resource links (implied by `failOnResourceIssues`). */
  resources?: boolean;
  failOnResourceIssues?: boolean;
}

/** One file's entry in the report. */
export type FileEntry =
  | {
    path: string;
    status: "passed" | "failed";
    sha256: string;
    report: LocalCheckReport;
    resources?: ResourcesReport;
    unpinnedSources?: string[];
  }
  | { path: string; status: "input_error"; error: string };

/** The `skills-anywhere-file-check-1` report. */
export interface FileCheckReport {
  schema: "skills-anywhere-file-check-1";
  tool: { name: string; version: string };
  mode: "strict" | "lenient";
  profile: CheckProfile;
  failOnRepair: boolean;
  requirePinnedSources: boolean;
  failOnHiddenCharacters: boolean;
  files: FileEntry[];
  counts: { passed: number; failed: number; inputErrors: number };
  resources: boolean;
  failOnResourceIssues: boolean;
  exitCode: 0 | 1 | 2;
  scope: string;
}

/** The sentence every report ends with: what was and was not checked. */
export const CHECK_SCOPE =
  "Checked only the named files, offline: frontmatter parsing, specification rules, external sources, declared tools and hidden characters" +
  " (and local links with --resources). Nothing was executed, fetched, installed or discovered, and no verdict on intent is given.";

class InputError extends Error {}

function readErrorMessage(error: ReadError): string {
  switch (error.kind) {
    case "not-regular":
      return "Choose a regular Markdown file.";
    case "too-large":
      return "Choose a SKILL.md of 128 KiB or less.";
    case "not-utf8":
      return "Input is not valid UTF-8.";
    case "missing":
      return "No such file.";
    default:
      return `Cannot read the file (${error.code ?? error.message}).`;
  }
}

function fallbackFor(absolute: string): { fallbackName: string; directoryName?: string } {
  const base = basename(absolute);
  if (base === "SKILL.md") {
    const directoryName = basename(dirname(absolute));
    return { fallbackName: directoryName, directoryName };
  }
  return { fallbackName: base.slice(0, base.length - extname(base).length) };
}

async function checkOne(
  input: string,
  options: Required<Omit<CheckFilesOptions, "cwd">> & { cwd: string },
): Promise<FileEntry> {
  const absolute = resolve(options.cwd, input);
  try {
    let bytes: Uint8Array;
    try {
      ({ bytes } = await readBounded(absolute, {
        maxBytes: MAX_SKILL_BYTES,
        followSymlinks: true,
      }));
    } catch (error) {
      if (error instanceof ReadError) throw new InputError(readErrorMessage(error));
      throw error;
    }
    let text: string;
    try {
      text = decodeUtf8(bytes);
    } catch {
      throw new InputError("Input is not valid UTF-8.");
    }
    const names = fallbackFor(absolute);
    if (names.fallbackName.length > MAX_FALLBACK_LENGTH) {
      throw new InputError("Use a directory name of 128 characters or less.");
    }
    const report = checkSkill(text, names);
    let resources: ResourcesReport | undefined;
    if (options.resources) {
      try {
        resources = await checkResources(absolute, text);
      } catch (error) {
        throw new InputError(
          `Cannot check local resources: ${error instanceof Error ? error.message : error}.`,
        );
      }
    }
    const summary = options.profile === "lenient" ? report.lenient : report.strict;
    const unpinned = report.surface.externalSources.filter((s) => !s.pinned).map((s) => s.host);
    const passed = summary.ok &&
      (!options.failOnRepair || summary.warnings.length === 0) &&
      (!options.requirePinnedSources || unpinned.length === 0) &&
      (!options.failOnHiddenCharacters || report.surface.hiddenCharacters.length === 0) &&
      (!options.failOnResourceIssues || (resources?.counts.issues ?? 0) === 0) &&
      (options.profile !== "spec" || report.spec.ok);
    const entry: FileEntry = {
      path: input,
      status: passed ? "passed" : "failed",
      sha256: createHash("sha256").update(bytes).digest("hex"),
      report,
    };
    if (resources !== undefined) entry.resources = resources;
    if (options.requirePinnedSources && unpinned.length > 0) entry.unpinnedSources = unpinned;
    return entry;
  } catch (error) {
    if (error instanceof InputError) {
      return { path: input, status: "input_error", error: error.message };
    }
    throw error;
  }
}

/**
 * Checks every named file, in input order; one unreadable file never stops
 * the others. Exit code: 2 if any input error, else 1 if any file failed, else 0.
 */
export async function checkFiles(
  paths: string[],
  options: CheckFilesOptions = {},
): Promise<FileCheckReport> {
  const settings = {
    cwd: options.cwd ?? process.cwd(),
    profile: options.profile ?? "strict",
    failOnRepair: options.failOnRepair ?? false,
    requirePinnedSources: options.requirePinnedSources ?? false,
    failOnHiddenCharacters: options.failOnHiddenCharacters ?? false,
    failOnResourceIssues: options.failOnResourceIssues ?? false,
    resources: (options.resources ?? false) || (options.failOnResourceIssues ?? false),
  } as const;
  const files: FileEntry[] = [];
  for (const path of paths) files.push(await checkOne(path, settings));
  const count = (status: FileEntry["status"]) => files.filter((f) => f.status === status).length;
  const counts = {
    passed: count("passed"),
    failed: count("failed"),
    inputErrors: count("input_error"),
  };
  return {
    schema: "skills-anywhere-file-check-1",
    tool: { name: TOOL_NAME, version: VERSION },
    mode: settings.profile === "lenient" ? "lenient" : "strict",
    profile: settings.profile,
    failOnRepair: settings.failOnRepair,
    requirePinnedSources: settings.requirePinnedSources,
    failOnHiddenCharacters: settings.failOnHiddenCharacters,
    files,
    counts,
    resources: settings.resources,
    failOnResourceIssues: settings.failOnResourceIssues,
    exitCode: counts.inputErrors > 0 ? 2 : counts.failed > 0 ? 1 : 0,
    scope: CHECK_SCOPE,
  };
}
