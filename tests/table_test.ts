/**
 * The table fitter as a pure function: widths in terminal cells, cuts that never exceed the width
 * and never split an escape, the key segment kept, column priorities. The real terminals are in
 * tests/cli_tty_test.ts.
 *
 * @module
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { escapeTerminal } from "../cli/escape.ts";
import { type Cell, cellWidth, fitCell, fitText, fitWidths, formatTable } from "../cli/table.ts";

/** The cells a cell takes once escaped. */
const width = (cell: Cell) =>
  cellWidth(escapeTerminal(typeof cell === "string" ? cell : cell.map(([t]) => t).join("")));

Deno.test("cellWidth: wide characters take 2 cells, combining marks 0, ASCII 1", () => {
  equal(cellWidth("skill-creator"), 13);
  equal(cellWidth("表計算ソフト"), 12);
  equal(cellWidth("ｆｕｌｌ"), 8);
  equal(cellWidth("e\u0301e\u0308"), 2);
  equal(cellWidth("한국어"), 6);
  equal(cellWidth("🚀 go"), 5);
});

Deno.test("fitText: never wider than asked, at every width, in both cuts; escapes stay whole", () => {
  const texts = [
    "claude-code-brand-guidelines (renamed from brand-guidelines)",
    "表計算ソフトのデータを分析してレポートを作成します",
    "naïve e\u0301 résumé with combining marks",
    `a${"\u001b[31m\u009b".repeat(8)}z`,
    "written \\u202e escape and \\u{e0041} tag",
  ];
  for (const text of texts) {
    for (let w = 1; w <= width(text) + 1; w++) {
      for (const cut of ["end", "middle"] as const) {
        const fitted = fitText(text, w, cut);
        ok(width(fitted) <= w, `${JSON.stringify(fitted)} is wider than ${w}`);
        if (width(text) <= w) equal(fitted, text);
        else ok(fitted.includes("…"), fitted);
        const shown = escapeTerminal(fitted);
        ok(!/\\u(?![0-9a-f]{4}|\{[0-9a-f]+\})/.test(shown), `an escape was cut: ${shown}`);
        ok(!/^\p{M}|…\p{M}/u.test(fitted), `a combining mark lost its base: ${fitted}`);
      }
    }
  }
  equal(
    fitText("~/.claude/plugins/cache/official/skill-creator/SKILL.md", 30, "middle"),
    "~/.claude/plugi…eator/SKILL.md",
  );
});

Deno.test("fitCell: the key segment is kept while the others are cut", () => {
  const renamed: Cell = [["claude-code-brand-guidelines"], [" (renamed from brand-guidelines)"]];
  deepEqual(fitCell(renamed, 40), [["claude-code-brand-guidelines"], [" (renamed f…"]]);
  deepEqual(fitCell(renamed, 29), [["claude-code-brand-guidelines"], ["…"]]);
  deepEqual(fitCell(renamed, 20, "middle"), [["claude-cod…uidelines"]]);
  const plugin: Cell = [
    ["claude plugin "],
    ["skill-creator", undefined, "key"],
    ["@claude-plugins-official"],
  ];
  for (let w = 1; w <= 52; w++) ok(width(fitCell(plugin, w, "middle")) <= w, `width ${w}`);
  deepEqual(fitCell(plugin, 30), [["claude plugin "], ["skill-creator", undefined, "key"], [
    "@c…",
  ]]);
  deepEqual(fitCell(plugin, 20), [["claud…"], ["skill-creator", undefined, "key"], ["…"]]);
  deepEqual(fitCell(plugin, 14), [["…"], ["skill-creator", undefined, "key"]]);
});

Deno.test("fitWidths and formatTable: priorities left to right, the last column gets what is left", () => {
  deepEqual(fitWidths([20, 30, 60], 200), [20, 30, 60]);
  deepEqual(fitWidths([20, 30, 60], 80), [20, 30, 26]);
  deepEqual(
    fitWidths([63, 56, 200], 80, [{ min: 16, share: 0.34 }, { min: 14, share: 0.25 }, {
      min: 20,
      share: 1,
    }]),
    [25, 19, 32],
  );
  deepEqual(fitWidths([40, 40, 40], 20), [10, 5, 1], "below the minimums: the last give first");
  const rows: Cell[][] = [
    ["NAME", "FROM", "DESCRIPTION"],
    [
      "claude-code-brand-guidelines",
      "claude plugin skill-creator@claude-plugins-official",
      "x ".repeat(80),
    ],
  ];
  for (const w of [40, 60, 80, 100, 160]) {
    const table = formatTable(rows, { width: w });
    for (const line of table.split("\n")) ok(cellWidth(line) <= w, `${line} > ${w}`);
  }
  equal(formatTable(rows), formatTable(rows, {}), "no width: whole");
});
