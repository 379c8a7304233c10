/// <reference lib="dom" />
/**
 * Section 1 of the page, "Compare manifests": a reviewed and a current
 * `skills-anywhere-bundle-1` manifest, each read, digest-checked and shown on
 * its own side, then compared with the shared {@linkcode compareManifests}.
 *
 * Each side owns a request token. A selection takes a new token and marks the
 * side loading; when its read and hash finish, the result is applied only if
 * the token is still the side's latest, so a newer selection cancels an older
 * pending one and the two sides never wait on each other (the example pair
 * hashing on one side cannot leave the other side loading).
 *
 * @example
 * ```ts
 * import { setupCompare } from "./compare.ts";
 * setupCompare({ name: "review-helper", reviewed: reviewedJson, current: currentJson });
 * ```
 * @module
 */
import { BundleError, type BundleManifest, compareManifests } from "../../lib/bundle/manifest.ts";
import { isSkillName } from "../../lib/skill/names.ts";
import { byId, download, el, plural, reveal, takeFile } from "./dom.ts";
import { INPUT_MESSAGES, manifestSizeAllowed, readManifest } from "./manifest_input.ts";

/** The example pair recorded at build time: the skill's name and both manifests' JSON text. */
export interface ExamplePair {
  name: string;
  reviewed: string;
  current: string;
}

/** What one side shows. */
export type SideState =
  | { kind: "empty" }
  | { kind: "loading"; label: string }
  | { kind: "ready"; label: string; manifest: BundleManifest }
  | { kind: "error"; label: string; message: string };

interface Side {
  key: "reviewed" | "current";
  title: string;
  token: number;
  state: SideState;
  box: HTMLElement;
  status: HTMLElement;
}

const encoder = new TextEncoder();

function errorMessage(error: unknown): string {
  if (error instanceof BundleError) return error.message;
  if (error instanceof DOMException) return INPUT_MESSAGES.unreadable;
  return `Unexpected error: ${error instanceof Error ? error.message : String(error)}`;
}

/**
 * Wires section 1 and shows the example pair.
 *
 * @example
 * ```ts
 * setupCompare(examplePair);
 * ```
 */
export function setupCompare(example: ExamplePair): void {
  const sides: Record<Side["key"], Side> = {
    reviewed: makeSide("reviewed", "reviewed"),
    current: makeSide("current", "current"),
  };
  const nameInput = byId<HTMLInputElement>("skill-name");

  function makeSide(key: Side["key"], title: string): Side {
    const side: Side = {
      key,
      title,
      token: 0,
      state: { kind: "empty" },
      box: byId(`${key}-side`),
      status: byId(`${key}-status`),
    };
    const input = byId<HTMLInputElement>(`${key}-file`);
    input.addEventListener("change", () => {
      const file = takeFile(input);
      if (file === undefined) return;
      void load(side, file.name, async () => {
        if (!manifestSizeAllowed(file.size)) throw new BundleError(INPUT_MESSAGES.tooLarge);
        return new Uint8Array(await file.arrayBuffer());
      });
    });
    return side;
  }

  async function load(side: Side, label: string, read: () => Promise<Uint8Array>): Promise<void> {
    const token = ++side.token;
    side.state = { kind: "loading", label };
    render();
    let next: SideState;
    try {
      next = { kind: "ready", label, manifest: await readManifest(await read()) };
    } catch (error) {
      next = { kind: "error", label, message: errorMessage(error) };
    }
    if (token !== side.token) return; // a newer selection owns this side now
    side.state = next;
    render();
  }

  function showExample(): void {
    nameInput.value = example.name;
    void load(
      sides.reviewed,
      "example reviewed.bundle.json",
      () => Promise.resolve(encoder.encode(example.reviewed)),
    );
    void load(
      sides.current,
      "example current.bundle.json",
      () => Promise.resolve(encoder.encode(example.current)),
    );
  }

  function renderSide(side: Side): void {
    const { state, status } = side;
    side.box.dataset.state = state.kind;
    switch (state.kind) {
      case "empty":
        status.replaceChildren(`No ${side.title} manifest chosen.`);
        break;
      case "loading":
        status.replaceChildren(`Reading and hashing ${reveal(state.label)}…`);
        break;
      case "ready": {
        const { manifest } = state;
        status.replaceChildren(
          el("strong", { text: reveal(state.label) }),
          `: ${plural(manifest.files.length, "file")}, ${plural(manifest.total_bytes, "byte")}, ` +
            "digest recomputed and verified.",
          el("br"),
          "SHA-256 ",
          el("code", { className: "digest", text: manifest.sha256 }),
        );
        break;
      }
      case "error":
        status.replaceChildren(
          el("strong", { text: `Refused ${reveal(state.label)}` }),
          `: ${state.message}`,
        );
        break;
    }
  }

  function render(): void {
    renderSide(sides.reviewed);
    renderSide(sides.current);
    const verdict = byId("verdict");
    const note = byId("verdict-note");
    const details = byId("details");
    const reviewed = sides.reviewed.state;
    const current = sides.current.state;
    if (reviewed.kind !== "ready" || current.kind !== "ready") {
      verdict.textContent = "";
      verdict.hidden = true;
      verdict.className = "verdict";
      details.hidden = true;
      note.textContent = pendingNote(reviewed, current);
      return;
    }
    const comparison = compareManifests(reviewed.manifest, current.manifest);
    verdict.hidden = false;
    verdict.textContent = comparison.matches ? "MATCH" : "REVIEW REQUIRED";
    verdict.className = comparison.matches ? "verdict match" : "verdict review";
    const skillChanged = comparison.changed.includes("SKILL.md");
    note.textContent = comparison.matches
      ? "The current directory has exactly the file paths and bytes you reviewed."
      : skillChanged
      ? "SKILL.md and the files below differ from what you reviewed: read them first."
      : "SKILL.md is the same, but files beside it differ: read them first.";
    byId("skill-md-change").textContent = skillChanged ? "SKILL.md changed" : "SKILL.md unchanged";
    byId("counts").textContent = `${comparison.changed.length} changed, ` +
      `${comparison.added.length} added, ${comparison.removed.length} removed ` +
      `(reviewed ${plural(reviewed.manifest.files.length, "file")}, ` +
      `current ${plural(current.manifest.files.length, "file")})`;
    const rows = [
      ...comparison.changed.map((path) => ["CHANGED", path]),
      ...comparison.added.map((path) => ["ADDED", path]),
      ...comparison.removed.map((path) => ["REMOVED", path]),
    ];
    const paths = byId("paths");
    paths.hidden = rows.length === 0;
    paths.replaceChildren(
      ...rows.map(([kind, path]) =>
        el(
          "li",
          {},
          el("span", { className: `kind kind-${kind.toLowerCase()}`, text: kind }),
          " ",
          el("code", { text: reveal(path) }),
        )
      ),
    );
    details.hidden = false;
    renderArguments(reviewed.manifest);
  }

  function pendingNote(reviewed: SideState, current: SideState): string {
    for (const [title, state] of [["reviewed", reviewed], ["current", current]] as const) {
      if (state.kind === "error") {
        return `No verdict: the ${title} manifest was refused. ${state.message}`;
      }
    }
    if (reviewed.kind === "loading" || current.kind === "loading") {
      return "Hashing… the verdict appears when both manifests are verified.";
    }
    return "Choose both manifests to see a verdict.";
  }

  function renderArguments(reviewed: BundleManifest): void {
    const name = nameInput.value.trim();
    byId("skill-name-hint").textContent = isSkillName(name)
      ? ""
      : "Type the skill's published name: lowercase letters, digits and single hyphens.";
    byId("open-skill-args").textContent = JSON.stringify(
      { name, expected_bundle_sha256: reviewed.sha256 },
      null,
      2,
    );
  }

  nameInput.addEventListener("input", () => {
    if (sides.reviewed.state.kind === "ready") renderArguments(sides.reviewed.state.manifest);
  });
  byId("show-example").addEventListener("click", showExample);
  byId("download-reviewed").addEventListener(
    "click",
    () => download("reviewed.bundle.json", example.reviewed),
  );
  byId("download-current").addEventListener(
    "click",
    () => download("current.bundle.json", example.current),
  );
  showExample();
}
