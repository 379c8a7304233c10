/**
 * Unit tests of the one ranker (`lib/catalog/search.ts`) with bodies, and of
 * `findSkills`/`freshBody` (`lib/load/find.ts`) reading bodies from real files:
 * the body's capped score, the order name > description > body, and why each
 * hit matched.
 *
 * @module
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { searchSkills } from "../lib/catalog/search.ts";
import { findLimits, findSkills, freshBody } from "../lib/load/find.ts";
import { skillMd, withTempDir, writeTree } from "./helpers.ts";

/** A body naming `word` `n` times, in sentences. */
function mentions(word: string, n: number): string {
  return Array.from({ length: n }, (_, i) => `Step ${i + 1}: open the file in ${word}.`).join("\n");
}

type Skill = { name: string; description: string; body?: string };
const bodyOf = (s: Skill) => s.body;

Deno.test("body: 1 + floor(log2 n) points per term, at most 5, and no +30 for a body-only term", () => {
  const score = (n: number) =>
    searchSkills([{ name: "x1", description: "-", body: mentions("Excel", n) }], "excel", 5, {
      body: bodyOf,
    })[0]?.score;
  deepEqual([1, 2, 3, 4, 7, 8, 15, 16, 26, 1000].map(score), [1, 2, 2, 3, 3, 4, 4, 5, 5, 5]);
  equal(score(0), undefined, "a body without the term: dropped");
});

Deno.test("body: all terms together add at most 30, below any field match (32)", () => {
  const words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"];
  const body = words.map((w) => mentions(w, 20)).join("\n");
  const [bodyOnly] = searchSkills([{ name: "x1", description: "-", body }], words.join(" "), 5, {
    body: bodyOf,
  });
  equal(bodyOnly.score, 30);
  const origin = { name: "x2", description: "-", source: "alpha-repo" };
  const ranked = searchSkills(
    [{ name: "x1", description: "-", body }, origin],
    words.join(" "),
    5,
    {
      body: bodyOf,
    },
  );
  deepEqual(ranked.map((m) => [m.skill.name, m.score]), [["x2", 32], ["x1", 30]]);
});

Deno.test("order: name beats description beats body, for one term", () => {
  const skills: Skill[] = [
    { name: "notes", description: "Keep notes.", body: mentions("excel", 40) },
    { name: "sheets", description: "Work with Excel files.", body: "Nothing else." },
    { name: "excel", description: "Anything.", body: "" },
  ];
  const ranked = searchSkills(skills, "excel", 10, { body: bodyOf });
  deepEqual(ranked.map((m) => [m.skill.name, m.score]), [
    ["excel", 90],
    ["sheets", 38],
    ["notes", 5],
  ]);
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
  // excel: body 5; spreadsheet: 8 + 6 + 30, body 1; xlsx: 60 + 30, body 1.
  equal(match.score, 8 + 6 + 30 + 60 + 30 + 5 + 1 + 1);
  const [plain] = searchSkills([{ name: "a-pdf", description: "PDF." }], "pdf", 5);
  deepEqual(plain.matched, [{ term: "pdf", fields: ["name", "description"] }]);
});

Deno.test("body: counts non-overlapping, case-insensitive occurrences", () => {
  const [match] = searchSkills([{ name: "x1", description: "-", body: "AAAA aa Aa" }], "aa", 5, {
    body: bodyOf,
  });
  deepEqual(match.matched, [{ term: "aa", fields: ["body"], occurrences: 4 }]);
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
    equal(found.total, 3);
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
