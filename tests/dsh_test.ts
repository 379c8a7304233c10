// The dsh integration, in-process against the real `@deepseek-ai/dsh-skill` registry and
// `@deepseek-ai/dsh-tools` runtime (pinned in deno.json): every scenario of
// tests/dsh_scenarios.mjs runs once against the source plugin modules (one Deno.test each), and
// once more under Node against the packed npm package installed next to the dsh packages from
// the npm registry — so the artifact dsh installs is the one tested.
import assert from "node:assert/strict";
import { readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Context } from "@deepseek-ai/cordis";
import { renderSkillContent, SkillRegistry } from "@deepseek-ai/dsh-skill";
import { SystemPrompt } from "@deepseek-ai/dsh-system-prompt";
import { ToolRuntime } from "@deepseek-ai/dsh-tools";
import * as provider from "../dsh/mod.ts";
import * as tools from "../dsh/tools.ts";
import * as scenarios from "./dsh_scenarios.mjs";
import { runScenario } from "./dsh_helpers.mjs";
import { ROOT, withTempDir } from "./helpers.ts";
import { mustRun, packPlugin, runIn } from "./dsh_pack.ts";

const deps = {
  Context,
  SkillRegistry,
  SystemPrompt,
  ToolRuntime,
  renderSkillContent,
  provider,
  tools,
  assert,
};

const SCENARIOS = Object.entries(scenarios as Record<string, unknown>)
  .filter((entry): entry is [string, (env: unknown) => Promise<void>] =>
    typeof entry[1] === "function"
  );

for (const [name, scenario] of SCENARIOS) {
  Deno.test(`dsh (sources): ${name}`, () => runScenario(scenario, deps));
}

/** The dsh packages the packed plugin is installed with (the versions deno.json pins). */
const DSH_PACKAGES = [
  "@deepseek-ai/dsh-skill@0.1.0-rc.8",
  "@deepseek-ai/dsh-tools@0.1.0-rc.8",
  "@deepseek-ai/dsh-system-prompt@0.1.0-rc.8",
  "@deepseek-ai/cordis@4.0.4",
];

function runnerSource(): string {
  const scenariosUrl = pathToFileURL(join(ROOT, "tests", "dsh_scenarios.mjs")).href;
  const helpersUrl = pathToFileURL(join(ROOT, "tests", "dsh_helpers.mjs")).href;
  return `// Runs tests/dsh_scenarios.mjs against the installed dsh-skills-anywhere package.
import assert from "node:assert/strict";
import process from "node:process";
import { Context } from "@deepseek-ai/cordis";
import { renderSkillContent, SkillRegistry } from "@deepseek-ai/dsh-skill";
import { SystemPrompt } from "@deepseek-ai/dsh-system-prompt";
import { ToolRuntime } from "@deepseek-ai/dsh-tools";
import * as provider from "dsh-skills-anywhere";
import * as tools from "dsh-skills-anywhere/tools";
import * as scenarios from ${JSON.stringify(scenariosUrl)};
import { runScenario } from ${JSON.stringify(helpersUrl)};

const deps = { Context, SkillRegistry, SystemPrompt, ToolRuntime, renderSkillContent, provider, tools, assert };
const results = [];
for (const [name, scenario] of Object.entries(scenarios)) {
  if (typeof scenario !== "function") continue;
  const started = Date.now();
  try {
    await runScenario(scenario, deps);
    results.push({ name, ok: true, ms: Date.now() - started });
    console.log("ok " + name + " (" + (Date.now() - started) + " ms)");
  } catch (error) {
    results.push({ name, ok: false, error: String(error?.stack ?? error) });
    console.log("FAIL " + name + ": " + String(error?.stack ?? error));
  }
}
const failed = results.filter((r) => !r.ok).map((r) => r.name);
console.log("SUMMARY " + JSON.stringify({
  node: process.version,
  total: results.length,
  passed: results.length - failed.length,
  failed,
  names: results.map((r) => r.name),
}));
process.exit(failed.length === 0 ? 0 : 1);
`;
}

Deno.test("packed npm package", async () => {
  await withTempDir(async (work) => {
    const tarball = await packPlugin(work);

    const project = join(work, "project");
    await Deno.mkdir(project);
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({ name: "dsa-dsh-pack-check", private: true, type: "module" }),
    );
    await mustRun(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--ignore-scripts",
        "--loglevel=error",
        tarball,
        ...DSH_PACKAGES,
      ],
      project,
    );

    // What dsh reads of the installed package: the bundle patch and the optional dsh peers.
    const pkgDir = join(project, "node_modules", "dsh-skills-anywhere");
    const pkg = JSON.parse(await readFile(join(pkgDir, "package.json"), "utf8"));
    assert.equal(pkg.dsh?.bundle?.patch, "./cordis.patch.yml");
    assert.ok((await stat(join(pkgDir, "cordis.patch.yml"))).isFile());
    const patch = await readFile(join(pkgDir, "cordis.patch.yml"), "utf8");
    assert.match(patch, /id: skills-anywhere\n\s+name: dsh-skills-anywhere\n/);
    assert.match(patch, /id: skills-anywhere-tools\n\s+name: dsh-skills-anywhere\/tools\n/);
    assert.equal(pkg.exports["."], "./dist/index.js");
    assert.equal(pkg.exports["./tools"], "./dist/tools.js");
    assert.equal(pkg.dependencies, undefined, "everything else is bundled");
    // Every @deepseek-ai package the bundle imports is an optional peer, never bundled.
    const imported = new Set<string>();
    for (const entry of await readdir(join(pkgDir, "dist"), { recursive: true })) {
      if (!entry.endsWith(".js")) continue;
      const code = await readFile(join(pkgDir, "dist", entry), "utf8");
      for (const match of code.matchAll(/["'](@deepseek-ai\/[a-z0-9-]+)["']/g)) {
        imported.add(match[1]);
      }
    }
    // schemastery: the settings namespace's schema (issue 31), imported once a settings service
    // is there.
    assert.deepEqual([...imported].sort(), [
      "@deepseek-ai/dsh-skill",
      "@deepseek-ai/dsh-tools",
      "@deepseek-ai/schemastery",
    ]);
    for (const name of imported) {
      assert.ok(pkg.peerDependencies?.[name], `${name} is a peer dependency`);
      assert.equal(pkg.peerDependenciesMeta?.[name]?.optional, true, `${name} is optional`);
    }

    await writeFile(join(project, "run-scenarios.mjs"), runnerSource());
    const result = await runIn("node", ["run-scenarios.mjs"], project);
    const summaryLine = result.stdout.split("\n").find((line) => line.startsWith("SUMMARY "));
    assert.ok(summaryLine, `no summary\n${result.stdout}\n${result.stderr}`);
    const summary = JSON.parse(summaryLine.slice("SUMMARY ".length));
    console.log(
      `packed package under Node ${summary.node}: ${summary.passed}/${summary.total} scenarios`,
    );
    assert.deepEqual(summary.failed, [], `${result.stdout}\n${result.stderr}`);
    assert.equal(result.code, 0, result.stderr);
    assert.deepEqual(summary.names, SCENARIOS.map(([name]) => name));
  });
});
