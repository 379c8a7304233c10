/**
 * A reader that goes away (`list | head -1`, `show x | less` quit early): every command stops
 * quietly, with its own exit code and nothing on stderr, through a real pipe. Commands whose
 * output can exceed the pipe buffer (64 KiB) write it to a reader that takes 4 KiB and closes its
 * end; the others write to a pipe whose reader closed before they started. A small python3 driver
 * holds the read end, so the CLI's stdout is a real OS pipe and nothing else. Runs under each
 * shipped runtime through DSA_CLI (see tests/dist_test.ts).
 *
 * @module
 */
import { equal, ok } from "node:assert/strict";
import { cliCommand, MAIN, run, type Sandbox, withSandbox, writeTree } from "./helpers.ts";
import { CATALOG_BOX, skill } from "./catalog_cli_helpers.ts";

/** The pipe buffer of Linux: output past it blocks until the reader reads or goes away. */
const PIPE_BUFFER = 64 * 1024;

/**
 * Starts the command on stdout = the write end of a pipe; reads `argv[1]` bytes from the read end
 * (0: the read end is closed before the command starts), closes it and waits for the command.
 * Prints what it read (hex), the exit code and stderr as JSON.
 */
const DRIVER = `
import json, os, subprocess, sys
want = int(sys.argv[1])
r, w = os.pipe()
if want == 0:
    os.close(r)
child = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=w, stderr=subprocess.PIPE)
os.close(w)
got = b""
if want > 0:
    while len(got) < want:
        chunk = os.read(r, want - len(got))
        if not chunk:
            break
        got += chunk
    os.close(r)
err = child.stderr.read()
code = child.wait()
print(json.dumps({"read": got.hex(), "code": code, "stderr": err.decode("utf-8", "replace")}))
`;

/** What the CLI did with a reader that went away. */
interface PipeRun {
  /** The bytes the reader took before closing. */
  read: string;
  code: number;
  stderr: string;
}

/** Runs the CLI in the sandbox's project with stdout to a pipe whose reader takes `bytes`. */
function throughPipe(box: Sandbox, args: string[], bytes: number): Promise<PipeRun> {
  return driven(box, DRIVER, bytes, args);
}

/** Runs the CLI in the sandbox's project under a python3 `driver` given `limit` as its argv[1]. */
async function driven(
  box: Sandbox,
  driver: string,
  limit: number,
  args: string[],
): Promise<PipeRun> {
  const command = cliCommand() ?? [Deno.execPath(), "run", "-A", "--quiet", MAIN];
  const result = await run("python3", ["-c", driver, String(limit), ...command, ...args], {
    cwd: box.project,
    env: { ...box.env, NO_COLOR: "1" },
    clearEnv: true,
  });
  equal(result.code, 0, result.stderr);
  const parsed = JSON.parse(result.stdout) as { read: string; code: number; stderr: string };
  const raw = new Uint8Array(parsed.read.length / 2);
  for (let i = 0; i < raw.length; i++) raw[i] = parseInt(parsed.read.slice(2 * i, 2 * i + 2), 16);
  return { read: new TextDecoder().decode(raw), code: parsed.code, stderr: parsed.stderr };
}

/** A description of ~900 characters (the spec allows 1024). */
const LONG = ("Reads and writes pipes. " + "Use it when output is long and read by a pager. ")
  .repeat(13).trim();

/**
 * A home of 160 skills with long descriptions (list, search and their JSON are > 64 KiB), one
 * skill with a 120 KB body (show, show --raw), and a skill folder of 500 files (bundle --json).
 */
async function bigHome(box: Sandbox): Promise<void> {
  const files: Record<string, string> = {};
  for (let i = 0; i < 160; i++) {
    files[`.claude/skills/pipe-${i}/SKILL.md`] = skill(`pipe-${i}`, `${LONG} (${i})`);
  }
  files[".claude/skills/big/SKILL.md"] = skill(
    "big",
    "A skill with a long body. Use it to test pagers.",
    "A line of the long body, read through a pager.\n".repeat(2500),
  );
  for (let i = 0; i < 500; i++) {
    const name = `a-file-with-a-long-name-so-that-the-inventory-is-long-${
      String(i).padStart(4, "0")
    }`;
    files[`.claude/skills/many/${name}.txt`] = `file ${i}\n`;
  }
  files[".claude/skills/many/SKILL.md"] = skill("many", "Many files. Use it to test bundles.");
  await writeTree(box.home, files);
}

/** The commands whose output exceeds the pipe buffer here. */
const BIG: string[][] = [
  ["list"],
  ["list", "--json"],
  ["list", "--all"],
  ["show", "big"],
  ["show", "big", "--raw"],
  ["show", "big", "--json"],
  ["search", "pipes", "--limit", "200"],
  ["search", "pipes", "--limit", "200", "--json"],
  ["bundle", "--json", "HOME/.claude/skills/many"],
];

/** Commands with short output: the reader is gone before they write. */
const SMALL: string[][] = [
  ["--version"],
  ["--help"],
  ["help", "list"],
  ["agents"],
  ["agents", "--json"],
  ["doctor"],
  ["doctor", "--json"],
  ["sources"],
  ["outdated"],
  ["check", "HOME/.claude/skills/big"],
  ["check", "--json", "HOME/.claude/skills/big"],
  ["bundle", "HOME/.claude/skills/many"],
  ["lock"],
  ["verify"],
];

/** `args` with HOME replaced by the sandbox's home. */
const withHome = (box: Sandbox, args: string[]) =>
  args.map((a) => a.replace(/^HOME\//, `${box.home}/`));

for (const args of BIG) {
  Deno.test(`${args.join(" ")} into a reader that takes 4 KiB and leaves: exit as whole, stderr empty`, async () => {
    await withSandbox(async (box) => {
      await bigHome(box);
      const argv = withHome(box, args);
      const whole = await box.cli(...argv);
      equal(whole.stderr, "", "the run to the end says nothing on stderr either");
      ok(
        new TextEncoder().encode(whole.stdout).length > PIPE_BUFFER + 4096,
        `only ${whole.stdout.length} characters: the write would not block`,
      );
      const cut = await throughPipe(box, argv, 4096);
      equal(cut.stderr, "", "no stack trace, no EPIPE");
      equal(cut.code, whole.code, "the exit code is the command's own");
      equal(cut.code, 0);
      ok(cut.read.length > 0 && whole.stdout.startsWith(cut.read), "the reader got the start");
    }, CATALOG_BOX);
  });
}

/**
 * Starts the command on stdout = the write end of a pipe set non-blocking (as a parent that shares
 * its own non-blocking pipe leaves it: a write past the buffer fails with EAGAIN), waits before
 * reading, then reads to the end (or past `argv[1]` bytes: a writer that repeats itself is killed
 * there). Prints what it read (hex), the exit code and stderr as JSON.
 */
const SLOW_NONBLOCKING_DRIVER = `
import json, os, subprocess, sys, time
most = int(sys.argv[1])
r, w = os.pipe()
os.set_blocking(w, False)
child = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=w, stderr=subprocess.PIPE)
os.close(w)
time.sleep(0.4)
got = b""
while len(got) <= most:
    chunk = os.read(r, 65536)
    if not chunk:
        break
    got += chunk
if len(got) > most:
    child.kill()
err = child.stderr.read()
code = child.wait()
print(json.dumps({"read": got.hex(), "code": code, "stderr": err.decode("utf-8", "replace")}))
`;

for (const args of [["list", "--json"], ["show", "big", "--raw"]]) {
  Deno.test(`${args.join(" ")} into a non-blocking pipe read late: every byte arrives in order, exit 0`, async () => {
    await withSandbox(async (box) => {
      await bigHome(box);
      const whole = await box.cli(...args);
      ok(
        new TextEncoder().encode(whole.stdout).length > PIPE_BUFFER + 4096,
        "output fits the pipe",
      );
      const late = await driven(box, SLOW_NONBLOCKING_DRIVER, 2 * whole.stdout.length, args);
      equal(late.stderr, "", `no EAGAIN, no stack trace: ${late.stderr}`);
      equal(late.code, 0);
      equal(late.read, whole.stdout, "the whole output, in order");
    }, CATALOG_BOX);
  });
}

Deno.test("every other command into a pipe whose reader is already gone: its own exit code, stderr empty", async () => {
  await withSandbox(async (box) => {
    await bigHome(box);
    for (const args of SMALL) {
      const argv = withHome(box, args);
      const whole = await box.cli(...argv);
      ok(whole.stdout.length > 0, `${args.join(" ")} writes nothing to test with`);
      const gone = await throughPipe(box, argv, 0);
      equal(gone.stderr, whole.stderr, `${args.join(" ")}: only what it says anyway`);
      ok(!/EPIPE|broken pipe|Uncaught|Unhandled/i.test(gone.stderr), gone.stderr);
      equal(gone.code, whole.code, `${args.join(" ")}: the exit code is the command's own`);
    }
  }, CATALOG_BOX);
});

Deno.test("a failed check stays failed when its reader goes away (the verdict is never masked)", async () => {
  await withSandbox(async (box) => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 400; i++) files[`bad-${i}/SKILL.md`] = `---\nname: [x${i}\n---\n`;
    await writeTree(box.project, files);
    const argv = ["check", ...Object.keys(files).map((f) => f.replace("/SKILL.md", ""))];
    const whole = await box.cli(...argv);
    equal(whole.code, 1, whole.stderr);
    ok(new TextEncoder().encode(whole.stdout).length > PIPE_BUFFER + 4096, "output fits the pipe");
    const cut = await throughPipe(box, argv, 4096);
    equal(cut.stderr, "");
    equal(cut.code, 1, "a failed check exits 1 whether or not anyone read the rest");
  }, CATALOG_BOX);
});
