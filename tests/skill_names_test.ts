// isSkillName and normalizeSkillName: the skill name grammar and the normalisation to it.
import { ok, strictEqual } from "node:assert/strict";
import { isSkillName, MAX_NAME_LENGTH, normalizeSkillName } from "../lib/skill/_names.ts";

Deno.test("normalizeSkillName: examples", () => {
  strictEqual(normalizeSkillName("PDF Processing"), "pdf-processing");
  strictEqual(normalizeSkillName("my__skill--v2"), "my-skill-v2");
  strictEqual(normalizeSkillName("Café Résumé"), "cafe-resume");
});

Deno.test("normalizeSkillName: nothing usable is undefined", () => {
  strictEqual(normalizeSkillName("---"), undefined);
  strictEqual(normalizeSkillName(""), undefined);
  strictEqual(normalizeSkillName("日本語"), undefined);
  strictEqual(normalizeSkillName("###"), undefined);
});

Deno.test("normalizeSkillName: long names are cut to 64 with no trailing hyphen", () => {
  const out = normalizeSkillName("a".repeat(63) + "-bcd");
  ok(out !== undefined);
  ok(out.length <= MAX_NAME_LENGTH, `length ${out.length}`);
  ok(!out.endsWith("-"));
  ok(isSkillName(out));
  strictEqual(out, "a".repeat(63));
});

Deno.test("normalizeSkillName: other examples", () => {
  strictEqual(normalizeSkillName("Code_Review"), "code-review");
  strictEqual(normalizeSkillName("My Dir"), "my-dir");
  strictEqual(normalizeSkillName("  --Leading and trailing--  "), "leading-and-trailing");
  // compatibility decomposition (NFKD): fullwidth letters and ligatures fold to ASCII
  strictEqual(normalizeSkillName("ＡＢＣ ﬁle"), "abc-file");
  strictEqual(normalizeSkillName("ok-name"), "ok-name");
  strictEqual(normalizeSkillName("a".repeat(100)), "a".repeat(64));
});

Deno.test("isSkillName: a few valid and invalid names", () => {
  strictEqual(isSkillName("ok-name"), true);
  strictEqual(isSkillName("Bad"), false);
  strictEqual(isSkillName("a--b"), false);
  strictEqual(isSkillName("a".repeat(65)), false);
});

Deno.test("isSkillName: grammar edges", () => {
  strictEqual(isSkillName("a"), true);
  strictEqual(isSkillName("v2"), true);
  strictEqual(isSkillName("a1-b2-c3"), true);
  strictEqual(isSkillName("a".repeat(64)), true);
  strictEqual(isSkillName(""), false);
  strictEqual(isSkillName("-a"), false);
  strictEqual(isSkillName("a-"), false);
  strictEqual(isSkillName("a_b"), false);
  strictEqual(isSkillName("a b"), false);
  strictEqual(isSkillName("café"), false);
  strictEqual(isSkillName(42), false);
  strictEqual(isSkillName(undefined), false);
});
