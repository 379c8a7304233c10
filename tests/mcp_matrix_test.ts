// The compatibility matrix of MCP clients: one scenario,
// four real MCP clients over stdio against the real `main.ts mcp` child —
// SDK 1.30.0 (legacy `initialize`), and SDK 2 with `versionNegotiation`
// `legacy`, `auto` and `{ pin: "2026-07-28" }`. Each client gets a fresh
// sandbox (temp HOME, DSH_HOME and project) and checks the era it negotiated.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { VERSION } from "../lib/version.ts";
import {
  bundleDigest,
  type ClientKind,
  fileSha256,
  rejection,
  type Sandbox,
  type Session,
  skillMd,
  textOf,
  withSandbox,
  withSession,
  writeProjectSkill,
} from "./mcp_helpers.ts";
import { MCP_TOOLS } from "./helpers.ts";

const BODY = "Run scripts/fill.py on the form. MATRIX-BODY-ORIGINAL";
const NEW_BODY = "Run scripts/fill.py twice. MATRIX-BODY-CHANGED";
const PDF = "Fill in PDF forms and extract their fields.";

const EXPECTED: Record<ClientKind, { version: string; era: string }> = {
  sdk1: { version: "2025-11-25", era: "legacy" },
  legacy: { version: "2025-11-25", era: "legacy" },
  auto: { version: "2026-07-28", era: "modern" },
  pin: { version: "2026-07-28", era: "modern" },
};

async function fixture(box: Sandbox): Promise<string> {
  await writeProjectSkill(
    box,
    "docx-review",
    skillMd("docx-review", "Review Word documents with tracked changes.", "Open the document."),
  );
  return await writeProjectSkill(box, "pdf-forms", skillMd("pdf-forms", PDF, BODY), {
    "scripts/fill.py": "print('fill')\n",
    "reference/fields.md": "# Fields\n",
  });
}

function assertRefused(result: Awaited<ReturnType<Session["call"]>>, message: RegExp): string {
  equal(result.isError, true, `expected a refusal, got ${textOf(result)}`);
  const text = textOf(result);
  match(text, message);
  ok(!text.includes("MATRIX-BODY"), `instruction text leaked into an error: ${text}`);
  equal(result.structuredContent, undefined);
  return text;
}

async function scenario(kind: ClientKind): Promise<void> {
  await withSandbox(async (box) => {
    const dir = await fixture(box);
    const skillPath = join(dir, "SKILL.md");
    const stderr = await withSession(box, kind, async (session) => {
      // The era each configuration negotiates.
      equal(session.protocolVersion, EXPECTED[kind].version, `${kind} protocol version`);
      equal(session.era, EXPECTED[kind].era, `${kind} era`);
      deepEqual(session.client.getServerVersion(), {
        name: "dsh-skills-anywhere",
        version: VERSION,
      });
      match(session.client.getInstructions() ?? "", /find_skills/);

      // Tools: exactly the three.
      const { tools } = await session.client.listTools();
      deepEqual(tools.map((t) => t.name).sort(), MCP_TOOLS);

      // Search.
      const found = await session.call("find_skills", { query: "pdf form" });
      equal(found.isError, undefined);
      match(textOf(found), /^1 of 1 skills matched:\n- pdf-forms — Fill in PDF forms/);
      // total: the number of matches (issue 29), not the catalog size.
      deepEqual(found.structuredContent, {
        total: 1,
        matches: [{ name: "pdf-forms", description: PDF, source: "claude-code (project)" }],
      });

      // Resources (SEP-2640 files): list, read the exact bytes.
      const { resources } = await session.client.listResources();
      deepEqual(resources.map((r) => [r.uri, r.mimeType]).sort(), [
        ["skill://docx-review/SKILL.md", "text/markdown"],
        ["skill://pdf-forms/SKILL.md", "text/markdown"],
      ]);
      const read = await session.read("skill://pdf-forms/SKILL.md");
      equal(read.contents.length, 1);
      equal(read.contents[0].uri, "skill://pdf-forms/SKILL.md");
      equal(read.contents[0].mimeType, "text/markdown");
      equal(read.contents[0].text, await Deno.readTextFile(skillPath));

      // Load pinned to SKILL.md's bytes.
      const sha = await fileSha256(skillPath);
      const pinned = await session.call("open_skill", { name: "pdf-forms", expected_sha256: sha });
      equal(pinned.isError, undefined, textOf(pinned));
      equal(pinned.structuredContent?.sha256, sha);
      equal(pinned.structuredContent?.content, BODY);
      ok(textOf(pinned).includes(`<skill_instructions>\n${BODY}\n</skill_instructions>`));

      // Load pinned to the reviewed bundle.
      const bundle = await bundleDigest(box, dir);
      const reviewed = await session.call("open_skill", {
        name: "pdf-forms",
        expected_bundle_sha256: bundle,
      });
      equal(reviewed.isError, undefined, textOf(reviewed));
      const manifest = reviewed.structuredContent?.bundle as { sha256: string; files: unknown[] };
      equal(manifest.sha256, bundle);
      equal(manifest.files.length, 3);
      equal(
        (reviewed.structuredContent?.receipt as { bundle_sha256: string }).bundle_sha256,
        bundle,
      );
      ok(textOf(reviewed).includes(BODY));

      // Only a script changes: the reviewed bundle no longer matches.
      await Deno.writeTextFile(join(dir, "scripts/fill.py"), "print('exfiltrate')\n");
      const changedBundle = await session.call("open_skill", {
        name: "pdf-forms",
        expected_bundle_sha256: bundle,
      });
      assertRefused(changedBundle, /^Skill bundle changed: expected_bundle_sha256 does not match/);
      // SKILL.md itself did not change, so its pin still holds.
      const stillSame = await session.call("open_skill", {
        name: "pdf-forms",
        expected_sha256: sha,
      });
      equal(stillSame.isError, undefined, textOf(stillSame));

      // SKILL.md changes: the old expected_sha256 is refused without the new body.
      await Deno.writeTextFile(skillPath, skillMd("pdf-forms", PDF, NEW_BODY));
      const changedSkill = await session.call("open_skill", {
        name: "pdf-forms",
        expected_sha256: sha,
      });
      assertRefused(changedSkill, /^SKILL\.md changed: expected_sha256 does not match/);

      // The author opts out: the tool and the resource both refuse.
      await Deno.writeTextFile(
        skillPath,
        skillMd("pdf-forms", PDF, NEW_BODY, ["disable-model-invocation: true"]),
      );
      const disabled = await session.call("open_skill", { name: "pdf-forms" });
      assertRefused(disabled, /disabled by its author/);
      const disabledPinned = await session.call("open_skill", {
        name: "pdf-forms",
        expected_sha256: await fileSha256(skillPath),
      });
      assertRefused(disabledPinned, /disabled by its author/);
      const readError = await rejection(session.read("skill://pdf-forms/SKILL.md"));
      ok(!readError.includes("MATRIX-BODY"), readError);
    });
    // No SDK error was logged by the server along the way.
    ok(!stderr.includes("skills-anywhere: MCP:"), stderr);
  });
}

for (const kind of ["sdk1", "legacy", "auto", "pin"] as const) {
  const label = kind === "sdk1"
    ? "@modelcontextprotocol/sdk 1.30.0 Client (legacy initialize)"
    : kind === "pin"
    ? '@modelcontextprotocol/client 2.4.0, versionNegotiation { pin: "2026-07-28" }'
    : `@modelcontextprotocol/client 2.4.0, versionNegotiation "${kind}"`;
  Deno.test(`MCP matrix: ${label} runs the full scenario`, async () => {
    await scenario(kind);
  });
}
