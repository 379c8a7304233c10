#!/usr/bin/env node
// The npm package's bin: runs the CLI unconditionally (import.meta.main is not set under Node).
// The bundle has no lib/cli/*.ts files, so it loads each command's module by a literal import:
// esbuild makes each one a chunk (and Bun, compiling the binary, a lazily run part of its file),
// and a command loads only its own.
import process from "node:process";
import { type CommandFile, useCommandLoader } from "../lib/cli/commands.ts";
import { main } from "../lib/cli/mod.ts";

const CHUNKS: Record<CommandFile, () => Promise<unknown>> = {
  "./agents.ts": () => import("../lib/cli/agents.ts"),
  "./bundle.ts": () => import("../lib/cli/bundle.ts"),
  "./check.ts": () => import("../lib/cli/check.ts"),
  "./doctor.ts": () => import("../lib/cli/doctor.ts"),
  "./list.ts": () => import("../lib/cli/list.ts"),
  "./lock.ts": () => import("../lib/cli/lock.ts"),
  "./mcp.ts": () => import("../lib/cli/mcp.ts"),
  "./outdated.ts": () => import("../lib/cli/outdated.ts"),
  "./route.ts": () => import("../lib/cli/route.ts"),
  "./search.ts": () => import("../lib/cli/search.ts"),
  "./show.ts": () => import("../lib/cli/show.ts"),
  "./sign.ts": () => import("../lib/cli/sign.ts"),
  "./sources.ts": () => import("../lib/cli/sources.ts"),
  "./sources_edit.ts": () => import("../lib/cli/sources_edit.ts"),
  "./sync.ts": () => import("../lib/cli/sync.ts"),
  "./trust.ts": () => import("../lib/cli/trust.ts"),
};
useCommandLoader((file) => CHUNKS[file]());

process.exitCode = await main(process.argv.slice(2));
