// `sign` and `verify-signature` end to end over real child processes, with keys and signatures of
// the real ssh-keygen: both directions of interoperability, each refusal's one line and exit
// code, and no private key byte written anywhere.
import { equal, match, ok } from "node:assert/strict";
import { parsePrivateKey } from "../lib/sign/_keys.ts";
import { signMessage } from "../lib/sign/_sshsig.ts";
import { listTree, run, runCli, withTempDir, writeTree } from "./helpers.ts";

const NS = "skills-anywhere";
const SKILL = "---\nname: pdf\ndescription: Read PDFs. Use for PDFs.\n---\nRun scripts/x.py.\n";

async function sshKeygen(args: string[], options: { cwd?: string; stdin?: Uint8Array } = {}) {
  const result = await run("ssh-keygen", args, options);
  if (result.code !== 0) throw new Error(`ssh-keygen ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

/** A skill `pdf`, a second skill `other`, an Ed25519 key `key` and `allowed` trusting it for ana@x. */
async function setUp(dir: string, type = "ed25519") {
  await writeTree(dir, {
    "skills/pdf/SKILL.md": SKILL,
    "skills/pdf/scripts/x.py": "print(1)\n",
    "skills/other/SKILL.md": SKILL.replace("pdf", "other"),
  });
  await sshKeygen(["-q", "-t", type, "-N", "", "-C", "ana", "-f", `${dir}/key`]);
  const pub = (await Deno.readTextFile(`${dir}/key.pub`)).split(" ").slice(0, 2).join(" ");
  await Deno.writeTextFile(`${dir}/allowed`, `ana@x ${pub}\n`);
  return pub;
}

/** The canonical bundle message of a directory, from `bundle --json`. */
async function message(dir: string): Promise<Uint8Array> {
  const result = await runCli(["bundle", "--json", dir]);
  equal(result.code, 0, result.stderr);
  const files = JSON.parse(result.stdout).files as {
    path: string;
    bytes: number;
    sha256: string;
  }[];
  const text = JSON.stringify([
    "skills-anywhere-bundle-1",
    files.map((f) => [f.path, f.bytes, f.sha256]),
  ]);
  return new TextEncoder().encode(text);
}

const verify = (dir: string, ...extra: string[]) =>
  runCli([
    "verify-signature",
    "skills/pdf",
    "--signature",
    "pdf.sig",
    "--allowed-signers",
    "allowed",
    ...extra,
  ], { cwd: dir });

/** Exit 1 or 2 with exactly one line on stderr and nothing on stdout. */
function oneLine(
  result: { code: number; stdout: string; stderr: string },
  code: number,
  words: RegExp,
) {
  equal(result.code, code, result.stderr);
  equal(result.stdout, "");
  equal(result.stderr.split("\n").length, 2, result.stderr);
  match(result.stderr, words);
}

Deno.test("sign writes <dir>.skills-anywhere.sig beside the directory; ssh-keygen -Y verify accepts it", async () => {
  await withTempDir(async (dir) => {
    for (const type of ["ed25519", "rsa", "ecdsa"]) {
      await Deno.remove(`${dir}/key`).catch(() => {});
      await Deno.remove(`${dir}/key.pub`).catch(() => {});
      await setUp(dir, type);
      const signed = await runCli(["sign", "skills/pdf", "--key", "key", "--identity", "ana@x"], {
        cwd: dir,
      });
      equal(signed.code, 0, signed.stderr);
      match(signed.stdout, /Signature: "skills\/pdf\.skills-anywhere\.sig"/);
      match(signed.stdout, /Allowed signers line: ana@x namespaces="skills-anywhere" /);
      const args = ["-Y", "verify", "-f", "allowed", "-I", "ana@x", "-n", NS, "-s"];
      const good = await sshKeygen([...args, "skills/pdf.skills-anywhere.sig"], {
        cwd: dir,
        stdin: await message(`${dir}/skills/pdf`),
      });
      match(good, /^Good "skills-anywhere" signature for ana@x/, type);
      ok(!(await listTree(`${dir}/skills/pdf`)).some((p) => p.endsWith(".sig")));
    }
  });
});

Deno.test("verify-signature accepts what ssh-keygen -Y sign made over the bundle message", async () => {
  await withTempDir(async (dir) => {
    await setUp(dir);
    await Deno.writeFile(`${dir}/msg`, await message(`${dir}/skills/pdf`));
    await sshKeygen(["-Y", "sign", "-f", `${dir}/key`, "-n", NS, `${dir}/msg`]);
    await Deno.rename(`${dir}/msg.sig`, `${dir}/pdf.sig`);
    const good = await verify(dir, "--identity", "ana@x");
    equal(good.code, 0, good.stderr);
    match(good.stdout, /^Good "skills-anywhere" signature for "ana@x" with ED25519 key SHA256:/);
    const json = JSON.parse((await verify(dir, "--json")).stdout);
    equal(json.schema, "skills-anywhere-signature-verification-1");
    equal(json.valid, true);
    equal(json.principal, "ana@x");
    match(json.fingerprint, /^SHA256:[A-Za-z0-9+/]{43}$/);
  });
});

Deno.test("verify-signature: a tampered file, a foreign key, another directory are each exit 1 in one line", async () => {
  await withTempDir(async (dir) => {
    await setUp(dir);
    equal(
      (await runCli(["sign", "skills/pdf", "--key", "key", "--out", "pdf.sig"], { cwd: dir })).code,
      0,
    );
    equal((await verify(dir)).code, 0);

    await Deno.writeTextFile(`${dir}/skills/pdf/scripts/x.py`, "print(2)\n");
    oneLine(
      await verify(dir),
      1,
      /invalid signature for "skills\/pdf": the signature does not match/,
    );
    await Deno.writeTextFile(`${dir}/skills/pdf/scripts/x.py`, "print(1)\n");

    const other = await runCli(["sign", "skills/other", "--key", "key", "--out", "pdf.sig"], {
      cwd: dir,
    });
    equal(other.code, 0, other.stderr);
    oneLine(await verify(dir), 1, /does not match/);

    await sshKeygen(["-q", "-t", "ed25519", "-N", "", "-f", `${dir}/eve`]);
    equal(
      (await runCli(["sign", "skills/pdf", "--key", "eve", "--out", "pdf.sig"], { cwd: dir })).code,
      0,
    );
    oneLine(await verify(dir), 1, /no allowed signer has key SHA256:/);
  });
});

Deno.test("verify-signature: a wrong namespace, an expired valid-before, another identity are exit 1", async () => {
  await withTempDir(async (dir) => {
    const pub = await setUp(dir);
    await Deno.writeFile(`${dir}/msg`, await message(`${dir}/skills/pdf`));
    await sshKeygen(["-Y", "sign", "-f", `${dir}/key`, "-n", "git", `${dir}/msg`]);
    await Deno.rename(`${dir}/msg.sig`, `${dir}/pdf.sig`);
    oneLine(await verify(dir), 1, /namespace "git", not "skills-anywhere"/);

    equal(
      (await runCli(["sign", "skills/pdf", "--key", "key", "--out", "pdf.sig"], { cwd: dir })).code,
      0,
    );
    await Deno.writeTextFile(`${dir}/allowed`, `ana@x valid-before="20200101Z" ${pub}\n`);
    oneLine(await verify(dir), 1, /allowed signers line 1 expired at 2020-01-01T00:00:00Z/);
    await Deno.writeTextFile(`${dir}/allowed`, `ana@x namespaces="git" ${pub}\n`);
    oneLine(await verify(dir), 1, /does not allow namespace "skills-anywhere"/);
    await Deno.writeTextFile(`${dir}/allowed`, `ana@x ${pub}\n`);
    oneLine(await verify(dir, "--identity", "bob@x"), 1, /no allowed signer for "bob@x"/);
  });
});

Deno.test("verify-signature: a truncated or garbage signature, a missing directory, bad usage are exit 2", async () => {
  await withTempDir(async (dir) => {
    await setUp(dir);
    equal(
      (await runCli(["sign", "skills/pdf", "--key", "key", "--out", "pdf.sig"], { cwd: dir })).code,
      0,
    );
    const armored = await Deno.readTextFile(`${dir}/pdf.sig`);
    const lines = armored.split("\n");
    await Deno.writeTextFile(
      `${dir}/pdf.sig`,
      [lines[0], lines[1].slice(0, 40), ...lines.slice(-2)].join("\n"),
    );
    oneLine(await verify(dir), 2, /verify-signature refused: not an SSH signature/);
    await Deno.writeTextFile(`${dir}/pdf.sig`, "garbage\n");
    oneLine(await verify(dir), 2, /not an SSH signature \(no BEGIN SSH SIGNATURE line\)/);
    const json = JSON.parse((await verify(dir, "--json")).stdout);
    equal(json.kind, "not-signature");
    await Deno.writeTextFile(`${dir}/pdf.sig`, armored);
    await Deno.writeTextFile(`${dir}/allowed`, "ana@x not-a-key\n");
    oneLine(await verify(dir), 2, /allowed signers line 1/);
    oneLine(
      await runCli([
        "verify-signature",
        "nope",
        "--signature",
        "pdf.sig",
        "--allowed-signers",
        "allowed",
      ], { cwd: dir }),
      2,
      /"[^"]*nope"/,
    );
    oneLine(
      await runCli(["verify-signature", "skills/pdf", "--signature", "pdf.sig"], { cwd: dir }),
      2,
      /needs --allowed-signers/,
    );
    oneLine(await runCli(["sign", "skills/pdf"], { cwd: dir }), 2, /sign needs --key/);
    oneLine(
      await runCli(["sign", "skills/pdf", "--key", "key", "--out", "skills/pdf/in.sig"], {
        cwd: dir,
      }),
      2,
      /inside the signed directory/,
    );
    oneLine(
      await runCli(["sign", "skills/pdf", "--key", "key.pub"], { cwd: dir }),
      2,
      /not an OpenSSH private key/,
    );
  });
});

Deno.test("sign writes no private key byte: not in any file, not in its output", async () => {
  await withTempDir(async (dir) => {
    await setUp(dir);
    const keyText = await Deno.readTextFile(`${dir}/key`);
    const body = keyText.split("\n").filter((l) => l !== "" && !l.startsWith("-----"));
    const secrets = body.slice(2); // the first lines hold the header and the public key
    const before = new Set(await listTree(dir));
    const signed = await runCli([
      "sign",
      "skills/pdf",
      "--key",
      "key",
      "--identity",
      "\u001b[31mana",
    ], { cwd: dir });
    equal(signed.code, 0, signed.stderr);
    ok(!signed.stdout.includes("\u001b"), "the identity is printed escaped");
    const written = (await listTree(dir)).filter((p) => !before.has(p));
    equal(written.join(), "skills/pdf.skills-anywhere.sig");
    for (const path of await listTree(dir)) {
      if (path === "key" || !(await Deno.stat(`${dir}/${path}`)).isFile) continue;
      const text = await Deno.readTextFile(`${dir}/${path}`);
      for (const line of secrets) ok(!text.includes(line) && !signed.stdout.includes(line), path);
    }
  });
});

Deno.test("sign hands an encrypted key to ssh-keygen, which asks for the passphrase", async () => {
  await withTempDir(async (dir) => {
    await setUp(dir);
    await sshKeygen(["-q", "-p", "-P", "", "-N", "pass-1234", "-f", `${dir}/key`]);
    await Deno.writeTextFile(`${dir}/askpass`, "#!/bin/sh\necho pass-1234\n");
    await Deno.chmod(`${dir}/askpass`, 0o755);
    const env = { SSH_ASKPASS: `${dir}/askpass`, SSH_ASKPASS_REQUIRE: "force", DISPLAY: ":0" };
    const signed = await runCli(["sign", "skills/pdf", "--key", "key", "--out", "pdf.sig"], {
      cwd: dir,
      env,
    });
    equal(signed.code, 0, signed.stderr);
    equal((await verify(dir)).code, 0);
  });
});

Deno.test("sign refuses an encrypted key in one line when ssh-keygen is not on PATH", async () => {
  await withTempDir(async (dir) => {
    await setUp(dir);
    await sshKeygen(["-q", "-p", "-P", "", "-N", "pass-1234", "-f", `${dir}/key`]);
    await Deno.mkdir(`${dir}/empty-bin`);
    const env = { PATH: `${dir}/empty-bin` };
    const signed = await runCli(["sign", "skills/pdf", "--key", "key"], { cwd: dir, env });
    oneLine(
      signed,
      2,
      /sign refused: the private key is encrypted and ssh-keygen.* is not on PATH/,
    );
    ok(!(await listTree(dir)).some((p) => p.endsWith(".sig")));
  });
});

/** Whether text holds a raw escape or right-to-left override (what escaping must remove). */
const raw = (text: string) => text.includes("\u001b") || text.includes("\u202e");

Deno.test("verify-signature prints a hostile namespace and identity escaped", async () => {
  await withTempDir(async (dir) => {
    const pub = await setUp(dir);
    const key = await parsePrivateKey(await Deno.readTextFile(`${dir}/key`));
    ok(key.ok);
    const hostile = "\u202egit\u001b[31m";
    const bytes = await message(`${dir}/skills/pdf`) as Uint8Array<ArrayBuffer>;
    await Deno.writeTextFile(`${dir}/pdf.sig`, await signMessage(bytes, key.key, hostile));
    const refused = await verify(dir);
    oneLine(refused, 1, /wrong|namespace/);
    ok(!raw(refused.stderr), refused.stderr);
    await Deno.writeTextFile(`${dir}/pdf.sig`, await signMessage(bytes, key.key, NS));
    await Deno.writeTextFile(`${dir}/allowed`, `"${hostile}" ${pub}\n`);
    const good = await verify(dir);
    equal(good.code, 0, good.stderr);
    ok(!raw(good.stdout), good.stdout);
  });
});
