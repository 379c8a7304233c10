/**
 * One `check --json` file entry built in the browser: the core's
 * {@linkcode checkSkillBytes} (size cap, strict UTF-8, fallback name, report)
 * and {@linkcode checkPassed} with the CLI's default strict profile, plus the
 * SHA-256 of the bytes read (Web Crypto). The entry type is the CLI's own,
 * imported as a type only, so the two shapes cannot drift apart.
 *
 * A browser does not reveal the folder a file was chosen from. The CLI takes
 * the fallback name of a `SKILL.md` from its folder (and the specification
 * requires `name` to equal it), so the page asks for the folder name; left
 * empty, the file name without its extension is the fallback and the folder
 * rule is not applied.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { skillEntry } from "./skill_entry.ts";
 * import { webSha256Hex } from "../../lib/bundle/portable.ts";
 * const bytes = new TextEncoder().encode("---\nname: demo\ndescription: Demo.\n---\n");
 * const entry = skillEntry(bytes, await webSha256Hex(bytes), { fileName: "SKILL.md", folder: "demo" });
 * assert.equal(entry.status, "passed");
 * ```
 * @module
 */
import { checkPassed, checkSkillBytes } from "../../lib/check/portable.ts";
import type { FileEntry, FileInputKind } from "../../lib/check/portable.ts";

/** The file entry of one check, exactly as `check --json` types it. */
export type { FileEntry, FileInputKind };

/** Where the chosen file came from, as far as the page knows. */
export interface SkillSource {
  /** The chosen file's name (a browser gives no directory). */
  fileName: string;
  /** The folder name the reviewer typed; empty when unknown. */
  folder: string;
}

/**
 * The entry's `path`: `folder/file` when a folder name was given, else the
 * file name — what the CLI would print for the same file named that way.
 */
function entryPath(source: SkillSource): string {
  const folder = source.folder.trim();
  return folder === "" ? source.fileName : `${folder}/${source.fileName}`;
}

/**
 * An `input_error` entry.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { inputError } from "./skill_entry.ts";
 * assert.equal(inputError({ fileName: "big.md", folder: "" }, "No such file", "missing").status, "input_error");
 * ```
 */
export function inputError(source: SkillSource, error: string, kind: FileInputKind): FileEntry {
  return { path: entryPath(source), status: "input_error", error, kind };
}

/**
 * Checks the bytes of one file as `check` does and applies its default
 * strict gate: the file passes iff the strict parse succeeds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { skillEntry } from "./skill_entry.ts";
 * const entry = skillEntry(new Uint8Array([0xff]), "", { fileName: "SKILL.md", folder: "" });
 * assert.equal(entry.status, "input_error");
 * ```
 */
export function skillEntry(bytes: Uint8Array, sha256: string, source: SkillSource): FileEntry {
  const folder = source.folder.trim();
  const checked = checkSkillBytes(bytes, {
    fileName: source.fileName,
    folder: folder === "" ? undefined : folder,
  });
  if (!checked.ok) return inputError(source, checked.message, checked.kind);
  return {
    path: entryPath(source),
    status: checkPassed(checked.report) ? "passed" : "failed",
    sha256,
    report: checked.report,
  };
}
