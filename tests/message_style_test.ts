// One message style (issue 33, point 5; the rule is in docs/ARCHITECTURE.md, "One error model"):
// no error or refusal message ends in a period — a surface places it after its prefix, inside
// its own sentence, in a JSON `error` field or on a page line that ends its own sentence — and a
// message a surface shows whole starts with a capital, while a clause a surface composes after a
// subject starts lowercase. Held two ways: the message tables' values as the code builds them,
// and the source text of every shipped module (each `new …Error(…)`, each `failure(…)` and each
// message-table literal). Sources are read as text, so the test needs no build.
import { deepEqual } from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MESSAGES } from "../lib/bundle/_manifest.ts";
import { READ_MESSAGES } from "../lib/bundle/_read.ts";
import { SKILL_ENTRY_FAULTS, UNBUNDLABLE_REASONS } from "../lib/lock/_format.ts";
import { CHECK_INPUT_MESSAGES } from "../lib/check/_check.ts";
import { ROOT } from "./helpers.ts";
import { sourceFiles } from "./source_helpers.ts";

/** Message tables shown whole (a bundle's `error`, a check report's `input_error`, a page line). */
const WHOLE: Record<string, Readonly<Record<string, string>>> = {
  MESSAGES,
  READ_MESSAGES,
  CHECK_INPUT_MESSAGES,
};
/** Message tables of clauses a surface composes after a subject ("skill x <reason>"). */
const CLAUSES: Record<string, Readonly<Record<string, string>>> = {
  UNBUNDLABLE_REASONS,
  SKILL_ENTRY_FAULTS,
};

/** The shipped code: the core, the surfaces and the entry points. */
const SHIPPED_DIRS = ["lib", "cli", "mcp", "dsh", "web/src"];
const SHIPPED_FILES = ["main.ts", "mod.ts"];

/** A final period (an ellipsis is not one, nor a lone `.` naming the current folder). */
const FINAL_PERIOD = /(?<![.\s])\.\s*$/;

/** A comment, a string literal (double, single, template) or one of `( ) { } ;`. */
const TOKEN =
  /\/\/[^\n]*|\/\*[\s\S]*?\*\/|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`|[(){};]/g;

/**
 * The string literals inside each message-making construct of a module: the arguments of
 * `new …Error(…)` and `failure(…)`, and the body of a `const` table named like a message table
 * (`MESSAGES`, `…_MESSAGES`, `…REFUSALS`, `…REASONS`, `…FAULTS`, `…ERRORS`, `…WARNINGS`).
 * Comments are skipped; a construct ends at its matching `)` (or the table's `}`).
 */
function messageLiterals(file: string): { line: number; text: string }[] {
  const source = readFileSync(join(ROOT, file), "utf8");
  const starts =
    /\bnew\s+(?:[A-Z]\w*)?Error\s*\(|\bfailure\s*\(|\bconst\s+[A-Z_]*(?:MESSAGES|REFUSALS|REASONS|FAULTS|ERRORS|WARNINGS)\b[^=]*=\s*\{/g;
  const out: { line: number; text: string }[] = [];
  for (const start of source.matchAll(starts)) {
    const from = start.index! + start[0].length;
    let depth = 1;
    TOKEN.lastIndex = from;
    for (let token = TOKEN.exec(source); token !== null; token = TOKEN.exec(source)) {
      const [text] = token;
      if (text === "(" || text === "{") depth++;
      else if (text === ")" || text === "}") depth--;
      else if (/^["'`]/.test(text)) {
        out.push({
          line: source.slice(0, token.index).split("\n").length,
          text: text.slice(1, -1),
        });
      }
      if (depth === 0) break;
    }
  }
  return out;
}

Deno.test("message style: no message table entry ends in a period", () => {
  const bad = Object.entries({ ...WHOLE, ...CLAUSES }).flatMap(([table, messages]) =>
    Object.entries(messages).filter(([, text]) => FINAL_PERIOD.test(text)).map(([kind, text]) =>
      `${table}.${kind}: ${text}`
    )
  );
  deepEqual(bad, []);
});

Deno.test("message style: whole messages start with a capital, composed clauses lowercase", () => {
  const bad = [
    ...Object.entries(WHOLE).flatMap(([table, messages]) =>
      Object.entries(messages).filter(([, text]) => !/^[A-Z]/.test(text)).map(([kind]) =>
        `${table}.${kind} is shown whole but starts lowercase`
      )
    ),
    ...Object.entries(CLAUSES).flatMap(([table, messages]) =>
      Object.entries(messages).filter(([, text]) => !/^[a-z]/.test(text)).map(([kind]) =>
        `${table}.${kind} is composed after a subject but starts with a capital`
      )
    ),
  ];
  deepEqual(bad, []);
});

Deno.test("message style: no error, failure or message-table literal in shipped code ends in a period", () => {
  const files = [...SHIPPED_DIRS.flatMap((dir) => sourceFiles(dir)), ...SHIPPED_FILES];
  const bad = files.flatMap((file) =>
    messageLiterals(file).filter(({ text }) => FINAL_PERIOD.test(text)).map(({ line, text }) =>
      `${file}:${line}: ${text}`
    )
  );
  deepEqual(bad, []);
});

Deno.test("message style: the scan sees the constructs it holds", () => {
  // A scanner that found nothing would pass every module: it must see known messages.
  const found = (file: string, text: string) =>
    messageLiterals(file).some((literal) => literal.text === text);
  deepEqual(
    [
      found("lib/bundle/_messages.ts", "Manifest is not valid JSON"),
      found("lib/sources/_cache.ts", "${path} is not a Git repository"),
      found("web/src/dom.ts", "The page has no element #${id}"),
    ],
    [true, true, true],
  );
});
