#!/usr/bin/env node
// The npm package's bin: runs the CLI unconditionally (import.meta.main is not set under Node).
// The bundle has no cli/*.ts files, so it loads each command's module by a literal import:
// esbuild makes each one a chunk (and Bun, compiling the binary, a lazily run part of its file),
// and a command loads only its own.
import process from "node:process";
import { type CommandFile, useCommandLoader } from "../cli/commands.ts";
import { main } from "../cli/mod.ts";
import { useMcpRunners } from "../cli/program.ts";

const CHUNKS: Record<CommandFile, () => Promise<unknown>> = {
  "./agents.ts": () => import("../cli/agents.ts"),
  "./bundle.ts": () => import("../cli/bundle.ts"),
  "./check.ts": () => import("../cli/check.ts"),
  "./doctor.ts": () => import("../cli/doctor.ts"),
  "./list.ts": () => import("../cli/list.ts"),
  "./lock.ts": () => import("../cli/lock.ts"),
  "./mcp.ts": () => import("../cli/mcp.ts"),
  "./outdated.ts": () => import("../cli/outdated.ts"),
  "./route.ts": () => import("../cli/route.ts"),
  "./search.ts": () => import("../cli/search.ts"),
  "./show.ts": () => import("../cli/show.ts"),
  "./sign.ts": () => import("../cli/sign.ts"),
  "./sources.ts": () => import("../cli/sources.ts"),
  "./sources_edit.ts": () => import("../cli/sources_edit.ts"),
  "./sync.ts": () => import("../cli/sync.ts"),
  "./trust.ts": () => import("../cli/trust.ts"),
};
useCommandLoader((file) => CHUNKS[file]());
// The composition root of the bundle, as main.ts is of the sources: the MCP server's chunk.
useMcpRunners(() => import("../mcp/mod.ts"));

process.exitCode = await main(process.argv.slice(2));
