// The signing core (lib/sign/) against the real ssh-keygen: keys of every supported type, SSHSIG
// both ways, strict parsing of hostile signature bytes, the allowed-signers format and each
// verdict of verifySignature.
import { equal, match, ok } from "node:assert/strict";
import { matchPatternList, parseAllowedSigners } from "../lib/sign/_allowed_signers.ts";
import { parsePrivateKey } from "../lib/sign/_keys.ts";
import { parseSignature, signMessage } from "../lib/sign/_sshsig.ts";
import { verifySignature } from "../lib/sign/_verify.ts";
import { fromBase64, toBase64, wireString } from "../lib/sign/_wire.ts";
import { run, withTempDir } from "./helpers.ts";

const NS = "skills-anywhere";
const MESSAGE = new TextEncoder().encode('["skills-anywhere-bundle-1",[["SKILL.md",0,"e3"]]]');
const NOW = new Date("2026-06-01T12:00:00Z");
const KEY_TYPES: readonly (readonly [string, string[]])[] = [
  ["ed25519", ["-t", "ed25519"]],
  ["rsa", ["-t", "rsa", "-b", "2048"]],
  ["ecdsa256", ["-t", "ecdsa", "-b", "256"]],
  ["ecdsa384", ["-t", "ecdsa", "-b", "384"]],
  ["ecdsa521", ["-t", "ecdsa", "-b", "521"]],
];

async function sshKeygen(args: string[], options: { cwd?: string; stdin?: Uint8Array } = {}) {
  const result = await run("ssh-keygen", args, options);
  if (result.code !== 0) throw new Error(`ssh-keygen ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

/** A fresh key pair `name` (and `name.pub`) in `dir`; returns the public line. */
async function makeKey(dir: string, name: string, typeArgs: string[], passphrase = "") {
  await sshKeygen(["-q", ...typeArgs, "-N", passphrase, "-C", "test", "-f", `${dir}/${name}`]);
  return (await Deno.readTextFile(`${dir}/${name}.pub`)).trim();
}

const keyFields = (line: string) => line.split(" ").slice(0, 2).join(" ");

Deno.test("sign: every key type signs for ssh-keygen -Y verify and verifies ssh-keygen -Y sign", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeFile(`${dir}/message`, MESSAGE);
    for (const [name, args] of KEY_TYPES) {
      const pub = await makeKey(dir, name, args);
      const allowed = `ana@example.com ${keyFields(pub)}\n`;
      await Deno.writeTextFile(`${dir}/allowed`, allowed);
      const key = await parsePrivateKey(await Deno.readTextFile(`${dir}/${name}`));
      ok(key.ok, name);
      const fingerprint = (await sshKeygen(["-l", "-f", `${dir}/${name}.pub`])).split(" ")[1];
      equal(await key.key.publicKey.fingerprint(), fingerprint, name);

      await Deno.writeTextFile(`${dir}/ours.sig`, await signMessage(MESSAGE, key.key, NS));
      const theirs = ["-Y", "verify", "-f", "allowed", "-I", "ana@example.com", "-n", NS];
      match(await sshKeygen([...theirs, "-s", "ours.sig"], { cwd: dir, stdin: MESSAGE }), /^Good/);

      await sshKeygen(["-Y", "sign", "-f", `${dir}/${name}`, "-n", NS, `${dir}/message`]);
      const signature = await Deno.readFile(`${dir}/message.sig`);
      const verdict = await verifySignature(MESSAGE, signature, allowed, {
        namespace: NS,
        now: NOW,
      });
      ok(verdict.ok, `${name}: ${JSON.stringify(verdict)}`);
      equal(verdict.principal, "ana@example.com");
      equal(verdict.fingerprint, fingerprint);
      await Deno.remove(`${dir}/message.sig`);
    }
  });
});

Deno.test("sign: our armor wraps at 70 columns like ssh-keygen", async () => {
  await withTempDir(async (dir) => {
    await makeKey(dir, "k", ["-t", "ed25519"]);
    const key = await parsePrivateKey(await Deno.readTextFile(`${dir}/k`));
    ok(key.ok);
    const lines = (await signMessage(MESSAGE, key.key, NS)).split("\n");
    equal(lines[0], "-----BEGIN SSH SIGNATURE-----");
    ok(lines.slice(1, -3).every((line) => line.length === 70));
    equal(lines.at(-2), "-----END SSH SIGNATURE-----");
  });
});

Deno.test("sign: an encrypted key is refused as encrypted-key, a public key as not-key", async () => {
  await withTempDir(async (dir) => {
    await makeKey(dir, "enc", ["-t", "ed25519"], "secret-pass");
    const enc = await parsePrivateKey(await Deno.readTextFile(`${dir}/enc`));
    equal(enc.ok ? "ok" : enc.kind, "encrypted-key");
    const pub = await parsePrivateKey(await Deno.readTextFile(`${dir}/enc.pub`));
    equal(pub.ok ? "ok" : pub.kind, "not-key");
  });
});

/** A valid ssh-keygen signature of MESSAGE, its key line, and its blob. */
async function fixture(dir: string, namespace = NS) {
  const pub = await makeKey(dir, "k", ["-t", "ed25519"]);
  await Deno.writeFile(`${dir}/message`, MESSAGE);
  await sshKeygen(["-Y", "sign", "-f", `${dir}/k`, "-n", namespace, `${dir}/message`]);
  const armored = await Deno.readTextFile(`${dir}/message.sig`);
  const body = armored.trim().split("\n").slice(1, -1).join("");
  return { key: keyFields(pub), armored, blob: fromBase64(body)! };
}

const armor = (blob: Uint8Array) =>
  `-----BEGIN SSH SIGNATURE-----\n${toBase64(blob)}\n-----END SSH SIGNATURE-----\n`;
const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("sign: every truncation of a signature, trailing bytes and garbage are not-signature", async () => {
  await withTempDir(async (dir) => {
    const { blob, armored } = await fixture(dir);
    ok(parseSignature(bytes(armored)).ok);
    for (let length = 0; length < blob.length; length++) {
      const parsed = parseSignature(bytes(armor(blob.slice(0, length))));
      equal(parsed.ok ? "ok" : parsed.kind, "not-signature", `length ${length}`);
    }
    const longer = new Uint8Array([...blob, 0]);
    equal((parseSignature(bytes(armor(longer))) as { kind: string }).kind, "not-signature");
    for (const text of ["", "garbage", armored.replace("-----END SSH SIGNATURE-----", "")]) {
      equal((parseSignature(bytes(text)) as { kind: string }).kind, "not-signature");
    }
    const huge = new Uint8Array(300 * 1024).fill(65);
    match((parseSignature(huge) as { message: string }).message, /too large/);
  });
});

const SK = "sk-ssh-ed25519@openssh.com";
// A security key's public blob: type, 32-byte key, application (a line OpenSSH reads whole).
const SK_BLOB = toBase64(
  new Uint8Array([...wireString(SK), ...wireString(new Uint8Array(32)), ...wireString("ssh:")]),
);

Deno.test("allowed signers: patterns, negation, quotes, options and refused lines", () => {
  ok(matchPatternList("ana@example.com", "*@example.com"));
  ok(!matchPatternList("eve@example.com", "*@example.com,!eve@*"));
  ok(matchPatternList("a1", "a?"));
  ok(!matchPatternList("ANA@example.com", "ana@example.com"));
  ok(!matchPatternList("a".repeat(5000) + "b", "*a*a*a*a*a*a*a*a*c"));
  const key = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINPgX4m4ccKEOUaauSyWhCQG1x0Udv+oHMODxA+BuEWc";
  const parsed = parseAllowedSigners([
    "# comment",
    "",
    `"ana smith@x,bob@x" ${key} ana`,
    `  ci@x namespaces="git,skills-*",valid-after="20250101",valid-before="20270101120000Z" ${key}`,
    `ca@x cert-authority ${key}`,
    `sk@x ${SK} ${SK_BLOB}`,
  ].join("\r\n"));
  ok(parsed.ok, JSON.stringify(parsed));
  equal(parsed.signers.length, 4);
  equal(parsed.signers[0].principals, "ana smith@x,bob@x");
  equal(parsed.signers[1].namespaces, "git,skills-*");
  equal(parsed.signers[1].validBefore, Date.UTC(2027, 0, 1, 12));
  ok(parsed.signers[2].certAuthority);
  equal(parsed.signers[3].key, undefined);
  for (
    const line of [
      `x@x ${key.split(" ")[0]} AAAA`,
      `x@x unknown-opt ${key}`,
      `x@x valid-before="2026" ${key}`,
      `x@x valid-before=20260101 ${key}`,
      `x@x valid-after="20261399" ${key}`,
      `"x@x ${key}`,
      "lonely@x",
      `sk@x ${SK} ${toBase64(wireString(SK))}`,
      `x@x valid-before="20260101Z",valid-before="20300101Z" ${key}`,
      `x@x namespaces="git",namespaces="skills-anywhere" ${key}`,
      `x@x valid-after="19700101Z" ${key}`,
    ]
  ) {
    const refused = parseAllowedSigners(`# one\n${line}\n`);
    equal(refused.ok ? "ok" : refused.kind, "bad-allowed-signers", line);
    match((refused as { message: string }).message, /line 2/);
  }
});

Deno.test("verify: identity, namespaces=, validity window, namespace and bytes each decide", async () => {
  await withTempDir(async (dir) => {
    const { key, armored } = await fixture(dir);
    const sig = bytes(armored);
    const verdict = async (allowed: string, extra: { identity?: string; now?: Date } = {}) => {
      const result = await verifySignature(MESSAGE, sig, allowed, {
        namespace: NS,
        now: NOW,
        ...extra,
      });
      return result.ok ? `ok ${result.principal}` : result.kind;
    };
    equal(await verdict(`ana@x ${key}`), "ok ana@x");
    equal(await verdict(`other@x ${key}\nana@x ${key}`, { identity: "ana@x" }), "ok ana@x");
    equal(await verdict(`ana@x ${key}`, { identity: "eve@x" }), "unknown-signer");
    equal(await verdict(`*@x,!eve@x ${key}`, { identity: "eve@x" }), "unknown-signer");
    equal(await verdict(`ana@x namespaces="git" ${key}`), "namespace-not-allowed");
    equal(await verdict(`ana@x namespaces="git,skills-*" ${key}`), "ok ana@x");
    equal(await verdict(`ana@x valid-before="20260101Z" ${key}`), "expired");
    equal(await verdict(`ana@x valid-after="20270101Z" ${key}`), "not-yet-valid");
    equal(await verdict(`ana@x valid-before="20260101Z" ${key}\nbob@x ${key}`), "ok bob@x");
    equal(await verdict(`ana@x cert-authority ${key}`), "unknown-signer");
    equal(await verdict(`ana@x ${key.replace("AAAAC", "AAAAX")}`), "bad-allowed-signers");
    const other = await verifySignature(bytes("other"), sig, `ana@x ${key}`, {
      namespace: NS,
      now: NOW,
    });
    equal(other.ok ? "ok" : other.kind, "bad-signature");
  });
});

Deno.test("verify: a signature in another namespace is wrong-namespace, even from a listed key", async () => {
  await withTempDir(async (dir) => {
    const { key, armored } = await fixture(dir, "git");
    const result = await verifySignature(MESSAGE, bytes(armored), `ana@x ${key}`, {
      namespace: NS,
      now: NOW,
    });
    equal(result.ok ? "ok" : result.kind, "wrong-namespace");
  });
});
