/**
 * End-to-end tests of `mcp --locked` under a lock that requires signatures:
 * the real server child driven by the SDK 2 client over stdio, keys from the
 * real `ssh-keygen`. Refusals first (an unsigned skill, a foreign key, a
 * signature removed while the server runs, an unusable allowed-signers file
 * at start), then receipts naming the signer as `ssh-keygen -lf` does.
 *
 * @module
 */
import { equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { withSandbox } from "./helpers.ts";
import { withLocked } from "./mcp_locked_helpers.ts";
import { rejection, textOf, type ToolResult } from "./mcp_helpers.ts";
import {
  fingerprintOf,
  newKey,
  setSigners,
  signedProject,
  signSkill,
  SKILLS,
} from "./signers_fixture.ts";

function assertRefused(result: ToolResult, why: RegExp): void {
  equal(result.isError, true, textOf(result));
  match(textOf(result), why);
  match(textOf(result), /\(--locked\)/);
}

Deno.test("mcp --locked refuses an unsigned skill by name and serves the signed one", async () => {
  await withSandbox(async (box) => {
    await signedProject(box);
    await Deno.remove(join(box.project, `${SKILLS}/excel.skills-anywhere.sig`));
    await withLocked(box, async (s) => {
      equal((await s.listed()).join(","), "pdf");
      assertRefused(
        await s.call("open_skill", { name: "excel" }),
        /skill "excel" is not signed by an allowed signer: no signature "excel\.skills-anywhere\.sig"/,
      );
      equal(((await s.skills.list()).skills.map((e) => e.uri)).join(","), "skill://pdf/SKILL.md");
      match(await rejection(s.read("skill://excel/SKILL.md")), /"excel" is not signed/);
      equal((await s.call("open_skill", { name: "pdf" })).isError, undefined);
    });
  });
});

Deno.test("mcp --locked refuses a skill signed by a key not in the allowed signers", async () => {
  await withSandbox(async (box) => {
    await signedProject(box);
    await newKey(box, "eve");
    await signSkill(box, "pdf", "eve");
    await withLocked(box, async (s) => {
      equal((await s.listed()).join(","), "excel");
      assertRefused(
        await s.call("open_skill", { name: "pdf" }),
        /"pdf" is not signed by an allowed signer: no allowed signer has key SHA256:/,
      );
    });
  });
});

Deno.test("mcp --locked: a signature removed while the server runs refuses the next load", async () => {
  await withSandbox(async (box) => {
    await signedProject(box);
    await withLocked(box, async (s) => {
      equal((await s.call("open_skill", { name: "pdf" })).isError, undefined);
      await Deno.remove(join(box.project, `${SKILLS}/pdf.skills-anywhere.sig`));
      assertRefused(await s.call("open_skill", { name: "pdf" }), /"pdf" is not signed/);
    });
  });
});

Deno.test("mcp --locked with an allowed_signers file outside the project refuses to start in one line", async () => {
  await withSandbox(async (box) => {
    await signedProject(box);
    await Deno.writeTextFile(join(box.root, "outside"), "");
    await Deno.symlink(join(box.root, "outside"), join(box.project, "allowed"));
    await setSigners(box, { allowed_signers: "allowed", require: true });
    const result = await box.cli("mcp", "--locked");
    equal(result.code, 2);
    const lines = result.stderr.trimEnd().split("\n");
    equal(lines.length, 1, result.stderr);
    match(lines[0], /--locked: .*allowed signers file "allowed" is outside the project/);
  });
});

Deno.test("mcp --locked receipts carry the signer's principal and the key fingerprint ssh-keygen -lf prints", async () => {
  await withSandbox(async (box) => {
    await signedProject(box);
    const fingerprint = await fingerprintOf(box, "ana");
    ok(fingerprint.startsWith("SHA256:"), fingerprint);
    await withLocked(box, async (s) => {
      equal((await s.listed()).join(","), "excel,pdf");
      for (const name of ["excel", "pdf"]) {
        const opened = await s.call("open_skill", { name });
        equal(opened.isError, undefined, textOf(opened));
        const receipt = opened.structuredContent!.receipt as Record<string, unknown>;
        equal(
          JSON.stringify(receipt.signer),
          JSON.stringify({ principal: "ana@example.com", fingerprint }),
        );
      }
    });
  });
});
