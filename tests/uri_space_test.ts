// The `skill://` URI space (lib/load/_uri_space.ts), pure: one URI, one file of one skill. Every
// kind of collision — a file, a root, a nested root either way, letter case, Unicode form — refuses
// the later claim with the earlier holder; the spelling equals the MCP SDK's own (`skillEntry`).
// The end-to-end attacks over real servers are in mcp_uri_space_test.ts.
import { deepEqual, equal } from "node:assert/strict";
import { skillEntry } from "@modelcontextprotocol/server/ext/skills";
import {
  type Placement,
  placeSkills,
  skillRootUri,
  type SpaceClaim,
} from "../lib/load/_uri_space.ts";

const claim = (name: string, path: string, ...files: string[]): SpaceClaim => ({
  name,
  path,
  files: ["SKILL.md", ...files],
});

/** Why a placement was refused ("placed" when it was not). */
const reason = (p: Placement) => p.ok ? "placed" : p.message;

/** Each placement as `[name, "ok" | kind, uri?, holder?]`. */
function verdicts(placements: Placement[]): (string | undefined)[][] {
  return placements.map((p) =>
    p.ok ? [p.claim.name, "ok"] : [p.claim.name, p.kind, p.uri, p.holder?.name]
  );
}

Deno.test("URI space: the attack of issue 27 — two renamed skills under the prefix pdf", () => {
  const placed = placeSkills([
    claim("pdf", "pdf", "scripts/fill.py"),
    claim("pdf-scripts", "pdf/scripts", "fill.py"),
    claim("pdf-scripts-2", "pdf/scripts", "fill.py"),
  ]);
  deepEqual(verdicts(placed), [
    ["pdf", "ok"],
    ["pdf-scripts", "taken", "skill://pdf/scripts/fill.py", "pdf"],
    ["pdf-scripts-2", "taken", "skill://pdf/scripts/fill.py", "pdf"],
  ]);
  const [pdf, hostile] = placed;
  deepEqual(pdf.ok && [pdf.root, pdf.uris], [
    "skill://pdf",
    ["skill://pdf/SKILL.md", "skill://pdf/scripts/fill.py"],
  ]);
  equal(reason(hostile), 'its URI skill://pdf/scripts/fill.py is taken by skill "pdf"');
});

Deno.test("URI space: every kind of collision refuses the later skill, naming the earlier", () => {
  const cases: [string, SpaceClaim[], (string | undefined)[][]][] = [
    [
      "one root twice",
      [claim("a", "a"), claim("b", "a", "x.md")],
      [["a", "ok"], ["b", "taken", "skill://a/SKILL.md", "a"]],
    ],
    [
      "a file a/SKILL.md of x, then a skill whose root is x/a",
      [claim("x", "x", "a/SKILL.md"), claim("tools-a", "x/a")],
      [["x", "ok"], ["tools-a", "taken", "skill://x/a/SKILL.md", "x"]],
    ],
    [
      "a root x/a, then a skill x with a file a/SKILL.md",
      [claim("codex-a", "x/a"), claim("x", "x", "a/SKILL.md")],
      [["codex-a", "ok"], ["x", "taken", "skill://x/a/SKILL.md", "codex-a"]],
    ],
    [
      "a root inside an earlier root, no file in common",
      [claim("pdf", "pdf"), claim("pdf-scripts", "pdf/scripts", "fill.py")],
      [["pdf", "ok"], ["pdf-scripts", "inside", "skill://pdf/scripts", "pdf"]],
    ],
    [
      "a root that would hold an earlier root",
      [claim("codex-deploy", "codex/deploy"), claim("codex", "codex", "notes.md")],
      [["codex-deploy", "ok"], ["codex", "holds", "skill://codex", "codex-deploy"]],
    ],
    [
      "deeper nesting, either way",
      [claim("a", "a/b/c"), claim("b", "a"), claim("c", "a/b/c/d/e")],
      [["a", "ok"], ["b", "holds", "skill://a", "a"], ["c", "inside", "skill://a/b/c/d/e", "a"]],
    ],
    [
      "a refused skill holds nothing",
      [claim("a", "a"), claim("ab", "a/b"), claim("abc", "a/b/c")],
      [["a", "ok"], ["ab", "inside", "skill://a/b", "a"], ["abc", "inside", "skill://a/b/c", "a"]],
    ],
    [
      "letter case of the authority",
      [claim("pdf", "pdf", "scripts/fill.py"), claim("pdf-scripts", "PDF/scripts", "fill.py")],
      [["pdf", "ok"], ["pdf-scripts", "taken", "skill://PDF/scripts/fill.py", "pdf"]],
    ],
    [
      "letter case of a root",
      [claim("x", "Codex/x"), claim("y", "codex/x")],
      [["x", "ok"], ["y", "taken", "skill://codex/x/SKILL.md", "x"]],
    ],
    [
      "letter case below the root (a file)",
      [claim("x", "x", "A/SKILL.md"), claim("x-a", "x/a")],
      [["x", "ok"], ["x-a", "taken", "skill://x/a/SKILL.md", "x"]],
    ],
    [
      "Unicode form (NFC against NFD)",
      [claim("a", "caf\u00e9/a"), claim("b", "cafe\u0301")],
      [["a", "ok"], ["b", "holds", "skill://cafe%CC%81", "a"]],
    ],
  ];
  for (const [label, claims, expected] of cases) {
    deepEqual(verdicts(placeSkills(claims)), expected, label);
  }
});

Deno.test("URI space: the reasons name both URIs; a case variant says so", () => {
  const [, variant, inside] = placeSkills([
    claim("pdf", "pdf", "scripts/fill.py"),
    claim("pdf-scripts", "PDF/scripts", "fill.py"),
    claim("pdf-notes", "pdf/notes"),
  ]);
  equal(
    reason(variant),
    'its URI skill://PDF/scripts/fill.py differs only in letter case from skill://pdf/scripts/fill.py of skill "pdf"',
  );
  equal(
    reason(inside),
    'its folder skill://pdf/notes is inside the folder skill://pdf of skill "pdf"',
  );
  const [, held] = placeSkills([claim("p-q", "p/q"), claim("top", "p")]);
  equal(reason(held), 'its folder skill://p would hold the folder skill://p/q of skill "p-q"');
});

Deno.test("URI space: what does not collide is placed (siblings, name prefixes, case within one skill)", () => {
  const placed = placeSkills([
    claim("pdf", "pdf", "scripts/fill.py"),
    claim("pdf-forms", "pdf-forms", "scripts/fill.py"),
    claim("codex-pdf", "codex/pdf"),
    claim("codex-deploy", "codex/deploy"),
    claim("cases", "cases", "A.md", "a.md", "Dir/x", "dir/x"),
  ]);
  deepEqual(verdicts(placed).map(([, v]) => v), ["ok", "ok", "ok", "ok", "ok"]);
});

Deno.test("URI space: a skill no URI can name gets no place and holds nothing", () => {
  const placed = placeSkills([
    claim("dots", "a", "../x.md"),
    claim("lone", "b", "\ud800.md"),
    claim("root", "\ud800"),
    claim("a", "a"),
  ]);
  deepEqual(verdicts(placed), [
    ["dots", "unnameable", undefined, undefined],
    ["lone", "unnameable", undefined, undefined],
    ["root", "unnameable", undefined, undefined],
    ["a", "ok"],
  ]);
  equal(reason(placed[0]), "../x.md cannot be named by a URI");
  equal(skillRootUri(""), undefined);
});

Deno.test("URI space: roots and files are spelled exactly as the MCP SDK spells them", async () => {
  const tricky = [
    ["my plugin+x/name", ["Q&A #1.md", "sub dir/100%.txt", "ü/ß.md", "[x]|y~z.md"]],
    ["name", ["a:b@c.md", "semi;colon=eq.md"]],
    ["Ω$prefix/name", ["back\\slash.md"]],
  ] as const;
  for (const [path, files] of tricky) {
    const bytes = "---\nname: name\ndescription: Tricky names.\n---\nBody.\n";
    const entry = await skillEntry(path, {
      "SKILL.md": bytes,
      ...Object.fromEntries(files.map((f) => [f, "x"])),
    });
    const [place] = placeSkills([claim("name", path, ...files)]);
    equal(place.ok, true, path);
    if (!place.ok) continue;
    equal(`${place.root}/SKILL.md`, entry.uri, path);
    const sdk = (entry.resources as { uri: string }[]).map((r) => r.uri).sort();
    deepEqual([...place.uris].sort(), sdk, path);
  }
});
