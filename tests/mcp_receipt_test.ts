// End-to-end tests of the load receipt and the Git source commit
// (`source_commit`, `expected_source_commit`) against the real `main.ts mcp`
// child, with real git repositories and real syncs.
import { deepEqual, equal, match, notEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { openSkill } from "../lib/load/_open.ts";
import { resolveSource } from "../lib/sources/_resolve.ts";
import { VERSION } from "../lib/version.ts";
import {
  assertOk,
  assertRefused,
  catalogFixture,
  count,
  SHA40,
  UNAVAILABLE,
  UUID,
} from "./mcp_fixture.ts";
import {
  cli,
  fileSha256,
  git,
  gitCommit,
  gitRepo,
  logGitCalls,
  sha256Hex,
  skillMd,
  withSandbox,
  withSession,
} from "./mcp_helpers.ts";
import { writeTree } from "./helpers.ts";

// ---------------------------------------------------------------------------
// Receipts and source_commit

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

Deno.test("MCP open_skill: the receipt of an agent-directory skill; exported openSkill has no source_commit", async () => {
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
      equal(receipt.provider_version, VERSION);
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

Deno.test("MCP open_skill: a Git-source receipt names the checkout HEAD and follows sync; expected_source_commit", async () => {
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

Deno.test("MCP open_skill: an enclosing repository is never reported as the source commit", async () => {
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
    equal(count(stderr, "skills-anywhere: "), count(stderr, "\n"), stderr); // one prefix a line
    ok(!stderr.includes(await git(box, box.home, "rev-parse", "HEAD")), stderr);
  });
});
