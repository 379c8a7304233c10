// Property-based tests (fast-check) of the source-string parser: hostile strings never resolve
// outside the cache. A fixed seed and a bounded number of runs (see fuzz_helpers.ts).
import { equal, ok } from "node:assert/strict";
import { isAbsolute, relative, sep } from "node:path";
import fc from "fast-check";
import { resolveSource, SourceError, type SourceSpec } from "../lib/sources/_resolve.ts";
import { anyString, bounded, PARAMS } from "./fuzz_helpers.ts";

// ---------------------------------------------------------------------------
// (c) source strings

const CACHE = "/tmp/dsa-fuzz-home/.dsh/skills-anywhere/cache";

const sourcePiece = fc.oneof(
  fc.constantFrom(
    "../",
    "./",
    "..",
    ".",
    "/",
    "//",
    "\\",
    "..\\",
    "%2e",
    "%2e%2e/",
    "%2F",
    "github:",
    "gh:",
    "git@h:",
    "git@github.com:",
    "user@host:",
    "https://github.com/",
    "http://github.com/",
    "https://x/",
    "ssh://",
    "git://",
    "file:",
    "file:///",
    "/tree/",
    "@",
    "#",
    "@v1",
    "#main",
    ".git",
    "\u0000",
    "owner",
    "repo",
    "skills",
    " ",
  ),
  fc.string({ unit: "grapheme-ascii", maxLength: 6 }),
);
const sourceWord = fc.oneof(
  fc.constantFrom("o", "owner", "r", "repo.git", "..", ".", "", "%2e%2e", "a\\b", "x\u0000", "~"),
  fc.stringMatching(/^[A-Za-z0-9_.-]{1,8}$/),
);
/** `<prefix><owner>/<repo>[/<path>][@ref|#ref]`: mostly parseable, with hostile parts. */
const structuredSource = fc.tuple(
  fc.constantFrom(
    "",
    "github:",
    "gh:",
    "https://github.com/",
    "http://github.com/",
    "https://gitlab.com/",
    "ssh://git@host/",
    "git://127.0.0.1:1/",
    "git@h:",
    "user@host:",
    "file:///tmp/",
    "/abs/",
    "./",
    "../",
  ),
  sourceWord,
  sourceWord,
  fc.array(sourceWord, { maxLength: 4 }),
  fc.boolean(),
  fc.constantFrom("", "@v1", "#main", "@..", "#../..", "@a\\b", "/"),
).map(([prefix, owner, repo, path, tree, suffix]) =>
  `${prefix}${owner}/${repo}${tree && path.length > 0 ? "/tree" : ""}${
    path.map((p) => `/${p}`).join("")
  }${suffix}`
);
const sourceString = fc.oneof(
  anyString(80),
  structuredSource,
  fc.array(sourcePiece, { maxLength: 12 }).map((parts) => parts.join("")),
  fc.tuple(fc.constantFrom("", "github:", "o/", "x/"), fc.integer({ min: 1, max: 20_000 }))
    .map(([prefix, n]) => `${prefix}${"/".repeat(n)}x`),
);
const optionalPart = fc.option(
  fc.oneof(fc.array(sourcePiece, { maxLength: 6 }).map((p) => p.join("")), anyString(20)),
  { nil: undefined },
);
const sourceSpec: fc.Arbitrary<string | SourceSpec> = fc.oneof(
  // Option-like, control-character and traversal strings, and paths that leave the repository.
  fc.constantFrom<string | SourceSpec>(
    "github:../..",
    "https://github.com/../..",
    "https://x/../../../..",
    "git@h:../../..",
    "o/./r",
    "o\\r/x",
    "../..",
    { repo: "o/r", path: "../r-private" },
    { repo: "o/r", path: "../../etc" },
    { repo: "o/r", path: ".." },
    { repo: "o/r", ref: "../../.." },
  ),
  sourceString,
  fc.record({ repo: sourceString, ref: optionalPart, path: optionalPart }).map((spec) => {
    const out: SourceSpec = { repo: spec.repo };
    if (spec.ref !== undefined) out.ref = spec.ref;
    if (spec.path !== undefined) out.path = spec.path;
    return out;
  }),
);

function strictlyInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel !== "" && rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

function insideOrSame(parent: string, child: string): boolean {
  return relative(parent, child) === "" || strictlyInside(parent, child);
}

Deno.test("fuzz: resolveSource throws SourceError or resolves strictly inside the cache", () => {
  fc.assert(
    fc.property(sourceSpec, (spec) => {
      let resolved;
      try {
        resolved = bounded("resolveSource", () => resolveSource(spec, CACHE));
      } catch (error) {
        ok(error instanceof SourceError, `unexpected error ${error}`);
        ok(["unparseable", "hostile", "escapes"].includes(error.kind), error.message);
        return;
      }
      ok(strictlyInside(CACHE, resolved.dir), `dir escapes: ${resolved.dir}`);
      ok(insideOrSame(resolved.dir, resolved.scanDir), `scanDir escapes: ${resolved.scanDir}`);
      for (const part of resolved.id.split("/")) {
        ok(part !== "" && part !== "." && part !== ".." && !part.includes("\\"), resolved.id);
      }
      equal(
        resolved.key,
        resolved.ref === undefined ? resolved.id : `${resolved.id}@${resolved.ref}`,
      );
    }),
    PARAMS,
  );
});
