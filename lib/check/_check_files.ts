/**
 * `check` over named files and skill directories (a directory stands for its
 * `SKILL.md`, whose fallback name is the directory's name): read each one with the bounded reader, check its
 * bytes with {@linkcode checkSkillBytes}, optionally its local links, apply
 * {@linkcode checkPassed} and assemble `skills-anywhere-file-check-1`. The
 * report has no timestamps, so identical inputs give identical bytes.
 *
 * @example
 * ```ts
 * import { checkFiles } from "./_check_files.ts";
 * const report = await checkFiles(["skills/demo/SKILL.md"], { cwd: "/repo" });
 * console.log(report.exitCode);
 * ```
 * @module
 */
import process from "node:process";
import { readdir, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { errorText, type Failure, failure } from "../errors.ts";
import { readBounded, ReadError, type ReadErrorKind } from "../fs/mod.ts";
import { sha256Hex } from "../hash.ts";
import { didYouMean, suggestion } from "../text.ts";
import { MAX_SKILL_READ_BYTES } from "../limits.ts";
import { TOOL_NAME, VERSION } from "../version.ts";
import {
  CHECK_INPUT_MESSAGES,
  type CheckGates,
  type CheckInputKind,
  checkPassed,
  type CheckProfile,
  checkSkillBytes,
  type LocalCheckReport,
  unpinnedHosts,
} from "./_check.ts";
import { checkResources, type ResourcesReport } from "./_resources.ts";

/** Options of {@linkcode checkFiles}. */
export interface CheckFilesOptions extends CheckGates {
  /**
   * Directory that relative paths are resolved against.
   *
   * @default the process cwd
   */
  cwd?: string;
  /** Check local resource links (implied by `failOnResourceIssues`). */
  resources?: boolean;
  /**
   * How the report's scope sentence says local links get checked (default
   * `"when resources are checked"`); a surface names its own switch.
   *
   * @default {"when resources are checked"}
   */
  resourcesHint?: string;
}

/**
 * Why a named file could not be checked: a read failure (`missing`,
 * `not-regular`, `too-large`, …), a refusal of its bytes (`not-utf8`,
 * `long-name`), or local links that could not be checked.
 */
export type FileInputKind = ReadErrorKind | CheckInputKind | "resources-unreadable";

/** One file's entry in the report. */
export type FileEntry =
  | {
    /** The named file, or `<directory>/SKILL.md` for a named skill directory. */
    path: string;
    status: "passed" | "failed";
    sha256: string;
    report: LocalCheckReport;
    resources?: ResourcesReport;
    unpinnedSources?: string[];
  }
  | {
    /** The named file, or `<directory>/SKILL.md` for a named skill directory. */
    path: string;
    status: "input_error";
    /** One sentence for people. */
    error: string;
    /** The failure class to switch on. */
    kind: FileInputKind;
  };

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

/**
 * The sentence every report ends with: what was and was not checked;
 * `resourcesHint` says how local links get checked.
 */
function checkScope(resourcesHint: string): string {
  return "Checked only the named files, offline: frontmatter parsing, specification rules, " +
    `external sources, declared tools and hidden characters (and local links ${resourcesHint}). ` +
    "Nothing was executed, fetched, installed or discovered, and no verdict on intent is given.";
}

type Settings = Required<Omit<CheckFilesOptions, "resourcesHint">>;

/** The report's sentence for a file that could not be read (the check report's own style). */
function readErrorMessage(error: ReadError): string {
  switch (error.kind) {
    case "not-regular":
      return "Choose a regular Markdown file";
    case "too-large":
      return CHECK_INPUT_MESSAGES["too-large"];
    case "missing":
      return "No such file";
    default:
      return `Cannot read the file (${error.code ?? error.message})`;
  }
}

async function readInput(absolute: string): Promise<Uint8Array | ReadError> {
  try {
    return (await readBounded(absolute, { maxBytes: MAX_SKILL_READ_BYTES, followSymlinks: true }))
      .bytes;
  } catch (error) {
    if (error instanceof ReadError) return error;
    throw error;
  }
}

async function resourcesOf(
  absolute: string,
  text: string,
): Promise<ResourcesReport | Failure<"resources-unreadable">> {
  try {
    return await checkResources(absolute, text);
  } catch (error) {
    return failure("resources-unreadable", `Cannot check local resources: ${errorText(error)}`);
  }
}

/** A named input resolved to the file it stands for. */
interface NamedFile {
  path: string;
  absolute: string;
  /** The input named a directory. */
  directory: boolean;
}

/**
 * The file a named input stands for: a directory stands for its `SKILL.md`
 * (reported as `<input>/SKILL.md`), anything else for itself.
 */
async function namedFile(cwd: string, input: string): Promise<NamedFile> {
  const absolute = resolve(cwd, input);
  const info = await stat(absolute).catch(() => undefined);
  if (info === undefined || !info.isDirectory()) return { path: input, absolute, directory: false };
  return { path: join(input, "SKILL.md"), absolute: join(absolute, "SKILL.md"), directory: true };
}

/** Whether `path` is a regular file (links followed). */
async function isFile(path: string): Promise<boolean> {
  return await stat(path).then((info) => info.isFile(), () => false);
}

/** A "did you mean" for a folder that holds skill folders but no SKILL.md, else `""`. */
async function skillsBelow(named: string, folder: string): Promise<string> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  let skills = 0;
  for (const entry of entries.slice(0, MAX_SUGGESTION_ENTRIES)) {
    if (entry.isDirectory() && await isFile(join(folder, entry.name, "SKILL.md"))) skills++;
  }
  if (skills === 0) return "";
  const base = named.replace(/[\\/]+$/, "");
  const holds = ` (it holds ${skills} skill folder${skills === 1 ? "" : "s"})`;
  return suggestion([`${base}/*/SKILL.md`], "sentence").trimStart() + holds;
}

/** `Did you mean <sibling>?` for the entry beside a missing path closest to its name, else `""`. */
async function closestSibling(named: string, absolute: string): Promise<string> {
  const trimmed = named.replace(/[\\/]+$/, "");
  const entries = await readdir(dirname(absolute)).catch(() => [] as string[]);
  const cut = Math.max(trimmed.lastIndexOf("/"), trimmed.lastIndexOf("\\"));
  return didYouMean(basename(absolute), entries.slice(0, MAX_SUGGESTION_ENTRIES), {
    max: 1,
    form: "sentence",
    show: (sibling) => `${trimmed.slice(0, cut + 1)}${sibling}`,
  }).trimStart();
}

/** Most folder entries a suggestion looks at (a huge folder costs a bounded listing). */
const MAX_SUGGESTION_ENTRIES = 1000;

/** Checks one named file or skill directory; an unreadable or uncheckable one is an `input_error` entry. */
async function checkOne(named: string, settings: Settings): Promise<FileEntry> {
  const { path: input, absolute, directory } = await namedFile(settings.cwd, named);
  const inputError = (kind: FileInputKind, error: string): FileEntry => ({
    path: input,
    status: "input_error",
    error,
    kind,
  });
  if (!directory && /[\\/]$/.test(named) && await isFile(absolute)) {
    return inputError("not-regular", "Not a directory: drop the trailing slash to check the file");
  }
  const bytes = await readInput(absolute);
  if (bytes instanceof ReadError) {
    const noSkill = directory && bytes.kind === "missing";
    const hint = bytes.kind !== "missing"
      ? ""
      : noSkill
      ? await skillsBelow(named, dirname(absolute))
      : await closestSibling(named, absolute);
    return inputError(
      bytes.kind,
      // A hint is a sentence of its own after the message (the message ends in no period).
      (noSkill ? "No SKILL.md in the directory" : readErrorMessage(bytes)) +
        (hint === "" ? "" : `. ${hint}`),
    );
  }
  const source = { fileName: basename(absolute), folder: basename(dirname(absolute)) };
  const checked = checkSkillBytes(bytes, source, { profile: settings.profile });
  if (!checked.ok) return inputError(checked.kind, checked.message);
  const { report } = checked;
  const resources = settings.resources ? await resourcesOf(absolute, checked.text) : undefined;
  if (resources !== undefined && "ok" in resources) {
    return inputError(resources.kind, resources.message);
  }
  const passed = checkPassed(report, settings, resources?.counts.issues ?? 0);
  const entry: FileEntry = {
    path: input,
    status: passed ? "passed" : "failed",
    sha256: sha256Hex(bytes),
    report,
  };
  if (resources !== undefined) entry.resources = resources;
  const unpinned = unpinnedHosts(report);
  if (settings.requirePinnedSources && unpinned.length > 0) entry.unpinnedSources = unpinned;
  return entry;
}

function settingsOf(options: CheckFilesOptions): Settings {
  const failOnResourceIssues = options.failOnResourceIssues ?? false;
  return {
    cwd: options.cwd ?? process.cwd(),
    profile: options.profile ?? "strict",
    failOnRepair: options.failOnRepair ?? false,
    requirePinnedSources: options.requirePinnedSources ?? false,
    failOnHiddenCharacters: options.failOnHiddenCharacters ?? false,
    failOnResourceIssues,
    resources: (options.resources ?? false) || failOnResourceIssues,
  };
}

/**
 * Checks every named file or skill directory, in input order; one unreadable file never stops
 * the others. Exit code: 2 if any input error, else 1 if any file failed, else 0.
 *
 * @example
 * ```ts
 * import { checkFiles } from "./_check_files.ts";
 * const report = await checkFiles(["SKILL.md"], { profile: "spec" });
 * console.log(report.counts);
 * ```
 */
export async function checkFiles(
  paths: string[],
  options: CheckFilesOptions = {},
): Promise<FileCheckReport> {
  const settings = settingsOf(options);
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
    scope: checkScope(options.resourcesHint ?? "when resources are checked"),
  };
}
