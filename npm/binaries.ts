// `deno task build:bin`: standalone binaries for five platforms with `bun build --compile` (Bun from
// the npm registry; `deno compile` cannot fetch its runtime here). Compiles the npm bundle, so build
// it first (`deno task build:npm`; this task does it when npm/dist is missing). Writes
// dist/bin/dsh-skills-anywhere-<os>-<arch>[.exe] and dist/bin/SHA256SUMS.
//
//   deno task build:bin                 all five targets
//   deno task build:bin linux-x64       only the named ones
import { createHash } from "node:crypto";
import { copyFile, mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import process from "node:process";
import { run } from "./run.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const OUT = join(ROOT, "dist", "bin");
const BUN = "bun@1.4.5";

/**
 * Our platform names and Bun's compile targets. `tuned`: precompiled bytecode and code splitting
 * (each command, and the MCP server, is its own module in the binary, linked only when it runs: a
 * start without them is some 8 ms shorter), only where the binary can be run and tested here; the
 * others embed one plain JavaScript module, which every target runs.
 */
export const TARGETS: Record<string, { bun: string; file: string; tuned?: true }> = {
  "linux-x64": { bun: "bun-linux-x64", file: "dsh-skills-anywhere-linux-x64", tuned: true },
  "linux-arm64": { bun: "bun-linux-arm64", file: "dsh-skills-anywhere-linux-arm64" },
  "darwin-x64": { bun: "bun-darwin-x64", file: "dsh-skills-anywhere-darwin-x64" },
  "darwin-arm64": { bun: "bun-darwin-arm64", file: "dsh-skills-anywhere-darwin-arm64" },
  "windows-x64": { bun: "bun-windows-x64", file: "dsh-skills-anywhere-windows-x64.exe" },
};

/**
 * Nothing of the working directory configures the binary at start-up: no `.env*`, `bunfig.toml`,
 * `tsconfig.json` or `package.json` (Bun's defaults load the first two).
 */
const AUTOLOAD_OFF = [
  "--no-compile-autoload-dotenv",
  "--no-compile-autoload-bunfig",
  "--no-compile-autoload-tsconfig",
  "--no-compile-autoload-package-json",
];

const entry = join(ROOT, "npm", "dist", "dist", "cli.js");
if (!(await stat(entry).then(() => true, () => false))) {
  await run(Deno.execPath(), ["run", "-A", join(ROOT, "npm", "build.ts")]);
}
const wanted = process.argv.slice(2);
for (const name of wanted) {
  if (!(name in TARGETS)) {
    throw new Error(`unknown target ${name}; one of ${Object.keys(TARGETS).join(", ")}`);
  }
}
const selected = Object.entries(TARGETS).filter(([name]) =>
  wanted.length === 0 || wanted.includes(name)
);
await mkdir(OUT, { recursive: true });
const sums: string[] = [];
for (const [name, target] of selected) {
  const outfile = join(OUT, target.file);
  await rm(outfile, { force: true });
  await run("npx", [
    "-y",
    BUN,
    "build",
    "--compile",
    "--minify",
    ...(target.tuned ? ["--bytecode", "--splitting"] : []),
    "--format=esm",
    // A compiled Bun program would otherwise load the .env files and bunfig.toml (its `preload`
    // runs code) of the folder it starts in, which is the project an MCP client opened.
    ...AUTOLOAD_OFF,
    `--target=${target.bun}`,
    entry,
    "--outfile",
    outfile,
  ]);
  const digest = createHash("sha256").update(await readFile(outfile)).digest("hex");
  sums.push(`${digest}  ${target.file}`);
  console.log(`${name}: ${target.file} (${((await stat(outfile)).size / 1048576).toFixed(1)} MiB)`);
}
await writeFile(join(OUT, "SHA256SUMS"), sums.join("\n") + "\n");
// The binaries embed the npm bundle: its third-party notices ship beside them.
await copyFile(
  join(ROOT, "npm", "dist", "THIRD_PARTY_NOTICES.md"),
  join(OUT, "THIRD_PARTY_NOTICES.md"),
);
console.log(`dist/bin/SHA256SUMS: ${sums.length} files`);
