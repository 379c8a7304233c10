// Sigstore bundles over a skill directory, verified offline against a supplied trusted root:
// a real test PKI (openssl: root CA, Fulcio-like leaf, RFC 3161 timestamp authority), real DSSE
// signatures; each refusal has its kind.
import { equal, match } from "node:assert/strict";
import nodeCrypto from "node:crypto";
import { readBundle } from "../lib/bundle/_read.ts";
import { verifySigstoreBundle } from "../lib/sigstore.ts";
import { leaf, makeBundle, makePki, type Pki, statement, trustedRoot } from "./sigstore_pki.ts";
import { ROOT, runCli, withTempDir, writeTree } from "./helpers.ts";

const ID = "ana@example.com";
const ISSUER = "https://issuer.example";
const DIGEST = "ab".repeat(32);
const policy = { certificateIdentity: ID, certificateIssuer: ISSUER };
const bytes = (text: string) => new TextEncoder().encode(text);

async function withPki(fn: (pki: Pki) => Promise<void>) {
  await withTempDir(async (dir) => fn(await makePki(dir)));
}

Deno.test("a DSSE in-toto bundle over the bundle digest, from a leaf of the trusted CA, verifies", async () => {
  await withPki(async (pki) => {
    const signer = await leaf(pki, ID, ISSUER);
    const bundle = await makeBundle(pki, { signer, payload: statement(DIGEST) });
    const result = verifySigstoreBundle(
      bytes(bundle),
      bytes(await trustedRoot(pki)),
      DIGEST,
      policy,
    );
    equal(result.ok, true, JSON.stringify(result));
  });
});

/** The verdict of a bundle made from `parts` (signed by a leaf of `identity`, `issuer`, `by`). */
async function verdict(
  pki: Pki,
  options: {
    identity?: string;
    issuer?: string;
    foreign?: boolean;
    payload?: string;
    payloadType?: string;
    tamperedPayload?: string;
    version?: "0.2" | "0.3";
    digest?: string;
  } = {},
) {
  const by = options.foreign ? pki.foreign : pki.ca;
  const signer = await leaf(pki, options.identity ?? ID, options.issuer ?? ISSUER, by);
  const bundle = await makeBundle(pki, {
    signer,
    payload: options.payload ?? statement(DIGEST),
    payloadType: options.payloadType,
    tamperedPayload: options.tamperedPayload,
    version: options.version,
  });
  const root = bytes(await trustedRoot(pki));
  return verifySigstoreBundle(bytes(bundle), root, options.digest ?? DIGEST, policy);
}

const kindOf = (result: { ok: boolean; kind?: string }) => result.ok ? "ok" : result.kind;

Deno.test("a v0.2 bundle with a certificate chain and a URI identity verifies, and reports who", async () => {
  await withPki(async (pki) => {
    const identity = "https://github.com/acme/skills/.github/workflows/sign.yml@refs/heads/main";
    const signer = await leaf(pki, identity, ISSUER);
    const bundle = await makeBundle(pki, { signer, payload: statement(DIGEST), version: "0.2" });
    const result = verifySigstoreBundle(bytes(bundle), bytes(await trustedRoot(pki)), DIGEST, {
      certificateIdentity: identity,
      certificateIssuer: ISSUER,
    });
    if (!result.ok) throw new Error(result.message);
    equal(result.identity, identity);
    equal(result.issuer, ISSUER);
    equal(result.subject, "pdf");
    equal(result.mediaType, "application/vnd.dev.sigstore.bundle+json;version=0.2");
  });
});

Deno.test("a statement over another directory's digest is a subject mismatch", async () => {
  await withPki(async (pki) => {
    equal(kindOf(await verdict(pki, { digest: "cd".repeat(32) })), "subject-mismatch");
  });
});

Deno.test("another signer, or the right signer from another OIDC issuer, fails the policy", async () => {
  await withPki(async (pki) => {
    equal(kindOf(await verdict(pki, { identity: "eve@example.com" })), "identity-mismatch");
    equal(kindOf(await verdict(pki, { issuer: "https://evil.example" })), "issuer-mismatch");
    // exact match: a longer identity containing the expected one is not it
    equal(kindOf(await verdict(pki, { identity: `x${ID}` })), "identity-mismatch");
  });
});

Deno.test("a certificate from a CA the root does not name is untrusted", async () => {
  await withPki(async (pki) => {
    equal(kindOf(await verdict(pki, { foreign: true })), "untrusted");
  });
});

Deno.test("a payload changed after signing is a bad signature, even naming the right digest", async () => {
  await withPki(async (pki) => {
    const payload = statement("cd".repeat(32));
    equal(
      kindOf(await verdict(pki, { payload, tamperedPayload: statement(DIGEST) })),
      "bad-signature",
    );
  });
});

Deno.test("a signed payload that is not an in-toto statement is refused as such", async () => {
  await withPki(async (pki) => {
    equal(kindOf(await verdict(pki, { payloadType: "text/plain" })), "not-in-toto");
    equal(kindOf(await verdict(pki, { payload: '{"_type":"other"}' })), "not-in-toto");
    // a message-signature bundle (cosign sign-blob) signs a digest, not a statement
    const signer = await leaf(pki, ID, ISSUER);
    const bundle = JSON.parse(await makeBundle(pki, { signer, payload: statement(DIGEST) }));
    const { sig } = bundle.dsseEnvelope.signatures[0];
    delete bundle.dsseEnvelope;
    const digest = btoa(String.fromCharCode(...DIGEST.match(/../g)!.map((h) => parseInt(h, 16))));
    bundle.messageSignature = { messageDigest: { algorithm: "SHA2_256", digest }, signature: sig };
    const root = bytes(await trustedRoot(pki));
    const blob = verifySigstoreBundle(bytes(JSON.stringify(bundle)), root, DIGEST, policy);
    equal(kindOf(blob), "not-in-toto");
  });
});

Deno.test("garbage, truncated or oversized bundles and trusted roots are bad input", async () => {
  await withPki(async (pki) => {
    const signer = await leaf(pki, ID, ISSUER);
    const bundle = await makeBundle(pki, { signer, payload: statement(DIGEST) });
    const root = await trustedRoot(pki);
    const check = (b: string | Uint8Array, r: string) =>
      kindOf(verifySigstoreBundle(typeof b === "string" ? bytes(b) : b, bytes(r), DIGEST, policy));
    equal(check(bundle.slice(0, bundle.length / 2), root), "not-bundle");
    equal(check("\x1b[31mnot json", root), "not-bundle");
    equal(check("{}", root), "not-bundle");
    equal(check(new Uint8Array([0xff, 0xfe]), root), "not-bundle");
    equal(check(new Uint8Array(300 * 1024).fill(32), root), "not-bundle");
    equal(check(bundle, "[]"), "bad-trusted-root");
    equal(check(bundle, root.slice(0, 40)), "bad-trusted-root");
    const noCa = JSON.stringify({ ...JSON.parse(root), certificateAuthorities: [] });
    equal(check(bundle, noCa), "bad-trusted-root");
  });
});

Deno.test("a bundle without a verifiable timestamp is untrusted", async () => {
  await withPki(async (pki) => {
    const signer = await leaf(pki, ID, ISSUER);
    const bundle = JSON.parse(await makeBundle(pki, { signer, payload: statement(DIGEST) }));
    const root = bytes(await trustedRoot(pki));
    const none = { ...bundle, verificationMaterial: { ...bundle.verificationMaterial } };
    delete none.verificationMaterial.timestampVerificationData;
    equal(
      kindOf(verifySigstoreBundle(bytes(JSON.stringify(none)), root, DIGEST, policy)),
      "untrusted",
    );
    // a timestamp over other bytes (another signature) does not count
    const other = JSON.parse(
      await makeBundle(pki, { signer, payload: statement("ef".repeat(32)) }),
    );
    bundle.verificationMaterial.timestampVerificationData =
      other.verificationMaterial.timestampVerificationData;
    equal(
      kindOf(verifySigstoreBundle(bytes(JSON.stringify(bundle)), root, DIGEST, policy)),
      "untrusted",
    );
  });
});

const SKILL = "---\nname: pdf\ndescription: Read PDFs. Use for PDFs.\n---\nRun scripts/x.py.\n";

/** A skill `pdf` and `other` under `dir`, a bundle over `pdf` by ana, and the trusted root. */
async function cliSetUp(pki: Pki) {
  const dir = pki.dir;
  await writeTree(dir, {
    "skills/pdf/SKILL.md": SKILL,
    "skills/pdf/scripts/x.py": "print(1)\n",
    "skills/other/SKILL.md": SKILL.replace("pdf", "other"),
  });
  const digest = (await readBundle(`${dir}/skills/pdf`)).manifest.sha256;
  const signer = await leaf(pki, ID, ISSUER);
  await Deno.writeTextFile(
    `${dir}/pdf.sigstore.json`,
    await makeBundle(pki, { signer, payload: statement(digest) }),
  );
  await Deno.writeTextFile(`${dir}/trusted_root.json`, await trustedRoot(pki));
  return digest;
}

const cli = (dir: string, skill: string, ...extra: string[]) =>
  runCli([
    "verify-signature",
    skill,
    "--sigstore-bundle",
    "pdf.sigstore.json",
    "--trusted-root",
    "trusted_root.json",
    "--certificate-oidc-issuer",
    ISSUER,
    ...extra,
  ], { cwd: dir }); // deno-fmt-ignore

/** Exit `code` with exactly one line on stderr and nothing on stdout. */
function oneLine(result: { code: number; stdout: string; stderr: string }, code: number, pattern: RegExp) {
  equal(result.code, code, result.stderr);
  equal(result.stdout, "");
  equal(result.stderr.split("\n").length, 2, result.stderr);
  match(result.stderr, pattern);
}

Deno.test("verify-signature --sigstore-bundle: exit 0 with who signed, as text and as JSON", async () => {
  await withPki(async (pki) => {
    const digest = await cliSetUp(pki);
    const good = await cli(pki.dir, "skills/pdf", "--certificate-identity", ID);
    equal(good.code, 0, good.stderr);
    equal(
      good.stdout,
      `Good Sigstore signature for "${ID}" (OIDC issuer "${ISSUER}") over "skills/pdf"\n`,
    );
    const json = await cli(pki.dir, "skills/pdf", "--certificate-identity", ID, "--json");
    equal(json.code, 0, json.stderr);
    const verdict = JSON.parse(json.stdout);
    equal(verdict.valid, true);
    equal(verdict.method, "sigstore");
    equal(verdict.identity, ID);
    equal(verdict.issuer, ISSUER);
    equal(verdict.bundle_sha256, digest);
    equal(verdict.subject, "pdf");
  });
});

Deno.test("verify-signature --sigstore-bundle refuses another directory, signer or file with one line", async () => {
  await withPki(async (pki) => {
    await cliSetUp(pki);
    const id = ["--certificate-identity", ID];
    oneLine(
      await cli(pki.dir, "skills/other", ...id),
      1,
      /invalid signature for "skills\/other": .*no subject with this directory's bundle digest/,
    );
    oneLine(
      await cli(pki.dir, "skills/pdf", "--certificate-identity", "eve@example.com"),
      1,
      /signed by "ana@example.com", not "eve@example.com"/,
    );
    await Deno.writeTextFile(`${pki.dir}/skills/pdf/scripts/x.py`, "print(2)\n");
    oneLine(
      await cli(pki.dir, "skills/pdf", ...id),
      1,
      /no subject with this directory's bundle digest/,
    );
    await Deno.writeTextFile(`${pki.dir}/pdf.sigstore.json`, '{"mediaType": "\u001b[2J"');
    oneLine(
      await cli(pki.dir, "skills/pdf", ...id),
      2,
      /^dsh-skills-anywhere: verify-signature refused: not a Sigstore bundle: not JSON\n$/,
    );
    const json = await cli(pki.dir, "skills/pdf", ...id, "--json");
    equal(json.code, 2);
    equal(JSON.parse(json.stdout).kind, "not-bundle");
  });
});

Deno.test("a hostile identity is printed escaped, never as terminal control", async () => {
  await withPki(async (pki) => {
    await cliSetUp(pki);
    const result = await cli(
      pki.dir,
      "skills/pdf",
      "--certificate-identity",
      "\u001b[31meve\u0007",
    );
    equal(result.code, 1);
    equal(result.stderr.includes("\u001b") || result.stderr.includes("\u0007"), false);
    match(result.stderr, /\\u001b\[31meve\\u0007/);
  });
});

Deno.test("verify-signature refuses a mix of SSH and Sigstore options, or a missing one (exit 2)", async () => {
  await withPki(async (pki) => {
    await cliSetUp(pki);
    const usage =
      /^dsh-skills-anywhere: .*; run "dsh-skills-anywhere verify-signature --help" for usage\n$/;
    oneLine(
      await cli(pki.dir, "skills/pdf", "--certificate-identity", ID, "--signature", "x.sig"),
      2,
      /--signature cannot be used with --sigstore-bundle/,
    );
    oneLine(
      await cli(pki.dir, "skills/pdf", "--certificate-identity", ID, "--identity", ID),
      2,
      usage,
    );
    oneLine(await cli(pki.dir, "skills/pdf"), 2, /needs --certificate-identity <identity>/);
    const ssh = await runCli([
      "verify-signature",
      "skills/pdf",
      "--signature",
      "x",
      "--allowed-signers",
      "a",
      "--trusted-root",
      "r",
    ], { cwd: pki.dir });
    oneLine(ssh, 2, /--trusted-root cannot be used with --signature/);
    const none = await runCli(["verify-signature", "skills/pdf"], { cwd: pki.dir });
    oneLine(none, 2, /needs --signature <file> \(or --sigstore-bundle <file>\)/);
  });
});

Deno.test("the Sigstore packages load only when a Sigstore bundle is checked", async () => {
  const importers: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(`${ROOT}${dir}`)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (path.endsWith(".ts")) {
        const text = await Deno.readTextFile(`${ROOT}${path}`);
        if (/from\s+"@sigstore\//.test(text)) importers.push(`${path}: @sigstore`);
        // (its own JSDoc examples import it as "./sigstore.ts")
        const own = path === "lib/sigstore.ts";
        if (!own && /from\s+"[./]*(lib\/)?sigstore\.ts"/.test(text)) {
          importers.push(`${path}: static`);
        }
        if (/import\(\s*"[./]*(lib\/)?sigstore\.ts"\s*\)/.test(text)) {
          importers.push(`${path}: lazy`);
        }
      }
    }
  };
  for (const dir of ["lib", "cli", "mcp", "dsh", "web/src"]) await walk(dir);
  // The library's root and the npm package's `.` (dsh/mod.ts re-exports it) leave it out too.
  for (const file of ["mod.ts", "main.ts"]) {
    if (/sigstore\.ts"/.test(await Deno.readTextFile(`${ROOT}${file}`))) importers.push(file);
  }
  equal(importers.sort().join("\n"), "cli/sign.ts: lazy\nlib/sigstore.ts: @sigstore");
});

// Real bundles of the Sigstore conformance suite (testdata/sigstore/NOTICE.md): Rekor v1 and v2
// entries, SCTs and an RFC 3161 timestamp, each checked against the trusted root shipped with it.
const SAMPLES = {
  "intoto-with-custom-trust-root": {
    digest: "330a043220fa13e01d68a7db39c89e12b0c4c3b6a0346fe624b0903f1303b5b2",
    subject: "d.txt",
  },
  "rekor2-dsse-happy-path": {
    digest: "a0cfc71271d6e278e57cd332ff957c3f7043fdda354c4cbb190a30d56efa01bf",
    subject: "a.txt",
  },
};
const BEACON = {
  certificateIdentity:
    "https://github.com/sigstore-conformance/extremely-dangerous-public-oidc-beacon/.github/workflows/extremely-dangerous-oidc-beacon.yml@refs/heads/main",
  certificateIssuer: "https://token.actions.githubusercontent.com",
};
const sample = (name: string, file: string) =>
  Deno.readFileSync(`${ROOT}testdata/sigstore/${name}/${file}`);

Deno.test("public conformance bundles verify against their own trusted roots, and only them", () => {
  const verify = nodeCrypto.verify;
  for (const [name, { digest, subject }] of Object.entries(SAMPLES)) {
    const bundle = sample(name, "bundle.sigstore.json");
    const root = sample(name, "trusted_root.json");
    const result = verifySigstoreBundle(bundle, root, digest, BEACON);
    if (!result.ok) throw new Error(`${name}: ${result.message}`);
    equal(result.identity, BEACON.certificateIdentity);
    equal(result.subject, subject);
    equal(kindOf(verifySigstoreBundle(bundle, root, DIGEST, BEACON)), "subject-mismatch");
    const other = { ...BEACON, certificateIdentity: "https://github.com/acme/x" };
    equal(kindOf(verifySigstoreBundle(bundle, root, digest, other)), "identity-mismatch");
  }
  const [a, b] = Object.keys(SAMPLES);
  const crossed = verifySigstoreBundle(
    sample(a, "bundle.sigstore.json"),
    sample(b, "trusted_root.json"),
    SAMPLES[a as keyof typeof SAMPLES].digest,
    BEACON,
  );
  equal(kindOf(crossed), "untrusted");
  equal(nodeCrypto.verify, verify, "node:crypto's verify is restored");
});
