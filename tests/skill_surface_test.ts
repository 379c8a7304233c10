import { deepEqual, equal, match, notEqual } from "node:assert/strict";
import {
  extractUrls,
  groupSources,
  hostOf,
  isPinnedUrl,
  isReservedHost,
  MAX_SOURCE_LINES,
  NOT_ASSESSED,
  readExposure,
} from "../lib/skill/_exposure.ts";
import { findHiddenCharacters, revealHiddenCharacters } from "../lib/skill/_hidden.ts";
import { compareCodeUnits } from "../lib/util.ts";

const SHA = "0123456789abcdef0123456789abcdef01234567";
const SHA_UPPER = "0123456789ABCDEF0123456789ABCDEF01234567";

/** The URL tokens of `text`, without their lines. */
const urlsOf = (text: string) => extractUrls(text).map((found) => found.url);
/** URLs as if all were on line 1. */
const atLine1 = (urls: string[]) => urls.map((url) => ({ url, line: 1 }));

// ---------------------------------------------------------------------------
// URL extraction
// ---------------------------------------------------------------------------

Deno.test("extractUrls finds http and https tokens up to whitespace", () => {
  const body = "First https://a.example/x then\thttp://b.example/y\nand https://c.example/z";
  deepEqual(urlsOf(body), [
    "https://a.example/x",
    "http://b.example/y",
    "https://c.example/z",
  ]);
});

Deno.test("extractUrls ignores other schemes and bare hosts", () => {
  const body = "ftp://a.example/x mailto:me@example.com www.example.com file:///etc/passwd";
  deepEqual(urlsOf(body), []);
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
    deepEqual(urlsOf(body), [expected], body);
  }
});

Deno.test("extractUrls trims trailing sentence punctuation", () => {
  for (const punct of [".", ",", ";", ":", "!", "?", "...", "?!", ".,;:!?"]) {
    const body = `See https://a.example/path${punct} next`;
    deepEqual(urlsOf(body), ["https://a.example/path"], body);
  }
});

Deno.test("extractUrls keeps interior punctuation and query/fragment", () => {
  const body = "Go to https://a.example/a.b,c;d:e!f?g=1#frag.";
  deepEqual(urlsOf(body), ["https://a.example/a.b,c;d:e!f?g=1#frag"]);
});

Deno.test("extractUrls keeps duplicates in document order", () => {
  const body = "https://b.example/1 https://a.example/2 https://b.example/1";
  deepEqual(urlsOf(body), [
    "https://b.example/1",
    "https://a.example/2",
    "https://b.example/1",
  ]);
});

Deno.test("extractUrls drops tokens without a host", () => {
  deepEqual(urlsOf("broken https:// and http://."), []);
});

Deno.test("hostOf lowercases, keeps the port and drops user information", () => {
  equal(hostOf("https://Example.COM/Path"), "example.com");
  equal(hostOf("https://Example.com:8443/x"), "example.com:8443");
  equal(hostOf("https://user:pw@Example.com/x"), "example.com");
  equal(hostOf("https://example.com"), "example.com");
  equal(hostOf("https://example.com?q=1"), "example.com");
  equal(hostOf("https://example.com#f"), "example.com");
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
  const groups = groupSources(atLine1(urls));
  deepEqual(groups.map((g) => g.host), [
    "alpha.example",
    "alpha.example:8080",
    "zeta.example",
  ]);
  deepEqual(groups[0].urls, ["http://alpha.example/y", "https://alpha.example/y"]);
  deepEqual(groups[1].urls, ["https://alpha.example:8080/x"]);
  // Code-unit order: uppercase sorts before lowercase; exact duplicates collapse.
  deepEqual(groups[2].urls, [
    "https://Zeta.example/b",
    "https://zeta.example/a",
    "https://zeta.example/b",
  ]);
  for (const group of groups) {
    deepEqual(Object.keys(group), ["host", "urls", "lines", "pinned", "reserved"]);
    equal(group.pinned, false);
    equal(group.reserved, true);
  }
});

Deno.test("groupSources of nothing is empty", () => {
  deepEqual(groupSources([]), []);
});

Deno.test("hosts and URLs sort in code-unit order, not locale order", () => {
  deepEqual(["b", "B", "a", "A", "_"].sort(compareCodeUnits), ["A", "B", "_", "a", "b"]);
  equal(compareCodeUnits("x", "x"), 0);
});

// ---------------------------------------------------------------------------
// Pin recognition
// ---------------------------------------------------------------------------

Deno.test("isPinnedUrl accepts GitHub raw addresses with a full commit", () => {
  equal(isPinnedUrl(`https://raw.githubusercontent.com/o/r/${SHA}/a.py`), true);
  equal(isPinnedUrl(`https://raw.githubusercontent.com/o/r/${SHA}/dir/sub/a.py`), true);
  equal(isPinnedUrl(`https://raw.githubusercontent.com/o/r/${SHA_UPPER}/a.py`), true);
});

Deno.test("isPinnedUrl accepts github.com blob, raw and tree addresses with a full commit", () => {
  for (const kind of ["blob", "raw", "tree"]) {
    equal(isPinnedUrl(`https://github.com/o/r/${kind}/${SHA}/a.py`), true, kind);
    equal(isPinnedUrl(`https://github.com/o/r/${kind}/${SHA}/d/e/f.md`), true, kind);
    equal(isPinnedUrl(`https://github.com/o/r/${kind}/${SHA_UPPER}/a.py`), true, kind);
  }
  // Host case does not matter.
  equal(isPinnedUrl(`https://GitHub.com/o/r/blob/${SHA}/a.py`), true);
  // A fragment after a pinned path (a line anchor) keeps it pinned.
  equal(isPinnedUrl(`https://github.com/o/r/blob/${SHA}/a.py#L10`), true);
});

Deno.test("isPinnedUrl accepts Hugging Face resolve and blob addresses", () => {
  for (const prefix of ["", "datasets/", "spaces/"]) {
    for (const kind of ["resolve", "blob"]) {
      const url = `https://huggingface.co/${prefix}o/n/${kind}/${SHA}/model.bin`;
      equal(isPinnedUrl(url), true, url);
    }
  }
  equal(isPinnedUrl(`https://huggingface.co/o/n/resolve/${SHA_UPPER}/a/b.json`), true);
});

Deno.test("isPinnedUrl rejects plain http, credentials and explicit ports", () => {
  equal(isPinnedUrl(`http://raw.githubusercontent.com/o/r/${SHA}/a.py`), false);
  equal(isPinnedUrl(`http://github.com/o/r/blob/${SHA}/a.py`), false);
  equal(isPinnedUrl(`https://user@github.com/o/r/blob/${SHA}/a.py`), false);
  equal(isPinnedUrl(`https://user:pw@github.com/o/r/blob/${SHA}/a.py`), false);
  equal(isPinnedUrl(`https://:pw@github.com/o/r/blob/${SHA}/a.py`), false);
  equal(isPinnedUrl(`https://github.com:8443/o/r/blob/${SHA}/a.py`), false);
  // The default port written out is still an explicit port.
  equal(isPinnedUrl(`https://github.com:443/o/r/blob/${SHA}/a.py`), false);
  equal(isPinnedUrl(`https://huggingface.co:443/o/n/resolve/${SHA}/a`), false);
});

Deno.test("isPinnedUrl rejects query strings", () => {
  equal(isPinnedUrl(`https://github.com/o/r/blob/${SHA}/a.py?raw=true`), false);
  equal(isPinnedUrl(`https://huggingface.co/o/n/resolve/main/a.bin?revision=${SHA}`), false);
  equal(
    isPinnedUrl(`https://huggingface.co/o/n/resolve/${SHA}/a.bin?revision=${SHA}`),
    false,
  );
  equal(isPinnedUrl(`https://raw.githubusercontent.com/o/r/${SHA}/a.py?`), false);
});

Deno.test("isPinnedUrl rejects arbitrary hosts with hash segments and digest fragments", () => {
  equal(isPinnedUrl(`https://example.com/o/r/${SHA}/a.py`), false);
  equal(isPinnedUrl(`https://example.com/o/r/blob/${SHA}/a.py`), false);
  equal(isPinnedUrl(`https://cdn.example/${SHA}/${SHA}/${SHA}`), false);
  equal(isPinnedUrl(`https://gitlab.com/o/r/-/blob/${SHA}/a.py`), false);
  equal(isPinnedUrl(`https://example.com/tool.sh#sha256:${"a".repeat(64)}`), false);
  equal(
    isPinnedUrl(`https://github.com/o/r/blob/main/a.py#sha256:${"a".repeat(64)}`),
    false,
  );
  equal(isPinnedUrl(`https://raw.githubusercontent.com/o/r/main/a.py#${SHA}`), false);
});

Deno.test("isPinnedUrl rejects a commit in the wrong position", () => {
  equal(isPinnedUrl(`https://github.com/o/r/${SHA}/a.py`), false);
  equal(isPinnedUrl(`https://github.com/o/r/blob/main/${SHA}/a.py`), false);
  equal(isPinnedUrl(`https://github.com/o/blob/${SHA}/a.py`), false);
  equal(isPinnedUrl(`https://github.com/o/r/commit/${SHA}/a.py`), false);
  equal(isPinnedUrl(`https://raw.githubusercontent.com/o/${SHA}/a.py`), false);
  equal(isPinnedUrl(`https://raw.githubusercontent.com/o/r/main/${SHA}/a.py`), false);
  equal(isPinnedUrl(`https://huggingface.co/o/n/${SHA}/resolve/a`), false);
  equal(isPinnedUrl(`https://huggingface.co/o/n/tree/${SHA}/a`), false);
  equal(isPinnedUrl(`https://huggingface.co/models/o/n/resolve/${SHA}/a`), false);
  equal(isPinnedUrl(`https://huggingface.co/datasets/n/resolve/${SHA}/a`), false);
  // Layouts belong to their own host only.
  equal(isPinnedUrl(`https://github.com/o/n/resolve/${SHA}/a`), false);
  equal(isPinnedUrl(`https://huggingface.co/o/r/tree/${SHA}/a`), false);
  equal(isPinnedUrl(`https://raw.githubusercontent.com/o/r/blob/${SHA}/a`), false);
});

Deno.test("isPinnedUrl rejects look-alike hosts", () => {
  equal(isPinnedUrl(`https://github.com.evil.example/o/r/blob/${SHA}/a.py`), false);
  equal(isPinnedUrl(`https://evil-github.com/o/r/blob/${SHA}/a.py`), false);
  equal(isPinnedUrl(`https://www.github.com/o/r/blob/${SHA}/a.py`), false);
  equal(isPinnedUrl(`https://raw.githubusercontent.com.evil/o/r/${SHA}/a.py`), false);
  equal(isPinnedUrl(`https://huggingface.co.evil.example/o/n/resolve/${SHA}/a`), false);
  equal(isPinnedUrl(`https://github.com@evil.example/o/r/blob/${SHA}/a.py`), false);
});

Deno.test("isPinnedUrl requires a non-empty path after the commit", () => {
  equal(isPinnedUrl(`https://github.com/o/r/blob/${SHA}`), false);
  equal(isPinnedUrl(`https://github.com/o/r/tree/${SHA}/`), false);
  equal(isPinnedUrl(`https://raw.githubusercontent.com/o/r/${SHA}`), false);
  equal(isPinnedUrl(`https://raw.githubusercontent.com/o/r/${SHA}/`), false);
  equal(isPinnedUrl(`https://huggingface.co/o/n/resolve/${SHA}`), false);
  equal(isPinnedUrl(`https://huggingface.co/datasets/o/n/blob/${SHA}/`), false);
  // Every following segment must be non-empty.
  equal(isPinnedUrl(`https://github.com/o/r/tree/${SHA}/dir/`), false);
  equal(isPinnedUrl(`https://github.com/o/r/blob/${SHA}//a.py`), false);
  equal(isPinnedUrl(`https://raw.githubusercontent.com/o/r/${SHA}/dir/`), false);
  equal(isPinnedUrl(`https://huggingface.co/o/n/resolve/${SHA}/dir/`), false);
});

Deno.test("isPinnedUrl requires a full 40-hex commit", () => {
  equal(isPinnedUrl(`https://github.com/o/r/blob/${SHA.slice(0, 7)}/a.py`), false);
  equal(isPinnedUrl(`https://github.com/o/r/blob/${SHA.slice(0, 39)}/a.py`), false);
  equal(isPinnedUrl(`https://github.com/o/r/blob/${SHA}0/a.py`), false);
  equal(isPinnedUrl(`https://github.com/o/r/blob/${SHA.slice(0, 39)}g/a.py`), false);
  equal(
    isPinnedUrl(`https://raw.githubusercontent.com/o/r/${SHA.slice(0, 12)}/a.py`),
    false,
  );
  equal(isPinnedUrl(`https://huggingface.co/o/n/resolve/main/a.bin`), false);
  equal(isPinnedUrl(`https://huggingface.co/o/n/resolve/${"a".repeat(64)}/a.bin`), false);
});

Deno.test("isPinnedUrl rejects empty owner or repository segments and junk", () => {
  equal(isPinnedUrl(`https://github.com//r/blob/${SHA}/a.py`), false);
  equal(isPinnedUrl(`https://github.com/o//blob/${SHA}/a.py`), false);
  equal(isPinnedUrl(`https://raw.githubusercontent.com//r/${SHA}/a.py`), false);
  equal(isPinnedUrl(`https://huggingface.co//n/resolve/${SHA}/a`), false);
  equal(isPinnedUrl("https://github.com"), false);
  equal(isPinnedUrl("not a url"), false);
  equal(isPinnedUrl("https://"), false);
});

Deno.test("a host is pinned only if every URL to it is pinned", () => {
  const body = [
    `Pinned: https://raw.githubusercontent.com/o/r/${SHA}/a.py.`,
    `Also pinned: https://raw.githubusercontent.com/o/r/${SHA_UPPER}/b.py`,
    `Mixed: (https://github.com/o/r/blob/${SHA}/a.py) and https://github.com/o/r/blob/main/a.py`,
    `HF: https://huggingface.co/datasets/o/n/resolve/${SHA}/data.csv`,
    "Other: https://example.com/install.sh",
  ].join("\n");
  // No frontmatter: the body starts on file line 1.
  const surface = readExposure(body, { body, declaredTools: [] });
  deepEqual(surface.externalSources, [
    {
      host: "example.com",
      urls: ["https://example.com/install.sh"],
      lines: [5],
      pinned: false,
      reserved: true,
    },
    {
      host: "github.com",
      urls: [
        `https://github.com/o/r/blob/${SHA}/a.py`,
        "https://github.com/o/r/blob/main/a.py",
      ],
      lines: [3],
      pinned: false,
      reserved: false,
    },
    {
      host: "huggingface.co",
      urls: [`https://huggingface.co/datasets/o/n/resolve/${SHA}/data.csv`],
      lines: [4],
      pinned: true,
      reserved: false,
    },
    {
      host: "raw.githubusercontent.com",
      urls: [
        `https://raw.githubusercontent.com/o/r/${SHA_UPPER}/b.py`,
        `https://raw.githubusercontent.com/o/r/${SHA}/a.py`,
      ],
      lines: [1, 2],
      pinned: true,
      reserved: false,
    },
  ]);
});

Deno.test("a pinned URL and an http URL to the same host leave the host unpinned", () => {
  const groups = groupSources(atLine1([
    `https://raw.githubusercontent.com/o/r/${SHA}/a.py`,
    `http://raw.githubusercontent.com/o/r/${SHA}/a.py`,
  ]));
  equal(groups.length, 1);
  equal(groups[0].pinned, false);
});

// Hosts are the WHATWG URL parser's (issue 30, finding 5): the scheme's default port is the same
// host, so one group, unpinned because the address with an explicit port is not a pinned form.
Deno.test("an explicit port is never pinned; the default port is the same host, another is its own", () => {
  const groups = groupSources(atLine1([
    `https://github.com/o/r/blob/${SHA}/a.py`,
    `https://github.com:443/o/r/blob/${SHA}/a.py`,
    `https://github.com:8443/o/r/blob/${SHA}/a.py`,
  ]));
  deepEqual(groups.map((g) => [g.host, g.pinned]), [
    ["github.com", false],
    ["github.com:8443", false],
  ]);
});

// ---------------------------------------------------------------------------
// readExposure
// ---------------------------------------------------------------------------

Deno.test("readExposure reads URLs from the body only and hidden characters from the raw file", () => {
  const raw = "---\nname: x\u200B\ndescription: see https://front.example/a\n---\n" +
    "Body https://body.example/b\n";
  const surface = readExposure(raw, {
    body: "Body https://body.example/b\n",
    declaredTools: ["Bash(git:*)", "Read"],
  });
  deepEqual(Object.keys(surface), [
    "schema",
    "externalSources",
    "declaredTools",
    "hiddenCharacters",
    "notAssessed",
  ]);
  equal(surface.schema, "skills-anywhere-surface-1");
  deepEqual(surface.externalSources, [
    {
      host: "body.example",
      urls: ["https://body.example/b"],
      lines: [5],
      pinned: false,
      reserved: true,
    },
  ]);
  deepEqual(surface.declaredTools, ["Bash(git:*)", "Read"]);
  deepEqual(surface.hiddenCharacters, [
    {
      codePoint: "U+200B",
      name: "ZERO WIDTH SPACE",
      kind: "zero-width",
      count: 1,
      lines: [2],
      fields: [],
    },
  ]);
});

Deno.test("readExposure with an empty body and no tools", () => {
  const surface = readExposure("no frontmatter https://x.example/", {
    body: "",
    declaredTools: [],
  });
  deepEqual(surface.externalSources, []);
  deepEqual(surface.declaredTools, []);
  deepEqual(surface.hiddenCharacters, []);
});

Deno.test("readExposure copies declaredTools and notAssessed", () => {
  const tools = ["Read"];
  const surface = readExposure("", { body: "", declaredTools: tools });
  notEqual(surface.declaredTools, tools);
  tools.push("Write");
  deepEqual(surface.declaredTools, ["Read"]);
  const count = NOT_ASSESSED.length;
  surface.notAssessed.push("extra");
  equal(NOT_ASSESSED.length, count);
});

Deno.test("readExposure notAssessed lists what is not assessed, each under its AST risk id", () => {
  const surface = readExposure("", { body: "", declaredTools: [] });
  deepEqual(surface.notAssessed, [...NOT_ASSESSED]);
  notEqual(surface.notAssessed.length, 0);
  for (const entry of surface.notAssessed) match(entry, /^AST\d\d [A-Z][^:]*: \S.*\.$/);
  equal(new Set(surface.notAssessed.map((entry) => entry.slice(0, 5))).size, NOT_ASSESSED.length);
});

// ---------------------------------------------------------------------------
// Hidden characters
// ---------------------------------------------------------------------------

/** How a report writes a code point: `U+` and at least four upper-case hex digits. */
function codePointLabel(cp: number): string {
  return "U+" + cp.toString(16).toUpperCase().padStart(4, "0");
}

Deno.test("a code point is written U+ and four upper-case hex digits", () => {
  deepEqual(findHiddenCharacters("a\u00ADb\u200Bc\u0007").map((c) => c.codePoint), [
    "U+0007",
    "U+00AD",
    "U+200B",
  ]);
});

Deno.test("the five-character sample yields exactly five entries sorted by code point", () => {
  const sample = [
    "---", // 1
    "name: sample\u200B", // 2: ZERO WIDTH SPACE in the frontmatter
    "description: Demo.", // 3
    "---", // 4
    "Run \u202Eevil", // 5: RIGHT-TO-LEFT OVERRIDE
    "soft\u00ADhyphen and again\u00AD", // 6: two soft hyphens
    "tag \u{E0041}\u{E0042} chars", // 7: two tag characters
    "selector a\u{E0100}", // 8: a supplementary variation selector
    "zero\u200Bwidth", // 9
    "another tag \u{E007F}", // 10
  ];
  const text = sample.join("\n") + "\n";
  const found = findHiddenCharacters(text);
  equal(found.length, 5);
  deepEqual(found, [
    {
      codePoint: "U+00AD",
      name: "SOFT HYPHEN",
      kind: "invisible-format",
      count: 2,
      lines: [6],
      fields: [],
    },
    {
      codePoint: "U+200B",
      name: "ZERO WIDTH SPACE",
      kind: "zero-width",
      count: 2,
      lines: [2, 9],
      fields: [],
    },
    {
      codePoint: "U+202E",
      name: "RIGHT-TO-LEFT OVERRIDE",
      kind: "bidi-control",
      count: 1,
      lines: [5],
      fields: [],
    },
    {
      codePoint: "U+E0000..U+E007F",
      name: "TAG CHARACTERS",
      kind: "tag",
      count: 3,
      lines: [7, 10],
      fields: [],
    },
    {
      codePoint: "U+E0100..U+E01EF",
      name: "VARIATION SELECTORS SUPPLEMENT",
      kind: "variation-selector",
      count: 1,
      lines: [8],
      fields: [],
    },
  ]);
  for (const entry of found) {
    deepEqual(Object.keys(entry), ["codePoint", "name", "kind", "count", "lines", "fields"]);
  }
});

Deno.test("blocks sort by block start among named code points", () => {
  // Insert in reverse order of code point.
  const text = "\u{E01EF}\u{E0000}\uFFA0\u3164\u2060\u00AD";
  deepEqual(findHiddenCharacters("x" + text).map((e) => e.codePoint), [
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
    deepEqual(found, [{
      codePoint: codePointLabel(cp),
      name,
      kind,
      count: 1,
      lines: [1],
      fields: [],
    }]);
  }
  // Everything at once: one entry each, in code-point order.
  const all = "a" + expected.map(([cp]) => String.fromCodePoint(cp)).join("a") + "a";
  deepEqual(
    findHiddenCharacters(all).map((e) => e.codePoint),
    expected.map(([cp]) => codePointLabel(cp)),
  );
});

Deno.test("neighbouring code points that are not listed are not reported", () => {
  const text = "a\u00AC\u00AE\u2065\u206A\u202F\u2010\uFE0F\uFE00\u{E0080}\u{E01F0}\u{E00FF}\t b";
  // U+206A..U+206F are deprecated format characters, not in the list.
  deepEqual(findHiddenCharacters(text), []);
});

Deno.test("tag and variation-selector blocks cover their whole range", () => {
  const tags = findHiddenCharacters("a\u{E0000}\u{E0001}\u{E0020}\u{E007E}\u{E007F}b");
  deepEqual(tags, [
    {
      codePoint: "U+E0000..U+E007F",
      name: "TAG CHARACTERS",
      kind: "tag",
      count: 5,
      lines: [1],
      fields: [],
    },
  ]);
  const vs = findHiddenCharacters("a\u{E0100}b\u{E01EF}c");
  deepEqual(vs, [
    {
      codePoint: "U+E0100..U+E01EF",
      name: "VARIATION SELECTORS SUPPLEMENT",
      kind: "variation-selector",
      count: 2,
      lines: [1],
      fields: [],
    },
  ]);
});

Deno.test("a BOM at the very start is not reported", () => {
  deepEqual(findHiddenCharacters("\uFEFF---\nname: x\n---\nBody\n"), []);
  deepEqual(findHiddenCharacters("\uFEFF"), []);
});

Deno.test("a later BOM is reported, including a second BOM at the start", () => {
  deepEqual(findHiddenCharacters("line one\nline\uFEFF two\n"), [
    {
      codePoint: "U+FEFF",
      name: "ZERO WIDTH NO-BREAK SPACE",
      kind: "zero-width",
      count: 1,
      lines: [2],
      fields: [],
    },
  ]);
  deepEqual(findHiddenCharacters("\uFEFF\uFEFFx"), [
    {
      codePoint: "U+FEFF",
      name: "ZERO WIDTH NO-BREAK SPACE",
      kind: "zero-width",
      count: 1,
      lines: [1],
      fields: [],
    },
  ]);
  equal(findHiddenCharacters("\n\uFEFF")[0].lines[0], 2);
});

Deno.test("emoji ZWJ sequences are not reported", () => {
  const family = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}"; // 👨‍👩‍👧
  const heartOnFire = "\u2764\uFE0F\u200D\u{1F525}"; // ❤️‍🔥
  equal(family, "👨‍👩‍👧");
  equal(heartOnFire, "❤️‍🔥");
  deepEqual(findHiddenCharacters(`Family ${family} and ${heartOnFire}.\n`), []);
  deepEqual(findHiddenCharacters(family + heartOnFire), []);
  const technologist = "\u{1F469}\u{1F3FD}\u200D\u{1F4BB}"; // woman technologist, medium skin tone
  deepEqual(findHiddenCharacters(technologist), []);
  equal(findHiddenCharacters("\u{1F3FD}\u200D\u{1F4BB}")[0].codePoint, "U+200D");
});

Deno.test("the England flag tag sequence is not reported", () => {
  const england = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}";
  equal(england, "🏴󠁧󠁢󠁥󠁮󠁧󠁿");
  deepEqual(findHiddenCharacters(`Go ${england} go\n${england}`), []);
  // Two and six tags with digits are still flag sequences.
  deepEqual(findHiddenCharacters("\u{1F3F4}\u{E0075}\u{E0073}\u{E007F}"), []);
  deepEqual(
    findHiddenCharacters(
      "\u{1F3F4}\u{E0075}\u{E0073}\u{E0063}\u{E0061}\u{E0031}\u{E0032}\u{E007F}",
    ),
    [],
  );
});

Deno.test("tag characters outside a valid flag sequence are reported", () => {
  const entry = (count: number, lines: number[]) => [
    {
      codePoint: "U+E0000..U+E007F",
      name: "TAG CHARACTERS",
      kind: "tag",
      count,
      lines,
      fields: [],
    },
  ];
  // No black flag before the tags.
  deepEqual(findHiddenCharacters("\u{E0067}\u{E0062}\u{E007F}"), entry(3, [1]));
  // Only one tag letter.
  deepEqual(findHiddenCharacters("\u{1F3F4}\u{E0067}\u{E007F}"), entry(2, [1]));
  // Seven tag letters is too many.
  deepEqual(
    findHiddenCharacters("\u{1F3F4}" + "\u{E0061}".repeat(7) + "\u{E007F}"),
    entry(8, [1]),
  );
  // Upper-case tag letters are not a subdivision code.
  deepEqual(findHiddenCharacters("\u{1F3F4}\u{E0047}\u{E0042}\u{E007F}"), entry(3, [1]));
  // No cancel tag.
  deepEqual(findHiddenCharacters("\u{1F3F4}\u{E0067}\u{E0062}x"), entry(2, [1]));
  // A different base emoji.
  deepEqual(findHiddenCharacters("\u{1F3F3}\u{E0067}\u{E0062}\u{E007F}"), entry(3, [1]));
  // A valid flag followed by a stray cancel tag: only the stray one counts.
  deepEqual(
    findHiddenCharacters("\u{1F3F4}\u{E0067}\u{E0062}\u{E007F}\u{E007F}"),
    entry(1, [1]),
  );
});

Deno.test("a joiner between letters or next to one emoji is reported", () => {
  const zwj = (count: number, lines: number[]) => [
    {
      codePoint: "U+200D",
      name: "ZERO WIDTH JOINER",
      kind: "zero-width",
      count,
      lines,
      fields: [],
    },
  ];
  deepEqual(findHiddenCharacters("ab\u200Dcd"), zwj(1, [1]));
  deepEqual(findHiddenCharacters("a\u200D\u{1F525}"), zwj(1, [1]));
  deepEqual(findHiddenCharacters("\u{1F525}\u200Da"), zwj(1, [1]));
  deepEqual(findHiddenCharacters("\u200D\u{1F525}"), zwj(1, [1]));
  deepEqual(findHiddenCharacters("\u{1F525}\u200D"), zwj(1, [1]));
  deepEqual(findHiddenCharacters("\u{1F525}\u200D\u200D\u{1F525}"), zwj(2, [1]));
  // U+FE0F is only allowed before the joiner, after an emoji.
  deepEqual(findHiddenCharacters("a\uFE0F\u200D\u{1F525}"), zwj(1, [1]));
  // Across a line break it is not a joiner between emoji.
  deepEqual(findHiddenCharacters("\u{1F525}\n\u200D\u{1F525}"), zwj(1, [2]));
});

Deno.test("30 lines each with U+2060 give count 30 and the first 20 lines", () => {
  const text = Array.from({ length: 30 }, (_, i) => `line ${i + 1}\u2060 text`).join("\n");
  deepEqual(findHiddenCharacters(text), [
    {
      codePoint: "U+2060",
      name: "WORD JOINER",
      kind: "zero-width",
      count: 30,
      lines: Array.from({ length: 20 }, (_, i) => i + 1),
      fields: [],
    },
  ]);
});

Deno.test("lines are distinct and in order; counts include repeats on one line", () => {
  const text = "\u200B\u200B\u200B\n\nx\n\u200B\r\n\u200B\u200B";
  deepEqual(findHiddenCharacters(text), [
    {
      codePoint: "U+200B",
      name: "ZERO WIDTH SPACE",
      kind: "zero-width",
      count: 6,
      lines: [1, 4, 5],
      fields: [],
    },
  ]);
});

Deno.test("hidden characters are found in frontmatter even when it does not parse", () => {
  const raw = "---\nname: [unclosed\u202E\n---\nbody\n";
  const surface = readExposure(raw, { body: "", declaredTools: [] });
  deepEqual(surface.hiddenCharacters.map((e) => [e.codePoint, e.lines]), [
    ["U+202E", [2]],
  ]);
});

Deno.test("text without hidden characters yields an empty list", () => {
  deepEqual(findHiddenCharacters(""), []);
  deepEqual(findHiddenCharacters("Plain ASCII\nand Ünïcödé — “quotes” 日本語 😀\n"), []);
});

// ---------------------------------------------------------------------------
// Reserved hosts and source lines
// ---------------------------------------------------------------------------

Deno.test("isReservedHost: loopback and names reserved for examples and tests", () => {
  for (
    const host of [
      "localhost",
      "localhost:5173",
      "localhost.",
      "app.localhost:3000",
      "127.0.0.1",
      "127.255.0.9:8080",
      "[::1]:3000",
      "[::1]",
      "0.0.0.0:8000",
      "example.com",
      "www.example.org",
      "api.example.net:443",
      "docs.example",
      "myapp.test",
      "x.invalid",
    ]
  ) equal(isReservedHost(host), true, host);
});

Deno.test("isReservedHost: real hosts and look-alikes are not reserved", () => {
  for (
    const host of [
      "claude.ai",
      "example.co",
      "myexample.com",
      "examples.com",
      "example.com.evil.io",
      "localhost.com",
      "test.com",
      "128.0.0.1",
      "127.0.0.1.nip.io",
      "[::2]",
      "invalid.org",
    ]
  ) equal(isReservedHost(host), false, host);
});

Deno.test("extractUrls gives file lines from firstLine, across CRLF lines", () => {
  deepEqual(
    extractUrls("a\r\nb https://x.example/1\r\n\r\nhttps://y.example/2 https://z.example/3", 7),
    [
      { url: "https://x.example/1", line: 8 },
      { url: "https://y.example/2", line: 10 },
      { url: "https://z.example/3", line: 10 },
    ],
  );
});

Deno.test("readExposure: a source's lines are file lines after the frontmatter, distinct and sorted", () => {
  const raw = "---\nname: x\ndescription: y\n---\n\n\nSee https://cdn.jsdelivr.net/a.js\n" +
    "and https://cdn.jsdelivr.net/b.js, https://cdn.jsdelivr.net/a.js\nthen http://localhost:5173\n";
  const surface = readExposure(raw, { body: "See …", declaredTools: [] });
  deepEqual(surface.externalSources.map((s) => [s.host, s.lines, s.reserved]), [
    ["cdn.jsdelivr.net", [7, 8], false],
    ["localhost:5173", [9], true],
  ]);
});

Deno.test("groupSources lists at most MAX_SOURCE_LINES lines per host", () => {
  const urls = Array.from({ length: 30 }, (_, i) => ({ url: "https://a.example/", line: 30 - i }));
  deepEqual(groupSources(urls)[0].lines, Array.from({ length: MAX_SOURCE_LINES }, (_, i) => i + 1));
});

Deno.test("hidden: across ASCII, exactly the control characters other than tab and LF are found", () => {
  for (let cp = 0; cp < 0x80; cp++) {
    const ch = String.fromCharCode(cp);
    const control = (cp < 0x20 && cp !== 0x09 && cp !== 0x0a) || cp === 0x7f;
    equal(findHiddenCharacters(`a${ch}b`).length, control ? 1 : 0, `U+${cp.toString(16)}`);
    equal(revealHiddenCharacters(`a${ch}b`) === `a${ch}b`, !control, `U+${cp.toString(16)}`);
  }
});
