// The resource check against a list of file names (what the browser page sees of a chosen folder)
// gives the report of the check on disk, but for `method`, on the same tree: every status a list
// of names can show (present file and folder, wrong case at any segment, missing, a file named as
// a folder, outside, invalid).
import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import {
  checkResourceNames,
  checkResources,
  MAX_SELECTED_FILES,
  resolveInNames,
} from "../lib/check/_resources.ts";
import { listTree, withTempDir, writeTree } from "./helpers.ts";

const SKILL = [
  "---",
  "name: demo",
  "description: Demo.",
  "---",
  "Read [a](reference/guide.md), [b](Reference/guide.md), [c](reference/GUIDE.md),",
  "[d](scripts/), [e](Scripts/run.py), [f](scripts/run.py/x), [g](missing.md),",
  "[h](../up.md), [i](%zz), [j](./reference/../reference/guide.md#top), [k](.), [l](assets/Logo.PNG).",
  "Run `scripts/run.py` and see notes.md and templates/form.txt.",
  "",
].join("\n");

const TREE = {
  "SKILL.md": SKILL,
  "reference/guide.md": "# Guide\n",
  "scripts/run.py": "print(1)\n",
  "assets/logo.png": "png",
  "templates/form.txt": "form\n",
  "Notes.md": "notes\n",
};

Deno.test("the resource check on file names matches the check on disk", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, TREE);
    const disk = await checkResources(join(dir, "SKILL.md"), SKILL);
    const files = (await listTree(dir)).filter((path) => Deno.statSync(join(dir, path)).isFile);
    const names = await checkResourceNames(SKILL, files);
    equal(names.method, "selected-files");
    deepEqual({ ...names, method: "filesystem" }, disk);
    // The tree really shows each status a list of names can show.
    deepEqual(
      [...new Set(disk.references.map((r) => r.status))].sort(),
      ["invalid", "missing", "outside", "present", "wrong-case"],
    );
  });
});

Deno.test("resolveInNames: folders are implied by the files in them; a file is no folder", () => {
  const resolve = resolveInNames(["a/b/c.md", "a/d.md", "E.md"]);
  deepEqual(resolve("."), { status: "present", kind: "directory" });
  deepEqual(resolve("a"), { status: "present", kind: "directory" });
  deepEqual(resolve("a/b"), { status: "present", kind: "directory" });
  deepEqual(resolve("a/b/c.md"), { status: "present", kind: "file" });
  deepEqual(resolve("A/B/c.md"), { status: "wrong-case", onDisk: "a/B/c.md" });
  deepEqual(resolve("a/B/c.md"), { status: "wrong-case", onDisk: "a/b/c.md" });
  deepEqual(resolve("e.md"), { status: "wrong-case", onDisk: "E.md" });
  deepEqual(resolve("a/d.md/x"), { status: "missing" });
  deepEqual(resolve("a/x.md"), { status: "missing" });
  equal(MAX_SELECTED_FILES, 10_000);
});
