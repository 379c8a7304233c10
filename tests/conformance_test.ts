// The official MCP conformance suite (@modelcontextprotocol/conformance) against the real
// `mcp --http 127.0.0.1:0` on a fixture home. The suite and the Node 22 it needs come from the npm
// registry on first use and are cached in `.cache/npm-tools/` (git-ignored; scripts/npm_tools.ts). Every server
// scenario of the suite is in exactly one list below: required (every check passes), partial
// (every check passes but the named ones, which need the suite's own fixtures), or not run (with
// the reason); docs/mcp.md repeats the not-run list.
import { deepEqual, equal } from "node:assert/strict";
import { join } from "node:path";
import process from "node:process";
import { ROOT, run, withTempDir, writeTree } from "./helpers.ts";
import { catalogFixture } from "./mcp_fixture.ts";
import { withSandbox } from "./mcp_helpers.ts";
import { withHttpServer } from "./mcp_http_helpers.ts";
import { npmTool } from "../scripts/npm_tools.ts";

/** The newest release with the SEP-2640 scenarios, and the Node it needs (≥ 22). */
const CONFORMANCE_VERSION = "0.2.0-alpha.12";
const NODE_VERSION = "22.23.5";

/** Scenarios every check of which must pass (SUCCESS, or WARNING/INFO/SKIPPED for a SHOULD). */
const ALWAYS_REQUIRED = [
  "server-initialize",
  "ping",
  "tools-list",
  "resources-list",
  "sep-2164-resource-not-found",
  "dns-rebinding-protection",
  "http-header-validation",
  "input-required-result-unsupported-methods",
  "input-required-result-validate-input",
];

/** The SEP-2640 scenarios: they only skip until the server declares the skills extension. */
const SEP_2640 = [
  "sep-2640-skills-enumeration",
  "sep-2640-skills-manifest",
  "sep-2640-skills-directory",
];

const REQUIRED = [...ALWAYS_REQUIRED, ...SEP_2640];

/** Scenarios required but for the named checks, which call the suite's own fixtures. */
const PARTIAL: Record<string, Record<string, string>> = {
  "server-stateless": {
    "sep-2575-server-rejects-undeclared-capability":
      "needs the fixture tool test_missing_capability",
    "sep-2575-missing-capability-http-400": "needs the fixture tool test_missing_capability",
    "sep-2575-http-server-no-independent-requests-on-stream":
      "needs the fixture tool test_streaming_elicitation",
    "sep-2575-server-no-log-without-loglevel": "needs the fixture tool test_logging_tool",
  },
  caching: { "sep-2549-prompts-list-caching-hints": "this server offers no prompts" },
};

/** Scenarios not run, each with the reason (docs/mcp.md lists the same). */
const NOT_RUN: readonly (readonly [string, readonly string[]])[] = [
  [
    "stateless by design (no session id), so sessions and resumable SSE streams do not apply",
    ["server-session-lifecycle", "server-sse-polling", "server-sse-multiple-streams"],
  ],
  ["no logging capability (logging/setLevel)", ["logging-set-level", "tools-call-with-logging"]],
  [
    "calls the suite's fixture tools (test_simple_text, test_image_content, …)",
    [
      "tools-call-simple-text",
      "tools-call-image",
      "tools-call-audio",
      "tools-call-embedded-resource",
      "tools-call-mixed-content",
      "tools-call-error",
      "tools-call-with-progress",
      "json-schema-2020-12",
    ],
  ],
  [
    "the server never asks the client for sampling or elicitation",
    [
      "tools-call-sampling",
      "tools-call-elicitation",
      "elicitation-sep1034-defaults",
      "elicitation-sep1330-enums",
    ],
  ],
  [
    "reads the suite's fixture resources (test://static-text, …); skill:// reads are tested here",
    ["resources-read-text", "resources-read-binary", "resources-templates-read"],
  ],
  ["no resource subscriptions", ["resources-subscribe", "resources-unsubscribe"]],
  [
    "no prompts",
    [
      "prompts-list",
      "prompts-get-simple",
      "prompts-get-with-args",
      "prompts-get-embedded-resource",
      "prompts-get-with-image",
      "completion-complete",
    ],
  ],
  [
    "no tool parameter is mapped to an HTTP header (x-mcp-header)",
    ["http-custom-header-server-validation"],
  ],
  [
    "the tasks extension: no tool runs long enough to be a task",
    [
      "tasks-lifecycle",
      "tasks-capability-negotiation",
      "tasks-wire-fields",
      "tasks-request-state-removal",
      "tasks-mrtr-input",
      "tasks-request-headers",
      "tasks-dispatch-and-envelope",
      "tasks-status-notifications",
      "tasks-required-task-error",
      "tasks-mrtr-composition",
    ],
  ],
  [
    "the server never asks for input (the suite's fixture tools test_input_required_result_*)",
    [
      "input-required-result-basic-elicitation",
      "input-required-result-basic-sampling",
      "input-required-result-basic-list-roots",
      "input-required-result-request-state",
      "input-required-result-multiple-input-requests",
      "input-required-result-multi-round",
      "input-required-result-missing-input-response",
      "input-required-result-non-tool-request",
      "input-required-result-result-type",
      "input-required-result-tampered-state",
      "input-required-result-capability-check",
      "input-required-result-ignore-extra-params",
    ],
  ],
];

/** The Node 22 package of this platform in the npm registry (`node-<os>-<arch>`). */
const NODE_PACKAGE = `node-${process.platform}-${process.arch}`;

/** Runs the suite's CLI under Node 22, both installed on first use (npm registry only). */
async function conformance(args: string[], cwd: string) {
  const modules = await npmTool(
    [`@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`, `${NODE_PACKAGE}@${NODE_VERSION}`],
    join(NODE_PACKAGE, "bin", "node"),
  );
  const suite = join(modules, "@modelcontextprotocol", "conformance");
  return await run(join(modules, NODE_PACKAGE, "bin", "node"), [
    join(suite, "dist", "index.js"),
    ...args,
  ], {
    cwd,
  });
}

/** One check of a scenario's `checks.json`. */
interface Check {
  id: string;
  status: string;
  description?: string;
  errorMessage?: string;
  details?: unknown;
}

/** Statuses that do not fail a scenario: a SHOULD warns, a check that does not apply skips. */
const PASSING = new Set(["SUCCESS", "WARNING", "INFO", "SKIPPED"]);

/**
 * What is wrong with a scenario's checks: failures not excused, excuses that no longer fail,
 * and a scenario that tested nothing (only the generic wire-schema check succeeded).
 */
function problems(checks: Check[], excused: Record<string, string>): string[] {
  const found = checks.filter((c) => !PASSING.has(c.status) && !Object.hasOwn(excused, c.id))
    .map((c) => `${c.status} ${c.id}: ${c.errorMessage ?? JSON.stringify(c.details ?? "")}`);
  for (const id of Object.keys(excused)) {
    if (!checks.some((c) => c.id === id && !PASSING.has(c.status))) {
      found.push(`${id} is excused but did not fail: remove it from PARTIAL`);
    }
  }
  if (!checks.some((c) => c.status === "SUCCESS" && c.id !== "wire-schema-valid")) {
    found.push("nothing was tested (every specific check skipped)");
  }
  return found;
}

/** Runs one scenario against `url` and returns its checks. */
async function runScenario(url: string, scenario: string, out: string): Promise<Check[]> {
  const result = await conformance(
    ["server", "--url", url, "--scenario", scenario, "-o", out],
    out,
  );
  for await (const entry of Deno.readDir(out)) {
    if (entry.name.startsWith(`server-${scenario}-`)) {
      return JSON.parse(await Deno.readTextFile(join(out, entry.name, "checks.json")));
    }
  }
  throw new Error(
    `no results for ${scenario} (exit ${result.code}):\n${result.stdout}${result.stderr}`,
  );
}

Deno.test("conformance: every scenario that applies passes against mcp --http", async (t) => {
  await withSandbox(async (box) => {
    await catalogFixture(box);
    // The directory scenario reads a subdirectory of the first skill listed: give it one.
    await writeTree(join(box.home, ".codex", "skills", "docx-review"), {
      "references/styles.md": "# Styles\n\nHeading levels and fonts the review checks.\n",
    });
    const { code, stderr } = await withHttpServer(box, [], async ({ url }) => {
      for (const scenario of [...REQUIRED, ...Object.keys(PARTIAL)]) {
        await t.step(scenario, async () => {
          await withTempDir(async (out) => {
            const checks = await runScenario(url, scenario, out);
            deepEqual(problems(checks, PARTIAL[scenario] ?? {}), []);
          });
        });
      }
    });
    equal(code, 0, stderr);
  });
});

Deno.test("conformance: every server scenario of the suite is required or has a reason", async () => {
  const listed = await conformance(["list"], ROOT);
  equal(listed.code, 0, listed.stderr);
  const server = listed.stdout.split(/\n\s*\n/)[0];
  const inSuite = [...server.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]).sort();
  const accounted = [
    ...REQUIRED,
    ...Object.keys(PARTIAL),
    ...NOT_RUN.flatMap(([, scenarios]) => scenarios),
  ].sort();
  deepEqual(accounted, inSuite);
});
