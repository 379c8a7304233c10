// The GitHub Action's one script (action.yml runs it with Deno from the action's own checkout):
// `check` on the repository's tracked SKILL.md files, `verify` when a lock exists (or as the
// `verify` input says), both as SARIF by the real CLI in child processes, merged into one SARIF
// file; then workflow-command annotations, a job summary table and the step's outputs, and the
// report's exit code (the highest of the two: 0 clean, 1 a finding or difference, 2 an error).
//
// Inputs come as environment variables (INPUT_PATH, INPUT_PROFILE, INPUT_VERIFY,
// INPUT_SARIF_FILE), never spliced into a shell line; the runner's GITHUB_WORKSPACE,
// GITHUB_OUTPUT and GITHUB_STEP_SUMMARY say where to work and write.
import { appendFile, writeFile } from "node:fs/promises";
import { isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { escapeTerminal, jsonText } from "../lib/cli/escape.ts";
import { mergeSarif, type SarifLog, type SarifResult } from "../lib/cli/sarif.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PROGRAM = "dsh-skills-anywhere";
const LOCK = "skills-anywhere.lock.json";

/** What one command gave: its exit code, its SARIF log (when it wrote one) and its stderr. */
interface Step {
  name: "check" | "verify";
  code: number;
  log?: SarifLog;
  stderr: string;
}

function input(name: string, fallback: string): string {
  const value = Deno.env.get(`INPUT_${name}`)?.trim();
  return value === undefined || value === "" ? fallback : value;
}

/** Runs the CLI of this checkout with `args`; parses stdout as SARIF when there is any. */
async function cli(name: Step["name"], args: string[], cwd: string): Promise<Step> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--quiet",
      "--config",
      join(ROOT, "deno.json"),
      join(ROOT, "main.ts"),
      ...args,
    ],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  const stderr = new TextDecoder().decode(out.stderr);
  return {
    name,
    code: out.code,
    stderr,
    log: stdout.trim() === "" ? undefined : JSON.parse(stdout),
  };
}

/** The tracked SKILL.md files under `path` of the workspace's Git repository. */
async function skillFiles(workspace: string, path: string): Promise<string[]> {
  const prefix = path === "." ? "" : `${path.replace(/\/+$/, "")}/`;
  const out = await new Deno.Command("git", {
    args: ["-C", workspace, "ls-files", "-z", "--", `:(top,glob)${prefix}**/SKILL.md`],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`git ls-files failed: ${new TextDecoder().decode(out.stderr)}`);
  return new TextDecoder().decode(out.stdout).split("\0").filter((f) => f !== "").sort();
}

/** Workflow-command data: control characters made visible, then %, CR and LF escaped. */
function commandData(text: string): string {
  return text.replace(/[^\r\n]+/g, escapeTerminal).replaceAll("%", "%25").replaceAll("\r", "%0D")
    .replaceAll("\n", "%0A");
}

/** A workflow-command property value: the data escaping plus `:` and `,`. */
function commandProperty(text: string): string {
  return commandData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

/** The workspace-relative path of a result, or undefined when it lies outside. */
function resultFile(result: SarifResult): string | undefined {
  const { uri, uriBaseId } = result.locations[0].physicalLocation.artifactLocation;
  return uriBaseId === undefined ? undefined : uri.split("/").map(decodeURIComponent).join("/");
}

/** One annotation line per result: `::error file=…,line=…,title=…::message`. */
function annotation(result: SarifResult): string {
  const command = result.level === "note" ? "notice" : result.level;
  const file = resultFile(result);
  const line = result.locations[0].physicalLocation.region?.startLine;
  const props = [
    ...(file === undefined ? [] : [`file=${commandProperty(file)}`]),
    ...(line === undefined || file === undefined ? [] : [`line=${line}`]),
    `title=${commandProperty(`${PROGRAM} ${result.ruleId}`)}`,
  ];
  return `::${command} ${props.join(",")}::${commandData(result.message.text)}`;
}

/** A Markdown table cell: no raw HTML, no column break, line breaks as <br>. */
function cell(text: string): string {
  return text.replace(/[^\r\n]+/g, escapeTerminal).replaceAll("&", "&amp;").replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;").replaceAll("|", "&#124;").replace(/\r\n|\r|\n/g, "<br>");
}

/** The job summary: what ran with which exit code, then one table row per result. */
function summary(steps: readonly Step[], results: readonly SarifResult[], code: number): string {
  const ran = steps.map((s) => `\`${s.name}\` exit ${s.code}`).join(", ");
  const lines = [`## ${PROGRAM}: exit ${code}`, "", `Ran ${ran || "nothing"}.`, ""];
  for (const step of steps) {
    if (step.log === undefined && step.stderr.trim() !== "") {
      lines.push(`\`${step.name}\` failed: ${cell(step.stderr.trim())}`, "");
    }
  }
  if (results.length === 0) return [...lines, "No findings."].join("\n") + "\n";
  lines.push("| Level | Rule | File | Line | Message |", "| --- | --- | --- | --- | --- |");
  for (const r of results) {
    const line = r.locations[0].physicalLocation.region?.startLine;
    const file = resultFile(r) ?? r.locations[0].physicalLocation.artifactLocation.uri;
    lines.push(
      `| ${r.level} | ${cell(r.ruleId)} | ${cell(file)} | ${line ?? ""} | ${
        cell(r.message.text)
      } |`,
    );
  }
  return lines.join("\n") + "\n";
}

/** Appends `name` = `value` to GITHUB_OUTPUT in the multi-line form (any value is safe). */
async function setOutput(name: string, value: string): Promise<void> {
  const file = Deno.env.get("GITHUB_OUTPUT");
  if (file === undefined || file === "") return;
  const delimiter = `ghadelimiter_${crypto.randomUUID()}`;
  await appendFile(file, `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
}

/** Runs `check` (when there are files) and `verify` (as the input says). */
async function runSteps(workspace: string): Promise<Step[]> {
  const steps: Step[] = [];
  const files = await skillFiles(workspace, input("PATH", "."));
  const profile = input("PROFILE", "spec");
  if (files.length > 0) {
    steps.push(
      await cli(
        "check",
        ["check", "--format", "sarif", "--profile", profile, "--", ...files],
        workspace,
      ),
    );
  }
  const verify = input("VERIFY", "auto");
  if (!["auto", "true", "false"].includes(verify)) {
    throw new Error(`verify must be auto, true or false (got ${verify})`);
  }
  const locked = await Deno.lstat(join(workspace, LOCK)).then(() => true, () => false);
  if (verify === "true" || (verify === "auto" && locked)) {
    steps.push(await cli("verify", ["verify", "--format", "sarif"], workspace));
  }
  return steps;
}

async function main(): Promise<number> {
  const workspace = Deno.env.get("GITHUB_WORKSPACE") || Deno.cwd();
  const steps = await runSteps(workspace);
  const log = mergeSarif(steps.flatMap((s) => s.log === undefined ? [] : [s.log]));
  const results = log.runs[0].results;
  const code = Math.max(0, ...steps.map((s) => s.code));
  const sarifFile = input("SARIF_FILE", `${PROGRAM}.sarif`);
  await writeFile(isAbsolute(sarifFile) ? sarifFile : join(workspace, sarifFile), jsonText(log));
  for (const r of results) console.log(annotation(r));
  for (const s of steps) {
    if (s.log === undefined) {
      console.log(`::error title=${PROGRAM} ${s.name}::${commandData(s.stderr.trim())}`);
    }
  }
  const summaryFile = Deno.env.get("GITHUB_STEP_SUMMARY");
  if (summaryFile) await appendFile(summaryFile, summary(steps, results, code));
  await setOutput("exit-code", String(code));
  await setOutput("sarif-file", sarifFile);
  console.log(
    `${PROGRAM}: ${results.length} result(s), exit ${code}; SARIF in ${escapeTerminal(sarifFile)}`,
  );
  return code;
}

if (import.meta.main) Deno.exit(await main());
