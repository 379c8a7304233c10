// Property-based tests (fast-check) of the bundle format: the manifest validator and comparison,
// and bundle path validation. A fixed seed and a bounded number of runs (see fuzz_helpers.ts).
import { deepEqual, equal, notEqual, ok } from "node:assert/strict";
import fc from "fast-check";
import {
  buildManifest,
  BUNDLE_LIMITS,
  BundleError,
  type BundleFile,
  type BundleManifest,
  canonicalString,
  compareManifests,
  isBundlePath,
  validateManifest,
} from "../lib/bundle/_manifest.ts";
import { anyString, anyUnit, bounded, boundedAsync, PARAMS } from "./fuzz_helpers.ts";

// ---------------------------------------------------------------------------
// (b) bundle manifests

const SEGMENT_CHARS = [
  ..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._- ~+=,;'()[]{}",
  "é",
  "ü",
  "ñ",
  "ø",
  "日",
  "本",
  "Ａ",
  "e\u0301",
  "\u{1f600}",
  "\u{1d4b3}",
  "\u{10000}",
];
const segment = fc.string({ unit: fc.constantFrom(...SEGMENT_CHARS), minLength: 1, maxLength: 12 })
  .filter((s) => s !== "." && s !== "..");
const relPath = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join("/"));
const sha = fc.stringMatching(/^[0-9a-f]{64}$/);
const byteCount = fc.oneof(
  fc.integer({ min: 0, max: 4096 }),
  fc.integer({ min: 0, max: BUNDLE_LIMITS.maxFileBytes }),
  fc.constantFrom(0, BUNDLE_LIMITS.maxFileBytes),
);

/** No path may also be the parent directory of another. */
function dropDirectoryConflicts(paths: string[]): string[] {
  const kept: string[] = [];
  for (const path of paths) {
    const conflicts = kept.some((other) =>
      other.startsWith(`${path}/`) || path.startsWith(`${other}/`)
    );
    if (!conflicts) kept.push(path);
  }
  return kept;
}

/** A valid row set: SKILL.md ≤ 128 KiB, unique paths, no file-is-directory, total ≤ 32 MiB. */
const rowSet: fc.Arbitrary<BundleFile[]> = fc.record({
  skillBytes: fc.integer({ min: 0, max: BUNDLE_LIMITS.maxSkillBytes }),
  skillSha: sha,
  others: fc.uniqueArray(fc.tuple(relPath, byteCount, sha), {
    maxLength: 12,
    selector: ([path]) => path,
  }),
}).map(({ skillBytes, skillSha, others }) => {
  const paths = new Set(
    dropDirectoryConflicts(["SKILL.md", ...others.map(([path]) => path)]),
  );
  let total = skillBytes;
  const rows: BundleFile[] = [{ path: "SKILL.md", bytes: skillBytes, sha256: skillSha }];
  for (const [path, bytes, sha256] of others) {
    if (path === "SKILL.md" || !paths.has(path)) continue;
    const capped = Math.min(bytes, BUNDLE_LIMITS.maxTotalBytes - total);
    total += capped;
    rows.push({ path, bytes: capped, sha256 });
  }
  return rows;
});

/** The rows as a canonical multiset key (order-independent). */
function rowKey(rows: readonly BundleFile[]): string {
  const order = (x: string | number, y: string | number) => x < y ? -1 : x > y ? 1 : 0;
  return canonicalString(
    [...rows].sort((a, b) =>
      order(a.path, b.path) || order(a.sha256, b.sha256) || order(a.bytes, b.bytes)
    ),
  );
}

type Mutation = {
  what: string;
  /** The mutated document as received. */
  doc: Record<string, unknown>;
  /** The mutated rows, when the mutation is a change of the inventory. */
  rows?: BundleFile[];
};

function flipHex(hex: string, at: number): string {
  const i = at % hex.length;
  return hex.slice(0, i) + (hex[i] === "0" ? "1" : "0") + hex.slice(i + 1);
}

/** Every single mutation of `manifest`, picked by `pick`. */
function mutations(manifest: BundleManifest, pick: number, newPath: string): Mutation[] {
  const files = manifest.files.map((f) => ({ ...f }));
  const n = files.length;
  const i = pick % n;
  const j = (pick + 1) % n;
  const withFiles = (rows: BundleFile[]) => ({ ...manifest, files: rows });
  const out: Mutation[] = [];
  const changed = (row: Partial<BundleFile>) => files.map((f, k) => k === i ? { ...f, ...row } : f);

  if (!files.some((f) => f.path === newPath)) {
    const rows = changed({ path: newPath });
    out.push({ what: "path", doc: withFiles(rows), rows });
  }
  const bytes = files[i].bytes === 0 ? 1 : files[i].bytes - 1;
  const byteRows = changed({ bytes });
  out.push({ what: "bytes", doc: withFiles(byteRows), rows: byteRows });
  const shaRows = changed({ sha256: flipHex(files[i].sha256, pick) });
  out.push({ what: "sha", doc: withFiles(shaRows), rows: shaRows });
  const dropped = files.filter((_, k) => k !== i);
  out.push({ what: "drop", doc: withFiles(dropped), rows: dropped });
  const duplicated = [...files.slice(0, i + 1), { ...files[i] }, ...files.slice(i + 1)];
  out.push({ what: "duplicate", doc: withFiles(duplicated), rows: duplicated });
  if (n >= 2) {
    const swapped = files.slice();
    [swapped[i], swapped[j]] = [swapped[j], swapped[i]];
    out.push({ what: "swap", doc: withFiles(swapped), rows: swapped });
  }
  out.push({ what: "extra key", doc: { ...manifest, extra: true } });
  out.push({
    what: "extra row key",
    doc: withFiles(files.map((f, k) => k === i ? { ...f, mode: 420 } : f)),
  });
  out.push({ what: "schema", doc: { ...manifest, schema: "skills-anywhere-bundle-2" } });
  out.push({ what: "total", doc: { ...manifest, total_bytes: manifest.total_bytes + 1 } });
  out.push({ what: "digest", doc: { ...manifest, sha256: flipHex(manifest.sha256, pick) } });
  out.push({
    what: "bytes as string",
    doc: {
      ...manifest,
      files: files.map((f, k) => k === i ? { ...f, bytes: String(f.bytes) } : f),
    },
  });
  out.push({
    what: "uppercase sha",
    doc: withFiles(changed({ sha256: files[i].sha256.toUpperCase() })),
  });
  return out;
}

Deno.test("fuzz: a valid manifest round-trips through JSON and validateManifest; it matches itself", async () => {
  await fc.assert(
    fc.asyncProperty(rowSet, fc.boolean(), async (rows, reverse) => {
      const input = reverse ? [...rows].reverse() : rows;
      const manifest = await boundedAsync("buildManifest", () => buildManifest(input));
      const received = JSON.parse(JSON.stringify(manifest));
      const validated = await boundedAsync("validateManifest", () => validateManifest(received));
      deepEqual(validated, manifest);
      deepEqual(Object.keys(validated), ["schema", "sha256", "total_bytes", "files"]);
      deepEqual(await buildManifest(validated.files), manifest, "the build is deterministic");
      const self = compareManifests(manifest, validated);
      ok(self.matches);
      deepEqual([self.added, self.removed, self.changed], [[], [], []]);
    }),
    PARAMS,
  );
});

Deno.test("fuzz: every single mutation of a manifest is refused; re-digested, it changes the digest", async () => {
  await fc.assert(
    fc.asyncProperty(rowSet, fc.nat(), relPath, async (rows, pick, newPath) => {
      const manifest = await buildManifest(rows);
      for (const mutation of mutations(manifest, pick, newPath)) {
        const doc = JSON.parse(JSON.stringify(mutation.doc));
        let refused: unknown;
        try {
          await validateManifest(doc);
        } catch (error) {
          refused = error;
        }
        ok(refused instanceof BundleError, `mutation "${mutation.what}" was accepted`);
        if (mutation.rows !== undefined) {
          const rebuilt = await buildManifest(mutation.rows);
          const same = rowKey(mutation.rows) === rowKey(manifest.files);
          if (same) equal(rebuilt.sha256, manifest.sha256, mutation.what);
          else notEqual(rebuilt.sha256, manifest.sha256, `${mutation.what} kept the digest`);
          const comparison = compareManifests(manifest, rebuilt);
          equal(comparison.matches, same);
        }
      }
    }),
    PARAMS,
  );
});

Deno.test("fuzz: validateManifest on arbitrary JSON values only ever throws BundleError", async () => {
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 4, stringUnit: anyUnit }),
    fc.record({
      schema: fc.oneof(fc.constant("skills-anywhere-bundle-1"), fc.jsonValue({ maxDepth: 1 })),
      sha256: fc.oneof(sha, fc.jsonValue({ maxDepth: 1 })),
      total_bytes: fc.oneof(fc.integer(), fc.double(), fc.jsonValue({ maxDepth: 1 })),
      files: fc.oneof(
        fc.array(
          fc.record({
            path: fc.oneof(relPath, anyString(20), fc.jsonValue({ maxDepth: 1 })),
            bytes: fc.oneof(byteCount, fc.double(), fc.boolean(), fc.string()),
            sha256: fc.oneof(sha, fc.string()),
          }),
          { maxLength: 6 },
        ),
        fc.jsonValue({ maxDepth: 2 }),
      ),
    }),
  );
  await fc.assert(
    fc.asyncProperty(value, async (doc) => {
      try {
        const manifest = await validateManifest(doc);
        // Accepted: it must be exactly what buildManifest makes of its rows.
        deepEqual(manifest, await buildManifest(manifest.files));
      } catch (error) {
        ok(error instanceof BundleError, `unexpected error ${error}`);
      }
    }),
    PARAMS,
  );
});

// ---------------------------------------------------------------------------
// (d) bundle paths

/** An independent statement of the path rule (a clean relative path of at most 1,024 UTF-8 bytes). */
function expectedBundlePath(path: string): boolean {
  // deno-lint-ignore no-control-regex
  if (path === "" || /[\u0000-\u001f\u007f\\:\ufffd]/.test(path) || !path.isWellFormed()) {
    return false;
  }
  if (new TextEncoder().encode(path).length > 1024) return false;
  return path.split("/").every((s) => s !== "" && s !== "." && s !== "..");
}

const pathCandidate = fc.oneof(
  anyString(60),
  relPath,
  fc.array(fc.oneof(segment, fc.constantFrom("", ".", "..", "a\\b", "c:d", "\ufffd", "\u0000")), {
    minLength: 1,
    maxLength: 5,
  }).map((parts) => parts.join("/")),
  fc.tuple(fc.constantFrom("a", "é", "日", "\u{1f600}"), fc.integer({ min: 200, max: 1100 }))
    .map(([ch, n]) => ch.repeat(n)),
);

Deno.test("fuzz: isBundlePath accepts only clean relative paths of at most 1,024 UTF-8 bytes", () => {
  fc.assert(
    fc.property(pathCandidate, (path) => {
      const accepted = bounded("isBundlePath", () => isBundlePath(path));
      equal(accepted, expectedBundlePath(path), JSON.stringify(path));
      if (accepted) {
        // deno-lint-ignore no-control-regex
        ok(!/[\u0000-\u001f\u007f\\:\ufffd]/.test(path));
        ok(path.isWellFormed());
        ok(new TextEncoder().encode(path).length <= 1024);
        for (const part of path.split("/")) ok(part !== "" && part !== "." && part !== "..");
      }
    }),
    PARAMS,
  );
  for (const value of [undefined, null, 42, {}, ["a"]]) equal(isBundlePath(value), false);
});
