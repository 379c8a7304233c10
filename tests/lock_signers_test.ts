/**
 * End-to-end tests of the lock's trusted signers with `verify`, over real
 * child processes, keys made by the real `ssh-keygen` and signatures made by
 * `sign`: hostile `allowed_signers` paths first (outside the project,
 * absolute, a link), then a signed project verified, an unsigned skill, a
 * foreign key, a skill edited after signing, `require: false`, SARIF, and
 * `lock` keeping the signers block.
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { withSandbox, writeTree } from "./helpers.ts";
import { parseLock, serialiseLock } from "../lib/lock/_format.ts";
import { sarifErrors } from "./sarif_schema.ts";
import {
  fingerprintOf,
  LOCK,
  newKey,
  setSigners,
  signedProject,
  signSkill,
  SKILLS,
} from "./signers_fixture.ts";

/** Any control character but the newline. */
// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** Exit 2, nothing on stdout, exactly one stderr line matching `why`. */
function oneLine(result: { code: number; stdout: string; stderr: string }, why: RegExp): void {
  equal(result.code, 2, result.stderr);
  equal(result.stdout, "");
  const lines = result.stderr.trimEnd().split("\n");
  equal(lines.length, 1, result.stderr);
  match(lines[0], why);
}

Deno.test("a lock whose allowed_signers climbs out of the project, or is absolute, is refused in one line", async () => {
  await withSandbox(async (box) => {
    await signedProject(box);
    for (const path of ["../../etc/passwd", "/etc/passwd", "C:/x", "a\\..\\b", "./a", "a//b"]) {
      await setSigners(box, { allowed_signers: path, require: true });
      oneLine(await box.cli("verify"), /"signers" must be \{"allowed_signers"/);
    }
    await setSigners(box, { allowed_signers: ".github/allowed_signers", require: "yes" });
    oneLine(await box.cli("verify", "--json"), /"signers" must be/);
  });
});

Deno.test("an allowed_signers file that is a link, or leads out of the project, is refused in one line", async () => {
  await withSandbox(async (box) => {
    await signedProject(box);
    await Deno.writeTextFile(join(box.root, "outside"), "root@x ssh-ed25519 AAAA\n");
    await Deno.symlink(join(box.root, "outside"), join(box.project, "linked_signers"));
    await setSigners(box, { allowed_signers: "linked_signers", require: true });
    oneLine(
      await box.cli("verify"),
      /allowed signers file "linked_signers" is outside the project/,
    );
    await Deno.symlink(join(box.project, ".github/allowed_signers"), join(box.project, "inner"));
    await setSigners(box, { allowed_signers: "inner", require: true });
    oneLine(await box.cli("verify"), /allowed signers file "inner" is a link/);
    await Deno.symlink(box.root, join(box.project, "up"));
    await setSigners(box, { allowed_signers: "up/outside", require: true });
    oneLine(await box.cli("verify"), /"up\/outside" is outside the project/);
    await setSigners(box, { allowed_signers: "nowhere", require: true });
    oneLine(await box.cli("verify"), /"nowhere" cannot be found/);
  });
});

Deno.test("verify passes a lock whose skills are all signed by an allowed signer, naming who signed", async () => {
  await withSandbox(async (box) => {
    await signedProject(box);
    const text = await box.cli("verify");
    equal(text.code, 0, text.stderr);
    match(text.stdout, /verified 2 skills, 2 signed: all match/);
    const json = await box.cli("verify", "--json");
    equal(json.code, 0, json.stderr);
    const report = JSON.parse(json.stdout);
    deepEqual(report.signatures, []);
    const fingerprint = await fingerprintOf(box, "ana");
    deepEqual(report.signed, [
      { name: "excel", principal: "ana@example.com", fingerprint },
      { name: "pdf", principal: "ana@example.com", fingerprint },
    ]);
  });
});

Deno.test("verify fails an unsigned skill and a skill signed by a foreign key, one line each", async () => {
  await withSandbox(async (box) => {
    await signedProject(box);
    await Deno.remove(join(box.project, `${SKILLS}/excel.skills-anywhere.sig`));
    await newKey(box, "eve");
    await signSkill(box, "pdf", "eve");
    const text = await box.cli("verify");
    equal(text.code, 1, text.stderr);
    match(text.stdout, /^signature "excel": unsigned: no signature "excel\.skills-anywhere\.sig"/m);
    match(text.stdout, /^signature "pdf": unknown-signer: no allowed signer has key SHA256:/m);
    match(text.stdout, /2 differences from/);
    const report = JSON.parse((await box.cli("verify", "--json")).stdout);
    equal(report.matches, false);
    deepEqual(report.signatures.map((s: { kind: string }) => s.kind), [
      "unsigned",
      "unknown-signer",
    ]);
  });
});

Deno.test("verify names the file of a skill edited after it was signed and locked", async () => {
  await withSandbox(async (box) => {
    await signedProject(box);
    await Deno.writeTextFile(join(box.project, `${SKILLS}/pdf/scripts/fill.py`), "print('evil')\n");
    const text = await box.cli("verify");
    equal(text.code, 1);
    match(text.stdout, /^changed "pdf" \(bundle\)$/m);
    match(
      text.stdout,
      /^signature "pdf": changed-since-signed: the directory changed since it was signed \(changed "scripts\/fill\.py"\)$/m,
    );
  });
});

Deno.test("with require false a missing signature is reported as a warning and verify passes", async () => {
  await withSandbox(async (box) => {
    await signedProject(box);
    await setSigners(box, { allowed_signers: ".github/allowed_signers", require: false });
    await Deno.remove(join(box.project, `${SKILLS}/excel.skills-anywhere.sig`));
    const text = await box.cli("verify");
    equal(text.code, 0, text.stderr);
    match(text.stdout, /^signature "excel": unsigned: /m);
    match(text.stdout, /verified 2 skills, 1 signed: all match/);
    const sarif = JSON.parse((await box.cli("verify", "--format", "sarif")).stdout);
    deepEqual(await sarifErrors(sarif), []);
    const [result] = sarif.runs[0].results;
    equal(result.ruleId, "signature");
    equal(result.level, "warning");
  });
});

Deno.test("verify's SARIF carries required signature findings as errors at the skill's SKILL.md", async () => {
  await withSandbox(async (box) => {
    await signedProject(box);
    await Deno.remove(join(box.project, `${SKILLS}/pdf.skills-anywhere.sig`));
    const result = await box.cli("verify", "--format", "sarif");
    equal(result.code, 1);
    const sarif = JSON.parse(result.stdout);
    deepEqual(await sarifErrors(sarif), []);
    const [finding] = sarif.runs[0].results;
    equal(finding.ruleId, "signature");
    equal(finding.level, "error");
    equal(finding.locations[0].physicalLocation.artifactLocation.uri, `${SKILLS}/pdf/SKILL.md`);
    ok(sarif.runs[0].tool.driver.rules.some((r: { id: string }) => r.id === "signature"));
  });
});

Deno.test("a hostile file name in a signature finding is printed escaped", async () => {
  await withSandbox(async (box) => {
    await signedProject(box);
    await writeTree(box.project, { [`${SKILLS}/pdf/run\u202e"hs.sh`]: "rm -rf /\n" });
    const text = await box.cli("verify");
    equal(text.code, 1);
    match(text.stdout, /^signature "pdf": changed-since-signed: .*\(added .*run.*\.sh.*\)$/m);
    ok(!RAW_CONTROL.test(text.stdout) && !text.stdout.includes("\u202e"), text.stdout);
    const report = JSON.parse((await box.cli("verify", "--json")).stdout);
    match(report.signatures[0].message, /added "run\u202e\\"hs\.sh"/);
  });
});

Deno.test("lock keeps the signers block when it rewrites the whole lock or some entries", async () => {
  await withSandbox(async (box) => {
    await signedProject(box);
    const before = await Deno.readTextFile(join(box.project, LOCK));
    equal((await box.cli("lock")).code, 0);
    const after = await Deno.readTextFile(join(box.project, LOCK));
    equal(after, before.endsWith("\n") ? before : `${before}\n`);
    match(after, /^\{\n {2}"schema": "skills-anywhere-lock-1",\n {2}"signers": \{\n/);
    equal((await box.cli("lock", "pdf")).code, 0);
    deepEqual(JSON.parse(await Deno.readTextFile(join(box.project, LOCK))).signers, {
      allowed_signers: ".github/allowed_signers",
      require: true,
    });
  });
});

Deno.test("check --allowed-signers: a valid signature passes, a foreign one fails, a missing one is a note", async () => {
  await withSandbox(async (box) => {
    await signedProject(box);
    await Deno.remove(join(box.project, LOCK));
    const allowed = ["--allowed-signers", ".github/allowed_signers"];
    const good = await box.cli("check", ...allowed, `${SKILLS}/pdf`);
    equal(good.code, 0, good.stdout);
    const fingerprint = await fingerprintOf(box, "ana");
    match(good.stdout, /^Signature ".*pdf\/SKILL\.md": signed by "ana@example\.com" \(SHA256:/m);
    const json = JSON.parse((await box.cli("check", "--json", ...allowed, `${SKILLS}/pdf`)).stdout);
    deepEqual(json.signatures, [
      {
        path: `${SKILLS}/pdf/SKILL.md`,
        status: "signed",
        principal: "ana@example.com",
        fingerprint,
      },
    ]);
    await Deno.remove(join(box.project, `${SKILLS}/excel.skills-anywhere.sig`));
    const unsigned = await box.cli("check", "--format", "sarif", ...allowed, `${SKILLS}/excel`);
    equal(unsigned.code, 0, unsigned.stdout);
    const sarif = JSON.parse(unsigned.stdout);
    deepEqual(await sarifErrors(sarif), []);
    const notes = sarif.runs[0].results.filter((r: { ruleId: string }) => r.ruleId === "signature");
    deepEqual(notes.map((r: { level: string }) => r.level), ["note"]);
    await newKey(box, "eve");
    await signSkill(box, "pdf", "eve");
    const foreign = await box.cli("check", "--format", "sarif", ...allowed, `${SKILLS}/pdf`);
    equal(foreign.code, 1);
    const [finding] = JSON.parse(foreign.stdout).runs[0].results.filter((r: { ruleId: string }) =>
      r.ruleId === "signature"
    );
    equal(finding.level, "error");
    match(finding.message.text, /^unknown-signer: no allowed signer has key SHA256:/);
    equal(finding.locations[0].physicalLocation.artifactLocation.uri, `${SKILLS}/pdf/SKILL.md`);
  });
});

Deno.test("check takes the project lock's signers: an unsigned skill fails when the lock requires signatures", async () => {
  await withSandbox(async (box) => {
    await signedProject(box);
    equal((await box.cli("check", `${SKILLS}/excel`)).code, 0);
    await Deno.remove(join(box.project, `${SKILLS}/excel.skills-anywhere.sig`));
    const text = await box.cli("check", `${SKILLS}/excel`);
    equal(text.code, 1, text.stdout);
    match(text.stdout, /^Signature ".*excel\/SKILL\.md": unsigned: no signature /m);
    const json = JSON.parse((await box.cli("check", "--json", `${SKILLS}/excel`)).stdout);
    equal(json.exitCode, 1);
    equal(json.signatures[0].status, "unsigned");
  });
});

Deno.test("check on a lone SKILL.md with no signers known says nothing of signatures", async () => {
  await withSandbox(async (box) => {
    await writeTree(box.project, {
      "lone/SKILL.md": "---\nname: lone\ndescription: Alone.\n---\nBody.\n",
    });
    const json = JSON.parse((await box.cli("check", "--json", "lone/SKILL.md")).stdout);
    equal(json.signatures, undefined);
    const missing = await box.cli("check", "--allowed-signers", "nope", "lone/SKILL.md");
    oneLine(missing, /allowed signers file ".*nope" cannot be read \(missing\)/);
  });
});

Deno.test("a lock with signers round-trips byte for byte, signers right after schema; bad signers blocks are refused", async () => {
  const lock = {
    schema: "skills-anywhere-lock-1" as const,
    signers: { allowed_signers: ".github/allowed_signers", require: true },
    skills: [],
    sources: [],
  };
  const text = serialiseLock(lock);
  equal(
    text,
    '{\n  "schema": "skills-anywhere-lock-1",\n  "signers": {\n    "allowed_signers": ".github/allowed_signers",\n    "require": true\n  },\n  "skills": [],\n  "sources": []\n}\n',
  );
  const parsed = await parseLock(new TextEncoder().encode(text));
  ok(parsed.ok);
  equal(serialiseLock(parsed.lock), text);
  for (
    const signers of [
      { allowed_signers: "a", require: true, extra: 1 },
      { allowed_signers: "a" },
      { allowed_signers: "a\u0000b", require: false },
      { allowed_signers: "", require: false },
      null,
    ]
  ) {
    const bad = await parseLock(new TextEncoder().encode(JSON.stringify({ ...lock, signers })));
    equal(bad.ok ? "accepted" : bad.kind, "bad-signers", JSON.stringify(signers));
  }
});
