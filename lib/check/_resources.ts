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
 * import { checkResources } from "./_resources.ts";
 * // Type-checked, not run by the doc test: it reads the skill folder /skills/demo.
 * async function example() {
 *   const report = await checkResources("/skills/demo/SKILL.md", "See [a](scripts/a.py).");
 *   console.log(report.counts);
 * }
 * ```
 * @module
 */
import { dirname, join } from "node:path";
import { readdir, realpath } from "node:fs/promises";
import { lstatOrUndefined } from "../fs/mod.ts";
import { resourceReferences } from "./_links.ts";
import { buildResourcesReport, type Resolved, type ResourcesReport } from "./_resource_report.ts";

export {
  buildResourcesReport,
  checkResourceNames,
  MAX_SELECTED_FILES,
  type Resolved,
  resolveInNames,
  type ResourceEntry,
  RESOURCES_SCOPE,
  type ResourcesReport,
  type ResourceStatus,
} from "./_resource_report.ts";

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
