// Received manifest bytes (parseManifest in lib/bundle/_manifest.ts): the size cap, strict UTF-8,
// JSON, then the format's validation. `bundle --against` and the browser page both read a
// manifest with it; their end-to-end tests are bundle_cli_test.ts and web_test.ts.
import { deepEqual, equal, ok, rejects } from "node:assert/strict";
import {
  assertManifestSize,
  buildManifest,
  BundleError,
  type BundleErrorKind,
  parseManifest,
} from "../lib/bundle/_manifest.ts";
import { MAX_CONFIG_BYTES } from "../lib/limits.ts";

const encoder = new TextEncoder();
const EMPTY_SHA = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

async function refusedBytes(bytes: Uint8Array, kind: BundleErrorKind): Promise<void> {
  await rejects(() => parseManifest(bytes), (error: unknown) => {
    ok(error instanceof BundleError, `expected a BundleError, got ${error}`);
    equal(error.kind, kind);
    return true;
  });
}

Deno.test("parseManifest: the bytes of a manifest give the manifest back", async () => {
  const manifest = await buildManifest([{ path: "SKILL.md", bytes: 0, sha256: EMPTY_SHA }]);
  deepEqual(await parseManifest(encoder.encode(JSON.stringify(manifest, null, 2))), manifest);
});

Deno.test("parseManifest: over the cap, malformed UTF-8, a BOM, not JSON, not a manifest", async () => {
  const manifest = await buildManifest([{ path: "SKILL.md", bytes: 0, sha256: EMPTY_SHA }]);
  const text = JSON.stringify(manifest);
  const padded = text + " ".repeat(MAX_CONFIG_BYTES - text.length);
  deepEqual(await parseManifest(encoder.encode(padded)), manifest);
  await refusedBytes(encoder.encode(padded + " "), "manifest-too-large");
  await refusedBytes(new Uint8Array([0x7b, 0xff, 0x7d]), "manifest-not-utf8");
  await refusedBytes(
    new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode(text)]),
    "manifest-not-json",
  );
  await refusedBytes(encoder.encode("{"), "manifest-not-json");
  await refusedBytes(encoder.encode("{}"), "not-manifest");
  await refusedBytes(encoder.encode(text.replace(EMPTY_SHA, "0".repeat(64))), "digest-mismatch");
});

Deno.test("assertManifestSize: refuses a file over the cap before it is read", () => {
  assertManifestSize(MAX_CONFIG_BYTES);
  try {
    assertManifestSize(MAX_CONFIG_BYTES + 1);
    ok(false, "expected a refusal");
  } catch (error) {
    ok(error instanceof BundleError);
    equal(error.kind, "manifest-too-large");
  }
});
