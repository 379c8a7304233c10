import { deepEqual, equal, match, notEqual, ok, throws } from "node:assert/strict";
import { createHash } from "node:crypto";
import { basename, dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import {
  checkoutName,
  resolveSource,
  sameRepository,
  sameSource,
  SourceError,
  type SourceErrorKind,
} from "../lib/sources/_resolve.ts";

const CACHE = "/tmp/dsa-cache";

/** The checkout folder the format promises: `<slug>-<sha256(url NUL ref), 12 hex>`. */
function checkout(slug: string, url: string, ref = "", cache = CACHE): string {
  const hash = createHash("sha256").update(`${url}\0${ref}`).digest("hex").slice(0, 12);
  return join(cache, `${slug}-${hash}`);
}

const OR_URL = "https://github.com/o/r.git";

/**
 * Asserts that `fn` throws a SourceError of `kind` whose message quotes each of `quoted` (the
 * offending input, so a user can find it); the wording itself belongs to the module.
 */
function refused(fn: () => unknown, kind: SourceErrorKind, ...quoted: string[]): void {
  throws(fn, (error: unknown) => {
    ok(error instanceof SourceError, `expected a SourceError, got ${error}`);
    equal(error.kind, kind, error.message);
    for (const text of quoted) ok(error.message.includes(text), `${error.message} quotes ${text}`);
    return true;
  });
}

// ---------------------------------------------------------------------------
// The source grammar, one form at a time
// ---------------------------------------------------------------------------

Deno.test("owner/repo shorthand resolves to GitHub", () => {
  deepEqual(resolveSource("anthropics/skills", CACHE), {
    repo: "anthropics/skills",
    id: "github.com/anthropics/skills",
    key: "github.com/anthropics/skills",
    url: "https://github.com/anthropics/skills.git",
    dir: checkout("github.com_anthropics_skills", "https://github.com/anthropics/skills.git"),
    scanDir: checkout("github.com_anthropics_skills", "https://github.com/anthropics/skills.git"),
    display: "anthropics/skills",
  });
});

Deno.test("github: prefix with a sub-path sets path and display", () => {
  const source = resolveSource("github:vercel-labs/agent-skills/skills/web-design", CACHE);
  equal(source.id, "github.com/vercel-labs/agent-skills");
  equal(source.path, "skills/web-design");
  equal(source.display, "vercel-labs/agent-skills/skills/web-design");
  equal(
    source.dir,
    checkout(
      "github.com_vercel-labs_agent-skills",
      "https://github.com/vercel-labs/agent-skills.git",
    ),
  );
  equal(source.scanDir, join(source.dir, "skills", "web-design"));
  equal(resolveSource("gh:o/r", CACHE).id, "github.com/o/r");
});

Deno.test("@ and # suffixes become refs; .git is stripped", () => {
  const tagged = resolveSource("o/r@v1.2.0", CACHE);
  equal(tagged.ref, "v1.2.0");
  equal(tagged.id, "github.com/o/r");
  equal(tagged.key, "github.com/o/r@v1.2.0");
  equal(tagged.dir, checkout("github.com_o_r_v1.2.0", OR_URL, "v1.2.0"));
  equal(tagged.display, "o/r");

  const branch = resolveSource("o/r#main", CACHE);
  equal(branch.ref, "main");
  equal(branch.key, "github.com/o/r@main");

  const dotGit = resolveSource("o/r.git", CACHE);
  equal(dotGit.display, "o/r");
  equal(dotGit.url, "https://github.com/o/r.git");
  equal(resolveSource("o/r.git@v2", CACHE).display, "o/r");
  equal(resolveSource("o/r.git@v2", CACHE).ref, "v2");
});

Deno.test("a suffix containing / is not a ref", () => {
  const source = resolveSource("o/r@feature/x", CACHE);
  equal(source.ref, undefined);
  equal(source.id, "github.com/o/r@feature");
  equal(source.path, "x");
});

Deno.test("spec fields take precedence over the string", () => {
  const source = resolveSource({ repo: "o/r/a@v1", ref: "v2", path: "b", rank: 10 }, CACHE);
  equal(source.ref, "v2");
  equal(source.path, "b");
  equal(source.rank, 10);
  equal(source.repo, "o/r/a@v1");
  equal(source.display, "o/r/b");
});

Deno.test("GitHub tree URL gives the repo id, ref and path", () => {
  const source = resolveSource("https://github.com/o/r/tree/main/skills/pdf", CACHE);
  equal(source.id, "github.com/o/r");
  equal(source.url, "https://github.com/o/r.git");
  equal(source.ref, "main");
  equal(source.path, "skills/pdf");
  equal(source.display, "o/r/skills/pdf");
  equal(source.dir, checkout("github.com_o_r_main", OR_URL, "main"));
  equal(source.scanDir, join(checkout("github.com_o_r_main", OR_URL, "main"), "skills", "pdf"));

  const bare = resolveSource("http://github.com/o/r.git/tree/v1/", CACHE);
  equal(bare.ref, "v1");
  equal(bare.path, undefined);
  equal(bare.display, "o/r");

  const given = resolveSource({ repo: "https://github.com/o/r/tree/main/a", ref: "dev" }, CACHE);
  equal(given.ref, "dev");
  equal(given.path, "a");
});

Deno.test("plain GitHub URL with or without .git and a trailing slash", () => {
  for (
    const repo of ["https://github.com/o/r", "https://github.com/o/r.git", "http://github.com/o/r/"]
  ) {
    const source = resolveSource(repo, CACHE);
    equal(source.id, "github.com/o/r", repo);
    equal(source.url, "https://github.com/o/r.git", repo);
    equal(source.display, "o/r", repo);
    equal(source.ref, undefined, repo);
  }
});

Deno.test("GitLab https URL and scp-like git@ URL ids", () => {
  const gitlab = resolveSource("https://gitlab.com/group/sub/repo.git", CACHE);
  equal(gitlab.id, "gitlab.com/group/sub/repo");
  equal(gitlab.url, "https://gitlab.com/group/sub/repo.git");
  equal(gitlab.display, "gitlab.com/group/sub/repo");
  equal(
    gitlab.dir,
    checkout("gitlab.com_group_sub_repo", "https://gitlab.com/group/sub/repo.git"),
  );

  const scp = resolveSource("git@github.com:owner/repo.git", CACHE);
  equal(scp.id, "github.com/owner/repo");
  equal(scp.url, "git@github.com:owner/repo.git");

  const mixed = resolveSource("ssh://git@Example.COM/Team/Repo.git", CACHE);
  equal(mixed.id, "example.com/team/repo");
  // The host as the URL parser reads it (issue 30: WHATWG hosts), the path in its own case.
  equal(mixed.display, "example.com/Team/Repo");

  const user = resolveSource("deploy@host.example:srv/repo.git", CACHE);
  // ssh's login user is no part of the repository's identity (issue 30: WHATWG hosts).
  equal(user.id, "host.example/srv/repo");
  equal(resolveSource("git://host/x/y.git", CACHE).id, "host/x/y");
});

Deno.test("git URLs keep @ and # (no suffix ref)", () => {
  const source = resolveSource("https://gitlab.com/g/r.git@v1", CACHE);
  equal(source.ref, undefined);
  equal(source.id, "gitlab.com/g/r.git@v1");
});

Deno.test("local path and its file: URL give the same local id", () => {
  const dir = resolve("/tmp/dsa-some/repo");
  const expectedId = `local/${createHash("sha1").update(dir).digest("hex").slice(0, 12)}`;
  const byPath = resolveSource(dir, CACHE);
  const byUrl = resolveSource(pathToFileURL(dir).href, CACHE);
  equal(byPath.id, expectedId);
  equal(byUrl.id, expectedId);
  equal(byPath.url, dir);
  equal(byUrl.url, dir);
  equal(byPath.display, dir);
  equal(byPath.dir, checkout(`local_${expectedId.slice("local/".length)}`, dir));
  equal(byUrl.dir, byPath.dir);
  match(expectedId, /^local\/[0-9a-f]{12}$/);
});

Deno.test("relative local paths resolve against the working directory", () => {
  equal(resolveSource("./x/y", CACHE).url, resolve("x/y"));
  equal(resolveSource("../x", CACHE).url, resolve("../x"));
  const pinned = resolveSource("./x@v1", CACHE);
  equal(pinned.ref, "v1");
  equal(pinned.url, resolve("x"));
  // absolute paths and file: URLs never lose an @ suffix
  equal(resolveSource("/tmp/a@b", CACHE).url, "/tmp/a@b");
  equal(resolveSource("file:///tmp/a@b", CACHE).ref, undefined);
});

Deno.test("hostile strings throw an invalid-segment error", () => {
  const cases: Array<[string, string]> = [
    ["github:../..", "github.com/../.."],
    ["https://github.com/../..", "github.com/../.."],
    ["https://x/../../../..", "x/../../../.."],
    ["git@h:../../..", "h/../../.."],
    ["o/./r", "github.com/o/."],
    ["o\\r/x", "github.com/o\\r/x"],
    ["o/r\0x", "github.com/o/r\0x"],
    ["https://gitlab.com//x", "gitlab.com//x"],
  ];
  for (const [repo, id] of cases) {
    refused(() => resolveSource(repo, CACHE), "unparseable", `"${repo}"`, id);
  }
});

Deno.test("../.. stays a local path", () => {
  const source = resolveSource("../..", CACHE);
  equal(source.url, resolve("../.."));
  match(source.id, /^local\/[0-9a-f]{12}$/);
  ok(source.dir.startsWith(join(CACHE, "local_")));
});

Deno.test("unparseable strings throw the expected-form error", () => {
  for (const repo of ["", "   ", "just-a-name", "github:", "gh:o", "o/", "@v1", "o//r", "gh:/o/"]) {
    refused(() => resolveSource(repo, CACHE), "unparseable", `"${repo}"`);
  }
  refused(() => resolveSource({ repo: "nope" }, CACHE), "unparseable", '"nope"');
});

Deno.test("one repository, three refs, three checkouts and lock keys", () => {
  const plain = resolveSource("o/r", CACHE);
  const tagged = resolveSource("o/r@v1.0.0", CACHE);
  const branch = resolveSource({ repo: "o/r", ref: "feature/x" }, CACHE);
  equal(plain.dir, checkout("github.com_o_r", OR_URL));
  equal(tagged.dir, checkout("github.com_o_r_v1.0.0", OR_URL, "v1.0.0"));
  equal(branch.dir, checkout("github.com_o_r_feature_x", OR_URL, "feature/x"));
  deepEqual([plain.key, tagged.key, branch.key], [
    "github.com/o/r",
    "github.com/o/r@v1.0.0",
    "github.com/o/r@feature/x",
  ]);
  equal(new Set([plain.dir, tagged.dir, branch.dir]).size, 3);
});

Deno.test("a hostile ref still yields one directory name inside the cache", () => {
  const source = resolveSource({ repo: "o/r", ref: "../../../etc" }, CACHE);
  equal(source.dir, checkout("github.com_o_r_.._.._.._etc", OR_URL, "../../../etc"));
});

Deno.test("empty ref and path in a spec count as unset", () => {
  const source = resolveSource({ repo: "o/r", ref: "", path: "" }, CACHE);
  equal(source.ref, undefined);
  equal(source.path, undefined);
  equal(source.key, "github.com/o/r");
  equal(source.scanDir, source.dir);
});

Deno.test("a relative cache directory is made absolute", () => {
  const source = resolveSource("o/r", "rel-cache");
  equal(source.dir, checkout("github.com_o_r", OR_URL, "", resolve("rel-cache")));
});

// ---------------------------------------------------------------------------
// Regressions
// ---------------------------------------------------------------------------

Deno.test("hostile GitHub strings never resolve outside the cache", () => {
  for (
    const repo of ["https://github.com/../..", "github:../..", "https://github.com/o/..", "gh:../x"]
  ) {
    throws(() => resolveSource(repo, CACHE), SourceError, repo);
  }
});

Deno.test("the sub-path check is separator-aware", () => {
  for (const path of ["../r-private", "../../etc", "..", "a/../../r-x", "../../o/r-x"]) {
    refused(() => resolveSource({ repo: "o/r", path }, CACHE), "escapes", path);
  }
  refused(() => resolveSource("o/r/../r-private", CACHE), "escapes", "../r-private");
  // staying inside is fine, including a path that walks back in
  equal(
    resolveSource({ repo: "o/r", path: "a/../b" }, CACHE).scanDir,
    join(checkout("github.com_o_r", OR_URL), "b"),
  );
  equal(
    resolveSource({ repo: "o/r", path: "." }, CACHE).scanDir,
    checkout("github.com_o_r", OR_URL),
  );
  equal(
    resolveSource({ repo: "o/r", path: "/skills" }, CACHE).scanDir,
    join(checkout("github.com_o_r", OR_URL), "skills"),
  );
});

Deno.test("two refs of one repo get separate checkouts and lock keys", () => {
  const main = resolveSource("o/r@main", CACHE);
  const v1 = resolveSource("o/r@v1", CACHE);
  equal(main.dir, checkout("github.com_o_r_main", OR_URL, "main"));
  equal(v1.dir, checkout("github.com_o_r_v1", OR_URL, "v1"));
  equal(main.key, "github.com/o/r@main");
  equal(v1.key, "github.com/o/r@v1");
  ok(sameRepository("o/r@main", "o/r@v1"));
});

Deno.test("sameSource: same id, same ref and same path, however spelled", () => {
  ok(sameSource({ repo: "o/r", path: "skills" }, "o/r/skills"));
  ok(sameSource("o/r/skills/", { repo: "https://github.com/o/r", path: "./skills" }));
  ok(sameSource("https://github.com/o/r/tree/main/skills", "o/r/skills@main"));
  ok(sameSource("o/r@v1", { repo: "o/r", ref: "v1", rank: 3 }));
  ok(!sameSource("https://github.com/o/r/tree/main/skills", "o/r/skills"), "a ref is not no ref");
  ok(!sameSource("o/r@v1", "o/r@v2"));
  ok(sameSource("o/r", "github:o/r.git"));
  ok(!sameSource("o/r", "o/r/skills"));
  ok(!sameSource("o/r/skills", "o/x/skills"));
  ok(!sameSource("o/r", "github:../.."));
  ok(!sameSource("nope", "nope"));
});

Deno.test("sameRepository compares ids only; unparseable is never the same", () => {
  ok(sameRepository("o/r", "https://github.com/o/r.git"));
  ok(sameRepository("o/r/skills@v1", { repo: "git@github.com:o/r.git", path: "x", rank: 3 }));
  ok(sameRepository("https://GitLab.com/G/R.git", "https://gitlab.com/g/r"));
  ok(!sameRepository("o/r", "o/other"));
  ok(!sameRepository("nope", "nope"));
  ok(!sameRepository("github:../..", "github:../.."));
});

Deno.test("long runs of / parse or fail, with the right answer", () => {
  const slashes = "/".repeat(100_000);
  equal(resolveSource(`o/r${slashes}`, CACHE).id, "github.com/o/r");
  equal(resolveSource(`github:${slashes}o/r${slashes}`, CACHE).id, "github.com/o/r");
  const pinned = resolveSource(`o/r${slashes}@v1`, CACHE);
  equal(pinned.key, "github.com/o/r@v1");
  equal(pinned.path, undefined);
  // a leading / makes it an absolute local path
  match(resolveSource(`${slashes}o/r`, CACHE).id, /^local\/[0-9a-f]{12}$/);
  refused(() => resolveSource(`o${slashes}r`, CACHE), "unparseable", `"o${slashes}r"`);
  refused(() => resolveSource(`github:${slashes}`, CACHE), "unparseable");
  throws(() => resolveSource(`https://x${slashes}y`, CACHE), SourceError);
  const deep = resolveSource(`o/r/x${slashes}y`, CACHE);
  equal(deep.scanDir, join(deep.dir, "x", "y"));
  const scp = `${"a".repeat(100_000)}@${"b".repeat(100_000)}`;
  throws(() => resolveSource(scp, CACHE), SourceError);
});

Deno.test("the git URL forms are cloned as written; other forms are not URLs", () => {
  for (
    const url of ["https://h/x", "http://h/x", "ssh://h/x", "git://h/x", "git@h:x", "u@h.example:x"]
  ) {
    equal(resolveSource(url, CACHE).url, url, url);
  }
  for (const value of ["o/r", "o/r@v1", "file:///x", "/abs", "u@h", "@h:x", "u@:x"]) {
    try {
      ok(/^(github\.com|local)\//.test(resolveSource(value, CACHE).id), value);
    } catch (error) {
      ok(error instanceof SourceError && error.kind === "unparseable", value);
    }
  }
});

Deno.test("checkoutName: one flat folder per URL and ref, readable, bounded, never hidden", () => {
  // Ids that once nested inside each other now sit side by side.
  const a = resolveSource("https://h.example/a/r", CACHE);
  const nested = resolveSource("https://h.example/a/r/.GIT/hooks", CACHE);
  const parent = resolveSource("https://h.example/a", CACHE);
  for (const source of [a, nested, parent]) {
    equal(dirname(source.dir), CACHE, source.repo);
    match(basename(source.dir), /^[a-z0-9][a-z0-9._-]{0,59}-[0-9a-f]{12}$/);
  }
  equal(new Set([a.dir, nested.dir, parent.dir]).size, 3);
  // Same id, different URL (ids ignore case): different folders.
  const upper = resolveSource("https://h.example/A/R", CACHE);
  equal(upper.id, a.id);
  notEqual(upper.dir, a.dir);
  // `feature/x` and `feature_x` are different refs, so different folders.
  notEqual(
    checkoutName({ id: "i", url: "u", ref: "feature/x" }),
    checkoutName({ id: "i", url: "u", ref: "feature_x" }),
  );
  equal(checkoutName({ id: "i", url: "u" }), checkoutName({ id: "i", url: "u", ref: undefined }));
  // Bounded, and a leading dot, dash or underscore is dropped.
  const long = checkoutName({ id: `h/${"x".repeat(10_000)}`, url: "u" });
  equal(long.length, 60 + 13);
  match(checkoutName({ id: "..//--x", url: "u" }), /^x-[0-9a-f]{12}$/);
  match(checkoutName({ id: "...", url: "u" }), /^source-[0-9a-f]{12}$/);
});

// ---------------------------------------------------------------------------
// Hosts as the WHATWG URL parser reads them (issue 30): one repository, one id, however the host
// is spelled; a name before the host is refused where it could only be a credential or a decoy
// ---------------------------------------------------------------------------

Deno.test("WHATWG hosts: case, IDNA, percent-encoding, a trailing dot and default ports give one id", () => {
  const spellings: Array<[string[], string, string]> = [
    [
      [
        "https://gitlab.com/g/r.git",
        "https://GitLab.COM/g/r",
        "HTTPS://gitlab.com/g/r",
        "https://gitlab.com./g/r",
        "https://gitlab.com:443/g/r",
        "https://gitlab.com:0443/g/r/",
        "https://git%6Cab.com/g/r",
        "https://ｇｉｔｌａｂ.com/g/r",
      ],
      "gitlab.com/g/r",
      "gitlab.com/g/r",
    ],
    [
      [
        "https://bücher.example/g/r",
        "https://xn--bcher-kva.example/g/r",
        "https://BÜCHER.example./g/r",
      ],
      "xn--bcher-kva.example/g/r",
      "xn--bcher-kva.example/g/r",
    ],
    [["http://h.example:80/x", "http://H.example/x"], "h.example/x", "h.example/x"],
    [
      ["ssh://git@Example.COM/Team/Repo.git", "ssh://git@example.com:22/Team/Repo"],
      "example.com/team/repo",
      "example.com/Team/Repo",
    ],
    [["git://h.example:9418/x", "git://H.EXAMPLE./x"], "h.example/x", "h.example/x"],
    [
      ["deploy@Host.Example:srv/repo.git", "deploy@host.example.:srv/repo"],
      "host.example/srv/repo",
      "host.example/srv/repo",
    ],
    [["http://0x7f.1/x", "http://127.0.0.1/x"], "127.0.0.1/x", "127.0.0.1/x"],
  ];
  for (const [repos, id, display] of spellings) {
    for (const repo of repos) {
      const source = resolveSource(repo, CACHE);
      equal(source.id, id, repo);
      equal(source.display, display, repo);
      ok(sameRepository(repo, repos[0]), repo);
    }
  }
});

Deno.test("WHATWG hosts: GitHub however its host is spelled is the GitHub source", () => {
  for (
    const repo of [
      "https://GitHub.com/o/r",
      "https://github.com./o/r",
      "https://github.com:443/o/r.git",
      "https://git%68ub.com/o/r",
      "https://ｇｉｔｈｕｂ.com/o/r",
      "HTTP://GITHUB.COM/o/r/",
    ]
  ) {
    const source = resolveSource(repo, CACHE);
    equal(source.id, "github.com/o/r", repo);
    equal(source.url, OR_URL, repo);
    equal(source.display, "o/r", repo);
  }
  const tree = resolveSource("https://GITHUB.com./o/r/tree/main/skills", CACHE);
  deepEqual([tree.id, tree.ref, tree.path], ["github.com/o/r", "main", "skills"]);
  // Another port is another server: a generic git URL, its port in the id.
  const other = resolveSource("https://github.com:8443/o/r", CACHE);
  equal(other.id, "github.com:8443/o/r");
  equal(other.url, "https://github.com:8443/o/r");
});

Deno.test("WHATWG hosts: ports and IPv6 literals stay in the id, never read as a path", () => {
  const cases: Array<[string, string, string]> = [
    [
      "https://gitlab.example:8443/g/r.git",
      "gitlab.example:8443/g/r",
      "https://gitlab.example:8443/g/r.git",
    ],
    ["ssh://git@h.example:2222/o/r.git", "h.example:2222/o/r", "ssh://git@h.example:2222/o/r.git"],
    ["http://[::1]:8080/x", "[::1]:8080/x", "http://[::1]:8080/x"],
    ["http://[0:0::1]:80/x", "[::1]/x", "http://[::1]/x"],
    ["ssh://git@[::1]:2222/srv/r", "[::1]:2222/srv/r", "ssh://git@[::1]:2222/srv/r"],
    ["git@[::1]:srv/r.git", "[::1]/srv/r", "git@[::1]:srv/r.git"],
    ["git://[2001:DB8::1]/x", "[2001:db8::1]/x", "git://[2001:db8::1]/x"],
  ];
  for (const [repo, id, url] of cases) {
    const source = resolveSource(repo, CACHE);
    equal(source.id, id, repo);
    equal(source.display, id, repo);
    equal(source.url, url, repo);
    equal(dirname(source.dir), CACHE, repo);
  }
  ok(!sameRepository("https://h.example:8443/x", "https://h.example/x"));
  ok(!sameRepository("ssh://h.example:2222/x", "ssh://h.example/x"));
});

Deno.test("WHATWG hosts: a user or password before the host is refused where git would send or show it", () => {
  for (
    const repo of [
      // A decoy: reads as github.com, reaches evil.example.
      "https://github.com@evil.example/o/r",
      "https://github.com%40x@evil.example/o/r",
      "http://github.com:443@evil.example/o/r",
      // Credentials in a file others read and in every lock key.
      "https://user:token@gitlab.com/g/r.git",
      "https://oauth2@gitlab.com/g/r.git",
      "git://u@h.example/x",
      "ssh://git:secret@h.example/x",
    ]
  ) {
    refused(() => resolveSource(repo, CACHE), "hostile", `"${repo}"`);
  }
  // ssh names its login user before the host: kept in what git clones, never in the id or display,
  // so the same repository reached by another user is the same source (and the host shown is the
  // host reached).
  const deploy = resolveSource("ssh://github.com@evil.example/x", CACHE);
  equal(deploy.id, "evil.example/x");
  equal(deploy.display, "evil.example/x");
  equal(deploy.url, "ssh://github.com@evil.example/x");
  ok(sameRepository("ssh://alice@h.example/x", "ssh://bob@h.example/x"));
  ok(sameRepository("alice@h.example:x", "ssh://bob@h.example/x"));
});

Deno.test("WHATWG hosts: a host no URL parser accepts is unparseable, an option-like one hostile", () => {
  for (
    const repo of [
      "https://h.example:65536/x",
      "https://h.example:12a/x",
      "https://h ex/x".replace(" ", "%20"),
      "https://[::1/x",
      "https://[::1]x/x",
      "https:///x",
      "git@[::1/x",
      "https://h.example?x/o/r",
      "https://h.example#x/o/r",
    ]
  ) {
    refused(() => resolveSource(repo, CACHE), "unparseable", `"${repo}"`);
  }
  // Decoded, a host that starts with - is still an option to ssh.
  refused(() => resolveSource("ssh://%2DoProxyCommand=x/r", CACHE), "hostile");
  refused(() => resolveSource("ssh://-oProxyCommand=touch%20x/r", CACHE), "hostile");
});
