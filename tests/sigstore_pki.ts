// A self-contained Sigstore test PKI made with the real openssl CLI: a root CA, Fulcio-like leaf
// certificates (a SAN identity and the OIDC-issuer extension 1.3.6.1.4.1.57264.1.8), a timestamp
// authority answering real RFC 3161 requests, DSSE envelopes over in-toto statements signed with
// node:crypto, and the trusted root JSON naming the CA and the TSA. Nothing is mocked.
import { createHash, createPrivateKey, sign } from "node:crypto";
import { run } from "./helpers.ts";

/** A CA: its key and certificate files. */
export interface Ca {
  key: string;
  cert: string;
}

/** A test PKI in one folder: the trusted CA, the TSA signed by it, and a foreign CA. */
export interface Pki {
  dir: string;
  ca: Ca;
  tsa: Ca;
  foreign: Ca;
}

async function openssl(dir: string, args: string[], stdin?: string): Promise<string> {
  const result = await run("openssl", args, {
    cwd: dir,
    stdin: stdin === undefined ? undefined : new TextEncoder().encode(stdin),
  });
  if (result.code !== 0) throw new Error(`openssl ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

const EC = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];

/** A self-signed root CA named `name`. */
async function rootCa(dir: string, name: string): Promise<Ca> {
  const ca = { key: `${dir}/${name}.key`, cert: `${dir}/${name}.crt` };
  await openssl(dir, [
    "req",
    "-x509",
    ...EC,
    "-keyout",
    ca.key,
    "-out",
    ca.cert,
    "-days",
    "3650",
    "-subj",
    `/O=test/CN=${name}`,
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]); // deno-fmt-ignore
  return ca;
}

/** A certificate `name` issued by `issuer` with the extensions of `section` (an openssl config). */
async function issue(dir: string, issuer: Ca, name: string, section: string): Promise<Ca> {
  const out = { key: `${dir}/${name}.key`, cert: `${dir}/${name}.crt` };
  await Deno.writeTextFile(`${dir}/${name}.cnf`, `[ext]\n${section}\n`);
  await openssl(dir, [
    "req",
    "-new",
    ...EC,
    "-keyout",
    out.key,
    "-subj",
    `/O=test/CN=${name}`,
    "-out",
    `${dir}/${name}.csr`,
  ]);
  await openssl(dir, [
    "x509",
    "-req",
    "-in",
    `${dir}/${name}.csr`,
    "-CA",
    issuer.cert,
    "-CAkey",
    issuer.key,
    "-set_serial",
    String(Math.floor(Math.random() * 1e9) + 1),
    "-days",
    "2",
    "-extfile",
    `${dir}/${name}.cnf`,
    "-extensions",
    "ext",
    "-out",
    out.cert,
  ]); // deno-fmt-ignore
  return out;
}

/** Makes the PKI in `dir`. */
export async function makePki(dir: string): Promise<Pki> {
  const ca = await rootCa(dir, "root");
  const foreign = await rootCa(dir, "foreign");
  const tsa = await issue(
    dir,
    ca,
    "tsa",
    "basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=critical,timeStamping",
  );
  return { dir, ca, tsa, foreign };
}

/** A Fulcio-like leaf: SAN `identity` (an email address or a URI) and OIDC issuer `issuer`. */
export function leaf(pki: Pki, identity: string, issuer: string, by: Ca = pki.ca): Promise<Ca> {
  const san = identity.includes("://") ? `URI:${identity}` : `email:${identity}`;
  return issue(
    pki.dir,
    by,
    `leaf-${crypto.randomUUID()}`,
    [
      "basicConstraints=critical,CA:FALSE",
      "keyUsage=critical,digitalSignature",
      "extendedKeyUsage=codeSigning",
      `subjectAltName=critical,${san}`,
      `1.3.6.1.4.1.57264.1.8=ASN1:UTF8String:${issuer}`,
    ].join("\n"),
  );
}

/** A certificate file's DER bytes, base64. */
async function derBase64(path: string): Promise<string> {
  const pem = await Deno.readTextFile(path);
  return pem.replace(/-----[^-]+-----/g, "").replace(/\s+/g, "");
}

/** The trusted root JSON naming `ca` (and the TSA under the trusted CA). */
export async function trustedRoot(pki: Pki, ca: Ca = pki.ca): Promise<string> {
  const cert = async (path: string) => ({ rawBytes: await derBase64(path) });
  const start = "2020-01-01T00:00:00Z";
  return JSON.stringify({
    mediaType: "application/vnd.dev.sigstore.trustedroot+json;version=0.1",
    tlogs: [],
    certificateAuthorities: [{
      subject: { organization: "test", commonName: "root" },
      uri: "https://fulcio.test",
      certChain: { certificates: [await cert(ca.cert)] },
      validFor: { start },
    }],
    ctlogs: [],
    timestampAuthorities: [{
      subject: { organization: "test", commonName: "tsa" },
      uri: "https://tsa.test",
      certChain: { certificates: [await cert(pki.tsa.cert), await cert(pki.ca.cert)] },
      validFor: { start },
    }],
  });
}

/** A real RFC 3161 timestamp response over `data` from the PKI's TSA, base64. */
async function timestamp(pki: Pki, data: Uint8Array): Promise<string> {
  const id = crypto.randomUUID();
  const dir = pki.dir;
  await Deno.writeFile(`${dir}/${id}.bin`, data);
  await Deno.writeTextFile(`${dir}/${id}.serial`, "01\n");
  await Deno.writeTextFile(
    `${dir}/${id}.cnf`,
    [
      "[tsa]",
      "default_tsa = t",
      "[t]",
      `serial = ${dir}/${id}.serial`,
      "crypto_device = builtin",
      "signer_digest = sha256",
      "default_policy = 1.2.3.4.1",
      "digests = sha256",
      "ess_cert_id_alg = sha256",
      "",
    ].join("\n"),
  );
  await openssl(dir, [
    "ts",
    "-query",
    "-data",
    `${id}.bin`,
    "-sha256",
    "-cert",
    "-out",
    `${id}.tsq`,
  ]);
  await openssl(dir, [
    "ts",
    "-reply",
    "-config",
    `${id}.cnf`,
    "-queryfile",
    `${id}.tsq`,
    "-signer",
    pki.tsa.cert,
    "-inkey",
    pki.tsa.key,
    "-out",
    `${id}.tsr`,
  ]); // deno-fmt-ignore
  return btoa(String.fromCharCode(...await Deno.readFile(`${dir}/${id}.tsr`)));
}

/** The DSSE pre-authentication encoding. */
function pae(type: string, payload: Uint8Array): Uint8Array {
  const head = new TextEncoder().encode(`DSSEv1 ${type.length} ${type} ${payload.length} `);
  const out = new Uint8Array(head.length + payload.length);
  out.set(head);
  out.set(payload, head.length);
  return out;
}

const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** An in-toto statement naming `digest` as subject `name`. */
export function statement(digest: string, name = "pdf"): string {
  return JSON.stringify({
    _type: "https://in-toto.io/Statement/v1",
    subject: [{ name, digest: { sha256: digest } }],
    predicateType: "https://skills-anywhere.dev/review/v1",
    predicate: { reviewed: true },
  });
}

/** What a bundle is made of; `payload` replaces the signed payload after signing (a tampering). */
export interface BundleParts {
  signer: Ca;
  payload: string;
  payloadType?: string;
  tamperedPayload?: string;
  version?: "0.2" | "0.3";
}

/** A Sigstore bundle (JSON text): the DSSE envelope, the leaf certificate, a TSA timestamp. */
export async function makeBundle(pki: Pki, parts: BundleParts): Promise<string> {
  const type = parts.payloadType ?? "application/vnd.in-toto+json";
  const payload = new TextEncoder().encode(parts.payload);
  const key = createPrivateKey(await Deno.readTextFile(parts.signer.key));
  const signature = new Uint8Array(sign("sha256", pae(type, payload), key));
  const certificate = { rawBytes: await derBase64(parts.signer.cert) };
  const version = parts.version ?? "0.3";
  const shown = parts.tamperedPayload === undefined
    ? payload
    : new TextEncoder().encode(parts.tamperedPayload);
  return JSON.stringify({
    mediaType: `application/vnd.dev.sigstore.bundle${
      version === "0.3" ? ".v0.3+json" : "+json;version=0.2"
    }`,
    verificationMaterial: {
      ...(version === "0.3"
        ? { certificate }
        : { x509CertificateChain: { certificates: [certificate] } }),
      tlogEntries: [],
      timestampVerificationData: {
        rfc3161Timestamps: [{ signedTimestamp: await timestamp(pki, signature) }],
      },
    },
    dsseEnvelope: {
      payload: b64(shown),
      payloadType: type,
      signatures: [{ sig: b64(signature), keyid: "" }],
    },
  });
}

/** SHA-256 hex of text, for tests that need a digest of something else. */
export const sha256Hex = (text: string) => createHash("sha256").update(text).digest("hex");
