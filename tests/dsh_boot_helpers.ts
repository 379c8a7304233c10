// A real DeepSeek Harness for tests/dsh_boot_test.ts: `@deepseek-ai/dsh` 0.1.0-rc.8 from the npm
// registry (its hmr plugin pinned to 1.0.17, see docs/dsh.md), Node 22 and pnpm (both npm
// packages), installed on first use into the git-ignored .cache/npm-tools/ (about 10 minutes
// cold, nothing warm). A temp home per test (HOME, DSH_HOME, a git project), dsh run as a child
// process on 127.0.0.1 only, its web API driven over HTTP, and the scripted model of
// tests/dsh_model.ts as its model endpoint.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { npmTool } from "../scripts/npm_tools.ts";
import { run, type RunResult, withTempDir } from "./helpers.ts";
import { packPlugin } from "./dsh_pack.ts";
import { type ChatRequest, type Reply, ScriptedModel } from "./dsh_model.ts";

const NODE_PACKAGE = `node-${Deno.build.os === "darwin" ? "darwin" : "linux"}-${
  Deno.build.arch === "aarch64" ? "arm64" : "x64"
}`;

/** The dsh release the plugin is tested with. */
const DSH_VERSION = "0.1.0-rc.8";
/**
 * dsh 0.1.0-rc.8's range `^1.0.16` resolves to 1.0.19, which lacks `registerConfig`: installed
 * beside it, 1.0.17 satisfies the range and is the one dsh loads (docs/dsh.md).
 */
const HMR_PIN = "@deepseek-ai/cordis-plugin-hmr@1.0.17";

/** Where the installed dsh and its runtime are. */
export interface DshInstall {
  /** dsh's CLI entry (`lib/bin.js`). */
  bin: string;
  /** The `@deepseek-ai/dsh` package folder (its shipped agent presets are in `config/`). */
  dshPackage: string;
  /** Node 22. */
  node: string;
  /** A folder with `node` (22) and `pnpm`, for PATH. */
  toolsBin: string;
  /** A folder with `node` (22) alone, for PATH (no pnpm). */
  nodeBin: string;
}

let installing: Promise<DshInstall> | undefined;

/** Installs dsh, Node 22 and pnpm on first use (shared by every test of the process). */
export function installDsh(): Promise<DshInstall> {
  installing ??= (async () => {
    const [dsh, tools] = await Promise.all([
      npmTool([`@deepseek-ai/dsh@${DSH_VERSION}`, HMR_PIN], "@deepseek-ai/dsh/lib/bin.js", {
        peersAfter: true,
      }),
      npmTool([`${NODE_PACKAGE}@22.23.5`, "pnpm@12.21.0"], "pnpm/bin/pnpm.mjs"),
    ]);
    return {
      bin: join(dsh, "@deepseek-ai", "dsh", "lib", "bin.js"),
      dshPackage: join(dsh, "@deepseek-ai", "dsh"),
      node: join(tools, NODE_PACKAGE, "bin", "node"),
      toolsBin: join(tools, ".bin"),
      nodeBin: join(tools, NODE_PACKAGE, "bin"),
    };
  })();
  return installing;
}

/** A temp world for dsh: a home with its `.dsh`, a git project, the model endpoint. */
export interface DshWorld {
  install: DshInstall;
  home: string;
  dshHome: string;
  project: string;
  model: ScriptedModel;
}

/** The environment dsh runs in: the temp homes, no telemetry, the scripted model. */
function dshEnv(world: DshWorld, options: { pnpm?: boolean } = {}): Record<string, string> {
  const bin = options.pnpm === false ? world.install.nodeBin : world.install.toolsBin;
  return {
    HOME: world.home,
    DSH_HOME: world.dshHome,
    PATH: `${bin}:/usr/bin:/bin`,
    DSH_TELEMETRY_DISABLED: "1",
    DEEPSEEK_BASE_URL: world.model.url,
    DEEPSEEK_API_KEY: "sk-scripted",
    NO_COLOR: "1",
    npm_config_update_notifier: "false",
  };
}

/** Runs `dsh <args>` to completion in `cwd` (default: the project). */
export function runDsh(
  world: DshWorld,
  args: string[],
  options: { cwd?: string; pnpm?: boolean } = {},
): Promise<RunResult> {
  return run(world.install.node, [world.install.bin, ...args], {
    cwd: options.cwd ?? world.project,
    env: dshEnv(world, options),
    clearEnv: true,
  });
}

/** One answer of dsh's web API. */
interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** A running `dsh --profile web` and its HTTP API. */
export class WebDsh {
  readonly #child: Deno.ChildProcess;
  readonly #output: string[] = [];
  readonly #done: Promise<Deno.CommandStatus>;
  #exited = false;
  url = "";
  #rpc = 0;

  private constructor(child: Deno.ChildProcess) {
    this.#child = child;
    this.#done = child.status;
    this.#done.then(() => this.#exited = true);
  }

  /** Starts dsh's web profile with `args` (patches) and waits until its API answers. */
  static async start(world: DshWorld, args: string[] = []): Promise<WebDsh> {
    const child = new Deno.Command(world.install.node, {
      args: [
        world.install.bin,
        "--profile",
        "web",
        ...args,
        "--no-open",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
      ],
      cwd: world.project,
      env: dshEnv(world),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const dsh = new WebDsh(child);
    dsh.#collect(child.stdout);
    dsh.#collect(child.stderr);
    await dsh.#ready();
    return dsh;
  }

  #collect(stream: ReadableStream<Uint8Array>): void {
    (async () => {
      const decoder = new TextDecoder();
      for await (const bytes of stream) this.#output.push(decoder.decode(bytes, { stream: true }));
    })();
  }

  /** Everything dsh printed so far (stdout and stderr interleaved). */
  get output(): string {
    return this.#output.join("");
  }

  /** Waits for `dsh web: <url>` (printed once it serves); throws if dsh exits first. */
  async #ready(): Promise<void> {
    for (;;) {
      const url = /dsh web: (http:\/\/127\.0\.0\.1:\d+)/.exec(this.output)?.[1];
      if (url !== undefined) {
        this.url = url;
        return;
      }
      if (this.#exited) throw new Error(`dsh exited before serving:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Calls `method` of dsh's API; throws when it is refused. */
  async api(method: string, payload: Record<string, unknown>): Promise<Record<string, unknown>> {
    const answer = await this.call(method, payload);
    const result = answer.body.result as { ok?: boolean; value?: Record<string, unknown> };
    if (answer.status !== 200 || result?.ok !== true || result.value === undefined) {
      throw new Error(`${method}: ${answer.status} ${JSON.stringify(answer.body)}`);
    }
    return result.value;
  }

  /** Calls `method` of dsh's API and returns the raw answer. */
  async call(method: string, payload: Record<string, unknown>): Promise<ApiAnswer> {
    this.#rpc += 1;
    const response = await fetch(`${this.url}/api/${method}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: this.url },
      body: JSON.stringify({
        type: "client-request",
        rpcId: String(this.#rpc),
        method,
        payload,
      }),
    });
    const text = await response.text();
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text);
    } catch {
      body = { text };
    }
    return { status: response.status, body };
  }

  /** Stops dsh (SIGTERM) and waits for it to exit. */
  async stop(): Promise<void> {
    try {
      this.#child.kill("SIGTERM");
    } catch {
      // already gone
    }
    await this.#done;
  }
}

/** The user patch that turns dsh 0.1.0-rc.8's `hmr` row back on (its web and headless bundles crash without it). */
export const HMR_PATCH = "- id: hmr\n  disabled: false\n";

/** What a test's world starts with (see {@linkcode withDshWorld}). */
export interface WorldOptions {
  /** Writes the test's skills into the new world. */
  skills: (world: DshWorld) => Promise<void>;
  /** How the scripted model answers (default: its own reply). */
  script?: (request: ChatRequest) => Reply;
}

/**
 * Runs `fn` in a fresh world: a temp home and project (with `.git`), the scripted model, the
 * skills written, `hmr.patch.yml` ({@linkcode HMR_PATCH}) in `work`, and the packed plugin.
 */
export async function withDshWorld(
  options: WorldOptions,
  fn: (world: DshWorld, tarball: string, work: string) => Promise<void>,
): Promise<void> {
  const install = await installDsh();
  await withTempDir(async (work) => {
    const model = new ScriptedModel(options.script);
    const world: DshWorld = {
      install,
      home: join(work, "home"),
      dshHome: join(work, "home", ".dsh"),
      project: join(work, "project"),
      model,
    };
    try {
      await mkdir(join(world.project, ".git"), { recursive: true });
      await mkdir(world.dshHome, { recursive: true });
      await writeFile(join(work, "hmr.patch.yml"), HMR_PATCH);
      await options.skills(world);
      await fn(world, await packPlugin(work), work);
    } finally {
      await model.close();
    }
  });
}
