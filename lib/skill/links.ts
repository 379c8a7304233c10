/**
 * Local resource references in a SKILL.md: CommonMark links, images and the
 * reference definitions that are used, with the line each one is on. YAML,
 * code and raw HTML are not considered. Each destination is classified and
 * normalised relative to the skill directory without touching the disk.
 *
 * @example
 * ```ts
 * import { resourceReferences } from "./links.ts";
 * resourceReferences("See [the form](forms/a.md#top).")[0].path; // "forms/a.md"
 * ```
 * @module
 */
import { fromMarkdown } from "mdast-util-from-markdown";
import type { Nodes } from "mdast";
import { KindError } from "../errors.ts";
import { splitFrontmatter } from "./frontmatter.ts";

/** Most references one file may have. */
export const MAX_RESOURCE_LINKS = 1000;

/** A local reference, normalised; `problem` is set when it cannot be local. */
export interface ResourceReference {
  /** The destination as written (character references decoded). */
  url: string;
  /** 1-based file line. */
  line: number;
  /** Normalised relative path (`.` for the skill directory itself), when valid. */
  path?: string;
  /** `outside` or `invalid`, when the destination cannot name a file inside the skill. */
  problem?: "outside" | "invalid";
}

/** Why {@linkcode resourceReferences} gave up: more references than {@linkcode MAX_RESOURCE_LINKS}. */
export type LinksErrorKind = "too-many-links";

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const DRIVE = /^[a-z]:[\\/]/i;
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f\\]/;

/**
 * Classifies one destination: `undefined` for references that are not local
 * files (empty, `#fragment`, `//host`, other schemes).
 *
 * @example
 * ```ts
 * import { classifyDestination } from "./links.ts";
 * console.log(classifyDestination("./a/../b.md#top")); // { path: "b.md" }
 * console.log(classifyDestination("../x")); // { problem: "outside" }
 * ```
 */
export function classifyDestination(
  url: string,
): Omit<ResourceReference, "url" | "line"> | undefined {
  if (url === "" || url.startsWith("#") || url.startsWith("//")) return undefined;
  if (DRIVE.test(url) || /^file:/i.test(url)) return { problem: "outside" };
  if (SCHEME.test(url)) return undefined;
  const cut = url.search(/[?#]/);
  let path = cut < 0 ? url : url.slice(0, cut);
  try {
    path = decodeURIComponent(path);
  } catch {
    return { problem: "invalid" };
  }
  if (CONTROL.test(path)) return { problem: "invalid" };
  if (path.startsWith("/")) return { problem: "outside" };
  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.length === 0) return { problem: "outside" };
      segments.pop();
    } else {
      segments.push(segment);
    }
  }
  return { path: segments.length === 0 ? "." : segments.join("/") };
}

/** Blanks the frontmatter lines so Markdown line numbers stay file line numbers. */
function markdownOnly(raw: string): string {
  const split = splitFrontmatter(raw);
  if (split === undefined) return raw;
  return "\n".repeat(split.bodyLine - 1) + split.body;
}

/** A destination where it was written. */
interface Found {
  url: string;
  line: number;
  column: number;
}

/** Links, images and used reference definitions of the Markdown, in document order. */
function destinations(markdown: string): Found[] {
  const found: Found[] = [];
  const definitions = new Map<string, Found>();
  const used = new Set<string>();
  const visit = (node: Nodes) => {
    const start = node.position?.start ?? { line: 0, column: 0 };
    if (node.type === "link" || node.type === "image") {
      found.push({ url: node.url, line: start.line, column: start.column });
    } else if (node.type === "definition") {
      if (!definitions.has(node.identifier)) {
        definitions.set(node.identifier, { url: node.url, line: start.line, column: start.column });
      }
    } else if (node.type === "linkReference" || node.type === "imageReference") {
      used.add(node.identifier);
    }
    if ("children" in node) { for (const child of node.children) visit(child as Nodes); }
  };
  visit(fromMarkdown(markdown));
  for (const [identifier, definition] of definitions) {
    if (used.has(identifier)) found.push(definition);
  }
  return found.sort((a, b) => a.line - b.line || a.column - b.column);
}

/**
 * Lists the local references of a SKILL.md in document order. Throws a
 * {@linkcode KindError} of kind `too-many-links` past
 * {@linkcode MAX_RESOURCE_LINKS}.
 *
 * @example
 * ```ts
 * import { resourceReferences } from "./links.ts";
 * const refs = resourceReferences("---\nname: a\n---\nSee [b](b.md) and [web](https://x.example).");
 * console.log(refs); // [{ url: "b.md", line: 4, path: "b.md" }]
 * ```
 */
export function resourceReferences(raw: string): ResourceReference[] {
  const references: ResourceReference[] = [];
  for (const { url, line } of destinations(markdownOnly(raw))) {
    const classified = classifyDestination(url);
    if (classified === undefined) continue;
    if (references.length === MAX_RESOURCE_LINKS) {
      throw new KindError<LinksErrorKind>(
        "too-many-links",
        `more than ${MAX_RESOURCE_LINKS} local resource links`,
      );
    }
    references.push({ url, line, ...classified });
  }
  return references;
}
