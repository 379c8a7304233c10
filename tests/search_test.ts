/**
 * Unit tests of the one ranker (`lib/catalog/_search.ts`) with bodies, and of
 * `findSkills`/`freshBody` (`lib/load/_find.ts`) reading bodies from real files:
 * the body's saturated score, the order name > description > body, and why each
 * hit matched. Issue 30 replaced the additive point rule by BM25F over whole,
 * stemmed words, so these tests assert orders and reasons rather than points;
 * the ranker's own rules are in tests/search_rank_test.ts.
 *
 * @module
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { searchSkills } from "../lib/catalog/_search.ts";
import { findLimits, findSkills, freshBody } from "../lib/load/_find.ts";
import { skillMd, withTempDir, writeTree } from "./helpers.ts";

/** A body naming `word` `n` times, in sentences. */
function mentions(word: string, n: number): string {
  return Array.from({ length: n }, (_, i) => `Step ${i + 1}: open the file in ${word}.`).join("\n");
}

type Skill = { name: string; description: string; body?: string };
const bodyOf = (s: Skill) => s.body;

Deno.test("body: saturates with the number of mentions, and a body-only match ranks below a description match", () => {
  const score = (n: number) =>
    searchSkills(
      [{ name: "x1", description: "-", body: mentions("Excel", n) }, {
        name: "x2",
        description: "-",
        body: "Other text.",
      }],
      "excel",
      5,
      { body: bodyOf },
    )[0]?.score;
  const scores = [1, 2, 4, 8, 16, 1000].map(score);
  for (let i = 1; i < scores.length; i++) {
    ok(scores[i]! > scores[i - 1]!, `more mentions, more score`);
  }
  ok(scores[5]! - scores[4]! < scores[1]! - scores[0]!, "each further mention adds less");
  equal(score(0), undefined, "a body without the term: dropped");
  const ranked = searchSkills(
    [
      { name: "x1", description: "-", body: mentions("Excel", 1000) },
      { name: "x2", description: "Export to Excel.", body: "" },
      { name: "x3", description: "-", body: "" },
    ],
    "excel",
    5,
    { body: bodyOf },
  );
  deepEqual(ranked.map((m) => m.skill.name), ["x2", "x1"]);
});

Deno.test("order: name beats description beats body, for one term", () => {
  const skills: Skill[] = [
    { name: "notes", description: "Keep notes.", body: mentions("excel", 40) },
    { name: "sheets", description: "Work with Excel files.", body: "Nothing else." },
    { name: "excel", description: "Anything.", body: "" },
  ];
  const ranked = searchSkills(skills, "excel", 10, { body: bodyOf });
  deepEqual(ranked.map((m) => m.skill.name), ["excel", "sheets", "notes"]);
  ok(ranked[0].score > ranked[1].score && ranked[1].score > ranked[2].score);
});

Deno.test("reasons: per term, the fields in ranking order and the body's count", () => {
  const skill = {
    name: "xlsx",
    description: "Create, edit and analyse spreadsheets.",
    whenToUse: "When a spreadsheet is attached",
    source: "anywhere-user",
    body: `${mentions("Excel", 26)}\nSave spreadsheets as .xlsx.`,
  };
  const [match] = searchSkills([skill], "excel spreadsheet xlsx unknown", 5, { body: bodyOf });
  deepEqual(match.matched, [
    { term: "excel", fields: ["body"], occurrences: 26 },
    { term: "spreadsheet", fields: ["description", "whenToUse", "body"], occurrences: 1 },
    { term: "xlsx", fields: ["name", "body"], occurrences: 1 },
  ]);
  const [plain] = searchSkills([{ name: "a-pdf", description: "PDF." }], "pdf", 5);
  deepEqual(plain.matched, [{ term: "pdf", fields: ["name", "description"] }]);
});

Deno.test("body: counts whole words, case-insensitive, never inside a word (issue 30)", () => {
  const [match] = searchSkills(
    [{ name: "x1", description: "-", body: "AAAA aa Aa aab baa aa-b" }],
    "aa",
    5,
    { body: bodyOf },
  );
  deepEqual(match.matched, [{ term: "aa", fields: ["body"], occurrences: 3 }]);
});

Deno.test("findSkills with freshBody: an xlsx-like skill found by 'excel' in its instructions only", async () => {
  await withTempDir(async (dir) => {
    const xlsxBody = [
      "# Spreadsheet work",
      "",
      "Use openpyxl for formulas and formatting; use pandas for analysis.",
      mentions("Excel", 26),
      "Recalculate formulas before you hand the workbook back.",
    ].join("\n");
    await writeTree(dir, {
      "xlsx/SKILL.md": skillMd(
        "xlsx",
        "Create, edit and analyse spreadsheets (.xlsx, .csv) with formulas and charts.",
        xlsxBody,
      ),
      "docx/SKILL.md": skillMd("docx", "Edit Word documents.", "Track changes in Word."),
      "gone/SKILL.md": skillMd("gone", "Removed after listing.", "Excel excel excel."),
    });
    const skills = ["xlsx", "docx", "gone"].map((name) => ({
      name,
      description: name === "xlsx" ? "spreadsheets" : "Word",
      path: join(dir, name, "SKILL.md"),
    }));
    await Deno.remove(join(dir, "gone"), { recursive: true });
    const found = await findSkills(skills, { query: "excel" }, {
      limits: findLimits(),
      body: (s) => freshBody(s, true),
    });
    ok(found.ok);
    deepEqual(found.matches.map((m) => [m.skill.name, m.matched]), [
      ["xlsx", [{ term: "excel", fields: ["body"], occurrences: 26 }]],
    ]);
    // Issue 29: total is the number of matches (the file gone has no body and matches nothing).
    equal(found.total, 1);
    equal(freshBody(skills[2], true), undefined, "a file gone now has no body");
  });
});

Deno.test("freshBody: a SKILL.md that links outside its boundary has no body", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "outside/SKILL.md": skillMd("secret", "Outside.", "Excel secrets."),
      "project/skills/evil/.keep": "",
    });
    const path = join(dir, "project/skills/evil/SKILL.md");
    await Deno.symlink(join(dir, "outside/SKILL.md"), path);
    equal(freshBody({ name: "evil", path, confineTo: join(dir, "project") }, true), undefined);
    equal(freshBody({ name: "evil", path }, true), "Excel secrets.", "followed without a boundary");
  });
});
