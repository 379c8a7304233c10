import { deepEqual, equal, match, ok, throws } from "node:assert/strict";
import { join } from "node:path";
import { KindError } from "../lib/errors.ts";
import {
  classifyDestination,
  MAX_RESOURCE_LINKS,
  type ResourceReference,
  resourceReferences,
} from "../lib/check/_links.ts";
import {
  buildResourcesReport,
  checkResources,
  RESOURCES_SCOPE,
  type ResourcesReport,
} from "../lib/check/_resources.ts";
import { mkfifo, ROOT, withTempDir, writeTree } from "./helpers.ts";

function tooManyLinks(error: unknown): boolean {
  return error instanceof KindError && error.kind === "too-many-links";
}

// ---------------------------------------------------------------------------
// classifyDestination
// ---------------------------------------------------------------------------

Deno.test("classifyDestination skips empty, fragment-only and network-path references", () => {
  equal(classifyDestination(""), undefined);
  equal(classifyDestination("#x"), undefined);
  equal(classifyDestination("#"), undefined);
  equal(classifyDestination("//host"), undefined);
  equal(classifyDestination("//host/path/a.md"), undefined);
});

Deno.test("classifyDestination skips other scheme URLs", () => {
  for (
    const url of [
      "https:",
      "https://example.com/a.md",
      "http://example.com",
      "HTTPS://EXAMPLE.COM/",
      "mailto:me@example.com",
      "data:text/plain,hi",
      "javascript:alert(1)",
      "ftp://host/x",
      "c:",
      "git+ssh://host/r",
      "x-custom.scheme:thing",
    ]
  ) {
    equal(classifyDestination(url), undefined, url);
  }
});

Deno.test("classifyDestination puts file: URLs and Windows drive paths outside", () => {
  for (
    const url of [
      "file:",
      "file:///etc/passwd",
      "FILE:relative.md",
      "C:\\x",
      "C:/x",
      "c:/Users/a.md",
      "z:\\",
    ]
  ) {
    deepEqual(classifyDestination(url), { problem: "outside" }, url);
  }
});

Deno.test("classifyDestination cuts the query and fragment", () => {
  deepEqual(classifyDestination("a.md#top"), { path: "a.md" });
  deepEqual(classifyDestination("a.md?x=1"), { path: "a.md" });
  deepEqual(classifyDestination("dir/a.md?x=1#y"), { path: "dir/a.md" });
  deepEqual(classifyDestination("a.md#frag?q"), { path: "a.md" });
  // Only the cut part may hold bad escapes.
  deepEqual(classifyDestination("a.md?%zz"), { path: "a.md" });
  deepEqual(classifyDestination("a.md#\\x"), { path: "a.md" });
  // Nothing before the query names the skill directory itself.
  deepEqual(classifyDestination("?x=1"), { path: "." });
});

Deno.test("classifyDestination percent-decodes exactly once", () => {
  deepEqual(classifyDestination("a%20b.md"), { path: "a b.md" });
  deepEqual(classifyDestination("caf%C3%A9.md"), { path: "café.md" });
  deepEqual(classifyDestination("a%252e.md"), { path: "a%2e.md" });
  deepEqual(classifyDestination("%252e%252e/x"), { path: "%2e%2e/x" });
  deepEqual(classifyDestination("dir%2Fa.md"), { path: "dir/a.md" });
  // Decoding happens before dot-segment handling.
  deepEqual(classifyDestination("%2e%2e/x"), { problem: "outside" });
  deepEqual(classifyDestination("a/%2E%2E/b"), { path: "b" });
  deepEqual(classifyDestination("%2Fetc/passwd"), { problem: "outside" });
});

Deno.test("classifyDestination marks undecodable escapes invalid", () => {
  deepEqual(classifyDestination("%zz"), { problem: "invalid" });
  deepEqual(classifyDestination("a%zz.md"), { problem: "invalid" });
  deepEqual(classifyDestination("a%.md"), { problem: "invalid" });
  deepEqual(classifyDestination("a%C3.md"), { problem: "invalid" });
});

Deno.test("classifyDestination marks control characters and backslashes invalid", () => {
  for (
    const url of [
      "a\u0000b.md",
      "a\tb.md",
      "a\u001fb.md",
      "a\u007fb.md",
      "a%00b.md",
      "a%0Ab.md",
      "a%7F.md",
      "dir\\a.md",
      "dir%5Ca.md",
      "..\\x",
      "/\\x",
    ]
  ) {
    deepEqual(classifyDestination(url), { problem: "invalid" }, JSON.stringify(url));
  }
});

Deno.test("classifyDestination puts absolute paths outside", () => {
  deepEqual(classifyDestination("/etc/passwd"), { problem: "outside" });
  deepEqual(classifyDestination("/"), { problem: "outside" });
  deepEqual(classifyDestination("/a.md#x"), { problem: "outside" });
});

Deno.test("classifyDestination normalises dot and empty segments", () => {
  deepEqual(classifyDestination("a.md"), { path: "a.md" });
  deepEqual(classifyDestination("./a/../b"), { path: "b" });
  deepEqual(classifyDestination("scripts//run.py"), { path: "scripts/run.py" });
  deepEqual(classifyDestination("./scripts/./run.py"), { path: "scripts/run.py" });
  deepEqual(classifyDestination("dir/"), { path: "dir" });
  deepEqual(classifyDestination("a/b/c/../../d"), { path: "a/d" });
  deepEqual(classifyDestination("..."), { path: "..." });
  deepEqual(classifyDestination(".hidden/x"), { path: ".hidden/x" });
});

Deno.test("classifyDestination puts .. past the root outside", () => {
  deepEqual(classifyDestination(".."), { problem: "outside" });
  deepEqual(classifyDestination("../x"), { problem: "outside" });
  deepEqual(classifyDestination("a/../../x"), { problem: "outside" });
  deepEqual(classifyDestination("./../x"), { problem: "outside" });
  // Returning inside later does not undo leaving the root.
  deepEqual(classifyDestination("../skill/a.md"), { problem: "outside" });
});

Deno.test("classifyDestination gives . for the skill directory itself", () => {
  deepEqual(classifyDestination("."), { path: "." });
  deepEqual(classifyDestination("./"), { path: "." });
  deepEqual(classifyDestination("a/.."), { path: "." });
  deepEqual(classifyDestination("./#top"), { path: "." });
});

// ---------------------------------------------------------------------------
// resourceReferences
// ---------------------------------------------------------------------------

Deno.test("resourceReferences lists inline links and images with their lines", () => {
  const raw = [
    "# Title", // 1
    "", // 2
    'See [the form](forms/a.md#top) and ![chart](img/chart.png "Chart").', // 3
    "Also [home](https://example.com) and [anchor](#section) and [mail](mailto:a@b.c).", // 4
    "[up](../secret.txt) [abs](/etc/passwd) [bad](a%zz.md)", // 5
  ].join("\n");
  deepEqual(resourceReferences(raw), [
    { url: "forms/a.md#top", line: 3, source: "link", path: "forms/a.md" },
    { url: "img/chart.png", line: 3, source: "link", path: "img/chart.png" },
    { url: "../secret.txt", line: 5, source: "link", problem: "outside" },
    { url: "/etc/passwd", line: 5, source: "link", problem: "outside" },
    { url: "a%zz.md", line: 5, source: "link", problem: "invalid" },
  ]);
});

Deno.test("resourceReferences lists used reference definitions, first definition wins", () => {
  const raw = [
    "Use [the guide][Guide] and ![logo][img] and [shortcut] and [collapsed][].", // 1
    "", // 2
    "[guide]: docs/guide.md", // 3
    "[guide]: docs/other.md", // 4
    "[img]: assets/logo.png", // 5
    "[unused]: nowhere.md", // 6
    "[shortcut]: short.md", // 7
    "[collapsed]: <with space.md>", // 8
    "[remote]: https://example.com/x", // 9
    "", // 10
    "And [remote] plus [guide] again.", // 11
  ].join("\n");
  deepEqual(resourceReferences(raw), [
    { url: "docs/guide.md", line: 3, source: "link", path: "docs/guide.md" },
    { url: "assets/logo.png", line: 5, source: "link", path: "assets/logo.png" },
    { url: "short.md", line: 7, source: "link", path: "short.md" },
    { url: "with space.md", line: 8, source: "link", path: "with space.md" },
  ]);
});

Deno.test("resourceReferences ignores definitions that are never used", () => {
  const raw = "Text only.\n\n[a]: a.md\n[b]: b.md\n";
  deepEqual(resourceReferences(raw), []);
});

Deno.test("resourceReferences ignores code spans, code blocks and HTML", () => {
  const raw = [
    "Inline `[code](code.md)` span.", // 1
    "", // 2
    "```md", // 3
    "[fenced](fenced.md)", // 4
    "```", // 5
    "", // 6
    "    [indented](indented.md)", // 7
    "", // 8
    '<a href="html.md">html</a> <img src="pic.png">', // 9
    "", // 10
    "<div>", // 11
    "[in-html-block](block.md)", // 12
    "</div>", // 13
    "", // 14
    "<!-- [commented](comment.md) -->", // 15
    "", // 16
    "Real [one](real.md).", // 17
  ].join("\n");
  deepEqual(resourceReferences(raw), [{
    url: "real.md",
    line: 17,
    source: "link",
    path: "real.md",
  }]);
});

Deno.test("resourceReferences ignores frontmatter but keeps file line numbers", () => {
  const raw = [
    "---", // 1
    "name: demo", // 2
    "description: See [front](front.md) for details.", // 3
    "links: ![x](front.png)", // 4
    "---", // 5
    "", // 6
    "Body [one](one.md).", // 7
    "", // 8
    "[two](two/)", // 9
  ].join("\n");
  deepEqual(resourceReferences(raw), [
    { url: "one.md", line: 7, source: "link", path: "one.md" },
    { url: "two/", line: 9, source: "link", path: "two" },
  ]);
});

Deno.test("resourceReferences handles CRLF and BOM frontmatter line numbers", () => {
  const raw = "\uFEFF---\r\nname: demo\r\ndescription: x [f](f.md)\r\n---\r\nBody [b](b.md)\r\n";
  deepEqual(resourceReferences(raw), [{ url: "b.md", line: 5, source: "link", path: "b.md" }]);
});

Deno.test("resourceReferences without frontmatter scans the whole file", () => {
  deepEqual(resourceReferences("[a](a.md)\n\n[b](b.md)"), [
    { url: "a.md", line: 1, source: "link", path: "a.md" },
    { url: "b.md", line: 3, source: "link", path: "b.md" },
  ]);
});

Deno.test("resourceReferences keeps document order and repeated links", () => {
  const raw = [
    "- [one](x.md)", // 1
    "- > [two](y.md) [three](x.md)", // 2
    "", // 3
    "| not | a table |", // 4
    "", // 5
    "*[four](z.md)* **![five](z.png)**", // 6
  ].join("\n");
  deepEqual(resourceReferences(raw).map((r) => [r.url, r.line]), [
    ["x.md", 1],
    ["y.md", 2],
    ["x.md", 2],
    ["z.md", 6],
    ["z.png", 6],
  ]);
});

Deno.test("resourceReferences decodes character references and escapes in destinations", () => {
  deepEqual(resourceReferences("[a](a&amp;b.md) [c](c\\_d.md) [e](<e f.md>)"), [
    { url: "a&b.md", line: 1, source: "link", path: "a&b.md" },
    { url: "c_d.md", line: 1, source: "link", path: "c_d.md" },
    { url: "e f.md", line: 1, source: "link", path: "e f.md" },
  ]);
});

Deno.test("resourceReferences skips autolinks and empty destinations", () => {
  deepEqual(resourceReferences("<https://example.com/a.md> [empty]() [frag](#x)"), []);
});

Deno.test("resourceReferences allows exactly 1000 local links", () => {
  const lines = Array.from({ length: MAX_RESOURCE_LINKS }, (_, i) => `[l${i}](f${i}.md)`);
  // External and skipped links do not count toward the limit.
  lines.push("[ext](https://example.com/a)", "[frag](#top)");
  const refs = resourceReferences(lines.join("\n\n"));
  equal(MAX_RESOURCE_LINKS, 1000);
  equal(refs.length, 1000);
  deepEqual(refs[999], { url: "f999.md", line: 1999, source: "link", path: "f999.md" });
});

Deno.test("resourceReferences throws too-many-links past 1000 links", () => {
  const raw = Array.from({ length: 1001 }, (_, i) => `[l${i}](f${i}.md)`).join("\n");
  throws(() => resourceReferences(raw), (error: unknown) => {
    ok(error instanceof KindError && error.kind === "too-many-links");
    ok(error instanceof Error);
    match(error.message, /1000/);
    return true;
  });
  // Outside and invalid links count too.
  const bad = Array.from({ length: 1001 }, () => "[x](../x)").join(" ");
  throws(() => resourceReferences(bad), tooManyLinks);
});

// ---------------------------------------------------------------------------
// checkResources against the real filesystem
// ---------------------------------------------------------------------------

async function withSkillDir(
  fn: (root: string, skill: string) => Promise<void>,
): Promise<void> {
  await withTempDir(async (root) => {
    const skill = join(root, "skill");
    await writeTree(root, {
      "skill/scripts/run.py": "print('hi')\n",
      "skill/forms/nested/a.md": "# a\n",
      "outside.txt": "secret\n",
    });
    await fn(root, skill);
  });
}

Deno.test("checkResources reports present files and directories", async () => {
  await withSkillDir(async (_root, skill) => {
    const raw = [
      "---",
      "name: demo",
      "description: Demo.",
      "---",
      "Run [the script](scripts/run.py).", // 5
      "Forms live in [forms](forms/) and [nested](./forms/nested/a.md#x).", // 6
      "The [skill dir](.) itself.", // 7
    ].join("\n");
    const file = join(skill, "SKILL.md");
    await Deno.writeTextFile(file, raw);
    const report = await checkResources(file, raw);
    deepEqual(report, {
      schema: "skills-anywhere-resources-1",
      method: "filesystem",
      references: [
        {
          url: "scripts/run.py",
          line: 5,
          source: "link",
          path: "scripts/run.py",
          status: "present",
          kind: "file",
        },
        {
          url: "forms/",
          line: 6,
          source: "link",
          path: "forms",
          status: "present",
          kind: "directory",
        },
        {
          url: "./forms/nested/a.md#x",
          line: 6,
          source: "link",
          path: "forms/nested/a.md",
          status: "present",
          kind: "file",
        },
        { url: ".", line: 7, source: "link", path: ".", status: "present", kind: "directory" },
      ],
      counts: { total: 4, present: 4, issues: 0 },
      scope: RESOURCES_SCOPE,
    });
  });
});

Deno.test("checkResources reports missing, outside and invalid references", async () => {
  await withSkillDir(async (_root, skill) => {
    const raw = [
      "[gone](scripts/gone.py)", // 1
      "[no dir](nodir/x.md)", // 2
      "[through a file](scripts/run.py/child)", // 3
      "[escape](../outside.txt)", // 4
      "[abs](/etc/passwd)", // 5
      "[bad](a%zz)", // 6
      "[slash](scripts%5Crun.py)", // 7
      "[file](file:///etc/passwd)", // 8
    ].join("\n\n");
    const file = join(skill, "SKILL.md");
    const report = await checkResources(file, raw);
    deepEqual(report.references, [
      {
        url: "scripts/gone.py",
        line: 1,
        source: "link",
        path: "scripts/gone.py",
        problem: "no such file or directory in the skill",
        status: "missing",
      },
      {
        url: "nodir/x.md",
        line: 3,
        source: "link",
        path: "nodir/x.md",
        problem: "no such file or directory in the skill",
        status: "missing",
      },
      {
        url: "scripts/run.py/child",
        line: 5,
        source: "link",
        path: "scripts/run.py/child",
        problem: "no such file or directory in the skill",
        status: "missing",
      },
      {
        url: "../outside.txt",
        line: 7,
        source: "link",
        problem: "points outside the skill directory",
        status: "outside",
      },
      {
        url: "/etc/passwd",
        line: 9,
        source: "link",
        problem: "points outside the skill directory",
        status: "outside",
      },
      {
        url: "a%zz",
        line: 11,
        source: "link",
        problem: "not a usable relative path",
        status: "invalid",
      },
      {
        url: "scripts%5Crun.py",
        line: 13,
        source: "link",
        problem: "not a usable relative path",
        status: "invalid",
      },
      {
        url: "file:///etc/passwd",
        line: 15,
        source: "link",
        problem: "points outside the skill directory",
        status: "outside",
      },
    ]);
    deepEqual(report.counts, { total: 8, present: 0, issues: 8 });
  });
});

Deno.test("checkResources entries keep the report field order", async () => {
  await withSkillDir(async (_root, skill) => {
    const raw = "[a](scripts/run.py) [b](missing.md) [c](../x) [d](Scripts/run.py)";
    const report = await checkResources(join(skill, "SKILL.md"), raw);
    deepEqual(Object.keys(report), ["schema", "method", "references", "counts", "scope"]);
    deepEqual(report.references.map((r) => Object.keys(r)), [
      ["url", "line", "source", "path", "status", "kind"],
      ["url", "line", "source", "path", "problem", "status"],
      ["url", "line", "source", "problem", "status"],
      ["url", "line", "source", "path", "onDisk", "problem", "status"],
    ]);
    deepEqual(Object.keys(report.counts), ["total", "present", "issues"]);
  });
});

Deno.test("checkResources reports a symlink anywhere on the path", async () => {
  await withSkillDir(async (root, skill) => {
    await Deno.symlink(join(skill, "scripts"), join(skill, "linked"));
    await Deno.symlink(join(skill, "scripts", "run.py"), join(skill, "scripts", "alias.py"));
    await Deno.symlink(join(root, "outside.txt"), join(skill, "leak.txt"));
    await Deno.symlink(join(skill, "nothing-here"), join(skill, "dangling"));
    const raw = [
      "[dir link](linked/run.py)", // 1
      "[link itself](linked)", // 2
      "[file link](scripts/alias.py)", // 3
      "[leak](leak.txt)", // 4
      "[dangling](dangling)", // 5
    ].join("\n");
    const report = await checkResources(join(skill, "SKILL.md"), raw);
    deepEqual(
      report.references.map((r) => [r.path, r.line, r.status, r.kind, r.problem]),
      [
        ["linked/run.py", 1, "symlink", undefined, "passes through a symbolic link"],
        ["linked", 2, "symlink", undefined, "passes through a symbolic link"],
        ["scripts/alias.py", 3, "symlink", undefined, "passes through a symbolic link"],
        ["leak.txt", 4, "symlink", undefined, "passes through a symbolic link"],
        ["dangling", 5, "symlink", undefined, "passes through a symbolic link"],
      ],
    );
    deepEqual(report.counts, { total: 5, present: 0, issues: 5 });
  });
});

Deno.test("checkResources resolves the skill directory through its realpath", async () => {
  await withSkillDir(async (root, skill) => {
    // The SKILL.md is reached through a symlinked directory: that is allowed,
    // only symlinks below the skill directory are reported.
    const alias = join(root, "alias");
    await Deno.symlink(skill, alias);
    const raw = "[run](scripts/run.py)";
    const report = await checkResources(join(alias, "SKILL.md"), raw);
    deepEqual(report.references, [
      {
        url: "scripts/run.py",
        line: 1,
        source: "link",
        path: "scripts/run.py",
        status: "present",
        kind: "file",
      },
    ]);
  });
});

Deno.test("checkResources reports a FIFO as unavailable without blocking", async () => {
  await withSkillDir(async (_root, skill) => {
    await mkfifo(join(skill, "pipe"));
    await mkfifo(join(skill, "scripts", "pipe2"));
    const raw = "[pipe](pipe)\n\n[deep](scripts/pipe2)\n\n[through](pipe/child)";
    const report = await checkResources(join(skill, "SKILL.md"), raw);
    deepEqual(report.references, [
      {
        url: "pipe",
        line: 1,
        source: "link",
        path: "pipe",
        problem: "not a regular file or directory, or not readable",
        status: "unavailable",
      },
      {
        url: "scripts/pipe2",
        line: 3,
        source: "link",
        path: "scripts/pipe2",
        problem: "not a regular file or directory, or not readable",
        status: "unavailable",
      },
      {
        url: "pipe/child",
        line: 5,
        source: "link",
        path: "pipe/child",
        problem: "no such file or directory in the skill",
        status: "missing",
      },
    ]);
    deepEqual(report.counts, { total: 3, present: 0, issues: 3 });
  });
});

Deno.test("checkResources: a name longer than any file system allows is missing (never listed)", async () => {
  await withSkillDir(async (_root, skill) => {
    const long = "n".repeat(300);
    const report = await checkResources(join(skill, "SKILL.md"), `[long](${long}.md)`);
    deepEqual(report.references.map((r) => [r.status, r.problem]), [
      ["missing", "no such file or directory in the skill"],
    ]);
  });
});

Deno.test("checkResources counts a mix of present and issues", async () => {
  await withSkillDir(async (_root, skill) => {
    await Deno.symlink(join(skill, "scripts"), join(skill, "linked"));
    await mkfifo(join(skill, "pipe"));
    const raw = [
      "---",
      "name: demo",
      "description: Has [a link](ignored.md) in YAML.",
      "---",
      "", // 5
      "- [run](scripts/run.py)", // 6
      "- [forms](forms)", // 7
      "- [missing](missing.md)", // 8
      "- [link](linked/run.py)", // 9
      "- [pipe](pipe)", // 10
      "- [outside](../../x)", // 11
      "- [invalid](%zz)", // 12
      "- [web](https://example.com/x)", // 13
      "- `[code](code.md)`", // 14
    ].join("\n");
    const report = await checkResources(join(skill, "SKILL.md"), raw);
    deepEqual(report.references.map((r) => [r.line, r.status]), [
      [6, "present"],
      [7, "present"],
      [8, "missing"],
      [9, "symlink"],
      [10, "unavailable"],
      [11, "outside"],
      [12, "invalid"],
    ]);
    deepEqual(report.counts, { total: 7, present: 2, issues: 5 });
    equal(report.method, "filesystem");
    equal(report.schema, "skills-anywhere-resources-1");
  });
});

Deno.test("checkResources with no local links is an empty report", async () => {
  await withSkillDir(async (_root, skill) => {
    const report = await checkResources(
      join(skill, "SKILL.md"),
      "No links, only https://example.com and [web](https://example.com).",
    );
    deepEqual(report.references, []);
    deepEqual(report.counts, { total: 0, present: 0, issues: 0 });
  });
});

Deno.test("checkResources propagates too-many-links", async () => {
  await withSkillDir(async (_root, skill) => {
    const raw = Array.from({ length: 1001 }, (_, i) => `[l](f${i}.md)`).join("\n");
    let caught: unknown;
    try {
      await checkResources(join(skill, "SKILL.md"), raw);
    } catch (error) {
      caught = error;
    }
    ok(tooManyLinks(caught));
  });
});

Deno.test("buildResourcesReport uses the given resolver only for valid paths", async () => {
  const refs: ResourceReference[] = [
    { url: "a.md", line: 1, source: "link", path: "a.md" },
    { url: "b/", line: 2, source: "link", path: "b" },
    { url: "c.md", line: 3, source: "link", path: "c.md" },
    { url: "../d", line: 4, source: "link", problem: "outside" },
    { url: "%zz", line: 5, source: "link", problem: "invalid" },
  ];
  const asked: string[] = [];
  const selected = new Set(["a.md", "b/x.md"]);
  const report: ResourcesReport = await buildResourcesReport(
    refs,
    "selected-files",
    (path) => {
      asked.push(path);
      if (selected.has(path)) return Promise.resolve({ status: "present", kind: "file" });
      if ([...selected].some((f) => f.startsWith(path + "/"))) {
        return Promise.resolve({ status: "present", kind: "directory" });
      }
      return Promise.resolve({ status: "missing" });
    },
  );
  deepEqual(asked, ["a.md", "b", "c.md"]);
  equal(report.method, "selected-files");
  deepEqual(report.references.map((r) => [r.status, r.kind ?? null]), [
    ["present", "file"],
    ["present", "directory"],
    ["missing", null],
    ["outside", null],
    ["invalid", null],
  ]);
  deepEqual(report.counts, { total: 5, present: 2, issues: 3 });
  equal(report.scope, RESOURCES_SCOPE);
  match(RESOURCES_SCOPE, /not read/);
});

// ---------------------------------------------------------------------------
// Paths named in the text, and letter case
// ---------------------------------------------------------------------------

Deno.test("resourceReferences: folder paths in prose and whole code spans, bare .md names in prose", () => {
  const raw = [
    "---",
    "name: a",
    "description: b",
    "---",
    "See REFERENCE.md, then run scripts/fill.py (or `./scripts/check.py`).",
    "Templates live in **templates/**; `references/api.md` has the API.",
  ].join("\n");
  deepEqual(resourceReferences(raw).map((r) => [r.url, r.line, r.source, r.path]), [
    ["REFERENCE.md", 5, "text", "REFERENCE.md"],
    ["scripts/fill.py", 5, "text", "scripts/fill.py"],
    ["./scripts/check.py", 5, "text", "scripts/check.py"],
    ["templates/", 6, "text", "templates"],
    ["references/api.md", 6, "text", "references/api.md"],
  ]);
});

Deno.test("resourceReferences: library names, identifiers, URLs, output files and project paths are not references", () => {
  const raw = [
    "Node.js, p5.js and Chart.js render; call `page.goto()` or core.easing.",
    "Write output.pdf and `decision-doc.md`; edit src/app.ts or /tmp/scripts/x.py.",
    "Fetch https://example.com/scripts/a.py and see <scripts/b.py>.",
    "Use `python scripts/run.py --help`, e.g. subscripts/superscripts, 4.6/4.7.",
    "```",
    "see scripts/in_code.py and NOTES.md",
    "```",
    "<!-- scripts/in_html.py -->",
  ].join("\n");
  deepEqual(resourceReferences(raw), []);
});

Deno.test("resourceReferences: a link's own text is not read again; lines count soft breaks", () => {
  const raw = "[REFERENCE.md](reference.md) and\nalso FORMS.md\n";
  deepEqual(resourceReferences(raw).map((r) => [r.url, r.line, r.source]), [
    ["reference.md", 1, "link"],
    ["FORMS.md", 2, "text"],
  ]);
});

Deno.test("resourceReferences: a folder prefix in another case is still checked", () => {
  deepEqual(resourceReferences("Run Scripts/a.py now.").map((r) => r.path), ["Scripts/a.py"]);
});

Deno.test("checkResources: a name differing only in case is wrong-case, with the spelling on disk", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, {
      "SKILL.md": "",
      "reference.md": "",
      "scripts/fill.py": "",
    });
    const raw = "See REFERENCE.md, Scripts/fill.py, scripts/FILL.py and [r](reference.md).";
    const report = await checkResources(join(dir, "SKILL.md"), raw);
    deepEqual(report.references.map((r) => [r.url, r.status, r.onDisk]), [
      ["REFERENCE.md", "wrong-case", "reference.md"],
      ["Scripts/fill.py", "wrong-case", "scripts/fill.py"],
      ["scripts/FILL.py", "wrong-case", "scripts/fill.py"],
      ["reference.md", "present", undefined],
    ]);
    match(report.references[0].problem!, /letter case/);
    deepEqual(report.counts, { total: 4, present: 1, issues: 3 });
  });
});

Deno.test("checkResources: anthropics pdf's shape (REFERENCE.md, FORMS.md for reference.md, forms.md)", async () => {
  const file = join(ROOT, "testdata/check/pdf-case/SKILL.md");
  const report = await checkResources(file, await Deno.readTextFile(file));
  deepEqual(report.references.map((r) => [r.url, r.line, r.status]), [
    ["REFERENCE.md", 8, "wrong-case"],
    ["FORMS.md", 8, "wrong-case"],
    ["scripts/fill.py", 17, "present"],
    ["reference.md#fields", 17, "present"],
    ["FORMS.md", 22, "wrong-case"],
  ]);
});
