// The GitHub Action's one script (action.yml runs it with Deno from the action's own checkout):
// `check` on the files the `files` pathspecs match (under `path`), with the gates the inputs turn
// on, `verify` when a lock exists (or as the `verify` input says), each by the real CLI in child
// processes: check's JSON report written to `report`, check's and verify's SARIF merged into one
// SARIF file; then workflow-command annotations, a job summary table and the step's outputs, and
// the highest exit code (0 clean, 1 a finding or difference, 2 an input error).
//
// The interface is a superset of the original action's (0.14/0.15; docs/review.md has the
// migration table): `files` (newline-separated Git pathspecs; blank and `#` lines ignored; a plain
// line gets `:(glob)` magic, a line starting with `:` is passed as it is), its boolean inputs
// (exactly ''/false/False/FALSE or true/True/TRUE, anything else an input error), `allow-empty`,
// `report`, and the outputs `report`, `passed`, `failed`, `input-errors`, `exit-code`; beside
// them this action's `path`, `profile`, `verify`, `sarif-file` and outputs `profile`, `verify`,
// `sarif-file`. Every input is checked before anything runs; each bad one is an error annotation
// and the step exits 2.
//
// Inputs come as environment variables (INPUT_<NAME>), never spliced into a shell line; the
// runner's GITHUB_WORKSPACE, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY say where to work and write.
//
// Writes (issue 27): the SARIF file and the JSON report only inside the workspace, by the one
// writer (never through a link, a folder that leads out of the workspace refused; a `sarif-file`
// or `report` outside it is an input error, exit 2, before anything runs). The runner's two step files are appended to where the
// runner says (links followed: the paths are the runner's, not the pull request's), only when
// they are regular files outside the workspace. In the job summary every string that came from
// the repository is a Markdown code span, so no name, path or message becomes a link, an image
// or HTML (see `code` below).
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { escapeTerminal, jsonText } from "../cli/escape.ts";
import { mergeSarif, type SarifLog, type SarifResult } from "../cli/sarif.ts";
import { appendText, isWithin, makeFolder, WriteError, writeWhole } from "../lib/fs/mod.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const PROGRAM = "dsh-skills-anywhere";
const LOCK = "skills-anywhere.lock.json";

/** What one command gave: its exit code, its SARIF log (when it wrote one) and its stderr. */
interface Step {
  name: "check" | "verify";
  code: number;
  log?: SarifLog;
  /** `check`'s JSON report (the `report` file), from a second run with the same arguments. */
  report?: CheckReport;
  stderr: string;
}

/** The parts of `check`'s JSON report (`skills-anywhere-file-check-1`) the outputs read. */
interface CheckReport {
  counts: { passed: number; failed: number; inputErrors: number };
}

/** A text input: trimmed, `fallback` when unset or blank. */
function input(name: string, fallback: string): string {
  const value = Deno.env.get(`INPUT_${name}`)?.trim();
  return value === undefined || value === "" ? fallback : value;
}

/** The boolean strings the original action took, exactly (no other spelling, no trimming). */
const TRUE = ["true", "True", "TRUE"];
const FALSE = ["", "false", "False", "FALSE"];

/** A boolean input, or undefined (with its error pushed) when it is not one of the strings. */
function flag(name: string, errors: string[]): boolean {
  const value = Deno.env.get(`INPUT_${name}`) ?? "";
  if (TRUE.includes(value)) return true;
  if (!FALSE.includes(value)) {
    const shown = name.toLowerCase().replaceAll("_", "-");
    errors.push(`${shown} must be true or false (got ${JSON.stringify(value)})`);
  }
  return false;
}

/** Runs the CLI of this checkout with `args`; parses stdout as JSON when there is any. */
async function cli(args: string[], cwd: string) {
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
  return { code: out.code, stderr, json: stdout.trim() === "" ? undefined : JSON.parse(stdout) };
}

/**
 * The files the pathspecs match in the workspace's Git repository, tracked or untracked but not
 * ignored (`git ls-files --cached --others --exclude-standard`), sorted, each once.
 */
async function matchedFiles(workspace: string, specs: readonly string[]): Promise<string[]> {
  const out = await new Deno.Command("git", {
    args: [
      "-C",
      workspace,
      "ls-files",
      "-z",
      "--cached",
      "--others",
      "--exclude-standard",
      "--",
      ...specs,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    const why = new TextDecoder().decode(out.stderr).trim().split("\n")[0];
    throw new InputError([`files: git ls-files refused the pathspecs: ${why}`]);
  }
  const files = new TextDecoder().decode(out.stdout).split("\0").filter((f) => f !== "");
  return [...new Set(files)].sort();
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

/** Inputs the action cannot use, one line each (exit 2, before anything runs). */
class InputError extends Error {
  constructor(readonly messages: string[]) {
    super(messages.join("; "));
  }
}

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

const PROFILES = ["strict", "lenient", "spec", "reference"];

/** `check`'s gates: the input (INPUT_<NAME>) and the CLI flag each one turns on. */
const GATES = [
  ["FAIL_ON_REPAIR", "--fail-on-repair"],
  ["REQUIRE_PINNED_SOURCES", "--require-pinned-sources"],
  ["FAIL_ON_HIDDEN_CHARACTERS", "--fail-on-hidden-characters"],
  ["RESOURCES", "--resources"],
  ["FAIL_ON_RESOURCE_ISSUES", "--fail-on-resource-issues"],
] as const;

/** `text` with Git's glob characters escaped, so a folder name matches only itself. */
function globEscape(text: string): string {
  return text.replace(/[\\*?[\]]/g, "\\$&");
}

/**
 * The pathspecs of the `files` input below `prefix` (the `path` input, `/`-ended, glob-escaped):
 * one per line, blank and `#` lines ignored, a plain line with `:(glob)` magic, a line starting
 * with `:` as it is (its own magic, relative to the workspace).
 */
function pathspecs(files: string, prefix: string): string[] {
  return files.split(/\r?\n/).map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => line.startsWith(":") ? line : `:(glob)${prefix}${line}`);
}

/** The `path` input as a pathspec prefix (`""` or `dir/`), or undefined when it leaves. */
function pathPrefix(workspace: string, path: string): string | undefined {
  const folder = resolve(workspace, path);
  if (!isWithin(folder, workspace, { allowSame: true })) return undefined;
  const rel = relative(workspace, folder).split(sep).join("/");
  return rel === "" ? "" : `${globEscape(rel)}/`;
}

/** The inputs, checked before anything runs; every unusable one is in the {@linkcode InputError}. */
function inputs(workspace: string) {
  const errors: string[] = [];
  const verify = input("VERIFY", "auto");
  if (!["auto", "true", "false"].includes(verify)) {
    errors.push(`verify must be auto, true or false (got ${verify})`);
  }
  const lenient = flag("LENIENT", errors);
  const chosen = input("PROFILE", "");
  if (chosen !== "" && !PROFILES.includes(chosen)) {
    errors.push(`profile must be strict, lenient, spec or reference (got ${chosen})`);
  } else if (lenient && chosen !== "" && chosen !== "lenient") {
    errors.push(`lenient cannot be combined with profile ${chosen}`);
  }
  const gates = GATES.flatMap(([name, option]) => flag(name, errors) ? [option] : []);
  const allowEmpty = flag("ALLOW_EMPTY", errors);
  const path = input("PATH", ".");
  const prefix = pathPrefix(workspace, path);
  if (prefix === undefined) errors.push(`path ${path} is outside the workspace`);
  const specs = pathspecs(input("FILES", "**/SKILL.md"), prefix ?? "");
  if (specs.length === 0) errors.push("files holds no pathspec: every line is blank or a comment");
  const sarifFile = input("SARIF_FILE", `${PROGRAM}.sarif`);
  const report = input("REPORT", "skill-check.json");
  if (resolve(workspace, sarifFile) === resolve(workspace, report)) {
    errors.push(`report and sarif-file name the same file (${report})`);
  }
  if (errors.length > 0) throw new InputError(errors);
  return {
    profile: chosen === "" ? (lenient ? "lenient" : "spec") : chosen,
    verify,
    gates,
    allowEmpty,
    specs,
    sarifFile,
    report,
  };
}

/**
 * Where a file the action writes goes (the `input` named `name`): resolved against the workspace,
 * which it must lie in, its folder too (created when missing, never through a link that leads out
 * of the workspace).
 */
async function outputTarget(workspace: string, name: string, file: string): Promise<string> {
  const target = resolve(workspace, file);
  if (!isWithin(target, workspace)) {
    throw new InputError([`${name} ${file} is outside the workspace`]);
  }
  try {
    await makeFolder(dirname(target), { within: workspace, rootWords: "the workspace" });
  } catch (error) {
    if (!(error instanceof WriteError)) throw error;
    const why = error.kind === "outside" ? "leads outside the workspace" : "cannot be written";
    throw new InputError([`${name} ${file} ${why}: ${error.message}`]);
  }
  return target;
}

/**
 * The matched files whose real path lies in the workspace. A file the pull request committed as a
 * link to a runner's file (`SKILL.md -> ~/.aws/credentials`) is never read, so none of its text
 * reaches the report, the SARIF file or the summary: an error annotation at it, its one line in
 * `refused` (exit 2). A file that cannot be resolved is left to `check` (an input error).
 */
async function insideWorkspace(
  workspace: string,
  files: readonly string[],
  refused: string[],
): Promise<string[]> {
  const root = await Deno.realPath(workspace);
  const kept: string[] = [];
  for (const file of files) {
    const real = await Deno.realPath(join(workspace, file)).catch(() => undefined);
    if (real === undefined || isWithin(real, root)) {
      kept.push(file);
      continue;
    }
    const message = `${file} is a link that leads outside the workspace; not checked`;
    console.log(
      `::error file=${commandProperty(file)},title=${PROGRAM} input-error::${commandData(message)}`,
    );
    refused.push(message);
  }
  return kept;
}

/**
 * Runs `check` on the matched files (twice with the same arguments: its JSON report, then its
 * SARIF log) and `verify` (as the input says). No matched file is a notice with `allow-empty`,
 * else an input error.
 */
async function runSteps(
  workspace: string,
  given: ReturnType<typeof inputs>,
  refused: string[],
): Promise<Step[]> {
  const steps: Step[] = [];
  const matched = await matchedFiles(workspace, given.specs);
  const files = await insideWorkspace(workspace, matched, refused);
  if (matched.length === 0 && !given.allowEmpty) {
    throw new InputError(["no file matches files (set allow-empty to pass without one)"]);
  }
  if (matched.length === 0) {
    console.log(`::notice title=${PROGRAM}::no file matches files; check did not run`);
  } else if (files.length === 0) {
    // Every matched file was refused (each an error above).
  } else {
    const args = ["check", "--profile", given.profile, ...given.gates];
    const report = await cli([...args, "--json", "--", ...files], workspace);
    const sarif = await cli([...args, "--format", "sarif", "--", ...files], workspace);
    steps.push({
      name: "check",
      code: Math.max(report.code, sarif.code),
      log: sarif.json,
      report: report.json,
      stderr: sarif.stderr,
    });
  }
  const locked = await Deno.lstat(join(workspace, LOCK)).then(() => true, () => false);
  if (given.verify === "true" || (given.verify === "auto" && locked)) {
    const verify = await cli(["verify", "--format", "sarif"], workspace);
    steps.push({ name: "verify", code: verify.code, log: verify.json, stderr: verify.stderr });
  }
  return steps;
}

/** One error annotation without a file (an input, a write). */
function errorAnnotation(message: string): void {
  console.log(`::error title=${PROGRAM}::${commandData(message)}`);
}

/** Writes `text` at `target` by the one writer; a refusal's one line goes to `errors`. */
async function writeOutput(target: string, text: string, workspace: string, errors: string[]) {
  try {
    await writeWhole(target, text, { within: workspace, rootWords: "the workspace" });
    return true;
  } catch (error) {
    if (!(error instanceof WriteError)) throw error;
    errors.push(error.message);
    return false;
  }
}

async function main(): Promise<number> {
  const workspace = resolve(Deno.env.get("GITHUB_WORKSPACE") || Deno.cwd());
  const errors: string[] = [];
  /** Matched files not checked (each already an annotation at its file). */
  const refused: string[] = [];
  let steps: Step[] = [];
  let results: SarifResult[] = [];
  let given: ReturnType<typeof inputs> | undefined;
  let written: string | undefined;
  let reported: string | undefined;
  try {
    given = inputs(workspace);
    const target = await outputTarget(workspace, "sarif-file", given.sarifFile);
    const reportTarget = await outputTarget(workspace, "report", given.report);
    steps = await runSteps(workspace, given, refused);
    const log = mergeSarif(steps.flatMap((s) => s.log === undefined ? [] : [s.log]));
    results = log.runs[0].results;
    const report = steps.find((s) => s.name === "check")?.report;
    if (
      report !== undefined && await writeOutput(reportTarget, jsonText(report), workspace, errors)
    ) {
      reported = given.report;
    }
    if (await writeOutput(target, jsonText(log), workspace, errors)) written = given.sarifFile;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    errors.push(...error.messages);
  }
  for (const r of results) console.log(annotation(r));
  for (const s of steps) {
    if (s.log === undefined) {
      console.log(`::error title=${PROGRAM} ${s.name}::${commandData(s.stderr.trim())}`);
    }
  }
  for (const message of errors) errorAnnotation(message);
  const failedInputs = errors.length + refused.length > 0;
  let exitCode = Math.max(failedInputs ? 2 : 0, ...steps.map((s) => s.code));
  const counts = steps.find((s) => s.name === "check")?.report?.counts ??
    { passed: 0, failed: 0, inputErrors: 0 };
  const verify = steps.find((s) => s.name === "verify");
  const unwritten = [
    await appendRunnerFile(
      "GITHUB_STEP_SUMMARY",
      summary(steps, results, exitCode, [...refused, ...errors]),
      workspace,
    ),
    await setOutput("exit-code", String(exitCode), workspace),
    await setOutput("passed", String(counts.passed), workspace),
    await setOutput("failed", String(counts.failed), workspace),
    await setOutput("input-errors", String(counts.inputErrors), workspace),
    await setOutput("profile", given?.profile ?? "", workspace),
    await setOutput("verify", verify === undefined ? "" : String(verify.code), workspace),
    reported === undefined ? undefined : await setOutput("report", reported, workspace),
    written === undefined ? undefined : await setOutput("sarif-file", written, workspace),
  ];
  if (unwritten.some((r) => r !== undefined)) exitCode = 2;
  console.log(
    `${PROGRAM}: ${results.length} result(s), exit ${exitCode}; ${
      written === undefined ? "no SARIF file written" : `SARIF in ${escapeTerminal(written)}`
    } (Deno ${Deno.version.deno})`,
  );
  return exitCode;
}

if (import.meta.main) Deno.exit(await main());
