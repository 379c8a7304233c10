// A fresh machine, simulated: a copy of this checkout's files (tracked and new, nothing git
// ignores: no node_modules/, no .cache/), an empty Deno cache (DENO_DIR), an empty HOME (so an empty
// npm cache) and a PATH with every program of this machine except Chromium. On it, the browser test
// file passes (the tests fetch their own browser, tests/browser.ts), and the demo (`deno task -q demo`,
// as the README writes it, and `deno run` of the script) installs only the packages the CLI imports
// and prints nothing from the runtime on a warm run. The root deno.json and deno.lock name only the
// CLI's packages (the task runner installs the whole lock before any task); the tests, the bench
// and dsh/ use deno.dev.json and deno.dev.lock (docs/development.md).
import { delimiter, dirname, join } from "node:path";
import { deepEqual, equal, ok } from "node:assert/strict";
import { exists, ROOT, run, type RunResult, withTempDir } from "./helpers.ts";

const BROWSERS = /^(chromium|chromium-browser|google-chrome|google-chrome-stable)$/;
/** Packages only the tests or the dsh provider import: never installed for the CLI. */
const NOT_FOR_THE_CLI = [
  "playwright-core",
  "fast-check",
  "@deepseek-ai",
  "@modelcontextprotocol/client",
  "@modelcontextprotocol/sdk",
];

/** Copies the checkout's files (as `git ls-files -co --exclude-standard` lists them) to `dir`. */
async function copyCheckout(dir: string): Promise<void> {
  const listed = await run("git", ["ls-files", "-z", "-co", "--exclude-standard"], { cwd: ROOT });
  equal(listed.code, 0, listed.stderr);
  for (const path of listed.stdout.split("\0").filter((line) => line !== "")) {
    if (!(await exists(join(ROOT, path)))) continue; // deleted in the work tree
    await Deno.mkdir(dirname(join(dir, path)), { recursive: true });
    await Deno.copyFile(join(ROOT, path), join(dir, path));
  }
}

/** A folder of links to every program on PATH but the Chromium ones (the first of each name). */
async function pathWithoutChromium(dir: string): Promise<string> {
  await Deno.mkdir(dir);
  for (const folder of (Deno.env.get("PATH") ?? "").split(delimiter)) {
    const entries = await Array.fromAsync(Deno.readDir(folder)).catch(() => []);
    for (const entry of entries) {
      if (BROWSERS.test(entry.name) || entry.isDirectory) continue;
      await Deno.symlink(join(folder, entry.name), join(dir, entry.name)).catch(() => {});
    }
  }
  return dir;
}

interface FreshMachine {
  clone: string;
  deno: (args: string[]) => Promise<RunResult>;
}

/** Runs `fn` on a new simulated fresh machine. */
async function withFreshMachine(fn: (machine: FreshMachine) => Promise<void>): Promise<void> {
  await withTempDir(async (dir) => {
    const clone = join(dir, "clone");
    await copyCheckout(clone);
    await Deno.mkdir(join(dir, "home"));
    await Deno.mkdir(join(dir, "deno-dir"));
    const env = {
      PATH: await pathWithoutChromium(join(dir, "bin")),
      HOME: join(dir, "home"),
      DENO_DIR: join(dir, "deno-dir"),
      CHROME_PATH: "",
      NO_COLOR: "1",
    };
    const deno = (args: string[]) => run(Deno.execPath(), args, { cwd: clone, env });
    await fn({ clone, deno });
  });
}

async function installed(clone: string): Promise<string[]> {
  const top = await Array.fromAsync(Deno.readDir(join(clone, "node_modules")));
  const names: string[] = [];
  for (const entry of top.filter((entry) => !entry.name.startsWith("."))) {
    if (!entry.name.startsWith("@")) names.push(entry.name);
    else {
      const scoped = await Array.fromAsync(Deno.readDir(join(clone, "node_modules", entry.name)));
      names.push(entry.name, ...scoped.map((inner) => `${entry.name}/${inner.name}`));
    }
  }
  return names.sort();
}

Deno.test("fresh machine: the browser test file passes with no Chromium and empty caches", async () => {
  await withFreshMachine(async ({ clone, deno }) => {
    const result = await deno(["test", "--config", "deno.dev.json", "-A", "tests/web_test.ts"]);
    const output = result.stdout + result.stderr;
    equal(result.code, 0, output.slice(-4000));
    ok(/ok \| 1 passed/.test(result.stdout), result.stdout.slice(-2000));
    const unpacked = await Array.fromAsync(Deno.readDir(join(clone, ".cache", "browser")));
    equal(unpacked.length, 1, "the npm-shipped Chromium was unpacked into .cache/browser");
    ok(await exists(join(clone, ".cache", "browser", unpacked[0].name, "chromium")));
  });
});

Deno.test("fresh machine: the demo fetches only the CLI's packages, says so once, then is quiet", async () => {
  await withFreshMachine(async ({ clone, deno }) => {
    const demo = ["run", "-A", "--quiet", "scripts/demo.ts"];
    const cold = await deno(demo);
    equal(cold.code, 0, cold.stderr);
    equal(cold.stderr, "", "nothing from the runtime on the first run");
    ok(cold.stdout.startsWith("First run: Deno fetches"), cold.stdout.slice(0, 300));
    ok(cold.stdout.includes("$ dsh-skills-anywhere list --all"), cold.stdout);
    const names = await installed(clone);
    for (const name of NOT_FOR_THE_CLI) ok(!names.includes(name), `${name} installed: ${names}`);
    // A run installs all of deno.lock at once, as the task runner does (no lazy npm caching: see
    // the relinking test below), though each command loads only its own modules.
    ok(names.includes("js-yaml"), `${names}`);
    ok(names.includes("@modelcontextprotocol/server"), `${names}`);

    const warm = await deno(demo);
    equal(warm.code, 0, warm.stderr);
    equal(warm.stderr, "", "nothing from the runtime on a warm run");
    ok(!warm.stdout.includes("First run"), warm.stdout.slice(0, 300));
  });
});

/** The npm packages (name@version) a lockfile pins. */
async function lockedPackages(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await Deno.readTextFile(join(ROOT, file))).npm;
}

Deno.test("the root lock pins only the CLI's packages, each as the dev lock pins it", async () => {
  const cli = await lockedPackages("deno.lock");
  const dev = await lockedPackages("deno.dev.lock");
  for (const name of Object.keys(cli)) {
    ok(!NOT_FOR_THE_CLI.some((not) => name.startsWith(not)), `${name} is in deno.lock`);
    deepEqual(cli[name], dev[name], `${name}: deno.lock and deno.dev.lock differ`);
  }
  ok(Object.keys(cli).some((name) => name.startsWith("js-yaml@")), "deno.lock pins js-yaml");
  const root = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const devConfig = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.dev.json")));
  for (const [name, target] of Object.entries(root.imports)) {
    equal(devConfig.imports[name], target, `deno.dev.json maps ${name} as deno.json does`);
  }
  deepEqual(devConfig.exclude, root.exclude, "deno.dev.json's exclude differs from deno.json's");
  // A `deno install` or a lazy install under one configuration removes from node_modules/ what
  // the other one installed: only deno.json's runs use it, deno.dev.json's use Deno's cache.
  equal(devConfig.nodeModulesDir, "none");
  // Lazy npm caching relinks node_modules/ under a running process (the relinking test below);
  // Deno's cache, which deno.dev.json uses, is safe to share, so the tests may keep it.
  ok(!root.unstable?.includes("npm-lazy-caching"), "deno.json turns lazy npm caching on");
});

/** The README's demo command, as `deno` arguments (what follows `npx -y deno@<version>`). */
async function readmeDemo(): Promise<string[]> {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const line = readme.split("\n").find((line) => /^npx -y deno@\S+ task .*demo\b/.test(line));
  ok(line, "the README's quick start runs the demo task");
  return line.split("#")[0].trim().split(/\s+/).slice(3);
}

/** Lines of a stream's text (none for an empty one). */
const lines = (text: string) => text === "" ? [] : text.replace(/\n$/, "").split("\n");

Deno.test("fresh machine: the README's demo command says what it fetches in one line, then nothing", async () => {
  const command = await readmeDemo();
  deepEqual(command, ["task", "-q", "demo"], "the README's demo command");
  await withFreshMachine(async ({ clone, deno }) => {
    const cold = await deno(command);
    equal(cold.code, 0, cold.stderr);
    // Without -q, Deno 2.9.6's task runner prints a Download and an Initialize line per package.
    deepEqual(lines(cold.stderr), [], "nothing on stderr on the first run");
    const fetching = lines(cold.stdout).filter((line) => /fetch|download/i.test(line));
    deepEqual(fetching, [
      "First run: Deno fetches the CLI's npm packages once (about 30 MB, into node_modules/).",
    ]);
    ok(cold.stdout.includes("$ dsh-skills-anywhere list --all"), cold.stdout);
    const names = await installed(clone);
    for (const name of NOT_FOR_THE_CLI) ok(!names.includes(name), `${name} installed: ${names}`);
    const unpacked = await Array.fromAsync(Deno.readDir(join(clone, "node_modules", ".deno")));
    const folders = unpacked.map((entry) => entry.name).filter((name) => /.@\d/.test(name));
    // The task runner installs deno.lock's packages before the task: all of them, silently.
    deepEqual(
      folders.sort(),
      Object.keys(await lockedPackages("deno.lock")).map((name) => name.replace("/", "+")).sort(),
    );

    const warm = await deno(command);
    equal(warm.code, 0, warm.stderr);
    deepEqual(lines(warm.stderr), [], "nothing on stderr on a warm run");
    deepEqual(lines(warm.stdout).filter((line) => /fetch|download|First run/i.test(line)), []);
    ok(warm.stdout.includes("$ dsh-skills-anywhere doctor"), warm.stdout);
  });
});

/**
 * Every link of a Deno node_modules/ folder, with its inode: the top-level ones (`zod`,
 * `@scope/name`) and those of each package folder under `.deno/` (`.deno/x@1/node_modules/y`).
 */
async function links(modules: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  const walk = async (dir: string, depth: number) => {
    for await (const entry of Deno.readDir(dir)) {
      const path = join(dir, entry.name);
      if (entry.isSymlink) found.set(path, (await Deno.lstat(path)).ino ?? 0);
      else if (entry.isDirectory && entry.name.startsWith("@") && depth === 0) await walk(path, 1);
    }
  };
  await walk(modules, 0);
  await walk(join(modules, ".deno", "node_modules"), 0);
  for await (const entry of Deno.readDir(join(modules, ".deno"))) {
    const inner = join(modules, ".deno", entry.name, "node_modules");
    if (entry.isDirectory && /.@\d/.test(entry.name) && await exists(inner)) await walk(inner, 0);
  }
  return found;
}

Deno.test("a checkout's CLI runs never relink node_modules/, so two at once cannot see it half linked", async () => {
  // Deno relinks node_modules/ (unlink, then symlink) whenever a run needs a different set of
  // packages than the last one set up, as lazy npm caching made `list` (js-yaml) and `mcp` (the
  // MCP SDK, zod) do: a second CLI process resolving zod in between failed with "No such file or
  // directory". After `deno install`, no run of the CLI may touch a link.
  await withTempDir(async (dir) => {
    const clone = join(dir, "clone");
    await copyCheckout(clone);
    await Deno.mkdir(join(dir, "home"));
    const env = { HOME: join(dir, "home"), NO_COLOR: "1" };
    const deno = (args: string[]) => run(Deno.execPath(), args, { cwd: clone, env });
    const install = await deno(["install", "--quiet"]);
    equal(install.code, 0, install.stderr);
    const before = await links(join(clone, "node_modules"));
    ok(before.has(join(clone, "node_modules", "zod")), [...before.keys()].join("\n"));
    for (const args of [["list"], ["mcp"], ["--help"], ["list", "--json"], ["mcp"]]) {
      const result = await deno(["run", "-A", "--quiet", "main.ts", ...args]);
      equal(result.code, 0, `${args.join(" ")}: ${result.stderr}`);
      deepEqual(
        await links(join(clone, "node_modules")),
        before,
        `${args.join(" ")} relinked node_modules/`,
      );
    }
  });
});
