import { deepEqual, equal, rejects } from "node:assert/strict";
import { join } from "node:path";
import {
  mergeSources,
  projectSourcesFile,
  readCommitRecord,
  readSourcesFile,
  userSourcesFile,
  writeCommitRecord,
  writeSourcesFile,
} from "../lib/sources/_files.ts";
import { resolveSource, SourceError, type SourceErrorKind } from "../lib/sources/_resolve.ts";
import { listTree, withTempDir, writeTree } from "./helpers.ts";

const SHA = "0123456789abcdef0123456789abcdef01234567";

async function rejectsWith(
  promise: Promise<unknown>,
  kind: SourceErrorKind,
  message: string,
): Promise<void> {
  await rejects(promise, (error: unknown) => {
    equal(error instanceof SourceError, true);
    equal((error as SourceError).kind, kind);
    equal((error as Error).message, message);
    return true;
  });
}

Deno.test("sources file locations", () => {
  equal(userSourcesFile("/h/.dsh"), join("/h/.dsh", "skills-anywhere", "sources.json"));
  equal(projectSourcesFile("/w/app"), join("/w/app", ".dsh", "skills-anywhere.json"));
});

Deno.test("a missing sources file is an empty list", async () => {
  await withTempDir(async (dir) => {
    deepEqual(await readSourcesFile(join(dir, "nope", "sources.json")), []);
    deepEqual(await listTree(dir), []);
  });
});

Deno.test("{sources} and a bare array are both read; strings become {repo}", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "wrapped.json": JSON.stringify({
        sources: ["o/r", { repo: "o/x", ref: "v1", path: "skills", rank: 10 }],
      }),
      "bare.json": JSON.stringify(["a/b", { repo: "c/d" }]),
    });
    deepEqual(await readSourcesFile(join(dir, "wrapped.json")), [
      { repo: "o/r" },
      { repo: "o/x", ref: "v1", path: "skills", rank: 10 },
    ]);
    deepEqual(await readSourcesFile(join(dir, "bare.json")), [{ repo: "a/b" }, { repo: "c/d" }]);
  });
});

Deno.test("invalid entries are rejected with the entry as JSON", async () => {
  await withTempDir(async (dir) => {
    const cases: Array<[string, unknown]> = [
      ["number.json", { sources: [42] }],
      ["no-repo.json", { sources: [{ ref: "main" }] }],
      ["bad-ref.json", { sources: [{ repo: "o/r", ref: 1 }] }],
      ["bad-rank.json", { sources: [{ repo: "o/r", rank: "high" }] }],
      ["empty.json", ["o/r", ""]],
      ["null.json", [null]],
    ];
    for (const [name, content] of cases) {
      await writeTree(dir, { [name]: JSON.stringify(content) });
      const list = Array.isArray(content) ? content : (content as { sources: unknown[] }).sources;
      const at = list.findIndex((entry) => entry !== "o/r");
      await rejectsWith(
        readSourcesFile(join(dir, name)),
        "invalid-entry",
        `${join(dir, name)}: entry ${at + 1} is not a source string or {repo, ref?, path?, rank?}`,
      );
    }
  });
});

Deno.test("a wrong shape is rejected", async () => {
  await withTempDir(async (dir) => {
    for (
      const [name, content] of [["nope.json", { nope: true }], ["str.json", "o/r"], ["obj.json", {
        sources: {},
      }], ["null.json", null]] as const
    ) {
      await writeTree(dir, { [name]: JSON.stringify(content) });
      await rejectsWith(
        readSourcesFile(join(dir, name)),
        "invalid-shape",
        `${join(dir, name)}: not {"sources": [...]}`,
      );
    }
  });
});

Deno.test("broken JSON in a sources file is a clear error", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, { "broken.json": '{"sources": [' });
    await rejects(readSourcesFile(join(dir, "broken.json")), (error: unknown) => {
      equal(error instanceof SourceError, true);
      equal((error as SourceError).kind, "invalid-json");
      equal(
        (error as Error).message.startsWith(`${join(dir, "broken.json")}: not valid JSON (`),
        true,
      );
      return true;
    });
  });
});

Deno.test("writeSourcesFile writes {sources} with 2 spaces, creates parents, round-trips", async () => {
  await withTempDir(async (dir) => {
    const file = userSourcesFile(join(dir, "home", ".dsh"));
    await writeSourcesFile(file, ["o/r", { repo: "o/x", ref: "v1", path: undefined, rank: 5 }]);
    const text = await Deno.readTextFile(file);
    equal(
      text,
      '{\n  "sources": [\n    {\n      "repo": "o/r"\n    },\n    {\n      "repo": "o/x",\n      "ref": "v1",\n      "rank": 5\n    }\n  ]\n}\n',
    );
    deepEqual(await readSourcesFile(file), [{ repo: "o/r" }, { repo: "o/x", ref: "v1", rank: 5 }]);
    // no staging file is left next to it
    deepEqual(await listTree(join(dir, "home")), [
      ".dsh",
      ".dsh/skills-anywhere",
      ".dsh/skills-anywhere/sources.json",
    ]);
  });
});

Deno.test("the lock round-trips and a broken lock reads {}", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "state", "lock.json");
    deepEqual(await readCommitRecord(file), {});
    const lock = {
      "github.com/o/r": {
        url: "https://github.com/o/r.git",
        sha: SHA,
        syncedAt: "2025-01-02T03:04:05.000Z",
      },
      "github.com/o/r@v1": {
        url: "https://github.com/o/r.git",
        ref: "v1",
        sha: SHA,
        syncedAt: "2025-01-02T03:04:05.000Z",
      },
    };
    await writeCommitRecord(file, lock);
    equal(await Deno.readTextFile(file), `${JSON.stringify(lock, null, 2)}\n`);
    deepEqual(await readCommitRecord(file), lock);

    for (const broken of ["{", "[]", "null", '"x"', ""]) {
      await Deno.writeTextFile(file, broken);
      deepEqual(await readCommitRecord(file), {}, broken);
    }
    // a directory where the file should be is unreadable: {}
    deepEqual(await readCommitRecord(dir), {});
  });
});

Deno.test("readCommitRecord drops malformed entries and keeps a __proto__ key as data", async () => {
  await withTempDir(async (dir) => {
    const file = join(dir, "lock.json");
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        good: { url: "u", sha: SHA, syncedAt: "t" },
        noSha: { url: "u", syncedAt: "t" },
        badRef: { url: "u", ref: 1, sha: SHA, syncedAt: "t" },
        list: [1],
      }).replace('"good"', '"__proto__":{"url":"p","sha":"s","syncedAt":"t"},"good"'),
    );
    const lock = await readCommitRecord(file);
    deepEqual(Object.keys(lock).sort(), ["__proto__", "good"]);
    equal(Object.getPrototypeOf(lock), Object.prototype);
    deepEqual(lock.good, { url: "u", sha: SHA, syncedAt: "t" });
  });
});

Deno.test("mergeSources keeps the first of every (id, ref, path)", () => {
  const cache = "/tmp/dsa-cache";
  const r = (spec: Parameters<typeof resolveSource>[0]) => resolveSource(spec, cache);
  const config = [r("o/r"), r("o/r/skills")];
  const user = [
    r({ repo: "https://github.com/o/r.git", rank: 1 }),
    r("o/r@v1"),
    r({ repo: "o/r", path: "skills/" }),
  ];
  const project = [r("o/r#v1"), r("o/r/other"), r("x/y")];
  const merged = mergeSources(config, user, project);
  deepEqual(merged.map((source) => [source.key, source.path ?? null, source.rank ?? null]), [
    ["github.com/o/r", null, null],
    ["github.com/o/r", "skills", null],
    ["github.com/o/r@v1", null, null],
    ["github.com/o/r", "other", null],
    ["github.com/x/y", null, null],
  ]);
  deepEqual(mergeSources(), []);
});
