// `deno task test` runs this before and after the suite: `record` notes the content hash of every
// file git tracks (as the work tree has it, edits included), `compare` fails (exit 1) naming each
// tracked file the test run changed, added to or removed, so a test that writes into the checkout
// (as the browser test once rewrote docs/web-page.png) fails the run. Git-ignored output
// (node_modules/, .cache/, dist/) is not looked at.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";

const ROOT = new URL("..", import.meta.url).pathname;
const RECORD = join(ROOT, ".cache", "tracked-before.json");

/** Every tracked file that exists, with the hash of its bytes in the work tree. */
async function hashes(): Promise<Record<string, string>> {
  const files = (await output(["ls-files", "-z"])).split("\0").filter((path) => path !== "");
  const present: string[] = [];
  for (const path of files) {
    if (await Deno.stat(join(ROOT, path)).then((info) => info.isFile, () => false)) {
      present.push(path);
    }
  }
  const digests = (await output(["hash-object", "--stdin-paths"], present.join("\n") + "\n"))
    .trim().split("\n");
  return Object.fromEntries(present.map((path, index) => [path, digests[index]]));
}

async function output(args: string[], stdin?: string): Promise<string> {
  const child = new Deno.Command("git", {
    args,
    cwd: ROOT,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const { code, stdout } = await child.output();
  if (code !== 0) throw new Error(`git ${args[0]} exited ${code}`);
  return new TextDecoder().decode(stdout);
}

const mode = Deno.args[0];
if (mode === "record") {
  await mkdir(join(ROOT, ".cache"), { recursive: true });
  await writeFile(RECORD, JSON.stringify(await hashes()));
} else if (mode === "compare") {
  const before: Record<string, string> = JSON.parse(await readFile(RECORD, "utf8"));
  const after = await hashes();
  const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((path) => before[path] !== after[path]).sort();
  if (changed.length > 0) {
    console.error(`The test run changed ${changed.length} tracked file(s):`);
    for (const path of changed) console.error(`  ${path}`);
    process.exitCode = 1;
  }
} else {
  console.error("usage: deno run -A scripts/tracked.ts record|compare");
  process.exitCode = 2;
}
