/**
 * The `startup` group of `deno task bench` (issue 30, "start-up that feels instant"): each
 * runtime's `list` beside the floor process of `bench/floor_list.ts` (walk the skill folders, read
 * each SKILL.md, pull name and description out with a regular expression, print JSON) run the same
 * way, timed in alternation so both see the same machine:
 *
 * - Deno: `deno run -A main.ts list --json` against `deno run -A bench/floor_list.ts`, on the home
 *   of 10,000 skills in `~/.claude/skills` (target ≤ 1.5×), the parse cache warm (the first of the
 *   timed runs writes it, as a person's first `list` does); then the same with the cache removed
 *   before every run (cold, reported);
 * - the linux-x64 binary: `list --json` and `show <name>` against the floor compiled by the same
 *   Bun with the same flags (`.bench/floor-list-linux-x64`), on a home of 500 skills (target ≤ 2×),
 *   warm, and `list --json` cold (reported);
 * - the npm package under Node: `list --json` against the floor bundled by the same esbuild, 500
 *   skills (reported);
 * - how many of the repository's source files Deno fetches for `--version`, `--help`, `list` and
 *   `show` (its own `-L debug` log, as `tests/startup_test.ts` reads it), and `--version`'s time.
 *
 * Run it with `npx -y deno@2.9.6 task bench startup`.
 *
 * @module
 */
import { join } from "node:path";

/** What `bench/run.ts` lends the group: its recorder, timers, runner and fixtures. */
export interface StartupKit {
  root: string;
  work: string;
  main: string;
  npmCli: string;
  binary: string;
  record(figure: string, value: number, unit: string, target: string, pass: boolean): void;
  timePair(
    runs: number,
    a: () => Promise<unknown>,
    b: () => Promise<unknown>,
  ): Promise<[number, number]>;
  timeCommand(runs: number, command: string[], options?: object): Promise<number>;
  runQuiet(
    command: string[],
    options?: { cwd?: string; env?: Record<string, string> },
  ): Promise<void>;
  denoRun(...args: string[]): string[];
  catalogFixture(
    name: string,
    folders: readonly string[],
    perFolder: number,
  ): Promise<{ home: string; project: string }>;
  homeEnv(home: string): Promise<Record<string, string>>;
  ensureBinary(): Promise<void>;
}

const BUN = "bun@1.4.5";
const ESBUILD = "esbuild@0.28.2";

/** The parse cache of the catalog commands in a bench home (`homeEnv`: DSH_HOME is `<home>/.dsh`). */
function parseCache(home: string): string {
  return join(home, ".dsh", "skills-anywhere", "parse-cache.json");
}

/** Removes the parse cache of `home`, so the next run reads and parses every file. */
async function forgetParses(home: string): Promise<void> {
  await Deno.remove(parseCache(home)).catch(() => {});
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/**
 * The floor compiled as the binary is (npm/binaries.ts: the same Bun, minify, bytecode; no
 * splitting, which a program of one module has no use for).
 */
async function floorBinary(kit: StartupKit): Promise<string> {
  const out = join(kit.work, "floor-list-linux-x64");
  if (await exists(out)) return out;
  await kit.runQuiet([
    "npx",
    "-y",
    BUN,
    "build",
    "--compile",
    "--minify",
    "--bytecode",
    "--format=esm",
    "--no-compile-autoload-dotenv",
    "--no-compile-autoload-bunfig",
    "--no-compile-autoload-tsconfig",
    "--no-compile-autoload-package-json",
    "--target=bun-linux-x64",
    join(kit.root, "bench", "floor_list.ts"),
    "--outfile",
    out,
  ], { cwd: kit.work });
  return out;
}

/** The floor bundled as the npm package is (npm/build.ts: the same esbuild, ESM for Node). */
async function floorScript(kit: StartupKit): Promise<string> {
  const out = join(kit.work, "floor-list.mjs");
  if (await exists(out)) return out;
  await kit.runQuiet([
    "npx",
    "-y",
    ESBUILD,
    join(kit.root, "bench", "floor_list.ts"),
    "--bundle",
    "--format=esm",
    "--platform=node",
    "--target=node20",
    "--minify",
    `--outfile=${out}`,
    "--log-level=warning",
  ], { cwd: kit.work });
  return out;
}

/** How many of the repository's files Deno fetches to run `args` (its `-L debug` log). */
async function fetchedFiles(
  kit: StartupKit,
  args: string[],
  options: { cwd: string; env: Record<string, string> },
): Promise<number> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "-L", "debug", kit.main, ...args],
    cwd: options.cwd,
    env: options.env,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (output.code !== 0) throw new Error(`${args.join(" ")} exited ${output.code}`);
  const prefix = `file://${kit.root.endsWith("/") ? kit.root : `${kit.root}/`}`;
  const files = new Set<string>();
  for (const line of new TextDecoder().decode(output.stderr).split("\n")) {
    const at = line.indexOf("fetch_no_follow - specifier: ");
    if (at < 0) continue;
    const specifier = line.slice(at + "fetch_no_follow - specifier: ".length).trim();
    if (specifier.startsWith(prefix)) files.add(specifier);
  }
  return files.size;
}

/** The `startup` group (see the module doc). */
export async function benchStartup(kit: StartupKit): Promise<void> {
  const { record, timePair, runQuiet, denoRun } = kit;
  const floorTs = join(kit.root, "bench", "floor_list.ts");
  const FOLDER = ".claude/skills";

  // Deno, 10k skills.
  const big = await kit.catalogFixture("claude-10k", [FOLDER], 10_000);
  const bigEnv = await kit.homeEnv(big.home);
  const bigRun = { cwd: big.project, env: bigEnv };
  const [ours, floor] = await timePair(
    11,
    () => runQuiet(denoRun(kit.main, "list", "--json"), bigRun),
    () => runQuiet(denoRun(floorTs, big.home, FOLDER), bigRun),
  );
  console.log("startup: Deno, 10,000 skills in ~/.claude/skills");
  record("startup: deno list --json, 10k (ms)", ours, "ms", "report", true);
  record("startup: deno floor process, 10k (ms)", floor, "ms", "report", true);
  record("startup: deno list vs floor, 10k", ours / floor, "x", "<= 1.5", ours / floor <= 1.5);
  const [cold, coldFloor] = await timePair(
    5,
    async () => {
      await forgetParses(big.home);
      await runQuiet(denoRun(kit.main, "list", "--json"), bigRun);
    },
    () => runQuiet(denoRun(floorTs, big.home, FOLDER), bigRun),
  );
  record("startup: deno list --json, 10k, cold parse cache (ms)", cold, "ms", "report", true);
  record(
    "startup: deno list vs floor, 10k, cold parse cache",
    cold / coldFloor,
    "x",
    "report",
    true,
  );

  const small = await kit.catalogFixture("claude-500", [FOLDER], 500);
  const smallEnv = await kit.homeEnv(small.home);
  const smallRun = { cwd: small.project, env: smallEnv };
  console.log("startup: what Deno loads");
  for (
    const [label, args] of [
      ["--version", ["--version"]],
      ["--help", ["--help"]],
      ["list", ["list", "--json"]],
      ["show", ["show", "skill-250"]],
    ] as const
  ) {
    const files = await fetchedFiles(kit, [...args], smallRun);
    record(`startup: deno ${label}, source files loaded`, files, "files", "report", true);
  }
  const version = await kit.timeCommand(11, denoRun(kit.main, "--version"), smallRun);
  const floorSmall = await kit.timeCommand(11, denoRun(floorTs, small.home, FOLDER), smallRun);
  record("startup: deno --version (ms)", version, "ms", "report", true);
  record("startup: deno floor process, 500 (ms)", floorSmall, "ms", "report", true);

  // The binary, 500 skills, against the floor compiled alike.
  await kit.ensureBinary();
  const floorBin = await floorBinary(kit);
  console.log("startup: linux-x64 binary, 500 skills");
  for (
    const [label, args] of [
      ["list --json", ["list", "--json"]],
      ["show", ["show", "skill-250"]],
    ] as const
  ) {
    const [bin, base] = await timePair(
      15,
      () => runQuiet([kit.binary, ...args], smallRun),
      () => runQuiet([floorBin, small.home, FOLDER], smallRun),
    );
    record(`startup: binary ${label}, 500 (ms)`, bin, "ms", "report", true);
    record(
      `startup: binary ${label} vs floor binary, 500`,
      bin / base,
      "x",
      "<= 2",
      bin / base <= 2,
    );
  }
  const [binCold, binColdFloor] = await timePair(
    15,
    async () => {
      await forgetParses(small.home);
      await runQuiet([kit.binary, "list", "--json"], smallRun);
    },
    () => runQuiet([floorBin, small.home, FOLDER], smallRun),
  );
  record("startup: binary list --json, 500, cold parse cache (ms)", binCold, "ms", "report", true);
  record(
    "startup: binary list vs floor binary, 500, cold parse cache",
    binCold / binColdFloor,
    "x",
    "report",
    true,
  );
  const [binVersion, floorOnly] = await timePair(
    15,
    () => runQuiet([kit.binary, "--version"], smallRun),
    () => runQuiet([floorBin, small.home, FOLDER], smallRun),
  );
  record("startup: binary --version (ms)", binVersion, "ms", "report", true);
  record("startup: floor binary, 500 (ms)", floorOnly, "ms", "report", true);

  // The npm package under Node, 500 skills, against the floor bundled alike.
  const floorJs = await floorScript(kit);
  const [npm, npmFloor] = await timePair(
    11,
    () => runQuiet(["node", kit.npmCli, "list", "--json"], smallRun),
    () => runQuiet(["node", floorJs, small.home, FOLDER], smallRun),
  );
  console.log("startup: npm package under Node, 500 skills");
  record("startup: node list --json, 500 (ms)", npm, "ms", "report", true);
  record("startup: node list vs floor, 500", npm / npmFloor, "x", "report", true);
}
