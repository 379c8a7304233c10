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

/** Raised when a file has more references than {@linkcode MAX_RESOURCE_LINKS}. */
export class TooManyLinksError extends Error {}

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const DRIVE = /^[a-z]:[\\/]/i;
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f\\]/;

/**
 * Classifies one destination: `undefined` for references that are not local
 * files (empty, `#fragment`, `//host`, other schemes).
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

/**
 * Lists the local references of a SKILL.md in document order.
 * Throws {@linkcode TooManyLinksError} past 1000.
 */
export function resourceReferences(raw: string): ResourceReference[] {
  const tree = fromMarkdown(markdownOnly(raw));
  const found: Array<{ url: string; line: number; column: number }> = [];
  const definitions = new Map<string, { url: string; line: number; column: number }>();
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
  visit(tree);
  for (const [identifier, definition] of definitions) {
    if (used.has(identifier)) found.push(definition);
  }
  found.sort((a, b) => a.line - b.line || a.column - b.column);
  const references: ResourceReference[] = [];
  for (const { url, line } of found) {
    const classified = classifyDestination(url);
    if (classified === undefined) continue;
    if (references.length === MAX_RESOURCE_LINKS) {
      throw new TooManyLinksError(`more than ${MAX_RESOURCE_LINKS} local resource links`);
    }
    references.push({ url, line, ...classified });
  }
  return references;
}
