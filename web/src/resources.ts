/// <reference lib="dom" />
/**
 * The controller of section 4 of the page, "Check a skill's links": a folder
 * chosen with the folder picker. Only each `SKILL.md` is read, and the other
 * files' names (at most {@linkcode MAX_SELECTED_FILES}); the links and paths
 * of each `SKILL.md` are checked against those names by the same rules as
 * `check --resources` ({@linkcode checkResourceNames}). A browser shows
 * neither symbolic links nor empty folders, so neither can be reported here.
 *
 * @example
 * ```ts
 * import { setupResources } from "./resources.ts";
 * // Type-checked, not run by the doc test: it needs a browser page's document.
 * function example() {
 *   setupResources();
 * }
 * ```
 * @module
 */
import { KindError } from "../../lib/errors.ts";
import { MAX_SKILL_READ_BYTES } from "../../lib/limits.ts";
import {
  checkResourceNames,
  MAX_SELECTED_FILES,
  type ResourcesReport,
} from "../../lib/check/portable.ts";
import { byId, download, el, plural, reveal, UNREADABLE_MESSAGE } from "./dom.ts";

/** One checked SKILL.md of the folder: its report, or why it was not checked. */
export type ResourceFileResult =
  | { path: string; resources: ResourcesReport }
  | { path: string; error: string };

/** The words for a SKILL.md that could not be checked. */
const FILE_ERRORS = {
  tooLarge: "SKILL.md exceeds 1 MiB",
  notUtf8: "Input is not valid UTF-8",
  tooManyLinks: "Too many local links to check",
} as const;

/** The path of a chosen file below the chosen folder's parent (`folder/sub/SKILL.md`). */
function pathOf(file: File): string {
  return file.webkitRelativePath === "" ? file.name : file.webkitRelativePath;
}

/** Checks one SKILL.md against the names below its directory. */
async function checkOne(file: File, path: string, paths: string[]): Promise<ResourceFileResult> {
  if (file.size > MAX_SKILL_READ_BYTES) return { path, error: FILE_ERRORS.tooLarge };
  let raw: string;
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    try {
      raw = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      return { path, error: FILE_ERRORS.notUtf8 };
    }
  } catch {
    return { path, error: UNREADABLE_MESSAGE };
  }
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "";
  const names = paths.filter((p) => p.startsWith(dir)).map((p) => p.slice(dir.length));
  try {
    return { path, resources: await checkResourceNames(raw, names) };
  } catch (error) {
    if (error instanceof KindError && error.kind === "too-many-links") {
      return { path, error: FILE_ERRORS.tooManyLinks };
    }
    throw error;
  }
}

/**
 * Checks every `SKILL.md` among `files` (a chosen folder), in path order.
 *
 * @example
 * ```ts
 * import { checkFolder } from "./resources.ts";
 * async function example(files: File[]) {
 *   const results = await checkFolder(files);
 * }
 * ```
 */
export async function checkFolder(files: readonly File[]): Promise<ResourceFileResult[]> {
  const paths = files.map(pathOf);
  const skills = files.map((file, i) => ({ file, path: paths[i] }))
    .filter(({ path }) => path.split("/").pop() === "SKILL.md")
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const results: ResourceFileResult[] = [];
  for (const { file, path } of skills) results.push(await checkOne(file, path, paths));
  return results;
}

function entryLine(entry: ResourcesReport["references"][number]): string {
  const where = entry.onDisk !== undefined ? `; the folder has ${entry.onDisk}` : "";
  return `Resource ${entry.status}, line ${entry.line}: ${JSON.stringify(entry.url)} — ${
    entry.problem ?? ""
  }${where}`;
}

function resultElement(result: ResourceFileResult): HTMLLIElement {
  const item = el("li", { className: "resource-file" }, el("code", { text: reveal(result.path) }));
  if ("error" in result) {
    item.dataset.state = "error";
    item.append(el("p", { text: `Not checked: ${result.error}.` }));
    return item;
  }
  const { counts, references } = result.resources;
  item.dataset.state = counts.issues === 0 ? "ok" : "issues";
  item.append(el("p", { text: `Local resources: ${counts.present}/${counts.total} present` }));
  const issues = references.filter((r) => r.status !== "present");
  if (issues.length > 0) {
    item.append(el("ul", {}, ...issues.map((r) => el("li", { text: reveal(entryLine(r)) }))));
  }
  return item;
}

/**
 * Wires section 4: the folder picker, the results and their JSON download.
 *
 * @example
 * ```ts
 * import { setupResources } from "./resources.ts";
 * // Type-checked, not run by the doc test: it needs a browser page's document.
 * function example() {
 *   setupResources();
 * }
 * ```
 */
export function setupResources(): void {
  const input = byId<HTMLInputElement>("resource-folder");
  const status = byId("resource-status");
  const list = byId<HTMLUListElement>("resource-results");
  const button = byId<HTMLButtonElement>("download-resources");
  let results: ResourceFileResult[] = [];
  let token = 0;
  button.addEventListener(
    "click",
    () => download("resource-check.json", JSON.stringify({ files: results }, null, 2) + "\n"),
  );
  input.addEventListener("change", async () => {
    const files = Array.from(input.files ?? []);
    input.value = "";
    const mine = ++token;
    results = [];
    list.replaceChildren();
    button.disabled = true;
    status.dataset.state = "loading";
    if (files.length > MAX_SELECTED_FILES) {
      status.dataset.state = "error";
      status.textContent = `Refused: the folder has ${plural(files.length, "file")}, more than ` +
        `${
          MAX_SELECTED_FILES.toLocaleString("en-US")
        }; choose one skill's folder or a smaller one.`;
      return;
    }
    status.textContent = `Checking ${plural(files.length, "file")}…`;
    const checked = await checkFolder(files);
    if (mine !== token) return;
    results = checked;
    list.replaceChildren(...checked.map(resultElement));
    const issues = checked.reduce(
      (sum, r) => sum + ("error" in r ? 1 : r.resources.counts.issues),
      0,
    );
    status.dataset.state = checked.length === 0 ? "error" : "ready";
    status.textContent = checked.length === 0
      ? `No SKILL.md among the ${plural(files.length, "file")} chosen.`
      : `${plural(checked.length, "SKILL.md")} checked against ${plural(files.length, "file")}: ` +
        `${plural(issues, "issue")}.`;
    button.disabled = checked.length === 0;
  });
}
