// The pure `skills-anywhere-bundle-1` format: canonical string, digest, validation, comparison,
// and the parsing of received manifest bytes.
import { deepEqual, equal, notDeepEqual, notEqual, ok, rejects } from "node:assert/strict";
import { createHash } from "node:crypto";
import {
  assertNoFileIsDirectory,
  buildManifest,
  BUNDLE_LIMITS,
  BUNDLE_SCHEMA,
  bundleDigest,
  BundleError,
  type BundleErrorKind,
  type BundleFile,
  type BundleManifest,
  canonicalString,
  compareManifests,
  COMPARISON_SCHEMA,
  fileSizeRefusal,
  isBundlePath,
  MESSAGES,
  totalSizeRefusal,
  validateManifest,
  webSha256Hex,
} from "../lib/bundle/_manifest.ts";
import { formatBytes, MAX_BUNDLE_SKILL_BYTES, MAX_CONFIG_BYTES } from "../lib/limits.ts";
import { compareCodeUnits, NOT_UTF8 } from "../lib/util.ts";
import { VERSION } from "../lib/version.ts";

const EMPTY_SHA = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const MiB = 1024 * 1024;
const KiB = 1024;

/** SHA-256 (lowercase hex) computed independently of the module under test. */
function nodeSha(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** A deterministic, valid row sha for `seed`. */
function fakeSha(seed: string): string {
  return nodeSha(seed);
}

function row(path: string, bytes = 1, sha256 = fakeSha(path)): BundleFile {
  return { path, bytes, sha256 };
}

/** A valid manifest, as a plain JSON value, for mutation tests. */
async function validJson(): Promise<Record<string, unknown>> {
  const manifest = await buildManifest([
    row("SKILL.md", 120),
    row("scripts/run.py", 40),
    row("references/guide.md", 300),
    row(".hidden", 2),
  ]);
  return JSON.parse(JSON.stringify(manifest));
}

/** Recomputes sha256 and total_bytes so only the intended defect remains. */
function resealed(value: Record<string, unknown>): Record<string, unknown> {
  const files = value.files as (Partial<BundleFile> | null | undefined)[];
  const tuples = files.map((f) => [f?.path, f?.bytes, f?.sha256]);
  const canonical = JSON.stringify(
    [BUNDLE_SCHEMA, tuples],
    (_key, v) => typeof v === "bigint" ? Number(v) : v,
  );
  return {
    ...value,
    sha256: nodeSha(canonical),
    total_bytes: files.reduce((sum, f) => sum + (typeof f?.bytes === "number" ? f.bytes : 0), 0),
  };
}

async function refused(value: unknown, kind: BundleErrorKind): Promise<void> {
  await rejects(
    () => validateManifest(value),
    (error: unknown) => {
      ok(error instanceof BundleError, `expected a BundleError, got ${error}`);
      equal(error.kind, kind);
      if (Object.hasOwn(MESSAGES, kind)) {
        equal(error.message, MESSAGES[kind as keyof typeof MESSAGES]);
      }
      return true;
    },
  );
}

/** Code-point order (what a naive `[...s]` comparison would give). */
function codePointCompare(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0)!);
  const y = [...b].map((c) => c.codePointAt(0)!);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i] - y[i];
  }
  return x.length - y.length;
}

/** UTF-8 byte order (what `LC_ALL=C sort` would give). */
function utf8Compare(a: string, b: string): number {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i] !== y[i]) return x[i] - y[i];
  }
  return x.length - y.length;
}

// ---------------------------------------------------------------------------
// Canonical string and digest
// ---------------------------------------------------------------------------

Deno.test("one empty SKILL.md: canonical string is the literal tuple, digest its SHA-256", async () => {
  const literal =
    '["skills-anywhere-bundle-1",[["SKILL.md",0,"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"]]]';
  equal(nodeSha(new Uint8Array()), EMPTY_SHA);
  const rows = [{ path: "SKILL.md", bytes: 0, sha256: EMPTY_SHA }];
  equal(canonicalString(rows), literal);
  const expected = nodeSha(literal);
  equal(await bundleDigest(rows), expected);
  const manifest = await buildManifest(rows);
  deepEqual(manifest, {
    schema: "skills-anywhere-bundle-1",
    sha256: expected,
    total_bytes: 0,
    files: [{ path: "SKILL.md", bytes: 0, sha256: EMPTY_SHA }],
  });
  deepEqual(Object.keys(manifest), ["schema", "sha256", "total_bytes", "files"]);
  deepEqual(Object.keys(manifest.files[0]), ["path", "bytes", "sha256"]);
  equal(BUNDLE_SCHEMA, "skills-anywhere-bundle-1");
});

Deno.test("webSha256Hex is lowercase hex of the bytes, or of a string's UTF-8", async () => {
  equal(await webSha256Hex(""), EMPTY_SHA);
  equal(await webSha256Hex("é𝒜"), nodeSha(new TextEncoder().encode("é𝒜")));
  equal(await webSha256Hex(new TextEncoder().encode("é𝒜")), nodeSha("é𝒜"));
  equal(await webSha256Hex("abc"), nodeSha("abc"));
  ok(/^[0-9a-f]{64}$/.test(await webSha256Hex("x")));
});

Deno.test("canonical string is compact JSON with non-ASCII kept literally and quotes escaped", async () => {
  const rows = [row("SKILL.md", 3, "a".repeat(64)), row('q"é.md', 5, "b".repeat(64))];
  const canonical = canonicalString(rows);
  equal(
    canonical,
    `["skills-anywhere-bundle-1",[["SKILL.md",3,"${"a".repeat(64)}"],["q\\"é.md",5,"${
      "b".repeat(64)
    }"]]]`,
  );
  ok(!/\s/.test(canonical));
  ok(!canonical.includes("\\u00e9"));
  // Digest is over UTF-8 bytes of that string.
  equal(await bundleDigest(rows), nodeSha(new TextEncoder().encode(canonical)));
});

Deno.test("the digest ignores everything but path, bytes and sha256 of each row", async () => {
  const a = await buildManifest([row("SKILL.md", 10), row("a.txt", 5)]);
  const withExtras = await buildManifest([
    { ...row("a.txt", 5), mtime: 123, abs: "/home/x/a.txt" } as BundleFile,
    { ...row("SKILL.md", 10), mode: 0o644 } as BundleFile,
  ]);
  deepEqual(withExtras, a);
  deepEqual(Object.keys(withExtras.files[0]), ["path", "bytes", "sha256"]);
});

Deno.test("any change to a row changes the digest", async () => {
  const base = await buildManifest([row("SKILL.md", 10), row("a.txt", 5)]);
  const variants = [
    [row("SKILL.md", 10), row("b.txt", 5, fakeSha("a.txt"))],
    [row("SKILL.md", 10), row("a.txt", 6)],
    [row("SKILL.md", 10), row("a.txt", 5, fakeSha("other"))],
    [row("SKILL.md", 11), row("a.txt", 5)],
    [row("SKILL.md", 10)],
  ];
  const digests = new Set([base.sha256]);
  for (const rows of variants) digests.add((await buildManifest(rows)).sha256);
  equal(digests.size, variants.length + 1);
});

// ---------------------------------------------------------------------------
// Order
// ---------------------------------------------------------------------------

Deno.test("rows are sorted by UTF-16 code units: not code points, not UTF-8 bytes, not locale", async () => {
  const names = ["z.md", "Ａ.md", "𝒜.md", "é.md", "e\u0301.md", "SKILL.md", "b/c.md", "b.md"];
  const expected = ["SKILL.md", "b.md", "b/c.md", "e\u0301.md", "z.md", "é.md", "𝒜.md", "Ａ.md"];
  const manifest = await buildManifest(names.map((name) => row(name)));
  const order = manifest.files.map((f) => f.path);
  deepEqual(order, expected);

  // Code-point order and UTF-8 byte order both put the fullwidth Ａ (U+FF21) before the astral
  // 𝒜 (U+1D49C, surrogates D835 DC9C); code-unit order puts 𝒜 first.
  const byCodePoint = [...names].sort(codePointCompare);
  const byUtf8 = [...names].sort(utf8Compare);
  notDeepEqual(order, byCodePoint);
  notDeepEqual(order, byUtf8);
  deepEqual(byCodePoint.slice(-2), ["Ａ.md", "𝒜.md"]);
  deepEqual(byUtf8.slice(-2), ["Ａ.md", "𝒜.md"]);
  // Nor locale order, nor Unicode normalisation: é and e+U+0301 stay two distinct rows.
  notDeepEqual(order, [...names].sort((a, b) => a.localeCompare(b)));
  equal(manifest.files.length, names.length);
  ok(order.includes("é.md") && order.includes("e\u0301.md"));

  // The canonical string follows the same order, and the result validates.
  const canonical = canonicalString(manifest.files);
  ok(canonical.indexOf('"𝒜.md"') < canonical.indexOf('"Ａ.md"'));
  deepEqual(await validateManifest(JSON.parse(JSON.stringify(manifest))), manifest);
});

Deno.test("compareCodeUnits is plain `<` and buildManifest sorts rows in any input order", async () => {
  equal(compareCodeUnits("a", "b"), -1);
  equal(compareCodeUnits("b", "a"), 1);
  equal(compareCodeUnits("a", "a"), 0);
  equal(compareCodeUnits("Z", "a"), -1);
  equal(compareCodeUnits("𝒜", "Ａ"), -1);
  const rows = [row("c"), row("SKILL.md"), row("a/b"), row("a.b"), row("A")];
  const one = await buildManifest(rows);
  const two = await buildManifest([...rows].reverse());
  deepEqual(one, two);
  deepEqual(one.files.map((f) => f.path), ["A", "SKILL.md", "a.b", "a/b", "c"]);
  // Input rows are not mutated or shared.
  equal(rows[0].path, "c");
  notEqual(one.files[0], rows[4]);
});

Deno.test("relocation keeps the digest: rows carry only relative paths", async () => {
  const rows = [row("SKILL.md", 7), row("scripts/a.sh", 9), row("assets/logo.png", 200)];
  const here = await buildManifest(rows);
  const elsewhere = await buildManifest(rows.map((r) => ({ ...r })));
  equal(here.sha256, elsewhere.sha256);
  ok(!JSON.stringify(here).includes("/tmp"));
});

// ---------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------

Deno.test("isBundlePath accepts relative slash paths and refuses every rejected form", () => {
  for (
    const good of [
      "SKILL.md",
      "scripts/run.py",
      ".hidden",
      "a/.b/c",
      "...",
      "a..b",
      "𝒜.md",
      "é.md",
      "sp ace.md",
      "x".repeat(BUNDLE_LIMITS.maxPathBytes),
    ]
  ) {
    ok(isBundlePath(good), `should accept ${JSON.stringify(good)}`);
  }
  for (
    const bad of [
      "",
      ".",
      "..",
      "../x",
      "a/../b",
      "a/./b",
      "./a",
      "/x",
      "/etc/passwd",
      "a/",
      "a//b",
      "a\\b",
      "..\\x",
      "C:x",
      "a:b",
      "a\u0000b",
      "a\nb",
      "a\tb",
      "a\u001fb",
      "a\u007fb",
      "a\ufffdb",
      "\ud835.md",
      "\udc9c.md",
      "x".repeat(BUNDLE_LIMITS.maxPathBytes + 1),
      "é".repeat(BUNDLE_LIMITS.maxPathBytes / 2 + 1),
    ]
  ) {
    ok(!isBundlePath(bad), `should refuse ${JSON.stringify(bad)}`);
  }
  for (const notString of [undefined, null, 1, ["a"], { path: "a" }]) {
    ok(!isBundlePath(notString));
  }
});

Deno.test("assertNoFileIsDirectory refuses a file that is also a parent", () => {
  assertNoFileIsDirectory(["SKILL.md", "a/b", "a.b", "ab/c"]);
  for (const paths of [["SKILL.md", "SKILL.md/child"], ["a", "a/b/c"], ["a/b", "a/b/c/d"]]) {
    let error: unknown;
    try {
      assertNoFileIsDirectory(paths);
    } catch (caught) {
      error = caught;
    }
    ok(error instanceof BundleError);
    equal(error.kind, "file-is-directory");
  }
});

// ---------------------------------------------------------------------------
// Validation of a received manifest
// ---------------------------------------------------------------------------

Deno.test("validateManifest round-trips a built manifest through JSON and returns a clean copy", async () => {
  const json = await validJson();
  const parsed = JSON.parse(JSON.stringify(json));
  const validated = await validateManifest(parsed);
  deepEqual(validated, json);
  deepEqual(validated, await buildManifest(json.files as BundleFile[]));
  notEqual(validated.files, parsed.files);
  // Pretty-printed JSON parses to the same value: formatting is not part of the identity.
  deepEqual(await validateManifest(JSON.parse(JSON.stringify(json, null, 2))), validated);
  // Key order in the received object does not matter.
  const reordered = {
    files: (json.files as BundleFile[]).map((f) => ({
      sha256: f.sha256,
      bytes: f.bytes,
      path: f.path,
    })),
    total_bytes: json.total_bytes,
    sha256: json.sha256,
    schema: json.schema,
  };
  deepEqual(await validateManifest(reordered), validated);
});

Deno.test("validateManifest accepts the limits exactly", async () => {
  // SKILL.md of exactly 128 KiB, one file of exactly 16 MiB, total exactly 32 MiB.
  const atLimits = await buildManifest([
    row("SKILL.md", 128 * KiB),
    row("a.bin", 16 * MiB),
    row("b.bin", 16 * MiB - 128 * KiB),
  ]);
  equal(atLimits.total_bytes, 32 * MiB);
  deepEqual(await validateManifest(JSON.parse(JSON.stringify(atLimits))), atLimits);
  // Exactly 512 files.
  const many = await buildManifest([
    row("SKILL.md"),
    ...Array.from({ length: 511 }, (_, i) => row(`f${String(i).padStart(3, "0")}`)),
  ]);
  equal(many.files.length, 512);
  deepEqual(await validateManifest(JSON.parse(JSON.stringify(many))), many);
  // A row of zero bytes, a path of exactly 1,024 UTF-8 bytes.
  const edge = await buildManifest([row("SKILL.md", 0), row("x".repeat(1024), 0)]);
  deepEqual(await validateManifest(edge), edge);
});

Deno.test("malformed top level: non-object, array, schema, extra or missing field → not a manifest", async () => {
  const json = await validJson();
  for (const value of [null, undefined, "manifest", 42, true, [], [json], [BUNDLE_SCHEMA, []]]) {
    await refused(value, "not-manifest");
  }
  await refused({ ...json, schema: "skills-anywhere-bundle-2" }, "not-manifest");
  await refused({ ...json, schema: COMPARISON_SCHEMA }, "not-manifest");
  await refused({ ...json, schema: undefined }, "not-manifest");
  await refused({ ...json, extra: 1 }, "not-manifest");
  await refused({ ...json, extra: undefined }, "not-manifest");
  for (const key of ["schema", "sha256", "total_bytes", "files"]) {
    const missing = { ...json };
    delete missing[key];
    await refused(missing, "not-manifest");
  }
  // A "__proto__" key from JSON.parse is an own, extra key too (top level and row level).
  const text = JSON.stringify(json);
  await refused(JSON.parse(`{"__proto__":{},${text.slice(1)}`), "not-manifest");
  const rowText = text.replace('{"path":', '{"__proto__":null,"path":');
  notEqual(rowText, text);
  await refused(JSON.parse(rowText), "bad-row");
  // A comparison document is not a manifest either.
  const m = await validateManifest(json);
  await refused(compareManifests(m, m), "not-manifest");
});

Deno.test("malformed digest or total → the disagreement message", async () => {
  const json = await validJson();
  const sha = json.sha256 as string;
  await refused({ ...json, sha256: "0".repeat(64) }, "digest-mismatch");
  await refused({ ...json, sha256: sha.toUpperCase() }, "digest-mismatch");
  await refused({ ...json, sha256: sha.slice(1) }, "digest-mismatch");
  await refused({ ...json, sha256: null }, "digest-mismatch");
  await refused({ ...json, sha256: EMPTY_SHA }, "digest-mismatch");
  const total = json.total_bytes as number;
  await refused({ ...json, total_bytes: total + 1 }, "digest-mismatch");
  await refused({ ...json, total_bytes: String(total) }, "digest-mismatch");
  await refused({ ...json, total_bytes: BigInt(total) }, "digest-mismatch");
  await refused({ ...json, total_bytes: null }, "digest-mismatch");
  // A row tampered with while the digest stays the old one.
  const files = structuredClone(json.files) as BundleFile[];
  files[0].sha256 = fakeSha("tampered");
  await refused({ ...json, files }, "digest-mismatch");
  const sizes = structuredClone(json.files) as BundleFile[];
  sizes[1].bytes += 1;
  await refused({ ...json, files: sizes }, "digest-mismatch");
  // ...and a row dropped (total and digest stale).
  await refused(
    { ...json, files: (json.files as BundleFile[]).filter((f) => f.path !== ".hidden") },
    "digest-mismatch",
  );
});

Deno.test("malformed rows: traversal, absolute, backslash, colon, control, extra field, null → invalid file", async () => {
  const json = await validJson();
  const files = json.files as BundleFile[];
  const withRow = (extra: unknown) => {
    // Keep sorted order for string paths so only the row defect remains.
    const rows: unknown[] = [...files, extra];
    if (typeof (extra as BundleFile)?.path === "string") {
      (rows as BundleFile[]).sort((a, b) => compareCodeUnits(a.path, b.path));
    }
    return resealed({ ...json, files: rows });
  };
  for (
    const path of [
      "../x",
      "a/../../x",
      "/x",
      "/etc/passwd",
      "a\\b",
      "..\\x",
      "c:x",
      "a:b",
      "a\nb",
      "a\u0000b",
      "a\u007fb",
      "a\ufffdb",
      "./a",
      "a/./b",
      "a//b",
      "a/",
      "",
      ".",
      "..",
      "\ud835x",
      "x".repeat(1025),
    ]
  ) {
    await refused(await withRow(row(path)), "bad-row");
  }
  // Extra field at row level, missing field, wrong types.
  await refused(await withRow({ ...row("zz"), mode: 420 }), "bad-row");
  await refused(await withRow({ ...row("zz"), extra: undefined }), "bad-row");
  await refused(await withRow({ path: "zz", bytes: 1 }), "bad-row");
  await refused(await withRow({ path: "zz", sha256: fakeSha("zz") }), "bad-row");
  await refused(await withRow({ bytes: 1, sha256: fakeSha("zz") }), "bad-row");
  await refused(await withRow({ ...row("zz"), path: 7 }), "bad-row");
  await refused(await withRow({ ...row("zz"), path: ["zz"] }), "bad-row");
  // Null, array and scalar rows.
  for (const bad of [null, undefined, ["zz", 1, fakeSha("zz")], "zz", 1]) {
    await refused(await withRow(bad), "bad-row");
  }
  // A null row alone, and a null among valid rows at the start.
  await refused(await resealed({ ...json, files: [null] }), "bad-row");
  await refused(await resealed({ ...json, files: [null, ...files] }), "bad-row");
});

Deno.test("malformed byte counts: negative, boolean, fractional, string, unsafe → invalid file; over 16 MiB → file-too-large", async () => {
  const json = await validJson();
  const files = json.files as BundleFile[];
  const index = files.findIndex((f) => f.path === "scripts/run.py");
  for (
    const bytes of [
      -1,
      -0.5,
      true,
      false,
      1.5,
      0.1,
      "1",
      null,
      NaN,
      Infinity,
      2 ** 53,
      Number.MAX_VALUE,
      1n,
    ]
  ) {
    const mutated = structuredClone(files) as unknown as Record<string, unknown>[];
    mutated[index].bytes = bytes;
    await refused(await resealed({ ...json, files: mutated }), "bad-row");
  }
  // One byte over the file limit names the file and the limit.
  const over16 = structuredClone(files);
  over16[index].bytes = 16 * MiB + 1;
  await refused(await resealed({ ...json, files: over16 }), "file-too-large");
  await rejects(() => validateManifest(resealed({ ...json, files: over16 })), (error: Error) => {
    equal(error.message, fileSizeRefusal("scripts/run.py", 16 * MiB + 1).message);
    ok(error.message.includes('"scripts/run.py"') && error.message.includes("16 MiB"));
    return true;
  });
  // Exactly 16 MiB is fine (the file limit; total stays under 32 MiB).
  const ok16 = structuredClone(files);
  ok16[index].bytes = 16 * MiB;
  const accepted = await validateManifest(await resealed({ ...json, files: ok16 }));
  equal(accepted.files[index].bytes, 16 * MiB);
});

Deno.test("malformed hashes: uppercase, short, long, non-hex, missing → invalid file", async () => {
  const json = await validJson();
  const files = json.files as BundleFile[];
  const good = files[1].sha256;
  for (
    const sha256 of [
      good.toUpperCase(),
      good.slice(0, 32),
      good.slice(1),
      good + "0",
      "g".repeat(64),
      "z" + good.slice(1),
      " " + good.slice(1),
      "",
      null,
      42,
      `sha256:${good}`,
    ]
  ) {
    const mutated = structuredClone(files) as unknown as Record<string, unknown>[];
    mutated[1].sha256 = sha256;
    await refused(await resealed({ ...json, files: mutated }), "bad-row");
  }
  // Mixed case is uppercase too.
  const mixed = structuredClone(files);
  mixed[1].sha256 = "A" + "a".repeat(63);
  await refused(await resealed({ ...json, files: mixed }), "bad-row");
});

Deno.test("duplicate and unsorted paths → invalid file", async () => {
  const json = await validJson();
  const files = json.files as BundleFile[];
  // Duplicate with identical row.
  await refused(
    await resealed({ ...json, files: [...files, files[files.length - 1]] }),
    "bad-row",
  );
  // Duplicate with a different hash, inserted adjacent.
  const duplicate = [...files];
  duplicate.splice(1, 0, { ...files[1], sha256: fakeSha("other") });
  await refused(await resealed({ ...json, files: duplicate }), "bad-row");
  // Reversed, and one swap.
  await refused(await resealed({ ...json, files: [...files].reverse() }), "bad-row");
  const swapped = [...files];
  [swapped[1], swapped[2]] = [swapped[2], swapped[1]];
  await refused(await resealed({ ...json, files: swapped }), "bad-row");
  // Sorted by code points instead of code units (astral before fullwidth is the right order).
  const unicode = await buildManifest([row("SKILL.md"), row("𝒜.md"), row("Ａ.md")]);
  const byCodePoint = [unicode.files[0], unicode.files[2], unicode.files[1]];
  deepEqual(byCodePoint.map((f) => f.path), ["SKILL.md", "Ａ.md", "𝒜.md"]);
  await refused(
    await resealed({ ...unicode, files: byCodePoint } as Record<string, unknown>),
    "bad-row",
  );
  // Locale order ("a" < "B") is not code-unit order ("B" < "a").
  const locale = [row("a.md"), row("B.md"), row("SKILL.md")];
  await refused(await resealed({ ...json, files: locale }), "bad-row");
});

Deno.test("file count: none, not an array, 513 files → needs 1–512 files", async () => {
  const json = await validJson();
  await refused(await resealed({ ...json, files: [] }), "file-count");
  await refused({ ...json, files: null }, "file-count");
  await refused({ ...json, files: {} }, "file-count");
  await refused({ ...json, files: "SKILL.md" }, "file-count");
  const rows = [
    row("SKILL.md"),
    ...Array.from({ length: 512 }, (_, i) => row(`f${String(i).padStart(3, "0")}`)),
  ];
  const manifest = await buildManifest(rows);
  equal(manifest.files.length, 513);
  await refused(JSON.parse(JSON.stringify(manifest)), "file-count");
});

Deno.test("SKILL.md missing or over 128 KiB; a file that is also a directory", async () => {
  await refused(
    JSON.parse(JSON.stringify(await buildManifest([row("README.md"), row("scripts/run.py")]))),
    "no-skill",
  );
  // Near-misses are not SKILL.md.
  for (const path of ["skill.md", "Skill.md", "sub/SKILL.md", "SKILL.md.bak", "SKILL"]) {
    await refused(await buildManifest([row(path)]), "no-skill");
  }
  await refused(await buildManifest([row("SKILL.md", 128 * KiB + 1)]), "skill-too-large");
  deepEqual(
    (await validateManifest(await buildManifest([row("SKILL.md", 128 * KiB)]))).total_bytes,
    128 * KiB,
  );
  await refused(
    await buildManifest([row("SKILL.md"), row("SKILL.md/child")]),
    "file-is-directory",
  );
  await refused(
    await buildManifest([row("SKILL.md"), row("a/b"), row("a/b/c")]),
    "file-is-directory",
  );
  // A sibling that merely shares a prefix is fine.
  await validateManifest(await buildManifest([row("SKILL.md"), row("a/b"), row("a/bc/d")]));
});

Deno.test("total over 32 MiB → must not exceed 32 MiB", async () => {
  const over = await buildManifest([
    row("SKILL.md", 128 * KiB),
    row("a.bin", 16 * MiB),
    row("b.bin", 16 * MiB - 128 * KiB + 1),
  ]);
  equal(over.total_bytes, 32 * MiB + 1);
  await refused(JSON.parse(JSON.stringify(over)), "too-large");
  const many = await buildManifest([
    row("SKILL.md", 1),
    row("a", 16 * MiB),
    row("b", 16 * MiB),
    row("c", 16 * MiB),
  ]);
  await refused(many, "too-large");
});

Deno.test("every mutation of a sealed manifest is refused with its kind", async () => {
  // One table, one mutation per row, each applied to the same valid manifest.
  const json = await validJson();
  const files = json.files as BundleFile[];
  type Mutation = [string, () => Promise<unknown> | unknown, BundleErrorKind];
  const withFiles = (rows: unknown[]) => resealed({ ...json, files: rows });
  const setRow = (i: number, patch: Record<string, unknown>) =>
    withFiles(files.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  const insertSorted = (extra: BundleFile) =>
    withFiles([...files, extra].sort((a, b) => compareCodeUnits(a.path, b.path)));
  const skillIndex = files.findIndex((f) => f.path === "SKILL.md");
  const mutations: Mutation[] = [
    ["digest", () => ({ ...json, sha256: fakeSha("x") }), "digest-mismatch"],
    [
      "total type",
      () => ({ ...json, total_bytes: `${json.total_bytes}` }),
      "digest-mismatch",
    ],
    ["schema", () => ({ ...json, schema: "bundle-1" }), "not-manifest"],
    ["extra top-level field", () => ({ ...json, version: VERSION }), "not-manifest"],
    ["extra row field", () => setRow(1, { mtime: 1 }), "bad-row"],
    ["traversal", () => insertSorted(row("../x")), "bad-row"],
    ["absolute", () => insertSorted(row("/x")), "bad-row"],
    ["backslash", () => insertSorted(row("a\\b")), "bad-row"],
    ["colon", () => insertSorted(row("c:x")), "bad-row"],
    ["duplicate", () => withFiles([files[0], ...files]), "bad-row"],
    ["unsorted", () => withFiles([...files].reverse()), "bad-row"],
    ["negative bytes", () => setRow(1, { bytes: -1 }), "bad-row"],
    ["boolean bytes", () => setRow(1, { bytes: true }), "bad-row"],
    ["fractional bytes", () => setRow(1, { bytes: 2.5 }), "bad-row"],
    ["bytes over 16 MiB", () => setRow(2, { bytes: 16 * MiB + 1 }), "file-too-large"],
    ["uppercase hash", () => setRow(1, { sha256: files[1].sha256.toUpperCase() }), "bad-row"],
    ["short hash", () => setRow(1, { sha256: files[1].sha256.slice(2) }), "bad-row"],
    ["null row", () => withFiles([...files, null]), "bad-row"],
    [
      "missing SKILL.md",
      () => withFiles(files.filter((f) => f.path !== "SKILL.md")),
      "no-skill",
    ],
    [
      "SKILL.md over 128 KiB",
      () => setRow(skillIndex, { bytes: 128 * KiB + 1 }),
      "skill-too-large",
    ],
    [
      "SKILL.md/child with SKILL.md",
      () => insertSorted(row("SKILL.md/child")),
      "file-is-directory",
    ],
    [
      "513 files",
      () =>
        withFiles(
          [...files, ...Array.from({ length: 513 - files.length }, (_, i) => row(`z/${1000 + i}`))],
        ),
      "file-count",
    ],
    [
      "over 32 MiB total",
      () => withFiles([...files, row("z1", 16 * MiB), row("z2", 16 * MiB)]),
      "too-large",
    ],
    ["non-object", () => "not a manifest", "not-manifest"],
    ["array", () => [json.schema, json.sha256, json.total_bytes, json.files], "not-manifest"],
  ];
  // The unmutated manifest itself is valid.
  await validateManifest(json);
  for (const [name, make, message] of mutations) {
    const value = JSON.parse(JSON.stringify(await make()));
    await rejects(() => validateManifest(value), (error: unknown) => {
      ok(error instanceof BundleError, name);
      equal(error.kind, message, name);
      return true;
    });
  }
});

Deno.test("messages quote the limits of limits.ts and the one UTF-8 wording", () => {
  ok(fileSizeRefusal("SKILL.md", 1).message.includes(formatBytes(MAX_BUNDLE_SKILL_BYTES)));
  ok(fileSizeRefusal("a.bin", 1).message.includes(formatBytes(BUNDLE_LIMITS.maxFileBytes)));
  ok(totalSizeRefusal("a.bin", 1).message.includes(formatBytes(BUNDLE_LIMITS.maxTotalBytes)));
  ok(MESSAGES["manifest-too-large"].includes(formatBytes(MAX_CONFIG_BYTES)));
  ok(MESSAGES["manifest-not-utf8"].includes(NOT_UTF8));
  ok(MESSAGES["file-count"].includes(String(BUNDLE_LIMITS.maxFiles)));
});

// ---------------------------------------------------------------------------
// Comparison
// ---------------------------------------------------------------------------

Deno.test("compareManifests: identical → matches with empty lists", async () => {
  const m = await buildManifest([row("SKILL.md", 10), row("a.txt", 3)]);
  const copy = await validateManifest(JSON.parse(JSON.stringify(m)));
  deepEqual(compareManifests(m, copy), {
    schema: "skills-anywhere-bundle-comparison-1",
    matches: true,
    expected_sha256: m.sha256,
    actual_sha256: m.sha256,
    added: [],
    removed: [],
    changed: [],
  });
  equal(COMPARISON_SCHEMA, "skills-anywhere-bundle-comparison-1");
});

Deno.test("compareManifests: added, removed and changed resources with an unchanged SKILL.md", async () => {
  const skill = row("SKILL.md", 100);
  const reviewed = await buildManifest([
    skill,
    row("scripts/review.py", 50),
    row("scripts/old.sh", 20),
    row("references/a.md", 30),
    row("references/b.md", 40),
  ]);
  const current = await buildManifest([
    skill,
    row("scripts/review.py", 50, fakeSha("evil")),
    row("references/a.md", 31),
    row("references/b.md", 40),
    row("scripts/new.sh", 5),
    row(".hidden", 1),
  ]);
  const comparison = compareManifests(reviewed, current);
  equal(comparison.matches, false);
  equal(comparison.schema, COMPARISON_SCHEMA);
  equal(comparison.expected_sha256, reviewed.sha256);
  equal(comparison.actual_sha256, current.sha256);
  deepEqual(comparison.added, [".hidden", "scripts/new.sh"]);
  deepEqual(comparison.removed, ["scripts/old.sh"]);
  deepEqual(comparison.changed, ["references/a.md", "scripts/review.py"]);
  ok(!comparison.changed.includes("SKILL.md"));
  deepEqual(Object.keys(comparison), [
    "schema",
    "matches",
    "expected_sha256",
    "actual_sha256",
    "added",
    "removed",
    "changed",
  ]);
  // Reversed direction swaps added and removed.
  const back = compareManifests(current, reviewed);
  deepEqual(back.added, comparison.removed);
  deepEqual(back.removed, comparison.added);
  deepEqual(back.changed, comparison.changed);
  equal(back.expected_sha256, current.sha256);
});

Deno.test("compareManifests: a rename is one removed plus one added, never changed", async () => {
  const content = fakeSha("same content");
  const before = await buildManifest([row("SKILL.md", 9), row("scripts/a.py", 12, content)]);
  const after = await buildManifest([row("SKILL.md", 9), row("scripts/b.py", 12, content)]);
  const comparison = compareManifests(before, after);
  equal(comparison.matches, false);
  deepEqual(comparison.added, ["scripts/b.py"]);
  deepEqual(comparison.removed, ["scripts/a.py"]);
  deepEqual(comparison.changed, []);
});

Deno.test("compareManifests: a byte-count change alone is a change; lists follow manifest order", async () => {
  const sha = fakeSha("x");
  const expected: BundleManifest = await buildManifest([row("SKILL.md", 1), row("a", 5, sha)]);
  const actual: BundleManifest = await buildManifest([row("SKILL.md", 1), row("a", 6, sha)]);
  deepEqual(compareManifests(expected, actual).changed, ["a"]);
  // Added in actual (code-unit) order, removed in expected order.
  const e = await buildManifest([row("SKILL.md"), row("Ａ"), row("𝒜"), row("b")]);
  const a = await buildManifest([row("SKILL.md"), row("é"), row("z"), row("e\u0301")]);
  const comparison = compareManifests(e, a);
  deepEqual(comparison.added, ["e\u0301", "z", "é"]);
  deepEqual(comparison.removed, ["b", "𝒜", "Ａ"]);
});

Deno.test("compareManifests: matches is digest equality", async () => {
  const a = await buildManifest([row("SKILL.md", 1)]);
  const b = await buildManifest([row("SKILL.md", 2)]);
  equal(compareManifests(a, b).matches, false);
  deepEqual(compareManifests(a, b).changed, ["SKILL.md"]);
  equal(compareManifests(b, b).matches, true);
  // Same rows but a different claimed digest: matches follows the digests.
  const forged = { ...a, sha256: b.sha256 };
  const comparison = compareManifests(forged, b);
  equal(comparison.matches, true);
  deepEqual(comparison.changed, ["SKILL.md"]);
});
