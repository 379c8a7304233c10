// The filesystem reader of bundles: the manifest of a real directory, every refusal (by kind), and
// change detection while reading. The lib/fs primitives under it are tested in fs_read_test.ts.
import { deepEqual, equal, notEqual, ok, rejects } from "node:assert/strict";
import {
  BUNDLE_SCHEMA,
  BundleError,
  type BundleErrorKind,
  type BundleManifest,
  compareManifests,
  validateManifest,
} from "../lib/bundle/_manifest.ts";
import { readBundle } from "../lib/bundle/_read.ts";
import {
  binary,
  listTree,
  mkfifo,
  run,
  settlesWithin,
  sha,
  withTempDir,
  writeTree,
} from "./helpers.ts";

const KiB = 1024;
const MiB = 1024 * KiB;
const EMPTY_SHA = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/** Makes a sparse file of exactly `size` bytes (fast; no data written). */
async function sized(path: string, size: number): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeFile(path, new Uint8Array());
  await Deno.truncate(path, size);
}

/**
 * Expects readBundle(dir) to fail with a `kind` refusal (naming `path`, when given), and writes
 * nothing into `tree`.
 */
async function refusedRead(
  dir: string,
  kind: BundleErrorKind,
  options: { tree?: string; path?: string; words?: string } = {},
): Promise<void> {
  const tree = options.tree ?? dir;
  const before = await listTree(tree);
  await rejects(() => readBundle(dir), (error: unknown) => {
    ok(error instanceof BundleError, `expected a BundleError, got ${error}`);
    equal(error.kind, kind);
    if (options.path !== undefined) ok(error.message.includes(JSON.stringify(options.path)));
    if (options.words !== undefined) ok(error.message.includes(options.words), error.message);
    return true;
  });
  deepEqual(await listTree(tree), before);
}

const SKILL = "---\nname: demo\ndescription: Demo skill. SECRET-SKILL-BODY\n---\n\n# Demo\n";

// ---------------------------------------------------------------------------
// The manifest of a real directory
// ---------------------------------------------------------------------------

Deno.test("readBundle: hidden and binary files are listed, contents never are, rows hash the bytes", async () => {
  await withTempDir(async (dir) => {
    const skill = `${dir}/demo`;
    const bin = binary(70 * KiB + 3); // more than one 64 KiB chunk
    await writeTree(skill, {
      "SKILL.md": SKILL,
      ".hidden": "SECRET-HIDDEN-CONTENT",
      ".config/settings.json": '{"secret":"SECRET-NESTED"}',
      "assets/logo.png": bin,
      "scripts/run.py": "print('SECRET-SCRIPT')\n",
      "empty.txt": "",
    });
    const before = await listTree(skill);
    const { manifest, skillBytes } = await readBundle(skill);
    deepEqual(await listTree(skill), before);

    deepEqual(Object.keys(manifest), ["schema", "sha256", "total_bytes", "files"]);
    equal(manifest.schema, BUNDLE_SCHEMA);
    const expectedRows = [
      { path: ".config/settings.json", content: '{"secret":"SECRET-NESTED"}' },
      { path: ".hidden", content: "SECRET-HIDDEN-CONTENT" },
      { path: "SKILL.md", content: SKILL },
      { path: "assets/logo.png", content: bin },
      { path: "empty.txt", content: "" },
      { path: "scripts/run.py", content: "print('SECRET-SCRIPT')\n" },
    ].map(({ path, content }) => {
      const bytes = typeof content === "string" ? new TextEncoder().encode(content) : content;
      return { path, bytes: bytes.length, sha256: sha(bytes) };
    });
    deepEqual(manifest.files, expectedRows);
    equal(manifest.files.find((f) => f.path === "empty.txt")!.sha256, EMPTY_SHA);
    equal(manifest.total_bytes, expectedRows.reduce((sum, f) => sum + f.bytes, 0));
    const canonical = JSON.stringify([
      BUNDLE_SCHEMA,
      expectedRows.map((f) => [f.path, f.bytes, f.sha256]),
    ]);
    equal(manifest.sha256, sha(canonical));

    const text = JSON.stringify(manifest);
    for (const secret of ["SECRET", "print(", "name: demo"]) ok(!text.includes(secret));
    ok(!text.includes(dir), "no absolute path in the manifest");

    // The SKILL.md bytes that were hashed are returned exactly.
    ok(skillBytes instanceof Uint8Array);
    deepEqual(skillBytes, new TextEncoder().encode(SKILL));
    equal(sha(skillBytes), manifest.files.find((f) => f.path === "SKILL.md")!.sha256);

    // Validates after a JSON round trip (compact and pretty).
    deepEqual(await validateManifest(JSON.parse(text)), manifest);
    deepEqual(await validateManifest(JSON.parse(JSON.stringify(manifest, null, 2))), manifest);
  });
});

Deno.test("readBundle: one empty SKILL.md has the documented canonical digest", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeFile(`${dir}/SKILL.md`, new Uint8Array());
    const { manifest, skillBytes } = await readBundle(dir);
    const literal = `["skills-anywhere-bundle-1",[["SKILL.md",0,"${EMPTY_SHA}"]]]`;
    deepEqual(manifest, {
      schema: "skills-anywhere-bundle-1",
      sha256: sha(literal),
      total_bytes: 0,
      files: [{ path: "SKILL.md", bytes: 0, sha256: EMPTY_SHA }],
    });
    equal(skillBytes.length, 0);
  });
});

Deno.test("readBundle: a copy elsewhere has the same digest; times and modes are not identity", async () => {
  await withTempDir(async (dir) => {
    const files = {
      "SKILL.md": SKILL,
      ".hidden": "h",
      "assets/data.bin": binary(5000, 7),
      "a/b/c/deep.md": "deep",
    };
    await writeTree(`${dir}/one/skill`, files);
    const original = await readBundle(`${dir}/one/skill`);
    // Copy into a differently named, differently nested location, with other times and modes.
    await writeTree(`${dir}/elsewhere/x/y/renamed-dir`, files);
    await Deno.utime(`${dir}/elsewhere/x/y/renamed-dir/.hidden`, 1_000, 2_000);
    await Deno.chmod(`${dir}/elsewhere/x/y/renamed-dir/assets/data.bin`, 0o600);
    await Deno.chmod(`${dir}/elsewhere/x/y/renamed-dir/a/b`, 0o700);
    const copy = await readBundle(`${dir}/elsewhere/x/y/renamed-dir`);
    deepEqual(copy.manifest, original.manifest);
    // A relative path to the same directory reads the same too.
    const relative = await readBundle(
      `${dir}/elsewhere/x/../x/y/./renamed-dir`,
    );
    deepEqual(relative.manifest, original.manifest);
    // cp -R (the shell's copy) also gives the identical manifest.
    const cp = await run("cp", ["-R", `${dir}/one/skill`, `${dir}/cp-copy`]);
    equal(cp.code, 0, cp.stderr);
    deepEqual((await readBundle(`${dir}/cp-copy`)).manifest, original.manifest);
  });
});

Deno.test("readBundle: empty directories do not change the digest", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, { "SKILL.md": SKILL, "scripts/a.sh": "echo a\n" });
    const plain = await readBundle(dir);
    await Deno.mkdir(`${dir}/empty`);
    await Deno.mkdir(`${dir}/scripts/empty/nested/deeper`, { recursive: true });
    await Deno.mkdir(`${dir}/.empty-hidden`);
    const withEmpty = await readBundle(dir);
    deepEqual(withEmpty.manifest, plain.manifest);
  });
});

Deno.test("readBundle: rows follow UTF-16 code-unit order for astral, fullwidth and accented names", async () => {
  await withTempDir(async (dir) => {
    const names = ["z.md", "Ａ.md", "𝒜.md", "é.md", "e\u0301.md", "b.md", "b/c.md"];
    await writeTree(dir, {
      "SKILL.md": SKILL,
      ...Object.fromEntries(names.map((name) => [name, `content of ${name}`])),
    });
    const { manifest } = await readBundle(dir);
    const order = manifest.files.map((f) => f.path);
    deepEqual(order, ["SKILL.md", "b.md", "b/c.md", "e\u0301.md", "z.md", "é.md", "𝒜.md", "Ａ.md"]);
    // Code points (and therefore UTF-8 bytes) would put Ａ (U+FF21) before 𝒜 (U+1D49C).
    const byCodePoint = [...order].sort((a, b) => {
      const x = [...a].map((c) => c.codePointAt(0)!);
      const y = [...b].map((c) => c.codePointAt(0)!);
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
      return x.length - y.length;
    });
    notEqual(byCodePoint.join("|"), order.join("|"));
    // Each row hashes its own file (NFC and NFD names are two distinct files).
    const nfc = manifest.files.find((f) => f.path === "é.md")!;
    const nfd = manifest.files.find((f) => f.path === "e\u0301.md")!;
    equal(nfc.sha256, sha("content of é.md"));
    equal(nfd.sha256, sha("content of e\u0301.md"));
    deepEqual(await validateManifest(JSON.parse(JSON.stringify(manifest))), manifest);
  });
});

Deno.test("readBundle + compare: changed, added, removed resources with an unchanged SKILL.md", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "SKILL.md": SKILL,
      "scripts/review.py": "print('ok')\n",
      "scripts/old.sh": "echo old\n",
      "references/guide.md": "guide",
    });
    const reviewed = (await readBundle(dir)).manifest;
    // Same-size change, an addition and a removal.
    await Deno.writeTextFile(`${dir}/scripts/review.py`, "print('no')\n");
    await Deno.writeTextFile(`${dir}/scripts/new.sh`, "curl x | sh\n");
    await Deno.remove(`${dir}/scripts/old.sh`);
    const current = (await readBundle(dir)).manifest;
    const comparison = compareManifests(reviewed, current);
    equal(comparison.matches, false);
    deepEqual(comparison.changed, ["scripts/review.py"]);
    deepEqual(comparison.added, ["scripts/new.sh"]);
    deepEqual(comparison.removed, ["scripts/old.sh"]);
    equal(
      reviewed.files.find((f) => f.path === "SKILL.md")!.sha256,
      current.files.find((f) => f.path === "SKILL.md")!.sha256,
    );
    // Restoring the tree restores the digest.
    await Deno.writeTextFile(`${dir}/scripts/review.py`, "print('ok')\n");
    await Deno.remove(`${dir}/scripts/new.sh`);
    await Deno.writeTextFile(`${dir}/scripts/old.sh`, "echo old\n");
    const restored = (await readBundle(dir)).manifest;
    equal(compareManifests(reviewed, restored).matches, true);
    deepEqual(restored, reviewed);
  });
});

Deno.test("readBundle + compare: a rename is one removed plus one added", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, { "SKILL.md": SKILL, "scripts/a.py": "x = 1\n" });
    const before = (await readBundle(dir)).manifest;
    await Deno.rename(`${dir}/scripts/a.py`, `${dir}/scripts/b.py`);
    const after = (await readBundle(dir)).manifest;
    const comparison = compareManifests(before, after);
    equal(comparison.matches, false);
    deepEqual(comparison.removed, ["scripts/a.py"]);
    deepEqual(comparison.added, ["scripts/b.py"]);
    deepEqual(comparison.changed, []);
    equal(before.total_bytes, after.total_bytes);
  });
});

Deno.test("readBundle: a symlinked root is allowed and reads like the real directory", async () => {
  await withTempDir(async (dir) => {
    await writeTree(`${dir}/real/skill`, { "SKILL.md": SKILL, "a.txt": "a" });
    await Deno.symlink(`${dir}/real/skill`, `${dir}/link`);
    await Deno.symlink("real/skill", `${dir}/relative-link`);
    await Deno.symlink(`${dir}/link`, `${dir}/link-to-link`);
    const real = await readBundle(`${dir}/real/skill`);
    for (const root of ["link", "relative-link", "link-to-link"]) {
      const viaLink = await readBundle(`${dir}/${root}`);
      deepEqual(viaLink.manifest, real.manifest);
      deepEqual(viaLink.skillBytes, real.skillBytes);
    }
    // A symlinked root whose target is a file is not a directory.
    await Deno.symlink(`${dir}/real/skill/SKILL.md`, `${dir}/file-link`);
    await refusedRead(`${dir}/file-link`, "not-directory", { tree: `${dir}/real` });
    // Nor is a dangling one.
    await Deno.symlink(`${dir}/nowhere`, `${dir}/dangling`);
    await refusedRead(`${dir}/dangling`, "not-directory", { tree: `${dir}/real` });
  });
});

// ---------------------------------------------------------------------------
// Refusals
// ---------------------------------------------------------------------------

Deno.test("readBundle: not a directory, nonexistent, or no SKILL.md", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, { "skill/SKILL.md": SKILL, "nosk/README.md": "r", "lower/skill.md": "x" });
    await refusedRead(`${dir}/skill/SKILL.md`, "not-directory", { tree: dir });
    await refusedRead(`${dir}/missing`, "not-directory", { tree: dir });
    await refusedRead(`${dir}/skill/SKILL.md/x`, "not-directory", { tree: dir });
    await refusedRead("", "not-directory", { tree: dir });
    await refusedRead(`${dir}/nosk`, "no-skill");
    await refusedRead(`${dir}/lower`, "no-skill");
    // A SKILL.md that is a directory, and one only in a subdirectory, do not count.
    await writeTree(dir, { "dirskill/SKILL.md/inner.md": "x", "sub/nested/SKILL.md": SKILL });
    await refusedRead(`${dir}/dirskill`, "no-skill");
    await refusedRead(`${dir}/sub`, "no-skill");
    // An empty directory.
    await Deno.mkdir(`${dir}/empty`);
    await refusedRead(`${dir}/empty`, "no-skill");
  });
});

Deno.test("readBundle: SKILL.md must be valid UTF-8 (a BOM is kept, bytes are exact)", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "bad/SKILL.md": new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0xfe, 0x0a]),
      "truncated/SKILL.md": new Uint8Array([0x61, 0xe2, 0x82]),
      "surrogate/SKILL.md": new Uint8Array([0xed, 0xa0, 0x80]),
      "bom/SKILL.md": new Uint8Array([0xef, 0xbb, 0xbf, 0x23, 0x20, 0x78]),
      // Invalid UTF-8 in another file is fine: only SKILL.md is text.
      "bom/data.bin": new Uint8Array([0xff, 0xfe, 0x00]),
    });
    for (const name of ["bad", "truncated", "surrogate"]) {
      await refusedRead(`${dir}/${name}`, "skill-not-utf8");
    }
    const { manifest, skillBytes } = await readBundle(`${dir}/bom`);
    deepEqual(skillBytes, new Uint8Array([0xef, 0xbb, 0xbf, 0x23, 0x20, 0x78]));
    equal(manifest.files.length, 2);
  });
});

Deno.test("readBundle: SKILL.md limit is 128 KiB, other files 16 MiB (exactly at the limits is fine); a refusal names the file and its limit", async () => {
  await withTempDir(async (dir) => {
    const body = "x".repeat(128 * KiB);
    await writeTree(dir, {
      "ok/SKILL.md": body,
      "big/SKILL.md": body + "y",
      "asset/SKILL.md": SKILL,
    });
    const ok128 = await readBundle(`${dir}/ok`);
    equal(ok128.manifest.files[0].bytes, 128 * KiB);
    equal(ok128.skillBytes.length, 128 * KiB);
    await refusedRead(`${dir}/big`, "skill-too-large", { path: "SKILL.md" });

    await sized(`${dir}/asset/assets/video.bin`, 16 * MiB);
    const ok16 = await readBundle(`${dir}/asset`);
    const video = ok16.manifest.files.find((f) => f.path === "assets/video.bin")!;
    equal(video.bytes, 16 * MiB);
    equal(video.sha256, sha(new Uint8Array(16 * MiB)));
    await Deno.truncate(`${dir}/asset/assets/video.bin`, 16 * MiB + 1);
    await refusedRead(`${dir}/asset`, "file-too-large", { path: "assets/video.bin" });
  });
});

Deno.test("readBundle: more than 32 MiB in total is refused before anything is read", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, { "SKILL.md": "x" });
    await sized(`${dir}/a.bin`, 16 * MiB);
    await sized(`${dir}/b.bin`, 16 * MiB);
    await refusedRead(dir, "too-large", { path: "b.bin" });
    // Exactly 32 MiB in total is within the limit, so the refusal above was the total.
    await Deno.truncate(`${dir}/b.bin`, 16 * MiB - 1);
    const { manifest } = await readBundle(dir);
    equal(manifest.total_bytes, 32 * MiB);
    deepEqual(await validateManifest(JSON.parse(JSON.stringify(manifest))), manifest);
  });
});

Deno.test("readBundle: 13 nested directories exceed the path levels; 12 levels are fine", async () => {
  await withTempDir(async (dir) => {
    const segments = (n: number) => Array.from({ length: n }, (_, i) => `d${i + 1}`).join("/");
    // A file at 12 path levels (11 directories + file) and 12 empty nested directories: fine.
    await writeTree(`${dir}/ok`, { "SKILL.md": SKILL, [`${segments(11)}/f.md`]: "f" });
    await Deno.mkdir(`${dir}/ok/e/${segments(11)}`, { recursive: true });
    const { manifest } = await readBundle(`${dir}/ok`);
    deepEqual(manifest.files.map((f) => f.path), ["SKILL.md", `${segments(11)}/f.md`]);

    // 13 nested directories (even empty ones).
    await writeTree(`${dir}/deep`, { "SKILL.md": SKILL });
    await Deno.mkdir(`${dir}/deep/${segments(13)}`, { recursive: true });
    await refusedRead(`${dir}/deep`, "too-deep", { path: segments(13) });
    // A file at 13 path levels.
    await writeTree(`${dir}/deepfile`, { "SKILL.md": SKILL, [`${segments(12)}/f.md`]: "f" });
    await refusedRead(`${dir}/deepfile`, "too-deep", { path: `${segments(12)}/f.md` });
  });
});

Deno.test("readBundle: 512 files are fine, 513 files are refused with the 512 message", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, { "SKILL.md": SKILL });
    await Promise.all(
      Array.from({ length: 511 }, (_, i) => Deno.writeTextFile(`${dir}/f${i}.txt`, `${i}`)),
    );
    const { manifest } = await readBundle(dir);
    equal(manifest.files.length, 512);
    await Deno.writeTextFile(`${dir}/one-more.txt`, "x");
    await refusedRead(dir, "too-many-files", { path: "one-more.txt", words: "512 files" });
  });
});

Deno.test("readBundle: 1,024 entries are fine, 1,025 are refused", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, { "SKILL.md": SKILL });
    // Empty directories are entries but not files: 1 + 1023 = 1024 entries.
    await Promise.all(Array.from({ length: 1023 }, (_, i) => Deno.mkdir(`${dir}/d${i}`)));
    const { manifest } = await readBundle(dir);
    equal(manifest.files.length, 1);
    await Deno.mkdir(`${dir}/one-more`);
    await refusedRead(dir, "too-deep", { path: "one-more", words: "1024 entries" });
  });
});

Deno.test("readBundle: symlinks beneath the root are refused, never followed", async () => {
  await withTempDir(async (dir) => {
    await writeTree(`${dir}/outside`, { "secret.txt": "SECRET", "sub/x.md": "x" });
    const cases: Array<[string, string, string]> = [
      ["file-link", `${dir}/outside/secret.txt`, "file-link"],
      ["scripts/dir-link", `${dir}/outside/sub`, "scripts/dir-link"],
      ["dangling", `${dir}/nowhere`, "dangling"],
      ["self", ".", "self"],
      ["inner-link", "SKILL.md", "inner-link"],
    ];
    for (const [name, target, rel] of cases) {
      const skill = `${dir}/skill-${name.replace("/", "-")}`;
      await writeTree(skill, { "SKILL.md": SKILL, "scripts/run.sh": "echo\n" });
      await Deno.symlink(target, `${skill}/${name}`);
      await refusedRead(skill, "link", { path: rel });
    }
    // SKILL.md itself as a symlink.
    await writeTree(`${dir}/skill-md-link`, { "real.md": SKILL });
    await Deno.symlink("real.md", `${dir}/skill-md-link/SKILL.md`);
    await refusedRead(`${dir}/skill-md-link`, "link", { path: "SKILL.md" });
  });
});

Deno.test("readBundle: a FIFO beneath the root is refused without blocking; so is a socket", async () => {
  await withTempDir(async (dir) => {
    await writeTree(`${dir}/fifo`, { "SKILL.md": SKILL });
    await mkfifo(`${dir}/fifo/pipe`);
    const before = await listTree(`${dir}/fifo`);
    await rejects(
      () => settlesWithin(readBundle(`${dir}/fifo`), 5000),
      (error: unknown) => {
        ok(error instanceof BundleError, String(error));
        equal(error.kind, "not-regular");
        ok(error.message.includes(JSON.stringify("pipe")));
        return true;
      },
    );
    deepEqual(await listTree(`${dir}/fifo`), before);

    // SKILL.md itself a FIFO.
    await Deno.mkdir(`${dir}/fifo-skill/sub`, { recursive: true });
    await mkfifo(`${dir}/fifo-skill/SKILL.md`);
    await rejects(
      () => settlesWithin(readBundle(`${dir}/fifo-skill`), 5000),
      {
        kind: "not-regular",
        message: `Bundle requires regular files: ${JSON.stringify("SKILL.md")}`,
      },
    );

    await writeTree(`${dir}/sock`, { "SKILL.md": SKILL });
    const listener = Deno.listen({ transport: "unix", path: `${dir}/sock/agent.sock` });
    try {
      await refusedRead(`${dir}/sock`, "not-regular", { path: "agent.sock" });
    } finally {
      listener.close();
    }
  });
});

Deno.test("readBundle: a non-UTF-8 file name is refused as an unsupported path", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, { "SKILL.md": SKILL });
    // A file named by the single byte 0xff (not UTF-8), created by the shell.
    const made = await run("sh", ["-c", 'printf x > "$1/$(printf "\\377")"', "sh", dir]);
    equal(made.code, 0, made.stderr);
    const names: string[] = [];
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
    equal(names.length, 2, "the 0xff file exists");
    await refusedRead(dir, "unsupported-path");

    // Also in a subdirectory.
    await withTempDir(async (other) => {
      await writeTree(other, { "SKILL.md": SKILL, "sub/ok.md": "ok" });
      const nested = await run("sh", [
        "-c",
        'printf x > "$1/sub/a$(printf "\\303\\050")b"',
        "sh",
        other,
      ]);
      equal(nested.code, 0, nested.stderr);
      await refusedRead(other, "unsupported-path");
    });
  });
});

Deno.test("readBundle: names with control characters, DEL, backslash, colon or U+FFFD are refused", async () => {
  await withTempDir(async (dir) => {
    const bad = [
      "a\nb.md",
      "tab\t.md",
      "esc\u001b[31m.md",
      "del\u007f.md",
      "back\\slash.md",
      "c:x.md",
      "r\ufffd.md",
    ];
    for (const [i, name] of bad.entries()) {
      const skill = `${dir}/s${i}`;
      await writeTree(skill, { "SKILL.md": SKILL });
      await Deno.mkdir(`${skill}/sub`);
      await Deno.writeTextFile(`${skill}/sub/${name}`, "x");
      await refusedRead(skill, "unsupported-path");
    }
    // A directory name with a colon is refused too.
    await writeTree(`${dir}/colon-dir`, { "SKILL.md": SKILL, "a:b/c.md": "c" });
    await refusedRead(`${dir}/colon-dir`, "unsupported-path");
  });
});

Deno.test("readBundle: a relative path over 1,024 UTF-8 bytes is refused; exactly 1,024 is fine", async () => {
  await withTempDir(async (dir) => {
    const segment = "s".repeat(250);
    const prefix = `${segment}/${segment}/${segment}/${segment}/`; // 1004 bytes
    const okName = "f".repeat(1024 - prefix.length);
    await writeTree(`${dir}/ok`, { "SKILL.md": SKILL, [prefix + okName]: "x" });
    const { manifest } = await readBundle(`${dir}/ok`);
    equal(new TextEncoder().encode(manifest.files[1].path).length, 1024);
    await writeTree(`${dir}/long`, { "SKILL.md": SKILL, [prefix + okName + "g"]: "x" });
    await refusedRead(`${dir}/long`, "unsupported-path");
  });
});

// ---------------------------------------------------------------------------
// Change detection while reading
// ---------------------------------------------------------------------------

/**
 * Runs the shell loop body `body` (with $1 = `arg`) over and over in a child process alongside
 * repeated readBundle(dir) calls (up to 50 per attempt, up to `attempts` attempts), until
 * readBundle rejects. Every rejection must be
 * of one of `kinds`; every success is passed to `consistent` (which checks the manifest against
 * a state the reader could legitimately have seen). The writer is stopped, and has exited with
 * all its children, before the outcome is checked. Returns the number of rejections observed.
 */
async function raceReadBundle(
  dir: string,
  body: string,
  arg: string,
  ready: () => Promise<boolean>,
  kinds: readonly BundleErrorKind[],
  consistent: (manifest: BundleManifest) => Promise<void>,
  attempts = 8,
): Promise<number> {
  let rejections = 0;
  for (let attempt = 0; attempt < attempts && rejections === 0; attempt++) {
    const outcomes = await withTempDir(async (control) => {
      const stop = `${control}/stop`;
      const child = new Deno.Command("sh", {
        args: ["-c", `while [ ! -e "$2" ]; do ${body}; done`, "sh", arg, stop],
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn();
      try {
        const deadline = Date.now() + 5000;
        while (!(await ready())) {
          if (Date.now() > deadline) throw new Error("the writer did not start");
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        // The reader is fast, so one read may fall between two writes: read repeatedly while the
        // writer runs, and stop at the first rejection. Every success is checked below.
        const outcomes: Array<{ manifest?: BundleManifest; error?: unknown }> = [];
        for (let read = 0; read < 50; read++) {
          const outcome = await readBundle(dir).then(
            ({ manifest }) => ({ manifest, error: undefined }),
            (error: unknown) => ({ manifest: undefined, error }),
          );
          outcomes.push(outcome);
          if (outcome.error !== undefined) break;
        }
        return outcomes;
      } finally {
        // Ask the loop to finish its current iteration (so no cp/mv is left running).
        await Deno.writeTextFile(stop, "");
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await child.status;
        clearTimeout(timer);
      }
    });
    for (const outcome of outcomes) {
      if (outcome.error !== undefined) {
        const error = outcome.error;
        ok(error instanceof BundleError, `unexpected error ${error}`);
        ok(kinds.includes(error.kind), `unexpected kind: ${error.kind}`);
        rejections++;
      } else {
        await consistent(outcome.manifest!);
      }
    }
  }
  return rejections;
}

Deno.test("readBundle: a file appended to while it is read is reported, never silently hashed", async () => {
  await withTempDir(async (dir) => {
    const initial = binary(6 * MiB, 3);
    await writeTree(dir, { "SKILL.md": SKILL, "assets/big.bin": initial, "z.txt": "z" });
    const stable = (await readBundle(dir)).manifest;
    const asset = `${dir}/assets/big.bin`;
    const rejections = await raceReadBundle(
      dir,
      'printf x >> "$1"',
      asset,
      async () => (await Deno.stat(asset)).size > initial.length,
      ["changed", "grew"],
      async (manifest) => {
        // If a read ever succeeds, it must describe one real state of the append-only file: a
        // prefix of what is there now, with every other row unchanged.
        const now = await Deno.readFile(asset);
        const row = manifest.files.find((f) => f.path === "assets/big.bin")!;
        equal(row.sha256, sha(now.subarray(0, row.bytes)));
        deepEqual(
          manifest.files.filter((f) => f.path !== "assets/big.bin"),
          stable.files.filter((f) => f.path !== "assets/big.bin"),
        );
        await validateManifest(JSON.parse(JSON.stringify(manifest)));
      },
    );
    ok(rejections >= 1, "a growing file was never reported");
    // Once the writer has stopped, a stable re-read succeeds and differs from the original.
    const after = (await readBundle(dir)).manifest;
    const again = (await readBundle(dir)).manifest;
    deepEqual(after, again);
    deepEqual(compareManifests(stable, after).changed, ["assets/big.bin"]);
    const big = after.files.find((f) => f.path === "assets/big.bin")!;
    const final = await Deno.readFile(asset);
    equal(big.bytes, final.length);
    equal(big.sha256, sha(final));
    deepEqual(final.subarray(0, initial.length), initial);
  });
});

Deno.test("readBundle: files created and removed during the walk are reported as changed", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, { "SKILL.md": SKILL, "assets/a.bin": binary(2 * MiB, 5) });
    await Promise.all(
      Array.from({ length: 100 }, (_, i) => Deno.writeTextFile(`${dir}/assets/f${i}.txt`, `${i}`)),
    );
    const stable = (await readBundle(dir)).manifest;
    const churn = `${dir}/assets/churn.txt`;
    const assetsMtime = (await Deno.lstat(`${dir}/assets`)).mtime?.getTime();
    const rejections = await raceReadBundle(
      dir,
      'printf c > "$1"; rm -f "$1"',
      churn,
      async () => (await Deno.lstat(`${dir}/assets`)).mtime?.getTime() !== assetsMtime,
      ["changed"],
      async (manifest) => {
        // A consistent snapshot either has no churn file or has it with its exact content.
        const rows = manifest.files.filter((f) => f.path !== "assets/churn.txt");
        deepEqual(rows, stable.files);
        const churned = manifest.files.find((f) => f.path === "assets/churn.txt");
        if (churned !== undefined) {
          ok(
            (churned.bytes === 1 && churned.sha256 === sha("c")) ||
              (churned.bytes === 0 && churned.sha256 === EMPTY_SHA),
          );
        }
        await validateManifest(manifest);
      },
    );
    ok(rejections >= 1, "a changing directory was never reported");
    await Deno.remove(churn).catch(() => {});
    deepEqual((await readBundle(dir)).manifest, stable);
  });
});

Deno.test("readBundle: a file replaced (new inode) during reading is reported as changed", async () => {
  await withTempDir(async (dir) => {
    const skill = `${dir}/skill`;
    await writeTree(skill, { "SKILL.md": SKILL, "data.bin": binary(4 * MiB, 9) });
    const stable = (await readBundle(skill)).manifest;
    const target = `${skill}/data.bin`;
    // Identical bytes under a new inode each time: the content hashes alike, the identity differs.
    await Deno.copyFile(target, `${dir}/replacement.bin`);
    const startIno = (await Deno.lstat(target)).ino;
    const rejections = await raceReadBundle(
      skill,
      'cp "$1/replacement.bin" "$1/next.bin" && mv -f "$1/next.bin" "$1/skill/data.bin"',
      dir,
      async () => (await Deno.lstat(target).catch(() => undefined))?.ino !== startIno,
      ["changed"],
      async (manifest) => {
        deepEqual(manifest, stable);
        await validateManifest(manifest);
      },
    );
    ok(rejections >= 1, "a replaced file was never reported");
    deepEqual((await readBundle(skill)).manifest, stable);
  });
});
