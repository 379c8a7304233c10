// Unit tests of lib/load: rendering, the shared find/open rules, fresh reads
// and the refusals of openSkill, by kind, on real files in a temp directory.
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  disabledByAuthor,
  findLimits,
  findOpenable,
  findSkills,
  isOpenable,
} from "../lib/load/_find.ts";
import { readSkillNow } from "../lib/load/_fresh.ts";
import { type LoadTarget, openSkill } from "../lib/load/_open.ts";
import { NEUTRAL_WORDS, renderSkill } from "../lib/load/_render.ts";
import { skillMd } from "./mcp_helpers.ts";
import { withTempDir, writeTree } from "./helpers.ts";

const RESOLVE_SENTENCE =
  "Resolve every relative path in these instructions against that directory, and open scripts, references and assets only when a step needs them.";

Deno.test("renderSkill escapes name, directory and tools; the surface words the tools note", () => {
  const input = {
    name: 'a"b<c&d>',
    directory: '/x/<&>"/y',
    content: "<raw> & verbatim",
    declaredTools: ["Bash(a<b&c)"],
  };
  const note = "This host cannot restrict your tools.";
  equal(
    renderSkill(input, { declaredToolsNote: note }),
    [
      '<skill_content name="a&quot;b&lt;c&amp;d&gt;">',
      "<skill_resources>",
      'Base directory for this skill: /x/&lt;&amp;&gt;"/y',
      RESOLVE_SENTENCE,
      "</skill_resources>",
      "",
      "<skill_author_declared_tools>",
      "The author declared this skill needs only: Bash(a&lt;b&amp;c).",
      note,
      "</skill_author_declared_tools>",
      "",
      "<skill_instructions>",
      "<raw> & verbatim",
      "</skill_instructions>",
      "</skill_content>",
    ].join("\n"),
  );
  const neutral = renderSkill(input);
  ok(neutral.includes(NEUTRAL_WORDS.declaredToolsNote));
  ok(!/server|MCP|dsh/i.test(NEUTRAL_WORDS.declaredToolsNote));
  ok(!renderSkill({ ...input, declaredTools: [] }).includes("<skill_author_declared_tools>"));
});

const SKILLS = [
  { name: "pdf-forms", description: "Fill in PDF forms.", invocation: { modelInvocable: true } },
  { name: "pdf-merge", description: "Merge PDF files.", invocation: { modelInvocable: true } },
  { name: "pdf-secret", description: "A PDF secret.", invocation: { modelInvocable: false } },
  { name: "docx-review", description: "Review Word files.", invocation: { modelInvocable: true } },
];

Deno.test("findSkills: ranks, clamps the limit, keeps only openable matches, refuses a blank query", async () => {
  const limits = findLimits(1, 2);
  deepEqual(limits, { defaultLimit: 1, maxLimit: 2 });
  deepEqual(findLimits(0.5, 0), { defaultLimit: 1, maxLimit: 1 });
  const names = (found: Awaited<ReturnType<typeof findSkills>>) =>
    found.ok ? found.matches.map((m) => m.skill.name) : found.kind;

  deepEqual(names(await findSkills(SKILLS, { query: " pdf forms " }, { limits })), ["pdf-forms"]);
  const many = await findSkills(SKILLS, { query: "pdf", limit: 50 }, { limits });
  // total: every match (issue 29), not the number of skills searched.
  equal(many.ok && many.total, 3);
  equal(many.ok && many.matches.length, 2);
  const openable = (s: (typeof SKILLS)[number]) => Promise.resolve(s.invocation.modelInvocable);
  deepEqual(
    names(
      await findSkills(SKILLS, { query: "pdf", limit: 9 }, { limits: findLimits(9, 9), openable }),
    ),
    ["pdf-forms", "pdf-merge"],
  );
  deepEqual(names(await findSkills(SKILLS, { query: "kubernetes" }, { limits })), []);
  deepEqual(names(await findSkills(SKILLS, { query: "   " }, { limits })), "empty-query");
});

Deno.test("findOpenable: invalid name, unknown, disabled, found — one wording per refusal", async () => {
  const lookup = (name: string) => Promise.resolve(SKILLS.find((s) => s.name === name));
  const rule = (s: (typeof SKILLS)[number]) => isOpenable(s.invocation);
  const kind = async (name: string) => {
    const found = await findOpenable(name, lookup, rule);
    return found.ok ? found.skill.name : found.kind;
  };
  equal(await kind("Bad Name"), "invalid-name");
  equal(await kind("../pdf-forms"), "invalid-name");
  equal(await kind("no-such-skill"), "unknown");
  equal(await kind("pdf-secret"), "disabled");
  equal(await kind("pdf-forms"), "pdf-forms");
  const refused = await findOpenable("pdf-secret", lookup, rule);
  deepEqual(refused, disabledByAuthor("pdf-secret"));
  ok(isOpenable({ modelInvocable: false, hiddenOnlyByBudget: true }));
  ok(!isOpenable({ modelInvocable: false, hiddenOnlyByBudget: false }));
});

Deno.test("readSkillNow: a missing file and a non-UTF-8 file are failures with a kind", async () => {
  await withTempDir(async (dir) => {
    const options = { fallbackName: "demo", lenient: true };
    const gone = readSkillNow(join(dir, "gone", "SKILL.md"), options);
    equal(gone.ok ? "ok" : gone.kind, "missing");
    await Deno.writeFile(join(dir, "SKILL.md"), new Uint8Array([0x2d, 0xff, 0xfe]));
    const broken = readSkillNow(join(dir, "SKILL.md"), options);
    equal(broken.ok ? "ok" : broken.kind, "invalid");
    await Deno.writeTextFile(join(dir, "SKILL.md"), skillMd("demo", "A demo.", "DEMO-BODY"));
    const now = readSkillNow(join(dir, "SKILL.md"), options);
    equal(now.ok && now.skill.content, "DEMO-BODY");
  });
});

Deno.test("openSkill: each refusal is a kind, in the order of its phases", async () => {
  await withTempDir(async (dir) => {
    const skillDir = join(dir, "demo");
    await writeTree(skillDir, { "SKILL.md": skillMd("demo", "A demo.", "DEMO-BODY") });
    const target: LoadTarget = {
      name: "demo",
      path: join(skillDir, "SKILL.md"),
      directory: skillDir,
      source: "anywhere-user",
      origin: { kind: "agent", agent: "codex", scope: "user" },
    };
    const kind = async (options: Parameters<typeof openSkill>[1], at = target) => {
      const result = await openSkill(at, options);
      return result.ok ? "ok" : result.kind;
    };
    const zero = "0".repeat(64);
    equal(await kind({ lenient: true }), "ok");
    equal(await kind({ lenient: true, expectedSha256: zero }), "sha-mismatch");
    equal(await kind({ lenient: true, expectedBundleSha256: zero }), "bundle-mismatch");
    equal(await kind({ lenient: true, expectedSourceCommit: "a".repeat(40) }), "not-git");
    // A wrong SKILL.md digest is reported before the bundle and the commit.
    equal(
      await kind({ lenient: true, expectedSha256: zero, expectedBundleSha256: zero }),
      "sha-mismatch",
    );
    const flat = { ...target, path: join(dir, "flat.md") };
    await Deno.writeTextFile(flat.path, skillMd("demo", "A demo.", "FLAT"));
    equal(await kind({ lenient: true, includeBundle: true }, flat), "bundle-invalid");
    equal(await kind({ lenient: true }, { ...target, path: join(dir, "gone.md") }), "unreadable");
    await writeTree(skillDir, {
      "SKILL.md": skillMd("demo", "A demo.", "DEMO-BODY", ["disable-model-invocation: true"]),
    });
    // The author's opt-out wins over matching pins.
    equal(await kind({ lenient: true, expectedSha256: zero }), "disabled");
  });
});
