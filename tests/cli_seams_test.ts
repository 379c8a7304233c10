// The CLI's own seams: no import circle between its modules (a command file names the program
// and its exit codes from the leaf cli/program.ts, never from the command table that loads
// it), and no command returns a bare exit code (each is an outcome of the one table, EXIT).
// Sources are read as text, so the test needs no build.
import { deepEqual } from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { EXIT } from "../cli/program.ts";
import { ROOT } from "./helpers.ts";
import { cyclesOf } from "./source_helpers.ts";

const CLI = "cli";

/** Every module of the CLI, by file name. */
const modules = readdirSync(join(ROOT, CLI)).filter((name) => name.endsWith(".ts")).sort();

/** A module's text without comments, lines kept (JSDoc examples import what they show). */
function code(name: string): string {
  return readFileSync(join(ROOT, CLI, name), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ""))
    .replace(/\/\/[^\n]*/g, "");
}

/** The CLI modules `name` imports: static, type-only, dynamic and `typeof import(…)`. */
function importsOf(name: string): string[] {
  const found = code(name).matchAll(/(?:\bfrom\s+|\bimport\(\s*)"\.\/([a-z_]+\.ts)"/g);
  return [...new Set([...found].map((m) => m[1]))].filter((file) => modules.includes(file));
}

Deno.test("cli seams: no import circle between the CLI's modules", () => {
  deepEqual(cyclesOf(modules, importsOf), []);
  // The table is imported only by what dispatches and documents the commands.
  const table = modules.filter((name) => importsOf(name).includes("commands.ts"));
  deepEqual(table, ["help.ts", "mod.ts"]);
});

Deno.test("cli seams: every exit code is an outcome of the one table", () => {
  deepEqual(EXIT, { ok: 0, failed: 1, refused: 2, usage: 2, bug: 1 });
  const bare = [
    /\breturn\s+\d\s*;/, // return 2;
    /\breturn\b[^;]*\?\s*\d\s*:\s*\d\s*;/, // return matches ? 0 : 1;
    /^\s*[?:]\s*\d\s*;?$/, // a ternary's branch on its own line
    /\b(?:code|exitCode)\b(?:\s*:\s*\w+)?\s*=\s*(?:[^=;]*\?\s*)?\d\b/, // code = 1, code = x ? 2 : 1
  ];
  const bad: string[] = [];
  for (const name of modules.filter((m) => m !== "program.ts")) {
    code(name).split("\n").forEach((line, i) => {
      if (bare.some((pattern) => pattern.test(line))) bad.push(`${name}:${i + 1}: ${line.trim()}`);
    });
  }
  deepEqual(bad, []);
});
