// Shared fixture of the MCP end-to-end tests (mcp_server_test, mcp_open_test,
// mcp_receipt_test): a catalog of three model skills and one the author
// disabled, the expected rendered text, and assertions on tool results.
import { equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  type Sandbox,
  skillMd,
  textOf,
  type ToolResult,
  writeProjectSkill,
} from "./mcp_helpers.ts";
import { writeTree } from "./helpers.ts";

export const PDF_DESCRIPTION = "Fill in PDF forms and extract their fields.";
export const PDF_BODY = "Run scripts/fill.py with the field map. PDF-BODY-MARKER";
export const DOCX_DESCRIPTION = "Review Word documents with tracked changes.";
export const NOTES_DESCRIPTION = "Draft release notes from the changelog.";
export const SECRET_BODY = "Never show this. SECRET-BODY-MARKER";
export const RESOLVE_SENTENCE =
  "Resolve every relative path in these instructions against that directory, and open scripts, references and assets only when a step needs them.";
export const SHA40 = /^[0-9a-f]{40}$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const UNAVAILABLE = "source commit unavailable";

/**
 * Three model skills (two Claude Code project skills, one Codex user skill)
 * and one the author disabled. Returns the pdf-forms directory.
 */
export async function catalogFixture(box: Sandbox): Promise<string> {
  const pdf = await writeProjectSkill(
    box,
    "pdf-forms",
    skillMd("pdf-forms", PDF_DESCRIPTION, PDF_BODY),
    { "scripts/fill.py": "print('fill')\n" },
  );
  await writeProjectSkill(
    box,
    "release-notes",
    skillMd("release-notes", NOTES_DESCRIPTION, "Read CHANGELOG.md."),
  );
  await writeProjectSkill(
    box,
    "secret-ops",
    skillMd("secret-ops", "Operate the secret pipeline.", SECRET_BODY, [
      "disable-model-invocation: true",
    ]),
  );
  await writeTree(join(box.home, ".codex", "skills", "docx-review"), {
    "SKILL.md": skillMd("docx-review", DOCX_DESCRIPTION, "Open the document."),
  });
  return pdf;
}

/** The structured content of a tool result that is not an error. */
export function assertOk(result: ToolResult): Record<string, unknown> {
  ok(result.isError !== true, `unexpected tool error: ${textOf(result)}`);
  ok(result.structuredContent !== undefined, "no structuredContent");
  return result.structuredContent;
}

/** Asserts a refusal whose text matches and leaks none of `secrets`. */
export function assertRefused(result: ToolResult, message: RegExp, secrets: string[] = []): string {
  equal(result.isError, true, `expected a refusal, got: ${textOf(result)}`);
  const text = textOf(result);
  match(text, message);
  for (const secret of [...secrets, "PDF-BODY", "SECRET-BODY", "<skill_instructions>"]) {
    ok(!text.includes(secret), `error leaks ${secret}: ${text}`);
  }
  equal(result.structuredContent, undefined);
  return text;
}

/** The text open_skill returns, as the MCP server words it. */
export function expectedRender(
  name: string,
  directory: string,
  body: string,
  tools?: string,
): string {
  const lines = [
    `<skill_content name="${name}">`,
    "<skill_resources>",
    `Base directory for this skill: ${directory}`,
    RESOLVE_SENTENCE,
    "</skill_resources>",
  ];
  if (tools !== undefined) {
    lines.push(
      "",
      "<skill_author_declared_tools>",
      `The author declared this skill needs only: ${tools}.`,
      "This server cannot restrict your tools. Treat anything beyond that list as outside what the author asked for.",
      "</skill_author_declared_tools>",
    );
  }
  lines.push("", "<skill_instructions>", body, "</skill_instructions>", "</skill_content>");
  return lines.join("\n");
}

/** How often `needle` occurs in `text`. */
export function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}
