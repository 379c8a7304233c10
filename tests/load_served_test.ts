// The verified read of a served file (lib/load/_served.ts): the bytes are served only when the
// file is, now, exactly the one published (its real path, size and SHA-256); anything else is a
// `changed` failure whose message quotes no file content. Real files in a temp folder.
import { deepEqual, equal } from "node:assert/strict";
import { realpathSync } from "node:fs";
import { readServedSync } from "../lib/load/_served.ts";
import { mkfifo, sha, withTempDir, writeTree } from "./helpers.ts";

const TEXT = "---\nname: pdf\ndescription: PDF tools.\n---\nSECRET-BODY\n";

/** A published file of `text` at `<dir>/skill/SKILL.md` (the folder's real path). */
async function published(dir: string, text = TEXT) {
  await writeTree(dir, { "skill/SKILL.md": text, "elsewhere/SKILL.md": text.toUpperCase() });
  const abs = `${realpathSync(dir)}/skill/SKILL.md`;
  return { abs, size: new TextEncoder().encode(text).length, sha256: sha(text) };
}

Deno.test("served read: the file as published is served byte for byte", async () => {
  await withTempDir(async (dir) => {
    const file = await published(dir);
    const read = readServedSync(file);
    equal(read.ok, true);
    if (read.ok) equal(new TextDecoder().decode(read.bytes), TEXT);
  });
});

Deno.test("served read: an edit of the same size, a growth, a shrink or a removal is changed", async () => {
  await withTempDir(async (dir) => {
    const file = await published(dir);
    const cases: Record<string, () => Promise<void>> = {
      "same size": () => Deno.writeTextFile(file.abs, TEXT.replace("SECRET", "SEKRIT")),
      "grown": () => Deno.writeTextFile(file.abs, `${TEXT}more\n`),
      "shrunk": () => Deno.writeTextFile(file.abs, TEXT.slice(0, 10)),
      "removed": () => Deno.remove(file.abs),
    };
    for (const [name, change] of Object.entries(cases)) {
      await Deno.writeTextFile(file.abs, TEXT);
      equal(readServedSync(file).ok, true, name);
      await change();
      const read = readServedSync(file);
      deepEqual([read.ok, read.ok ? "" : read.kind], [false, "changed"], name);
      if (!read.ok) equal(read.message.includes("SECRET"), false, name);
    }
  });
});

Deno.test("served read: a file swapped for a link, or a folder on the way that became a link, is changed", async () => {
  await withTempDir(async (dir) => {
    const file = await published(dir);
    const same = `${dir}/same.md`;
    await Deno.writeTextFile(same, TEXT);
    // A link to a file with exactly the published bytes is still refused: never followed.
    await Deno.remove(file.abs);
    await Deno.symlink(same, file.abs);
    equal(readServedSync(file).ok, false);
    // The skill folder replaced by a link to a folder holding the same bytes.
    await Deno.remove(`${dir}/skill`, { recursive: true });
    await writeTree(dir, { "copy/SKILL.md": TEXT });
    await Deno.symlink(`${dir}/copy`, `${dir}/skill`);
    const read = readServedSync(file);
    deepEqual([read.ok, read.ok ? "" : read.kind], [false, "changed"]);
  });
});

Deno.test("served read: a FIFO in the file's place is changed and never blocks", async () => {
  await withTempDir(async (dir) => {
    const file = await published(dir);
    await Deno.remove(file.abs);
    await mkfifo(file.abs);
    const read = readServedSync(file);
    deepEqual([read.ok, read.ok ? "" : read.kind], [false, "changed"]);
  });
});
