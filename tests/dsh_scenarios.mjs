// dsh integration scenarios, run in-process against the REAL `@deepseek-ai/dsh-skill` registry and
// `@deepseek-ai/dsh-tools` runtime, once with the sources (tests/dsh_test.ts) and once with the
// packed npm package under Node (the runner tests/dsh_test.ts writes). This file gathers the
// scenario files by feature; every scenario receives `env` = {
//   Context, SkillRegistry, SystemPrompt, ToolRuntime, renderSkillContent,  (the dsh packages)
//   provider, tools,               (the `skills-anywhere` and `skills-anywhere-tools` modules)
//   assert,                        (node:assert/strict)
//   fs: {tempDir, write, read, mkdir, remove, exists}, git(args, cwd),
//   silentServer() -> {port, connections(), close()}, gitProcesses(marker) -> pids (synchronous)
// }.
// Every provider gets explicit temp `home` and `dshHome`; `watch` and `sync` are off except in
// the tests about them.

export * from "./dsh_catalog_scenarios.mjs";
export * from "./dsh_sync_scenarios.mjs";
export * from "./dsh_tools_scenarios.mjs";
