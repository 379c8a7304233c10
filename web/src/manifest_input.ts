/**
 * Reading a manifest that a reviewer chose in the page: the same steps and
 * messages as `bundle --against` (at most 1 MiB, fatal UTF-8, JSON), then the
 * shared {@linkcode validateManifest}, which recomputes the digest with Web
 * Crypto, so an edited manifest is refused before anything is compared.
 *
 * @example
 * ```ts
 * import { readManifest } from "./manifest_input.ts";
 * const manifest = await readManifest(new TextEncoder().encode(text));
 * console.log(manifest.sha256);
 * ```
 * @module
 */
import {
  BUNDLE_LIMITS,
  BundleError,
  type BundleManifest,
  validateManifest,
} from "../../lib/bundle/manifest.ts";

/** Refusals of a chosen file before the format itself is validated. */
export const INPUT_MESSAGES = {
  tooLarge: "Manifest exceeds 1 MiB.",
  notUtf8: "Manifest is not valid UTF-8.",
  notJson: "Manifest is not valid JSON.",
  unreadable: "The browser could not read this file; choose it again.",
} as const;

// A byte order mark is kept, as the CLI's reader keeps it: JSON.parse then refuses it there too.
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Whether a file of `size` bytes may be read as a manifest at all (checked
 * before reading, so a huge file is never loaded into the page).
 *
 * @example
 * ```ts
 * manifestSizeAllowed(2 * 1024 * 1024); // false
 * ```
 */
export function manifestSizeAllowed(size: number): boolean {
  return size <= BUNDLE_LIMITS.maxManifestBytes;
}

/**
 * Decodes, parses and validates manifest bytes. Throws {@linkcode BundleError}
 * with a message that is safe to show.
 *
 * @example
 * ```ts
 * await readManifest(new TextEncoder().encode("{}")); // throws "Expected a skills-anywhere-bundle-1 manifest."
 * ```
 */
export async function readManifest(bytes: Uint8Array): Promise<BundleManifest> {
  if (!manifestSizeAllowed(bytes.length)) throw new BundleError(INPUT_MESSAGES.tooLarge);
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new BundleError(INPUT_MESSAGES.notUtf8);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BundleError(INPUT_MESSAGES.notJson);
  }
  return await validateManifest(value);
}
