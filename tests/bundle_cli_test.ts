// `bundle` end to end over a real child process: manifests, comparisons, and every refusal's exit 2.
import { createHash } from "node:crypto";
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { listTree, mkfifo, runCli, withTempDir, writeTree } from "./helpers.ts";

const SKILL =
  "---\nname: review\ndescription: Review code. Use for reviews.\n---\nRun scripts/review.py.\n";

async function makeSkill(dir: string): Promise<string> {
  await writeTree(dir, {
    "review/SKILL.md": SKILL,
    "review/scripts/review.py": "print('review')\n",
    "review/.hidden": "dotfile\n",
  });
  return `${dir}/review`;
}

Deno.test("bundle --json prints the manifest, exit 0; the digest is the canonical one", async () => {
  await withTempDir(async (dir) => {
    const skill = await makeSkill(dir);
    const before = await listTree(dir);
    const result = await runCli(["bundle", "--json", skill]);
    equal(result.code, 0, result.stderr);
    const manifest = JSON.parse(result.stdout);
    equal(manifest.schema, "skills-anywhere-bundle-1");
    deepEqual(manifest.files.map((f: { path: string }) => f.path), [
      ".hidden",
      "SKILL.md",
      "scripts/review.py",
    ]);
    const sha = (text: string) => createHash("sha256").update(text).digest("hex");
    const canonical = JSON.stringify([
      "skills-anywhere-bundle-1",
      manifest.files.map((
        f: { path: string; bytes: number; sha256: string },
      ) => [f.path, f.bytes, f.sha256]),
    ]);
    equal(manifest.sha256, sha(canonical));
    equal(manifest.files[1].sha256, sha(SKILL));
    equal(
      manifest.total_bytes,
      manifest.files.reduce((n: number, f: { bytes: number }) => n + f.bytes, 0),
    );
    deepEqual(await listTree(dir), before);
  });
});

Deno.test("bundle human output: digest, counts and the scope line", async () => {
  await withTempDir(async (dir) => {
    const skill = await makeSkill(dir);
    const result = await runCli(["bundle", skill]);
    equal(result.code, 0);
    match(
      result.stdout,
      /^Bundle SHA-256: [0-9a-f]{64}\n3 files, \d+ bytes\nFile paths and contents only; /,
    );
  });
});

Deno.test("--against: same → 0 matches; changed script → 1 CHANGED; added and removed listed", async () => {
  await withTempDir(async (dir) => {
    const skill = await makeSkill(dir);
    const reviewed = `${dir}/reviewed.json`;
    const generated = await runCli(["bundle", "--json", skill]);
    await Deno.writeTextFile(reviewed, generated.stdout);
    const same = await runCli(["bundle", "--json", skill, "--against", reviewed]);
    equal(same.code, 0);
    const sameReport = JSON.parse(same.stdout);
    equal(sameReport.schema, "skills-anywhere-bundle-comparison-1");
    equal(sameReport.matches, true);
    equal(sameReport.manifest.sha256, sameReport.actual_sha256);

    await Deno.writeTextFile(`${skill}/scripts/review.py`, "print('exfiltrate')\n");
    await Deno.writeTextFile(`${skill}/scripts/new.sh`, "echo new\n");
    await Deno.remove(`${skill}/.hidden`);
    const changed = await runCli(["bundle", "--json", skill, "--against", reviewed]);
    equal(changed.code, 1);
    const report = JSON.parse(changed.stdout);
    equal(report.matches, false);
    deepEqual(report.changed, ["scripts/review.py"]);
    deepEqual(report.added, ["scripts/new.sh"]);
    deepEqual(report.removed, [".hidden"]);
    const human = await runCli(["bundle", skill, "--against", reviewed]);
    equal(human.code, 1);
    match(
      human.stdout,
      /Bundle differs from the reviewed inventory\.\nADDED "scripts\/new.sh"\nREMOVED ".hidden"\nCHANGED "scripts\/review.py"\n/,
    );
  });
});

Deno.test("invalid manifest → exit 2 with skills-anywhere-bundle-error-1; human form on stderr", async () => {
  await withTempDir(async (dir) => {
    const skill = await makeSkill(dir);
    const generated = JSON.parse((await runCli(["bundle", "--json", skill])).stdout);
    generated.total_bytes += 1;
    await Deno.writeTextFile(`${dir}/tampered.json`, JSON.stringify(generated));
    const result = await runCli(["bundle", "--json", skill, "--against", `${dir}/tampered.json`]);
    equal(result.code, 2);
    deepEqual(JSON.parse(result.stdout), {
      schema: "skills-anywhere-bundle-error-1",
      error: "Manifest digest or total bytes disagrees with its inventory",
      kind: "digest-mismatch",
    });
    const human = await runCli(["bundle", skill, "--against", `${dir}/tampered.json`]);
    equal(human.code, 2);
    equal(human.stdout, "");
    equal(
      human.stderr,
      'dsh-skills-anywhere: bundle refused: "Manifest digest or total bytes disagrees with its inventory"\n',
    );
    await Deno.writeTextFile(`${dir}/broken.json`, "{not json");
    const broken = await runCli(["bundle", "--json", skill, "--against", `${dir}/broken.json`]);
    equal(broken.code, 2);
    equal(JSON.parse(broken.stdout).kind, "manifest-not-json");
  });
});

Deno.test("manifest inside the directory, over 1 MiB, a directory or a FIFO as manifest → exit 2", async () => {
  await withTempDir(async (dir) => {
    const skill = await makeSkill(dir);
    const generated = (await runCli(["bundle", "--json", skill])).stdout;
    await Deno.writeTextFile(`${skill}/reviewed.json`, generated);
    const inside = await runCli(["bundle", "--json", skill, "--against", `${skill}/reviewed.json`]);
    equal(inside.code, 2);
    equal(JSON.parse(inside.stdout).kind, "manifest-inside");
    await Deno.remove(`${skill}/reviewed.json`);
    // A symlink outside that points inside is still inside.
    await Deno.writeTextFile(`${skill}/hidden.json`, generated);
    await Deno.symlink(`${skill}/hidden.json`, `${dir}/outside-link.json`);
    const linked = await runCli([
      "bundle",
      "--json",
      skill,
      "--against",
      `${dir}/outside-link.json`,
    ]);
    equal(JSON.parse(linked.stdout).kind, "manifest-inside");
    await Deno.remove(`${skill}/hidden.json`);

    await Deno.writeTextFile(`${dir}/big.json`, " ".repeat(1024 * 1024 + 1));
    const big = await runCli(["bundle", "--json", skill, "--against", `${dir}/big.json`]);
    equal(big.code, 2);
    equal(JSON.parse(big.stdout).kind, "manifest-too-large");
    match(JSON.parse(big.stdout).error, /1 MiB/);
    await Deno.mkdir(`${dir}/adir`);
    const asDir = await runCli(["bundle", "--json", skill, "--against", `${dir}/adir`]);
    equal(asDir.code, 2);
    equal(JSON.parse(asDir.stdout).kind, "manifest-unreadable");
    equal(JSON.parse(asDir.stdout).error, "Choose a regular manifest file of at most 1 MiB");
    await mkfifo(`${dir}/pipe.json`);
    const fifo = await runCli(["bundle", "--json", skill, "--against", `${dir}/pipe.json`]);
    equal(fifo.code, 2);
    equal(JSON.parse(fifo.stdout).kind, "manifest-unreadable");
  });
});

Deno.test("unsupported entries in the directory → exit 2 with the reader's message", async () => {
  await withTempDir(async (dir) => {
    const skill = await makeSkill(dir);
    await mkfifo(`${skill}/pipe`);
    const fifo = await runCli(["bundle", "--json", skill]);
    equal(fifo.code, 2);
    equal(JSON.parse(fifo.stdout).kind, "not-regular");
    equal(JSON.parse(fifo.stdout).error, 'Bundle requires regular files: "pipe"');
    await Deno.remove(`${skill}/pipe`);
    await Deno.symlink("/etc/passwd", `${skill}/scripts/passwd`);
    const link = await runCli(["bundle", skill]);
    equal(link.code, 2);
    equal(
      link.stderr,
      'dsh-skills-anywhere: bundle refused: "Bundle links are not supported: \\"scripts/passwd\\""\n',
    );
    const missing = await runCli(["bundle", "--json", `${dir}/nope`]);
    equal(missing.code, 2);
    equal(JSON.parse(missing.stdout).kind, "not-directory");
  });
});

Deno.test("bundle usage: exactly one directory; check-only flags refused; --cwd resolves paths", async () => {
  const none = await runCli(["bundle"]);
  equal(none.code, 2);
  equal(
    none.stderr,
    "dsh-skills-anywhere: bundle takes exactly one directory; " +
      'run "dsh-skills-anywhere bundle --help" for usage\n',
  );
  const two = await runCli(["bundle", "a", "b"]);
  equal(two.code, 2);
  const lenient = await runCli(["bundle", "x", "--lenient"]);
  equal(lenient.code, 2);
  match(lenient.stderr, /bundle does not take --lenient \(it is an option of check\)/);
  await withTempDir(async (dir) => {
    await makeSkill(dir);
    const viaCwd = await runCli(["bundle", "--json", "--cwd", dir, "review"]);
    equal(viaCwd.code, 0);
    ok(JSON.parse(viaCwd.stdout).sha256);
  });
});
