// The GitHub Action's one script (action.yml runs it with Deno from the action's own checkout):
// `check` on the repository's tracked SKILL.md files, `verify` when a lock exists (or as the
// `verify` input says), both as SARIF by the real CLI in child processes, merged into one SARIF
// file; then workflow-command annotations, a job summary table and the step's outputs, and the
// report's exit code (the highest of the two: 0 clean, 1 a finding or difference, 2 an error).
//
// Inputs come as environment variables (INPUT_PATH, INPUT_PROFILE, INPUT_VERIFY,
// INPUT_SARIF_FILE), never spliced into a shell line; the runner's GITHUB_WORKSPACE,
// GITHUB_OUTPUT and GITHUB_STEP_SUMMARY say where to work and write.
//
// Writes (issue 27): the SARIF file only inside the workspace, by the one writer (never through
// a link, a folder that leads out of the workspace refused; a `sarif-file` outside it is an input
// error, exit 2, before anything runs). The runner's two step files are appended to where the
// runner says (links followed: the paths are the runner's, not the pull request's), only when
// they are regular files outside the workspace. In the job summary every string that came from
// the repository is a Markdown code span, so no name, path or message becomes a link, an image
// or HTML (see `code` below).
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { escapeTerminal, jsonText } from "../lib/cli/escape.ts";
import { mergeSarif, type SarifLog, type SarifResult } from "../lib/cli/sarif.ts";
import { appendText, isWithin, makeFolder, WriteError, writeWhole } from "../lib/fs/mod.ts";

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

/**
 * One Markdown code span holding `text` (one line, no `|`) exactly: fenced by a run of backticks
 * longer than any inside it, padded with a space when it starts or ends with a backtick or a
 * space (CommonMark strips one from each side). Nothing in a code span is a link, an autolink,
 * an image, an entity or HTML.
 */
function span(text: string): string {
  if (text === "") return "";
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(text) && !/^ +$/.test(text) ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

/**
 * Text from the repository (a name, a path, a message, a command's stderr) as inert Markdown,
 * in a table cell or a paragraph: control characters made visible, each line a code span, line
 * breaks as `<br>`, and each `|` an escaped pipe between spans (GFM splits a table row at a pipe
 * even inside a code span, and a backslash before it inside the span would end the escape).
 */
function code(text: string): string {
  return text.split(/\r\n|\r|\n/).map((line) =>
    escapeTerminal(line).split("|").map(span).join("\\|")
  ).join("<br>");
}

/** The job summary: what ran with which exit code, what could not be done, one row per result. */
function summary(
  steps: readonly Step[],
  results: readonly SarifResult[],
  exitCode: number,
  errors: readonly string[],
): string {
  const ran = steps.map((s) => `\`${s.name}\` exit ${s.code}`).join(", ");
  const lines = [`## ${PROGRAM}: exit ${exitCode}`, "", `Ran ${ran || "nothing"}.`, ""];
  for (const step of steps) {
    if (step.log === undefined && step.stderr.trim() !== "") {
      lines.push(`\`${step.name}\` failed: ${code(step.stderr.trim())}`, "");
    }
  }
  for (const error of errors) lines.push(`Error: ${code(error)}`, "");
  if (results.length === 0) return [...lines, "No findings."].join("\n") + "\n";
  lines.push("| Level | Rule | File | Line | Message |", "| --- | --- | --- | --- | --- |");
  for (const r of results) {
    const line = r.locations[0].physicalLocation.region?.startLine;
    const file = resultFile(r) ?? r.locations[0].physicalLocation.artifactLocation.uri;
    const shownLine = Number.isSafeInteger(line) ? String(line) : "";
    lines.push(
      `| ${code(r.level)} | ${code(r.ruleId)} | ${code(file)} | ${shownLine} | ${
        code(r.message.text)
      } |`,
    );
  }
  return lines.join("\n") + "\n";
}

/** An input the action cannot use (exit 2, before anything runs). */
class InputError extends Error {}

/**
 * Appends to one of the runner's step files (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY): where the
 * runner says, links followed, but only a regular file outside the workspace. A refusal is an
 * error annotation; its one line is returned.
 */
async function appendRunnerFile(
  variable: string,
  text: string,
  workspace: string,
): Promise<string | undefined> {
  const file = Deno.env.get(variable);
  if (file === undefined || file === "") return undefined;
  try {
    await appendText(file, text, { notWithin: workspace, notWithinWords: "the workspace" });
    return undefined;
  } catch (error) {
    if (!(error instanceof WriteError)) throw error;
    const message = `${variable}: ${error.message}`;
    errorAnnotation(message);
    return message;
  }
}

/** Appends `name` = `value` to GITHUB_OUTPUT in the multi-line form (any value is safe). */
function setOutput(name: string, value: string, workspace: string): Promise<string | undefined> {
  const delimiter = `ghadelimiter_${crypto.randomUUID()}`;
  return appendRunnerFile(
    "GITHUB_OUTPUT",
    `${name}<<${delimiter}\n${value}\n${delimiter}\n`,
    workspace,
  );
}

/** The inputs, checked before anything runs; an unusable one is an {@linkcode InputError}. */
function inputs() {
  const verify = input("VERIFY", "auto");
  if (!["auto", "true", "false"].includes(verify)) {
    throw new InputError(`verify must be auto, true or false (got ${verify})`);
  }
  return {
    path: input("PATH", "."),
    profile: input("PROFILE", "spec"),
    verify,
    sarifFile: input("SARIF_FILE", `${PROGRAM}.sarif`),
  };
}

/**
 * Where the SARIF file goes: `sarif-file` resolved against the workspace, which it must lie in,
 * its folder too (created when missing, never through a link that leads out of the workspace).
 */
async function sarifTarget(workspace: string, sarifFile: string): Promise<string> {
  const target = resolve(workspace, sarifFile);
  if (!isWithin(target, workspace)) {
    throw new InputError(`sarif-file ${sarifFile} is outside the workspace`);
  }
  try {
    await makeFolder(dirname(target), { within: workspace, rootWords: "the workspace" });
  } catch (error) {
    if (!(error instanceof WriteError)) throw error;
    const why = error.kind === "outside" ? "leads outside the workspace" : "cannot be written";
    throw new InputError(`sarif-file ${sarifFile} ${why}: ${error.message}`);
  }
  return target;
}

/** Runs `check` (when there are files) and `verify` (as the input says). */
async function runSteps(workspace: string, given: ReturnType<typeof inputs>): Promise<Step[]> {
  const steps: Step[] = [];
  const files = await skillFiles(workspace, given.path);
  if (files.length > 0) {
    steps.push(
      await cli(
        "check",
        ["check", "--format", "sarif", "--profile", given.profile, "--", ...files],
        workspace,
      ),
    );
  }
  const locked = await Deno.lstat(join(workspace, LOCK)).then(() => true, () => false);
  if (given.verify === "true" || (given.verify === "auto" && locked)) {
    steps.push(await cli("verify", ["verify", "--format", "sarif"], workspace));
  }
  return steps;
}

/** One error annotation without a file (an input, a write). */
function errorAnnotation(message: string): void {
  console.log(`::error title=${PROGRAM}::${commandData(message)}`);
}

async function main(): Promise<number> {
  const workspace = resolve(Deno.env.get("GITHUB_WORKSPACE") || Deno.cwd());
  const errors: string[] = [];
  let steps: Step[] = [];
  let results: SarifResult[] = [];
  let written: string | undefined;
  try {
    const given = inputs();
    const target = await sarifTarget(workspace, given.sarifFile);
    steps = await runSteps(workspace, given);
    const log = mergeSarif(steps.flatMap((s) => s.log === undefined ? [] : [s.log]));
    results = log.runs[0].results;
    try {
      await writeWhole(target, jsonText(log), { within: workspace, rootWords: "the workspace" });
      written = given.sarifFile;
    } catch (error) {
      if (!(error instanceof WriteError)) throw error;
      errors.push(error.message);
    }
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    errors.push(error.message);
  }
  for (const r of results) console.log(annotation(r));
  for (const s of steps) {
    if (s.log === undefined) {
      console.log(`::error title=${PROGRAM} ${s.name}::${commandData(s.stderr.trim())}`);
    }
  }
  for (const message of errors) errorAnnotation(message);
  let exitCode = Math.max(errors.length > 0 ? 2 : 0, ...steps.map((s) => s.code));
  const refused = [
    await appendRunnerFile(
      "GITHUB_STEP_SUMMARY",
      summary(steps, results, exitCode, errors),
      workspace,
    ),
    await setOutput("exit-code", String(exitCode), workspace),
    written === undefined ? undefined : await setOutput("sarif-file", written, workspace),
  ];
  if (refused.some((r) => r !== undefined)) exitCode = 2;
  console.log(
    `${PROGRAM}: ${results.length} result(s), exit ${exitCode}; ${
      written === undefined ? "no SARIF file written" : `SARIF in ${escapeTerminal(written)}`
    }`,
  );
  return exitCode;
}

if (import.meta.main) Deno.exit(await main());
