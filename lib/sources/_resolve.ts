/**
 * The one source-string parser. A Git source is written as `owner/repo`,
 * `owner/repo/sub/dir`, `github:owner/repo`, `owner/repo@v1` or `#main`, a
 * GitHub URL (plain or `/tree/<ref>/<path>`), any other git URL, a `file:` URL
 * or a local path. {@linkcode resolveSource} turns one into the clone URL, the
 * cache id, the checkout directory and the directory to scan.
 *
 * A source string is hostile input (a cloned project's sources file is
 * written by a stranger), so parsing refuses, before anything touches the
 * disk:
 *
 * - any control character in the string, its ref or its path, and any
 *   whitespace in a URL, a shorthand or a ref (local paths may hold spaces);
 * - any URL, user, host, port, path or ref component that starts with `-`
 *   (git or ssh would read it as an option);
 * - scp-like strings (`user@host:path`) whose host part is empty or holds a
 *   `/` — git reads `git@p/a:r` as a local path, not a host. We refuse them
 *   rather than guess: a local repository is written as an absolute or `./`
 *   path, or a `file:` URL;
 * - a sub-path that leaves the repository or names a `.git` folder;
 * - a user name or password before the host of an `http(s)://` or `git://`
 *   URL (`https://github.com@evil.example/o/r` reaches evil.example; a
 *   credential does not belong in a file others read nor in a lock key), and a
 *   password in an `ssh://` URL. ssh's login user (`git@`, `ssh://deploy@`)
 *   stays in what git clones, never in the id or the display name.
 *
 * Hosts. The host of a git URL or scp-like string is read by the WHATWG URL
 * parser, as a browser, `fetch` or curl reach it: lowercase, IDNA (`bücher`
 * is `xn--bcher-kva`, full-width letters are ASCII), percent-decoded, IPv4 in
 * its dotted form, IPv6 literals in brackets; one trailing dot dropped; a
 * port kept unless it is the scheme's default (http 80, https 443, ssh 22,
 * git 9418). The id, the display name and the clone URL are built from that
 * host, so one repository has one id however its host is spelled, the host
 * shown is the host reached, and `https://GitHub.com.:443/o/r` is the GitHub
 * source `o/r`. A host no URL parser accepts is `unparseable`.
 *
 * The cache layout: every checkout is one flat folder directly in the cache,
 * `<cache>/<slug>-<hash>` (see {@linkcode checkoutName}): the slug is a
 * readable `[a-z0-9._-]` rendering of the id and ref, the hash is SHA-256 over
 * the clone URL, a NUL and the ref. A checkout is thus bound to its URL and
 * ref, no checkout folder holds another, and no name can be `.`, `..` or
 * `.git`. Checkouts left by 0.9.0 at the nested `<cache>/<host>/<owner>/<repo>`
 * layout are ignored (neither read, synced nor deleted). The lock file keys
 * (`id`, `id@ref`) are unchanged.
 *
 * Relative local paths. `./x` and `../x` are resolved against a base
 * directory (`ResolveOptions.base`): the directory of what names them — the
 * project root (its real path) for a project's sources file, the dsh home for
 * the user's sources file and configuration, the working directory only for
 * what a person types on a command line. The same file thus names the same
 * absolute path from every working directory.
 *
 * Nothing here reads or writes files, and nothing uses a backtracking regular
 * expression on the input: every pass over the string is linear.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveSource } from "./_resolve.ts";
 * const source = resolveSource("anthropics/skills@v1", "/home/me/.dsh/skills-anywhere/cache");
 * assert.match(source.dir, /^\/home\/me\/\.dsh\/skills-anywhere\/cache\/github\.com_anthropics_skills_v1-[0-9a-f]{12}$/);
 * assert.equal(source.key, "github.com/anthropics/skills@v1");
 * ```
 * @module
 */
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { KindError } from "../errors.ts";
import { isWithin } from "../fs/mod.ts";
import { digestHex, sha256Hex } from "../hash.ts";
import { sourceName } from "./_name.ts";

export { sourceName };

/** One source as written in configuration or a sources file. */
export interface SourceSpec {
  /** `owner/repo[/sub/dir]`, `github:owner/repo`, a git URL, a GitHub tree URL or a local path. */
  repo: string;
  /** Branch, tag or commit (7–40 hex); overrides a ref parsed from `repo`. */
  ref?: string;
  /** Sub-directory to scan inside the repository; overrides a path parsed from `repo`. */
  path?: string;
  /** Precedence rank (lower wins). */
  rank?: number;
}

/** A source resolved against a cache directory. */
export interface ResolvedSource {
  /** The `repo` exactly as given. */
  repo: string;
  /** The ref, when one was given or parsed. */
  ref?: string;
  /** The sub-directory to scan, when one was given or parsed. */
  path?: string;
  /** The rank, when one was given. */
  rank?: number;
  /** The repository identity, e.g. `github.com/owner/repo` or `local/<12 hex>`. */
  id: string;
  /** The lock entry key: `id`, or `<id>@<ref>` when a ref is set. */
  key: string;
  /** What git clones: an URL or an absolute local path. */
  url: string;
  /** The absolute checkout directory: `<cache>/<checkoutName>`, one flat folder in the cache. */
  dir: string;
  /** The absolute directory to scan: `dir`, or a directory inside it. */
  scanDir: string;
  /** A short human name, e.g. `owner/repo/skills/pdf`. */
  display: string;
}

/**
 * Why a source, or a file of sources, cannot be used:
 *
 * - `unparseable`: the string is not `owner/repo`, a git URL or a local path,
 *   or its id has an empty, `.`, `..`, backslash or NUL segment;
 * - `hostile`: a form a stranger could slip past git (see the module doc);
 * - `escapes`: the sub-path leaves the repository, or the checkout the cache;
 * - `unreadable`: a sources file that is too large, not a regular file, a
 *   symlink not to be followed, or unreadable (the read error's wording);
 * - `invalid-json`, `invalid-shape`, `invalid-entry`: a sources file that is
 *   not JSON, not `{"sources": [...]}`, or holds an entry of the wrong type.
 */
export type SourceErrorKind =
  | "unparseable"
  | "hostile"
  | "escapes"
  | "unreadable"
  | "invalid-json"
  | "invalid-shape"
  | "invalid-entry";

/**
 * A source string, spec or sources file that cannot be used: a
 * {@linkcode KindError} of the sources package, its message one sentence
 * without a product prefix.
 *
 * @example
 * ```ts
 * import { resolveSource, SourceError } from "./_resolve.ts";
 * try {
 *   resolveSource("nope", "/cache");
 * } catch (error) {
 *   if (error instanceof SourceError) console.log(error.kind); // "unparseable"
 * }
 * ```
 */
export class SourceError extends KindError<SourceErrorKind> {}

/** What a source string names, before any cache directory is involved. */
interface Identity {
  ref?: string;
  path?: string;
  id: string;
  url: string;
  display: string;
}

const SCHEMES = ["http://", "https://", "ssh://", "git://"];
const SHORTHAND_PREFIXES = ["github:", "gh:"];

function isWordDotDash(code: number): boolean {
  return (code >= 48 && code <= 57) || // 0-9
    (code >= 65 && code <= 90) || // A-Z
    (code >= 97 && code <= 122) || // a-z
    code === 95 || code === 46 || code === 45; // _ . -
}

/** `[\w.-]+@[\w.-]+:` at the start of `value`, checked in one pass. */
function isScpLike(value: string): boolean {
  const at = value.indexOf("@");
  if (at <= 0) return false;
  for (let i = 0; i < at; i++) if (!isWordDotDash(value.charCodeAt(i))) return false;
  let i = at + 1;
  while (i < value.length && isWordDotDash(value.charCodeAt(i))) i++;
  return i > at + 1 && value[i] === ":";
}

function schemeOf(value: string): string | undefined {
  const lower = value.slice(0, 8).toLowerCase();
  return SCHEMES.find((scheme) => lower.startsWith(scheme));
}

/**
 * Whether `value` is a git URL in the sense of the source grammar: it starts
 * with `http(s)://`, `ssh://`, `git://`, `git@` or `user@host:`.
 */
function isGitUrl(value: string): boolean {
  return schemeOf(value) !== undefined || value.startsWith("git@") || isScpLike(value);
}

function isLocalPath(value: string): boolean {
  return isAbsolute(value) || value.startsWith("./") || value.startsWith("../");
}

function trimSlashes(value: string): string {
  let start = 0;
  while (start < value.length && value.charCodeAt(start) === 47) start++;
  return trimTrailingSlashes(value.slice(start));
}

function trimTrailingSlashes(value: string): string {
  let end = value.length;
  while (end > 0 && value.charCodeAt(end - 1) === 47) end--;
  return value.slice(0, end);
}

function stripGitSuffix(value: string): string {
  return value.endsWith(".git") ? value.slice(0, -4) : value;
}

function shortHash(value: string): string {
  return digestHex("sha1", value).slice(0, 12);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}

function cannotParse(repo: string): SourceError {
  return new SourceError(
    "unparseable",
    `cannot parse source "${repo}" (expected owner/repo, a git URL, or a local path)`,
  );
}

/** Splits a trailing `@<ref>` or `#<ref>` (ref without `@`, `#`, `/`) off `value`. */
function splitSuffixRef(value: string): { rest: string; ref?: string } {
  const at = Math.max(value.lastIndexOf("@"), value.lastIndexOf("#"));
  if (at < 0) return { rest: value };
  const ref = value.slice(at + 1);
  if (ref === "" || ref.includes("/")) return { rest: value };
  return { rest: value.slice(0, at), ref };
}

/**
 * The path of an `http(s)://github.com/` URL (after the host):
 * `<owner>/<repo>[.git][/]` or the same followed by `/tree/<ref>[/<path>][/]`;
 * anything else (a query, a fragment, an empty owner) is left to the generic
 * git URL rule.
 */
function parseGithubPath(
  rest: string,
): { owner: string; name: string; ref?: string; path?: string } | undefined {
  const parts = trimTrailingSlashes(rest).split("/");
  const [owner = "", rawName = ""] = parts;
  const clean = (part: string | undefined) =>
    part !== undefined && part !== "" && !part.includes("#") && !part.includes("?");
  if (owner === "" || !clean(rawName)) return undefined;
  const name = rawName.length > 4 ? stripGitSuffix(rawName) : rawName;
  if (parts.length === 2) return { owner, name };
  if (parts.length >= 4 && parts[2] === "tree" && clean(parts[3])) {
    const path = parts.slice(4).join("/");
    return { owner, name, ref: parts[3], ...(path !== "" ? { path } : {}) };
  }
  return undefined;
}

/**
 * A git URL or scp-like string as written, split where git splits it: the
 * scheme (`""` for scp-like), the user and password, the host (IPv6 literals
 * in brackets), the port and the path: for a URL all that follows the
 * authority (`""` or starting with `/`), for scp-like all after the `:`.
 */
interface Remote {
  scheme: string;
  user?: string;
  password?: string;
  host: string;
  port?: string;
  path: string;
}

/** Splits `hostport` (`host[:port]`, `[v6][:port]`) or returns undefined when it is neither. */
function splitHostPort(hostport: string): { host: string; port?: string } | undefined {
  if (hostport.startsWith("[")) {
    const close = hostport.indexOf("]");
    if (close < 0) return undefined;
    const after = hostport.slice(close + 1);
    if (after !== "" && !after.startsWith(":")) return undefined;
    const host = hostport.slice(0, close + 1);
    return after === "" ? { host } : { host, port: after.slice(1) };
  }
  const colon = hostport.indexOf(":");
  return colon < 0
    ? { host: hostport }
    : { host: hostport.slice(0, colon), port: hostport.slice(colon + 1) };
}

/**
 * `repo` (a git URL in the sense of {@linkcode isGitUrl}) split into its
 * parts as written. Throws for an scp-like string whose host part is empty or
 * holds a `/` (git reads `git@p/a:r` as a local path) and for an authority
 * that is no `[user[:password]@]host[:port]`.
 */
function splitRemote(original: string, repo: string): Remote {
  const scheme = schemeOf(repo);
  if (scheme !== undefined) {
    const rest = repo.slice(scheme.length);
    const slash = rest.indexOf("/");
    const authority = slash < 0 ? rest : rest.slice(0, slash);
    const path = slash < 0 ? "" : rest.slice(slash);
    const at = authority.lastIndexOf("@");
    const hostport = splitHostPort(authority.slice(at + 1));
    if (hostport === undefined) throw cannotParse(original);
    const remote: Remote = { scheme, ...hostport, path };
    if (at >= 0) {
      const userinfo = authority.slice(0, at);
      const colon = userinfo.indexOf(":");
      remote.user = colon < 0 ? userinfo : userinfo.slice(0, colon);
      if (colon >= 0) remote.password = userinfo.slice(colon + 1);
    }
    return remote;
  }
  const at = repo.indexOf("@");
  const after = repo.slice(at + 1);
  let colon = after.indexOf(":");
  if (after.startsWith("[")) {
    const close = after.indexOf("]");
    if (close < 0) throw cannotParse(original);
    colon = after[close + 1] === ":" ? close + 1 : -1;
  }
  const host = colon < 0 ? "" : after.slice(0, colon);
  if (host === "" || host.includes("/")) {
    throw refused(
      original,
      "not user@host:path — git would read it as a local path; write a local repository " +
        "as an absolute path or a file: URL",
    );
  }
  return { scheme: "", user: repo.slice(0, at), host, path: after.slice(colon + 1) };
}

/** The ports git uses when a URL names none: written out, they name the same server. */
const DEFAULT_PORTS: Readonly<Record<string, string>> = {
  "http://": "80",
  "https://": "443",
  "ssh://": "22",
  "git://": "9418",
};

/**
 * The host as the WHATWG URL parser reads it (lowercase, IDNA, percent-decoded,
 * IPv4 dotted, IPv6 bracketed and compressed), one trailing dot dropped; the
 * port as a plain number, or none when it is the scheme's default. Throws
 * `unparseable` for a host or port no URL parser accepts.
 */
function canonicalHost(original: string, remote: Remote): { host: string; port?: string } {
  const { host, port } = remote;
  let parsed: URL | undefined;
  if (host !== "" && !/[/?#\\@]/.test(host)) {
    try {
      parsed = new URL(`https://${host}/`);
    } catch {
      parsed = undefined;
    }
  }
  if (parsed === undefined || parsed.pathname !== "/" || parsed.port !== "") {
    throw cannotParse(original);
  }
  let name = parsed.hostname;
  if (name.endsWith(".") && name.length > 1) name = name.slice(0, -1);
  if (name.startsWith("-")) throw refused(original, OPTION_LIKE);
  if (port === undefined || port === "") return { host: name };
  if (!/^[0-9]{1,5}$/.test(port) || Number(port) > 65535) throw cannotParse(original);
  const number = String(Number(port));
  return number === DEFAULT_PORTS[remote.scheme] ? { host: name } : { host: name, port: number };
}

function githubIdentity(owner: string, name: string): Identity {
  return {
    id: `github.com/${owner}/${name}`,
    url: `https://github.com/${owner}/${name}.git`,
    display: `${owner}/${name}`,
  };
}

function localIdentity(path: string, base: string | undefined): Identity {
  const local = base === undefined ? resolve(path) : resolve(base, path);
  return { id: `local/${shortHash(local)}`, url: local, display: local };
}

/** Whether `value` holds a C0 control character, DEL or a C1 control character. */
function hasControl(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 32 || (code >= 127 && code <= 159)) return true;
  }
  return false;
}

function refused(repo: string, why: string): SourceError {
  return new SourceError("hostile", `refusing source "${repo}" (${why})`);
}

const OPTION_LIKE = "a part starts with -, which git or ssh would read as an option";

/**
 * The parts of a (trimmed) source string that reach git or ssh: user, host,
 * port and path segments of a URL or scp-like string, path segments of a
 * local path or shorthand. Throws for an scp-like string whose host part is
 * empty or holds a `/` (git reads `git@p/a:r` as a local path).
 */
function partsOf(original: string, repo: string): string[] {
  if (repo.startsWith("file:") || isLocalPath(repo)) return repo.split("/");
  if (isGitUrl(repo)) {
    const { user, password, host, port, path } = splitRemote(original, repo);
    return [user ?? "", password ?? "", host, port ?? "", ...path.split("/")];
  }
  const prefix = SHORTHAND_PREFIXES.find((candidate) => repo.startsWith(candidate));
  return (prefix !== undefined ? repo.slice(prefix.length) : repo).split("/");
}

/**
 * Refuses what a stranger could slip past git: control characters anywhere,
 * whitespace in a URL, shorthand or ref, a part of the string, the ref or the
 * sub-path that starts with `-`, a non-host in an scp-like string, and a
 * sub-path through a `.git` folder.
 */
function refuseHostile(original: string, identity: Identity): void {
  const repo = original.trim();
  const { ref, path } = identity;
  if (hasControl(original) || hasControl(ref ?? "") || hasControl(path ?? "")) {
    throw refused(original, "it contains a control character");
  }
  const local = repo.startsWith("file:") || isLocalPath(repo);
  if ((!local && /\s/.test(repo)) || (ref !== undefined && /\s/.test(ref))) {
    throw refused(original, "a URL or ref cannot contain whitespace");
  }
  if (partsOf(original, repo).some((part) => part.startsWith("-"))) {
    throw refused(original, OPTION_LIKE);
  }
  if (ref?.startsWith("-")) throw refused(original, `the ref ${ref} starts with -`);
  for (const segment of (path ?? "").split("/")) {
    if (segment.startsWith("-")) {
      throw refused(original, `the path ${path} has a part that starts with -`);
    }
    if (segment.toLowerCase() === ".git") {
      throw refused(original, `the path ${path} goes through a .git folder`);
    }
  }
}

/** What the string names before the spec's own ref and path apply: identity, parsed ref and path. */
interface Parsed {
  base: Identity;
  ref?: string;
  path?: string;
}

/** `owner/repo[/sub/dir]`, with an optional `github:` or `gh:` prefix. */
function parseShorthand(original: string, repo: string): Parsed {
  const prefix = SHORTHAND_PREFIXES.find((candidate) => repo.startsWith(candidate));
  const bare = prefix !== undefined ? repo.slice(prefix.length) : repo;
  const parts = trimSlashes(bare).split("/");
  if (parts.length < 2 || parts[0] === "" || parts[1] === "") throw cannotParse(original);
  const base = githubIdentity(parts[0], stripGitSuffix(parts[1]));
  return parts.length > 2 ? { base, path: parts.slice(2).join("/") } : { base };
}

/**
 * A git URL or scp-like string: option-like parts and a user or password
 * where none belongs refused, the host read by the URL parser, then GitHub
 * (`http(s)://github.com/…` on the default port) or any other server, whose
 * id is `host[:port]/path` lower-cased without `.git`, whose display name is
 * the same in the path's own case, and whose clone URL is the string with the
 * host as parsed and a default port dropped.
 */
function parseRemote(original: string, repo: string): Parsed {
  const remote = splitRemote(original, repo);
  const { scheme, user, password, path } = remote;
  if ([user ?? "", password ?? "", remote.host, remote.port ?? ""].some((p) => p.startsWith("-"))) {
    throw refused(original, OPTION_LIKE);
  }
  if (user !== undefined && scheme !== "ssh://" && scheme !== "") {
    throw refused(
      original,
      "a user or password before the host of an http(s) or git URL: git would send it, and " +
        "the host reached is the one after the @; keep credentials in git's credential helper",
    );
  }
  if (password !== undefined) {
    throw refused(original, "a password in an ssh URL; ssh reads its keys, never a password here");
  }
  const { host, port } = canonicalHost(original, remote);
  if ((scheme === "https://" || scheme === "http://") && host === "github.com" && !port) {
    const github = parseGithubPath(path.slice(1));
    if (github !== undefined) {
      const { owner, name, ref, path: sub } = github;
      return { base: githubIdentity(owner, name), ref, path: sub };
    }
  }
  const authority = port === undefined ? host : `${host}:${port}`;
  const login = user === undefined ? "" : `${user}@`;
  const url = scheme === "" ? `${login}${host}:${path}` : `${scheme}${login}${authority}${path}`;
  const tail = scheme === "" ? path : path.slice(1);
  const shown = stripGitSuffix(
    trimTrailingSlashes(tail === "" ? authority : `${authority}/${tail}`),
  );
  return { base: { id: shown.toLowerCase(), url, display: shown } };
}

/** Which form the (trimmed, ref-split) string has, and what it names. */
function parseForm(original: string, repo: string, base: string | undefined): Parsed {
  if (repo.startsWith("file:")) {
    try {
      return { base: localIdentity(fileURLToPath(repo), undefined) };
    } catch {
      throw cannotParse(original);
    }
  }
  if (isLocalPath(repo)) return { base: localIdentity(repo, base) };
  if (isGitUrl(repo)) return parseRemote(original, repo);
  return parseShorthand(original, repo);
}

/** Refuses an id with an empty, `.`, `..`, backslash or NUL segment. */
function checkIdSegments(original: string, id: string): void {
  for (const segment of id.split("/")) {
    if (
      segment === "" || segment === "." || segment === ".." || segment.includes("\\") ||
      segment.includes("\0")
    ) {
      throw new SourceError(
        "unparseable",
        `cannot parse source "${original}" (invalid path segment in ${id})`,
      );
    }
  }
}

/**
 * What the spec names, validated segment by segment: a trailing `@ref`/`#ref`
 * split off (not from URLs and absolute paths), the form parsed, the id
 * checked, the spec's own ref and path applied, hostile forms refused.
 */
function identify(spec: SourceSpec, base?: string): Identity {
  const original = spec.repo;
  let repo = original.trim();
  let suffixRef: string | undefined;
  if (!isGitUrl(repo) && !repo.startsWith("file:") && !isAbsolute(repo)) {
    const split = splitSuffixRef(repo);
    repo = split.rest;
    suffixRef = split.ref;
  }
  const parsed = parseForm(original, repo, base);
  checkIdSegments(original, parsed.base.id);
  // A URL is never split, so the parsed ref (a GitHub tree URL's) and a suffix never meet.
  const ref = nonEmpty(spec.ref) ?? nonEmpty(parsed.ref ?? suffixRef);
  const path = nonEmpty(spec.path) ?? nonEmpty(parsed.path);
  const identity: Identity = {
    ...parsed.base,
    ...(ref !== undefined ? { ref } : {}),
    ...(path !== undefined ? { path } : {}),
  };
  refuseHostile(original, identity);
  return identity;
}

/** The longest readable part of a checkout folder name. */
const SLUG_MAX = 60;

/**
 * The name of a source's checkout folder, directly in the cache:
 * `<slug>-<hash>`. The slug is the id (and `@<ref>`) lower-cased, every run of
 * characters outside `[a-z0-9._-]` replaced by `_`, leading `.`, `_` and `-`
 * dropped, cut at 60 characters (`source` when nothing is left); the hash is
 * the first 12 hex digits of SHA-256 over the clone URL, a NUL and the ref
 * (empty when none) — as if by
 * `printf '%s\0%s' "$url" "$ref" | sha256sum | cut -c1-12`. The name never
 * holds a separator and never starts with `.` or `-`.
 *
 * @example
 * ```ts
 * checkoutName({ id: "github.com/o/r", url: "https://github.com/o/r.git", ref: "v1" });
 * // "github.com_o_r_v1-" followed by 12 hex digits
 * ```
 */
export function checkoutName(source: { id: string; url: string; ref?: string }): string {
  const label = source.ref === undefined ? source.id : `${source.id}@${source.ref}`;
  const rendered = label.slice(0, 4 * SLUG_MAX).toLowerCase().replace(/[^a-z0-9._-]+/g, "_");
  let start = 0;
  while (start < rendered.length && "._-".includes(rendered[start])) start++;
  const slug = rendered.slice(start, start + SLUG_MAX) || "source";
  return `${slug}-${sha256Hex(`${source.url}\0${source.ref ?? ""}`).slice(0, 12)}`;
}

/** Options of {@linkcode resolveSource} and the comparisons. */
export interface ResolveOptions {
  /**
   * The directory a relative local path (`./x`, `../x`) resolves against: the
   * directory of what names it (see the module doc). Default: the working
   * directory, right only for what a person types on a command line.
   *
   * @default the working directory
   */
  base?: string;
}

/**
 * Whether `spec` is written as a relative local path (`./x`, `../x`), whose
 * meaning depends on the base it is resolved against.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isRelativeLocal } from "./_resolve.ts";
 * assert.equal(isRelativeLocal("./vendor-skills"), true);
 * assert.equal(isRelativeLocal({ repo: "/srv/skills" }), false);
 * ```
 */
export function isRelativeLocal(spec: string | SourceSpec): boolean {
  const repo = (typeof spec === "string" ? spec : spec.repo).trim();
  return repo.startsWith("./") || repo.startsWith("../");
}

/**
 * `spec` as a file with base `to` should hold it, when it was written against
 * `from` (a path typed on a command line in the working directory): a relative
 * local path becomes absolute (`to` omitted) or `./`/`../`-relative to `to`,
 * its `@ref` kept in the `ref` field; anything else is returned as it is.
 * Throws {@linkcode SourceError} like {@linkcode resolveSource}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rebaseSpec } from "./_resolve.ts";
 * assert.deepEqual(rebaseSpec("./x@v1", "/work/repo/packages"), { repo: "/work/repo/packages/x", ref: "v1" });
 * assert.equal(rebaseSpec("./x", "/work/repo/packages", "/work/repo"), "./packages/x");
 * ```
 */
export function rebaseSpec(
  spec: string | SourceSpec,
  from: string,
  to?: string,
): string | SourceSpec {
  if (!isRelativeLocal(spec)) return spec;
  const input: SourceSpec = typeof spec === "string" ? { repo: spec } : spec;
  const identity = identify(input, from);
  let repo = identity.url;
  if (to !== undefined) {
    const rel = relative(to, identity.url).split(sep).join("/");
    repo = rel === "" ? "./" : rel === ".." || rel.startsWith("../") ? rel : `./${rel}`;
    if (isAbsolute(rel)) repo = identity.url;
  }
  const rebased: SourceSpec = { ...input, repo };
  if (identity.ref !== undefined) rebased.ref = identity.ref;
  return typeof spec === "string" && identity.ref === undefined ? repo : rebased;
}

/**
 * Whether a resolved source is a local repository (an absolute, `./` or `../`
 * path or a `file:` URL): the only sources git may read with its file
 * transport, and only when the user named them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isLocalSource, resolveSource } from "./_resolve.ts";
 * assert.equal(isLocalSource(resolveSource("/srv/skills.git", "/cache")), true);
 * assert.equal(isLocalSource(resolveSource("o/r", "/cache")), false);
 * ```
 */
export function isLocalSource(source: Pick<ResolvedSource, "url">): boolean {
  return isAbsolute(source.url) || source.url.startsWith("file:");
}

/**
 * Resolves a source string or spec against a cache directory. Object fields
 * take precedence over a ref or path parsed from `repo`. Throws
 * {@linkcode SourceError} for an unparseable string, an id with an empty,
 * `.`, `..`, backslash or NUL segment, every hostile form listed in the module
 * doc, and a sub-path that leaves the repository. The checkout directory is
 * `<cache>/<checkoutName>`. A relative local path resolves against
 * `options.base` (see the module doc).
 *
 * @throws {SourceError} When the source cannot be read as one (its `kind` says why).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const source = resolveSource("github:vercel-labs/agent-skills/skills/web-design", "/cache");
 * assert.equal(source.path, "skills/web-design");
 * assert.equal(source.display, "vercel-labs/agent-skills/skills/web-design");
 * ```
 */
export function resolveSource(
  spec: string | SourceSpec,
  cacheDir: string,
  options: ResolveOptions = {},
): ResolvedSource {
  const input: SourceSpec = typeof spec === "string" ? { repo: spec } : spec;
  const identity = identify(input, options.base);
  const { ref, path } = identity;

  const cache = resolve(cacheDir);
  const name = checkoutName(identity);
  const dir = join(cache, name);
  if (dirname(dir) !== cache || basename(dir) !== name) {
    throw new SourceError(
      "escapes",
      `source "${input.repo}" resolves outside the cache directory`,
    );
  }

  const scanDir = path !== undefined ? join(dir, ...path.split("/")) : dir;
  if (!isWithin(scanDir, dir, { allowSame: true })) {
    throw new SourceError("escapes", `source path escapes the repository: ${path}`);
  }

  return {
    repo: input.repo,
    ...(ref !== undefined ? { ref } : {}),
    ...(path !== undefined ? { path } : {}),
    ...(input.rank !== undefined ? { rank: input.rank } : {}),
    id: identity.id,
    key: ref !== undefined ? `${identity.id}@${ref}` : identity.id,
    url: identity.url,
    dir,
    scanDir,
    display: path !== undefined ? `${identity.display}/${path}` : identity.display,
  };
}

/**
 * The name of a lock's source entry ({@linkcode sourceName}): that of the
 * configured source with its key when there is one (the lock keeps no
 * sub-path), else that of its URL with the ref its key ends in, else its key.
 *
 * @example
 * ```ts
 * import { lockedSourceName } from "./_resolve.ts";
 * lockedSourceName({ key: "github.com/o/r@v1", url: "https://github.com/o/r.git" }, []);
 * // "o/r@v1"
 * ```
 */
export function lockedSourceName(
  entry: { key: string; url?: string },
  configured: readonly Pick<ResolvedSource, "key" | "display" | "ref">[],
): string {
  const found = configured.find((source) => source.key === entry.key);
  if (found !== undefined) return sourceName(found);
  const identity = entry.url === undefined ? undefined : tryIdentify(entry.url);
  if (identity === undefined) return entry.key;
  if (entry.key === identity.id) return identity.display;
  const prefix = `${identity.id}@`;
  return entry.key.startsWith(prefix) && entry.key.length > prefix.length
    ? sourceName({ display: identity.display, ref: entry.key.slice(prefix.length) })
    : entry.key;
}

function tryIdentify(spec: string | SourceSpec, base?: string): Identity | undefined {
  try {
    return identify(typeof spec === "string" ? { repo: spec } : spec, base);
  } catch {
    return undefined;
  }
}

/**
 * A sub-path with empty and `.` segments dropped and `..` applied, so
 * `skills`, `skills/` and `./skills` compare as one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { comparablePath } from "./_resolve.ts";
 * assert.equal(comparablePath("./skills/"), "skills");
 * ```
 */
export function comparablePath(path: string | undefined): string {
  const out: string[] = [];
  for (const segment of (path ?? "").split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === ".." && out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else out.push(segment);
  }
  return out.join("/");
}

/**
 * Whether two sources name the same repository: ids are compared, ref, path
 * and rank ignored; anything unparseable is never the same.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(sameRepository("o/r", "https://github.com/o/r.git"), true);
 * assert.equal(sameRepository("o/r", "o/other"), false);
 * ```
 */
export function sameRepository(
  a: string | SourceSpec,
  b: string | SourceSpec,
  options: ResolveOptions = {},
): boolean {
  const left = tryIdentify(a, options.base);
  const right = tryIdentify(b, options.base);
  return left !== undefined && right !== undefined && left.id === right.id;
}

/**
 * Whether two entries are the same source — the identity the lock and the
 * cache use: the same repository id, the same ref (`o/r@v1` equals `{repo:
 * "o/r", ref: "v1"}`; no ref is its own value, the remote's default branch)
 * and the same sub-path (`o/r/skills` equals `{repo: "o/r", path:
 * "skills"}`); the rank is ignored; anything unparseable is never the same.
 * Relative local paths on both sides resolve against `options.base`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(sameSource("o/r/skills", { repo: "o/r", path: "skills" }), true);
 * assert.equal(sameSource("o/r", "o/r/skills"), false);
 * assert.equal(sameSource("o/r@v1", "o/r"), false);
 * ```
 */
export function sameSource(
  a: string | SourceSpec,
  b: string | SourceSpec,
  options: ResolveOptions = {},
): boolean {
  const left = tryIdentify(a, options.base);
  const right = tryIdentify(b, options.base);
  return left !== undefined && right !== undefined && left.id === right.id &&
    left.ref === right.ref && comparablePath(left.path) === comparablePath(right.path);
}
