/**
 * One display name for a source (issue 30, finding 5: "commands name one source three ways"):
 * the same Git source — a local repository, with a ref and a sub-path, as the project's sources
 * file names it — through every command that shows it, over real child processes in a sandbox.
 * Each names it `<display>@<ref>` (`sourceName`), and none by its lock key (`local/<12 hex>`).
 *
 * @module
 */
import { equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { resolveSource } from "../lib/sources/_resolve.ts";
import { type CliResult, withSandbox, writeTree } from "./helpers.ts";
import {
  cacheDir,
  CATALOG_BOX,
  escapeRe,
  offline,
  projectFile,
  skill,
} from "./catalog_cli_helpers.ts";

/** Asserts the output names the source by `name` and never by its lock key. */
function namesOnce(what: string, text: string, name: string, key: string, pattern: RegExp): void {
  match(text, pattern, `${what} names the source ${name}:\n${text}`);
  ok(!text.includes(key), `${what} shows the lock key ${key}:\n${text}`);
}

function ok0(what: string, result: CliResult): CliResult {
  equal(result.code, 0, `${what}: ${result.stderr}`);
  return result;
}

Deno.test("one display name: sources, trust, sync, list, show, doctor, lock, verify and its SARIF name a source alike", async () => {
  await withSandbox(async (box) => {
    offline(box);
    const upstream = await box.repo("clones/x/x", {
      "skills/lint/SKILL.md": skill("lint", "Lint the code."),
    });
    const ref = await box.git(upstream, "rev-parse", "--abbrev-ref", "HEAD");
    await writeTree(box.project, {
      ".dsh/skills-anywhere.json": JSON.stringify({
        sources: [{ repo: upstream, ref, path: "skills" }],
      }),
    });
    const source = resolveSource({ repo: upstream, ref, path: "skills" }, cacheDir(box));
    const name = `${upstream}/skills@${ref}`;
    const key = source.key;
    match(key, /^local\/[0-9a-f]{12}@/);
    const at = escapeRe(name);

    const trust = ok0("trust", await box.cli("trust", "--yes"));
    namesOnce("trust", trust.stdout, name, key, new RegExp(`^${at} {2,}${escapeRe(ref)} `, "m"));
    const sync = ok0("sync", await box.cli("sync"));
    namesOnce("sync", sync.stdout, name, key, new RegExp(`^${at} {2,}cloned `, "m"));
    const sources = ok0("sources", await box.cli("sources"));
    namesOnce(
      "sources",
      sources.stdout,
      name,
      key,
      new RegExp(`^${at} {2,}${escapeRe(ref)} `, "m"),
    );
    const list = ok0("list", await box.cli("list"));
    namesOnce("list", list.stdout, name, key, new RegExp(`^lint {2,}git ${at} {2,}`, "m"));
    const show = ok0("show", await box.cli("show", "lint"));
    namesOnce("show", show.stdout, name, key, new RegExp(`^from: +git ${at}$`, "m"));
    const doctor = ok0("doctor", await box.cli("doctor"));
    namesOnce("doctor", doctor.stdout, name, key, new RegExp(`^ +source ${at} {2,}1 `, "m"));

    ok0("lock", await box.cli("lock"));
    await box.commit(upstream, { "skills/lint/SKILL.md": skill("lint", "Lint more.") });
    ok0("sync --force", await box.cli("sync", "--force"));
    const verify = await box.cli("verify");
    equal(verify.code, 1, verify.stderr);
    namesOnce("verify", verify.stdout, name, key, new RegExp(`^source "${at}": locked `, "m"));
    const sarif = await box.cli("verify", "--format", "sarif");
    equal(sarif.code, 1, sarif.stderr);
    const texts = JSON.parse(sarif.stdout).runs[0].results.map((r: { message: { text: string } }) =>
      r.message.text
    ).join("\n");
    namesOnce("verify --format sarif", texts, name, key, new RegExp(`^source ${at}: locked `, "m"));

    // A failed sync: list (on stderr) and doctor name it by the same name.
    await Deno.rename(upstream, join(box.root, "gone"));
    equal((await box.cli("sync", "--force")).code, 1);
    const failed = ok0("list after a failed sync", await box.cli("list"));
    namesOnce("list's failed-source line", failed.stderr, name, key, new RegExp(at));
    const sick = await box.cli("doctor");
    namesOnce("doctor's failed sources", sick.stdout, name, key, new RegExp(`^ +${at}\\b`, "m"));
    ok(projectFile(box).startsWith(box.project));
  }, CATALOG_BOX);
});
