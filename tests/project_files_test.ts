// Project files read like skill files (issue 27, finding 11): a project's `.claude/settings.json`
// and `settings.local.json`, its sources file and its lock are read only from inside the project
// (never through a link, nor a linked folder), and no message of `list`, `doctor`, `mcp`, dsh's
// provider, `sources` or `verify` quotes a file's content — not a project's, not the user's own, whatever
// JSON.parse would have said (V8: `Unexpected token 'A', "AWS_SECRET"... is not valid JSON`).
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { catalogConfig, ProviderConfig } from "../dsh/config.ts";
import { SkillsAnywhereProvider } from "../dsh/provider.ts";
import { enabledPlugins } from "../lib/catalog/_plugins.ts";
import { readConfigBytes } from "../lib/sources/_files.ts";
import type { Log } from "../lib/util.ts";
import { withSession } from "./mcp_helpers.ts";
import { setSigners } from "./signers_fixture.ts";
import { type Sandbox, skillMd, withSandbox, writeTree } from "./helpers.ts";

const SECRET = "AWS_SECRET=wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY\n";
const ENABLE = JSON.stringify({ enabledPlugins: { "p@m": true } });

/** Whether any text quotes the secret (its name or any part of its value). */
const leaks = (...texts: string[]) =>
  texts.some((text) => /AWS_SECRET|wJalrXUtnFEMI|EXAMPLEKEY/.test(text));

/** A log that keeps its lines. */
function keep(): { log: Log; lines: string[] } {
  const lines: string[] = [];
  return { log: (_level, message) => lines.push(message), lines };
}

/** The user's home with plugin `p@m` installed (one skill, `planted`) and the secret outside. */
async function layHome(box: Sandbox): Promise<string> {
  const plugins = join(box.home, ".claude", "plugins");
  const dir = join(plugins, "cache", "m", "p", "1.0.0");
  await writeTree(dir, {
    "skills/planted/SKILL.md": skillMd("planted", "Planted by a project's settings.", "Body."),
  });
  await writeTree(plugins, {
    "installed_plugins.json": JSON.stringify({
      version: 2,
      plugins: { "p@m": [{ scope: "user", installPath: dir, version: "1" }] },
    }),
  });
  const outside = join(box.root, "outside");
  await writeTree(outside, {
    secret: SECRET,
    "enable.json": ENABLE,
    "claude/settings.json": ENABLE,
  });
  return outside;
}

const enabled = (box: Sandbox, log: Log) =>
  enabledPlugins(box.home, { projectRoot: box.project, log }).map((p) => p.plugin);

Deno.test("project settings: links out of the project (the files, or .claude itself) are refused, never quoted", async () => {
  await withSandbox(async (box) => {
    const outside = await layHome(box);
    // Control: the project's own settings file does enable the plugin.
    await writeTree(box.project, { ".claude/settings.local.json": ENABLE });
    deepEqual(enabled(box, () => {}), ["p"]);
    await Deno.remove(join(box.project, ".claude"), { recursive: true });

    // The attack as written: settings.json links to the secret, settings.local.json to a file
    // that would enable the plugin.
    await Deno.mkdir(join(box.project, ".claude"));
    await Deno.symlink(join(outside, "secret"), join(box.project, ".claude", "settings.json"));
    await Deno.symlink(
      join(outside, "enable.json"),
      join(box.project, ".claude", "settings.local.json"),
    );
    const { log, lines } = keep();
    deepEqual(enabled(box, log), []);
    equal(lines.length, 2, lines.join("\n"));
    ok(lines.every((line) => line.includes("refused for safety")), lines.join("\n"));
    equal(leaks(...lines), false, lines.join("\n"));

    const list = await box.cli("list", "--json");
    equal(list.code, 0, list.stderr);
    equal(list.stdout.includes('"planted"'), false);
    ok(list.stderr.includes("refused for safety"), list.stderr);
    const doctor = await box.cli("doctor");
    equal(leaks(list.stdout, list.stderr, doctor.stdout, doctor.stderr), false, doctor.stderr);
    const stderr = await withSession(box, "auto", async (session) => {
      const found = await session.call("find_skills", { query: "planted" });
      equal(JSON.stringify(found).includes("Planted by"), false);
    });
    equal(leaks(stderr), false, stderr);
    // dsh's provider: its log (dsh's log file) gets the same refusals, never the content.
    const dsh = keep();
    const provider = new SkillsAnywhereProvider(
      catalogConfig(ProviderConfig.parse({
        home: box.home,
        dshHome: box.dshHome,
        sync: false,
        watch: false,
      })),
      dsh.log,
    );
    try {
      const candidates = await provider.list({ cwd: box.project });
      equal(JSON.stringify(candidates).includes("planted"), false);
    } finally {
      await provider.dispose();
    }
    ok(dsh.lines.some((line) => line.includes("refused for safety")), dsh.lines.join("\n"));
    equal(leaks(...dsh.lines), false, dsh.lines.join("\n"));

    // A linked .claude folder: its regular files lie outside the project.
    await Deno.remove(join(box.project, ".claude"), { recursive: true });
    await Deno.symlink(join(outside, "claude"), join(box.project, ".claude"));
    const linked = keep();
    deepEqual(enabled(box, linked.log), []);
    ok(linked.lines.some((line) => line.includes("refused for safety")), linked.lines.join("\n"));
  });
});

Deno.test("project settings inside the project holding the secret: one warning with no content", async () => {
  await withSandbox(async (box) => {
    await layHome(box);
    await writeTree(box.project, { ".claude/settings.json": SECRET });
    const { log, lines } = keep();
    deepEqual(enabled(box, log), []);
    equal(lines.length, 1, lines.join("\n"));
    equal(leaks(...lines), false, lines[0]);
    ok(lines[0].includes("not valid JSON (line 1, column 1)"), lines[0]);
    const list = await box.cli("list");
    equal(leaks(list.stdout, list.stderr), false, list.stderr);
  });
});

Deno.test("every config file kind holding the secret: no message quotes it (project and home)", async () => {
  await withSandbox(async (box) => {
    await layHome(box);
    await writeTree(box.project, {
      ".claude/skills/pdf/SKILL.md": skillMd("pdf", "Fill PDF forms.", "Body."),
    });
    equal((await box.cli("lock")).code, 0);
    const files: [string, string][] = [
      [join(box.home, ".claude", "settings.json"), "home settings"],
      [join(box.home, ".claude", "plugins", "installed_plugins.json"), "installed plugins"],
      [join(box.project, ".dsh", "skills-anywhere.json"), "project sources"],
      [join(box.dshHome, "skills-anywhere", "sources.json"), "user sources"],
      [join(box.dshHome, "skills-anywhere", "trust.json"), "trust"],
      [join(box.dshHome, "skills-anywhere", "lock.json"), "sources lock"],
    ];
    for (const [file] of files) {
      await writeTree(join(file, ".."), { [file.split("/").pop()!]: SECRET });
    }
    const outputs: string[] = [];
    for (const args of [["list"], ["doctor"], ["sources"], ["verify"]]) {
      const result = await box.cli(...args);
      outputs.push(`${args[0]}: ${result.stdout}${result.stderr}`);
    }
    const stderr = await withSession(box, "auto", async (session) => {
      await session.call("find_skills", { query: "pdf" });
    });
    outputs.push(`mcp: ${stderr}`);
    for (const output of outputs) equal(leaks(output), false, output);
    // The project lock and the allowed-signers file it names.
    await writeTree(box.project, { "skills-anywhere.lock.json": SECRET });
    const verify = await box.cli("verify");
    equal(verify.code, 2);
    equal(leaks(verify.stdout, verify.stderr), false, verify.stderr);
    await Deno.remove(join(box.project, "skills-anywhere.lock.json"));
    equal((await box.cli("lock")).code, 0);
    await setSigners(box, { allowed_signers: "signers", require: true });
    await writeTree(box.project, { signers: SECRET });
    const signed = await box.cli("verify");
    equal(signed.code, 2, signed.stderr);
    equal(leaks(signed.stdout, signed.stderr), false, signed.stderr);
  });
});

Deno.test("project sources file and lock: read only from inside the project, never through a link or a linked .dsh", async () => {
  await withSandbox(async (box) => {
    const outside = join(box.root, "outside");
    await writeTree(outside, {
      "dsh/skills-anywhere.json": JSON.stringify({ sources: ["o/r"] }),
      "lock.json": "{}",
    });
    const file = join(box.project, ".dsh", "skills-anywhere.json");
    await Deno.mkdir(join(box.project, ".dsh"));
    await Deno.symlink(join(outside, "dsh", "skills-anywhere.json"), file);
    const refusal = async () => {
      const error = await readConfigBytes(file, { root: box.project }).then(
        () => undefined,
        (e) => e,
      );
      return (error as Error | undefined)?.message ?? "read";
    };
    ok((await refusal()).includes("refused for safety") || (await refusal()).includes("link"));
    await Deno.remove(join(box.project, ".dsh"), { recursive: true });
    await Deno.symlink(join(outside, "dsh"), join(box.project, ".dsh"));
    ok((await refusal()).includes("refused for safety"), await refusal());
    const sources = await box.cli("sources");
    equal(sources.code, 2, sources.stderr);
    ok(sources.stderr.includes("refused for safety"), sources.stderr);
    const list = await box.cli("list");
    ok(list.stderr.includes("refused for safety"), list.stderr);
    equal(list.stdout.includes("o/r"), false);
    // The lock: a link in its place is refused (one line, exit 2), never followed.
    await Deno.symlink(join(outside, "lock.json"), join(box.project, "skills-anywhere.lock.json"));
    const verify = await box.cli("verify");
    equal(verify.code, 2, verify.stderr);
  });
});
