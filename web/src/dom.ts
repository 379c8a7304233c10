/// <reference lib="dom" />
/**
 * Small DOM helpers for the page: element lookup and creation (text only,
 * never HTML), making invisible characters visible, and downloads through a
 * blob URL that never leaves the browser.
 *
 * @example
 * ```ts
 * import { el, reveal } from "./dom.ts";
 * // Type-checked, not run by the doc test: it needs a browser page's document.
 * function example() {
 *   document.body.append(el("p", { text: reveal("a\u202eb") })); // shows a\u202eb
 * }
 * ```
 * @module
 */

/** The page's words for a file the browser itself could not read. */
export const UNREADABLE_MESSAGE = "The browser could not read this file; choose it again";

/**
 * The element with `id`; throws when the page template lacks it.
 *
 * @example
 * ```ts
 * // Type-checked, not run by the doc test: it needs a browser page's document.
 * function example() {
 *   const verdict = byId("verdict");
 * }
 * ```
 */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`The page has no element #${id}`);
  return element as T;
}

/** Properties {@linkcode el} can set. */
export interface ElementProps {
  className?: string;
  text?: string;
  id?: string;
}

/**
 * Creates an element with optional class, text and children (strings become
 * text nodes, so input is never parsed as HTML).
 *
 * @example
 * ```ts
 * // Type-checked, not run by the doc test: it needs a browser page's document.
 * function example() {
 *   el("li", { className: "changed" }, el("code", { text: "scripts/review.py" }));
 * }
 * ```
 */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: ElementProps = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.className !== undefined) element.className = props.className;
  if (props.id !== undefined) element.id = props.id;
  if (props.text !== undefined) element.textContent = props.text;
  element.append(...children);
  return element;
}

// Controls, format characters (bidi, zero-width, tags), line separators, fillers that render
// blank, supplementary variation selectors and lone surrogates: shown as escapes so a name,
// a path or a URL cannot hide or reorder what the reviewer reads.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\u115f\u1160\u3164\uffa0\u{e0100}-\u{e01ef}]|\p{Cs}/gu;

/**
 * `text` with every invisible or reordering character written as `\uXXXX`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(reveal("safe\u200bname"), "safe\\u200bname");
 * ```
 */
export function reveal(text: string): string {
  return text.replace(INVISIBLE, (ch) => {
    const cp = ch.codePointAt(0)!;
    return cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, "0")}`;
  });
}

/**
 * Offers `text` as a file download from a blob URL (no request leaves the page).
 *
 * @example
 * ```ts
 * // Type-checked, not run by the doc test: it needs a browser page's document.
 * function example() {
 *   download("skill-check.json", JSON.stringify({ status: "passed" }, null, 2) + "\n");
 * }
 * ```
 */
export function download(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = el("a");
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * The first file of a file input, then clears the input so choosing the same
 * file again (after fixing it) fires `change` again.
 *
 * @example
 * ```ts
 * // Type-checked, not run by the doc test: it needs a browser page's document.
 * function example() {
 *   const input = byId<HTMLInputElement>("skill-file");
 *   input.addEventListener("change", () => console.log(takeFile(input)?.name));
 * }
 * ```
 */
export function takeFile(input: HTMLInputElement): File | undefined {
  const file = input.files?.[0];
  input.value = "";
  return file;
}

/**
 * A count with its noun, pluralised with "s".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(plural(1, "file"), "1 file");
 * ```
 */
export function plural(count: number, noun: string): string {
  return `${count.toLocaleString("en-US")} ${noun}${count === 1 ? "" : "s"}`;
}
