/// <reference lib="dom" />
/**
 * The controller of section 2 of the page, "Check a SKILL.md": the chosen
 * file is read and hashed in the page, checked by the CLI's own core
 * ({@linkcode skillEntry}), shown by {@linkcode renderEntry}, and offered as a
 * JSON file entry identical in shape to one entry of `check --json`. A newer
 * selection cancels an older pending read; changing the folder name re-checks
 * the same bytes.
 *
 * @example
 * ```ts
 * import { setupCheck } from "./check.ts";
 * // Type-checked, not run by the doc test: it needs a browser page's document.
 * function example() {
 *   setupCheck();
 * }
 * ```
 * @module
 */
import { webSha256Hex } from "../../lib/bundle/portable.ts";
import { CHECK_INPUT_MESSAGES } from "../../lib/check/portable.ts";
import { MAX_SKILL_READ_BYTES } from "../../lib/limits.ts";
import { renderEntry } from "./check_view.ts";
import { byId, download, reveal, takeFile, UNREADABLE_MESSAGE } from "./dom.ts";
import {
  type FileEntry,
  type FileInputKind,
  inputError,
  skillEntry,
  type SkillSource,
} from "./skill_entry.ts";

/** A chosen file: its bytes and their digest, or why they were not read. */
type Chosen =
  | { fileName: string; bytes: Uint8Array; sha256: string }
  | { fileName: string; error: string; kind: FileInputKind };

/** Reads and hashes a chosen file; a file over the cap is refused without being read. */
async function readChosen(file: File): Promise<Chosen> {
  if (file.size > MAX_SKILL_READ_BYTES) {
    return { fileName: file.name, error: CHECK_INPUT_MESSAGES["too-large"], kind: "too-large" };
  }
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    return { fileName: file.name, bytes, sha256: await webSha256Hex(bytes) };
  } catch {
    return { fileName: file.name, error: UNREADABLE_MESSAGE, kind: "unreadable" };
  }
}

/** The `check --json` entry of a chosen file under the folder name `folder`. */
function entryOf(chosen: Chosen, folder: string): FileEntry {
  const source: SkillSource = { fileName: chosen.fileName, folder };
  return "error" in chosen
    ? inputError(source, chosen.error, chosen.kind)
    : skillEntry(chosen.bytes, chosen.sha256, source);
}

/** Section 2's state: the chosen file, the entry shown, and the latest request token. */
class CheckSection {
  readonly input = byId<HTMLInputElement>("skill-file");
  readonly folder = byId<HTMLInputElement>("skill-folder");
  readonly button = byId<HTMLButtonElement>("download-report");
  readonly #status = byId("check-status");
  readonly #result = byId("check-result");
  #token = 0;
  #chosen: Chosen | undefined;
  /** The entry shown, offered for download. */
  entry: FileEntry | undefined;

  /** Checks the chosen bytes under the current folder name and shows the entry. */
  show(): void {
    if (this.#chosen === undefined) return;
    this.entry = entryOf(this.#chosen, this.folder.value);
    this.#result.dataset.state = "ready";
    this.#status.textContent = `Checked ${reveal(this.#chosen.fileName)} in this page.`;
    this.#result.replaceChildren(...renderEntry(this.entry));
    this.button.disabled = false;
  }

  /** Reads a newly chosen file, then shows it unless a newer file was chosen meanwhile. */
  async select(file: File): Promise<void> {
    const mine = ++this.#token;
    this.#chosen = undefined;
    this.entry = undefined;
    this.button.disabled = true;
    this.#result.dataset.state = "loading";
    this.#result.replaceChildren();
    this.#status.textContent = `Reading ${reveal(file.name)}…`;
    const next = await readChosen(file);
    if (mine !== this.#token) return; // a newer file was chosen meanwhile
    this.#chosen = next;
    this.show();
  }
}

/**
 * Wires section 2.
 *
 * @example
 * ```ts
 * import { setupCheck } from "./check.ts";
 * // Type-checked, not run by the doc test: it needs a browser page's document.
 * function example() {
 *   setupCheck();
 * }
 * ```
 */
export function setupCheck(): void {
  const section = new CheckSection();
  section.input.addEventListener("change", () => {
    const file = takeFile(section.input);
    if (file !== undefined) void section.select(file);
  });
  section.folder.addEventListener("input", () => section.show());
  section.button.addEventListener("click", () => {
    const entry = section.entry;
    if (entry !== undefined) download("skill-check.json", JSON.stringify(entry, null, 2) + "\n");
  });
}
