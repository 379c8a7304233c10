/**
 * The resource check `skills-anywhere-resources-1`: does every local link of a
 * SKILL.md, and every relative path its text names, name a file or directory
 * that exists inside the skill directory, spelt with the same letter case,
 * without passing through a symlink? Names are compared case-sensitively on
 * every file system, so a reference that works only on a case-insensitive one
 * (`REFERENCE.md` for `reference.md`) is reported as `wrong-case`.
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
import { readdir, realpath } from "node:fs/promises";
import { lstatOrUndefined } from "../fs/mod.ts";
import { type ReferenceSource, type ResourceReference, resourceReferences } from "./links.ts";

/** What a reference resolved to. */
export type ResourceStatus =
  | "present"
  | "missing"
  | "wrong-case"
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
  /** A Markdown link, or a path named in the text. */
  source: ReferenceSource;
  /** The destination as a path relative to the skill directory, when it is one. */
  path?: string;
  /** For `wrong-case`: the path as it is spelt on disk. */
  onDisk?: string;
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
  "Local Markdown links, images and used reference definitions, and relative paths named in the text (under scripts/, references/, reference/, assets/, examples/, templates/, resources/ or agents/, or a bare .md file name in prose), compared case-sensitively; URLs, code blocks, HTML and YAML are not followed, and file contents are not read.";

const PROBLEMS: Record<ResourceStatus, string | undefined> = {
  present: undefined,
  missing: "no such file or directory in the skill",
  "wrong-case":
    "differs in letter case from the name on disk, so it breaks on case-sensitive file systems",
  symlink: "passes through a symbolic link",
  unavailable: "not a regular file or directory, or not readable",
  outside: "points outside the skill directory",
  invalid: "not a usable relative path",
};

/** What a reference resolved to, and for `wrong-case` the spelling on disk. */
export type Resolved = Pick<ResourceEntry, "status" | "kind" | "onDisk">;

/** Lists directories once per report: exact names are compared against these. */
type Listings = Map<string, Promise<string[]>>;

function listing(listings: Listings, dir: string): Promise<string[]> {
  let names = listings.get(dir);
  if (names === undefined) listings.set(dir, names = readdir(dir));
  return names;
}

/**
 * Walks `path` segment by segment below `base`: each name must be listed in
 * its directory exactly as written (else `wrong-case` when it is listed in
 * another case, `missing` when not at all), and none may be a symlink.
 */
async function resolveOnDisk(base: string, path: string, listings: Listings): Promise<Resolved> {
  if (path === ".") return { status: "present", kind: "directory" };
  const segments = path.split("/");
  const spelt: string[] = [];
  let current = base;
  for (let i = 0; i < segments.length; i++) {
    let names: string[];
    try {
      names = await listing(listings, current);
    } catch {
      return { status: "unavailable" };
    }
    if (!names.includes(segments[i])) {
      const other = names.find((n) => n.toLowerCase() === segments[i].toLowerCase());
      if (other === undefined) return { status: "missing" };
      return {
        status: "wrong-case",
        onDisk: [...spelt, other, ...segments.slice(i + 1)].join("/"),
      };
    }
    spelt.push(segments[i]);
    current = join(current, segments[i]);
    const resolved = await segmentStatus(current, i === segments.length - 1);
    if (resolved !== undefined) return resolved;
  }
  return { status: "missing" };
}

/** The outcome at one existing segment, or `undefined` to go on to the next. */
async function segmentStatus(current: string, last: boolean): Promise<Resolved | undefined> {
  let info;
  try {
    info = await lstatOrUndefined(current);
  } catch {
    return { status: "unavailable" };
  }
  if (info === undefined) return { status: "missing" };
  if (info.isSymbolicLink()) return { status: "symlink" };
  if (!last) return info.isDirectory() ? undefined : { status: "missing" };
  if (info.isFile()) return { status: "present", kind: "file" };
  if (info.isDirectory()) return { status: "present", kind: "directory" };
  return { status: "unavailable" };
}

/** Builds the report from references and a resolver (disk or a selected file list). */
export async function buildResourcesReport(
  references: ResourceReference[],
  method: ResourcesReport["method"],
  resolve: (path: string) => Promise<Resolved>,
): Promise<ResourcesReport> {
  const entries: ResourceEntry[] = [];
  for (const reference of references) {
    const resolved: Resolved = reference.problem !== undefined
      ? { status: reference.problem }
      : await resolve(reference.path!);
    const problem = PROBLEMS[resolved.status];
    // Fields in report order: url, line, source, path?, onDisk?, problem?, status, kind?.
    entries.push({
      url: reference.url,
      line: reference.line,
      source: reference.source,
      ...(reference.path !== undefined ? { path: reference.path } : {}),
      ...(resolved.onDisk !== undefined ? { onDisk: resolved.onDisk } : {}),
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
  const listings: Listings = new Map();
  return buildResourcesReport(
    references,
    "filesystem",
    (path) => resolveOnDisk(base, path, listings),
  );
}
