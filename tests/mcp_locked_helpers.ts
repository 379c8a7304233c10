/**
 * The real `mcp --locked` server child driven by the SDK 2 client over stdio,
 * shared by the lock and signature tests.
 *
 * @module
 */
import type { Readable } from "node:stream";
import { Client } from "@modelcontextprotocol/client";
import { SkillsClient } from "@modelcontextprotocol/client/ext/skills";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { MAIN, type Sandbox } from "./helpers.ts";
import type { ToolResult } from "./mcp_helpers.ts";

/** A connected session: tools, the Skills extension, resources, the listed names. */
export interface Locked {
  call(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
  skills: SkillsClient;
  read(uri: string): Promise<unknown>;
  listed(): Promise<string[]>;
}

/** Where {@linkcode withLocked} starts the server. */
export interface LockedOptions {
  /** The server's working directory and `--cwd` (default: the sandbox's project). */
  cwd?: string;
}

/** Runs `fn` with an SDK 2 client connected to `mcp --locked` over stdio; returns its stderr. */
export async function withLocked(
  box: Sandbox,
  fn: (s: Locked) => Promise<void>,
  options: LockedOptions = {},
): Promise<string> {
  const cwd = options.cwd ?? box.project;
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: ["run", "-A", "--quiet", MAIN, "mcp", "--locked", "--cwd", cwd],
    env: box.env,
    cwd,
    stderr: "pipe",
  });
  let stderr = "";
  (transport.stderr as Readable | null)?.on("data", (chunk) => stderr += String(chunk));
  const client = new Client({ name: "mcp-locked", version: "1.0.0" });
  await client.connect(transport);
  const skills = new SkillsClient(
    client as unknown as ConstructorParameters<typeof SkillsClient>[0],
  );
  try {
    await fn({
      call: async (name, args = {}) =>
        await client.callTool({ name, arguments: args }) as ToolResult,
      skills,
      read: (uri) => client.readResource({ uri }),
      listed: async () => {
        const result = await client.callTool({ name: "list_skills", arguments: {} }) as ToolResult;
        return (result.structuredContent!.skills as { name: string }[]).map((s) => s.name);
      },
    });
  } finally {
    await client.close();
  }
  return stderr;
}
