// Sigstore bundles over a skill directory, verified offline against a supplied trusted root:
// a real test PKI (openssl: root CA, Fulcio-like leaf, RFC 3161 timestamp authority), real DSSE
// signatures; each refusal has its kind.
import { equal } from "node:assert/strict";
import { verifySigstoreBundle } from "../lib/sign/sigstore.ts";
import { leaf, makeBundle, makePki, type Pki, statement, trustedRoot } from "./sigstore_pki.ts";
import { withTempDir } from "./helpers.ts";

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
