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
 * setupCheck();
 * ```
 * @module
 */
import { webSha256Hex } from "../../lib/bundle/manifest.ts";
import { CHECK_INPUT_MESSAGES } from "../../lib/skill/check.ts";
import { MAX_SKILL_FILE_BYTES } from "../../lib/limits.ts";
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
  if (file.size > MAX_SKILL_FILE_BYTES) {
    return { fileName: file.name, error: CHECK_INPUT_MESSAGES["too-large"], kind: "too-large" };
  }
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    return { fileName: file.name, bytes, sha256: await webSha256Hex(bytes) };
  } catch {
    return { fileName: file.name, error: UNREADABLE_MESSAGE, kind: "unreadable" };
  }
}

function entryOf(chosen: Chosen, folder: string): FileEntry {
  const source: SkillSource = { fileName: chosen.fileName, folder };
  return "error" in chosen
    ? inputError(source, chosen.error, chosen.kind)
    : skillEntry(chosen.bytes, chosen.sha256, source);
}

/**
 * Wires section 2.
 *
 * @example
 * ```ts
 * import { setupCheck } from "./check.ts";
 * setupCheck();
 * ```
 */
export function setupCheck(): void {
  const input = byId<HTMLInputElement>("skill-file");
  const folder = byId<HTMLInputElement>("skill-folder");
  const status = byId("check-status");
  const result = byId("check-result");
  const button = byId<HTMLButtonElement>("download-report");
  let token = 0;
  let chosen: Chosen | undefined;
  let entry: FileEntry | undefined;

  function show(): void {
    if (chosen === undefined) return;
    entry = entryOf(chosen, folder.value);
    result.dataset.state = "ready";
    status.textContent = `Checked ${reveal(chosen.fileName)} in this page.`;
    result.replaceChildren(...renderEntry(entry));
    button.disabled = false;
  }

  async function select(file: File): Promise<void> {
    const mine = ++token;
    chosen = undefined;
    entry = undefined;
    button.disabled = true;
    result.dataset.state = "loading";
    result.replaceChildren();
    status.textContent = `Reading ${reveal(file.name)}…`;
    const next = await readChosen(file);
    if (mine !== token) return; // a newer file was chosen meanwhile
    chosen = next;
    show();
  }

  input.addEventListener("change", () => {
    const file = takeFile(input);
    if (file !== undefined) void select(file);
  });
  folder.addEventListener("input", show);
  button.addEventListener("click", () => {
    if (entry !== undefined) download("skill-check.json", JSON.stringify(entry, null, 2) + "\n");
  });
}
