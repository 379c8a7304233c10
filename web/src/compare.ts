/// <reference lib="dom" />
/**
 * The controller of section 1 of the page, "Compare manifests": a reviewed
 * and a current `skills-anywhere-bundle-1` manifest, each read with the
 * core's {@linkcode parseManifest} (size cap, strict UTF-8, JSON, validation
 * with the digest recomputed by Web Crypto) and shown on its own side by
 * `compare_view.ts`, which also compares them.
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
 * // Type-checked, not run by the doc test: it needs a browser page's document.
 * function example() {
 *   setupCompare({ name: "review-helper", reviewed: "{}", current: "{}" });
 * }
 * ```
 * @module
 */
import { assertManifestSize, BundleError, parseManifest } from "../../lib/bundle/portable.ts";
import { errorText } from "../../lib/errors.ts";
import { renderArguments, renderCompare, type SideKey, type SideState } from "./compare_view.ts";
import { byId, download, takeFile, UNREADABLE_MESSAGE } from "./dom.ts";

/** The example pair recorded at build time: the skill's name and both manifests' JSON text. */
export interface ExamplePair {
  name: string;
  reviewed: string;
  current: string;
}

const encoder = new TextEncoder();

/** What a side says when its manifest could not be read or used. */
function errorMessage(error: unknown): string {
  if (error instanceof BundleError) return error.message;
  if (error instanceof DOMException) return UNREADABLE_MESSAGE;
  return `Unexpected error: ${errorText(error)}`;
}

/** Reads a chosen file's bytes; one over the manifest cap is refused without being read. */
async function fileBytes(file: File): Promise<Uint8Array> {
  assertManifestSize(file.size);
  return new Uint8Array(await file.arrayBuffer());
}

/** The two sides of the comparison. */
const SIDES: readonly SideKey[] = ["reviewed", "current"];

/** Section 1's state: what each side shows, and each side's latest request token. */
class Comparison {
  readonly nameInput = byId<HTMLInputElement>("skill-name");
  readonly states: Record<SideKey, SideState> = {
    reviewed: { kind: "empty" },
    current: { kind: "empty" },
  };
  readonly #tokens: Record<SideKey, number> = { reviewed: 0, current: 0 };

  /** Shows both sides and their comparison. */
  render(): void {
    renderCompare(this.states.reviewed, this.states.current, this.nameInput.value.trim());
  }

  /** Reads and parses one side; a newer load of the same side wins over this one. */
  async load(key: SideKey, label: string, read: () => Promise<Uint8Array>): Promise<void> {
    const token = ++this.#tokens[key];
    this.states[key] = { kind: "loading", label };
    this.render();
    let next: SideState;
    try {
      next = { kind: "ready", label, manifest: await parseManifest(await read()) };
    } catch (error) {
      next = { kind: "error", label, message: errorMessage(error) };
    }
    if (token !== this.#tokens[key]) return; // a newer selection owns this side now
    this.states[key] = next;
    this.render();
  }

  /** Loads the example pair on both sides. */
  showExample(example: ExamplePair): void {
    this.nameInput.value = example.name;
    for (const key of SIDES) {
      const bytes = encoder.encode(example[key]);
      void this.load(key, `example ${key}.bundle.json`, () => Promise.resolve(bytes));
    }
  }
}

/**
 * Wires section 1 and shows the example pair.
 *
 * @example
 * ```ts
 * import { setupCompare } from "./compare.ts";
 * // Type-checked, not run by the doc test: it needs a browser page's document.
 * function example() {
 *   setupCompare({ name: "review-helper", reviewed: "{}", current: "{}" });
 * }
 * ```
 */
export function setupCompare(example: ExamplePair): void {
  const comparison = new Comparison();
  for (const key of SIDES) {
    const input = byId<HTMLInputElement>(`${key}-file`);
    input.addEventListener("change", () => {
      const file = takeFile(input);
      if (file !== undefined) void comparison.load(key, file.name, () => fileBytes(file));
    });
    byId(`download-${key}`).addEventListener(
      "click",
      () => download(`${key}.bundle.json`, example[key]),
    );
  }
  const { nameInput, states } = comparison;
  nameInput.addEventListener("input", () => {
    const reviewed = states.reviewed;
    if (reviewed.kind === "ready") renderArguments(reviewed.manifest, nameInput.value.trim());
  });
  byId("show-example").addEventListener("click", () => comparison.showExample(example));
  comparison.showExample(example);
}
