/**
 * Local resource references in a SKILL.md, with the line each one is on:
 * CommonMark links, images and the reference definitions that are used, and
 * relative paths named in the text. YAML, code blocks and raw HTML are not
 * considered. Each destination is classified and normalised relative to the
 * skill directory without touching the disk.
 *
 * A path named in the text counts only when it cannot be much else, so that
 * library names (`Node.js`), code identifiers (`page.goto`), output files
 * (`report.pdf`) and a project's own paths (`src/app.ts`) are left alone:
 * - a path under a folder skills keep files in ({@linkcode RESOURCE_FOLDERS}),
 *   optionally after `./`, written in prose or as a whole inline code span
 *   (`scripts/fill.py`, `` `references/api.md` ``, `examples/`);
 * - a bare Markdown file name in prose (`see REFERENCE.md`), not in code.
 * Text inside links is not read again (the link itself is the reference).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resourceReferences } from "./_links.ts";
 * assert.equal(resourceReferences("See [the form](forms/a.md#top).")[0].path, "forms/a.md");
 * ```
 * @module
 */
import { fromMarkdown } from "mdast-util-from-markdown";
import type { Nodes } from "mdast";
import { KindError } from "../errors.ts";
import { splitFrontmatter } from "../skill/mod.ts";

/** Most references one file may have. */
export const MAX_RESOURCE_LINKS = 1000;

/** How a reference is written: a Markdown link, image or definition, or a path named in the text. */
export type ReferenceSource = "link" | "text";

/** A local reference, normalised; `problem` is set when it cannot be local. */
export interface ResourceReference {
  /** The destination as written (character references decoded). */
  url: string;
  /** 1-based file line. */
  line: number;
  /** A link, or a path named in the text. */
  source: ReferenceSource;
  /** Normalised relative path (`.` for the skill directory itself), when valid. */
  path?: string;
  /** `outside` or `invalid`, when the destination cannot name a file inside the skill. */
  problem?: "outside" | "invalid";
}

/**
 * The folders a path named in the text must start with (compared ignoring
 * case, so `Scripts/a.py` is still checked and found to be misspelt).
 */
export const RESOURCE_FOLDERS: readonly string[] = [
  "scripts",
  "references",
  "reference",
  "assets",
  "examples",
  "templates",
  "resources",
  "agents",
];

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
 * import assert from "node:assert/strict";
 * import { classifyDestination } from "./_links.ts";
 * assert.deepEqual(classifyDestination("./a/../b.md#top"), { path: "b.md" });
 * assert.deepEqual(classifyDestination("../x"), { problem: "outside" });
 * ```
 */
export function classifyDestination(
  url: string,
): Omit<ResourceReference, "url" | "line" | "source"> | undefined {
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
  source: ReferenceSource;
}

const SEGMENT = "[A-Za-z0-9_][A-Za-z0-9_.-]*";
const FOLDER_PATH = new RegExp(`^(?:\\./)?(${SEGMENT})/(?:${SEGMENT}/)*(?:${SEGMENT})?$`);
const BARE_MARKDOWN = new RegExp(`^${SEGMENT}\\.md$`, "i");
const LEADING = /^[(["'*]+/;
const TRAILING_PROSE = /[)\]"'*.,;:!?]+$/;

/** Whether a token is a path under one of the {@linkcode RESOURCE_FOLDERS}. */
function isFolderPath(token: string): boolean {
  const folder = FOLDER_PATH.exec(token)?.[1];
  return folder !== undefined && RESOURCE_FOLDERS.includes(folder.toLowerCase());
}

/** The paths named in one prose text node, with their file lines. */
function prosePaths(text: string, line: number, column: number): Found[] {
  const found: Found[] = [];
  for (const match of text.matchAll(/\S+/g)) {
    const token = match[0].replace(LEADING, "").replace(TRAILING_PROSE, "");
    if (!isFolderPath(token) && !BARE_MARKDOWN.test(token)) continue;
    const before = text.slice(0, match.index);
    const breaks = before.split("\n").length - 1;
    found.push({
      url: token,
      line: line + breaks,
      column: breaks === 0 ? column + match.index : 1,
      source: "text",
    });
  }
  return found;
}

/** Links, images, used reference definitions and paths named in the text, in document order. */
function destinations(markdown: string): Found[] {
  const found: Found[] = [];
  const definitions = new Map<string, Found>();
  const used = new Set<string>();
  const visit = (node: Nodes) => {
    const start = node.position?.start ?? { line: 0, column: 0 };
    const at = { line: start.line, column: start.column };
    if (node.type === "link" || node.type === "image") {
      found.push({ url: node.url, ...at, source: "link" });
    } else if (node.type === "definition") {
      if (!definitions.has(node.identifier)) {
        definitions.set(node.identifier, { url: node.url, ...at, source: "link" });
      }
    } else if (node.type === "linkReference" || node.type === "imageReference") {
      used.add(node.identifier);
    } else if (node.type === "text") {
      found.push(...prosePaths(node.value, at.line, at.column));
    } else if (node.type === "inlineCode" && isFolderPath(node.value.trim())) {
      found.push({ url: node.value.trim(), ...at, source: "text" });
    }
    if (node.type === "link" || node.type === "linkReference") return;
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
 * import assert from "node:assert/strict";
 * import { resourceReferences } from "./_links.ts";
 * const refs = resourceReferences("---\nname: a\n---\nSee [b](b.md) and [web](https://x.example).");
 * assert.deepEqual(refs, [{ url: "b.md", line: 4, source: "link", path: "b.md" }]);
 * ```
 */
export function resourceReferences(raw: string): ResourceReference[] {
  const references: ResourceReference[] = [];
  for (const { url, line, source } of destinations(markdownOnly(raw))) {
    const classified = classifyDestination(url);
    if (classified === undefined) continue;
    if (references.length === MAX_RESOURCE_LINKS) {
      throw new KindError<LinksErrorKind>(
        "too-many-links",
        `more than ${MAX_RESOURCE_LINKS} local resource links`,
      );
    }
    references.push({ url, line, source, ...classified });
  }
  return references;
}
