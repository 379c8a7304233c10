// End-to-end tests of open_skill and the skill:// file resources (SEP-2640): rendering,
// refusals (unknown, invalid, disabled, unreadable), the fresh author opt-out,
// the SKILL.md and bundle pins, escaping and declared tools, against the real
// `main.ts mcp` child driven by the SDK 2 client.
import { deepEqual, equal, match, notEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { MAX_SKILL_READ_BYTES } from "../lib/limits.ts";
import {
  assertOk,
  assertRefused,
  catalogFixture,
  DOCX_DESCRIPTION,
  expectedRender,
  NOTES_DESCRIPTION,
  PDF_BODY,
  PDF_DESCRIPTION,
} from "./mcp_fixture.ts";
import {
  bundleDigest,
  fileSha256,
  rejection,
  skillMd,
  textOf,
  withRawServer,
  withSandbox,
  withSession,
  writeProjectSkill,
} from "./mcp_helpers.ts";

// ---------------------------------------------------------------------------
// Open_skill rendering, refusals, late installs

Deno.test("MCP open_skill: renders, refuses unknown/invalid/disabled, finds late installs", async () => {
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
        /^skill "no-such-skill" is unknown or no longer available; search with find_skills$/,
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
      const read = await s.read("skill://late-skill/SKILL.md");
      equal(read.contents[0].text, skillMd("late-skill", "Installed a moment ago.", "LATE-BODY"));
    });
  });
});

Deno.test("MCP find_skills and list_skills see a skill installed right after a scan, and one removed", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    await withSession(box, "legacy", async (s) => {
      // Scan (and cache) the catalog, then install a skill at once: no rescan has happened yet.
      assertOk(await s.call("list_skills"));
      const late = await writeProjectSkill(
        box,
        "zebra-stripes",
        skillMd("zebra-stripes", "Paint zebra stripes on diagrams.", "ZEBRA-BODY"),
      );
      const found = assertOk(await s.call("find_skills", { query: "zebra" }));
      deepEqual((found.matches as { name: string }[]).map((m) => m.name), ["zebra-stripes"]);
      const listed = assertOk(await s.call("list_skills"));
      ok(JSON.stringify(listed).includes("zebra-stripes"));
      await Deno.remove(late, { recursive: true });
      const gone = assertOk(await s.call("find_skills", { query: "zebra" }));
      deepEqual(gone.matches, []);
    });
  });
});

Deno.test("MCP open_skill: a skill skipped by discovery (over 1 MiB, not UTF-8) is refused as such, never unknown", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    const huge = "Step.\n".repeat(Math.ceil((MAX_SKILL_READ_BYTES + 1) / 6));
    await writeProjectSkill(box, "huge-skill", skillMd("huge-skill", "Too big.", huge));
    await writeProjectSkill(box, "latin1-skill", new TextDecoder().decode(new Uint8Array([0x41])));
    await Deno.writeFile(
      join(box.project, ".claude", "skills", "latin1-skill", "SKILL.md"),
      new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0x6e, 0x61, 0x6d, 0x65, 0x3a, 0x20, 0xe9, 0x0a]),
    );
    const stderr = await withSession(box, "legacy", async (s) => {
      assertRefused(
        await s.call("open_skill", { name: "huge-skill" }),
        /^skill "huge-skill" is not served: its file was skipped \(too-large\); the server's log says why$/,
      );
      assertRefused(
        await s.call("open_skill", { name: "latin1-skill" }),
        /^skill "latin1-skill" is not served: its file was skipped \(not-utf8\); the server's log says why$/,
      );
      assertRefused(await s.call("open_skill", { name: "never-there" }), /is unknown/);
    });
    ok(
      /open_skill "huge-skill": .*huge-skill\/SKILL\.md: .*larger than 1 MiB/.test(stderr),
      stderr,
    );
  });
});

// ---------------------------------------------------------------------------
// Fresh opt-out, expected_sha256

Deno.test("MCP open_skill: expected_sha256 and a fresh author opt-out beat the cache", async () => {
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
      // The author's opt-out is read fresh: the file is not served.
      const readError = await rejection(s.read("skill://pdf-forms/SKILL.md"));
      ok(!readError.includes("CHANGED-BODY-MARKER"));
    });
  });
});

// ---------------------------------------------------------------------------
// Unreadable files

Deno.test("MCP open_skill: a cached skill turned invalid UTF-8 or oversized is an error", async () => {
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
      const big = skillMd(
        "big-skill",
        "Grows beyond the limit.",
        "BIG-BODY " + "x".repeat(MAX_SKILL_READ_BYTES),
      );
      await Deno.writeTextFile(join(other, "SKILL.md"), big);

      // The live catalog may already have seen the change (the file is then skipped, with its
      // kind), or not yet (the fresh read refuses it): either way a refusal without content.
      const kinds: Record<string, string> = { "pdf-forms": "not-utf8", "big-skill": "too-large" };
      for (const [name, skillDir] of [["pdf-forms", dir], ["big-skill", other]]) {
        const stale = `skill "${name}" is no longer readable at ${join(skillDir, "SKILL.md")}`;
        const seen = `skill "${name}" is not served: its file was skipped (${kinds[name]}); ` +
          "the server's log says why";
        const result = await s.call("open_skill", { name });
        const text = assertRefused(result, /no longer readable|its file was skipped/, ["BIG-BODY"]);
        ok(text === stale || text === seen, text);
        // Broken before the skills were first listed: not offered at all.
        const readError = await rejection(s.read(`skill://${name}/SKILL.md`));
        ok(!readError.includes("BODY"), readError);
      }
    });
  });
});

// ---------------------------------------------------------------------------
// Resources

Deno.test("MCP resources: the SEP-2640 template, one listed SKILL.md per skill, exact bytes, disabled read rejected", async () => {
  await withSandbox(async (box) => {
    const dir = await catalogFixture(box);
    await withSession(box, "legacy", async (s) => {
      const { resourceTemplates } = await s.client.listResourceTemplates();
      deepEqual(resourceTemplates.map((t) => [t.uriTemplate, t.name]), [
        ["skill://{+path}", "io.modelcontextprotocol/skills"],
      ]);

      const { resources } = await s.client.listResources();
      deepEqual(
        resources.map(({ uri, name, description, mimeType }) => ({
          uri,
          name,
          description,
          mimeType,
        })),
        [
          {
            uri: "skill://docx-review/SKILL.md",
            name: "docx-review",
            description: DOCX_DESCRIPTION,
            mimeType: "text/markdown",
          },
          {
            uri: "skill://pdf-forms/SKILL.md",
            name: "pdf-forms",
            description: PDF_DESCRIPTION,
            mimeType: "text/markdown",
          },
          {
            uri: "skill://release-notes/SKILL.md",
            name: "release-notes",
            description: NOTES_DESCRIPTION,
            mimeType: "text/markdown",
          },
        ],
      );

      const read = await s.read("skill://pdf-forms/SKILL.md");
      deepEqual(read.contents, [{
        uri: "skill://pdf-forms/SKILL.md",
        mimeType: "text/markdown",
        text: await Deno.readTextFile(join(dir, "SKILL.md")),
      }]);
      // The skill's folder is a directory resource, not a file.
      match(await rejection(s.read("skill://pdf-forms")), /is a directory/);

      const disabled = await rejection(s.read("skill://secret-ops/SKILL.md"));
      ok(!disabled.includes("SECRET-BODY"));
      match(await rejection(s.read("skill://no-such-skill/SKILL.md")), /not found/i);
    });
  });
});

Deno.test("MCP resources: an unknown or disabled skill:// read is -32602 with data.uri; each item has its own title", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    await withRawServer(box, async (server) => {
      await server.initialize();
      const uris = ["skill://no-such-skill/SKILL.md", "skill://secret-ops/SKILL.md"];
      for (const [id, uri] of [[1, uris[0]], [2, uris[1]]] as const) {
        const reply = await server.request(id, "resources/read", { uri });
        const error = reply.error as { code: number; message: string; data?: { uri?: string } };
        equal(error.code, -32602, JSON.stringify(reply));
        equal(error.data?.uri, uri);
        ok(!error.message.includes("SECRET-BODY"));
      }
      const listed = await server.request(3, "resources/list");
      const resources = (listed.result as { resources: { name: string; title?: string }[] })
        .resources;
      ok(resources.length >= 3);
      for (const resource of resources) equal(resource.title, resource.name);
    });
  });
});

// ---------------------------------------------------------------------------
// Bundles

Deno.test("MCP open_skill: expected_bundle_sha256 and include_bundle; the opt-out still wins", async () => {
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
// Rendering escapes

Deno.test("MCP open_skill: the rendered text escapes the directory", async () => {
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
});

// ---------------------------------------------------------------------------
// Declared tools

Deno.test("MCP open_skill: declared_tools only with allowed-tools, with its text block", async () => {
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
