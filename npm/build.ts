// `deno task build:npm`: the npm package in npm/dist, bundled by esbuild (dnt is unreachable here).
// Everything is bundled, so the package has no runtime dependencies; the MCP SDK sits in a chunk
// that only the `mcp` command loads. The version comes from lib/version.ts.
import { copyFile, mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { TOOL_NAME, VERSION } from "../lib/version.ts";
import { thirdPartyNotices } from "./notices.ts";
import { installPackages, run } from "./run.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const OUT = join(ROOT, "npm", "dist");
const ESBUILD = "esbuild@0.28.2";

/** The source repository, also in server.json (`repository.url`). */
const REPOSITORY = "https://github.com/dsh-skills-anywhere/dsh-skills-anywhere";

/** The MCP registry name, also in server.json. */
export const MCP_NAME = "io.github.dsh-skills-anywhere/dsh-skills-anywhere";

// esbuild resolves npm imports from node_modules, which Deno creates on first use: make sure
// it exists on a fresh clone.
await installPackages();
await rm(OUT, { recursive: true, force: true });
await mkdir(join(OUT, "dist"), { recursive: true });
const metafile = join(OUT, "meta.json");
await run("npx", [
  "-y",
  ESBUILD,
  "cli=npm/cli.ts",
  "index=dsh/mod.ts",
  "tools=dsh/tools.ts",
  "mcp=mcp/mod.ts",
  // dsh's own packages come from the dsh install that loads the plugin (optional peers).
  "--external:@deepseek-ai/*",
  "--bundle",
  "--splitting",
  "--format=esm",
  "--platform=node",
  "--target=node20",
  "--minify",
  "--legal-comments=none",
  "--chunk-names=chunks/[name]-[hash]",
  `--outdir=${join(OUT, "dist")}`,
  "--banner:js=import { createRequire as __dsaRequire } from 'node:module'; const require = __dsaRequire(import.meta.url);",
  `--metafile=${metafile}`,
  "--log-level=warning",
]);
const notices = await thirdPartyNotices(ROOT, metafile);
await rm(metafile);

/**
 * The dsh web card (`./client`): one classic script in dsh's lazy-CJS client module format
 * (`window.__ModuleLoader__.load({id, factory})`, as dsh's own `@deepseek-ai/dsh-client-*`
 * bundles ship), whose factory hands dsh's React to the card and exports `inject` and `apply`.
 */
const clientRaw = join(OUT, "client.raw.js");
await run("npx", [
  "-y",
  ESBUILD,
  "dsh/client/card.ts",
  "--bundle",
  "--format=iife",
  "--global-name=__skillsAnywhereCard",
  "--platform=browser",
  "--target=es2022",
  "--minify",
  "--legal-comments=none",
  `--outfile=${clientRaw}`,
  "--log-level=warning",
]);
const clientCode = (await readFile(clientRaw, "utf8")).trim();
await rm(clientRaw);
await writeFile(
  join(OUT, "dist", "client.js"),
  `window.__ModuleLoader__.load({id:${JSON.stringify(TOOL_NAME)},factory:(require)=>{` +
    `var module={exports:{}};var exports=module.exports;` +
    `Object.defineProperty(exports,Symbol.toStringTag,{value:"Module"});\n${clientCode}\n` +
    `var plugin=__skillsAnywhereCard.clientPlugin(require("react"));` +
    `exports.inject=plugin.inject;exports.apply=plugin.apply;return module.exports;}});\n`,
);

const pkg = {
  name: TOOL_NAME,
  version: VERSION,
  description:
    "One catalog of Agent Skills for every coding agent: CLI, stdio MCP server, and review tools (check, bundle).",
  license: "MIT",
  repository: { type: "git", url: `git+${REPOSITORY}.git` },
  homepage: `${REPOSITORY}#readme`,
  bugs: { url: `${REPOSITORY}/issues` },
  type: "module",
  bin: { [TOOL_NAME]: "dist/cli.js" },
  exports: {
    ".": "./dist/index.js",
    "./tools": "./dist/tools.js",
    "./mcp": "./dist/mcp.js",
    "./client": "./dist/client.js",
    "./package.json": "./package.json",
  },
  files: ["dist", "cordis.patch.yml", "README.md", "LICENSE", "THIRD_PARTY_NOTICES.md"],
  peerDependencies: {
    "@deepseek-ai/dsh-skill": ">=0.1.0-rc.8",
    "@deepseek-ai/dsh-tools": ">=0.1.0-rc.8",
    "@deepseek-ai/schemastery": "^3.18.1",
  },
  peerDependenciesMeta: {
    "@deepseek-ai/dsh-skill": { optional: true },
    "@deepseek-ai/dsh-tools": { optional: true },
    "@deepseek-ai/schemastery": { optional: true },
  },
  dsh: {
    bundle: { patch: "./cordis.patch.yml" },
    // The web card: dsh's web profile loads `./client` once these client packages are in.
    client: {
      platform: "web",
      inject: [
        "@deepseek-ai/dsh-client-locale",
        "@deepseek-ai/dsh-client-ui-settings",
        "@deepseek-ai/dsh-client-ui-settings-plugins",
        "@deepseek-ai/dsh-client-connection",
      ],
    },
  },
  engines: { node: ">=20.16" },
  keywords: [
    "agent-skills",
    "skills",
    "skill-md",
    "mcp",
    "mcp-server",
    "claude-code",
    "codex",
    "cursor",
    "gemini-cli",
    "cli",
  ],
  mcpName: MCP_NAME,
};
await writeFile(join(OUT, "package.json"), JSON.stringify(pkg, null, 2) + "\n");
await copyFile(join(ROOT, "README.md"), join(OUT, "README.md"));
await copyFile(join(ROOT, "LICENSE"), join(OUT, "LICENSE"));
await writeFile(join(OUT, "THIRD_PARTY_NOTICES.md"), notices);
await copyFile(join(ROOT, "dsh", "cordis.patch.yml"), join(OUT, "cordis.patch.yml"));

let bytes = 0;
for (const entry of await readdir(OUT, { recursive: true, withFileTypes: true })) {
  if (entry.isFile()) bytes += (await stat(join(entry.parentPath, entry.name))).size;
}
console.log(`npm/dist: ${pkg.name}@${pkg.version}, ${(bytes / 1024).toFixed(0)} KiB unpacked`);
