/**
 * The pure half of the resource check `skills-anywhere-resources-1` (see
 * `./resources.ts` for the rules): the report's shape and words, the report
 * built from the references and any resolver, and the resolver over a list
 * of file names, which the browser page uses on the files of a chosen folder.
 * No `node:` import: the same module runs in the page.
 *
 * Against a list of names, a path is `present` when it names a listed file
 * (`kind: "file"`) or a folder some listed file is in (`"directory"`), each
 * segment spelt exactly; `wrong-case` when a segment is listed only in another
 * letter case (with the spelling listed); else `missing` (a file named as a
 * folder too). A list of names cannot show symbolic links or empty folders.
 *
 * @example
 * ```ts
 * import { checkResourceNames } from "./_resource_report.ts";
 * const report = await checkResourceNames("See [the form](Forms/a.md).", ["SKILL.md", "forms/a.md"]);
 * console.log(report.references[0].status, report.references[0].onDisk); // wrong-case forms/a.md
 * ```
 * @module
 */
import { type ReferenceSource, type ResourceReference, resourceReferences } from "./_links.ts";

/** The most file names a list-based check accepts (a folder chosen in the browser). */
export const MAX_SELECTED_FILES = 10_000;

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

/** The names listed below each folder of a file list (`""` is the top), as a tree. */
interface NameTree {
  files: Set<string>;
  dirs: Map<string, NameTree>;
}

function nameTree(files: Iterable<string>): NameTree {
  const top: NameTree = { files: new Set(), dirs: new Map() };
  for (const file of files) {
    const segments = file.split("/");
    let at = top;
    for (const segment of segments.slice(0, -1)) {
      let next = at.dirs.get(segment);
      if (next === undefined) at.dirs.set(segment, next = { files: new Set(), dirs: new Map() });
      at = next;
    }
    at.files.add(segments[segments.length - 1]);
  }
  return top;
}

function resolveInTree(tree: NameTree, path: string): Resolved {
  if (path === ".") return { status: "present", kind: "directory" };
  const segments = path.split("/");
  const spelt: string[] = [];
  let at = tree;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i];
    const last = i === segments.length - 1;
    const dir = at.dirs.get(segment);
    if (dir !== undefined) {
      if (last) return { status: "present", kind: "directory" };
      spelt.push(segment);
      at = dir;
      continue;
    }
    if (at.files.has(segment)) {
      return last ? { status: "present", kind: "file" } : { status: "missing" };
    }
    const names = [...at.dirs.keys(), ...at.files].sort();
    const other = names.find((n) => n.toLowerCase() === segment.toLowerCase());
    if (other === undefined) return { status: "missing" };
    return { status: "wrong-case", onDisk: [...spelt, other, ...segments.slice(i + 1)].join("/") };
  }
  return { status: "missing" };
}

/**
 * A resolver over `files` (paths relative to the skill directory, `/`-separated).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveInNames } from "./_resource_report.ts";
 * assert.deepEqual(resolveInNames(["scripts/a.py"])("Scripts"), { status: "wrong-case", onDisk: "scripts" });
 * ```
 */
export function resolveInNames(files: Iterable<string>): (path: string) => Resolved {
  const tree = nameTree(files);
  return (path) => resolveInTree(tree, path);
}

/**
 * The report of the SKILL.md text `raw` against `files`, the names below its
 * directory (method `selected-files`). Throws the references' `too-many-links`
 * error, as the check on disk does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkResourceNames } from "./_resource_report.ts";
 * assert.deepEqual((await checkResourceNames("[a](a.md)", ["SKILL.md"])).counts, { total: 1, present: 0, issues: 1 });
 * ```
 */
export function checkResourceNames(raw: string, files: Iterable<string>): Promise<ResourcesReport> {
  const resolve = resolveInNames(files);
  return buildResourcesReport(
    resourceReferences(raw),
    "selected-files",
    (path) => Promise.resolve(resolve(path)),
  );
}
