/**
 * One allowed-signers reader for every caller: the file a user names
 * (`verify-signature --allowed-signers`, `check --allowed-signers`) and the
 * one a project's lock names (`check`, `verify`, `mcp --locked` at start, and
 * the lock gate at each load while serving). Each hostile file (a link to a
 * device, a fifo, one over the size limit, one not UTF-8) is refused by every
 * caller in one line naming the file and why, never waiting on it and never
 * quoting it; a real child process per caller, the real `ssh-keygen` and the
 * SDK client.
 *
 * @module
 */
import { equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { mkfifo, type Sandbox, withSandbox } from "./helpers.ts";
import { withLocked } from "./mcp_locked_helpers.ts";
import { textOf } from "./mcp_helpers.ts";
import { signedProject, SKILLS } from "./signers_fixture.ts";
import { MAX_SIGNING_FILE_BYTES } from "../lib/limits.ts";

/** The allowed-signers file the fixture's lock names, relative to the project. */
const SIGNERS = ".github/allowed_signers";
/** A word that appears only in the hostile files' text: no message may carry it. */
const SECRET = "hunter2-secret";

/** One hostile allowed-signers file: how to put it in place, and why each reader refuses it. */
interface Hostile {
  name: string;
  make(file: string): Promise<void>;
  /** The reason for a file the user names (its final link followed). */
  user: RegExp;
  /** The reason for a file the project's lock names (never through a link). */
  project: RegExp;
}

const HOSTILE: Hostile[] = [
  {
    name: "a link to a device",
    make: (file) => Deno.symlink("/dev/zero", file),
    user: /cannot be read \([a-z-]+\)/,
    project: /is outside the project/,
  },
  {
    name: "a fifo",
    make: (file) => mkfifo(file),
    user: /cannot be read \([a-z-]+\)/,
    project: /cannot be read \([a-z-]+\)/,
  },
  {
    name: "too big",
    make: (file) =>
      Deno.writeTextFile(file, `# ${SECRET}\n`.padEnd(MAX_SIGNING_FILE_BYTES + 1, "#")),
    user: /is larger than 256 KiB/,
    project: /is larger than 256 KiB/,
  },
  {
    name: "not UTF-8",
    make: (file) =>
      Deno.writeFile(file, new Uint8Array([...new TextEncoder().encode(`# ${SECRET} `), 0xff])),
    user: /is not UTF-8/,
    project: /is not UTF-8/,
  },
];

/** Replaces the project's allowed-signers file with `hostile`. */
async function putHostile(box: Sandbox, hostile: Hostile): Promise<void> {
  const file = join(box.project, SIGNERS);
  await Deno.remove(file);
  await hostile.make(file);
}

/** Exit 2, nothing on stdout, one stderr line naming the file and why, without its content. */
function refusedOnce(
  result: { code: number; stdout: string; stderr: string },
  named: string,
  why: RegExp,
  what: string,
): void {
  equal(result.code, 2, `${what}: ${result.stderr}`);
  equal(result.stdout, "", what);
  const lines = result.stderr.trimEnd().split("\n");
  equal(lines.length, 1, `${what}: ${result.stderr}`);
  ok(lines[0].includes(`allowed signers file ${JSON.stringify(named)} `), `${what}: ${lines[0]}`);
  match(lines[0], why, what);
  ok(!lines[0].includes(SECRET), what);
}

Deno.test("every CLI caller refuses each hostile allowed-signers file in one line, through the one reader", async () => {
  await withSandbox(async (box) => {
    await signedProject(box);
    const absolute = join(box.project, SIGNERS);
    const signature = `${SKILLS}/pdf.skills-anywhere.sig`;
    for (const hostile of HOSTILE) {
      await putHostile(box, hostile);
      const user = [
        [
          "verify-signature",
          [
            "verify-signature",
            `${SKILLS}/pdf`,
            "--signature",
            signature,
            "--allowed-signers",
            SIGNERS,
          ],
        ],
        ["check --allowed-signers", ["check", "--allowed-signers", SIGNERS, `${SKILLS}/pdf`]],
      ] as const;
      for (const [caller, args] of user) {
        const what = `${caller}, ${hostile.name}`;
        refusedOnce(await box.cli(...args), absolute, hostile.user, what);
      }
      const project = [
        ["check (the lock's signers)", ["check", `${SKILLS}/pdf`]],
        ["verify", ["verify"]],
        ["mcp --locked", ["mcp", "--locked"]],
      ] as const;
      for (const [caller, args] of project) {
        const what = `${caller}, ${hostile.name}`;
        refusedOnce(await box.cli(...args), SIGNERS, hostile.project, what);
      }
    }
  });
});

Deno.test("the lock gate refuses each hostile allowed-signers file put in place while the server runs", async () => {
  await withSandbox(async (box) => {
    await signedProject(box);
    await withLocked(box, async (s) => {
      equal((await s.call("open_skill", { name: "pdf" })).isError, undefined);
      for (const hostile of HOSTILE) {
        await putHostile(box, hostile);
        const refused = await s.call("open_skill", { name: "pdf" });
        const text = textOf(refused);
        equal(refused.isError, true, `${hostile.name}: ${text}`);
        ok(text.includes(`allowed signers file ${JSON.stringify(SIGNERS)} `), text);
        match(text, hostile.project, hostile.name);
        match(text, /\(--locked\)$/, hostile.name);
        ok(!text.includes(SECRET), hostile.name);
      }
    });
  });
});
