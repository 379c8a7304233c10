/**
 * The resource check `skills-anywhere-resources-1`: does every local link of a
 * SKILL.md name a file or directory that exists inside the skill directory,
 * without passing through a symlink?
 *
 * @example
 * ```ts
 * import { checkResources } from "./resources.ts";
 * const report = await checkResources("/skills/demo/SKILL.md", "See [a](scripts/a.py).");
 * console.log(report.counts);
 * ```
 * @module
 */
import { dirname, join } from "node:path";
import { realpath } from "node:fs/promises";
import { lstatOrUndefined } from "../fs/mod.ts";
import { type ResourceReference, resourceReferences } from "./links.ts";

/** What a reference resolved to. */
export type ResourceStatus =
  | "present"
  | "missing"
  | "symlink"
  | "unavailable"
  | "outside"
  | "invalid";

/** One checked reference. */
export interface ResourceEntry {
  /** The link destination as written. */
  url: string;
  /** The 1-based file line of the link. */
  line: number;
  /** The destination as a path relative to the skill directory, when it is one. */
  path?: string;
  /** One sentence saying what is wrong, unless the resource is present. */
  problem?: string;
  /** What the check found. */
  status: ResourceStatus;
  /** What a present resource is. */
  kind?: "file" | "directory";
}

/** The `skills-anywhere-resources-1` report. */
export interface ResourcesReport {
  schema: "skills-anywhere-resources-1";
  /** How presence was checked: on disk, or against the files chosen in the browser. */
  method: "filesystem" | "selected-files";
  /** Every link to a local resource, in file order. */
  references: ResourceEntry[];
  /** References in all, present, and with an issue. */
  counts: { total: number; present: number; issues: number };
  /** What the check covers and what it does not ({@linkcode RESOURCES_SCOPE}). */
  scope: string;
}

/** What the resource check covers. */
export const RESOURCES_SCOPE =
  "Local Markdown links, images and used reference definitions only; URLs, code blocks, HTML and YAML are not followed, and file contents are not read.";

const PROBLEMS: Record<ResourceStatus, string | undefined> = {
  present: undefined,
  missing: "no such file or directory in the skill",
  symlink: "passes through a symbolic link",
  unavailable: "not a regular file or directory, or not readable",
  outside: "points outside the skill directory",
  invalid: "not a usable relative path",
};

async function resolveOnDisk(
  base: string,
  path: string,
): Promise<Pick<ResourceEntry, "status" | "kind">> {
  if (path === ".") return { status: "present", kind: "directory" };
  const segments = path.split("/");
  let current = base;
  for (let i = 0; i < segments.length; i++) {
    current = join(current, segments[i]);
    let info;
    try {
      info = await lstatOrUndefined(current);
    } catch {
      return { status: "unavailable" };
    }
    if (info === undefined) return { status: "missing" };
    if (info.isSymbolicLink()) return { status: "symlink" };
    const last = i === segments.length - 1;
    if (!last && !info.isDirectory()) return { status: "missing" };
    if (last) {
      if (info.isFile()) return { status: "present", kind: "file" };
      if (info.isDirectory()) return { status: "present", kind: "directory" };
      return { status: "unavailable" };
    }
  }
  return { status: "missing" };
}

/** Builds the report from references and a resolver (disk or a selected file list). */
export async function buildResourcesReport(
  references: ResourceReference[],
  method: ResourcesReport["method"],
  resolve: (path: string) => Promise<Pick<ResourceEntry, "status" | "kind">>,
): Promise<ResourcesReport> {
  const entries: ResourceEntry[] = [];
  for (const reference of references) {
    const resolved: Pick<ResourceEntry, "status" | "kind"> = reference.problem !== undefined
      ? { status: reference.problem }
      : await resolve(reference.path!);
    const problem = PROBLEMS[resolved.status];
    // Fields in report order: url, line, path?, problem?, status, kind?.
    entries.push({
      url: reference.url,
      line: reference.line,
      ...(reference.path !== undefined ? { path: reference.path } : {}),
      ...(problem !== undefined ? { problem } : {}),
      status: resolved.status,
      ...(resolved.kind !== undefined ? { kind: resolved.kind } : {}),
    });
  }
  const present = entries.filter((e) => e.status === "present").length;
  return {
    schema: "skills-anywhere-resources-1",
    method,
    references: entries,
    counts: { total: entries.length, present, issues: entries.length - present },
    scope: RESOURCES_SCOPE,
  };
}

/**
 * Checks the local references of the SKILL.md at `file` (whose text is `raw`)
 * against the real skill directory.
 */
export async function checkResources(file: string, raw: string): Promise<ResourcesReport> {
  const references = resourceReferences(raw);
  const base = await realpath(dirname(file));
  return buildResourcesReport(references, "filesystem", (path) => resolveOnDisk(base, path));
}
