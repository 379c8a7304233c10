// One writer (issue 27, finding 3): no module the tool ships, outside `lib/fs/_write.ts`, writes a
// file itself — no `writeFile`, `appendFile`, `createWriteStream`, `mkdir`, `rename`, `copyFile`,
// `symlink`, an `open` with write flags, or a `Deno.*` write — so every file goes through the one
// function that never follows a link and never uses a name someone could plant. Each exception is
// listed with its reason. Sources are read as text, so the test needs no build; tests and build
// scripts are not shipped and are not scanned.
import { deepEqual } from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./helpers.ts";
import { sourceFiles } from "./source_helpers.ts";

/** The shipped code: the core, the surfaces, the entry points and the Action's script. */
const SHIPPED_DIRS = ["lib", "cli", "mcp", "dsh", "web/src"];
const SHIPPED_FILES = ["main.ts", "mod.ts", "npm/cli.ts", "scripts/action.ts"];
/** The one writer. */
const WRITER = "lib/fs/_write.ts";
/** Calls allowed elsewhere, each for a reason (`file: name`). */
const ALLOWED: Record<string, string> = {
  "lib/sources/_cache.ts: rename":
    "moves a checkout folder between entries of the real cache folder, both checked first",
  "cli/io.ts: writeSync":
    "writes the process's own stdout and stderr (descriptors 1 and 2), never opens a file by name",
  "lib/sources/_outdated.ts: mkdtemp":
    "a fresh, randomly named, exclusively created temporary folder git runs in, removed after",
};

/** `node:fs` functions that write, create or move (their `Sync` forms too). */
const FS_WRITES = [
  "writeFile",
  "appendFile",
  "createWriteStream",
  "rename",
  "copyFile",
  "cp",
  "mkdir",
  "mkdtemp",
  "symlink",
  "link",
  "truncate",
  "ftruncate",
  "write",
  "writev",
];
/** `Deno` functions that write, create or move (their `Sync` forms too). */
const DENO_WRITES = [
  "writeFile",
  "writeTextFile",
  "create",
  "open",
  "mkdir",
  "rename",
  "copyFile",
  "symlink",
  "link",
  "truncate",
  "makeTempFile",
  "makeTempDir",
];
/** Flags that make an `open` a write. */
const WRITE_FLAGS = /\bO_(?:WRONLY|RDWR|CREAT|APPEND|TRUNC)\b|["'](?:[wa]x?\+?|r\+)["']/;

/** The text without comments (string contents kept: an import specifier is one). */
function withoutComments(text: string): string {
  return text.replace(
    /\/\/[^\n]*|\/\*[\s\S]*?\*\/|("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)/g,
    (_match, string) => string ?? "",
  );
}

const withSync = (names: readonly string[]) => names.flatMap((n) => [n, `${n}Sync`]);

/** The write calls of one module's text, as `name` (local names resolved to `node:fs` names). */
export function writeCalls(source: string): string[] {
  const text = withoutComments(source);
  const found = new Set<string>();
  const writes = new Set(withSync(FS_WRITES));
  const opens = WRITE_FLAGS.test(text) ? ["open", "openSync"] : [];
  const promisesOpen = /from\s+"(?:node:)?fs\/promises"/.test(text) ? ["open"] : [];
  for (const m of text.matchAll(/import\s+([^;]*?)\s+from\s+"(?:node:)?fs(\/promises)?"/g)) {
    const clause = m[1];
    const isPromises = m[2] !== undefined;
    const named = clause.match(/\{([^}]*)\}/)?.[1] ?? "";
    for (const part of named.split(",").map((p) => p.trim()).filter((p) => p !== "")) {
      const [imported, local = imported] = part.replace(/^type\s+/, "").split(/\s+as\s+/);
      const isWrite = writes.has(imported) || opens.includes(imported) ||
        (isPromises && promisesOpen.includes(imported));
      if (isWrite && new RegExp(`(?<![\\w.])${local}\\s*\\(`).test(text)) found.add(imported);
    }
    const namespace = clause.match(/\*\s+as\s+(\w+)/)?.[1] ?? clause.match(/^(\w+)/)?.[1];
    if (namespace !== undefined) {
      for (const call of text.matchAll(new RegExp(`\\b${namespace}\\.(\\w+)\\s*\\(`, "g"))) {
        if (writes.has(call[1]) || opens.includes(call[1])) found.add(call[1]);
      }
    }
  }
  for (const call of text.matchAll(/\bDeno\.(\w+)\s*\(/g)) {
    if (withSync(DENO_WRITES).includes(call[1])) found.add(`Deno.${call[1]}`);
  }
  return [...found].sort();
}

Deno.test("one writer: the detector finds each way of writing, and no read", () => {
  deepEqual(
    writeCalls('import { writeFile } from "node:fs/promises";\nawait writeFile(p, "x");'),
    ["writeFile"],
  );
  deepEqual(
    writeCalls('import { appendFile as add } from "node:fs/promises";\nawait add(p, "x");'),
    ["appendFile"],
  );
  deepEqual(
    writeCalls('import * as fs from "node:fs";\nfs.createWriteStream(p); fs.renameSync(a, b);'),
    ["createWriteStream", "renameSync"],
  );
  deepEqual(
    writeCalls('import fs from "node:fs";\nfs.mkdirSync(p, { recursive: true });'),
    ["mkdirSync"],
  );
  deepEqual(
    writeCalls('import { constants, openSync } from "node:fs";\nopenSync(p, constants.O_WRONLY);'),
    ["openSync"],
  );
  deepEqual(writeCalls('import { openSync } from "node:fs";\nopenSync(p, "a");'), ["openSync"]);
  deepEqual(writeCalls('import { open } from "node:fs/promises";\nawait open(p);'), ["open"]);
  deepEqual(writeCalls('await Deno.writeTextFile(p, "x");\nDeno.mkdirSync(d);'), [
    "Deno.mkdirSync",
    "Deno.writeTextFile",
  ]);
  deepEqual(
    writeCalls(
      'import { constants, openSync, readSync } from "node:fs";\n' +
        "// writeFile(p) in a comment\nopenSync(p, constants.O_RDONLY); readSync(fd, b);",
    ),
    [],
  );
});

Deno.test("one writer: no shipped module but lib/fs/_write.ts writes a file", () => {
  const files = [...SHIPPED_DIRS.flatMap((dir) => sourceFiles(dir)), ...SHIPPED_FILES];
  const bad: string[] = [];
  const used = new Set<string>();
  for (const file of files.filter((f) => f !== WRITER)) {
    for (const call of writeCalls(readFileSync(join(ROOT, file), "utf8"))) {
      const key = `${file}: ${call}`;
      if (ALLOWED[key] !== undefined) used.add(key);
      else bad.push(key);
    }
  }
  deepEqual(bad, [], bad.join("\n"));
  // Every exception is still needed (a stale one would hide a new call of the same name).
  deepEqual([...used].sort(), Object.keys(ALLOWED).sort());
});
