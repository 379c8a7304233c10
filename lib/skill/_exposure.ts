/**
 * What a skill exposes its user to: what it reaches for outside itself (external
 * sources, with offline pin recognition and the file lines that name them),
 * what tools its author declares, the hidden characters in its file and in its
 * decoded frontmatter, and what this review does not assess. A check report
 * carries it as its `surface` section (schema `skills-anywhere-surface-1`); the
 * module is named for what it reads, apart from the surfaces (CLI, MCP, dsh).
 *
 * A host that nothing can pin is marked `reserved` rather than treated as an
 * unpinned source: loopback (`localhost`, `*.localhost`, `127.0.0.0/8`, `::1`,
 * `0.0.0.0`) and the names reserved for examples and tests (`example.com`,
 * `example.net`, `example.org` and their subdomains, `*.example`, `*.test`,
 * `*.invalid`). Such URLs are code examples, not downloads.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isPinnedUrl, readExposure } from "./_exposure.ts";
 * assert.equal(isPinnedUrl("https://github.com/o/r/blob/0123456789abcdef0123456789abcdef01234567/a.py"), true);
 * const exposure = readExposure("raw file text", { body: "See https://example.com/x.", declaredTools: [] });
 * ```
 * @module
 */
import { compareCodeUnits } from "../util.ts";
import { splitFrontmatter } from "./_frontmatter.ts";
import { findHiddenCharacters, type HiddenCharacter } from "./_hidden.ts";

/** External references grouped by host. */
export interface ExternalSource {
  /** Lowercase `host` or `host:port`. */
  host: string;
  /** Every referencing URL, sorted, unique. */
  urls: string[];
  /** The distinct 1-based file lines naming this host, in order, at most {@linkcode MAX_SOURCE_LINES}. */
  lines: number[];
  /** Every reference to this host is a recognised full-commit address. */
  pinned: boolean;
  /** Loopback or a name reserved for examples: reported, never required to be pinned. */
  reserved: boolean;
}

/** A URL token and the 1-based file line it is on. */
export interface SourceUrl {
  url: string;
  line: number;
}

/** Most lines listed per host. */
export const MAX_SOURCE_LINES = 20;

/** The `surface` section of a check report (schema `skills-anywhere-surface-1`). */
export interface Exposure {
  schema: "skills-anywhere-surface-1";
  /** The http(s) URLs of the body, grouped by host. */
  externalSources: ExternalSource[];
  /** The tools the frontmatter's `allowed-tools` declares (declared, not enforced). */
  declaredTools: string[];
  /** Invisible and direction-changing characters, by code point. */
  hiddenCharacters: HiddenCharacter[];
  /** What this report does not judge ({@linkcode NOT_ASSESSED}). */
  notAssessed: string[];
}

/** What a check deliberately does not decide. */
export const NOT_ASSESSED: readonly string[] = [
  "AST01 Malicious Skills: no verdict on the author's intent is given.",
  "AST08 Poor Scanning: sources, declared tools and hidden characters are listed; payloads are not pattern-matched.",
  "AST06 Weak Isolation: isolation belongs to the agent runtime, not to the file.",
];

/**
 * An `http(s)://` token: an optional user part and a bracketed IPv6 literal (`[::1]`) are read
 * whole, then everything up to a space, a quote or a closing bracket.
 */
const URL_TOKEN = /https?:\/\/(?:[^\s<>"'`()[\]{}\/@]*@)?(?:\[[0-9a-f:.]+\])?[^\s<>"'`)\]}]*/gi;
const TRAILING = /[.,;:!?]+$/;
const COMMIT = /^[0-9a-f]{40}$/i;

/**
 * Every `http(s)://` token in `text`, trailing sentence punctuation trimmed,
 * with its line (`firstLine` is the file line of the text's first line).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { extractUrls } from "./_exposure.ts";
 * assert.deepEqual(extractUrls("a\nsee https://x.example/a.", 5), [{ url: "https://x.example/a", line: 6 }]);
 * ```
 */
export function extractUrls(text: string, firstLine = 1): SourceUrl[] {
  const urls: SourceUrl[] = [];
  let line = firstLine;
  let counted = 0;
  for (const match of text.matchAll(URL_TOKEN)) {
    const url = match[0].replace(TRAILING, "");
    for (; counted < match.index; counted++) if (text.charCodeAt(counted) === 10) line++;
    if (hostOf(url) !== "") urls.push({ url, line });
  }
  return urls;
}

/**
 * The host of a URL token as the WHATWG URL parser reads it (what a browser or `fetch` would
 * reach): lowercase, IPv6 literals in brackets, the port kept unless it is the scheme's default,
 * no user information; `""` when the token is no URL.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hostOf } from "./_exposure.ts";
 * assert.equal(hostOf("http://[::1]:8080/x"), "[::1]:8080");
 * assert.equal(hostOf("https://User@Example.COM/a"), "example.com");
 * ```
 */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "";
  }
}

/** The authority of a URL token as written, lowercase: a pin must name its host plainly. */
function rawAuthority(url: string): string {
  const rest = url.slice(url.indexOf("://") + 3);
  const end = rest.search(/[/?#\\]/);
  return (end < 0 ? rest : rest.slice(0, end)).toLowerCase();
}

function tail(segments: string[], from: number): boolean {
  return segments.length > from && segments.slice(from).every((s) => s !== "");
}

/**
 * Whether `url` is a recognised full-commit address (checked offline): HTTPS,
 * no credentials, no port, no query, and one of the GitHub raw, GitHub
 * blob/raw/tree or Hugging Face resolve/blob layouts with a 40-hex commit
 * followed by a non-empty path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(isPinnedUrl("https://github.com.evil.example/o/r/blob/0123456789abcdef0123456789abcdef01234567/a"), false);
 * ```
 */
export function isPinnedUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== "https:" || parsed.username !== "" || parsed.password !== "") {
    return false;
  }
  if (parsed.port !== "" || url.includes("?") || rawAuthority(url) !== parsed.hostname) {
    return false;
  }
  const s = parsed.pathname.split("/").slice(1);
  switch (parsed.hostname) {
    case "raw.githubusercontent.com":
      return s[0] !== "" && s[1] !== "" && COMMIT.test(s[2] ?? "") && tail(s, 3);
    case "github.com":
      return s[0] !== "" && s[1] !== "" && ["blob", "raw", "tree"].includes(s[2]) &&
        COMMIT.test(s[3] ?? "") && tail(s, 4);
    case "huggingface.co": {
      const h = s[0] === "datasets" || s[0] === "spaces" ? s.slice(1) : s;
      return (h[0] ?? "") !== "" && (h[1] ?? "") !== "" && ["resolve", "blob"].includes(h[2]) &&
        COMMIT.test(h[3] ?? "") && tail(h, 4);
    }
    default:
      return false;
  }
}

const RESERVED_NAMES = ["localhost", "example", "test", "invalid"];
const RESERVED_DOMAINS = ["example.com", "example.net", "example.org"];
const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/**
 * Whether a host (as {@linkcode hostOf} gives it, port allowed) is loopback
 * or a name reserved for documentation and tests, which no commit can pin.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { isReservedHost } from "./_exposure.ts";
 * assert.equal(isReservedHost("localhost:5173"), true);
 * assert.equal(isReservedHost("claude.ai"), false);
 * ```
 */
export function isReservedHost(host: string): boolean {
  const name = (host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0])
    .replace(/\.$/, "");
  if (name === "[::1]" || name === "0.0.0.0" || LOOPBACK_V4.test(name)) return true;
  const last = name.slice(name.lastIndexOf(".") + 1);
  if (RESERVED_NAMES.includes(last)) return true;
  return RESERVED_DOMAINS.some((domain) => name === domain || name.endsWith(`.${domain}`));
}

/** Groups URLs by host, each group sorted and unique, groups sorted by host. */
export function groupSources(urls: SourceUrl[]): ExternalSource[] {
  const byHost = new Map<string, { urls: Set<string>; lines: Set<number> }>();
  for (const { url, line } of urls) {
    const host = hostOf(url);
    let group = byHost.get(host);
    if (group === undefined) byHost.set(host, group = { urls: new Set(), lines: new Set() });
    group.urls.add(url);
    group.lines.add(line);
  }
  return [...byHost.keys()].sort(compareCodeUnits).map((host) => {
    const group = byHost.get(host)!;
    const list = [...group.urls].sort(compareCodeUnits);
    const lines = [...group.lines].sort((a, b) => a - b).slice(0, MAX_SOURCE_LINES);
    return {
      host,
      urls: list,
      lines,
      pinned: list.every(isPinnedUrl),
      reserved: isReservedHost(host),
    };
  });
}

/** The URLs of the body as it stands in `raw`, with file lines. */
function bodyUrls(raw: string): SourceUrl[] {
  const split = splitFrontmatter(raw);
  return split === undefined ? extractUrls(raw) : extractUrls(split.body, split.bodyLine);
}

/** Inputs of {@linkcode readExposure}. */
export interface ExposureInput {
  /**
   * The lenient-parsed body (empty when lenient parsing failed, and then no
   * source is listed); sources are read from the body as it stands in the raw
   * file, so each keeps its file line.
   */
  body: string;
  /** The author's `allowed-tools`, as the lenient parse reads them. */
  declaredTools: string[];
  /** The parsed frontmatter value, when it parses: its keys and strings are scanned too. */
  frontmatter?: unknown;
}

/**
 * Builds the exposure of a file from its raw text (scanned whole for hidden
 * characters), its parsed frontmatter (every key and string scanned after
 * decoding) and its lenient-parsed body.
 */
export function readExposure(raw: string, input: ExposureInput): Exposure {
  return {
    schema: "skills-anywhere-surface-1",
    externalSources: input.body === "" ? [] : groupSources(bodyUrls(raw)),
    declaredTools: [...input.declaredTools],
    hiddenCharacters: findHiddenCharacters(raw, { frontmatter: input.frontmatter }),
    notAssessed: [...NOT_ASSESSED],
  };
}
