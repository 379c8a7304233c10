import assert from "node:assert/strict";
import {
  compareStrings,
  extractUrls,
  groupSources,
  hostOf,
  isPinnedUrl,
  NOT_ASSESSED,
  readSurface,
} from "../lib/skill/surface.ts";
import { findHiddenCharacters, formatCodePoint } from "../lib/skill/hidden.ts";

const SHA = "0123456789abcdef0123456789abcdef01234567";
const SHA_UPPER = "0123456789ABCDEF0123456789ABCDEF01234567";

// ---------------------------------------------------------------------------
// URL extraction
// ---------------------------------------------------------------------------

Deno.test("extractUrls finds http and https tokens up to whitespace", () => {
  const body = "First https://a.example/x then\thttp://b.example/y\nand https://c.example/z";
  assert.deepEqual(extractUrls(body), [
    "https://a.example/x",
    "http://b.example/y",
    "https://c.example/z",
  ]);
});

Deno.test("extractUrls ignores other schemes and bare hosts", () => {
  const body = "ftp://a.example/x mailto:me@example.com www.example.com file:///etc/passwd";
  assert.deepEqual(extractUrls(body), []);
});

Deno.test("extractUrls stops at each terminator character", () => {
  const cases: Array<[string, string]> = [
    ["<https://a.example/p>", "https://a.example/p"],
    ['"https://a.example/p"', "https://a.example/p"],
    ["'https://a.example/p'", "https://a.example/p"],
    ["`https://a.example/p`", "https://a.example/p"],
    ["(https://a.example/p)", "https://a.example/p"],
    ["[https://a.example/p]", "https://a.example/p"],
    ["{https://a.example/p}", "https://a.example/p"],
    ["https://a.example/p>rest", "https://a.example/p"],
    ["https://a.example/p<rest", "https://a.example/p"],
    ["[link](https://a.example/p) after", "https://a.example/p"],
  ];
  for (const [body, expected] of cases) {
    assert.deepEqual(extractUrls(body), [expected], body);
  }
});

Deno.test("extractUrls trims trailing sentence punctuation", () => {
  for (const punct of [".", ",", ";", ":", "!", "?", "...", "?!", ".,;:!?"]) {
    const body = `See https://a.example/path${punct} next`;
    assert.deepEqual(extractUrls(body), ["https://a.example/path"], body);
  }
});

Deno.test("extractUrls keeps interior punctuation and query/fragment", () => {
  const body = "Go to https://a.example/a.b,c;d:e!f?g=1#frag.";
  assert.deepEqual(extractUrls(body), ["https://a.example/a.b,c;d:e!f?g=1#frag"]);
});

Deno.test("extractUrls keeps duplicates in document order", () => {
  const body = "https://b.example/1 https://a.example/2 https://b.example/1";
  assert.deepEqual(extractUrls(body), [
    "https://b.example/1",
    "https://a.example/2",
    "https://b.example/1",
  ]);
});

Deno.test("extractUrls drops tokens without a host", () => {
  assert.deepEqual(extractUrls("broken https:// and http://."), []);
});

Deno.test("hostOf lowercases, keeps the port and drops user information", () => {
  assert.equal(hostOf("https://Example.COM/Path"), "example.com");
  assert.equal(hostOf("https://Example.com:8443/x"), "example.com:8443");
  assert.equal(hostOf("https://user:pw@Example.com/x"), "example.com");
  assert.equal(hostOf("https://example.com"), "example.com");
  assert.equal(hostOf("https://example.com?q=1"), "example.com");
  assert.equal(hostOf("https://example.com#f"), "example.com");
});

Deno.test("groupSources groups by lowercase host (host:port distinct), sorted and unique", () => {
  const urls = [
    "https://Zeta.example/b",
    "https://zeta.example/a",
    "https://zeta.example/b",
    "https://Zeta.example/b",
    "https://alpha.example:8080/x",
    "https://alpha.example/y",
    "http://alpha.example/y",
  ];
  const groups = groupSources(urls);
  assert.deepEqual(groups.map((g) => g.host), [
    "alpha.example",
    "alpha.example:8080",
    "zeta.example",
  ]);
  assert.deepEqual(groups[0].urls, ["http://alpha.example/y", "https://alpha.example/y"]);
  assert.deepEqual(groups[1].urls, ["https://alpha.example:8080/x"]);
  // Code-unit order: uppercase sorts before lowercase; exact duplicates collapse.
  assert.deepEqual(groups[2].urls, [
    "https://Zeta.example/b",
    "https://zeta.example/a",
    "https://zeta.example/b",
  ]);
  for (const group of groups) {
    assert.deepEqual(Object.keys(group), ["host", "urls", "pinned"]);
    assert.equal(group.pinned, false);
  }
});

Deno.test("groupSources of nothing is empty", () => {
  assert.deepEqual(groupSources([]), []);
});

Deno.test("compareStrings is code-unit order, not locale order", () => {
  assert.deepEqual(["b", "B", "a", "A", "_"].sort(compareStrings), ["A", "B", "_", "a", "b"]);
  assert.equal(compareStrings("x", "x"), 0);
});

// ---------------------------------------------------------------------------
// Pin recognition
// ---------------------------------------------------------------------------

Deno.test("isPinnedUrl accepts GitHub raw addresses with a full commit", () => {
  assert.equal(isPinnedUrl(`https://raw.githubusercontent.com/o/r/${SHA}/a.py`), true);
  assert.equal(isPinnedUrl(`https://raw.githubusercontent.com/o/r/${SHA}/dir/sub/a.py`), true);
  assert.equal(isPinnedUrl(`https://raw.githubusercontent.com/o/r/${SHA_UPPER}/a.py`), true);
});

Deno.test("isPinnedUrl accepts github.com blob, raw and tree addresses with a full commit", () => {
  for (const kind of ["blob", "raw", "tree"]) {
    assert.equal(isPinnedUrl(`https://github.com/o/r/${kind}/${SHA}/a.py`), true, kind);
    assert.equal(isPinnedUrl(`https://github.com/o/r/${kind}/${SHA}/d/e/f.md`), true, kind);
    assert.equal(isPinnedUrl(`https://github.com/o/r/${kind}/${SHA_UPPER}/a.py`), true, kind);
  }
  // Host case does not matter.
  assert.equal(isPinnedUrl(`https://GitHub.com/o/r/blob/${SHA}/a.py`), true);
  // A fragment after a pinned path (a line anchor) keeps it pinned.
  assert.equal(isPinnedUrl(`https://github.com/o/r/blob/${SHA}/a.py#L10`), true);
});

Deno.test("isPinnedUrl accepts Hugging Face resolve and blob addresses", () => {
  for (const prefix of ["", "datasets/", "spaces/"]) {
    for (const kind of ["resolve", "blob"]) {
      const url = `https://huggingface.co/${prefix}o/n/${kind}/${SHA}/model.bin`;
      assert.equal(isPinnedUrl(url), true, url);
    }
  }
  assert.equal(isPinnedUrl(`https://huggingface.co/o/n/resolve/${SHA_UPPER}/a/b.json`), true);
});

Deno.test("isPinnedUrl rejects plain http, credentials and explicit ports", () => {
  assert.equal(isPinnedUrl(`http://raw.githubusercontent.com/o/r/${SHA}/a.py`), false);
  assert.equal(isPinnedUrl(`http://github.com/o/r/blob/${SHA}/a.py`), false);
  assert.equal(isPinnedUrl(`https://user@github.com/o/r/blob/${SHA}/a.py`), false);
  assert.equal(isPinnedUrl(`https://user:pw@github.com/o/r/blob/${SHA}/a.py`), false);
  assert.equal(isPinnedUrl(`https://:pw@github.com/o/r/blob/${SHA}/a.py`), false);
  assert.equal(isPinnedUrl(`https://github.com:8443/o/r/blob/${SHA}/a.py`), false);
  // The default port written out is still an explicit port.
  assert.equal(isPinnedUrl(`https://github.com:443/o/r/blob/${SHA}/a.py`), false);
  assert.equal(isPinnedUrl(`https://huggingface.co:443/o/n/resolve/${SHA}/a`), false);
});

Deno.test("isPinnedUrl rejects query strings", () => {
  assert.equal(isPinnedUrl(`https://github.com/o/r/blob/${SHA}/a.py?raw=true`), false);
  assert.equal(isPinnedUrl(`https://huggingface.co/o/n/resolve/main/a.bin?revision=${SHA}`), false);
  assert.equal(
    isPinnedUrl(`https://huggingface.co/o/n/resolve/${SHA}/a.bin?revision=${SHA}`),
    false,
  );
  assert.equal(isPinnedUrl(`https://raw.githubusercontent.com/o/r/${SHA}/a.py?`), false);
});

Deno.test("isPinnedUrl rejects arbitrary hosts with hash segments and digest fragments", () => {
  assert.equal(isPinnedUrl(`https://example.com/o/r/${SHA}/a.py`), false);
  assert.equal(isPinnedUrl(`https://example.com/o/r/blob/${SHA}/a.py`), false);
  assert.equal(isPinnedUrl(`https://cdn.example/${SHA}/${SHA}/${SHA}`), false);
  assert.equal(isPinnedUrl(`https://gitlab.com/o/r/-/blob/${SHA}/a.py`), false);
  assert.equal(isPinnedUrl(`https://example.com/tool.sh#sha256:${"a".repeat(64)}`), false);
  assert.equal(
    isPinnedUrl(`https://github.com/o/r/blob/main/a.py#sha256:${"a".repeat(64)}`),
    false,
  );
  assert.equal(isPinnedUrl(`https://raw.githubusercontent.com/o/r/main/a.py#${SHA}`), false);
});

Deno.test("isPinnedUrl rejects a commit in the wrong position", () => {
  assert.equal(isPinnedUrl(`https://github.com/o/r/${SHA}/a.py`), false);
  assert.equal(isPinnedUrl(`https://github.com/o/r/blob/main/${SHA}/a.py`), false);
  assert.equal(isPinnedUrl(`https://github.com/o/blob/${SHA}/a.py`), false);
  assert.equal(isPinnedUrl(`https://github.com/o/r/commit/${SHA}/a.py`), false);
  assert.equal(isPinnedUrl(`https://raw.githubusercontent.com/o/${SHA}/a.py`), false);
  assert.equal(isPinnedUrl(`https://raw.githubusercontent.com/o/r/main/${SHA}/a.py`), false);
  assert.equal(isPinnedUrl(`https://huggingface.co/o/n/${SHA}/resolve/a`), false);
  assert.equal(isPinnedUrl(`https://huggingface.co/o/n/tree/${SHA}/a`), false);
  assert.equal(isPinnedUrl(`https://huggingface.co/models/o/n/resolve/${SHA}/a`), false);
  assert.equal(isPinnedUrl(`https://huggingface.co/datasets/n/resolve/${SHA}/a`), false);
  // Layouts belong to their own host only.
  assert.equal(isPinnedUrl(`https://github.com/o/n/resolve/${SHA}/a`), false);
  assert.equal(isPinnedUrl(`https://huggingface.co/o/r/tree/${SHA}/a`), false);
  assert.equal(isPinnedUrl(`https://raw.githubusercontent.com/o/r/blob/${SHA}/a`), false);
});

Deno.test("isPinnedUrl rejects look-alike hosts", () => {
  assert.equal(isPinnedUrl(`https://github.com.evil.example/o/r/blob/${SHA}/a.py`), false);
  assert.equal(isPinnedUrl(`https://evil-github.com/o/r/blob/${SHA}/a.py`), false);
  assert.equal(isPinnedUrl(`https://www.github.com/o/r/blob/${SHA}/a.py`), false);
  assert.equal(isPinnedUrl(`https://raw.githubusercontent.com.evil/o/r/${SHA}/a.py`), false);
  assert.equal(isPinnedUrl(`https://huggingface.co.evil.example/o/n/resolve/${SHA}/a`), false);
  assert.equal(isPinnedUrl(`https://github.com@evil.example/o/r/blob/${SHA}/a.py`), false);
});

Deno.test("isPinnedUrl requires a non-empty path after the commit", () => {
  assert.equal(isPinnedUrl(`https://github.com/o/r/blob/${SHA}`), false);
  assert.equal(isPinnedUrl(`https://github.com/o/r/tree/${SHA}/`), false);
  assert.equal(isPinnedUrl(`https://raw.githubusercontent.com/o/r/${SHA}`), false);
  assert.equal(isPinnedUrl(`https://raw.githubusercontent.com/o/r/${SHA}/`), false);
  assert.equal(isPinnedUrl(`https://huggingface.co/o/n/resolve/${SHA}`), false);
  assert.equal(isPinnedUrl(`https://huggingface.co/datasets/o/n/blob/${SHA}/`), false);
  // Every following segment must be non-empty.
  assert.equal(isPinnedUrl(`https://github.com/o/r/tree/${SHA}/dir/`), false);
  assert.equal(isPinnedUrl(`https://github.com/o/r/blob/${SHA}//a.py`), false);
  assert.equal(isPinnedUrl(`https://raw.githubusercontent.com/o/r/${SHA}/dir/`), false);
  assert.equal(isPinnedUrl(`https://huggingface.co/o/n/resolve/${SHA}/dir/`), false);
});

Deno.test("isPinnedUrl requires a full 40-hex commit", () => {
  assert.equal(isPinnedUrl(`https://github.com/o/r/blob/${SHA.slice(0, 7)}/a.py`), false);
  assert.equal(isPinnedUrl(`https://github.com/o/r/blob/${SHA.slice(0, 39)}/a.py`), false);
  assert.equal(isPinnedUrl(`https://github.com/o/r/blob/${SHA}0/a.py`), false);
  assert.equal(isPinnedUrl(`https://github.com/o/r/blob/${SHA.slice(0, 39)}g/a.py`), false);
  assert.equal(
    isPinnedUrl(`https://raw.githubusercontent.com/o/r/${SHA.slice(0, 12)}/a.py`),
    false,
  );
  assert.equal(isPinnedUrl(`https://huggingface.co/o/n/resolve/main/a.bin`), false);
  assert.equal(isPinnedUrl(`https://huggingface.co/o/n/resolve/${"a".repeat(64)}/a.bin`), false);
});

Deno.test("isPinnedUrl rejects empty owner or repository segments and junk", () => {
  assert.equal(isPinnedUrl(`https://github.com//r/blob/${SHA}/a.py`), false);
  assert.equal(isPinnedUrl(`https://github.com/o//blob/${SHA}/a.py`), false);
  assert.equal(isPinnedUrl(`https://raw.githubusercontent.com//r/${SHA}/a.py`), false);
  assert.equal(isPinnedUrl(`https://huggingface.co//n/resolve/${SHA}/a`), false);
  assert.equal(isPinnedUrl("https://github.com"), false);
  assert.equal(isPinnedUrl("not a url"), false);
  assert.equal(isPinnedUrl("https://"), false);
});

Deno.test("a host is pinned only if every URL to it is pinned", () => {
  const body = [
    `Pinned: https://raw.githubusercontent.com/o/r/${SHA}/a.py.`,
    `Also pinned: https://raw.githubusercontent.com/o/r/${SHA_UPPER}/b.py`,
    `Mixed: (https://github.com/o/r/blob/${SHA}/a.py) and https://github.com/o/r/blob/main/a.py`,
    `HF: https://huggingface.co/datasets/o/n/resolve/${SHA}/data.csv`,
    "Other: https://example.com/install.sh",
  ].join("\n");
  const surface = readSurface(body, { body, declaredTools: [] });
  assert.deepEqual(surface.externalSources, [
    {
      host: "example.com",
      urls: ["https://example.com/install.sh"],
      pinned: false,
    },
    {
      host: "github.com",
      urls: [
        `https://github.com/o/r/blob/${SHA}/a.py`,
        "https://github.com/o/r/blob/main/a.py",
      ],
      pinned: false,
    },
    {
      host: "huggingface.co",
      urls: [`https://huggingface.co/datasets/o/n/resolve/${SHA}/data.csv`],
      pinned: true,
    },
    {
      host: "raw.githubusercontent.com",
      urls: [
        `https://raw.githubusercontent.com/o/r/${SHA_UPPER}/b.py`,
        `https://raw.githubusercontent.com/o/r/${SHA}/a.py`,
      ],
      pinned: true,
    },
  ]);
});

Deno.test("a pinned URL and an http URL to the same host leave the host unpinned", () => {
  const groups = groupSources([
    `https://raw.githubusercontent.com/o/r/${SHA}/a.py`,
    `http://raw.githubusercontent.com/o/r/${SHA}/a.py`,
  ]);
  assert.equal(groups.length, 1);
  assert.equal(groups[0].pinned, false);
});

Deno.test("a host with an explicit port is its own group and unpinned", () => {
  const groups = groupSources([
    `https://github.com/o/r/blob/${SHA}/a.py`,
    `https://github.com:443/o/r/blob/${SHA}/a.py`,
  ]);
  assert.deepEqual(groups.map((g) => [g.host, g.pinned]), [
    ["github.com", true],
    ["github.com:443", false],
  ]);
});

// ---------------------------------------------------------------------------
// readSurface
// ---------------------------------------------------------------------------

Deno.test("readSurface reads URLs from the body only and hidden characters from the raw file", () => {
  const raw = "---\nname: x\u200B\ndescription: see https://front.example/a\n---\n" +
    "Body https://body.example/b\n";
  const surface = readSurface(raw, {
    body: "Body https://body.example/b\n",
    declaredTools: ["Bash(git:*)", "Read"],
  });
  assert.deepEqual(Object.keys(surface), [
    "schema",
    "externalSources",
    "declaredTools",
    "hiddenCharacters",
    "notAssessed",
  ]);
  assert.equal(surface.schema, "skills-anywhere-surface-1");
  assert.deepEqual(surface.externalSources, [
    { host: "body.example", urls: ["https://body.example/b"], pinned: false },
  ]);
  assert.deepEqual(surface.declaredTools, ["Bash(git:*)", "Read"]);
  assert.deepEqual(surface.hiddenCharacters, [
    { codePoint: "U+200B", name: "ZERO WIDTH SPACE", kind: "zero-width", count: 1, lines: [2] },
  ]);
});

Deno.test("readSurface with an empty body and no tools", () => {
  const surface = readSurface("no frontmatter https://x.example/", { body: "", declaredTools: [] });
  assert.deepEqual(surface.externalSources, []);
  assert.deepEqual(surface.declaredTools, []);
  assert.deepEqual(surface.hiddenCharacters, []);
});

Deno.test("readSurface copies declaredTools and notAssessed", () => {
  const tools = ["Read"];
  const surface = readSurface("", { body: "", declaredTools: tools });
  assert.notEqual(surface.declaredTools, tools);
  tools.push("Write");
  assert.deepEqual(surface.declaredTools, ["Read"]);
  surface.notAssessed.push("extra");
  assert.equal(NOT_ASSESSED.length, 3);
});

Deno.test("readSurface notAssessed has the three AST entries", () => {
  const surface = readSurface("", { body: "", declaredTools: [] });
  assert.equal(surface.notAssessed.length, 3);
  assert.deepEqual(surface.notAssessed, [...NOT_ASSESSED]);
  assert.match(surface.notAssessed[0], /^AST01 Malicious Skills/);
  assert.match(surface.notAssessed[0], /intent/);
  assert.match(surface.notAssessed[1], /^AST08 Poor Scanning/);
  assert.match(surface.notAssessed[1], /pattern-matched/);
  assert.match(surface.notAssessed[2], /^AST06 Weak Isolation/);
  assert.match(surface.notAssessed[2], /runtime/);
});

// ---------------------------------------------------------------------------
// Hidden characters
// ---------------------------------------------------------------------------

Deno.test("formatCodePoint pads to four upper-case hex digits", () => {
  assert.equal(formatCodePoint(0xad), "U+00AD");
  assert.equal(formatCodePoint(0x200b), "U+200B");
  assert.equal(formatCodePoint(0xe0001), "U+E0001");
});

Deno.test("the five-character sample yields exactly five entries sorted by code point", () => {
  const sample = [
    "---", // 1
    "name: sample\u200B", // 2: ZERO WIDTH SPACE in the frontmatter
    "description: Demo.", // 3
    "---", // 4
    "Run \u202Eevil\u202C? no: only U+202E counted here", // 5 (U+202C also listed, see below)
  ];
  // Keep exactly five distinct characters: drop the U+202C on line 5.
  sample[4] = "Run \u202Eevil";
  sample.push(
    "soft\u00ADhyphen and again\u00AD", // 6: two soft hyphens
    "tag \u{E0041}\u{E0042} chars", // 7: two tag characters
    "selector a\u{E0100}", // 8
    "zero\u200Bwidth", // 9
    "another tag \u{E007F}", // 10
  );
  const text = sample.join("\n") + "\n";
  const found = findHiddenCharacters(text);
  assert.equal(found.length, 5);
  assert.deepEqual(found, [
    { codePoint: "U+00AD", name: "SOFT HYPHEN", kind: "invisible-format", count: 2, lines: [6] },
    { codePoint: "U+200B", name: "ZERO WIDTH SPACE", kind: "zero-width", count: 2, lines: [2, 9] },
    {
      codePoint: "U+202E",
      name: "RIGHT-TO-LEFT OVERRIDE",
      kind: "bidi-control",
      count: 1,
      lines: [5],
    },
    {
      codePoint: "U+E0000..U+E007F",
      name: "TAG CHARACTERS",
      kind: "tag",
      count: 3,
      lines: [7, 10],
    },
    {
      codePoint: "U+E0100..U+E01EF",
      name: "VARIATION SELECTORS SUPPLEMENT",
      kind: "variation-selector",
      count: 1,
      lines: [8],
    },
  ]);
  for (const entry of found) {
    assert.deepEqual(Object.keys(entry), ["codePoint", "name", "kind", "count", "lines"]);
  }
});

Deno.test("blocks sort by block start among named code points", () => {
  // Insert in reverse order of code point.
  const text = "\u{E01EF}\u{E0000}\uFFA0\u3164\u2060\u00AD";
  assert.deepEqual(findHiddenCharacters("x" + text).map((e) => e.codePoint), [
    "U+00AD",
    "U+2060",
    "U+3164",
    "U+FFA0",
    "U+E0000..U+E007F",
    "U+E0100..U+E01EF",
  ]);
});

Deno.test("every listed code point is reported with its name and kind", () => {
  const expected: Array<[number, string, string]> = [
    [0x00ad, "SOFT HYPHEN", "invisible-format"],
    [0x034f, "COMBINING GRAPHEME JOINER", "invisible-format"],
    [0x061c, "ARABIC LETTER MARK", "bidi-control"],
    [0x115f, "HANGUL CHOSEONG FILLER", "invisible-format"],
    [0x1160, "HANGUL JUNGSEONG FILLER", "invisible-format"],
    [0x180e, "MONGOLIAN VOWEL SEPARATOR", "zero-width"],
    [0x200b, "ZERO WIDTH SPACE", "zero-width"],
    [0x200c, "ZERO WIDTH NON-JOINER", "zero-width"],
    [0x200d, "ZERO WIDTH JOINER", "zero-width"],
    [0x200e, "LEFT-TO-RIGHT MARK", "bidi-control"],
    [0x200f, "RIGHT-TO-LEFT MARK", "bidi-control"],
    [0x202a, "LEFT-TO-RIGHT EMBEDDING", "bidi-control"],
    [0x202b, "RIGHT-TO-LEFT EMBEDDING", "bidi-control"],
    [0x202c, "POP DIRECTIONAL FORMATTING", "bidi-control"],
    [0x202d, "LEFT-TO-RIGHT OVERRIDE", "bidi-control"],
    [0x202e, "RIGHT-TO-LEFT OVERRIDE", "bidi-control"],
    [0x2060, "WORD JOINER", "zero-width"],
    [0x2061, "FUNCTION APPLICATION", "invisible-format"],
    [0x2062, "INVISIBLE TIMES", "invisible-format"],
    [0x2063, "INVISIBLE SEPARATOR", "invisible-format"],
    [0x2064, "INVISIBLE PLUS", "invisible-format"],
    [0x2066, "LEFT-TO-RIGHT ISOLATE", "bidi-control"],
    [0x2067, "RIGHT-TO-LEFT ISOLATE", "bidi-control"],
    [0x2068, "FIRST STRONG ISOLATE", "bidi-control"],
    [0x2069, "POP DIRECTIONAL ISOLATE", "bidi-control"],
    [0x3164, "HANGUL FILLER", "invisible-format"],
    [0xfeff, "ZERO WIDTH NO-BREAK SPACE", "zero-width"],
    [0xffa0, "HALFWIDTH HANGUL FILLER", "invisible-format"],
  ];
  for (const [cp, name, kind] of expected) {
    // Letters around each one so no exemption (leading BOM, emoji joiner) applies.
    const found = findHiddenCharacters(`a${String.fromCodePoint(cp)}b`);
    assert.deepEqual(found, [{ codePoint: formatCodePoint(cp), name, kind, count: 1, lines: [1] }]);
  }
  // Everything at once: one entry each, in code-point order.
  const all = "a" + expected.map(([cp]) => String.fromCodePoint(cp)).join("a") + "a";
  assert.deepEqual(
    findHiddenCharacters(all).map((e) => e.codePoint),
    expected.map(([cp]) => formatCodePoint(cp)),
  );
});

Deno.test("neighbouring code points that are not listed are not reported", () => {
  const text = "a\u00AC\u00AE\u2065\u206A\u202F\u2010\uFE0F\uFE00\u{E0080}\u{E01F0}\u{E00FF}\t b";
  // U+206A..U+206F are deprecated format characters, not in the list.
  assert.deepEqual(findHiddenCharacters(text), []);
});

Deno.test("tag and variation-selector blocks cover their whole range", () => {
  const tags = findHiddenCharacters("a\u{E0000}\u{E0001}\u{E0020}\u{E007E}\u{E007F}b");
  assert.deepEqual(tags, [
    { codePoint: "U+E0000..U+E007F", name: "TAG CHARACTERS", kind: "tag", count: 5, lines: [1] },
  ]);
  const vs = findHiddenCharacters("a\u{E0100}b\u{E01EF}c");
  assert.deepEqual(vs, [
    {
      codePoint: "U+E0100..U+E01EF",
      name: "VARIATION SELECTORS SUPPLEMENT",
      kind: "variation-selector",
      count: 2,
      lines: [1],
    },
  ]);
});

Deno.test("a BOM at the very start is not reported", () => {
  assert.deepEqual(findHiddenCharacters("\uFEFF---\nname: x\n---\nBody\n"), []);
  assert.deepEqual(findHiddenCharacters("\uFEFF"), []);
});

Deno.test("a later BOM is reported, including a second BOM at the start", () => {
  assert.deepEqual(findHiddenCharacters("line one\nline\uFEFF two\n"), [
    {
      codePoint: "U+FEFF",
      name: "ZERO WIDTH NO-BREAK SPACE",
      kind: "zero-width",
      count: 1,
      lines: [2],
    },
  ]);
  assert.deepEqual(findHiddenCharacters("\uFEFF\uFEFFx"), [
    {
      codePoint: "U+FEFF",
      name: "ZERO WIDTH NO-BREAK SPACE",
      kind: "zero-width",
      count: 1,
      lines: [1],
    },
  ]);
  assert.equal(findHiddenCharacters("\n\uFEFF")[0].lines[0], 2);
});

Deno.test("emoji ZWJ sequences are not reported", () => {
  const family = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}"; // 👨‍👩‍👧
  const heartOnFire = "\u2764\uFE0F\u200D\u{1F525}"; // ❤️‍🔥
  assert.equal(family, "👨‍👩‍👧");
  assert.equal(heartOnFire, "❤️‍🔥");
  assert.deepEqual(findHiddenCharacters(`Family ${family} and ${heartOnFire}.\n`), []);
  assert.deepEqual(findHiddenCharacters(family + heartOnFire), []);
});

Deno.test("the England flag tag sequence is not reported", () => {
  const england = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}";
  assert.equal(england, "🏴󠁧󠁢󠁥󠁮󠁧󠁿");
  assert.deepEqual(findHiddenCharacters(`Go ${england} go\n${england}`), []);
  // Two and six tags with digits are still flag sequences.
  assert.deepEqual(findHiddenCharacters("\u{1F3F4}\u{E0075}\u{E0073}\u{E007F}"), []);
  assert.deepEqual(
    findHiddenCharacters(
      "\u{1F3F4}\u{E0075}\u{E0073}\u{E0063}\u{E0061}\u{E0031}\u{E0032}\u{E007F}",
    ),
    [],
  );
});

Deno.test("tag characters outside a valid flag sequence are reported", () => {
  const entry = (count: number, lines: number[]) => [
    { codePoint: "U+E0000..U+E007F", name: "TAG CHARACTERS", kind: "tag", count, lines },
  ];
  // No black flag before the tags.
  assert.deepEqual(findHiddenCharacters("\u{E0067}\u{E0062}\u{E007F}"), entry(3, [1]));
  // Only one tag letter.
  assert.deepEqual(findHiddenCharacters("\u{1F3F4}\u{E0067}\u{E007F}"), entry(2, [1]));
  // Seven tag letters is too many.
  assert.deepEqual(
    findHiddenCharacters("\u{1F3F4}" + "\u{E0061}".repeat(7) + "\u{E007F}"),
    entry(8, [1]),
  );
  // Upper-case tag letters are not a subdivision code.
  assert.deepEqual(findHiddenCharacters("\u{1F3F4}\u{E0047}\u{E0042}\u{E007F}"), entry(3, [1]));
  // No cancel tag.
  assert.deepEqual(findHiddenCharacters("\u{1F3F4}\u{E0067}\u{E0062}x"), entry(2, [1]));
  // A different base emoji.
  assert.deepEqual(findHiddenCharacters("\u{1F3F3}\u{E0067}\u{E0062}\u{E007F}"), entry(3, [1]));
  // A valid flag followed by a stray cancel tag: only the stray one counts.
  assert.deepEqual(
    findHiddenCharacters("\u{1F3F4}\u{E0067}\u{E0062}\u{E007F}\u{E007F}"),
    entry(1, [1]),
  );
});

Deno.test("a joiner between letters or next to one emoji is reported", () => {
  const zwj = (count: number, lines: number[]) => [
    { codePoint: "U+200D", name: "ZERO WIDTH JOINER", kind: "zero-width", count, lines },
  ];
  assert.deepEqual(findHiddenCharacters("ab\u200Dcd"), zwj(1, [1]));
  assert.deepEqual(findHiddenCharacters("a\u200D\u{1F525}"), zwj(1, [1]));
  assert.deepEqual(findHiddenCharacters("\u{1F525}\u200Da"), zwj(1, [1]));
  assert.deepEqual(findHiddenCharacters("\u200D\u{1F525}"), zwj(1, [1]));
  assert.deepEqual(findHiddenCharacters("\u{1F525}\u200D"), zwj(1, [1]));
  assert.deepEqual(findHiddenCharacters("\u{1F525}\u200D\u200D\u{1F525}"), zwj(2, [1]));
  // U+FE0F is only allowed before the joiner, after an emoji.
  assert.deepEqual(findHiddenCharacters("a\uFE0F\u200D\u{1F525}"), zwj(1, [1]));
  // Across a line break it is not a joiner between emoji.
  assert.deepEqual(findHiddenCharacters("\u{1F525}\n\u200D\u{1F525}"), zwj(1, [2]));
});

Deno.test("30 lines each with U+2060 give count 30 and the first 20 lines", () => {
  const text = Array.from({ length: 30 }, (_, i) => `line ${i + 1}\u2060 text`).join("\n");
  assert.deepEqual(findHiddenCharacters(text), [
    {
      codePoint: "U+2060",
      name: "WORD JOINER",
      kind: "zero-width",
      count: 30,
      lines: Array.from({ length: 20 }, (_, i) => i + 1),
    },
  ]);
});

Deno.test("lines are distinct and in order; counts include repeats on one line", () => {
  const text = "\u200B\u200B\u200B\n\nx\n\u200B\r\n\u200B\u200B";
  assert.deepEqual(findHiddenCharacters(text), [
    {
      codePoint: "U+200B",
      name: "ZERO WIDTH SPACE",
      kind: "zero-width",
      count: 6,
      lines: [1, 4, 5],
    },
  ]);
});

Deno.test("hidden characters are found in frontmatter even when it does not parse", () => {
  const raw = "---\nname: [unclosed\u202E\n---\nbody\n";
  const surface = readSurface(raw, { body: "", declaredTools: [] });
  assert.deepEqual(surface.hiddenCharacters.map((e) => [e.codePoint, e.lines]), [
    ["U+202E", [2]],
  ]);
});

Deno.test("text without hidden characters yields an empty list", () => {
  assert.deepEqual(findHiddenCharacters(""), []);
  assert.deepEqual(findHiddenCharacters("Plain ASCII\nand Ünïcödé — “quotes” 日本語 😀\n"), []);
});
