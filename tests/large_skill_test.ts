// Large skills: a real published SKILL.md over the bundle format's 128 KiB (awesome-copilot's
// quality-playbook, 294,426 bytes) is read by `check`, the catalog, the browser's check and
// open_skill (with expected_sha256), with a `skill-size` warning; `bundle` refuses it naming the
// file and the limit. The fixture is the real file's head, grown to its real size.
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { fileSizeRefusal } from "../lib/bundle/_manifest.ts";
import { formatBytes, MAX_BUNDLE_SKILL_BYTES, MAX_SKILL_READ_BYTES } from "../lib/limits.ts";
import { checkSkillBytes } from "../lib/check/_check.ts";
import { assertOk } from "./mcp_fixture.ts";
import { textOf, withSession, writeProjectSkill } from "./mcp_helpers.ts";
import { ROOT, sha, withSandbox, writeTree } from "./helpers.ts";

/** The size of the real quality-playbook SKILL.md. */
const REAL_SIZE = 294_426;

const HEAD = await Deno.readTextFile(
  join(ROOT, "testdata/large-skill/quality-playbook/SKILL.head.md"),
);

/** One generated section shaped like the real file's: heading, prose, fenced code, a table. */
function section(n: number): string {
  return [
    `## Phase ${n}: Review pass ${n}`,
    "",
    `**Step ${n}.** Read \`quality/EXPLORATION.md\` again and derive requirements for the ` +
    "components touched by this pass. Every requirement cites its source (file and line) and " +
    "names the behaviour a test must pin down, so later phases never work from guesses.",
    "",
    "```bash",
    `python -m bin.run_phase --phase ${n} --target "$TARGET" --out quality/phase_${n}.json`,
    "```",
    "",
    "| Artifact | Written by | Read by |",
    "| --- | --- | --- |",
    `| \`quality/phase_${n}.json\` | Phase ${n} | Phase ${n + 1} |`,
    "",
  ].join("\n");
}

/** The quality-playbook SKILL.md at its real size: the committed head, then generated sections. */
function qualityPlaybook(size = REAL_SIZE): string {
  let text = HEAD;
  for (let n = 1; text.length + 1024 < size; n++) text += section(n);
  return text + "x".repeat(size - new TextEncoder().encode(text).length - 1) + "\n";
}

Deno.test("the fixture is the real file's size and a valid skill head", () => {
  const text = qualityPlaybook();
  equal(new TextEncoder().encode(text).length, REAL_SIZE);
  ok(text.startsWith("---\nname: quality-playbook\ndescription: "));
  ok(REAL_SIZE > MAX_BUNDLE_SKILL_BYTES && REAL_SIZE < MAX_SKILL_READ_BYTES);
});

Deno.test("checkSkillBytes (CLI and browser): a 294 KB SKILL.md is checked, with a skill-size warning", () => {
  const bytes = new TextEncoder().encode(qualityPlaybook());
  const checked = checkSkillBytes(bytes, { fileName: "SKILL.md", folder: "quality-playbook" });
  ok(checked.ok);
  const { report } = checked;
  ok(report.strict.ok && report.spec.ok);
  const size = report.spec.findings.filter((f) => f.rule === "skill-size");
  equal(size.length, 1);
  equal(size[0].severity, "warning");
  ok(size[0].message.includes(`${REAL_SIZE} bytes`), size[0].message);
  ok(size[0].message.includes(formatBytes(MAX_BUNDLE_SKILL_BYTES)), size[0].message);
  // Exactly at the bundle's SKILL.md size there is no size warning.
  const at = checkSkillBytes(new TextEncoder().encode(qualityPlaybook(MAX_BUNDLE_SKILL_BYTES)), {
    fileName: "SKILL.md",
    folder: "quality-playbook",
  });
  ok(at.ok);
  deepEqual(at.report.spec.findings.filter((f) => f.rule === "skill-size"), []);
});

Deno.test("check, list, bundle and open_skill on a 294 KB skill", async () => {
  await withSandbox(async (box) => {
    const text = qualityPlaybook();
    const dir = await writeProjectSkill(box, "quality-playbook", text);
    const skillPath = join(dir, "SKILL.md");

    // check: passes under every profile, the warning in the JSON report.
    const check = await box.cli("check", "--json", "--profile", "spec", skillPath);
    equal(check.code, 0, check.stdout + check.stderr);
    const entry = JSON.parse(check.stdout).files[0];
    ok(entry.report.spec.findings.some((f: { rule: string }) => f.rule === "skill-size"));

    // The catalog lists it; nothing is invalid.
    const list = JSON.parse((await box.cli("list", "--json")).stdout);
    deepEqual(list.skills.map((s: { name: string }) => s.name), ["quality-playbook"]);
    deepEqual(list.invalid, []);

    // bundle refuses it, naming the file and the one limit it broke.
    const bundle = await box.cli("bundle", "--json", dir);
    equal(bundle.code, 2);
    const refusal = JSON.parse(bundle.stdout);
    equal(refusal.kind, "skill-too-large");
    equal(refusal.error, fileSizeRefusal("SKILL.md", REAL_SIZE).message);
    ok(refusal.error.includes('"SKILL.md"') && refusal.error.includes("128 KiB"), refusal.error);

    // open_skill serves it, pinned by its SHA-256; the bundle pin cannot be met.
    await withSession(box, "legacy", async (s) => {
      const pinned = await s.call("open_skill", {
        name: "quality-playbook",
        expected_sha256: sha(text),
      });
      const loaded = assertOk(pinned);
      equal(loaded.sha256, sha(text));
      ok(textOf(pinned).includes("## Phase 1: Review pass 1"));
      const bundled = await s.call("open_skill", {
        name: "quality-playbook",
        include_bundle: true,
      });
      equal(bundled.isError, true);
      ok(textOf(bundled).includes("128 KiB"), textOf(bundled));
    });
  });
});

Deno.test("a SKILL.md one byte over 1 MiB is refused by check and the catalog (too-large)", async () => {
  await withSandbox(async (box) => {
    const dir = join(box.project, ".claude", "skills", "huge");
    await writeTree(dir, { "SKILL.md": qualityPlaybook(MAX_SKILL_READ_BYTES + 1) });
    const check = await box.cli("check", "--json", join(dir, "SKILL.md"));
    equal(check.code, 2);
    equal(JSON.parse(check.stdout).files[0].kind, "too-large");
    const list = JSON.parse((await box.cli("list", "--json")).stdout);
    deepEqual(list.skills, []);
    equal(list.invalid[0].kind, "too-large");
  });
});
