/**
 * `list`, `list --json` and `doctor` show what the catalog changed or withheld: a skill its author
 * kept from the model (`disable-model-invocation: true`) and a renamed skill's original name, over
 * real CLI children in a sandbox home built from real published skills (testdata/dedupe/, see its
 * LICENSES.md). The opt-out sits right after the description, as in Claude Code plugins' skills.
 *
 * @module
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, type Sandbox, withSandbox } from "./helpers.ts";
import { CATALOG_BOX, table } from "./catalog_cli_helpers.ts";

const FIXTURES = join(ROOT, "testdata", "dedupe");
const DOCTOR_HINT = " — see `dsh-skills-anywhere doctor`";

/**
 * `~/.agents/skills/webapp-testing` as published; `~/.claude/skills/webapp-testing` the same
 * skill with the author's opt-out added; ComposioHQ's two LaunchDarkly folders in
 * `~/.claude/skills`.
 */
function writeHome(box: Sandbox): void {
  const agents = join(box.home, ".agents", "skills");
  const claude = join(box.home, ".claude", "skills");
  cpSync(join(FIXTURES, "webapp-testing"), join(agents, "webapp-testing"), { recursive: true });
  cpSync(join(FIXTURES, "webapp-testing"), join(claude, "webapp-testing"), { recursive: true });
  const skillFile = join(claude, "webapp-testing", "SKILL.md");
  const text = readFileSync(skillFile, "utf8");
  const withOptOut = text.replace("\nlicense:", "\ndisable-model-invocation: true\nlicense:");
  ok(withOptOut !== text);
  writeFileSync(skillFile, withOptOut);
  cpSync(join(FIXTURES, "composio-skills"), claude, { recursive: true });
}

const WEBAPP = "~/.agents/skills/webapp-testing/SKILL.md";
const WEBAPP_OFF = "~/.claude/skills/webapp-testing/SKILL.md";
const DARKLY = "~/.claude/skills/launch-darkly-automation/SKILL.md";
const DARKLY_UNDERSCORE = "~/.claude/skills/launch_darkly-automation/SKILL.md";
const WEBAPP_TEXT = "Toolkit for interacting with and testing local web applications using " +
  "Playwright. Supports verifying frontend functionality, debugging UI behavior, capturing " +
  "browser screenshots, and viewing browser logs.";
const DARKLY_TEXT = "Automate LaunchDarkly feature flag management -- list projects and " +
  "environments, create and delete trigger workflows, and track code references via the " +
  "Composio MCP integration.";
const DARKLY_UNDERSCORE_TEXT = "Automate LaunchDarkly tasks via Rube MCP (Composio): feature " +
  "flags, environments, segments, and rollout management. Always search tools first for " +
  "current schemas.";

Deno.test("list marks renamed (with the original name), repaired and user-only skills and counts each", async () => {
  await withSandbox(async (box) => {
    writeHome(box);
    const result = await box.cli("list");
    equal(result.code, 0, result.stderr);
    const rows = [
      ["NAME", "FROM", "PATH", "DESCRIPTION"],
      ["webapp-testing", "agents (user)", WEBAPP, WEBAPP_TEXT],
      ["launchdarkly-automation (repaired)", "claude-code (user)", DARKLY, DARKLY_TEXT],
      [
        "claude-code-launch-darkly-automation (renamed from launch-darkly-automation) (repaired)",
        "claude-code (user)",
        DARKLY_UNDERSCORE,
        DARKLY_UNDERSCORE_TEXT,
      ],
      [
        "claude-code-webapp-testing (renamed from webapp-testing) (user-only)",
        "claude-code (user)",
        WEBAPP_OFF,
        WEBAPP_TEXT,
      ],
    ];
    const footer = `4 skills (2 renamed, 2 repaired, 1 user-only)${DOCTOR_HINT}`;
    equal(result.stdout, `${table(rows)}\n\n${footer}\n`);
  }, CATALOG_BOX);
});

Deno.test("list --json: model_invocable, renamed_from and repaired on every skill row", async () => {
  await withSandbox(async (box) => {
    writeHome(box);
    const result = await box.cli("list", "--json");
    equal(result.code, 0, result.stderr);
    const doc = JSON.parse(result.stdout);
    deepEqual(
      doc.skills.map((s: Record<string, unknown>) => [s.name, s.model_invocable, s.renamed_from]),
      [
        ["webapp-testing", true, null],
        ["launchdarkly-automation", true, null],
        ["claude-code-launch-darkly-automation", true, "launch-darkly-automation"],
        ["claude-code-webapp-testing", false, "webapp-testing"],
      ],
    );
    deepEqual(doc.skills.map((s: { repaired: boolean }) => s.repaired), [false, true, true, false]);
  }, CATALOG_BOX);
});

Deno.test("doctor lists renamed skills with their original names and author opt-outs", async () => {
  await withSandbox(async (box) => {
    writeHome(box);
    const json = JSON.parse((await box.cli("doctor", "--json")).stdout);
    const claude = join(box.home, ".claude", "skills");
    deepEqual(json.model_disabled, [
      { name: "claude-code-webapp-testing", path: join(claude, "webapp-testing", "SKILL.md") },
    ]);
    deepEqual(json.renamed.map((r: { from: string; name: string }) => [r.from, r.name]), [
      ["launch-darkly-automation", "claude-code-launch-darkly-automation"],
      ["webapp-testing", "claude-code-webapp-testing"],
    ]);

    const human = await box.cli("doctor");
    equal(human.code, 0, human.stderr);
    const lines = human.stdout.split("\n");
    const at = (heading: string) => {
      const index = lines.indexOf(heading);
      ok(index > 0, `missing "${heading}" in:\n${human.stdout}`);
      return index;
    };
    const renamed = at("Renamed to avoid collisions (2):");
    deepEqual(
      lines.slice(renamed + 1, renamed + 3),
      table([
        [
          "  launch-darkly-automation",
          "-> claude-code-launch-darkly-automation",
          DARKLY_UNDERSCORE,
        ],
        ["  webapp-testing", "-> claude-code-webapp-testing", WEBAPP_OFF],
      ]).split("\n"),
    );
    const off = at("User-only: not offered to the model (disable-model-invocation) (1):");
    equal(lines[off + 1], `  claude-code-webapp-testing  ${WEBAPP_OFF}`);
    ok(renamed < off);
  }, CATALOG_BOX);
});
