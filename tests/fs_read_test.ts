// The lib/fs primitives the bundle reader is built on: sameIdentity and streamRegularFile
// (identity checks, chunked streaming, growth, and refusals of special files).
import { deepEqual, equal, notEqual, ok } from "node:assert/strict";
import { createHash } from "node:crypto";
import { lstat } from "node:fs/promises";
import {
  readBoundedSync,
  readBoundedTextSync,
  ReadError,
  sameIdentity,
  streamRegularFile,
} from "../lib/fs/_read.ts";
import { binary, mkfifo, settlesWithin, sha, withTempDir } from "./helpers.ts";

const KiB = 1024;

async function readError(promise: Promise<unknown>): Promise<ReadError> {
  try {
    await promise;
  } catch (error) {
    ok(error instanceof ReadError, `expected a ReadError, got ${error}`);
    return error;
  }
  throw new Error("expected a ReadError, but the read succeeded");
}

Deno.test("sameIdentity: equal for an untouched file, different after append, chmod or replace", async () => {
  await withTempDir(async (dir) => {
    const path = `${dir}/f.txt`;
    await Deno.writeTextFile(path, "hello");
    const first = await lstat(path, { bigint: true });
    ok(sameIdentity(first, await lstat(path, { bigint: true })));
    // Reading does not change identity.
    await Deno.readFile(path);
    ok(sameIdentity(first, await lstat(path, { bigint: true })));

    await Deno.writeTextFile(path, "!", { append: true });
    const appended = await lstat(path, { bigint: true });
    ok(!sameIdentity(first, appended));

    await Deno.chmod(path, 0o600);
    const chmodded = await lstat(path, { bigint: true });
    ok(!sameIdentity(appended, chmodded));

    // Same size and content, new inode.
    await Deno.writeTextFile(`${dir}/g.txt`, "hello!");
    await Deno.chmod(`${dir}/g.txt`, 0o600);
    await Deno.rename(`${dir}/g.txt`, path);
    const replaced = await lstat(path, { bigint: true });
    notEqual(replaced.ino, chmodded.ino);
    ok(!sameIdentity(chmodded, replaced));
  });
});

Deno.test("streamRegularFile: streams every byte in order, keeps them on request", async () => {
  await withTempDir(async (dir) => {
    const data = binary(200 * KiB + 17, 11);
    await Deno.writeFile(`${dir}/data.bin`, data);
    const hash = createHash("sha256");
    const sizes: number[] = [];
    const expected = await lstat(`${dir}/data.bin`, { bigint: true });
    const result = await streamRegularFile(`${dir}/data.bin`, {
      maxBytes: data.length,
      expected,
      onChunk: (chunk) => {
        sizes.push(chunk.length);
        hash.update(chunk);
      },
      keep: true,
    });
    equal(result.size, data.length);
    deepEqual(result.bytes, data);
    equal(hash.digest("hex"), sha(data));
    ok(sizes.every((n) => n <= 64 * KiB));
    equal(sizes.reduce((a, b) => a + b, 0), data.length);
    const plain = await streamRegularFile(`${dir}/data.bin`, {
      maxBytes: data.length,
      onChunk: () => {},
    });
    equal(plain.size, data.length);
    equal(plain.bytes, undefined);
  });
});

Deno.test("streamRegularFile: a stale lstat (append, replace, chmod) → kind changed", async () => {
  await withTempDir(async (dir) => {
    const path = `${dir}/f.bin`;
    await Deno.writeFile(path, binary(1000));
    // Appended after the lstat.
    let stale = await lstat(path, { bigint: true });
    await Deno.writeFile(path, new Uint8Array([1]), { append: true });
    let error = await readError(
      streamRegularFile(path, { maxBytes: 1 << 20, expected: stale, onChunk: () => {} }),
    );
    equal(error.kind, "changed");
    // Replaced by an identical copy (new inode) after the lstat.
    stale = await lstat(path, { bigint: true });
    await Deno.copyFile(path, `${dir}/copy.bin`);
    await Deno.rename(`${dir}/copy.bin`, path);
    const chunks: Uint8Array[] = [];
    error = await readError(
      streamRegularFile(path, {
        maxBytes: 1 << 20,
        expected: stale,
        onChunk: (c) => chunks.push(c),
      }),
    );
    equal(error.kind, "changed");
    equal(chunks.length, 0, "nothing is streamed from a file that is not the one inspected");
    // Mode changed after the lstat.
    stale = await lstat(path, { bigint: true });
    await Deno.chmod(path, 0o640);
    error = await readError(
      streamRegularFile(path, { maxBytes: 1 << 20, expected: stale, onChunk: () => {} }),
    );
    equal(error.kind, "changed");
    // A fresh lstat is accepted.
    const fresh = await lstat(path, { bigint: true });
    const ok1 = await streamRegularFile(path, {
      maxBytes: 1 << 20,
      expected: fresh,
      onChunk: () => {},
    });
    equal(ok1.size, 1001);
  });
});

Deno.test("streamRegularFile: a file that grows during the read → changed, or grew past the limit", async () => {
  await withTempDir(async (dir) => {
    const path = `${dir}/f.bin`;
    await Deno.writeFile(path, binary(10));
    // A small append after the first chunk: the final identity check catches it.
    let appended = false;
    let error = await readError(streamRegularFile(path, {
      maxBytes: 1 << 20,
      onChunk: () => {
        if (!appended) Deno.writeFileSync(path, new Uint8Array(5), { append: true });
        appended = true;
      },
    }));
    equal(error.kind, "changed");

    // A large append after the first chunk: reading stops one chunk past the limit.
    await Deno.writeFile(path, binary(10));
    let streamed = 0;
    error = await readError(streamRegularFile(path, {
      maxBytes: 100 * KiB,
      onChunk: (chunk) => {
        if (streamed === 0) Deno.writeFileSync(path, new Uint8Array(300 * KiB), { append: true });
        streamed += chunk.length;
      },
    }));
    equal(error.kind, "grew");
    ok(streamed <= 100 * KiB, "never streams past the limit");

    // Already over the limit when opened.
    error = await readError(streamRegularFile(path, { maxBytes: 10, onChunk: () => {} }));
    equal(error.kind, "too-large");
  });
});

Deno.test("streamRegularFile: FIFO (without blocking), directory, symlink and missing paths", async () => {
  await withTempDir(async (dir) => {
    await mkfifo(`${dir}/pipe`);
    const chunks: Uint8Array[] = [];
    let error = await settlesWithin(
      readError(streamRegularFile(`${dir}/pipe`, { maxBytes: 10, onChunk: (c) => chunks.push(c) })),
      5000,
    );
    equal(error.kind, "not-regular");
    equal(chunks.length, 0);

    await Deno.mkdir(`${dir}/sub`);
    error = await readError(streamRegularFile(`${dir}/sub`, { maxBytes: 10, onChunk: () => {} }));
    equal(error.kind, "not-regular");

    await Deno.writeTextFile(`${dir}/real.txt`, "x");
    await Deno.symlink(`${dir}/real.txt`, `${dir}/link.txt`);
    error = await readError(
      streamRegularFile(`${dir}/link.txt`, { maxBytes: 10, onChunk: () => {} }),
    );
    equal(error.kind, "symlink");

    error = await readError(streamRegularFile(`${dir}/none`, { maxBytes: 10, onChunk: () => {} }));
    equal(error.kind, "missing");
  });
});

Deno.test("readBoundedTextSync: strict UTF-8 from the read buffer, every refusal of readBoundedSync", async () => {
  await withTempDir(async (dir) => {
    const a = `${dir}/a.md`;
    const b = `${dir}/b.md`;
    await Deno.writeTextFile(a, "---\nname: café\n---\nBody ✓\n");
    await Deno.writeTextFile(b, "second");
    const first = readBoundedTextSync(a, { maxBytes: 1024 });
    // The shared buffer is reused by the next read; the returned text is not.
    equal(readBoundedTextSync(b, { maxBytes: 1024 }), "second");
    equal(first, "---\nname: café\n---\nBody ✓\n");
    equal(first, new TextDecoder().decode(readBoundedSync(a, { maxBytes: 1024 }).bytes));

    const kindOf = (path: string, maxBytes = 1024) => {
      try {
        readBoundedTextSync(path, { maxBytes });
        return "read";
      } catch (error) {
        ok(error instanceof ReadError, String(error));
        return error.kind;
      }
    };
    await Deno.writeFile(`${dir}/latin1.md`, new Uint8Array([0x63, 0x61, 0x66, 0xe9]));
    equal(kindOf(`${dir}/latin1.md`), "not-utf8");
    equal(kindOf(a, 8), "too-large");
    await Deno.symlink(a, `${dir}/link.md`);
    equal(kindOf(`${dir}/link.md`), "symlink");
    equal(kindOf(`${dir}/missing.md`), "missing");
    await mkfifo(`${dir}/pipe.md`);
    // Opened without blocking: a pipe with no writer reads as empty and is refused at once.
    equal(kindOf(`${dir}/pipe.md`), "not-regular");
  });
});

// Before the next test, which grows the shared buffer past every size here.
Deno.test("readBoundedSync: files past the first read buffer (64 KiB) read whole; one byte over the cap is refused", async () => {
  await withTempDir(async (dir) => {
    // Bytes that differ at every offset, so a lost or repeated chunk changes the hash.
    const pattern = (size: number) =>
      Uint8Array.from({ length: size }, (_, i) => (i * 31 + (i >> 8)) & 0xff);
    for (const size of [64 * KiB - 1, 64 * KiB, 64 * KiB + 1, 200 * KiB, 1024 * KiB + 3]) {
      const path = `${dir}/f-${size}`;
      const bytes = pattern(size);
      await Deno.writeFile(path, bytes);
      const read = readBoundedSync(path, { maxBytes: 2048 * KiB }).bytes;
      equal(read.length, size);
      equal(sha(read), sha(bytes), `${size} bytes read back`);
      // Exactly at the cap reads; one byte under the file's size is refused as too large.
      equal(readBoundedSync(path, { maxBytes: size }).bytes.length, size);
      try {
        readBoundedSync(path, { maxBytes: size - 1 });
        ok(false, `${size} bytes under a cap of ${size - 1} were read`);
      } catch (error) {
        ok(error instanceof ReadError, String(error));
        equal(error.kind, "too-large");
      }
    }
  });
});

Deno.test("readBoundedSync: a limit above the read buffer returns this file's bytes, never a stale buffer", async () => {
  await withTempDir(async (dir) => {
    const first = `${dir}/first`;
    const second = `${dir}/second`;
    await Deno.writeTextFile(first, "stale stale stale");
    await Deno.writeTextFile(second, "fresh");
    readBoundedSync(first, { maxBytes: 1024 });
    const limit = 40 * 1024 * 1024; // past any buffer an earlier test grew
    equal(new TextDecoder().decode(readBoundedSync(second, { maxBytes: limit }).bytes), "fresh");
    equal(readBoundedTextSync(first, { maxBytes: limit + 8 * 1024 * 1024 }), "stale stale stale");
  });
});
