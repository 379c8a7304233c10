/**
 * The one simulated GitHub runner for `action.yml` (issue 28): each `run:` step of the composite
 * action is read from `action.yml` and run as the runner runs it — `bash --noprofile --norc -eo
 * pipefail` on the step's script, in the workspace, with the step's `env:` where every
 * `${{ inputs.<name> }}` is replaced by the value given in `with` (or the input's default), and
 * the runner's own variables (`GITHUB_ACTION_PATH` this checkout, `GITHUB_WORKSPACE`, a fresh
 * `GITHUB_OUTPUT` per step, `GITHUB_STEP_SUMMARY`, `RUNNER_TEMP`). The action's outputs are then
 * evaluated from their `${{ steps.<id>.outputs.<name> }}` expressions.
 *
 * An input name the action does not declare is refused here (GitHub only warns), so a test never
 * passes by a typo. npx resolves `deno` from the machine's npm cache (named in the environment,
 * as a runner's cache sits in its home), never from the network.
 *
 * @module
 */
import { join } from "node:path";
import { load as loadYaml } from "js-yaml";
import { ROOT, run, type Sandbox } from "./helpers.ts";

/** The parts of `action.yml` the runner reads. */
export interface ActionYml {
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: {
    using: string;
    steps: { id?: string; shell: string; run: string; env?: Record<string, string> }[];
  };
}

/** `action.yml` as the runner reads it. */
export async function actionYml(): Promise<ActionYml> {
  return loadYaml(await Deno.readTextFile(join(ROOT, "action.yml"))) as ActionYml;
}

/** What one run of the action gave. */
export interface ActionRun {
  code: number;
  stdout: string;
  stderr: string;
  /** The workflow-command lines (`::error …`, `::notice …`) of stdout. */
  annotations: string[];
  /** The action's outputs, evaluated as the runner does (an unset step output is ""). */
  outputs: Record<string, string>;
  /** What the steps appended to GITHUB_STEP_SUMMARY. */
  summary: string;
}

/** Options of {@linkcode runAction}. */
export interface RunActionOptions {
  /** The `with:` of the workflow step (input name to value). */
  with?: Record<string, string>;
  /** Runner variables replaced or added (for example a GITHUB_STEP_SUMMARY elsewhere). */
  env?: Record<string, string>;
  /**
   * The runner's own environment (default: the sandbox's, with npm pointed at the machine's
   * cache); the launch guard passes a user's environment whose npm settings live in its home.
   */
  baseEnv?: Record<string, string>;
  /** A run line in place of the first step's (a control running an older line). */
  run?: string;
}

let npmCache: Promise<string> | undefined;

/**
 * npm's settings for the runner: the machine's npm cache (as a runner's cache sits in its home),
 * offline first, quiet; given as environment so nothing is written in the sandbox's home.
 */
async function npmEnv(): Promise<Record<string, string>> {
  npmCache ??= run("npm", ["config", "get", "cache"]).then((r) => r.stdout.trim());
  return {
    npm_config_cache: await npmCache,
    npm_config_prefer_offline: "true",
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
  };
}

/** `${{ inputs.x }}` and `${{ steps.id.outputs.x }}` replaced; any other expression refused. */
function evaluate(
  text: string,
  inputs: Record<string, string>,
  steps: Record<string, Record<string, string>>,
): string {
  return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expression: string) => {
    const input = /^inputs\.([\w-]+)$/.exec(expression);
    if (input !== null) return inputs[input[1]] ?? "";
    const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
    if (output !== null) return steps[output[1]]?.[output[2]] ?? "";
    throw new Error(`the simulated runner does not evaluate \${{ ${expression} }}`);
  });
}

/**
 * GITHUB_OUTPUT's lines as a record: `name<<delimiter` blocks and `name=value` lines, as the
 * runner reads them.
 */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([\w-]+)<<(.+)$/.exec(lines[i]);
    if (heredoc !== null) {
      const end = lines.indexOf(heredoc[2], i + 1);
      if (end < 0) throw new Error(`GITHUB_OUTPUT: ${heredoc[1]} has no closing delimiter`);
      outputs[heredoc[1]] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else if (/^[\w-]+=/.test(lines[i])) {
      const at = lines[i].indexOf("=");
      outputs[lines[i].slice(0, at)] = lines[i].slice(at + 1);
    } else if (lines[i] !== "") throw new Error(`GITHUB_OUTPUT: unreadable line ${lines[i]}`);
  }
  return outputs;
}

/**
 * Runs `action.yml` in `workspace` as the runner does for a workflow step
 * `uses: <this action>` with `options.with`; returns its exit code, output, annotations,
 * evaluated outputs and job summary.
 */
export async function runAction(
  box: Sandbox,
  workspace: string,
  options: RunActionOptions = {},
): Promise<ActionRun> {
  const action = await actionYml();
  const given = options.with ?? {};
  for (const name of Object.keys(given)) {
    if (!(name in action.inputs)) throw new Error(`action.yml has no input ${name}`);
  }
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) {
    inputs[name] = given[name] ?? spec.default ?? "";
  }
  const base = options.baseEnv ?? { ...box.env, ...await npmEnv() };
  const summary = join(box.root, "step_summary");
  await Deno.writeTextFile(summary, "");
  const steps: Record<string, Record<string, string>> = {};
  let code = 0;
  let stdout = "";
  let stderr = "";
  for (const [index, step] of action.runs.steps.entries()) {
    const output = join(box.root, `github_output_${index}`);
    const script = join(box.root, `step_${index}.sh`);
    await Deno.writeTextFile(output, "");
    const line = index === 0 && options.run !== undefined ? options.run : step.run;
    await Deno.writeTextFile(script, evaluate(line, inputs, steps));
    const stepEnv = Object.fromEntries(
      Object.entries(step.env ?? {}).map(([k, v]) => [k, evaluate(String(v), inputs, steps)]),
    );
    const result = await run("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
      cwd: workspace,
      env: {
        ...base,
        ...stepEnv,
        GITHUB_ACTIONS: "true",
        GITHUB_ACTION_PATH: ROOT.replace(/\/$/, ""),
        GITHUB_WORKSPACE: workspace,
        GITHUB_OUTPUT: output,
        GITHUB_STEP_SUMMARY: summary,
        RUNNER_TEMP: join(box.root, "runner-temp"),
        ...options.env,
      },
      clearEnv: true,
    });
    stdout += result.stdout;
    stderr += result.stderr;
    steps[step.id ?? `step${index}`] = parseOutputs(await Deno.readTextFile(output));
    code = result.code;
    if (code !== 0) break;
  }
  const outputs = Object.fromEntries(
    Object.entries(action.outputs).map(([name, spec]) => [name, evaluate(spec.value, {}, steps)]),
  );
  const summaryPath = options.env?.GITHUB_STEP_SUMMARY ?? summary;
  return {
    code,
    stdout,
    stderr,
    annotations: stdout.split("\n").filter((l) => l.startsWith("::")),
    outputs,
    summary: await Deno.readTextFile(summaryPath).catch(() => ""),
  };
}
