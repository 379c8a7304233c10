// The CLI's writer to stdout and stderr (cli/io.ts descriptorWriter) through real pipes left
// non-blocking, in a real child process: a full pipe is waited on, never failed with EAGAIN, and
// never written twice (Deno's stdout flushes through a line buffer that keeps what a failed flush
// did not write).
import { equal } from "node:assert/strict";
import { join } from "node:path";
import { ROOT, run, sha, withTempDir } from "./helpers.ts";

/**
 * Runs `argv[2:]` with stdout (argv[1] = "1") or stderr ("2") on the write end of a pipe set
 * non-blocking, reads nothing for 0.6 s (the pipe fills), then reads slowly to the end (or past
 * 4 MB: a writer that repeats itself is killed there). Prints the byte count and SHA-256 as JSON.
 */
const DRIVER = `
import hashlib, json, os, subprocess, sys, time
fd = int(sys.argv[1])
r, w = os.pipe()
os.set_blocking(w, False)
streams = {"stdout": w} if fd == 1 else {"stderr": w, "stdout": subprocess.DEVNULL}
child = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL, **streams)
os.close(w)
time.sleep(0.6)
got = b""
while len(got) <= 4_000_000:
    chunk = os.read(r, 7000)
    if not chunk:
        break
    got += chunk
    time.sleep(0.0005)
if len(got) > 4_000_000:
    child.kill()
print(json.dumps({"bytes": len(got), "sha": hashlib.sha256(got).hexdigest(), "code": child.wait()}))
`;

/** What the writer is asked to write: a full pipe's worth, then pieces of every shape. */
const WRITES = [
  // Exactly the pipe's buffer, no newline: the next write finds it full.
  "x".repeat(65536),
  // Short, no newline (Deno's line buffer takes it even when the flush fails).
  "short",
  " more\n",
  // Many lines, then one line longer than any piece, then a tail with no newline.
  Array.from({ length: 3000 }, (_, i) => `line ${i} ${"y".repeat(i % 97)}`).join("\n") + "\n",
  "z".repeat(9000) + "\nshort tail",
  "é✓".repeat(20000),
  "end\n",
];

const SCRIPT = `
import { descriptorWriter } from ${JSON.stringify(join(ROOT, "cli", "io.ts"))};
const fd = Number(Deno.args[0]) === 2 ? 2 : 1;
const write = descriptorWriter(fd);
for (const text of ${JSON.stringify(WRITES)}) write(text);
`;

for (const fd of [1, 2]) {
  Deno.test(`descriptorWriter(${fd}): a non-blocking pipe read late gets every byte once, in order`, async () => {
    await withTempDir(async (dir) => {
      const script = join(dir, "write.ts");
      await Deno.writeTextFile(script, SCRIPT);
      const args = ["-c", DRIVER, String(fd), Deno.execPath(), "run", "-A", "--quiet", script];
      const result = await run("python3", [...args, String(fd)]);
      equal(result.code, 0, result.stderr);
      const got = JSON.parse(result.stdout) as { bytes: number; sha: string; code: number };
      const expected = new TextEncoder().encode(WRITES.join(""));
      equal(got.code, 0, "the writer exits 0");
      equal(got.bytes, expected.length, "every byte, once");
      equal(got.sha, sha(expected));
    });
  });
}
