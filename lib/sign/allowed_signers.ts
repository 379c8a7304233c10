/**
 * The ALLOWED SIGNERS file of `ssh-keygen` (see `man ssh-keygen`), which
 * Git's `gpg.ssh.allowedSignersFile` also reads: one signer a line,
 *
 *     principals [options] keytype base64-key [comment]
 *
 * `principals` is a comma-separated pattern list (`*`, `?`, `!negation`),
 * quoted with `"` when it holds spaces; options are comma-separated:
 * `namespaces="a,b"` (a pattern list), `valid-after="YYYYMMDD[HHMM[SS]][Z]"`,
 * `valid-before="…"` (local time unless `Z`), and `cert-authority`. Blank
 * lines and `#` comments are skipped. A line that does not parse refuses the
 * whole file (kind `bad-allowed-signers`, naming the line), so a typo never
 * silently drops a trusted key. A line whose key type is not supported here
 * (a security key, DSA) is kept but never matches. Certificates are not
 * supported: a `cert-authority` line is kept but never matches a plain key,
 * as in OpenSSH.
 *
 * @example
 * ```ts
 * import { matchPatternList } from "./allowed_signers.ts";
 * console.log(matchPatternList("ana@example.com", "*@example.com,!eve@example.com")); // true
 * ```
 * @module
 */
import { type Failure, failure } from "../errors.ts";
import { parsePublicKeyFields, type PublicKey } from "./keys.ts";

/** One signer line. */
export interface AllowedSigner {
  /** The 1-based line number. */
  readonly line: number;
  /** The principals pattern list, as written (quotes removed). */
  readonly principals: string;
  /** The key, or undefined when its type is not supported here (the line never matches). */
  readonly key?: PublicKey;
  readonly certAuthority: boolean;
  /** The `namespaces=` pattern list, when given. */
  readonly namespaces?: string;
  /** `valid-after=` and `valid-before=` in milliseconds since the epoch, when given. */
  readonly validAfter?: number;
  readonly validBefore?: number;
}

/** A parsed file, or the first line that does not parse. */
export type AllowedSignersResult =
  | { ok: true; signers: AllowedSigner[] }
  | Failure<"bad-allowed-signers">;

/**
 * Whether `text` matches one glob pattern (`*` any run, `?` one character),
 * whole: the iterative matcher that backtracks only to the last `*`, so a
 * hostile pattern costs at most length × length steps and no recursion.
 */
function matchPattern(text: string, pattern: string): boolean {
  const t = Array.from(text);
  const p = Array.from(pattern);
  let [ti, pi, star, mark] = [0, 0, -1, 0];
  while (ti < t.length) {
    if (pi < p.length && (p[pi] === "?" || (p[pi] !== "*" && p[pi] === t[ti]))) {
      ti++;
      pi++;
    } else if (pi < p.length && p[pi] === "*") {
      [star, mark] = [pi++, ti];
    } else if (star >= 0) {
      [pi, ti] = [star + 1, ++mark];
    } else return false;
  }
  while (pi < p.length && p[pi] === "*") pi++;
  return pi === p.length;
}

/**
 * OpenSSH's `match_pattern_list`, case-sensitive: true when a pattern of the
 * comma list matches and no `!`-negated one does.
 *
 * @example
 * ```ts
 * import { matchPatternList } from "./allowed_signers.ts";
 * console.log(matchPatternList("git", "file,git")); // true
 * ```
 */
export function matchPatternList(text: string, list: string): boolean {
  let positive = false;
  for (const item of list.split(",")) {
    const negated = item.startsWith("!");
    if (!matchPattern(text, negated ? item.slice(1) : item)) continue;
    if (negated) return false;
    positive = true;
  }
  return positive;
}

const TIME = /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})?)?(Z?)$/;

/** `YYYYMMDD[HHMM[SS]][Z]` in milliseconds (local time unless `Z`), or undefined. */
function parseTime(value: string): number | undefined {
  const m = TIME.exec(value);
  if (m === null) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map((part) => Number(part ?? 0));
  const date = m[7] === "Z"
    ? new Date(Date.UTC(y, mo - 1, d, h, mi, s))
    : new Date(y, mo - 1, d, h, mi, s);
  const back = m[7] === "Z"
    ? [date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), date.getUTCHours()]
    : [date.getFullYear(), date.getMonth() + 1, date.getDate(), date.getHours()];
  return back.join() === [y, mo, d, h].join() && mi < 60 && s < 60 ? date.getTime() : undefined;
}

/** Splits off one field: a `"`-quoted run or a run without blanks, where quotes may hold blanks. */
function takeField(rest: string): [string, string] | undefined {
  let quoted = false;
  let i = 0;
  for (; i < rest.length && (quoted || (rest[i] !== " " && rest[i] !== "\t")); i++) {
    if (rest[i] === '"') quoted = !quoted;
  }
  return quoted ? undefined : [rest.slice(0, i), rest.slice(i).replace(/^[ \t]+/, "")];
}

type Options = Pick<AllowedSigner, "certAuthority" | "namespaces" | "validAfter" | "validBefore">;

/** One option list (`cert-authority,namespaces="a,b",valid-before="20300101"`), or why not. */
function parseOptions(text: string): Options | string {
  const options: { -readonly [K in keyof Options]: Options[K] } = { certAuthority: false };
  const items = text.match(/[^,"]+(?:"[^"]*")?/g) ?? [];
  if (items.join(",") !== text) return "malformed options";
  for (const item of items) {
    if (item === "cert-authority") options.certAuthority = true;
    const m = /^(namespaces|valid-after|valid-before)="([^"]*)"$/.exec(item);
    if (m === null) {
      if (item !== "cert-authority") return `unknown option ${JSON.stringify(item.slice(0, 40))}`;
      continue;
    }
    if (m[1] === "namespaces") options.namespaces = m[2];
    else {
      const time = parseTime(m[2]);
      if (time === undefined) return `bad ${m[1]} time`;
      options[m[1] === "valid-after" ? "validAfter" : "validBefore"] = time;
    }
  }
  return options;
}

const KEY_TYPE = /^(ssh-|ecdsa-|sk-)/;

/** One non-blank, non-comment line, or why it does not parse. */
function parseLine(text: string, line: number): AllowedSigner | string {
  const first = takeField(text);
  if (first === undefined || first[1] === "") return "expected principals and a key";
  const principals = first[0].replace(/^"(.*)"$/, "$1");
  let rest = first[1];
  let options: Options = { certAuthority: false };
  if (!KEY_TYPE.test(rest)) {
    const field = takeField(rest);
    if (field === undefined) return "unbalanced quotes";
    const parsed = parseOptions(field[0]);
    if (typeof parsed === "string") return parsed;
    [options, rest] = [parsed, field[1]];
  }
  const [type = "", base64 = ""] = rest.split(/[ \t]+/);
  const key = parsePublicKeyFields(type, base64);
  if (!key.ok && key.kind !== "unsupported-key") return key.message;
  if (principals === "") return "empty principals";
  return { line, principals, ...options, ...(key.ok ? { key: key.key } : {}) };
}

/**
 * Parses an allowed-signers file's text.
 *
 * @example
 * ```ts
 * import { parseAllowedSigners } from "./allowed_signers.ts";
 * const parsed = parseAllowedSigners("# nobody yet\n");
 * if (parsed.ok) console.log(parsed.signers.length); // 0
 * ```
 */
export function parseAllowedSigners(text: string): AllowedSignersResult {
  const signers: AllowedSigner[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, "").replace(/^[ \t]+/, "");
    if (line === "" || line.startsWith("#")) continue;
    const parsed = parseLine(line, i + 1);
    if (typeof parsed === "string") {
      return failure("bad-allowed-signers", `allowed signers line ${i + 1}: ${parsed}`);
    }
    signers.push(parsed);
  }
  return { ok: true, signers };
}
