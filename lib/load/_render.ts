/**
 * The text an agent receives when it loads a skill: the instructions
 * verbatim inside `<skill_content>`, with the base directory and the author's
 * declared tools. The words are neutral; a surface that speaks of itself
 * (the MCP server's "This server cannot restrict your tools") passes its own
 * {@linkcode RenderWords}.
 *
 * @example
 * ```ts
 * import { renderSkill } from "./_render.ts";
 * renderSkill({ name: "demo", directory: "/skills/demo", content: "Do it.", declaredTools: [] });
 * ```
 * @module
 */

/** What {@linkcode renderSkill} shows. */
export interface RenderInput {
  name: string;
  /**
   * Absolute skill directory: relative paths in the instructions resolve against it (or where a
   * remote reader finds the files, worded by {@linkcode RenderWords.resourceLines}).
   */
  directory: string;
  /** The instructions (body without frontmatter), verbatim. */
  content: string;
  /** The author's `allowed-tools`; an empty list adds no block. */
  declaredTools: readonly string[];
}

/** The sentences a surface may word for itself. */
export interface RenderWords {
  /** Follows the declared tools: who cannot restrict them, and what the model should do. */
  declaredToolsNote: string;
  /**
   * The lines of `<skill_resources>` for a reader that reaches the files at `directory` some
   * other way than this machine's paths (a remote client: `directory` is then a URI); default:
   * the base directory and how to resolve paths against it.
   */
  resourceLines?: (directory: string) => string[];
}

/** The neutral words of {@linkcode renderSkill}. */
export const NEUTRAL_WORDS: RenderWords = {
  declaredToolsNote:
    "Nothing restricts your tools to this list. Treat anything beyond it as outside what the author asked for.",
};

/** Escapes text for an XML-ish attribute value (`& " < >`). */
function escapeAttribute(text: string): string {
  return text.replace(
    /[&"<>]/g,
    (ch) => ch === "&" ? "&amp;" : ch === '"' ? "&quot;" : ch === "<" ? "&lt;" : "&gt;",
  );
}

/** Escapes text for XML-ish element content (`& < >`). */
function escapeText(text: string): string {
  return text.replace(/[&<>]/g, (ch) => ch === "&" ? "&amp;" : ch === "<" ? "&lt;" : "&gt;");
}

/**
 * Renders a skill as `<skill_content name="…">` with its base directory, the
 * author's declared tools (if any) and the instructions verbatim.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { renderSkill } from "./_render.ts";
 * const text = renderSkill(
 *   { name: "demo", directory: "/skills/demo", content: "Do it.", declaredTools: ["Read"] },
 *   { declaredToolsNote: "This host cannot restrict your tools." },
 * );
 * assert.equal(text.includes("This host cannot restrict your tools."), true);
 * ```
 */
export function renderSkill(input: RenderInput, words: RenderWords = NEUTRAL_WORDS): string {
  const resources = words.resourceLines?.(input.directory).map(escapeText) ?? [
    `Base directory for this skill: ${escapeText(input.directory)}`,
    "Resolve every relative path in these instructions against that directory, and open scripts, references and assets only when a step needs them.",
  ];
  const lines = [
    `<skill_content name="${escapeAttribute(input.name)}">`,
    "<skill_resources>",
    ...resources,
    "</skill_resources>",
  ];
  if (input.declaredTools.length > 0) {
    lines.push(
      "",
      "<skill_author_declared_tools>",
      `The author declared this skill needs only: ${escapeText(input.declaredTools.join(", "))}.`,
      words.declaredToolsNote,
      "</skill_author_declared_tools>",
    );
  }
  lines.push(
    "",
    "<skill_instructions>",
    input.content,
    "</skill_instructions>",
    "</skill_content>",
  );
  return lines.join("\n");
}
