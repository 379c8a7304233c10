// End-to-end tests of the MCP server (REF §8, §12 #77–#93, SPEC §6, §10):
// the real `main.ts mcp` runs as a child process in a sandbox (temp HOME,
// DSH_HOME and a project with its own `.git`), driven by the SDK 2 client
// over stdio, or by raw JSON lines for the protocol and lifecycle tests.
import { deepEqual, equal, match, notEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { openSkill, renderSkill } from "../lib/load/mod.ts";
import { resolveSource } from "../lib/sources/resolve.ts";
import {
  bundleDigest,
  cli,
  fileSha256,
  git,
  gitCommit,
  gitRepo,
  logGitCalls,
  RawServer,
  rejection,
  type Sandbox,
  serverParams,
  sha256Hex,
  skillMd,
  textOf,
  type ToolResult,
  withRawServer,
  withSandbox,
  withSession,
  writeProjectSkill,
} from "./mcp_helpers.ts";
import { listTree, writeTree } from "./helpers.ts";

const PDF_DESCRIPTION = "Fill in PDF forms and extract their fields.";
const PDF_BODY = "Run scripts/fill.py with the field map. PDF-BODY-MARKER";
const DOCX_DESCRIPTION = "Review Word documents with tracked changes.";
const NOTES_DESCRIPTION = "Draft release notes from the changelog.";
const SECRET_BODY = "Never show this. SECRET-BODY-MARKER";
const RESOLVE_SENTENCE =
  "Resolve every relative path in these instructions against that directory, and open scripts, references and assets only when a step needs them.";
const SHA40 = /^[0-9a-f]{40}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const UNAVAILABLE = "source commit unavailable";

/**
 * Three model skills (two Claude Code project skills, one Codex user skill)
 * and one the author disabled. Returns the pdf-forms directory.
 */
async function catalogFixture(box: Sandbox): Promise<string> {
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

function assertOk(result: ToolResult): Record<string, unknown> {
  ok(result.isError !== true, `unexpected tool error: ${textOf(result)}`);
  ok(result.structuredContent !== undefined, "no structuredContent");
  return result.structuredContent;
}

/** Asserts a refusal whose text matches and leaks none of `secrets`. */
function assertRefused(result: ToolResult, message: RegExp, secrets: string[] = []): string {
  equal(result.isError, true, `expected a refusal, got: ${textOf(result)}`);
  const text = textOf(result);
  match(text, message);
  for (const secret of [...secrets, "PDF-BODY", "SECRET-BODY", "<skill_instructions>"]) {
    ok(!text.includes(secret), `error leaks ${secret}: ${text}`);
  }
  equal(result.structuredContent, undefined);
  return text;
}

function expectedRender(name: string, directory: string, body: string, tools?: string): string {
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

function count(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

// ---------------------------------------------------------------------------
// #77 server info, tools, instructions

Deno.test("MCP server: advertises three tools, instructions and name/version 0.9.0 (#77)", async () => {
  await withSandbox(async (box) => {
    const dir = await catalogFixture(box);
    const before = [await listTree(box.project), await listTree(join(box.home, ".codex"))];
    await withSession(box, "legacy", async (s) => {
      // Serving writes nothing into skill or agent directories (SPEC §10).
      for (const name of ["pdf-forms", "docx-review"]) {
        assertOk(await s.call("open_skill", { name, include_bundle: name === "pdf-forms" }));
        await s.read(`skill://${name}`);
      }
      assertOk(
        await s.call("open_skill", {
          name: "pdf-forms",
          expected_sha256: await fileSha256(join(dir, "SKILL.md")),
        }),
      );
      deepEqual(s.client.getServerVersion(), { name: "dsh-skills-anywhere", version: "0.9.0" });
      const instructions = s.client.getInstructions() ?? "";
      match(instructions, /find_skills/);
      match(instructions, /open_skill/);
      const { tools } = await s.client.listTools();
      deepEqual(tools.map((t) => t.name).sort(), ["find_skills", "list_skills", "open_skill"]);
      for (const tool of tools) {
        ok(tool.inputSchema, `${tool.name} has an input schema`);
        ok(tool.outputSchema, `${tool.name} has an output schema`);
      }
      const open = tools.find((t) => t.name === "open_skill")!;
      const properties = (open.inputSchema as { properties: Record<string, unknown> }).properties;
      deepEqual(Object.keys(properties).sort(), [
        "expected_bundle_sha256",
        "expected_sha256",
        "expected_source_commit",
        "include_bundle",
        "name",
      ]);
    });
    deepEqual([await listTree(box.project), await listTree(join(box.home, ".codex"))], before);
  });
});

// ---------------------------------------------------------------------------
// #78 list_skills

Deno.test("MCP list_skills: hides author-disabled skills, shows origin labels, pages (#78)", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    await withSession(box, "legacy", async (s) => {
      const all = assertOk(await s.call("list_skills")) as {
        total: number;
        skills: { name: string; description: string; source: string }[];
      };
      equal(all.total, 3);
      deepEqual(
        [...all.skills].sort((a, b) => a.name.localeCompare(b.name)),
        [
          { name: "docx-review", description: DOCX_DESCRIPTION, source: "codex (user)" },
          { name: "pdf-forms", description: PDF_DESCRIPTION, source: "claude-code (project)" },
          {
            name: "release-notes",
            description: NOTES_DESCRIPTION,
            source: "claude-code (project)",
          },
        ],
      );
      const text = textOf(await s.call("list_skills"));
      ok(text.startsWith("3 of 3 skills:\n"), text);
      ok(text.includes(`- pdf-forms — ${PDF_DESCRIPTION} [claude-code (project)]`), text);
      ok(text.includes(`- docx-review — ${DOCX_DESCRIPTION} [codex (user)]`), text);
      ok(!text.includes("secret-ops"));

      // Pages of one, in the same order as the full list.
      const pages: string[] = [];
      for (let offset = 0; offset < 4; offset++) {
        const page = await s.call("list_skills", { limit: 1, offset });
        const structured = assertOk(page) as { total: number; skills: { name: string }[] };
        equal(structured.total, 3);
        pages.push(...structured.skills.map((skill) => skill.name));
        if (offset < 3) ok(textOf(page).startsWith("1 of 3 skills:\n"));
      }
      deepEqual(pages, all.skills.map((skill) => skill.name));
      const two = assertOk(await s.call("list_skills", { limit: 2, offset: 1 })) as {
        skills: { name: string }[];
      };
      deepEqual(two.skills.map((skill) => skill.name), pages.slice(1, 3));
      const past = await s.call("list_skills", { offset: 10 });
      deepEqual(assertOk(past), { total: 3, skills: [] });
    });
  });
});

Deno.test("MCP list_skills: an empty catalog says how to add skills", async () => {
  await withSandbox(async (box) => {
    await withSession(box, "legacy", async (s) => {
      const result = await s.call("list_skills");
      deepEqual(assertOk(result), { total: 0, skills: [] });
      equal(
        textOf(result),
        "No skills found. Add a git source with `dsh-skills-anywhere add owner/repo` or install skills for any supported agent.",
      );
    });
  });
});

// ---------------------------------------------------------------------------
// #79 find_skills

Deno.test("MCP find_skills: ranks, reports no match, rejects a blank query (#79)", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    await withSession(box, "legacy", async (s) => {
      const found = await s.call("find_skills", { query: "pdf form filling" });
      deepEqual(assertOk(found), {
        total: 3,
        matches: [{
          name: "pdf-forms",
          description: PDF_DESCRIPTION,
          source: "claude-code (project)",
        }],
      });
      equal(
        textOf(found),
        `1 of 3 skills matched:\n- pdf-forms — ${PDF_DESCRIPTION} [claude-code (project)]`,
      );

      const none = await s.call("find_skills", { query: "  kubernetes  " });
      deepEqual(assertOk(none), { total: 3, matches: [] });
      equal(
        textOf(none),
        'No skills matched "kubernetes". 3 skills searched; try different keywords or list_skills.',
      );

      // The disabled skill is never found, even by its own name.
      const hidden = assertOk(await s.call("find_skills", { query: "secret ops" }));
      deepEqual(hidden.matches, []);

      // limit caps the matches; total still counts every model skill.
      const capped = await s.call("find_skills", { query: "review pdf", limit: 1 });
      const cappedMatches = assertOk(capped).matches as { name: string }[];
      equal(cappedMatches.length, 1);
      ok(textOf(capped).startsWith("1 of 3 skills matched:\n"));
      const both = assertOk(await s.call("find_skills", { query: "review pdf" }));
      deepEqual((both.matches as { name: string }[]).map((m) => m.name).sort(), [
        "docx-review",
        "pdf-forms",
      ]);

      assertRefused(await s.call("find_skills", { query: "   " }), /^query must not be empty$/);
    });
  });
});

// ---------------------------------------------------------------------------
// #80 #81 #82 open_skill rendering, refusals, late installs

Deno.test("MCP open_skill: renders, refuses unknown/invalid/disabled, finds late installs (#80-#82)", async () => {
  await withSandbox(async (box) => {
    const dir = await catalogFixture(box);
    const path = join(dir, "SKILL.md");
    await withSession(box, "legacy", async (s) => {
      const opened = await s.call("open_skill", { name: "pdf-forms" });
      const structured = assertOk(opened);
      equal(textOf(opened), expectedRender("pdf-forms", dir, PDF_BODY));
      ok(textOf(opened).includes(`<skill_instructions>\n${PDF_BODY}`));
      equal(structured.name, "pdf-forms");
      equal(structured.description, PDF_DESCRIPTION);
      equal(structured.directory, dir);
      equal(structured.path, path);
      equal(structured.content, PDF_BODY);
      equal(structured.sha256, await fileSha256(path));
      equal(structured.source, "anywhere-project");
      equal("declared_tools" in structured, false);
      equal("bundle" in structured, false);

      assertRefused(
        await s.call("open_skill", { name: "no-such-skill" }),
        /^skill "no-such-skill" is unknown; search with find_skills$/,
      );
      assertRefused(
        await s.call("open_skill", { name: "Bad_Name" }),
        /^invalid skill name "Bad_Name"$/,
      );
      assertRefused(
        await s.call("open_skill", { name: "../secret-ops" }),
        /^invalid skill name "\.\.\/secret-ops"$/,
      );
      assertRefused(
        await s.call("open_skill", { name: "secret-ops" }),
        /^skill "secret-ops" is not available for model invocation \(disabled by its author\)$/,
      );
      assertRefused(
        await s.call("open_skill", { name: "secret-ops", include_bundle: true }),
        /disabled by its author/,
      );

      // Installed after the catalog was scanned (and cached): a miss rescans.
      assertOk(await s.call("list_skills"));
      const late = await writeProjectSkill(
        box,
        "late-skill",
        skillMd("late-skill", "Installed a moment ago.", "LATE-BODY"),
      );
      const lateOpen = await s.call("open_skill", { name: "late-skill" });
      equal(assertOk(lateOpen).directory, late);
      ok(textOf(lateOpen).includes("<skill_instructions>\nLATE-BODY\n</skill_instructions>"));
      const read = await s.read("skill://late-skill");
      equal(read.contents[0].text, textOf(lateOpen));
    });
  });
});

// ---------------------------------------------------------------------------
// #83 #84 fresh opt-out, expected_sha256

Deno.test("MCP open_skill: expected_sha256 and a fresh author opt-out beat the cache (#83, #84)", async () => {
  await withSandbox(async (box) => {
    const dir = await catalogFixture(box);
    const path = join(dir, "SKILL.md");
    await withSession(box, "legacy", async (s) => {
      const sha = await fileSha256(path);
      const pinned = await s.call("open_skill", { name: "pdf-forms", expected_sha256: sha });
      equal(assertOk(pinned).sha256, sha);
      equal((assertOk(pinned).receipt as { skill_sha256: string }).skill_sha256, sha);

      const changedBody = "Do something else now. CHANGED-BODY-MARKER";
      await Deno.writeTextFile(path, skillMd("pdf-forms", PDF_DESCRIPTION, changedBody));
      assertRefused(
        await s.call("open_skill", { name: "pdf-forms", expected_sha256: sha }),
        /^SKILL\.md changed: expected_sha256 does not match; review the current file before loading instructions$/,
        ["CHANGED-BODY-MARKER"],
      );
      // Without a pin the current file is served.
      const current = await s.call("open_skill", { name: "pdf-forms" });
      equal(assertOk(current).content, changedBody);
      equal(assertOk(current).sha256, await fileSha256(path));
      notEqual(assertOk(current).sha256, sha);

      // The catalog still lists it (cached), but the author just opted out.
      await Deno.writeTextFile(
        path,
        skillMd("pdf-forms", PDF_DESCRIPTION, changedBody, ["disable-model-invocation: true"]),
      );
      const secrets = ["CHANGED-BODY-MARKER"];
      assertRefused(
        await s.call("open_skill", { name: "pdf-forms" }),
        /disabled by its author/,
        secrets,
      );
      assertRefused(
        await s.call("open_skill", { name: "pdf-forms", expected_sha256: await fileSha256(path) }),
        /disabled by its author/,
        secrets,
      );
      const readError = await rejection(s.read("skill://pdf-forms"));
      match(readError, /disabled/);
      ok(!readError.includes("CHANGED-BODY-MARKER"));
    });
  });
});

// ---------------------------------------------------------------------------
// #85 unreadable files

Deno.test("MCP open_skill: a cached skill turned invalid UTF-8 or oversized is an error (#85)", async () => {
  await withSandbox(async (box) => {
    const dir = await catalogFixture(box);
    const other = await writeProjectSkill(
      box,
      "big-skill",
      skillMd("big-skill", "Grows beyond the limit.", "BIG-BODY"),
    );
    await withSession(box, "legacy", async (s) => {
      assertOk(await s.call("open_skill", { name: "pdf-forms" }));
      assertOk(await s.call("open_skill", { name: "big-skill" }));

      const prefix = new TextEncoder().encode(
        skillMd("pdf-forms", PDF_DESCRIPTION, "PDF-BODY-MARKER broken: "),
      );
      await Deno.writeFile(
        join(dir, "SKILL.md"),
        new Uint8Array([...prefix, 0xff, 0xfe, 0xc3, 0x28, 0x0a]),
      );
      const big = skillMd("big-skill", "Grows beyond the limit.", "BIG-BODY " + "x".repeat(131072));
      await Deno.writeTextFile(join(other, "SKILL.md"), big);

      for (const [name, skillDir] of [["pdf-forms", dir], ["big-skill", other]]) {
        const message = `skill "${name}" is no longer readable at ${join(skillDir, "SKILL.md")}`;
        const result = await s.call("open_skill", { name });
        equal(assertRefused(result, /no longer readable/, ["BIG-BODY"]), message);
        const readError = await rejection(s.read(`skill://${name}`));
        ok(readError.includes(message), readError);
        ok(!readError.includes("BODY"));
      }
    });
  });
});

// ---------------------------------------------------------------------------
// #86 resources

Deno.test("MCP resources: template, list, read, completion, disabled read rejected (#86)", async () => {
  await withSandbox(async (box) => {
    const dir = await catalogFixture(box);
    await withSession(box, "legacy", async (s) => {
      const { resourceTemplates } = await s.client.listResourceTemplates();
      equal(resourceTemplates.length, 1);
      equal(resourceTemplates[0].uriTemplate, "skill://{name}");
      equal(resourceTemplates[0].name, "skill");
      equal(resourceTemplates[0].title, "Agent Skill");
      equal(resourceTemplates[0].mimeType, "text/markdown");

      const { resources } = await s.client.listResources();
      deepEqual(
        resources
          .map(({ uri, name, description, mimeType }) => ({ uri, name, description, mimeType }))
          .sort((a, b) => a.name.localeCompare(b.name)),
        [
          {
            uri: "skill://docx-review",
            name: "docx-review",
            description: DOCX_DESCRIPTION,
            mimeType: "text/markdown",
          },
          {
            uri: "skill://pdf-forms",
            name: "pdf-forms",
            description: PDF_DESCRIPTION,
            mimeType: "text/markdown",
          },
          {
            uri: "skill://release-notes",
            name: "release-notes",
            description: NOTES_DESCRIPTION,
            mimeType: "text/markdown",
          },
        ],
      );

      const read = await s.read("skill://pdf-forms");
      deepEqual(read.contents, [{
        uri: "skill://pdf-forms",
        mimeType: "text/markdown",
        text: expectedRender("pdf-forms", dir, PDF_BODY),
      }]);

      const complete = (value: string) =>
        s.client.complete({
          ref: { type: "ref/resource", uri: "skill://{name}" },
          argument: { name: "name", value },
        });
      deepEqual((await complete("pd")).completion.values, ["pdf-forms"]);
      deepEqual((await complete("se")).completion.values, []);
      deepEqual((await complete("")).completion.values.sort(), [
        "docx-review",
        "pdf-forms",
        "release-notes",
      ]);

      const disabled = await rejection(s.read("skill://secret-ops"));
      match(disabled, /disabled/);
      ok(!disabled.includes("SECRET-BODY"));
      match(await rejection(s.read("skill://no-such-skill")), /unknown/);
    });
  });
});

// ---------------------------------------------------------------------------
// #87 #88 bundles

Deno.test("MCP open_skill: expected_bundle_sha256 and include_bundle; the opt-out still wins (#87, #88)", async () => {
  await withSandbox(async (box) => {
    const dir = await catalogFixture(box);
    const reviewed = await bundleDigest(box, dir);
    await withSession(box, "legacy", async (s) => {
      const plain = assertOk(await s.call("open_skill", { name: "pdf-forms" }));
      equal("bundle" in plain, false);
      equal((plain.receipt as { bundle_sha256: unknown }).bundle_sha256, null);

      const pinned = await s.call("open_skill", {
        name: "pdf-forms",
        expected_bundle_sha256: reviewed,
      });
      const structured = assertOk(pinned);
      const bundle = structured.bundle as {
        schema: string;
        sha256: string;
        total_bytes: number;
        files: { path: string; bytes: number; sha256: string }[];
      };
      equal(bundle.schema, "skills-anywhere-bundle-1");
      equal(bundle.sha256, reviewed);
      deepEqual(bundle.files.map((f) => f.path), ["SKILL.md", "scripts/fill.py"]);
      equal(bundle.files[0].sha256, await fileSha256(join(dir, "SKILL.md")));
      equal(bundle.total_bytes, bundle.files.reduce((sum, f) => sum + f.bytes, 0));
      equal((structured.receipt as { bundle_sha256: string }).bundle_sha256, reviewed);
      equal(structured.content, PDF_BODY);
      ok(textOf(pinned).includes(PDF_BODY));

      // Only a script changes.
      await Deno.writeTextFile(join(dir, "scripts/fill.py"), "import os; os.system('curl x')\n");
      assertRefused(
        await s.call("open_skill", { name: "pdf-forms", expected_bundle_sha256: reviewed }),
        /^Skill bundle changed: expected_bundle_sha256 does not match; review scripts and resources before loading instructions$/,
      );
      const fresh = await s.call("open_skill", { name: "pdf-forms", include_bundle: true });
      const freshDigest = (assertOk(fresh).bundle as { sha256: string }).sha256;
      notEqual(freshDigest, reviewed);
      equal(freshDigest, await bundleDigest(box, dir));
      assertOk(
        await s.call("open_skill", { name: "pdf-forms", expected_bundle_sha256: freshDigest }),
      );

      // The author opts out: a matching bundle digest does not override it.
      await Deno.writeTextFile(
        join(dir, "SKILL.md"),
        skillMd("pdf-forms", PDF_DESCRIPTION, PDF_BODY, ["disable-model-invocation: true"]),
      );
      const disabledDigest = await bundleDigest(box, dir);
      assertRefused(
        await s.call("open_skill", { name: "pdf-forms", expected_bundle_sha256: disabledDigest }),
        /disabled by its author/,
      );
      assertRefused(
        await s.call("open_skill", {
          name: "pdf-forms",
          expected_bundle_sha256: disabledDigest,
          expected_sha256: await fileSha256(join(dir, "SKILL.md")),
        }),
        /disabled by its author/,
      );
    });
  });
});

// ---------------------------------------------------------------------------
// #89 rendering escapes

Deno.test("MCP open_skill: the rendered text escapes the directory; renderSkill escapes name and tools (#89)", async () => {
  await withSandbox(async (box) => {
    const dir = await writeProjectSkill(
      box,
      "esc-skill",
      skillMd("esc-skill", "Lives in an odd folder.", "ESC-BODY"),
    );
    await withSession(box, "legacy", async (s) => {
      const opened = await s.call("open_skill", { name: "esc-skill" });
      equal(assertOk(opened).directory, dir);
      const escaped = dir.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
      ok(escaped !== dir && escaped.includes('"'));
      equal(textOf(opened), expectedRender("esc-skill", escaped, "ESC-BODY"));
      ok(textOf(opened).endsWith("</skill_content>"));
    });
  }, { projectName: 'q"uote<&>project' });

  const text = renderSkill({
    name: 'a"b<c&d>',
    directory: '/x/<&>"/y',
    content: "<raw> & verbatim",
    declaredTools: ["Bash(a<b&c)"],
  });
  equal(
    text,
    [
      '<skill_content name="a&quot;b&lt;c&amp;d&gt;">',
      "<skill_resources>",
      'Base directory for this skill: /x/&lt;&amp;&gt;"/y',
      RESOLVE_SENTENCE,
      "</skill_resources>",
      "",
      "<skill_author_declared_tools>",
      "The author declared this skill needs only: Bash(a&lt;b&amp;c).",
      "This server cannot restrict your tools. Treat anything beyond that list as outside what the author asked for.",
      "</skill_author_declared_tools>",
      "",
      "<skill_instructions>",
      "<raw> & verbatim",
      "</skill_instructions>",
      "</skill_content>",
    ].join("\n"),
  );
});

// ---------------------------------------------------------------------------
// #93 declared tools

Deno.test("MCP open_skill: declared_tools only with allowed-tools, with its text block (#93)", async () => {
  await withSandbox(async (box) => {
    const toolsDir = await writeProjectSkill(
      box,
      "tool-user",
      skillMd("tool-user", "Declares its tools.", "TOOLS-BODY", [
        "allowed-tools: Read Grep Bash(git:*)",
      ]),
    );
    await writeProjectSkill(
      box,
      "empty-tools",
      skillMd("empty-tools", "Declares an empty list.", "EMPTY-BODY", ['allowed-tools: ""']),
    );
    await writeProjectSkill(
      box,
      "no-tools",
      skillMd("no-tools", "Declares nothing.", "NO-BODY"),
    );
    await withSession(box, "legacy", async (s) => {
      const withTools = await s.call("open_skill", { name: "tool-user" });
      const structured = assertOk(withTools);
      deepEqual(structured.declared_tools, ["Read", "Grep", "Bash(git:*)"]);
      deepEqual((structured.receipt as { declared_tools: unknown }).declared_tools, [
        "Read",
        "Grep",
        "Bash(git:*)",
      ]);
      equal(
        textOf(withTools),
        expectedRender("tool-user", toolsDir, "TOOLS-BODY", "Read, Grep, Bash(git:*)"),
      );

      for (const name of ["empty-tools", "no-tools"]) {
        const result = await s.call("open_skill", { name });
        const plain = assertOk(result);
        equal("declared_tools" in plain, false, name);
        equal((plain.receipt as { declared_tools: unknown }).declared_tools, null);
        ok(!textOf(result).includes("<skill_author_declared_tools>"));
      }
    });
  });
});

// ---------------------------------------------------------------------------
// #90 #91 receipts and source_commit

const RECEIPT_KEYS = [
  "bundle_sha256",
  "content_sha256",
  "declared_tools",
  "load_id",
  "loaded_at",
  "name",
  "permissions_enforced",
  "provider",
  "provider_version",
  "schema",
  "skill_sha256",
  "source_commit",
];

Deno.test("MCP open_skill: the receipt of an agent-directory skill; exported openSkill has no source_commit (#90)", async () => {
  await withSandbox(async (box) => {
    const dir = await catalogFixture(box);
    const path = join(dir, "SKILL.md");
    const stderr = await withSession(box, "legacy", async (s) => {
      const first = assertOk(await s.call("open_skill", { name: "pdf-forms" }));
      const second = assertOk(await s.call("open_skill", { name: "pdf-forms" }));
      const receipt = first.receipt as Record<string, unknown>;
      deepEqual(Object.keys(receipt).sort(), RECEIPT_KEYS);
      equal(receipt.schema, "skills-anywhere-load-1");
      match(receipt.load_id as string, UUID);
      notEqual(receipt.load_id, (second.receipt as { load_id: string }).load_id);
      equal(new Date(receipt.loaded_at as string).toISOString(), receipt.loaded_at);
      ok(Math.abs(Date.parse(receipt.loaded_at as string) - Date.now()) < 60_000);
      equal(receipt.provider, "dsh-skills-anywhere");
      equal(receipt.provider_version, "0.9.0");
      equal(receipt.name, "pdf-forms");
      equal(receipt.skill_sha256, await fileSha256(path));
      equal(receipt.content_sha256, sha256Hex(first.content as string));
      equal(receipt.bundle_sha256, null);
      equal(receipt.declared_tools, null);
      equal(receipt.permissions_enforced, false);
      equal(receipt.source_commit, null);
      const serialized = JSON.stringify(receipt);
      ok(!serialized.includes("PDF-BODY") && !serialized.includes(dir), serialized);

      const wrongPin = await s.call("open_skill", {
        name: "pdf-forms",
        expected_source_commit: "a".repeat(40),
      });
      assertRefused(wrongPin, /is not from a Git source/);
    });
    equal(count(stderr, UNAVAILABLE), 0, stderr);

    const exported = await openSkill({
      name: "pdf-forms",
      path,
      directory: dir,
      source: "anywhere-project",
      origin: { kind: "agent", agent: "claude-code", scope: "project" },
    }, { lenient: true });
    ok(exported.ok);
    deepEqual(
      Object.keys(exported.skill.receipt).sort(),
      RECEIPT_KEYS.filter((k) => k !== "source_commit"),
    );
  });
});

Deno.test("MCP open_skill: a Git-source receipt names the checkout HEAD and follows sync; expected_source_commit (#90, #91)", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    const gitCalls = await logGitCalls(box);
    const PROBE = " rev-parse --verify --quiet HEAD^{commit}";
    const probes = async () => (await gitCalls()).filter((line) => line.endsWith(PROBE)).length;
    const upstream = join(box.root, "upstream");
    const first = await gitRepo(box, upstream, {
      "skills/git-notes/SKILL.md": skillMd("git-notes", "Notes kept in Git.", "GIT-BODY-ONE"),
      "skills/git-notes/scripts/run.sh": "echo one\n",
    });
    const added = await cli(box, ["add", upstream]);
    equal(added.code, 0, added.stderr);
    const cacheDir = join(box.dshHome, "skills-anywhere", "cache");
    const checkout = resolveSource(upstream, cacheDir).dir;
    const skillDir = join(checkout, "skills", "git-notes");
    equal(await git(box, checkout, "rev-parse", "HEAD"), first);

    const stderr = await withSession(box, "legacy", async (s) => {
      const listed = assertOk(await s.call("list_skills")) as {
        skills: { name: string; source: string }[];
      };
      deepEqual(
        listed.skills.find((skill) => skill.name === "git-notes")?.source,
        `git ${upstream}`,
      );

      const opened = assertOk(await s.call("open_skill", { name: "git-notes" }));
      equal(opened.directory, skillDir);
      equal(opened.source, "anywhere-source");
      const receipt = opened.receipt as Record<string, unknown>;
      deepEqual(Object.keys(receipt).sort(), RECEIPT_KEYS);
      match(receipt.source_commit as string, SHA40);
      equal(receipt.source_commit, first);

      const agreed = assertOk(
        await s.call("open_skill", { name: "git-notes", expected_source_commit: first }),
      );
      equal((agreed.receipt as { source_commit: string }).source_commit, first);

      const other = "0123456789abcdef0123456789abcdef01234567";
      const changed = assertRefused(
        await s.call("open_skill", { name: "git-notes", expected_source_commit: other }),
        /^Git source commit changed for "git-notes"/,
        ["GIT-BODY"],
      );
      ok(changed.includes(other) && changed.includes(first), changed);

      for (const malformed of [first.slice(0, 7), first.toUpperCase()]) {
        const result = await s.call("open_skill", {
          name: "git-notes",
          expected_source_commit: malformed,
        });
        const text = assertRefused(
          result,
          /must be a full 40-character lowercase Git commit/,
          ["GIT-BODY"],
        );
        ok(text.includes("expected_source_commit"), text);
      }
      assertRefused(
        await s.call("open_skill", { name: "pdf-forms", expected_source_commit: first }),
        /is not from a Git source/,
      );

      // A rejected digest is reported first and runs no git.
      const before = await probes();
      ok(before >= 3, `the probe ran for the successful loads (${before})`);
      assertRefused(
        await s.call("open_skill", {
          name: "git-notes",
          expected_sha256: "0".repeat(64),
          expected_source_commit: other,
        }),
        /^SKILL\.md changed/,
        ["GIT-BODY"],
      );
      assertRefused(
        await s.call("open_skill", {
          name: "git-notes",
          expected_bundle_sha256: "0".repeat(64),
          expected_source_commit: first,
        }),
        /^Skill bundle changed/,
        ["GIT-BODY"],
      );
      equal(await probes(), before, "git ran for a rejected digest");

      // Agent-directory skills never run git.
      assertOk(await s.call("open_skill", { name: "pdf-forms" }));
      equal(await probes(), before);
    });
    equal(count(stderr, UNAVAILABLE), 0, stderr);

    // A new upstream commit, synced forward: the receipt follows.
    const second = await gitCommit(box, upstream, {
      "skills/git-notes/SKILL.md": skillMd("git-notes", "Notes kept in Git.", "GIT-BODY-TWO"),
    });
    const synced = await cli(box, ["sync"]);
    equal(synced.code, 0, synced.stderr + synced.stdout);
    equal(await git(box, checkout, "rev-parse", "HEAD"), second);
    await withSession(box, "legacy", async (s) => {
      const opened = assertOk(await s.call("open_skill", { name: "git-notes" }));
      equal(opened.content, "GIT-BODY-TWO");
      equal((opened.receipt as { source_commit: string }).source_commit, second);
      const stale = assertRefused(
        await s.call("open_skill", { name: "git-notes", expected_source_commit: first }),
        /^Git source commit changed for "git-notes"/,
        ["GIT-BODY"],
      );
      ok(stale.includes(first) && stale.includes(second), stale);
    });

    // The upstream is reset to the first commit and synced again.
    await git(box, upstream, "reset", "-q", "--hard", first);
    const reset = await cli(box, ["sync"]);
    equal(reset.code, 0, reset.stderr + reset.stdout);
    equal(await git(box, checkout, "rev-parse", "HEAD"), first);
    await withSession(box, "legacy", async (s) => {
      const opened = assertOk(
        await s.call("open_skill", { name: "git-notes", expected_source_commit: first }),
      );
      equal(opened.content, "GIT-BODY-ONE");
      equal((opened.receipt as { source_commit: string }).source_commit, first);
    });
  });
});

Deno.test("MCP open_skill: an enclosing repository is never reported as the source commit (#91)", async () => {
  await withSandbox(async (box) => {
    // HOME (and with it DSH_HOME and the source cache) lives inside an outer repository.
    await gitRepo(box, box.home, { "README.md": "outer repository\n" });
    const missing = join(box.root, "missing-upstream");
    const stateDir = join(box.dshHome, "skills-anywhere");
    await writeTree(stateDir, {
      "sources.json": JSON.stringify({ sources: [{ repo: missing }] }) + "\n",
    });
    const checkout = resolveSource(missing, join(stateDir, "cache")).dir;
    const stderr = await withSession(box, "legacy", async (s) => {
      // The background sync tries to clone the missing upstream and fails; only then
      // do we put a checkout without its own `.git` into the cache.
      const failed = () => s.stderr().includes("failed");
      const deadline = Date.now() + 15_000;
      while (!failed() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      ok(failed(), `no failed sync reported: ${s.stderr()}`);
      await writeTree(checkout, {
        "skills/outer-skill/SKILL.md": skillMd("outer-skill", "Copied in by hand.", "OUTER-BODY"),
      });

      const opened = assertOk(await s.call("open_skill", { name: "outer-skill" }));
      equal(opened.content, "OUTER-BODY");
      equal((opened.receipt as { source_commit: unknown }).source_commit, null);
      const until = Date.now() + 5000;
      while (!s.stderr().includes(UNAVAILABLE) && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 20));
      }
      equal(count(s.stderr(), UNAVAILABLE), 1, s.stderr());
      ok(s.stderr().includes(`skills-anywhere: ${UNAVAILABLE} for outer-skill: `), s.stderr());

      assertRefused(
        await s.call("open_skill", {
          name: "outer-skill",
          expected_source_commit: "b".repeat(40),
        }),
        /could not be proven/,
        ["OUTER-BODY"],
      );
    });
    equal(count(stderr, UNAVAILABLE), 2, stderr);
    ok(!stderr.includes(await git(box, box.home, "rev-parse", "HEAD")), stderr);
  });
});

// ---------------------------------------------------------------------------
// Lifecycle and raw protocol (SPEC §6, §10; REF §8.7)

Deno.test("MCP lifecycle: stdin EOF before any message exits 0 with empty stdout (#92)", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    const server = new RawServer(box);
    const done = await server.finish();
    equal(done.code, 0, done.stderr);
    equal(done.signal, null);
    deepEqual(done.stdout, []);
  });
});

Deno.test("MCP lifecycle: SIGTERM and SIGINT exit 0", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    await Promise.all((["SIGTERM", "SIGINT"] as const).map(async (signal) => {
      const server = new RawServer(box);
      const init = await server.initialize(1);
      equal((init.result?.serverInfo as { name: string }).name, "dsh-skills-anywhere");
      const listed = await server.request(2, "tools/list");
      equal((listed.result?.tools as unknown[]).length, 3);
      server.kill(signal);
      const done = await server.finish({ keepStdin: true });
      equal(done.code, 0, `${signal}: ${done.stderr}`);
      equal(done.signal, null, signal);
      for (const line of done.stdout) equal(JSON.parse(line).jsonrpc, "2.0");
    }));
  });
});

Deno.test("MCP protocol: garbage, non-JSON-RPC, unknown methods and bad arguments get errors; serving goes on", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    await withRawServer(box, async (server) => {
      await server.send("this is not json");
      const parse = await server.waitFor((m) => m.error?.code === -32700);
      equal(parse.id, null);
      equal(parse.jsonrpc, "2.0");

      const init = await server.initialize(1);
      equal(init.result?.protocolVersion, "2025-11-25");
      match(init.result?.instructions as string, /find_skills/);

      await server.send({ hello: "world", id: 7 });
      const invalid = await server.waitFor((m) => m.error?.code === -32600);
      equal(invalid.id, 7);
      await server.send("[1, 2, 3]");
      await server.waitFor((m) => m.error?.code === -32600 && m.id === null);

      const unknown = await server.request(2, "skills/teleport");
      equal(unknown.error?.code, -32601);

      const badName = await server.request(3, "tools/call", {
        name: "open_skill",
        arguments: { name: 42 },
      });
      equal(badName.error, undefined);
      equal(badName.result?.isError, true);
      const badText = (badName.result?.content as { text: string }[])[0].text;
      match(badText, /^Input validation error/);
      ok(badText.includes("name"));

      const badLimit = await server.request(4, "tools/call", {
        name: "list_skills",
        arguments: { limit: 0 },
      });
      equal(badLimit.result?.isError, true);
      match((badLimit.result?.content as { text: string }[])[0].text, /^Input validation error/);

      const badDigest = await server.request(5, "tools/call", {
        name: "open_skill",
        arguments: { name: "pdf-forms", expected_sha256: "ABC" },
      });
      equal(badDigest.result?.isError, true);
      const digestText = (badDigest.result?.content as { text: string }[])[0].text;
      match(digestText, /^Input validation error/);
      ok(!digestText.includes("PDF-BODY"));

      // Garbage in the middle of a session: answered, and the next request still is.
      await server.send("{ broken json");
      await server.waitFor((m) => m.error?.code === -32700 && m.id === null);
      const after = await server.request(6, "tools/call", {
        name: "open_skill",
        arguments: { name: "pdf-forms" },
      });
      equal(after.result?.isError, undefined);
      match((after.result?.content as { text: string }[])[0].text, /PDF-BODY-MARKER/);

      const done = await server.finish();
      equal(done.code, 0, done.stderr);
      // stdout carries nothing but JSON-RPC.
      for (const line of done.stdout) equal(JSON.parse(line).jsonrpc, "2.0", line);
      equal(done.stdout.filter((l) => JSON.parse(l).error?.code === -32700).length, 2);
    });
  });
});

Deno.test("MCP lifecycle: requests piped before EOF are all answered, then exit 0", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    const { command, args, env, cwd } = serverParams(box);
    const child = new Deno.Command(command, {
      args,
      env,
      cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const lines = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "pipe", version: "1" },
        },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      {
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: {
          name: "find_skills",
          arguments: { query: "pdf" },
        },
      },
    ].map((message) => JSON.stringify(message)).join("\n") + "\n";
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(lines));
    await writer.close();
    const output = await child.output();
    equal(output.code, 0, new TextDecoder().decode(output.stderr));
    const responses = new TextDecoder().decode(output.stdout).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    deepEqual(responses.map((r) => r.id).sort(), [1, 2]);
    ok(responses.every((r) => r.error === undefined));
  });
});
