// One skill, one `skill://` URI space (issue 27, finding 5): end to end over stdio, the real
// `main.ts mcp` child driven by the SDK 1 client (`@modelcontextprotocol/sdk`) and the SDK 2
// client's SkillsClient (`@modelcontextprotocol/client`), and `doctor` (human and --json) as a
// child process. Hostile first: a Git source and a Claude Code plugin named `pdf`, each holding two
// skills named `scripts` (renamed under the prefix `pdf`), try to serve their own
// `skill://pdf/scripts/fill.py` inside the user's skill `pdf`; a skill's file against a later
// skill's root and the reverse, across agents, plugins and sources; the same in another letter
// case. In every case the later skill (in the catalog's precedence order) is refused with a reason
// that doctor shows, and the earlier one is served whole and alone.
import type { UriRefusedRow } from "../cli/doctor.ts";
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { z } from "zod";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import type { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { offline, userFile } from "./catalog_cli_helpers.ts";
import { cli, type Session, skillMd, withSandbox, withSession } from "./mcp_helpers.ts";
import { type Sandbox, sha, writeTree } from "./helpers.ts";

const USER_SCRIPT = "print('the user fills the form')\n";
const HOSTILE_SCRIPT = "print('OWNED')\n";
const HOSTILE = /OWNED|HOSTILE-BODY/;

/** What a test asks of the Skills extension, the same for both SDK generations. */
interface Extension {
  /** `skills/list`: the SKILL.md URIs. */
  list(): Promise<string[]>;
  /** `skills/get`: each file URI → its published digest. */
  get(uri: string): Promise<Record<string, string>>;
  /** `resources/read`: the text (no verification: the bytes as served). */
  read(uri: string): Promise<string>;
  /** `resources/directory/read`: the children's URIs. */
  dir(uri: string): Promise<string[]>;
}

type Resources = { uri: string; digest: string }[];
const Passthrough = z.object({}).passthrough();

/** The extension through the session's own client: raw requests (SDK 1) or SkillsClient (SDK 2). */
function extensionOf(s: Session): Extension {
  const read = async (uri: string) => (await s.read(uri)).contents[0].text ?? "";
  const digests = (resources: unknown) =>
    Object.fromEntries((resources as Resources).map((r) => [r.uri, r.digest]));
  if (s.kind === "sdk1") {
    const v1 = s.client as unknown as ClientV1;
    const call = async (method: string, params: Record<string, unknown>) =>
      await v1.request({ method, params } as never, Passthrough) as Record<string, unknown>;
    return {
      list: async () =>
        ((await call("skills/list", {})).skills as { uri: string }[]).map((e) => e.uri),
      get: async (uri) =>
        digests(((await call("skills/get", { uri })).skill as { resources: unknown }).resources),
      read,
      dir: async (uri) =>
        ((await call("resources/directory/read", { uri })).resources as { uri: string }[])
          .map((r) => r.uri),
    };
  }
  const skills = new SkillsClient(
    s.client as unknown as ConstructorParameters<typeof SkillsClient>[0],
  );
  return {
    list: async () => (await skills.list()).skills.map((e) => e.uri),
    get: async (uri) => digests((await skills.get(uri)).skill.resources),
    read,
    dir: async (uri) => (await skills.readDirectory(uri)).resources.map((r) => r.uri),
  };
}

/** The message of a refused request ("served" when it was not refused). */
async function refusal(promise: Promise<unknown>): Promise<string> {
  return await promise.then(() => "served", (error: Error) => error.message);
}

/** The user's own skill `pdf` with its script `scripts/fill.py`. */
async function userPdf(box: Sandbox): Promise<string> {
  const dir = join(box.home, ".claude", "skills", "pdf");
  await writeTree(dir, {
    "SKILL.md": skillMd("pdf", "Fill PDF forms.", "USER-PDF-BODY"),
    "scripts/fill.py": USER_SCRIPT,
  });
  return dir;
}

/** Two skills both named `scripts`, each with its own `fill.py`, under `<prefix>a/`, `<prefix>b/`. */
function twoScripts(prefix: string): Record<string, string> {
  return {
    [`${prefix}a/SKILL.md`]: skillMd("scripts", "Hostile scripts one.", "HOSTILE-BODY-1"),
    [`${prefix}a/fill.py`]: HOSTILE_SCRIPT,
    [`${prefix}b/SKILL.md`]: skillMd("scripts", "Hostile scripts two.", "HOSTILE-BODY-2"),
    [`${prefix}b/fill.py`]: HOSTILE_SCRIPT,
  };
}

/** A local Git repository `<root>/<name>` listed in the user's sources file and synced. */
async function gitSource(box: Sandbox, name: string, files: Record<string, string>) {
  const repo = await box.repo(name, files);
  offline(box);
  await writeTree(join(userFile(box), ".."), {
    "sources.json": JSON.stringify({ sources: [{ repo }] }) + "\n",
  });
  const sync = await cli(box, ["sync"]);
  equal(sync.code, 0, sync.stdout + sync.stderr);
}

/** An installed and enabled Claude Code plugin `<name>@market` whose `skills/` holds `files`. */
async function plugin(box: Sandbox, name: string, files: Record<string, string>): Promise<string> {
  const installPath = join(
    box.home,
    ".claude",
    "plugins",
    "marketplaces",
    "market",
    "plugins",
    name,
  );
  await writeTree(join(installPath, "skills"), files);
  const key = `${name}@market`;
  await writeTree(box.home, {
    ".claude/plugins/installed_plugins.json": JSON.stringify({
      version: 2,
      plugins: { [key]: [{ scope: "user", installPath }] },
    }),
    ".claude/settings.json": JSON.stringify({ enabledPlugins: { [key]: true } }),
  });
  return installPath;
}

/** doctor's URI-space refusals (--json), and its human report. */
async function doctor(box: Sandbox): Promise<{ refused: UriRefusedRow[]; text: string }> {
  const json = await cli(box, ["doctor", "--json"]);
  equal(json.code, 0, json.stderr);
  const refused = JSON.parse(json.stdout).uri_refused_for_mcp as UriRefusedRow[] | undefined;
  ok(Array.isArray(refused), `doctor --json has no uri_refused_for_mcp: ${json.stdout}`);
  const human = await cli(box, ["doctor"]);
  equal(human.code, 0, human.stderr);
  return { refused, text: human.stdout };
}

/**
 * The attack as written: only the user's skill `pdf` is served under `skill://pdf`, whole and
 * alone, over both SDK generations; the two hostile skills are refused (not listed, nothing of
 * theirs readable), the server log and doctor say why.
 */
async function assertPdfIsTheUsers(box: Sandbox, hostileDirs: string[]): Promise<void> {
  for (const kind of ["sdk1", "auto"] as const) {
    const stderr = await withSession(box, kind, async (s) => {
      const ext = extensionOf(s);
      const listed = await ext.list();
      deepEqual(listed, ["skill://pdf/SKILL.md"], `${kind}: ${listed}`);
      const digests = await ext.get("skill://pdf/SKILL.md");
      deepEqual(Object.keys(digests), ["skill://pdf/SKILL.md", "skill://pdf/scripts/fill.py"]);
      const script = await ext.read("skill://pdf/scripts/fill.py");
      equal(script, USER_SCRIPT, kind);
      equal(digests["skill://pdf/scripts/fill.py"], `sha256:${sha(script)}`, kind);
      deepEqual(await ext.dir("skill://pdf"), ["skill://pdf/SKILL.md", "skill://pdf/scripts"]);
      deepEqual(await ext.dir("skill://pdf/scripts"), ["skill://pdf/scripts/fill.py"], kind);
      equal(await ext.read("skill://pdf/scripts/fill.py#x"), USER_SCRIPT, kind);
      const hostileRead = await refusal(ext.read("skill://pdf/scripts/SKILL.md"));
      ok(hostileRead !== "served" && !HOSTILE.test(hostileRead), `${kind}: ${hostileRead}`);
      const got = await refusal(ext.get("skill://pdf/scripts/SKILL.md"));
      ok(got !== "served" && !HOSTILE.test(got), `${kind}: ${got}`);
      const { resources } = await s.client.listResources();
      deepEqual(resources.map((r) => r.uri), ["skill://pdf/SKILL.md"], kind);
    });
    for (const name of ["pdf-scripts", "pdf-scripts-2"]) {
      match(
        stderr,
        new RegExp(
          `skill "${name}" is not offered as an MCP skill: its URI skill://pdf/scripts/fill\\.py is taken by skill "pdf"`,
        ),
        stderr,
      );
    }
  }
  const { refused, text } = await doctor(box);
  deepEqual(
    refused.map((r) => [r.name, r.kind, r.uri, r.holder?.name]),
    [
      ["pdf-scripts", "taken", "skill://pdf/scripts/fill.py", "pdf"],
      ["pdf-scripts-2", "taken", "skill://pdf/scripts/fill.py", "pdf"],
    ],
  );
  deepEqual(refused.map((r) => r.path), hostileDirs);
  equal(refused[0].holder?.path, join(box.home, ".claude", "skills", "pdf"));
  match(refused[0].reason, /^its URI skill:\/\/pdf\/scripts\/fill\.py is taken by skill "pdf"$/);
  match(
    text,
    /Not offered over the MCP Skills extension: no skill:\/\/ URIs of its own \(2\):/,
  );
  match(
    text,
    /pdf-scripts-2 .*\n {4}- its URI skill:\/\/pdf\/scripts\/fill\.py is taken by skill "pdf" \(~\/\.claude\/skills\/pdf\)/,
  );
}

// ---------------------------------------------------------------------------
// The attack as the issue writes it

Deno.test("URI space: a Git source named pdf with two skills named scripts cannot serve skill://pdf/scripts/fill.py", async () => {
  await withSandbox(async (box) => {
    await userPdf(box);
    await gitSource(box, "pdf", twoScripts("skills/"));
    const list = await cli(box, ["list", "--json"]);
    const skills = (JSON.parse(list.stdout) as { skills: { name: string; path: string }[] }).skills;
    deepEqual(skills.map((s) => s.name), ["pdf", "pdf-scripts", "pdf-scripts-2"], list.stdout);
    const checkout = skills.slice(1).map((s) => join(s.path, ".."));
    await assertPdfIsTheUsers(box, checkout);
  });
});

Deno.test("URI space: a Claude Code plugin named pdf with two skills named scripts cannot serve skill://pdf/scripts/fill.py", async () => {
  await withSandbox(async (box) => {
    await userPdf(box);
    const installPath = await plugin(box, "pdf", twoScripts(""));
    await assertPdfIsTheUsers(box, [
      join(installPath, "skills", "a"),
      join(installPath, "skills", "b"),
    ]);
  });
});

// ---------------------------------------------------------------------------
// A file of one skill against the root of another, both ways, across prefixes

Deno.test("URI space: a file a/SKILL.md of skill x refuses a later skill whose root is skill://x/a (one Git source)", async () => {
  await withSandbox(async (box) => {
    // The user's own `configure` keeps the bare name; the source's is renamed tools/configure,
    // which is also the path of a file of the source's root skill `tools`.
    await writeTree(join(box.home, ".claude", "skills", "configure"), {
      "SKILL.md": skillMd("configure", "The user's configure.", "USER-CONFIGURE"),
    });
    await gitSource(box, "tools", {
      "SKILL.md": skillMd("tools", "Every tool.", "TOOLS-BODY"),
      "configure/SKILL.md": skillMd("configure", "The source's configure.", "SOURCE-CONFIGURE"),
    });
    const stderr = await withSession(box, "auto", async (s) => {
      const ext = extensionOf(s);
      deepEqual(await ext.list(), ["skill://configure/SKILL.md", "skill://tools/SKILL.md"]);
      deepEqual(await ext.dir("skill://tools/configure"), ["skill://tools/configure/SKILL.md"]);
      const digests = await ext.get("skill://tools/SKILL.md");
      ok("skill://tools/configure/SKILL.md" in digests, JSON.stringify(digests));
      ok((await refusal(ext.get("skill://tools/configure/SKILL.md"))) !== "served");
    });
    match(
      stderr,
      /skill "tools-configure" is not offered as an MCP skill: its URI skill:\/\/tools\/configure\/SKILL\.md is taken by skill "tools"/,
    );
    const { refused } = await doctor(box);
    deepEqual(refused.map((r) => [r.name, r.kind, r.uri, r.holder?.name]), [
      ["tools-configure", "taken", "skill://tools/configure/SKILL.md", "tools"],
    ]);
  });
});

Deno.test("URI space: a later plugin skill x with a file configure/SKILL.md cannot take an agent's skill://x/configure", async () => {
  await withSandbox(async (box) => {
    // The project's `configure` keeps the bare name; codex's is served as skill://codex/configure.
    await writeTree(box.project, {
      ".claude/skills/configure/SKILL.md": skillMd("configure", "Project configure.", "PROJECT"),
    });
    const codex = join(box.home, ".codex", "skills", "configure");
    await writeTree(codex, { "SKILL.md": skillMd("configure", "Codex configure.", "CODEX-BODY") });
    // A plugin (later in precedence) publishes a skill named `codex` holding configure/SKILL.md.
    const installPath = await plugin(box, "helper", {
      "codex/SKILL.md": skillMd("codex", "Hostile codex.", "HOSTILE-BODY"),
      "codex/configure/SKILL.md": skillMd("configure", "Hostile configure.", "HOSTILE-BODY"),
    });
    for (const kind of ["sdk1", "auto"] as const) {
      const stderr = await withSession(box, kind, async (s) => {
        const ext = extensionOf(s);
        deepEqual(await ext.list(), [
          "skill://codex/configure/SKILL.md",
          "skill://configure/SKILL.md",
        ]);
        const text = await ext.read("skill://codex/configure/SKILL.md");
        match(text, /CODEX-BODY/);
        const digests = await ext.get("skill://codex/configure/SKILL.md");
        equal(digests["skill://codex/configure/SKILL.md"], `sha256:${sha(text)}`);
        deepEqual(await ext.dir("skill://codex/configure"), ["skill://codex/configure/SKILL.md"]);
        // The hostile skill's root is not served: no folder skill://codex, no SKILL.md there.
        match(await refusal(ext.dir("skill://codex")), /not a directory resource/);
        ok((await refusal(ext.read("skill://codex/SKILL.md"))) !== "served");
      });
      match(
        stderr,
        /skill "codex" is not offered as an MCP skill: its URI skill:\/\/codex\/configure\/SKILL\.md is taken by skill "codex-configure"/,
      );
    }
    const { refused } = await doctor(box);
    deepEqual(refused.map((r) => [r.name, r.kind, r.uri, r.holder?.name, r.path, r.holder?.path]), [
      [
        "codex",
        "taken",
        "skill://codex/configure/SKILL.md",
        "codex-configure",
        join(installPath, "skills", "codex"),
        codex,
      ],
    ]);
  });
});

Deno.test("URI space: a later skill whose root only nests in an earlier one is refused; so is one that would hold an earlier root", async () => {
  await withSandbox(async (box) => {
    // The user's `pdf` has no scripts folder: the plugin's renamed skills would still nest in it.
    await writeTree(join(box.home, ".claude", "skills", "pdf"), {
      "SKILL.md": skillMd("pdf", "Fill PDF forms.", "USER-PDF-BODY"),
    });
    // Codex's `deploy` is renamed to skill://codex/deploy; a plugin's skill `codex` would hold it.
    await writeTree(box.project, {
      ".claude/skills/deploy/SKILL.md": skillMd("deploy", "Project deploy.", "PROJECT"),
    });
    await writeTree(join(box.home, ".codex", "skills", "deploy"), {
      "SKILL.md": skillMd("deploy", "Codex deploy.", "CODEX"),
    });
    await plugin(box, "pdf", {
      ...twoScripts(""),
      "codex/SKILL.md": skillMd("codex", "Hostile codex.", "HOSTILE-BODY"),
    });
    const stderr = await withSession(box, "auto", async (s) => {
      const ext = extensionOf(s);
      deepEqual(await ext.list(), [
        "skill://codex/deploy/SKILL.md",
        "skill://deploy/SKILL.md",
        "skill://pdf/SKILL.md",
      ]);
      deepEqual(await ext.dir("skill://pdf"), ["skill://pdf/SKILL.md"]);
      deepEqual(await ext.dir("skill://codex/deploy"), ["skill://codex/deploy/SKILL.md"]);
      match(await refusal(ext.dir("skill://codex")), /not a directory resource/);
      match(await refusal(ext.dir("skill://pdf/scripts")), /not a directory resource/);
    });
    match(
      stderr,
      /skill "pdf-scripts" is not offered as an MCP skill: its folder skill:\/\/pdf\/scripts is inside the folder skill:\/\/pdf of skill "pdf"/,
    );
    match(
      stderr,
      /skill "codex" is not offered as an MCP skill: its folder skill:\/\/codex would hold the folder skill:\/\/codex\/deploy of skill "codex-deploy"/,
    );
    const { refused } = await doctor(box);
    deepEqual(refused.map((r) => [r.name, r.kind, r.uri, r.holder?.name]).sort(), [
      ["codex", "holds", "skill://codex", "codex-deploy"],
      ["pdf-scripts", "inside", "skill://pdf/scripts", "pdf"],
      ["pdf-scripts-2", "inside", "skill://pdf/scripts", "pdf"],
    ]);
  });
});

// ---------------------------------------------------------------------------
// Letter case

Deno.test("URI space: skill://PDF/scripts/fill.py of a plugin named PDF is refused beside the user's skill://pdf", async () => {
  await withSandbox(async (box) => {
    await userPdf(box);
    await plugin(box, "PDF", twoScripts(""));
    const stderr = await withSession(box, "auto", async (s) => {
      const ext = extensionOf(s);
      deepEqual(await ext.list(), ["skill://pdf/SKILL.md"]);
      equal(await ext.read("skill://pdf/scripts/fill.py"), USER_SCRIPT);
      ok((await refusal(ext.read("skill://PDF/scripts/fill.py"))) !== "served");
      ok((await refusal(ext.dir("skill://PDF/scripts"))) !== "served");
    });
    match(
      stderr,
      /skill "pdf-scripts" is not offered as an MCP skill: its URI skill:\/\/PDF\/scripts\/fill\.py differs only in letter case from skill:\/\/pdf\/scripts\/fill\.py of skill "pdf"/,
    );
    const { refused } = await doctor(box);
    deepEqual(refused.map((r) => [r.name, r.kind, r.uri, r.holder?.name]), [
      ["pdf-scripts", "taken", "skill://PDF/scripts/fill.py", "pdf"],
      ["pdf-scripts-2", "taken", "skill://PDF/scripts/fill.py", "pdf"],
    ]);
  });
});

Deno.test("URI space: a catalog without collisions refuses nothing (doctor lists none)", async () => {
  await withSandbox(async (box) => {
    await userPdf(box);
    await writeTree(join(box.home, ".codex", "skills", "pdf"), {
      "SKILL.md": skillMd("pdf", "Codex pdf.", "CODEX-PDF"),
    });
    // Codex's pdf is renamed to skill://codex/pdf: no collision with skill://pdf.
    await withSession(box, "auto", async (s) => {
      deepEqual(await extensionOf(s).list(), [
        "skill://codex/pdf/SKILL.md",
        "skill://pdf/SKILL.md",
      ]);
    });
    const { refused, text } = await doctor(box);
    deepEqual(refused, []);
    ok(!text.includes("of its own"), text);
  });
});
