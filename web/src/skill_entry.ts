/**
 * One `check --json` file entry built in the browser: the shared
 * {@linkcode checkSkill} report, the SHA-256 of the bytes read (Web Crypto),
 * and the pass rule of the CLI's default strict profile. The entry type is the
 * CLI's own, imported as a type only, so the two shapes cannot drift apart.
 *
 * A browser does not reveal the folder a file was chosen from. The CLI takes
 * the fallback name of a `SKILL.md` from its folder (and the specification
 * requires `name` to equal it), so the page asks for the folder name; left
 * empty, the file name without its extension is the fallback and the folder
 * rule is not applied.
 *
 * @example
 * ```ts
 * import { sha256Bytes, skillEntry } from "./skill_entry.ts";
 * const bytes = new TextEncoder().encode("---\nname: demo\ndescription: Demo.\n---\n");
 * const entry = skillEntry(bytes, await sha256Bytes(bytes), { fileName: "SKILL.md", folder: "demo" });
 * console.log(entry.status); // "passed"
 * ```
 * @module
 */
import { BUNDLE_LIMITS } from "../../lib/bundle/manifest.ts";
import { checkSkill, type CheckSkillOptions } from "../../lib/skill/check.ts";
import type { FileEntry } from "../../lib/skill/check_files.ts";

/** The file entry of one check, exactly as `check --json` types it. */
export type { FileEntry };

/** Input errors, worded as the CLI words them. */
export const CHECK_MESSAGES = {
  tooLarge: "Choose a SKILL.md of 128 KiB or less.",
  notUtf8: "Input is not valid UTF-8.",
  longFolder: "Use a directory name of 128 characters or less.",
  unreadable: "The browser could not read this file; choose it again.",
} as const;

/** Largest SKILL.md checked: the 128 KiB cap `check` and `bundle` share. */
export const MAX_SKILL_BYTES: number = BUNDLE_LIMITS.maxSkillBytes;
const MAX_FALLBACK_LENGTH = 128;
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

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
 *
 * @example
 * ```ts
 * entryPath({ fileName: "SKILL.md", folder: "pdf" }); // "pdf/SKILL.md"
 * ```
 */
export function entryPath(source: SkillSource): string {
  const folder = source.folder.trim();
  return folder === "" ? source.fileName : `${folder}/${source.fileName}`;
}

/**
 * The names `checkSkill` needs, chosen by the CLI's rule: the folder for a
 * `SKILL.md`, else the file name without its extension.
 *
 * @example
 * ```ts
 * fallbackNames({ fileName: "notes.md", folder: "" }); // { fallbackName: "notes" }
 * ```
 */
export function fallbackNames(source: SkillSource): CheckSkillOptions {
  const folder = source.folder.trim();
  if (source.fileName === "SKILL.md" && folder !== "") {
    return { fallbackName: folder, directoryName: folder };
  }
  const dot = source.fileName.lastIndexOf(".");
  return { fallbackName: dot > 0 ? source.fileName.slice(0, dot) : source.fileName };
}

/**
 * An `input_error` entry.
 *
 * @example
 * ```ts
 * inputError({ fileName: "big.md", folder: "" }, CHECK_MESSAGES.tooLarge).status; // "input_error"
 * ```
 */
export function inputError(source: SkillSource, error: string): FileEntry {
  return { path: entryPath(source), status: "input_error", error };
}

/**
 * Lowercase hex SHA-256 of `bytes`, with Web Crypto.
 *
 * @example
 * ```ts
 * await sha256Bytes(new Uint8Array()); // "e3b0c442…b855"
 * ```
 */
export async function sha256Bytes(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Checks the bytes of one file in the order the CLI does (size, UTF-8, name
 * length, report) and applies the default strict gate: the file passes iff
 * the strict parse succeeds.
 *
 * @example
 * ```ts
 * skillEntry(bytes, sha, { fileName: "SKILL.md", folder: "" }).status; // "passed" | "failed" | "input_error"
 * ```
 */
export function skillEntry(bytes: Uint8Array, sha256: string, source: SkillSource): FileEntry {
  if (bytes.length > MAX_SKILL_BYTES) return inputError(source, CHECK_MESSAGES.tooLarge);
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    return inputError(source, CHECK_MESSAGES.notUtf8);
  }
  const names = fallbackNames(source);
  if (names.fallbackName.length > MAX_FALLBACK_LENGTH) {
    return inputError(source, CHECK_MESSAGES.longFolder);
  }
  const report = checkSkill(text, names);
  return {
    path: entryPath(source),
    status: report.strict.ok ? "passed" : "failed",
    sha256,
    report,
  };
}
