// Hostile input and faults across the surfaces: the MCP server fed garbage,
// unknown methods, wrong argument types, an oversized message and a client that vanishes;
// `bundle` and `check` on trees that change while they are read; `sync` with an unreachable or
// malicious repository; and the guard test: every command run against a fixture home, with the
// whole tree hashed before and after, proves that no skill or agent directory is ever written.
// Everything runs in temp directories with an isolated git; nothing reaches the network.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { createHash } from "node:crypto";
import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import { join } from "node:path";
import {
  type CliResult,
  currentDenoDir,
  runCli,
  runGit,
  withGitDaemon,
  withTempDir,
  writeTree,
} from "./helpers.ts";
import {
  type RpcMessage,
  type Sandbox,
  serverParams,
  skillMd,
  textOf,
  type ToolResult,
  withRawServer,
  withSession,
} from "./mcp_helpers.ts";

// ---------------------------------------------------------------------------
// A sandbox with an isolated git, and a tree fingerprint

interface World extends Sandbox {
  /** Runs the CLI in the project with the sandbox environment. */
  cli(...args: string[]): Promise<CliResult>;
  /** Runs the test's own git; returns trimmed stdout. */
  git(cwd: string, ...args: string[]): Promise<string>;
  /** Makes a git repository at `<root>/<name>` with `files` committed; returns its path. */
  repo(
    name: string,
    files: Record<string, string>,
    links?: Record<string, string>,
  ): Promise<string>;
}

async function withWorld(fn: (world: World) => Promise<void>): Promise<void> {
  await withTempDir(async (root) => {
    const home = join(root, "home");
    const dshHome = join(home, ".dsh");
    const project = join(root, "project");
    await Deno.mkdir(dshHome, { recursive: true });
    await Deno.mkdir(join(project, ".git"), { recursive: true });
    const env: Record<string, string> = {
      HOME: home,
      DSH_HOME: dshHome,
      XDG_CONFIG_HOME: join(root, "xdg"),
      GIT_CONFIG_GLOBAL: join(root, "gitconfig"),
      GIT_CONFIG_NOSYSTEM: "1",
      // Only local repositories: a mistake can never reach the network.
      GIT_ALLOW_PROTOCOL: "file",
      GIT_TERMINAL_PROMPT: "0",
      DENO_DIR: await currentDenoDir(),
      DENO_NO_UPDATE_CHECK: "1",
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    };
    const git = (cwd: string, ...args: string[]) => runGit(cwd, args, { env, clearEnv: true });
    const world: World = {
      root,
      home,
      dshHome,
      project,
      env,
      cli: (...args) => runCli(args, { cwd: project, env }),
      git,
      async repo(name, files, links = {}) {
        const dir = join(root, name);
        await Deno.mkdir(dir, { recursive: true });
        await git(dir, "init", "-q");
        await writeTree(dir, files);
        for (const [path, target] of Object.entries(links)) {
          await Deno.mkdir(join(dir, path, ".."), { recursive: true });
          await Deno.symlink(target, join(dir, path));
        }
        await git(dir, "add", "-A");
        await git(dir, "commit", "-q", "-m", "init");
        return dir;
      },
    };
    await fn(world);
  });
}

/**
 * One line per entry below `root` (sorted): path, type, permission bits, modification time,
 * size and SHA-256 of the bytes (or the link target). Paths under `exclude` are left out, and
 * so are the times of their ancestors (creating the excluded directory touches its parent).
 */
async function fingerprint(root: string, exclude: string[] = []): Promise<string[]> {
  const out: string[] = [];
  const skipTime = (path: string) => exclude.some((e) => e.startsWith(`${path}/`));
  const visit = async (path: string, rel: string) => {
    const info = await lstat(path, { bigint: true });
    const mode = (info.mode & 0o7777n).toString(8);
    const time = skipTime(path) ? "-" : info.mtimeNs.toString();
    if (info.isSymbolicLink()) {
      out.push(`${rel}\tlink\t${mode}\t${time}\t${await readlink(path)}`);
    } else if (info.isFile()) {
      const sha = createHash("sha256").update(await readFile(path)).digest("hex");
      out.push(`${rel}\tfile\t${mode}\t${time}\t${info.size}\t${sha}`);
    } else if (info.isDirectory()) {
      out.push(`${rel}\tdir\t${mode}\t${time}`);
      for (const name of (await readdir(path)).sort()) {
        const child = join(path, name);
        if (!exclude.includes(child)) await visit(child, `${rel}/${name}`);
      }
    } else {
      out.push(`${rel}\tother\t${mode}\t${time}`);
    }
  };
  await visit(root, ".");
  return out;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

/** Every path below `dir` (recursively), or [] when it does not exist. */
async function pathsBelow(dir: string): Promise<string[]> {
  if (!(await exists(dir))) return [];
  return (await fingerprint(dir)).map((line) => line.split("\t")[0]);
}

const BODY_MARKER = "PDF-BODY-MARKER";

/** Two project skills, one user skill and one author-disabled skill. */
async function mcpFixture(world: World): Promise<void> {
  await writeTree(world.project, {
    ".claude/skills/pdf-forms/SKILL.md": skillMd("pdf-forms", "Fill PDF forms.", BODY_MARKER),
    ".claude/skills/notes/SKILL.md": skillMd("notes", "Draft notes.", "Notes body."),
    ".claude/skills/secret/SKILL.md": skillMd("secret", "Disabled.", "SECRET-BODY", [
      "disable-model-invocation: true",
    ]),
  });
  await writeTree(world.home, {
    ".codex/skills/review/SKILL.md": skillMd("review", "Review code.", "Review body."),
  });
}

function isErrorAnswer(message: RpcMessage): boolean {
  return message.error !== undefined || message.result?.isError === true;
}

function answerText(message: RpcMessage): string {
  if (message.error !== undefined) return message.error.message;
  return textOf(message.result as unknown as ToolResult);
}

// ---------------------------------------------------------------------------
// (a) MCP

Deno.test("hostile MCP: garbage, non-JSON-RPC, unknown methods and wrong argument types; serving goes on", async () => {
  await withWorld(async (world) => {
    await mcpFixture(world);
    await withRawServer(world, async (server) => {
      const garbage = [
        "not json",
        "{",
        "}",
        "\u001b[31mred\u001b[0m",
        "\u0000\u0001\u0002",
        "NaN",
        "{'single': 1}",
        '{"jsonrpc":"2.0","id":1,"method":',
        "\ud800",
        "[1,2",
        "--- ",
      ];
      const invalid: [string, string | number | null][] = [
        ["null", null],
        ["42", null],
        ['"text"', null],
        ["[]", null],
        ['[{"jsonrpc":"2.0","id":9,"method":"ping"}]', null],
        ['{"id": 5}', 5],
        ['{"jsonrpc":"1.0","id":6,"method":"ping"}', 6],
        ['{"jsonrpc":"2.0","id":7}', 7],
        ['{"jsonrpc":"2.0","id":"eight","method":42}', "eight"],
      ];
      for (const line of garbage) await server.send(line);
      for (const [line] of invalid) await server.send(line);
      const init = await server.initialize(100);
      equal(init.error, undefined);
      const errors = server.lines.map((l) => JSON.parse(l) as RpcMessage);
      equal(errors.filter((m) => m.error?.code === -32700 && m.id === null).length, garbage.length);
      const refused = errors.filter((m) => m.error?.code === -32600).map((m) => m.id);
      deepEqual(refused, invalid.map(([, id]) => id));

      const unknownMethods: [number, string][] = [
        [101, "skills/teleport"],
        [102, "tools/delete"],
        [103, "rpc.discover"],
      ];
      for (const [id, method] of unknownMethods) {
        const answer = await server.request(id, method);
        equal(answer.error?.code, -32601, `${method}: ${JSON.stringify(answer)}`);
      }

      const badCalls: [string, unknown][] = [
        ["open_skill", { name: 42 }],
        ["open_skill", { name: null }],
        ["open_skill", { name: "" }],
        ["open_skill", { name: ["pdf-forms"] }],
        ["open_skill", {}],
        ["open_skill", { name: "pdf-forms", expected_sha256: 7 }],
        ["open_skill", { name: "pdf-forms", expected_sha256: "A".repeat(64) }],
        ["open_skill", { name: "pdf-forms", include_bundle: "yes" }],
        ["open_skill", { name: "pdf-forms", expected_source_commit: "not-a-commit" }],
        ["open_skill", { name: "../../../etc/passwd" }],
        ["open_skill", { name: "secret" }],
        ["open_skill", { name: "\u001b[2Jpdf-forms" }],
        ["list_skills", { limit: "x" }],
        ["list_skills", { offset: -1 }],
        ["list_skills", { limit: 1.5 }],
        ["list_skills", { limit: 1e9 }],
        ["list_skills", { offset: "0" }],
        ["find_skills", { query: [] }],
        ["find_skills", { query: "" }],
        ["find_skills", { query: {} }],
        ["find_skills", { query: "pdf", limit: -1 }],
        ["rm_rf", {}],
        ["open_skill", "pdf-forms"],
        ["list_skills", [1, 2]],
      ];
      let id = 200;
      for (const [name, args] of badCalls) {
        const answer = await server.request(++id, "tools/call", { name, arguments: args });
        ok(
          isErrorAnswer(answer),
          `${name} ${JSON.stringify(args)} was served: ${JSON.stringify(answer)}`,
        );
        const text = answerText(answer);
        ok(!text.includes(BODY_MARKER) && !text.includes("SECRET-BODY"), text);
      }
      const badReads: Record<string, unknown>[] = [
        {},
        { uri: 42 },
        { uri: "skill://../../etc/passwd" },
        { uri: "file:///etc/passwd" },
        { uri: "skill://secret" },
      ];
      for (const params of badReads) {
        const answer = await server.request(++id, "resources/read", params);
        ok(
          isErrorAnswer(answer),
          `resources/read ${JSON.stringify(params)}: ${JSON.stringify(answer)}`,
        );
      }
      const noParamsId = ++id;
      await server.send({ jsonrpc: "2.0", id: noParamsId, method: "tools/call" });
      const noParams = await server.waitFor((m) => m.id === noParamsId);
      ok(isErrorAnswer(noParams), JSON.stringify(noParams));

      // After all of that, a normal request is still served in full.
      const good = await server.request(++id, "tools/call", {
        name: "open_skill",
        arguments: { name: "pdf-forms" },
      });
      equal(good.result?.isError, undefined, JSON.stringify(good));
      ok(answerText(good).includes(BODY_MARKER));

      const done = await server.finish();
      equal(done.code, 0, done.stderr);
      for (const line of done.stdout) equal(JSON.parse(line).jsonrpc, "2.0", line);
    });
  });
});

Deno.test("hostile MCP: a 5 MiB single-line message is refused with -32600 naming the limit; serving goes on", async () => {
  await withWorld(async (world) => {
    await mcpFixture(world);
    await withRawServer(world, async (server) => {
      await server.initialize(1);
      const huge = JSON.stringify({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "find_skills", arguments: { query: "x".repeat(5 * 1024 * 1024) } },
      });
      ok(huge.length > 5 * 1024 * 1024);
      await server.send(huge);
      const refused = await server.waitFor((m) => m.error?.code === -32600);
      equal(refused.id, null);
      match(refused.error!.message, /4194304 characters/);
      const after = await server.request(3, "tools/call", {
        name: "find_skills",
        arguments: { query: "pdf" },
      });
      equal(after.result?.isError, undefined, JSON.stringify(after));
      match(answerText(after), /pdf-forms/);
      const done = await server.finish();
      equal(done.code, 0, done.stderr);
      ok(!done.stdout.some((l) => JSON.parse(l).id === 2), "the oversized request was served");
      ok(done.stdout.every((l) => l.length < 1024 * 1024), "nothing echoes the oversized message");
    });
  });
});

/**
 * Spawns the server, writes `input`, then stops reading stdout at once and closes stdin (or,
 * with `keepStdin`, leaves stdin open: the server learns of the disconnect when it writes).
 */
async function vanishingClient(
  world: World,
  input: string,
  keepStdin = false,
): Promise<Deno.CommandStatus> {
  const { command, args, env, cwd } = serverParams(world);
  const child = new Deno.Command(command, {
    args,
    env,
    cwd,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  await child.stdout.cancel();
  await writer.write(new TextEncoder().encode(input));
  if (!keepStdin) await writer.close();
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  const started = Date.now();
  const status = await child.status;
  clearTimeout(timer);
  if (keepStdin) await writer.close().catch(() => {});
  ok(Date.now() - started < 8000, "the server took too long to exit");
  return status;
}

Deno.test("hostile MCP: a client that calls a tool and disconnects leaves a server that exits 0", async () => {
  await withWorld(async (world) => {
    await mcpFixture(world);
    const opening = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "vanishing", version: "1" },
        },
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
    ].map((m) => JSON.stringify(m) + "\n").join("");
    const call = (id: number, name: string, args: Record<string, unknown>) =>
      JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name, arguments: args },
      }) +
      "\n";
    const cases = {
      "a tools/call, then gone": opening +
        call(2, "open_skill", { name: "pdf-forms", include_bundle: true }),
      "several calls, then gone": opening + call(2, "list_skills", {}) +
        call(3, "find_skills", { query: "notes" }) + call(4, "open_skill", { name: "review" }),
      "gone in the middle of a line": opening + call(2, "list_skills", {}).slice(0, 30),
      "gone before initialize": call(1, "list_skills", {}),
    };
    await Promise.all(
      Object.entries(cases).map(async ([what, input]) => {
        const status = await vanishingClient(world, input);
        equal(status.code, 0, what);
        equal(status.signal, null, what);
      }),
    );
    // Stops reading but never closes stdin: the first answer fails to write, and that ends it.
    const status = await vanishingClient(world, cases["a tools/call, then gone"], true);
    equal(status.code, 0, "stdout closed, stdin open");
    equal(status.signal, null);
  });
});

// ---------------------------------------------------------------------------
// (b) trees that change while `bundle` reads them; a file deleted between two `check` runs

const CHANGED = "Bundle changed during inspection; retry a stable directory.";
const GREW = "Bundle grew beyond its byte limit during inspection.";
const MiB = 1024 * 1024;

function noise(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let x = seed;
  for (let i = 0; i < size; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

/**
 * Runs the shell loop body `body` (`$1` = `arg`) over and over in a child while `bundle --json`
 * runs against `dir`, up to `tries` times, stopping at the first exit 2. The writer is stopped
 * (and has exited) before anything is asserted. Every run must exit 0 with a manifest or 2 with
 * one of the change messages; returns the runs.
 */
async function bundleWhileWriting(
  world: World,
  dir: string,
  body: string,
  arg: string,
  ready: () => Promise<boolean>,
  tries = 20,
): Promise<CliResult[]> {
  const runs: CliResult[] = [];
  await withTempDir(async (control) => {
    const stop = join(control, "stop");
    const writer = new Deno.Command("sh", {
      args: ["-c", `while [ ! -e "$2" ]; do ${body}; done`, "sh", arg, stop],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      const deadline = Date.now() + 5000;
      while (!(await ready())) {
        if (Date.now() > deadline) throw new Error("the writer did not start");
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      for (let i = 0; i < tries; i++) {
        const run = await world.cli("bundle", "--json", dir);
        runs.push(run);
        if (run.code !== 0) break;
      }
    } finally {
      await Deno.writeTextFile(stop, "");
      const timer = setTimeout(() => writer.kill("SIGKILL"), 10_000);
      await writer.status;
      clearTimeout(timer);
    }
  });
  for (const run of runs) {
    if (run.code === 0) {
      equal(JSON.parse(run.stdout).schema, "skills-anywhere-bundle-1");
    } else {
      equal(run.code, 2, run.stderr);
      const error = JSON.parse(run.stdout);
      equal(error.schema, "skills-anywhere-bundle-error-1");
      ok([CHANGED, GREW].includes(error.error), error.error);
    }
  }
  return runs;
}

const SKILL = skillMd("moving", "A skill whose files move.", "Body.");

Deno.test("hostile bundle: a file grown, replaced or deleted during reading is reported (exit 2)", async () => {
  await withWorld(async (world) => {
    const big = noise(8 * MiB, 7);
    const inode = async (path: string) => (await Deno.lstat(path).catch(() => undefined))?.ino;
    // `$1` is the skill directory; `$1.src` (outside it) holds a copy of the asset's bytes.
    const scenarios: [string, string][] = [
      ["grown", 'printf xxxxxxxx >> "$1/assets/big.bin"'],
      ["replaced", 'cp "$1.src" "$1.next" && mv -f "$1.next" "$1/assets/big.bin"'],
      ["deleted", 'rm -f "$1/assets/big.bin"; cp "$1.src" "$1/assets/big.bin"'],
      ["entries come and go", 'printf c > "$1/assets/new.txt"; rm -f "$1/assets/new.txt"'],
    ];
    for (const [what, body] of scenarios) {
      const dir = join(world.root, "skills", what);
      const asset = join(dir, "assets/big.bin");
      await writeTree(dir, { "SKILL.md": SKILL, "assets/big.bin": big, "z.txt": "z" });
      await Deno.writeFile(`${dir}.src`, big);
      const before = await bundleDigestOf(world, dir);
      const startIno = await inode(asset);
      const startMtime = (await Deno.lstat(join(dir, "assets"))).mtime?.getTime();
      const runs = await bundleWhileWriting(
        world,
        dir,
        body,
        dir,
        async () =>
          what === "grown"
            ? (await Deno.stat(asset)).size > big.length
            : what === "entries come and go"
            ? (await Deno.lstat(join(dir, "assets"))).mtime?.getTime() !== startMtime
            : (await inode(asset)) !== startIno,
      );
      ok(runs.some((r) => r.code === 2), `${what}: never reported in ${runs.length} runs`);
      // Once the writer has stopped, the directory reads again.
      const after = await bundleDigestOf(world, dir);
      if (what !== "grown") equal(after, before, `${what}: same bytes, same digest`);
    }
  });
});

async function bundleDigestOf(world: World, dir: string): Promise<string> {
  const run = await world.cli("bundle", "--json", dir);
  equal(run.code, 0, run.stdout + run.stderr);
  return JSON.parse(run.stdout).sha256;
}

Deno.test("hostile bundle: a manifest inside the skill directory is refused, however it is named", async () => {
  await withWorld(async (world) => {
    const dir = join(world.root, "skills", "pinned");
    await writeTree(dir, { "SKILL.md": SKILL, "sub/x.txt": "x" });
    const manifest = await world.cli("bundle", "--json", dir);
    equal(manifest.code, 0, manifest.stderr);
    // `..review.json` starts with two dots but lies inside: a prefix test would call it outside.
    for (const name of ["..review.json", "...json", "sub/..m.json", "review.json"]) {
      await Deno.writeTextFile(join(dir, name), manifest.stdout);
      const run = await world.cli("bundle", "--json", "--against", join(dir, name), dir);
      equal(run.code, 2, `${name}: ${run.stdout}`);
      equal(JSON.parse(run.stdout).error, "Keep the review manifest outside the skill directory.");
      await Deno.remove(join(dir, name));
    }
    // Next to the directory (a name that starts with the directory's own name) is outside.
    await Deno.writeTextFile(`${dir}..json`, manifest.stdout);
    const beside = await world.cli("bundle", "--json", "--against", `${dir}..json`, dir);
    equal(beside.code, 0, beside.stdout);
    equal(JSON.parse(beside.stdout).matches, true);
  });
});

Deno.test("hostile check: a SKILL.md deleted between two runs is an input error (exit 2)", async () => {
  await withWorld(async (world) => {
    const file = join(world.project, ".claude/skills/gone/SKILL.md");
    await writeTree(world.project, {
      ".claude/skills/gone/SKILL.md": skillMd("gone", "Gone.", "B"),
    });
    const first = await world.cli("check", "--json", file);
    equal(first.code, 0, first.stdout);
    await Deno.remove(file);
    const second = await world.cli("check", "--json", file);
    equal(second.code, 2, second.stdout);
    const report = JSON.parse(second.stdout);
    deepEqual(report.files.map((f: { status: string; error?: string }) => [f.status, f.error]), [
      ["input_error", "No such file."],
    ]);
    const human = await world.cli("check", file);
    equal(human.code, 2);
    ok(!(await exists(file)), "nothing was recreated");
  });
});

// ---------------------------------------------------------------------------
// (c) `sync` with an unreachable or a malicious repository

/** Writes the user sources file (inside DSH_HOME/skills-anywhere, where writes are allowed). */
async function writeSources(world: World, sources: unknown[]): Promise<void> {
  await writeTree(world.dshHome, {
    "skills-anywhere/sources.json": JSON.stringify({ sources }, null, 2) + "\n",
  });
}

interface SourceRow {
  repo: string;
  dir: string;
  scanDir: string;
  lock: unknown;
}

async function sourceRows(world: World): Promise<SourceRow[]> {
  const run = await world.cli("sources", "--json");
  equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout);
}

/** No checkout and no staging directory (`<dir>.tmp-*`) for `dir`. */
async function assertNoHalfClone(dir: string): Promise<void> {
  ok(!(await exists(dir)), `a checkout was left at ${dir}`);
  const parent = join(dir, "..");
  const base = dir.split("/").pop()!;
  const siblings = await exists(parent) ? [...Deno.readDirSync(parent)].map((e) => e.name) : [];
  deepEqual(
    siblings.filter((name) => name.startsWith(`${base}.tmp-`)),
    [],
    "a staging dir was left",
  );
}

Deno.test("hostile sync: an unreachable repository fails (exit 1) with no half clone and nothing outside DSH_HOME", async () => {
  await withWorld(async (world) => {
    // git:// is allowed here so that git really tries (and fails) to connect to 127.0.0.1:1.
    world.env.GIT_ALLOW_PROTOCOL = "file:git";
    await writeSources(world, ["git://127.0.0.1:1/x", {
      repo: "git://127.0.0.1:1/y",
      ref: "main",
    }]);
    const rows = await sourceRows(world);
    equal(rows.length, 2);
    const before = await fingerprint(world.root, [world.dshHome]);
    for (const args of [["sync"], ["sync", "--json"], ["sync", "--force"]]) {
      const run = await world.cli(...args);
      equal(run.code, 1, `${args.join(" ")}: ${run.stdout}${run.stderr}`);
      if (args.includes("--json")) {
        const results = JSON.parse(run.stdout);
        deepEqual(results.map((r: { status: string }) => r.status), ["failed", "failed"]);
        for (const result of results) match(result.error, /unable to connect/);
      }
      for (const row of rows) await assertNoHalfClone(row.dir);
    }
    const cache = join(world.dshHome, "skills-anywhere/cache");
    ok((await pathsBelow(cache)).every((p) => !p.includes(".tmp-")), "a staging dir was left");
    const list = await world.cli("list");
    equal(list.code, 0, list.stderr);
    for (const row of await sourceRows(world)) equal(row.lock, null);
    deepEqual(await fingerprint(world.root, [world.dshHome]), before, "written outside DSH_HOME");
  });
});

Deno.test("hostile sync: a repository whose symlinks point outside its checkout shows nothing from outside", async () => {
  await withWorld(async (world) => {
    const outside = join(world.root, "outside");
    await writeTree(outside, {
      "SKILL.md": skillMd("escaped", "OUTSIDE-MARKER from beyond the checkout.", "OUTSIDE-BODY"),
      "inner/SKILL.md": skillMd("escaped-inner", "OUTSIDE-MARKER inner.", "OUTSIDE-BODY"),
    });
    // Where the checkout will live, so that a relative link can climb out of it exactly.
    const upstreamPath = join(world.root, "evil");
    await writeSources(world, [{ repo: upstreamPath, path: "skills" }]);
    const [row] = await sourceRows(world);
    const climb = "../".repeat(row.scanDir.split("/").length - 1) + outside.slice(1);
    await world.repo("evil", {
      "skills/good/SKILL.md": skillMd("good", "A skill inside the repository.", "Good body."),
    }, {
      "skills/evil-abs": outside,
      "skills/evil-rel": climb,
      "skills/evil-file/SKILL.md": join(outside, "SKILL.md"),
      "skills/etc": "/etc",
      "skills/home": world.home,
    });
    const before = await fingerprint(world.root, [world.dshHome]);

    const sync = await world.cli("sync", "--json");
    equal(sync.code, 0, sync.stdout + sync.stderr);
    deepEqual(JSON.parse(sync.stdout).map((r: { status: string }) => r.status), ["cloned"]);
    // The links arrived in the checkout as links, and they do escape it.
    equal(await Deno.readLink(join(row.scanDir, "evil-rel")), climb);
    ok(
      await exists(join(row.scanDir, "evil-rel", "SKILL.md")),
      "the relative link resolves outside",
    );

    for (const args of [["list"], ["list", "--all", "--json"], ["doctor"], ["doctor", "--json"]]) {
      const run = await world.cli(...args);
      equal(run.code, 0, `${args.join(" ")}: ${run.stderr}`);
      ok(!run.stdout.includes("OUTSIDE-MARKER"), `${args.join(" ")} shows an outside skill`);
      ok(!run.stdout.includes("escaped"), `${args.join(" ")} shows an outside skill`);
    }
    const listed = JSON.parse((await world.cli("list", "--json")).stdout);
    const names = (Array.isArray(listed) ? listed : listed.skills).map((s: { name: string }) =>
      s.name
    );
    deepEqual(names, ["good"]);

    // An MCP client sees the same catalog, and cannot open what lies behind the links.
    await withSession(world, "auto", async (session) => {
      const all = await session.call("list_skills", {});
      ok(!textOf(all).includes("OUTSIDE"), textOf(all));
      ok(textOf(all).includes("good"));
      for (const name of ["escaped", "escaped-inner"]) {
        const opened = await session.call("open_skill", { name });
        equal(opened.isError, true);
        ok(!textOf(opened).includes("OUTSIDE-BODY"));
      }
    });

    // Source strings and sub-paths that climb out are refused before anything is written.
    for (
      const args of [
        ["add", upstreamPath, "--path", "../../outside"],
        ["add", "github:o/r/../../../x"],
        ["add", "https://github.com/../.."],
        ["add", "git@h:../../.."],
      ]
    ) {
      const run = await world.cli(...args);
      equal(run.code, 2, `${args.join(" ")}: ${run.stdout}${run.stderr}`);
    }
    deepEqual((await sourceRows(world)).map((r) => r.repo), [upstreamPath]);
    deepEqual(await fingerprint(world.root, [world.dshHome]), before, "written outside DSH_HOME");
  });
});

// ---------------------------------------------------------------------------
// (d) the guard test: every command, and nothing written into skill or agent directories

Deno.test("guard: every command against a fixture home leaves every skill and agent directory untouched", async () => {
  await withWorld(async (world) => {
    const { home, project } = world;
    const skill = (name: string, extra: string[] = []) =>
      skillMd(name, `The ${name} skill.`, `Body of ${name}. See [ref](reference.md).`, extra);
    await writeTree(home, {
      ".claude/skills/pdf-forms/SKILL.md": skill("pdf-forms", ["allowed-tools: Read Bash"]),
      ".claude/skills/pdf-forms/reference.md": "# Reference\n",
      ".claude/skills/pdf-forms/scripts/fill.py": "print('fill')\n",
      ".claude/skills/nofront/SKILL.md": "Use this when things happen.\n",
      ".claude/skills/broken/SKILL.md": new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xff, 0x0a]),
      ".claude/skills/secret/SKILL.md": skill("secret", ["disable-model-invocation: true"]),
      ".claude/skills/escape/SKILL.md": skill("escape\u001b[31m", []),
      ".codex/skills/review/SKILL.md": skill("review"),
      ".cursor/skills/build/SKILL.md": skill("build"),
      ".gemini/skills/search/SKILL.md": skill("search"),
      ".agents/skills/shared/SKILL.md": skill("shared"),
      ".claude/plugins/known_marketplaces.json": "{}\n",
      ".claude/plugins/installed_plugins.json": "{}\n",
      ".claude/plugins/marketplaces/official/plugins/hookify/skills/hook/SKILL.md": skill("hook"),
      ".claude/plugins/cache/market/my-plugin/1.2.3/skills/cached/SKILL.md": skill("cached"),
    });
    await writeTree(project, {
      ".claude/skills/build/SKILL.md": skill("build"),
      ".claude/skills/deploy/SKILL.md": skill("deploy"),
      ".cursor/skills/lint/SKILL.md": skill("lint"),
      ".agents/skills/team/SKILL.md": skill("team"),
      ".gemini/skills/search/SKILL.md": skill("search"),
    });
    // A symlinked skill directory and a named pipe where a SKILL.md should be.
    await Deno.symlink(join(home, ".claude/skills/pdf-forms"), join(home, ".cursor/skills/linked"));
    await Deno.mkdir(join(home, ".codex/skills/pipe"), { recursive: true });
    const fifo = await new Deno.Command("mkfifo", {
      args: [join(home, ".codex/skills/pipe/SKILL.md")],
    })
      .output();
    equal(fifo.code, 0);
    const upstream = await world.repo("upstream", {
      "skills/alpha/SKILL.md": skill("alpha"),
      "skills/beta/SKILL.md": skill("beta"),
    });
    const pdf = join(home, ".claude/skills/pdf-forms");
    const review = join(world.root, "review.json");
    const manifest = await world.cli("bundle", "--json", pdf);
    equal(manifest.code, 0, manifest.stderr);
    await Deno.writeTextFile(review, manifest.stdout);
    const skillFiles = (await fingerprint(world.root))
      .map((line) => line.split("\t"))
      .filter(([path, type]) => path.endsWith("/SKILL.md") && type !== "dir")
      .map(([path]) => join(world.root, path))
      .filter((path) => !path.startsWith(upstream));
    equal(skillFiles.length, 17, "12 in the home (one a named pipe), 5 in the project");

    // Only <DSH_HOME>/skills-anywhere may change.
    const allowed = join(world.dshHome, "skills-anywhere");
    const before = await fingerprint(world.root, [allowed]);
    const runs: [string[], number[]][] = [
      [["list"], [0]],
      [["list", "--all"], [0]],
      [["list", "--all", "--json"], [0]],
      [["agents"], [0]],
      [["agents", "--json"], [0]],
      [["sources"], [0]],
      [["doctor"], [0]],
      [["doctor", "--json"], [0]],
      [["check", ...skillFiles], [2]],
      [["check", "--json", "--resources", "--profile", "spec", ...skillFiles], [2]],
      [["check", "--lenient", "--fail-on-hidden-characters", ...skillFiles], [2]],
      [["bundle", pdf], [0]],
      [["bundle", "--json", pdf], [0]],
      [["bundle", "--against", review, pdf], [0]],
      [["bundle", join(home, ".codex/skills/pipe")], [2]],
      [["add", upstream, "--path", "skills"], [0]],
      [["sources", "--json"], [0]],
      [["sync"], [0]],
      [["sync", "--force", "--json"], [0]],
      [["list", "--json"], [0]],
    ];
    for (const [args, codes] of runs) {
      const run = await world.cli(...args);
      ok(codes.includes(run.code), `${args.slice(0, 4).join(" ")} → ${run.code}: ${run.stderr}`);
    }
    await withSession(world, "auto", async (session) => {
      const listed = await session.call("list_skills", { limit: 50 });
      ok(textOf(listed).includes("pdf-forms"), textOf(listed));
      ok(textOf(listed).includes("alpha"), "the Git source is served");
      const found = await session.call("find_skills", { query: "pdf" });
      ok(textOf(found).includes("pdf-forms"));
      const opened = await session.call("open_skill", { name: "pdf-forms", include_bundle: true });
      equal(opened.isError, undefined, textOf(opened));
      const pinned = await session.call("open_skill", {
        name: "pdf-forms",
        expected_sha256: "0".repeat(64),
      });
      equal(pinned.isError, true);
      const disabled = await session.call("open_skill", { name: "secret" });
      equal(disabled.isError, true);
      const { resources } = await session.client.listResources();
      ok(resources.length > 5);
      await session.client.listResourceTemplates();
      for (const resource of resources) await session.read(resource.uri);
    });
    const removed = await world.cli("remove", upstream);
    equal(removed.code, 0, removed.stderr);
    const last = await world.cli("list");
    equal(last.code, 0, last.stderr);

    deepEqual(
      await fingerprint(world.root, [allowed]),
      before,
      "a skill or agent directory changed",
    );
    ok(await exists(join(allowed, "cache")), "the Git source was cloned into the cache");
  });
});

Deno.test("guard: hostile project sources, trusted, write nothing outside the cache, run nothing, leak nothing", async () => {
  await withWorld(async (world) => {
    const { home, project, root } = world;
    const marker = join(root, "PWNED");
    await writeTree(home, {
      ".ssh/authorized_keys": "ssh-ed25519 AAAAVICTIM victim@laptop\n",
      ".config/git/ignore": "*.swp\n",
      ".claude/skills/mine/SKILL.md": skillMd("mine", "My own skill.", "Body."),
    });
    // The attacker's repositories, served over git:// on loopback like any remote.
    const skill = skillMd("payload", "Attacker skill.", "Body.");
    await world.repo("remotes/a/r", { "skills/payload/SKILL.md": skill }, {
      "l": "../../../../../..",
    });
    await world.repo("remotes/evil", {
      "skills/leak/SKILL.md": skill.replace("payload", "leak"),
      // A fake git dir inside a skill, and a config that would run code if git read it.
      "skills/leak/HEAD": "0000000000000000000000000000000000000000\n",
      "skills/leak/config": `[core]\n\tworktree = ../..\n\tfsmonitor = touch ${marker}\n`,
    }, {
      "skills/environ/SKILL.md": "/proc/self/environ",
      "skills/passwd.md": "/etc/passwd",
      "outside": home,
    });
    await withGitDaemon(join(root, "remotes"), async (url) => {
      const port = new URL(url).port;
      await writeTree(project, {
        ".dsh/skills-anywhere.json": JSON.stringify({
          sources: [
            `${url}/a/r`,
            `${url}/a/r/l/.ssh`,
            `${url}/a/r/l/.config/git`,
            `${url}/a/r/.GIT/hooks`,
            { repo: `${url}/evil`, path: "outside" },
            { repo: `${url}/evil`, path: "skills" },
            `git@-oProxyCommand=touch ${marker}:x/y`,
            `ssh://-oProxyCommand=touch%20${marker}/x`,
            `git@x:--upload-pack=touch ${marker}`,
            `ssh://127.0.0.1:${port}/-oProxyCommand=x`,
          ],
        }),
      });
      const allowed = join(world.dshHome, "skills-anywhere");
      const before = await fingerprint(root, [allowed]);
      const trusted = await world.cli("trust", "--yes");
      equal(trusted.code, 0, trusted.stderr);
      for (
        const args of [["sync"], ["sync", "--force"], ["list", "--json"], ["sources"], ["doctor"]]
      ) {
        const run = await world.cli(...args);
        ok([0, 1].includes(run.code), `${args.join(" ")} → ${run.code}: ${run.stderr}`);
        ok(!run.stdout.includes("VICTIM") && !run.stdout.includes("root:x:0:0"), args.join(" "));
      }
      const listed = await world.cli("list", "--json");
      ok(listed.stdout.includes("payload"), "the listed repository itself is served");
      await withSession(world, "auto", async (session) => {
        const all = textOf(await session.call("list_skills", { limit: 100 }));
        ok(!all.includes("root:x:0:0") && !all.includes("VICTIM"), all);
        const { resources } = await session.client.listResources();
        for (const resource of resources) {
          const text = JSON.stringify(await session.read(resource.uri));
          ok(!text.includes("root:x:0:0") && !text.includes("VICTIM"), resource.uri);
        }
      });
      deepEqual(await fingerprint(root, [allowed]), before, "something outside the cache changed");
      equal(await exists(marker), false, "attacker code ran");
    });
  });
});
