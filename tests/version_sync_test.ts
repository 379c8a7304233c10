// One version everywhere (issue 31): `scripts/version.ts check` passes on the checkout, fails naming
// the file and key when any place drifts, and `set` moves every place at once, changing nothing
// else in the files.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { dirname, join } from "node:path";
import { VERSION } from "../lib/version.ts";
import { ROOT, run, type RunResult, withTempDir } from "./helpers.ts";

const SCRIPT = join(ROOT, "scripts", "version.ts");
const versionScript = (...args: string[]): Promise<RunResult> =>
  run(Deno.execPath(), ["run", "-A", "--quiet", SCRIPT, ...args]);

/** The files the places read, copied from the checkout to `dir` (those that exist). */
async function copyPlaces(dir: string): Promise<string[]> {
  const docs = [...Deno.readDirSync(join(ROOT, "docs"))]
    .filter((entry) => entry.name.endsWith(".md"))
    .map((entry) => `docs/${entry.name}`);
  const files = [
    "lib/version.ts",
    "deno.json",
    "server.json",
    ".claude-plugin/plugin.json",
    ".claude-plugin/marketplace.json",
    "plugin.json",
    "testdata/check/golden-mixed.json",
    "README.md",
    ...docs,
  ];
  const copied: string[] = [];
  for (const file of files) {
    const text = await Deno.readTextFile(join(ROOT, file)).catch(() => undefined);
    if (text === undefined) continue;
    await Deno.mkdir(dirname(join(dir, file)), { recursive: true });
    await Deno.writeTextFile(join(dir, file), text);
    copied.push(file);
  }
  return copied;
}

Deno.test("version: every place in the checkout states lib/version.ts's version", async () => {
  const result = await versionScript("check");
  equal(result.code, 0, result.stderr);
  match(result.stdout, new RegExp(`^${VERSION.replaceAll(".", "\\.")} in all \\d+ places\n$`));
  const places = Number(/in all (\d+) places/.exec(result.stdout)![1]);
  ok(places >= 10, `only ${places} places found`);
});

Deno.test("version: drift in a doc, a manifest key or the source fails the check, naming it", async () => {
  await withTempDir(async (dir) => {
    await copyPlaces(dir);
    equal((await versionScript("check", "--root", dir)).code, 0);
    const install = join(dir, "docs", "install.md");
    const text = await Deno.readTextFile(install);
    await Deno.writeTextFile(install, text.replace(`prints \`${VERSION}\``, "prints `9.9.9`"));
    const doc = await versionScript("check", "--root", dir);
    equal(doc.code, 1);
    match(doc.stderr, /docs\/install\.md \(line \d+\): 9\.9\.9, not /);
    await Deno.writeTextFile(install, text);

    const server = join(dir, "server.json");
    const manifest = JSON.parse(await Deno.readTextFile(server));
    manifest.packages[0].version = "0.0.1";
    await Deno.writeTextFile(server, JSON.stringify(manifest, null, 2));
    const key = await versionScript("check", "--root", dir);
    equal(key.code, 1);
    match(key.stderr, /server\.json \(packages\[0\]\.version\): 0\.0\.1, not /);

    await Deno.remove(join(dir, "deno.json"));
    const missing = await versionScript("check", "--root", dir);
    equal(missing.code, 1);
    match(missing.stderr, /missing: deno\.json/);
  });
});

Deno.test("version: set moves every place and nothing else", async () => {
  await withTempDir(async (dir) => {
    const files = await copyPlaces(dir);
    const before = new Map<string, string>();
    for (const file of files) before.set(file, await Deno.readTextFile(join(dir, file)));
    const next = "1.2.3-rc.1";
    const result = await versionScript("set", next, "--root", dir);
    equal(result.code, 0, result.stderr);
    match(result.stdout, new RegExp(`^1\\.2\\.3-rc\\.1 in all \\d+ places$`, "m"));
    const places = Number(/in all (\d+) places/.exec(result.stdout)![1]);
    const original = Number(
      /in all (\d+) places/.exec((await versionScript("check")).stdout)![1],
    );
    equal(places, original, "set kept every place");
    for (const file of files) {
      const now = await Deno.readTextFile(join(dir, file));
      // Put the old version back into the new text: the file must be what it was.
      deepEqual(
        now.replaceAll(next, VERSION),
        before.get(file),
        `${file} changed beyond the version`,
      );
    }
    const bad = await versionScript("set", "v2", "--root", dir);
    ok(bad.code !== 0);
    match(bad.stderr, /Not a version: v2/);
  });
});
