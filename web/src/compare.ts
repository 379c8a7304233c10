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
 * setupCompare({ name: "review-helper", reviewed: "{}", current: "{}" });
 * ```
 * @module
 */
import { assertManifestSize, BundleError, parseManifest } from "../../lib/bundle/manifest.ts";
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

/**
 * Wires section 1 and shows the example pair.
 *
 * @example
 * ```ts
 * import { setupCompare } from "./compare.ts";
 * setupCompare({ name: "review-helper", reviewed: "{}", current: "{}" });
 * ```
 */
export function setupCompare(example: ExamplePair): void {
  const nameInput = byId<HTMLInputElement>("skill-name");
  const states: Record<SideKey, SideState> = {
    reviewed: { kind: "empty" },
    current: { kind: "empty" },
  };
  const tokens: Record<SideKey, number> = { reviewed: 0, current: 0 };
  const render = () => renderCompare(states.reviewed, states.current, nameInput.value.trim());

  async function load(key: SideKey, label: string, read: () => Promise<Uint8Array>) {
    const token = ++tokens[key];
    states[key] = { kind: "loading", label };
    render();
    let next: SideState;
    try {
      next = { kind: "ready", label, manifest: await parseManifest(await read()) };
    } catch (error) {
      next = { kind: "error", label, message: errorMessage(error) };
    }
    if (token !== tokens[key]) return; // a newer selection owns this side now
    states[key] = next;
    render();
  }

  function showExample(): void {
    nameInput.value = example.name;
    for (const key of ["reviewed", "current"] as const) {
      const bytes = encoder.encode(example[key]);
      void load(key, `example ${key}.bundle.json`, () => Promise.resolve(bytes));
    }
  }

  for (const key of ["reviewed", "current"] as const) {
    const input = byId<HTMLInputElement>(`${key}-file`);
    input.addEventListener("change", () => {
      const file = takeFile(input);
      if (file !== undefined) void load(key, file.name, () => fileBytes(file));
    });
    byId(`download-${key}`).addEventListener(
      "click",
      () => download(`${key}.bundle.json`, example[key]),
    );
  }
  nameInput.addEventListener("input", () => {
    const reviewed = states.reviewed;
    if (reviewed.kind === "ready") renderArguments(reviewed.manifest, nameInput.value.trim());
  });
  byId("show-example").addEventListener("click", showExample);
  showExample();
}
