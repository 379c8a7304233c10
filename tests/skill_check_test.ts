// The pure check of one file's bytes (lib/check/_check.ts): the size cap, strict UTF-8, the
// fallback name and its length, and the pass rule with every gate. The CLI (`check`) and the
// browser page both run exactly these functions; their end-to-end tests are check_cli_test.ts
// and web_test.ts.
import { deepEqual, equal, ok } from "node:assert/strict";
import { MAX_FALLBACK_NAME_LENGTH, MAX_SKILL_READ_BYTES } from "../lib/limits.ts";
import {
  CHECK_INPUT_MESSAGES,
  checkPassed,
  checkSkill,
  checkSkillBytes,
  fallbackNames,
  unpinnedHosts,
} from "../lib/check/_check.ts";
import { NOT_UTF8 } from "../lib/util.ts";

const encoder = new TextEncoder();
const CLEAN = "---\nname: demo\ndescription: A demo skill.\n---\n# Demo\n";

Deno.test("fallbackNames: a SKILL.md takes its folder; any other file its name without extension", () => {
  deepEqual(fallbackNames({ fileName: "SKILL.md", folder: "pdf" }), {
    fallbackName: "pdf",
    directoryName: "pdf",
  });
  deepEqual(fallbackNames({ fileName: "SKILL.md" }), { fallbackName: "SKILL" });
  deepEqual(fallbackNames({ fileName: "notes.md", folder: "x" }), { fallbackName: "notes" });
  deepEqual(fallbackNames({ fileName: "a.b.md" }), { fallbackName: "a.b" });
  deepEqual(fallbackNames({ fileName: ".hidden" }), { fallbackName: ".hidden" });
  deepEqual(fallbackNames({ fileName: "plain" }), { fallbackName: "plain" });
});

Deno.test("checkSkillBytes: a clean file gives its text and report", () => {
  const checked = checkSkillBytes(encoder.encode(CLEAN), { fileName: "SKILL.md", folder: "demo" });
  ok(checked.ok);
  equal(checked.text, CLEAN);
  deepEqual(checked.report, checkSkill(CLEAN, { fallbackName: "demo", directoryName: "demo" }));
});

Deno.test("checkSkillBytes: exactly the cap is checked; one byte more is too-large", () => {
  const at = new Uint8Array(MAX_SKILL_READ_BYTES).fill(0x61);
  ok(checkSkillBytes(at, { fileName: "notes.md" }).ok);
  const over = new Uint8Array(MAX_SKILL_READ_BYTES + 1).fill(0x61);
  const refused = checkSkillBytes(over, { fileName: "notes.md" });
  ok(!refused.ok);
  equal(refused.kind, "too-large");
  equal(refused.message, CHECK_INPUT_MESSAGES["too-large"]);
});

Deno.test("checkSkillBytes: malformed UTF-8 is not-utf8 (never U+FFFD); a BOM is kept", () => {
  for (const bytes of [[0xff], [0x61, 0xc3], [0xed, 0xa0, 0x80]]) {
    const refused = checkSkillBytes(new Uint8Array(bytes), { fileName: "a.md" });
    ok(!refused.ok);
    equal(refused.kind, "not-utf8");
    ok(refused.message.includes(NOT_UTF8));
  }
  const bom = checkSkillBytes(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]), { fileName: "a.md" });
  ok(bom.ok);
  equal(bom.text, "\ufeffa");
});

Deno.test("checkSkillBytes: a fallback name over the limit is long-name; at the limit is checked", () => {
  const bytes = encoder.encode(CLEAN);
  const at = "d".repeat(MAX_FALLBACK_NAME_LENGTH);
  ok(checkSkillBytes(bytes, { fileName: "SKILL.md", folder: at }).ok);
  const refused = checkSkillBytes(bytes, { fileName: "SKILL.md", folder: `${at}d` });
  ok(!refused.ok);
  equal(refused.kind, "long-name");
  ok(!checkSkillBytes(bytes, { fileName: `${at}d.md` }).ok);
});

Deno.test("checkPassed: the profile's parse decides; each gate adds its own condition", () => {
  const noFrontmatter = checkSkill("# Notes\n\nSummarise the notes.\n", {
    fallbackName: "notes",
  });
  ok(noFrontmatter.lenient.ok && noFrontmatter.lenient.warnings.length > 0);
  ok(!checkPassed(noFrontmatter));
  ok(checkPassed(noFrontmatter, { profile: "lenient" }));
  ok(!checkPassed(noFrontmatter, { profile: "lenient", failOnRepair: true }));
  ok(!checkPassed(noFrontmatter, { profile: "spec" }));

  const sourced = checkSkill(
    `${CLEAN}See https://get.acme.dev/install.sh and \u200bhidden.\n`,
    { fallbackName: "demo" },
  );
  deepEqual(unpinnedHosts(sourced), ["get.acme.dev"]);
  ok(checkPassed(sourced));
  ok(!checkPassed(sourced, { requirePinnedSources: true }));
  ok(!checkPassed(sourced, { failOnHiddenCharacters: true }));

  const clean = checkSkill(CLEAN, { fallbackName: "demo" });
  ok(checkPassed(clean, { failOnResourceIssues: true }, 0));
  ok(!checkPassed(clean, { failOnResourceIssues: true }, 1));
  ok(checkPassed(clean, {}, 1));
});
