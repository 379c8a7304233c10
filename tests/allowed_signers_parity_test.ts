// Allowed signers exactly as OpenSSH parses them (issue 27, finding 10): a table of hostile and
// ordinary allowed-signers files, each judged by the real `ssh-keygen -Y verify -I` (and, without
// an identity, as Git judges: `-Y find-principals`, then `-Y verify -I` with each principal it
// prints) and by this tool's parser and verifier, over real signatures made by `ssh-keygen -Y sign`
// at one fixed verification time. Every case must get the same verdict from both: accepted (and
// for which principal) or refused.
import { equal, match } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { verifySignature } from "../lib/sign/_verify.ts";
import { fromBase64, toBase64, wireString } from "../lib/sign/_wire.ts";
import { run, skillMd, withSandbox, withTempDir, writeTree } from "./helpers.ts";
import { newKey, setSigners, signSkill, SKILLS } from "./signers_fixture.ts";

const NS = "skills-anywhere";
const MESSAGE = new TextEncoder().encode('["skills-anywhere-bundle-1",[["SKILL.md",0,"e3"]]]');
const NOW = new Date("2026-06-01T12:00:00Z");
const VERIFY_TIME = "-Overify-time=20260601120000Z";

/** One file of the table: its text (with key placeholders), who asks, which signature. */
interface Case {
  file: string;
  /** The principal asked for (`-I`); default `ana@x`. */
  identity?: string;
  /** The signing key: `k` (Ed25519, default), `r` (RSA), `e` (ECDSA nistp256). */
  sig?: "k" | "r" | "e";
  /** The signature's namespace(s) to try (default only skills-anywhere). */
  namespaces?: string[];
  /**
   * Also judge without an identity, as Git does (default true). Off for blank lines before the
   * signer: OpenSSH before 9.7 stops find-principals there (fixed in 9.7, which this follows).
   */
  git?: boolean;
  /**
   * The first line is one OpenSSH refuses and skips (it logs it and reads on), so the next line
   * decides there; here it refuses the whole file. Judged twice: that line alone gets
   * ssh-keygen's verdict, and the whole file is refused here while ssh-keygen accepts it.
   */
  skippedByOpenSsh?: boolean;
}

const TABLE: readonly Case[] = [
  // Plain lines, spacing, comments, line ends.
  { file: "ana@x {K}" },
  { file: "ana@x {K} a trailing comment" },
  { file: "ana@x {K} # trailing" },
  { file: "  \tana@x {K}" },
  { file: "ana@x\t\t{KT}\t{KB}" },
  { file: "ana@x   {KT}   {KB}   " },
  { file: "ana@x {K}\r\n" },
  { file: "ana@x {KT} {KB}\r" },
  { file: "# a comment\n\n   \nana@x {K}", git: false },
  { file: "ana@x {K}\n\n# after\n" },
  { file: "#ana@x {K}" },
  { file: "  #ana@x {K}" },
  { file: "" },
  { file: "ana@x" },
  { file: "ana@x " },
  { file: "ana@x {KT}" },
  { file: "ana@x {KT} " },
  { file: "{K}" },
  { file: "ana@x\0 {K}" },
  { file: "ana@x {K}\0junk" },
  // Principals: patterns, negation, case, bytes.
  { file: "bob@x {K}" },
  { file: "*@x {K}" },
  { file: "* {K}" },
  { file: "** {K}" },
  { file: "a?a@x {K}" },
  { file: "a??a@x {K}" },
  { file: "*@x,!ana@x {K}" },
  { file: "!ana@x,*@x {K}" },
  { file: "!bob@x,*@x {K}" },
  { file: "!* {K}" },
  { file: "ANA@x {K}" },
  { file: "ana@X {K}" },
  { file: "ana@x,bob@x {K}" },
  { file: "bob@x,ana@x {K}" },
  { file: "bob@x,,ana@x {K}" },
  { file: ",ana@x {K}" },
  { file: "ana@x, {K}" },
  { file: "?@x {K}", identity: "é@x" },
  { file: "??@x {K}", identity: "é@x" },
  { file: "é@x {K}", identity: "é@x" },
  { file: `${"a".repeat(1100)},ana@x {K}` },
  { file: `ana@x,${"*".repeat(1030)} {K}` },
  // Quoting.
  { file: '"ana@x" {K}' },
  { file: '"bob smith@x,ana@x" {K}' },
  { file: '"ana smith@x" {K}', identity: "ana smith@x" },
  { file: '"ana@x {K}' },
  { file: 'ana"@x" {K}' },
  { file: '"ana"@x {K}' },
  { file: '"ana\\"@x" {K}', identity: 'ana\\"@x' },
  { file: '"ana\\"@x" {K}', identity: "ana\\" },
  { file: '"" {K}' },
  { file: '"" {K}', identity: "" },
  { file: '"ana@x"{K}' },
  // Options: namespaces.
  { file: 'ana@x namespaces="skills-anywhere" {K}', namespaces: [NS, "git"] },
  { file: 'ana@x namespaces="git" {K}', namespaces: [NS, "git"] },
  { file: 'ana@x namespaces="git",namespaces="skills-anywhere" {K}', namespaces: [NS, "git"] },
  { file: 'ana@x namespaces="skills-anywhere",namespaces="git" {K}', namespaces: [NS, "git"] },
  { file: 'ana@x namespaces="git",namespaces="git" {K}', namespaces: ["git"] },
  { file: 'ana@x NAMESPACES="skills-anywhere" {K}' },
  { file: 'ana@x Namespaces="git",namespaces="skills-anywhere" {K}' },
  { file: 'ana@x namespaces="skills-*" {K}' },
  { file: 'ana@x namespaces="!skills-anywhere,*" {K}' },
  { file: 'ana@x namespaces="*,!git" {K}', namespaces: [NS, "git"] },
  { file: 'ana@x namespaces="" {K}' },
  { file: 'ana@x namespaces="a b,skills-anywhere" {K}' },
  { file: 'ana@x namespaces="skills\\"anywhere" {K}' },
  { file: "ana@x namespaces=skills-anywhere {K}" },
  { file: 'ana@x namespaces="skills-anywhere {K}' },
  { file: 'ana@x namespaces="skills-anywhere"x {K}' },
  { file: 'ana@x namespaces ="skills-anywhere" {K}' },
  { file: 'ana@x namespaces= "skills-anywhere" {K}' },
  // Options: lists, unknown names, cert-authority.
  { file: 'ana@x namespaces="skills-anywhere", {K}' },
  { file: 'ana@x ,namespaces="skills-anywhere" {K}' },
  { file: 'ana@x namespaces="skills-anywhere",,valid-before="20300101Z" {K}' },
  { file: "ana@x , {K}" },
  { file: "ana@x unknown {K}" },
  { file: 'ana@x unknown="x" {K}' },
  { file: 'ana@x namespaces="skills-anywhere",unknown {K}' },
  { file: "ana@x cert-authority {K}" },
  { file: "ana@x cert-authority,cert-authority {K}" },
  { file: "ana@x CERT-AUTHORITY {K}" },
  { file: "ana@x cert-authorityx {K}" },
  { file: "ana@x no-cert-authority {K}" },
  { file: "ana@x cert-authority {K}\nana@x {K}" },
  { file: "ana@x {KT} {KT} {KB}" },
  // Options: times (verification time 2026-06-01T12:00:00Z).
  { file: 'ana@x valid-before="20300101Z" {K}' },
  { file: 'ana@x valid-before="20260101Z" {K}' },
  { file: 'ana@x valid-before="20260101Z",valid-before="20300101Z" {K}' },
  { file: 'ana@x valid-before="20300101Z",valid-before="20260101Z" {K}' },
  { file: 'ana@x valid-after="20250101Z",valid-after="20250101Z" {K}' },
  { file: 'ana@x valid-after="20250101Z",VALID-AFTER="20250102Z" {K}' },
  { file: 'ana@x valid-after="19700101Z" {K}' },
  { file: 'ana@x valid-before="19700101Z" {K}' },
  { file: 'ana@x valid-after="19700101000001Z" {K}' },
  { file: 'ana@x valid-before="19700101000001Z" {K}' },
  { file: 'ana@x valid-after="19700101" {K}' },
  { file: 'ana@x valid-after="19700101000000" {K}' },
  { file: 'ana@x valid-after="197001010000" {K}' },
  { file: 'ana@x valid-after="00000000" {K}' },
  { file: 'ana@x valid-after="00000000Z" {K}' },
  { file: 'ana@x valid-after="000000000000" {K}' },
  { file: 'ana@x valid-after="00000101Z" {K}' },
  { file: 'ana@x valid-before="19691231Z" {K}' },
  { file: 'ana@x valid-before="19691231235959Z" {K}' },
  { file: 'ana@x valid-before="20300101" {K}' },
  { file: 'ana@x valid-before="203001010000" {K}' },
  { file: 'ana@x valid-before="20300101000000" {K}' },
  { file: 'ana@x valid-before="20300101000000Z" {K}' },
  { file: 'ana@x valid-before="2030010100Z" {K}' },
  { file: 'ana@x valid-before="2030010100" {K}' },
  { file: 'ana@x valid-before="203001010000000Z" {K}' },
  { file: 'ana@x valid-before="2030" {K}' },
  { file: 'ana@x valid-before="" {K}' },
  { file: 'ana@x valid-before="Z" {K}' },
  { file: 'ana@x valid-before="20300101z" {K}' },
  { file: 'ana@x valid-before="20300101UTC" {K}' },
  { file: 'ana@x valid-before="20300101utc" {K}' },
  { file: 'ana@x valid-before="20300101ZZ" {K}' },
  { file: 'ana@x valid-before="20301301Z" {K}' },
  { file: 'ana@x valid-before="20300001Z" {K}' },
  { file: 'ana@x valid-before="20300100Z" {K}' },
  { file: 'ana@x valid-before="20300132Z" {K}' },
  { file: 'ana@x valid-before="20260231Z" {K}' },
  { file: 'ana@x valid-before="20260531Z" {K}' },
  { file: 'ana@x valid-before="20260532Z" {K}' },
  { file: 'ana@x valid-before="20260601240000Z" {K}' },
  { file: 'ana@x valid-before="20260601116000Z" {K}' },
  { file: 'ana@x valid-before="20260601115960Z" {K}' },
  { file: 'ana@x valid-before="20260601115961Z" {K}' },
  { file: 'ana@x valid-before="20260601115962Z" {K}' },
  { file: 'ana@x valid-before="2026 601Z" {K}' },
  { file: 'ana@x valid-before="2030 1 1Z" {K}' },
  { file: 'ana@x valid-before=" 2030101Z" {K}' },
  { file: 'ana@x valid-before="2030\t101Z" {K}' },
  { file: 'ana@x valid-before="+0300101Z" {K}' },
  { file: 'ana@x valid-before="2030-1-1Z" {K}' },
  { file: 'ana@x valid-before="99991231Z" {K}' },
  { file: 'ana@x valid-before="20260601120000Z" {K}' },
  { file: 'ana@x valid-before="20260601115959Z" {K}' },
  { file: 'ana@x valid-after="20260601120000Z" {K}' },
  { file: 'ana@x valid-after="20260601120001Z" {K}' },
  { file: 'ana@x valid-after="20300101Z" {K}' },
  // Local times near the verification time: under a zone with summer time (the last test reruns
  // every local-time case under New York and Sydney) they tell mktime's tm_isdst = 0 apart.
  { file: 'ana@x valid-before="20260601080000" {K}' },
  { file: 'ana@x valid-before="20260601075959" {K}' },
  { file: 'ana@x valid-after="20260601070001" {K}' },
  { file: 'ana@x valid-after="20260601080001" {K}' },
  { file: 'ana@x valid-after="202606012200" {K}' },
  { file: 'ana@x valid-before="20260601215959" {K}' },
  { file: 'ana@x valid-after="20250101Z",valid-before="20250101Z" {K}' },
  { file: 'ana@x valid-after="20300101Z",valid-before="20250101Z" {K}' },
  { file: 'ana@x valid-after="20250101Z",valid-before="20300101Z" {K}' },
  { file: "ana@x valid-before=20300101Z {K}" },
  { file: 'ana@x valid-before="20300101Z" {K}\nana@x {K}' },
  { file: 'ana@x valid-before="20260101Z" {K}\nbob@x {K}' },
  { file: 'ana@x namespaces="git" {K}\nana@x {K}' },
  // Key types and blobs.
  { file: "ana@x {R}", sig: "r" },
  { file: "ana@x rsa-sha2-512 {RB}", sig: "r" },
  { file: "ana@x rsa-sha2-256 {RB}", sig: "r" },
  { file: "ana@x ssh-rsa {RB512}", sig: "r" },
  { file: "ana@x ssh-rsa {RBSHORT}", sig: "r" },
  { file: "ana@x ssh-rsa {RBZERO}", sig: "r" },
  { file: "ana@x {R}" },
  { file: "ana@x {E}", sig: "e" },
  { file: "ana@x {ET} {EBNOPAD}", sig: "e" },
  { file: "ana@x {ET} {EBSLOP}", sig: "e" },
  { file: "ana@x {ET} {EBSPLIT}", sig: "e" },
  { file: "ana@x ecdsa-sha2-nistp384 {EB}", sig: "e" },
  { file: "ana@x {ET} {EBSHORT}", sig: "e" },
  { file: "ana@x {KT} {KBSHORT}" },
  { file: "ana@x {KT} {KBLOWER}" },
  { file: "ana@x {KT} {KBTRAIL}" },
  { file: "ana@x {KT} {KBSHORTPK}" },
  { file: "ana@x SSH-ED25519 {KB}" },
  { file: "ana@x ssh-ed25519 {RB}" },
  { file: "ana@x ssh-ed25519 AAAAC3NzaC1lZDI1NTE5" },
  { file: "ana@x ssh-ed25519 !!!!" },
  { file: "ana@x ssh-unknown {KB}" },
  { file: "ana@x {D}" },
  { file: "ana@x {D}\nana@x {K}" },
  { file: "ana@x ssh-dss {DBBAD}\nana@x {K}", skippedByOpenSsh: true },
  { file: "ana@x sk-ssh-ed25519@openssh.com {SK}" },
  { file: "ana@x sk-ssh-ed25519@openssh.com {SK}\nana@x {K}" },
  { file: "ana@x sk-ssh-ed25519@openssh.com {SKBAD}\nana@x {K}", skippedByOpenSsh: true },
  { file: "ana@x sk-ssh-ed25519@openssh.com {SKNUL}\nana@x {K}", skippedByOpenSsh: true },
  { file: "ana@x sk-ecdsa-sha2-nistp256@openssh.com {SKE}\nana@x {K}" },
  { file: "ana@x webauthn-sk-ecdsa-sha2-nistp256@openssh.com {SKE}\nana@x {K}" },
  { file: "ana@x sk-ecdsa-sha2-nistp256@openssh.com {SKEBAD}\nana@x {K}", skippedByOpenSsh: true },
  { file: "ana@x cert-authority {K}\nana@x {K}" },
  {
    file: 'ana@x valid-before="20260101Z",valid-before="20300101Z" {K}\nana@x {K}',
    skippedByOpenSsh: true,
  },
  {
    file: 'ana@x namespaces="git",namespaces="skills-anywhere" {K}\nbob@x {K}',
    identity: "bob@x",
    skippedByOpenSsh: true,
  },
  {
    file: 'ana@x valid-after="19700101Z" {K}\nbob@x {K}',
    identity: "bob@x",
    skippedByOpenSsh: true,
  },
];

/** The local-time cases, which the time-zone runs below repeat under zones with summer time. */
const LOCAL_TIME = /valid-(after|before)="[0-9]+"/;
const CASES = Deno.env.get("PARITY_LOCAL_TIMES") === "1"
  ? TABLE.filter((entry) => LOCAL_TIME.test(entry.file))
  : TABLE;

async function sshKeygen(args: string[], options: { cwd?: string; stdin?: Uint8Array } = {}) {
  const result = await run("ssh-keygen", args, options);
  if (result.code !== 0) throw new Error(`ssh-keygen ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

const wireName = (name: string, blob: Uint8Array) => {
  const length = new DataView(blob.buffer, blob.byteOffset).getUint32(0);
  return toBase64(new Uint8Array([...wireString(name), ...blob.slice(4 + length)]));
};

/** The keys, the placeholders they fill, and one signature per key and namespace. */
async function fixture(dir: string) {
  const keys: Record<string, string> = {};
  for (const [name, type] of [["k", "ed25519"], ["r", "rsa"], ["e", "ecdsa"], ["d", "dsa"]]) {
    const bits = type === "rsa" ? ["-b", "2048"] : type === "ecdsa" ? ["-b", "256"] : [];
    await sshKeygen(["-q", "-t", type, ...bits, "-N", "", "-C", "c", "-f", join(dir, name)]);
    keys[name] = (await Deno.readTextFile(join(dir, `${name}.pub`))).split(" ").slice(0, 2).join(
      " ",
    );
  }
  await Deno.writeFile(join(dir, "message"), MESSAGE);
  const signatures = new Map<string, Uint8Array>();
  for (const key of ["k", "r", "e"]) {
    for (const namespace of [NS, "git"]) {
      await sshKeygen(["-Y", "sign", "-f", join(dir, key), "-n", namespace, join(dir, "message")]);
      const file = join(dir, `${key}.${namespace}.sig`);
      await Deno.rename(join(dir, "message.sig"), file);
      signatures.set(`${key} ${namespace}`, await Deno.readFile(file));
    }
  }
  const [kt, kb] = keys.k.split(" ");
  const [et, eb] = keys.e.split(" ");
  const rb = keys.r.split(" ")[1];
  const kBlob = fromBase64(kb)!;
  const rBlob = fromBase64(rb)!;
  const eBlob = fromBase64(eb)!;
  const pk = kBlob.slice(kBlob.length - 32);
  const sk = (pkBytes: Uint8Array, app: Uint8Array) =>
    toBase64(
      new Uint8Array([
        ...wireString("sk-ssh-ed25519@openssh.com"),
        ...wireString(pkBytes),
        ...wireString(app),
      ]),
    );
  const point = eBlob.slice(eBlob.length - 65);
  const ske = (pt: Uint8Array) =>
    toBase64(
      new Uint8Array([
        ...wireString("sk-ecdsa-sha2-nistp256@openssh.com"),
        ...wireString("nistp256"),
        ...wireString(pt),
        ...wireString("ssh:"),
      ]),
    );
  const offCurve = point.slice();
  offCurve[64] ^= 1;
  // An RSA blob whose exponent mpint has a redundant leading zero byte.
  const eLength = new DataView(rBlob.buffer).getUint32(11);
  const exponent = rBlob.slice(15, 15 + eLength);
  const rZero = new Uint8Array([
    ...wireString("ssh-rsa"),
    ...wireString(new Uint8Array([0, ...exponent])),
    ...rBlob.slice(15 + eLength),
  ]);
  // A valid DSA line with a truncated blob.
  const dBlob = fromBase64(keys.d.split(" ")[1])!;
  const noPad = eb.replace(/=+$/, "");
  const slop = eb.slice(0, -2) + String.fromCharCode(eb.charCodeAt(eb.length - 2) ^ 1) + "=";
  const values: Record<string, string> = {
    K: keys.k,
    KT: kt,
    KB: kb,
    R: keys.r,
    RB: rb,
    RB512: wireName("rsa-sha2-512", rBlob),
    RBSHORT: wireName("RSA", rBlob),
    RBZERO: toBase64(rZero),
    E: keys.e,
    ET: et,
    EB: eb,
    EBNOPAD: noPad,
    EBSLOP: slop,
    EBSPLIT: `${eb.slice(0, 20)}\r\v\f${eb.slice(20)}`,
    EBSHORT: wireName("ECDSA", eBlob),
    KBSHORT: wireName("ED25519", kBlob),
    KBLOWER: wireName("ed25519", kBlob),
    KBTRAIL: toBase64(new Uint8Array([...kBlob, 0])),
    KBSHORTPK: toBase64(new Uint8Array([...wireString("ssh-ed25519"), ...wireString(pk.slice(1))])),
    D: keys.d,
    DBBAD: toBase64(dBlob.slice(0, dBlob.length - 3)),
    SK: sk(pk, new TextEncoder().encode("ssh:")),
    SKBAD: sk(pk.slice(2), new TextEncoder().encode("ssh:")),
    SKNUL: sk(pk, new TextEncoder().encode("ss\0h:")),
    SKE: ske(point),
    SKEBAD: ske(offCurve),
  };
  return { signatures, values };
}

const fill = (file: string, values: Record<string, string>) =>
  file.replace(/\{([A-Z0-9]+)\}/g, (_, name: string) => values[name]);

/** ssh-keygen's verdict: `accepted <principal>` or `refused`. */
async function theirs(dir: string, sig: string, namespace: string, identity?: string) {
  const verify = (principal: string) =>
    run("ssh-keygen", [
      "-Y",
      "verify",
      "-f",
      "allowed",
      "-I",
      principal,
      "-n",
      namespace,
      "-s",
      sig,
      VERIFY_TIME,
    ], { cwd: dir, stdin: MESSAGE });
  if (identity !== undefined) {
    return (await verify(identity)).code === 0 ? `accepted ${identity}` : "refused";
  }
  const found = await run(
    "ssh-keygen",
    ["-Y", "find-principals", "-f", "allowed", "-s", sig, VERIFY_TIME],
    { cwd: dir },
  );
  if (found.code !== 0) return "refused";
  for (const principal of found.stdout.split("\n").filter((line) => line !== "")) {
    if ((await verify(principal)).code === 0) return `accepted ${principal}`;
  }
  return "refused";
}

/** This tool's verdict: `accepted <principal>` or `refused`. */
async function ours(text: string, signature: Uint8Array, namespace: string, identity?: string) {
  const result = await verifySignature(MESSAGE, signature, text, {
    namespace,
    now: NOW,
    ...(identity !== undefined ? { identity } : {}),
  });
  return result.ok ? `accepted ${result.principal}` : "refused";
}

Deno.test("allowed signers: every line of the table gets ssh-keygen's verdict, with and without an identity", async () => {
  await withTempDir(async (dir) => {
    const { signatures, values } = await fixture(dir);
    const mismatches: string[] = [];
    let accepted = 0;
    const judge = async (file: string, entry: Case) => {
      const text = fill(file, values);
      await Deno.writeTextFile(join(dir, "allowed"), text);
      const key = entry.sig ?? "k";
      const verdicts: { what: string; want: string; got: string }[] = [];
      for (const namespace of entry.namespaces ?? [NS]) {
        const sig = `${key}.${namespace}.sig`;
        const signature = signatures.get(`${key} ${namespace}`)!;
        const identities = [entry.identity ?? "ana@x", ...(entry.git === false ? [] : [undefined])];
        for (const identity of identities) {
          const asked = identity === undefined ? "(no identity)" : `-I ${JSON.stringify(identity)}`;
          verdicts.push({
            what: `${JSON.stringify(file)} -n ${namespace} ${asked}`,
            want: await theirs(dir, sig, namespace, identity),
            got: await ours(text, signature, namespace, identity),
          });
        }
      }
      return verdicts;
    };
    for (const entry of CASES) {
      const [first] = entry.file.split("\n");
      for (const verdict of await judge(entry.skippedByOpenSsh ? first : entry.file, entry)) {
        if (verdict.want.startsWith("accepted")) accepted++;
        if (verdict.want !== verdict.got) {
          mismatches.push(`${verdict.what}: ssh-keygen ${verdict.want}, ours ${verdict.got}`);
        }
      }
      if (!entry.skippedByOpenSsh) continue;
      for (const verdict of await judge(entry.file, entry)) {
        if (!verdict.want.startsWith("accepted") || verdict.got !== "refused") {
          mismatches.push(
            `${verdict.what}: ssh-keygen ${verdict.want} (skipping line 1), ours ${verdict.got}`,
          );
        }
      }
    }
    if (mismatches.length > 0) console.log(mismatches.join("\n"));
    equal(mismatches.join("\n"), "");
    // The table is not all refusals: a good share of lines is accepted by ssh-keygen.
    equal(accepted > (CASES === TABLE ? 40 : 5), true, `only ${accepted} accepted verdicts`);
  });
});

Deno.test("allowed signers: the finding's lines are refused by verify-signature, check and verify alike (one reader)", async () => {
  await withSandbox(async (box) => {
    await writeTree(box.project, {
      ".claude/skills/pdf/SKILL.md": skillMd("pdf", "Fill PDF forms.", "Body."),
    });
    const pub = await newKey(box, "ana");
    await signSkill(box, "pdf");
    equal((await box.cli("lock")).code, 0);
    await setSigners(box, { allowed_signers: "signers", require: true });
    const sig = `${SKILLS}/pdf.skills-anywhere.sig`;
    // Each revives an expired key, makes a git-only key a skills signer, or starts at time 0.
    const hostile = [
      `ana@example.com valid-before="20200101Z",valid-before="20990101Z" ${pub}`,
      `ana@example.com namespaces="git",namespaces="skills-anywhere" ${pub}`,
      `ana@example.com valid-after="19700101Z" ${pub}`,
    ];
    for (const line of hostile) {
      await writeTree(box.project, { signers: `${line}\n` });
      const named = await box.cli(
        "verify-signature",
        `${SKILLS}/pdf`,
        "--signature",
        sig,
        "--allowed-signers",
        "signers",
      );
      equal(named.code, 2, `${line}\n${named.stdout}${named.stderr}`);
      match(named.stderr, /allowed signers line 1: (bad options|invalid)/);
      const check = await box.cli(
        "check",
        "--allowed-signers",
        "signers",
        `${SKILLS}/pdf/SKILL.md`,
      );
      equal(check.code, 2, `${line}\n${check.stderr}`);
      const verify = await box.cli("verify");
      equal(verify.code, 2, `${line}\n${verify.stderr}`);
      equal(verify.stderr.includes(pub.split(" ")[1]), false, "never quotes the line");
    }
    // The same key on a plain line is accepted by all three: the refusals were the options.
    await writeTree(box.project, { signers: `ana@example.com ${pub}\n` });
    const good = await box.cli(
      "verify-signature",
      `${SKILLS}/pdf`,
      "--signature",
      sig,
      "--allowed-signers",
      "signers",
    );
    equal(good.code, 0, good.stderr);
    equal(
      (await box.cli("check", "--allowed-signers", "signers", `${SKILLS}/pdf/SKILL.md`)).code,
      0,
    );
    equal((await box.cli("verify")).code, 0);
  });
});

Deno.test("allowed signers: local times get ssh-keygen's verdict under zones with summer time too", async () => {
  for (const zone of ["America/New_York", "Australia/Sydney"]) {
    const child = await run(Deno.execPath(), [
      "test",
      "--config",
      "deno.dev.json",
      "-A",
      "--filter",
      "every line of the table",
      fileURLToPath(import.meta.url),
    ], { env: { TZ: zone, PARITY_LOCAL_TIMES: "1", NO_COLOR: "1" } });
    equal(child.code, 0, `${zone}:\n${child.stdout}${child.stderr}`);
    match(child.stdout, /1 passed/);
  }
});
