/**
 * Refusal kinds as records: the core's kinds are const lists, and each surface words every one
 * of them from one table keyed by the kinds (the compiler checks the tables; these tests check
 * them again at run time over the lists). A lock file that is missing or invalid is said in one
 * wording per surface: `mcp --locked` says what `verify` says, after its `--locked: `.
 *
 * @module
 */
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import {
  isLockKind,
  isLockRefusalKind,
  LOCK_FILE_REFUSAL_KINDS,
  LOCK_KINDS,
  LOCK_REFUSAL_KINDS,
  lockFileRefusal,
} from "../lib/locked.ts";
import {
  SHARE_REFUSAL_KINDS,
  SHARE_VERDICT_KINDS,
  SIZE_REFUSAL_KINDS,
  SIZE_REFUSALS,
} from "../lib/load/_share.ts";
import { lockFileError } from "../cli/lock.ts";
import { REFUSALS } from "../mcp/server.ts";
import { LOCK_REFUSALS } from "../dsh/provider.ts";
import { skillMd, withSandbox, writeTree } from "./helpers.ts";

const LOCK = "skills-anywhere.lock.json";
const REASON = "the reason the core gives";

Deno.test("MCP words every lock refusal kind as a lock refusal, never as the bare core message", () => {
  for (const kind of LOCK_REFUSAL_KINDS) {
    const text = REFUSALS[kind]("pdf", REASON);
    ok(text.startsWith(`${REASON}; `), `${kind}: ${text}`);
    match(text, /this server serves only skills whose bundle matches their lock/, kind);
  }
  // The table holds exactly the lock kinds the core lists among its lock keys.
  deepEqual(
    Object.keys(REFUSALS).filter(isLockRefusalKind).sort(),
    [...LOCK_REFUSAL_KINDS].sort(),
  );
});

Deno.test("dsh words every lock refusal kind with what locked: true serves", () => {
  for (const kind of LOCK_REFUSAL_KINDS) {
    const text = LOCK_REFUSALS[kind](REASON);
    ok(text.startsWith(`${REASON}; `), `${kind}: ${text}`);
    match(text, /with locked: true only skills whose bundle matches their lock are served/, kind);
  }
});

Deno.test("the CLI words each lock-file refusal kind in one line naming the file and the remedy", () => {
  for (const kind of LOCK_FILE_REFUSAL_KINDS) {
    const error = lockFileError(kind, "~/app/skills-anywhere.lock.json", { why: "not valid JSON" });
    equal(error.kind, kind);
    match(error.message, /~\/app\/skills-anywhere\.lock\.json/);
    match(error.message, /; run "dsh-skills-anywhere lock" to (?:write one|rewrite it)$/);
    ok(!error.message.includes("undefined"), error.message);
  }
});

Deno.test("the core words each lock-file refusal once, for the project's lock and the user's", () => {
  for (const kind of LOCK_FILE_REFUSAL_KINDS) {
    for (const lock of LOCK_KINDS) {
      const refused = lockFileRefusal(kind, lock, "not valid JSON");
      equal(refused.kind, kind);
      match(refused.message, lock === "user" ? /^the user's lock/ : /^the project's lock/);
    }
  }
  ok(isLockKind("user") && !isLockKind("team") && !isLockKind(undefined));
});

Deno.test("share refusal kinds: the size limits are share refusals, and every one is a verdict", () => {
  deepEqual([...SIZE_REFUSALS].sort(), [...SIZE_REFUSAL_KINDS].sort());
  for (const kind of SIZE_REFUSAL_KINDS) ok(SHARE_REFUSAL_KINDS.includes(kind), kind);
  for (const kind of SHARE_REFUSAL_KINDS) ok(SHARE_VERDICT_KINDS.includes(kind), kind);
  equal(new Set(SHARE_VERDICT_KINDS).size, SHARE_VERDICT_KINDS.length);
});

Deno.test("a missing and an invalid project lock: mcp --locked says what verify says, after --locked:", async () => {
  await withSandbox(async (box) => {
    await writeTree(box.project, {
      ".claude/skills/pdf/SKILL.md": skillMd("pdf", "Fill PDF forms.", "Body."),
    });
    const same = async (what: string) => {
      const verify = await box.cli("verify");
      const served = await box.cli("mcp", "--locked");
      equal(verify.code, 2, verify.stderr);
      equal(served.code, 2, served.stderr);
      equal(served.stdout, "");
      const [line, ...more] = served.stderr.trimEnd().split("\n");
      deepEqual(more, [], served.stderr);
      equal(
        line.replace(/^dsh-skills-anywhere: --locked: /, "dsh-skills-anywhere: "),
        verify.stderr.trimEnd(),
        what,
      );
      return line;
    };
    match(await same("missing"), /: --locked: no lock file at .*; run "dsh-skills-anywhere lock"/);
    await Deno.writeTextFile(join(box.project, LOCK), "{ not json");
    match(await same("invalid"), /: --locked: .*skills-anywhere\.lock\.json: .*rewrite it$/);
  });
});
