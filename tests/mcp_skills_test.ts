// End-to-end tests of the MCP Skills extension (SEP-2640) over stdio: the real `main.ts mcp`
// child driven by the SDK 2 client's SkillsClient (list, get, read with digest checks,
// directories), raw JSON lines for error codes, and hostile cases first: a file swapped after
// listing, a symlink inside a skill, `..` and encoded slashes, a disabled skill, a file not in
// the entry. The entries are compared with `bundle --json` on real public skills.
import { deepEqual, equal, match, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { SkillsClient, SkillVerificationError } from "@modelcontextprotocol/client/ext/skills";
import { SKILL_LIMITS } from "@modelcontextprotocol/server/ext/skills";
import { DigestCache } from "../lib/bundle/_digests.ts";
import { readBundle } from "../lib/bundle/_read.ts";
import { BUNDLE_LIMITS } from "../lib/bundle/_manifest.ts";
import { MAX_SHARED_SKILL_BYTES } from "../lib/limits.ts";
import { catalogFixture, PDF_DESCRIPTION } from "./mcp_fixture.ts";
import {
  cli,
  type Sandbox,
  type Session,
  skillMd,
  withRawServer,
  withSandbox,
  withSession,
  writeProjectSkill,
} from "./mcp_helpers.ts";
import { settlesWithin, writeTree } from "./helpers.ts";

type Client = ConstructorParameters<typeof SkillsClient>[0];
const skillsOf = (s: Session) => new SkillsClient(s.client as unknown as Client);

/** What `bundle --json` reports for a directory: path → [size, sha256]. */
async function bundleRows(box: Sandbox, dir: string): Promise<Record<string, [number, string]>> {
  const run = await cli(box, ["bundle", "--json", dir]);
  equal(run.code, 0, run.stderr);
  const files = (JSON.parse(run.stdout) as {
    files: { path: string; bytes: number; sha256: string }[];
  }).files;
  return Object.fromEntries(files.map((f) => [f.path, [f.bytes, f.sha256]]));
}

/** The same rows from an entry: file path under its root → [size, hex digest]. */
function entryRows(entry: { uri: string; resources: unknown }) {
  const root = entry.uri.slice(0, -"SKILL.md".length);
  const resources = entry.resources as { uri: string; digest: string; size: number }[];
  return Object.fromEntries(resources.map((r) => [
    decodeURIComponent(r.uri.slice(root.length)),
    [r.size, r.digest.replace(/^sha256:/, "")],
  ]));
}

// ---------------------------------------------------------------------------
// Hostile cases

Deno.test("MCP skills: a file swapped after listing is served fresh once seen, and a client holding the old digest refuses it", async () => {
  await withSandbox(async (box) => {
    const dir = await catalogFixture(box);
    await withSession(box, "auto", async (s) => {
      const skills = skillsOf(s);
      const { skills: entries } = await skills.list();
      const pdf = entries.find((e) => e.uri === "skill://pdf-forms/SKILL.md")!;
      equal((await skills.read(pdf, "scripts/fill.py")).text, "print('fill')\n");
      const client = s.client as unknown as Client;
      const changed = new Promise<void>((resolve) =>
        client.setNotificationHandler("notifications/resources/list_changed", () => resolve())
      );
      const subscription = await client.listen({ resourcesListChanged: true });
      // Same size, other bytes: the live catalog sees it and says so.
      await Deno.writeTextFile(join(dir, "scripts/fill.py"), "print('evil')\n");
      await settlesWithin(changed, 10_000);
      await subscription.close();
      // The old entry's digest no longer matches what is served: its holder refuses the bytes.
      await rejects(skills.read(pdf, "scripts/fill.py"), SkillVerificationError);
      // The server serves only bytes it verified again against the fresh listing.
      equal(
        (await s.read("skill://pdf-forms/scripts/fill.py")).contents[0].text,
        "print('evil')\n",
      );
      // Listed again: the new digest is published and the file verifies.
      const again = (await skills.list()).skills.find((e) => e.uri === pdf.uri)!;
      equal((await skills.read(again, "scripts/fill.py")).text, "print('evil')\n");
    });
  });
});

Deno.test("MCP skills: a symlink inside a skill keeps the skill out; bad URIs are -32602 with data.uri", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    const linked = await writeProjectSkill(box, "linked", skillMd("linked", "Has a link.", "L"));
    await Deno.writeTextFile(join(box.home, "secret.txt"), "TOP-SECRET\n");
    await Deno.symlink(join(box.home, "secret.txt"), join(linked, "notes.txt"));
    const stderr = await withRawServer(box, async (server) => {
      await server.initialize();
      const listed = await server.request(1, "skills/list");
      const uris = (listed.result as { skills: { uri: string }[] }).skills.map((e) => e.uri);
      deepEqual(uris, [
        "skill://docx-review/SKILL.md",
        "skill://pdf-forms/SKILL.md",
        "skill://release-notes/SKILL.md",
      ]);
      const bad = [
        "skill://linked/SKILL.md",
        "skill://linked/notes.txt",
        "skill://secret-ops/SKILL.md",
        "skill://pdf-forms/../secret-ops/SKILL.md",
        "skill://pdf-forms/%2E%2E/%2E%2E/secret.txt",
        "skill://pdf-forms/scripts%2Ffill.py",
        "skill://pdf-forms/not-listed.md",
        "skill://pdf-forms/../../../etc/passwd",
        "skill://no-such-skill/SKILL.md",
      ];
      let id = 10;
      for (const uri of bad) {
        const reply = await server.request(++id, "resources/read", { uri });
        const error = reply.error as { code: number; message: string; data?: { uri?: string } };
        equal(error?.code, -32602, `${uri}: ${JSON.stringify(reply)}`);
        // The SDK answers with the URI as parsed (`..` segments resolved inside the authority).
        equal(error.data?.uri, new URL(uri).href);
        ok(!JSON.stringify(reply).includes("SECRET"));
      }
      for (const uri of ["skill://linked/SKILL.md", "skill://secret-ops/SKILL.md"]) {
        const reply = await server.request(++id, "skills/get", { uri });
        equal((reply.error as { code: number }).code, -32602, JSON.stringify(reply));
      }
      return (await server.finish()).stderr;
    });
    match(stderr, /skill "linked" is not offered as an MCP skill: Bundle links are not supported/);
  });
});

Deno.test("MCP skills: the SKILL.md of a skill the author disabled after listing is not served", async () => {
  await withSandbox(async (box) => {
    const dir = await catalogFixture(box);
    await withSession(box, "auto", async (s) => {
      const skills = skillsOf(s);
      const pdf = (await skills.list()).skills.find((e) => e.uri === "skill://pdf-forms/SKILL.md")!;
      await Deno.writeTextFile(
        join(dir, "SKILL.md"),
        skillMd("pdf-forms", PDF_DESCRIPTION, "PDF-BODY-MARKER", [
          "disable-model-invocation: true",
        ]),
      );
      const message = await skills.read(pdf).then(() => "served", (e: Error) => e.message);
      ok(!message.includes("PDF-BODY-MARKER") && message !== "served", message);
    });
  });
});

// ---------------------------------------------------------------------------
// The happy path

Deno.test("MCP skills: capability, list, get, read every file with digests, directories", async () => {
  await withSandbox(async (box) => {
    const pdf = await catalogFixture(box);
    await writeTree(pdf, { "assets/logo.bin": new Uint8Array([0, 255, 1, 254]) });
    for (const kind of ["auto", "pin", "legacy"] as const) {
      await withSession(box, kind, async (s) => {
        const skills = skillsOf(s);
        ok(skills.supported, kind);
        ok(skills.directoryRead, kind);
        const listing = await skills.list();
        deepEqual(listing.invalid, []);
        deepEqual(listing.skills.map((e) => e.uri), [
          "skill://docx-review/SKILL.md",
          "skill://pdf-forms/SKILL.md",
          "skill://release-notes/SKILL.md",
        ]);
        if (kind === "pin") deepEqual([listing.ttlMs, listing.cacheScope], [0, "private"]);
        for (const entry of listing.skills) {
          for (const resource of entry.resources as { uri: string }[]) {
            const file = await skills.read(entry, resource.uri);
            ok(file.verified, resource.uri);
          }
          const got = await skills.get(entry.uri);
          deepEqual(got.skill, entry);
        }
        const entry = listing.skills[1];
        const skillMdFile = await skills.read(entry);
        equal(skillMdFile.mimeType, "text/markdown");
        equal(skillMdFile.frontmatter?.name, "pdf-forms");
        const logo = await skills.read(entry, "assets/logo.bin");
        deepEqual([...logo.bytes], [0, 255, 1, 254]);
        equal(logo.text, undefined);
        deepEqual(entryRows(entry), await bundleRows(box, pdf));
        const root = await skills.readDirectory("skill://pdf-forms");
        deepEqual(root.resources.map((r) => [r.uri, r.mimeType]), [
          ["skill://pdf-forms/SKILL.md", "text/markdown"],
          ["skill://pdf-forms/assets", "inode/directory"],
          ["skill://pdf-forms/scripts", "inode/directory"],
        ]);
        const scripts = await skills.readDirectory("skill://pdf-forms/scripts");
        deepEqual(scripts.resources.map((r) => r.name), ["fill.py"]);
        // An unlisted file is refused by the client before any request.
        await rejects(skills.read(entry, "nope.md"), SkillVerificationError);
      });
    }
  });
});

Deno.test("MCP skills: resources/list names each SKILL.md with its own title; the v1 client reads files", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    await withSession(box, "sdk1", async (s) => {
      const { resources } = await s.client.listResources();
      deepEqual(resources.map((r) => [r.uri, r.name, r.mimeType]), [
        ["skill://docx-review/SKILL.md", "docx-review", "text/markdown"],
        ["skill://pdf-forms/SKILL.md", "pdf-forms", "text/markdown"],
        ["skill://release-notes/SKILL.md", "release-notes", "text/markdown"],
      ]);
      const read = await s.read("skill://pdf-forms/scripts/fill.py");
      equal(read.contents[0].text, "print('fill')\n");
    });
  });
});

Deno.test("MCP skills: a renamed collision is served under its prefix with its frontmatter name", async () => {
  await withSandbox(async (box) => {
    await writeProjectSkill(box, "configure", skillMd("configure", "Project configure.", "P"));
    await writeTree(join(box.home, ".codex", "skills", "configure"), {
      "SKILL.md": skillMd("configure", "Codex configure.", "C"),
    });
    await withSession(box, "auto", async (s) => {
      const skills = skillsOf(s);
      const uris = (await skills.list()).skills.map((e) => [e.uri, e.frontmatter.description]);
      deepEqual(uris, [
        ["skill://codex/configure/SKILL.md", "Codex configure."],
        ["skill://configure/SKILL.md", "Project configure."],
      ]);
      const { resources } = await s.client.listResources();
      const titles = resources.map((r) => [r.uri, r.name, (r as { title?: string }).title]);
      deepEqual(titles, [
        ["skill://codex/configure/SKILL.md", "configure", "codex-configure"],
        ["skill://configure/SKILL.md", "configure", "configure"],
      ]);
    });
  });
});

Deno.test("MCP skills: entries equal bundle --json on real public skills (testdata/dedupe)", async () => {
  await withSandbox(async (box) => {
    const source = join(Deno.cwd(), "testdata", "dedupe", "webapp-testing");
    const dir = join(box.project, ".claude", "skills", "webapp-testing");
    await Deno.mkdir(join(box.project, ".claude", "skills"), { recursive: true });
    await new Deno.Command("cp", { args: ["-R", source, dir] }).output();
    await withSession(box, "auto", async (s) => {
      const skills = skillsOf(s);
      const entry = (await skills.list()).skills[0];
      equal(entry.uri, "skill://webapp-testing/SKILL.md");
      deepEqual(entryRows(entry), await bundleRows(box, dir));
      for (const resource of entry.resources as { uri: string }[]) {
        ok((await skills.read(entry, resource.uri)).verified);
      }
    });
  });
});

Deno.test("MCP skills: a skill installed while serving sends resources/list_changed and is listed", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    await withRawServer(box, async (server) => {
      await server.initialize();
      const before = await server.request(1, "skills/list");
      equal((before.result as { skills: unknown[] }).skills.length, 3);
      await writeProjectSkill(box, "late-skill", skillMd("late-skill", "Installed late.", "L"));
      const after = await server.request(2, "skills/list");
      const uris = (after.result as { skills: { uri: string }[] }).skills.map((e) => e.uri);
      ok(uris.includes("skill://late-skill/SKILL.md"), JSON.stringify(uris));
      const note = await server.waitFor((m) => m.method === "notifications/resources/list_changed");
      equal(note.id, undefined);
    });
  });
});

// ---------------------------------------------------------------------------
// The digest cache and the limits

Deno.test("digest cache: a second read of a directory reads only the file that changed", async () => {
  await withSandbox(async (box) => {
    const dir = await catalogFixture(box);
    const digests = new DigestCache({ settleMs: 0 });
    const first = await readBundle(dir, { digests });
    deepEqual([digests.hits, digests.misses], [0, 2]);
    const warm = await readBundle(dir, { digests });
    deepEqual([digests.hits, digests.misses], [2, 2]);
    deepEqual(warm.manifest, first.manifest);
    deepEqual(warm.skillBytes, first.skillBytes);
    await Deno.writeTextFile(join(dir, "scripts/fill.py"), "print('changed')\n");
    const changed = await readBundle(dir, { digests });
    deepEqual([digests.hits, digests.misses], [3, 3]);
    deepEqual(changed.manifest, (await readBundle(dir)).manifest);
  });
});

Deno.test("MCP skills: skills over 512 files or 16 MiB are not offered, and doctor says so", async () => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    const many: Record<string, string> = {};
    for (let i = 0; i < SKILL_LIMITS.files; i++) many[`refs/${i}.md`] = `${i}\n`;
    await writeProjectSkill(box, "many-files", skillMd("many-files", "Too many files.", "M"), many);
    const half = new Uint8Array(SKILL_LIMITS.bytes / 2 + 1);
    await writeProjectSkill(box, "heavy", skillMd("heavy", "Too many bytes.", "H"), {
      "a.bin": half,
      "b.bin": half,
    });
    await withSession(box, "auto", async (s) => {
      const uris = (await skillsOf(s).list()).skills.map((e) => e.uri);
      ok(!uris.some((u) => u.includes("many-files") || u.includes("heavy")), uris.join());
      equal(uris.length, 3);
    });
    const doctor = await cli(box, ["doctor", "--json"]);
    const listed = (JSON.parse(doctor.stdout).too_large_for_mcp as { name: string }[])
      .map((t) => t.name).sort();
    deepEqual(listed, ["heavy", "many-files"]);
    const text = (await cli(box, ["doctor"])).stdout;
    match(text, /Not offered over the MCP Skills extension: over 512 files or 16 MiB \(2\):/);
  });
});

Deno.test("sharing limits are the SDK's: 512 files (the bundle's), 16 MiB", () => {
  equal(BUNDLE_LIMITS.maxFiles, SKILL_LIMITS.files);
  equal(MAX_SHARED_SKILL_BYTES, SKILL_LIMITS.bytes);
});
