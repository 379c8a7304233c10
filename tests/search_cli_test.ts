/**
 * End-to-end tests of `search` over real child processes in a sandbox, and of
 * MCP `find_skills` finding by body with the real SDK client: an xlsx-like
 * skill found by "excel" in its instructions, the order name > description >
 * body, why each hit matched, `--limit` bounds, no match is exit 1, `--json`.
 *
 * The xlsx-like fixture is our own text in the shape of a document skill (the
 * real document skills are not open-licensed, so none of their text is used).
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { skillMd, withSandbox, writeTree } from "./helpers.ts";
import { CATALOG_BOX } from "./catalog_cli_helpers.ts";
import { type Sandbox, textOf, withSession } from "./mcp_helpers.ts";

/** Instructions for spreadsheet work that name Excel 26 times, none of it in the description. */
const XLSX_BODY = [
  "# Spreadsheet work",
  "",
  "## Reading",
  ...Array.from(
    { length: 13 },
    (_, i) => `- Sheet ${i + 1}: open the workbook as Excel would; keep Excel's number formats.`,
  ),
  "",
  "## Formulas",
  "Write formulas, not values computed in Python, so the workbook recalculates.",
].join("\n");

async function writeSkills(box: Sandbox): Promise<void> {
  await writeTree(box.home, {
    ".claude/skills/xlsx/SKILL.md": skillMd(
      "xlsx",
      "Create, edit and analyse spreadsheets (.xlsx, .csv, .tsv) with formulas and charts.",
      XLSX_BODY,
    ),
    ".claude/skills/excel-macros/SKILL.md": skillMd(
      "excel-macros",
      "Record and run macros.",
      "Use the VBA editor.",
    ),
    ".claude/skills/charts/SKILL.md": skillMd(
      "charts",
      "Draw charts from Excel ranges.",
      "Pick a chart type.",
    ),
    ".claude/skills/docx/SKILL.md": skillMd("docx", "Edit Word documents.", "Track changes."),
    ".claude/skills/ledger/SKILL.md": skillMd(
      "ledger",
      "Post journal entries.",
      "Export the ledger to Excel once a month.",
      ["disable-model-invocation: true"],
    ),
  });
}

Deno.test("search: 'excel' finds the xlsx skill by its body, after name and description hits", async () => {
  await withSandbox(async (box) => {
    await writeSkills(box);
    const run = await box.cli("search", "excel");
    equal(run.code, 0, run.stderr);
    equal(run.stderr, "");
    equal(
      run.stdout,
      [
        "excel-macros                       Record and run macros.  [name: excel]",
        "charts                             Draw charts from Excel ranges.  [description: excel]",
        "xlsx                               Create, edit and analyse spreadsheets (.xlsx, .csv, .tsv) with formulas and charts.  [body: excel ×26]",
        "ledger (not offered to the model)  Post journal entries.  [body: excel ×1]",
        "",
      ].join("\n"),
    );
  }, CATALOG_BOX);
});

Deno.test("search --json: total, matches with score and matched; no match prints an empty list, exit 1", async () => {
  await withSandbox(async (box) => {
    await writeSkills(box);
    const run = await box.cli("search", "excel", "formulas", "--json", "--limit", "2");
    equal(run.code, 0, run.stderr);
    const doc = JSON.parse(run.stdout);
    equal(doc.total, 5);
    // Issue 30 changes this order: xlsx matches both words ("formulas" in its description, both
    // in its body) and now ranks above excel-macros, which matches one ("excel" in its name);
    // scores are BM25F figures (no longer the old points), higher first.
    deepEqual(doc.matches.map((m: { name: string }) => m.name), ["xlsx", "excel-macros"]);
    const xlsx = doc.matches[0];
    deepEqual(xlsx.matched, [
      { term: "excel", fields: ["body"], occurrences: 26 },
      { term: "formulas", fields: ["description", "body"], occurrences: 2 },
    ]);
    deepEqual(doc.matches[1].matched, [{ term: "excel", fields: ["name"] }]);
    ok(xlsx.score > doc.matches[1].score && doc.matches[1].score > 0, JSON.stringify(doc.matches));
    equal(xlsx.model_invocable, true);
    equal(xlsx.from, "claude-code (user)");
    const none = await box.cli("search", "kubernetes", "--json");
    equal(none.code, 1);
    deepEqual(JSON.parse(none.stdout), { total: 5, matches: [] });
    equal(none.stderr, "");
  }, CATALOG_BOX);
});

Deno.test("search: no match is exit 1, one line on stderr, nothing on stdout", async () => {
  await withSandbox(async (box) => {
    await writeSkills(box);
    const run = await box.cli("search", "kubernetes");
    equal(run.code, 1);
    equal(run.stdout, "");
    equal(
      run.stderr,
      'dsh-skills-anywhere: no skill matches "kubernetes" (5 skills searched); ' +
        'try other words, or run "dsh-skills-anywhere list" to see them all\n',
    );
  }, CATALOG_BOX);
});

Deno.test("search: --limit is a whole number from 1 to 200; a query needs a word", async () => {
  await withSandbox(async (box) => {
    await writeSkills(box);
    for (const bad of ["0", "201", "1.5", "-3", "ten"]) {
      const run = await box.cli("search", "excel", `--limit=${bad}`);
      equal(run.code, 2, bad);
      equal(run.stdout, "");
      equal(
        run.stderr,
        `dsh-skills-anywhere: --limit must be a whole number from 1 to 200 (got "${bad}"); ` +
          'run "dsh-skills-anywhere search --help" for usage\n',
      );
    }
    const one = await box.cli("search", "excel", "--limit", "1");
    equal(one.stdout.split("\n").length, 2);
    ok(one.stdout.startsWith("excel-macros "));
    equal((await box.cli("search", "excel", "--limit", "200")).code, 0);
    const empty = await box.cli("search");
    equal(empty.code, 2);
    match(empty.stderr, /search needs a query/);
    const short = await box.cli("search", "a", "b");
    equal(short.code, 2);
    match(short.stderr, /the query "a b" has no word of two or more letters or digits/);
    // Issue 30: stop words alone are no query either (they used to match inside words).
    const common = await box.cli("search", "the", "and");
    equal(common.code, 2);
    equal(common.stdout, "");
    match(
      common.stderr,
      /the query "the and" has no word of two or more letters or digits that is not a common word such as "the" or "and"/,
    );
  }, CATALOG_BOX);
});

Deno.test("search: a hostile description and query are escaped", async () => {
  await withSandbox(async (box) => {
    await writeTree(box.home, {
      ".claude/skills/evil/SKILL.md": skillMd("evil", '"Excel \\u001b[2J wipe \\u202e"', "Body."),
    });
    const run = await box.cli("search", "excel");
    equal(run.code, 0, run.stderr);
    equal(run.stdout, "evil  Excel \\u001b[2J wipe \\u202e  [description: excel]\n");
    const none = await box.cli("search", "zz\u001b[31m");
    equal(none.code, 1);
    ok(none.stderr.includes('"zz\\u001b[31m"'));
  }, CATALOG_BOX);
});

Deno.test("MCP find_skills (real SDK client) finds by body, never returns a disabled skill", async () => {
  await withSandbox(async (box) => {
    await writeSkills(box);
    await withSession(box, "auto", async (session) => {
      const result = await session.call("find_skills", { query: "excel" });
      ok(!result.isError, textOf(result));
      const structured = result.structuredContent as { total: number; matches: object[] };
      // Issue 29: total is the number of matches, no longer the catalog size.
      equal(structured.total, 3);
      deepEqual(structured.matches[2], {
        name: "xlsx",
        description:
          "Create, edit and analyse spreadsheets (.xlsx, .csv, .tsv) with formulas and charts.",
        source: "claude-code (user)",
      });
      deepEqual(structured.matches.map((m) => (m as { name: string }).name), [
        "excel-macros",
        "charts",
        "xlsx",
      ]);
      match(textOf(result), /^- xlsx — Create, edit and analyse spreadsheets/m);
    });
  }, CATALOG_BOX);
});
