/**
 * The ALLOWED SIGNERS file of `ssh-keygen` (see `man ssh-keygen`), which
 * Git's `gpg.ssh.allowedSignersFile` also reads, parsed exactly as OpenSSH
 * parses it (`sshsig.c`, `misc.c`, `match.c`, `sshkey.c`), byte for byte:
 *
 *     principals [options] keytype base64-key [comment]
 *
 * - Lines: split on `\n` (`getline`), cut at a NUL byte (C strings); leading
 *   blanks, `\r` and `\n` skipped; an empty line or one starting with `#` is
 *   skipped (`parse_principals_key_and_options`, as OpenSSH 9.7+, whose
 *   find-principals no longer stops at a blank line).
 * - Principals: the first field as `strdelimw` cuts it: up to a blank, `\r`,
 *   `\n` or `"`; a `"` opens a quoted run (the quote removed) that ends at the
 *   next `"`, with no escape. A quote left open is an invalid line.
 * - Key and options (`parse_principals_key_and_options`): if what follows the
 *   principals reads as a key (`sshkey_read`), there are no options; otherwise
 *   the options run to the first blank outside quotes
 *   (`sshkey_advance_past_options`, where `\"` does not toggle), and a key
 *   must follow. A key is a type name spelled exactly as OpenSSH names one,
 *   a blank, then base64 decoded as `b64_pton` does (blanks skipped, padding
 *   and spare bits checked) into a blob whose own type (exact, or a short name
 *   such as `ED25519` in any case) is the line's, with no byte left over.
 *   Ed25519, RSA (`ssh-rsa`, `rsa-sha2-256`, `rsa-sha2-512`) and ECDSA keys are
 *   read whole; DSA and security keys (`sk-…`, `webauthn-sk-…`) are checked
 *   field by field and kept, but never match (their signatures cannot be
 *   checked here). A certificate as the key refuses the file (OpenSSH reads
 *   one, but it never matches a plain key and its CA signature cannot be
 *   checked here).
 * - Options (`sshsigopt_parse`, with `opt_flag`, `opt_match`, `opt_dequote`):
 *   comma-separated; names in any case; `cert-authority` (a prefix match),
 *   `namespaces="…"`, `valid-after="…"`, `valid-before="…"`, values quoted with
 *   `\"` for a quote. Empty items between commas are skipped; a trailing
 *   comma, an unknown option, a value without quotes, **the same option twice**
 *   (`multiple "…" clauses`), a time that does not parse or reads as 0, and a
 *   `valid-before` not after `valid-after` refuse the line.
 * - Times (`parse_absolute_time`): a `Z`/`z` or `UTC` (any case) suffix means
 *   UTC, else local time; then exactly 8, 12 or 14 bytes, `YYYYMMDD[HHMM[SS]]`,
 *   read as glibc's `strptime` reads `%Y-%m-%d[T%H:%M[:%S]]` (blanks before a
 *   number skipped, month 1–12, day 1–31, hour 0–23, minute 0–59, second 0–61)
 *   and normalised as `timegm`/`mktime` do (`20300231` is 3 March, second 60
 *   the next minute; local time as standard time, `tm_isdst = 0`). A time
 *   before 1970 is refused (OpenSSH 9.2's `timegm() < 0`; later releases cast
 *   it to a far-future unsigned time, which refusing keeps on the safe side).
 *   Times count in whole seconds, as `verify_time` does.
 * - Matching (`match_pattern_list`, case-sensitive, on bytes): a comma list of
 *   `*`/`?` globs, `!` negating; a negated match refuses, a sub-pattern of
 *   1023 bytes or more matches nothing.
 *
 * One difference, on the strict side: OpenSSH stops at the first line that
 * decides (a line for another principal is skipped unread; an invalid line
 * after the one that matched is never read), while here a line OpenSSH would
 * refuse refuses the whole file (kind `bad-allowed-signers`, naming the line),
 * wherever it is, so a typo never silently drops or keeps a trusted key. The
 * file must be UTF-8. Messages name the line and OpenSSH's reason, never its
 * content.
 *
 * {@linkcode readAllowedSignersFile} is the one reader of an allowed-signers
 * file, for every caller (a file a user names, and the one a project's lock
 * names): bounded, through the one bounded reader of `../fs/mod.ts`, strict
 * UTF-8, and parsed here; else one `bad-allowed-signers` line naming the file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { matchPatternList } from "./_allowed_signers.ts";
 * assert.equal(matchPatternList("ana@example.com", "*@example.com,!eve@example.com"), true);
 * ```
 * @module
 */
import { realpath } from "node:fs/promises";
import { type Failure, failure } from "../errors.ts";
import { readBounded, ReadError, resolveLink } from "../fs/mod.ts";
import { formatBytes, MAX_SIGNING_FILE_BYTES } from "../limits.ts";
import { tryDecodeUtf8 } from "../util.ts";
import { parsePublicKeyBlob, type PublicKey } from "./_keys.ts";
import { WireError, WireReader, wireString } from "./_wire.ts";

/** One signer line. */
export interface AllowedSigner {
  /** The 1-based line number. */
  readonly line: number;
  /** The principals pattern list, as written (quotes removed). */
  readonly principals: string;
  /** The key, or undefined when its type is not checked here (the line never matches). */
  readonly key?: PublicKey;
  readonly certAuthority: boolean;
  /** The `namespaces=` pattern list, when given. */
  readonly namespaces?: string;
  /** `valid-after=` and `valid-before=` in milliseconds since the epoch (whole seconds), when given. */
  readonly validAfter?: number;
  readonly validBefore?: number;
}

/** A parsed file, or the first line that does not parse. */
export type AllowedSignersResult =
  | { ok: true; signers: AllowedSigner[] }
  | Failure<"bad-allowed-signers">;

// Everything below works on "byte strings": one UTF-16 code unit per byte of the UTF-8 text, so
// lengths, `?` and the 1023-byte sub-pattern limit count bytes, as OpenSSH's C strings do.

/** A text as a byte string (each char one UTF-8 byte). */
function toBytes(text: string): string {
  let out = "";
  for (const byte of new TextEncoder().encode(text)) out += String.fromCharCode(byte);
  return out;
}

/** A byte string back to text (its bytes are a slice of valid UTF-8 cut at ASCII bytes). */
function fromBytes(bytes: string): string {
  return new TextDecoder().decode(Uint8Array.from(bytes, (c) => c.charCodeAt(0)));
}

/** C's `isspace` in the C locale. */
const isCSpace = (c: string | undefined) =>
  c === " " || c === "\t" || c === "\n" || c === "\v" || c === "\f" || c === "\r";
const isBlank = (c: string | undefined) => c === " " || c === "\t";
/** `strdelim`'s WHITESPACE. */
const isDelimSpace = (c: string | undefined) => c === " " || c === "\t" || c === "\r" || c === "\n";

/** ASCII-only lower case (`strcasecmp` in the C locale). */
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** `match_pattern`: whether byte string `s` matches glob `p` whole, iteratively (no recursion). */
function matchPattern(s: string, p: string): boolean {
  let [si, pi, star, mark] = [0, 0, -1, 0];
  while (si < s.length) {
    if (pi < p.length && (p[pi] === "?" || (p[pi] !== "*" && p[pi] === s[si]))) {
      si++;
      pi++;
    } else if (pi < p.length && p[pi] === "*") {
      [star, mark] = [pi++, si];
    } else if (star >= 0) {
      [pi, si] = [star + 1, ++mark];
    } else return false;
  }
  while (pi < p.length && p[pi] === "*") pi++;
  return pi === p.length;
}

/** `match_pattern_list` on byte strings: 1 positive, -1 negated, 0 no match. */
function matchList(s: string, pattern: string): -1 | 0 | 1 {
  let positive = false;
  let i = 0;
  while (i < pattern.length) {
    const negated = pattern[i] === "!";
    if (negated) i++;
    let end = pattern.indexOf(",", i);
    if (end < 0) end = pattern.length;
    if (end - i >= 1023) return 0;
    const sub = pattern.slice(i, end);
    i = end < pattern.length ? end + 1 : end;
    if (matchPattern(s, sub)) {
      if (negated) return -1;
      positive = true;
    }
  }
  return positive ? 1 : 0;
}

/**
 * OpenSSH's `match_pattern_list`, case-sensitive, on UTF-8 bytes: true when a
 * pattern of the comma list matches and no `!`-negated one does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { matchPatternList } from "./_allowed_signers.ts";
 * assert.equal(matchPatternList("git", "file,git"), true);
 * ```
 */
export function matchPatternList(text: string, list: string): boolean {
  return matchList(toBytes(text), toBytes(list)) === 1;
}

/**
 * The principals of a line as `ssh-keygen -Y find-principals` prints them:
 * split at commas, up to the first empty item (`strsep`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { principalsOf } from "./_allowed_signers.ts";
 * assert.deepEqual(principalsOf("ana@x,bob@x"), ["ana@x", "bob@x"]);
 * ```
 */
export function principalsOf(principals: string): string[] {
  const out: string[] = [];
  for (const item of principals.split(",")) {
    if (item === "") break;
    out.push(item);
  }
  return out;
}

// ---------------------------------------------------------------------------
// parse_absolute_time (misc.c) with glibc's strptime, timegm and mktime

/** glibc strptime's `get_number(from, to, n)` at `at`: [value, next index], or undefined. */
function getNumber(s: string, at: number, from: number, to: number, n: number) {
  let i = at;
  while (isCSpace(s[i])) i++;
  if (!(s[i] >= "0" && s[i] <= "9")) return undefined;
  let val = 0;
  let left = n;
  do {
    val = val * 10 + (s.charCodeAt(i++) - 48);
  } while (--left > 0 && val * 10 <= to && s[i] >= "0" && s[i] <= "9");
  return val < from || val > to ? undefined : [val, i] as const;
}

/** The seconds since the epoch of the fields, as `timegm` (UTC) or `mktime` with `tm_isdst = 0`. */
function epochSeconds(fields: readonly number[], utc: boolean): number {
  const [y, mo, d, h, mi, s] = fields;
  const at = new Date(0);
  at.setUTCFullYear(y, mo - 1, d);
  at.setUTCHours(h, mi, s, 0);
  let ms = at.getTime();
  if (!utc) {
    // Standard time: the larger (further west) of the year's two offsets.
    const offset = (month: number) =>
      new Date(new Date(0).setFullYear(y, month, 1)).getTimezoneOffset();
    ms += Math.max(offset(0), offset(6)) * 60_000;
  }
  return Math.floor(ms / 1000);
}

/** `parse_absolute_time` of a byte string: seconds since the epoch, or undefined. */
function parseAbsoluteTime(value: string): number | undefined {
  let length = value.length;
  let utc = false;
  if (length > 1 && asciiLower(value.slice(length - 1)) === "z") [utc, length] = [true, length - 1];
  else if (length > 3 && asciiLower(value.slice(length - 3)) === "utc") {
    [utc, length] = [true, length - 3];
  }
  if (length !== 8 && length !== 12 && length !== 14) return undefined;
  const part = (from: number, count: number) => value.slice(from, from + count);
  let buffer = `${part(0, 4)}-${part(4, 2)}-${part(6, 2)}`;
  if (length >= 12) buffer += `T${part(8, 2)}:${part(10, 2)}`;
  if (length === 14) buffer += `:${part(12, 2)}`;
  // %Y-%m-%d[T%H:%M[:%S]]: each number with its range and width, literals between.
  const specs: readonly (readonly [number, number, number])[] = [
    [0, 9999, 4],
    [1, 12, 2],
    [1, 31, 2],
    [0, 23, 2],
    [0, 59, 2],
    [0, 61, 2],
  ].slice(0, length === 8 ? 3 : length === 12 ? 5 : 6) as [number, number, number][];
  const literals = ["-", "-", "T", ":", ":"];
  const fields = [0, 1, 1, 0, 0, 0];
  let at = 0;
  for (let i = 0; i < specs.length; i++) {
    if (i > 0) {
      if (buffer[at] !== literals[i - 1]) return undefined;
      at++;
    }
    const read = getNumber(buffer, at, ...specs[i]);
    if (read === undefined) return undefined;
    [fields[i], at] = read;
  }
  if (at !== buffer.length) return undefined;
  const seconds = epochSeconds(fields, utc);
  return seconds < 0 ? undefined : seconds;
}

// ---------------------------------------------------------------------------
// sshsigopt_parse (sshsig.c)

type Options = Pick<AllowedSigner, "certAuthority" | "namespaces" | "validAfter" | "validBefore">;

/** `opt_dequote` at `at`: [value, next index], or OpenSSH's reason. */
function dequote(opts: string, at: number): readonly [string, number] | string {
  if (opts[at] !== '"') return "missing start quote";
  let value = "";
  let i = at + 1;
  while (i < opts.length && opts[i] !== '"') {
    if (opts[i] === "\\" && opts[i + 1] === '"') i++;
    value += opts[i++];
  }
  return i >= opts.length ? "missing end quote" : [value, i + 1];
}

/** `sshsigopt_parse` of an options field (a byte string), or OpenSSH's reason. */
function parseOptions(opts: string): Options | string {
  let certAuthority = false;
  let namespaces: string | undefined;
  let validAfter = 0;
  let validBefore = 0;
  let i = 0;
  const startsWith = (term: string) => asciiLower(opts.slice(i, i + term.length)) === term;
  const matchOption = (term: string) => startsWith(term) && opts[i + term.length] === "=";
  while (i < opts.length && !isBlank(opts[i])) {
    if (startsWith("cert-authority")) {
      certAuthority = true;
      i += "cert-authority".length;
    } else if (matchOption("namespaces")) {
      if (namespaces !== undefined) return 'multiple "namespaces" clauses';
      const value = dequote(opts, i + "namespaces=".length);
      if (typeof value === "string") return value;
      [namespaces, i] = value;
    } else {
      for (const name of ["valid-after", "valid-before"] as const) {
        if (!matchOption(name)) continue;
        if ((name === "valid-after" ? validAfter : validBefore) !== 0) {
          return `multiple "${name}" clauses`;
        }
        const value = dequote(opts, i + name.length + 1);
        if (typeof value === "string") return value;
        const time = parseAbsoluteTime(value[0]);
        if (time === undefined || time === 0) return `invalid "${name}" time`;
        if (name === "valid-after") validAfter = time;
        else validBefore = time;
        i = value[1];
        break;
      }
    }
    if (i >= opts.length || isBlank(opts[i])) break;
    if (opts[i] !== ",") return "unknown key option";
    i++;
    if (i >= opts.length) return "unexpected end-of-options";
  }
  if (validAfter !== 0 && validBefore !== 0 && validBefore <= validAfter) {
    return '"valid-before" time is before "valid-after"';
  }
  return {
    certAuthority,
    ...(namespaces !== undefined ? { namespaces: fromBytes(namespaces) } : {}),
    ...(validAfter !== 0 ? { validAfter: validAfter * 1000 } : {}),
    ...(validBefore !== 0 ? { validBefore: validBefore * 1000 } : {}),
  };
}

// ---------------------------------------------------------------------------
// sshkey_read (sshkey.c) and b64_pton

/** The plain key kinds OpenSSH knows, and the curve of the ECDSA ones. */
type Plain = "ed25519" | "rsa" | "ecdsa" | "dsa" | "ed25519-sk" | "ecdsa-sk";
type KeyName = { plain: Plain; curve?: string; cert: boolean; canonical?: string };

const plainName = (plain: Plain, curve?: string, canonical?: string): KeyName => ({
  plain,
  cert: false,
  ...(curve !== undefined ? { curve } : {}),
  ...(canonical !== undefined ? { canonical } : {}),
});

/** Every key type name OpenSSH 9 reads (`keyimpls`), without XMSS (not built by default). */
const KEY_NAMES: ReadonlyMap<string, KeyName> = (() => {
  const names = new Map<string, KeyName>([
    ["ssh-ed25519", plainName("ed25519", undefined, "ssh-ed25519")],
    ["sk-ssh-ed25519@openssh.com", plainName("ed25519-sk")],
    ["ssh-rsa", plainName("rsa", undefined, "ssh-rsa")],
    ["rsa-sha2-256", plainName("rsa", undefined, "ssh-rsa")],
    ["rsa-sha2-512", plainName("rsa", undefined, "ssh-rsa")],
    ["ssh-dss", plainName("dsa")],
    ["sk-ecdsa-sha2-nistp256@openssh.com", plainName("ecdsa-sk", "nistp256")],
    ["webauthn-sk-ecdsa-sha2-nistp256@openssh.com", plainName("ecdsa-sk", "nistp256")],
  ]);
  for (const curve of ["nistp256", "nistp384", "nistp521"]) {
    names.set(`ecdsa-sha2-${curve}`, plainName("ecdsa", curve, `ecdsa-sha2-${curve}`));
  }
  const certs = [
    "ssh-ed25519",
    "sk-ssh-ed25519",
    "ecdsa-sha2-nistp256",
    "ecdsa-sha2-nistp384",
    "ecdsa-sha2-nistp521",
    "sk-ecdsa-sha2-nistp256",
    "ssh-dss",
    "ssh-rsa",
    "rsa-sha2-256",
    "rsa-sha2-512",
  ];
  for (const base of certs) {
    const plain = names.get(base) ?? names.get(`${base}@openssh.com`)!;
    names.set(`${base}-cert-v01@openssh.com`, { ...plain, cert: true });
  }
  return names;
})();

/** The short names `sshkey_type_from_name` also accepts inside a blob, in any case (plain keys only). */
const SHORT_NAMES: Readonly<Record<string, Plain>> = {
  "ed25519": "ed25519",
  "ed25519-sk": "ed25519-sk",
  "rsa": "rsa",
  "dsa": "dsa",
  "ecdsa": "ecdsa",
  "ecdsa-sk": "ecdsa-sk",
};

const BASE64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** `b64_pton` of a byte string: blanks anywhere skipped, padding and spare bits checked. */
function decodeBase64(text: string): Uint8Array | undefined {
  const out: number[] = [];
  let state = 0;
  let i = 0;
  for (; i < text.length; i++) {
    const c = text[i];
    if (isCSpace(c)) continue;
    if (c === "=") break;
    const v = BASE64_ALPHABET.indexOf(c);
    if (v < 0) return undefined;
    const t = out.length - (state === 0 ? 0 : 1);
    if (state === 0) out.push(v << 2);
    else if (state === 1) [out[t], out[t + 1]] = [out[t] | (v >> 4), (v & 0x0f) << 4];
    else if (state === 2) [out[t], out[t + 1]] = [out[t] | (v >> 2), (v & 0x03) << 6];
    else out[t] |= v;
    state = (state + 1) % 4;
  }
  if (i >= text.length) return state === 0 ? Uint8Array.from(out) : undefined;
  if (state < 2) return undefined;
  i++;
  if (state === 2) {
    while (i < text.length && isCSpace(text[i])) i++;
    if (text[i] !== "=") return undefined;
    i++;
  }
  for (; i < text.length; i++) if (!isCSpace(text[i])) return undefined;
  // The bits past the last whole byte must be zero (no subliminal channel).
  if (out.pop() !== 0) return undefined;
  return Uint8Array.from(out);
}

/** `sshbuf_get_cstring`: a string without a NUL byte. */
function cString(reader: WireReader): Uint8Array {
  const bytes = reader.bytes();
  if (bytes.includes(0)) throw new WireError("malformed", "NUL in a string");
  return bytes;
}

/** `sshbuf_get_bignum2`: not negative, at most 16384 bits. */
function bignum(reader: WireReader): void {
  const bytes = reader.bytes();
  if (bytes.length > 0 && bytes[0] & 0x80) throw new WireError("malformed", "negative");
  if (bytes.length > 2049 || (bytes.length === 2049 && bytes[0] !== 0)) {
    throw new WireError("malformed", "bignum too large");
  }
}

const latin1 = (bytes: Uint8Array) => String.fromCharCode(...bytes);

/**
 * `sshkey_fromb` of a line's blob, for a line naming `name`: the key when it
 * is one checked here, null for a well-formed key of another kind, undefined
 * when OpenSSH would refuse it.
 */
function readBlob(blob: Uint8Array, name: KeyName): PublicKey | null | undefined {
  try {
    const reader = new WireReader(blob);
    const inner = latin1(reader.bytes());
    const named = KEY_NAMES.get(inner);
    const plain = named !== undefined && !named.cert ? named.plain : SHORT_NAMES[asciiLower(inner)];
    if (plain === undefined || plain !== name.plain) return undefined;
    if (plain === "ecdsa" || plain === "ecdsa-sk") {
      // The curve is looked up by the blob's own type name: a short name has none.
      if (named?.curve === undefined || named.curve !== name.curve) return undefined;
    }
    if (plain === "dsa") {
      for (let n = 0; n < 4; n++) bignum(reader);
      reader.end();
      return null;
    }
    if (plain === "ed25519-sk" || plain === "ecdsa-sk") {
      return skPublic(reader, plain, named?.curve) ? null : undefined;
    }
    const canonical = concatRest(name.canonical!, blob, reader);
    const parsed = parsePublicKeyBlob(canonical);
    return parsed.ok ? parsed.key : undefined;
  } catch (error) {
    if (error instanceof WireError) return undefined;
    throw error;
  }
}

/** The public fields of a security key after its type name, whole (true) or not (false). */
function skPublic(reader: WireReader, plain: "ed25519-sk" | "ecdsa-sk", curve?: string): boolean {
  if (plain === "ed25519-sk") {
    if (reader.bytes().length !== 32) return false;
  } else {
    if (latin1(cString(reader)) !== curve) return false;
    const point = reader.bytes();
    const ecdsa = [wireString(`ecdsa-sha2-${curve}`), wireString(curve!), wireString(point)];
    if (!parsePublicKeyBlob(new Uint8Array(ecdsa.flatMap((part) => [...part]))).ok) return false;
  }
  cString(reader);
  reader.end();
  return true;
}

/** A blob with its type name replaced by the canonical one (the fields after it unchanged). */
function concatRest(canonical: string, blob: Uint8Array, reader: WireReader): Uint8Array {
  const rest = blob.slice(blob.length - reader.remaining());
  return new Uint8Array([...wireString(canonical), ...rest]);
}

/** A key read from a line: the key (null: never matches), whether it is a certificate. */
type LineKey = { key: PublicKey | null; cert: boolean };

/** `sshkey_read` at the start of byte string `text`, or undefined. */
function readKey(text: string): LineKey | undefined {
  const typeEnd = text.search(/[ \t]/);
  if (typeEnd < 0) return undefined;
  const name = KEY_NAMES.get(text.slice(0, typeEnd));
  if (name === undefined) return undefined;
  let at = typeEnd;
  while (isBlank(text[at])) at++;
  if (at >= text.length) return undefined;
  const blank = text.slice(at).search(/[ \t]/);
  const end = blank < 0 ? text.length : at + blank;
  const blob = decodeBase64(text.slice(at, end));
  if (blob === undefined) return undefined;
  // A certificate is refused whole (see the module doc): its blob is not read further.
  if (name.cert) return { key: null, cert: true };
  const key = readBlob(blob, name);
  return key === undefined ? undefined : { key, cert: false };
}

// ---------------------------------------------------------------------------
// parse_principals_key_and_options (sshsig.c)

/** `strdelimw`: the first field and the rest, or undefined for an invalid line. */
function takePrincipals(line: string): readonly [string, string] | undefined {
  const at = line.search(/[ \t\r\n"]/);
  if (at < 0) return undefined;
  let token: string;
  let after: number;
  if (line[at] === '"') {
    const close = line.indexOf('"', at + 1);
    if (close < 0) return undefined;
    token = line.slice(0, at) + line.slice(at + 1, close);
    after = close + 1;
  } else {
    token = line.slice(0, at);
    after = at + 1;
  }
  while (isDelimSpace(line[after])) after++;
  return [token, line.slice(after)];
}

/** `sshkey_advance_past_options`: the end of the options field, or -1 for an open quote. */
function optionsEnd(text: string): number {
  let quoted = false;
  let i = 0;
  for (; i < text.length && (quoted || !isBlank(text[i])); i++) {
    if (text[i] === "\\" && text[i + 1] === '"') i++;
    else if (text[i] === '"') quoted = !quoted;
  }
  return i >= text.length && quoted ? -1 : i;
}

/** One line (a byte string), or undefined for a blank or comment line, or why it does not parse. */
function parseLine(raw: string, line: number): AllowedSigner | undefined | string {
  let start = 0;
  while (isDelimSpace(raw[start])) start++;
  const text = raw.slice(start);
  if (text === "" || text[0] === "#") return undefined;
  const first = takePrincipals(text);
  if (first === undefined) return "invalid line";
  const [principals, rest] = first;
  let read = readKey(rest);
  let options: Options | string = { certAuthority: false };
  if (read === undefined) {
    const end = optionsEnd(rest);
    if (end < 0) return "invalid options";
    if (end >= rest.length) return "missing key";
    let keyAt = end + 1;
    while (isBlank(rest[keyAt])) keyAt++;
    read = readKey(rest.slice(keyAt));
    if (read === undefined) return "invalid key";
    options = parseOptions(rest.slice(0, end));
    if (typeof options === "string") return `bad options: ${options}`;
  }
  if (read.cert) return "certificates are not supported as signer keys";
  return {
    line,
    principals: fromBytes(principals),
    ...options,
    ...(read.key !== null ? { key: read.key } : {}),
  };
}

/**
 * Parses an allowed-signers file's text.
 *
 * @example
 * ```ts
 * import { parseAllowedSigners } from "./_allowed_signers.ts";
 * const parsed = parseAllowedSigners("# nobody yet\n");
 * if (parsed.ok) console.log(parsed.signers.length); // 0
 * ```
 */
export function parseAllowedSigners(text: string): AllowedSignersResult {
  const signers: AllowedSigner[] = [];
  const lines = toBytes(text).split("\n");
  for (let i = 0; i < lines.length; i++) {
    const nul = lines[i].indexOf("\u0000");
    const parsed = parseLine(nul < 0 ? lines[i] : lines[i].slice(0, nul), i + 1);
    if (typeof parsed === "string") {
      return failure("bad-allowed-signers", `allowed signers line ${i + 1}: ${parsed}`);
    }
    if (parsed !== undefined) signers.push(parsed);
  }
  return { ok: true, signers };
}

/** An allowed-signers file, read: its text, its absolute path and its signers. */
export interface AllowedSignersFile {
  ok: true;
  text: string;
  path: string;
  /** The file's signer lines, parsed. */
  signers: AllowedSigner[];
}

/** Options of {@linkcode readAllowedSignersFile}. */
export interface AllowedSignersFileOptions {
  /**
   * The project root the file must lie in (its real path inside the root's),
   * the file itself not a link: a file a project names. Without it, a file the
   * user names, whose final link is followed (never into `/proc`, `/sys` or `/dev`).
   *
   * @default undefined
   */
  within?: string;
  /**
   * How messages name the file (by default, `path` itself).
   *
   * @default path
   */
  shown?: string;
}

/** The one line of an allowed-signers file that cannot be used. */
function badSigners(path: string, why: string): Failure<"bad-allowed-signers"> {
  return failure("bad-allowed-signers", `allowed signers file ${JSON.stringify(path)} ${why}`);
}

/** The real path of `file` when it is inside the real `root` (the reader's `resolveLink`), else why not. */
async function realInside(root: string, file: string, shown: string) {
  try {
    return resolveLink(file, { within: await realpath(root) });
  } catch (error) {
    const outside = error instanceof ReadError && error.kind === "outside";
    return badSigners(shown, outside ? "is outside the project" : "cannot be found");
  }
}

/**
 * The one reader of allowed-signers files (see the module doc): bounded
 * ({@linkcode MAX_SIGNING_FILE_BYTES}), through the bounded reader (with
 * `within`, confined to the project and never through a link; a fifo, a
 * device or a directory is refused, never waited on), strict UTF-8 and in the
 * allowed-signers format ({@linkcode parseAllowedSigners}); else one
 * `bad-allowed-signers` line naming the file, never its content.
 *
 * @example
 * ```ts
 * import { readAllowedSignersFile } from "./_allowed_signers.ts";
 * const read = await readAllowedSignersFile("/home/me/allowed_signers");
 * console.log(read.ok ? read.signers.length : read.message);
 * ```
 */
export async function readAllowedSignersFile(
  path: string,
  options: AllowedSignersFileOptions = {},
): Promise<AllowedSignersFile | Failure<"bad-allowed-signers">> {
  const shown = options.shown ?? path;
  if (options.within !== undefined) {
    const inside = await realInside(options.within, path, shown);
    if (typeof inside !== "string") return inside;
  }
  let bytes: Uint8Array;
  try {
    ({ bytes } = await readBounded(path, {
      maxBytes: MAX_SIGNING_FILE_BYTES,
      followSymlinks: options.within === undefined,
    }));
  } catch (error) {
    if (!(error instanceof ReadError)) throw error;
    const why = error.kind === "symlink"
      ? "is a link"
      : error.kind === "too-large"
      ? `is larger than ${formatBytes(MAX_SIGNING_FILE_BYTES)}`
      : `cannot be read (${error.kind})`;
    return badSigners(shown, why);
  }
  const text = tryDecodeUtf8(bytes);
  if (text === undefined) return badSigners(shown, "is not UTF-8");
  const parsed = parseAllowedSigners(text);
  if (!parsed.ok) return badSigners(shown, `is invalid: ${parsed.message}`);
  return { ok: true, text, path, signers: parsed.signers };
}
