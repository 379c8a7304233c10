/**
 * The surface of a skill: what it reaches for outside itself (external
 * sources, with offline pin recognition), what tools its author declares, the
 * hidden characters in its file and in its decoded frontmatter, and what this
 * review does not assess.
 *
 * @example
 * ```ts
 * import { isPinnedUrl, readSurface } from "./surface.ts";
 * isPinnedUrl("https://github.com/o/r/blob/0123456789abcdef0123456789abcdef01234567/a.py"); // true
 * const surface = readSurface("raw file text", { body: "See https://example.com/x.", declaredTools: [] });
 * ```
 * @module
 */
import { compareCodeUnits } from "../util.ts";
import { findHiddenCharacters, type HiddenCharacter } from "./hidden.ts";

/** External references grouped by host. */
export interface ExternalSource {
  /** Lowercase `host` or `host:port`. */
  host: string;
  /** Every referencing URL, sorted, unique. */
  urls: string[];
  /** Every reference to this host is a recognised full-commit address. */
  pinned: boolean;
}

/** The `skills-anywhere-surface-1` section of a check report. */
export interface Surface {
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

const URL_TOKEN = /https?:\/\/[^\s<>"'`)\]}]+/gi;
const TRAILING = /[.,;:!?]+$/;
const COMMIT = /^[0-9a-f]{40}$/i;

/** Every `http(s)://` token in `body`, trailing sentence punctuation trimmed. */
export function extractUrls(body: string): string[] {
  const urls: string[] = [];
  for (const match of body.matchAll(URL_TOKEN)) {
    const url = match[0].replace(TRAILING, "");
    if (hostOf(url) !== "") urls.push(url);
  }
  return urls;
}

/** The lowercase authority of a URL token without user information. */
export function hostOf(url: string): string {
  const rest = url.slice(url.indexOf("://") + 3);
  const end = rest.search(/[/?#\\]/);
  const authority = end < 0 ? rest : rest.slice(0, end);
  return authority.slice(authority.lastIndexOf("@") + 1).toLowerCase();
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
 * isPinnedUrl("https://github.com.evil.example/o/r/blob/0123456789abcdef0123456789abcdef01234567/a"); // false
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
  if (parsed.port !== "" || url.includes("?") || hostOf(url) !== parsed.hostname) return false;
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

/** Groups URLs by host, each group sorted and unique, groups sorted by host. */
export function groupSources(urls: string[]): ExternalSource[] {
  const byHost = new Map<string, Set<string>>();
  for (const url of urls) {
    const host = hostOf(url);
    let set = byHost.get(host);
    if (set === undefined) byHost.set(host, set = new Set());
    set.add(url);
  }
  return [...byHost.keys()].sort(compareCodeUnits).map((host) => {
    const list = [...byHost.get(host)!].sort(compareCodeUnits);
    return { host, urls: list, pinned: list.every(isPinnedUrl) };
  });
}

/** Inputs of {@linkcode readSurface}. */
export interface SurfaceInput {
  /** The lenient-parsed body (empty when lenient parsing failed). */
  body: string;
  /** The author's `allowed-tools`, as the lenient parse reads them. */
  declaredTools: string[];
  /** The parsed frontmatter value, when it parses: its keys and strings are scanned too. */
  frontmatter?: unknown;
}

/**
 * Builds the surface of a file from its raw text (scanned whole for hidden
 * characters), its parsed frontmatter (every key and string scanned after
 * decoding) and its lenient-parsed body.
 */
export function readSurface(raw: string, input: SurfaceInput): Surface {
  return {
    schema: "skills-anywhere-surface-1",
    externalSources: groupSources(extractUrls(input.body)),
    declaredTools: [...input.declaredTools],
    hiddenCharacters: findHiddenCharacters(raw, { frontmatter: input.frontmatter }),
    notAssessed: [...NOT_ASSESSED],
  };
}
