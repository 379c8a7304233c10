/**
 * One version everywhere: `deno run -A scripts/version.ts check` lists every place in the
 * repository that states the current version and fails (exit 1) when one of them says another
 * version or a place is missing; `deno run -A scripts/version.ts set <version>` rewrites them all,
 * then checks. `--root <dir>` works on another copy of the repository (the tests use it).
 *
 * The places (the table {@linkcode PLACES}):
 *
 * - `lib/version.ts`: `export const VERSION = "<v>"`, the source every surface reports;
 * - JSON manifests, each at the keys named: `deno.json` (`version`), `server.json` (`version`,
 *   `packages[].version`), `.claude-plugin/plugin.json` (`version`),
 *   `.claude-plugin/marketplace.json` (`metadata.version` when present, `plugins[].version`),
 *   the Agent Plugins `plugin.json` (`version`), when those files exist, and the golden `check --json`
 *   document `testdata/check/golden-mixed.json` (`tool.version`);
 * - the README and the docs (`README.md`, `docs/*.md`): every mention of the package at a version
 *   (`dsh-skills-anywhere@<v>`, the Action's `dsh-skills-anywhere/dsh-skills-anywhere@v<v>` or `…@v<v>`, a
 *   tarball `dsh-skills-anywhere-<v>.tgz`, the help's `dsh-skills-anywhere <v>:`, the README's
 *   `Version <v>,`, docs/install.md's "prints `<v>`" and "version `<v>`"); the README must state the version once
 *   at least. Historical mentions ("the 0.9.0 resource") and CHANGELOG.md's headings are history,
 *   not places; `tests/release_test.ts` holds the CHANGELOG to this version.
 *
 * The npm package takes its version from `lib/version.ts` when it is built (`npm/build.ts`), and
 * the generated help from the command table, so neither is a place to keep in step by hand.
 *
 * @module
 */
import { readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import process from "node:process";
import { writeWhole } from "../lib/fs/mod.ts";

/** A version as the places write it: `1.2.3`, optionally `-pre.1`. */
const SEMVER = String.raw`\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?`;
/** The version's own shape, for `set`. */
const VERSION_SHAPE = new RegExp(`^${SEMVER}$`);

/** One value a place states: where (for people) and what it says. */
export interface Stated {
  file: string;
  where: string;
  value: string | undefined;
}

/** A place: how to read what a file states, and how to rewrite it to another version. */
interface Place {
  /** Files relative to the root (a folder name ending in `/` means its `*.md` files). */
  files: string[];
  /** Absent files are fine (a manifest not yet added), unless `required`. */
  required?: boolean;
  read(text: string, file: string): Stated[];
  write(text: string, version: string): string;
}

/** The JSON keys of a manifest that carry the version, as `a.b` and `list[].key` paths. */
function jsonPlace(files: string[], paths: string[], required = false): Place {
  return {
    files,
    required,
    read(text, file) {
      const doc = JSON.parse(text);
      const found: Stated[] = [];
      for (const path of paths) {
        const [head, tail] = path.split("[].");
        if (tail === undefined) {
          const value = head.split(".").reduce((node, key) => node?.[key], doc);
          if (value !== undefined || path === "version" || paths.length === 1) {
            found.push({ file, where: path, value: typeof value === "string" ? value : undefined });
          }
          continue;
        }
        const list = head.split(".").reduce((node, key) => node?.[key], doc);
        if (!Array.isArray(list)) continue;
        list.forEach((item, i) => {
          const value = item?.[tail];
          found.push({
            file,
            where: `${head}[${i}].${tail}`,
            value: typeof value === "string" ? value : undefined,
          });
        });
      }
      return found;
    },
    // Text edits keep the file's own formatting: every `"version": "<v>"` pair is one of the
    // keys above in these manifests (a test would notice a new one: `check` reads by key).
    write: (text, version) =>
      text.replace(
        new RegExp(`("version"\\s*:\\s*")${SEMVER}(")`, "g"),
        (_, open, close) => open + version + close,
      ),
  };
}

/** Mentions of the package at a version in prose: each pattern's group 1 is the version. */
const MENTIONS: readonly RegExp[] = [
  new RegExp(`(?:dsh-skills-anywhere(?:/dsh-skills-anywhere)?|…)@v?(${SEMVER})`, "g"),
  new RegExp(`dsh-skills-anywhere-(${SEMVER})\\.tgz`, "g"),
  new RegExp(`dsh-skills-anywhere (${SEMVER}):`, "g"),
  new RegExp(`^Version (${SEMVER}),`, "gm"),
  new RegExp(`prints \`(${SEMVER})\``, "g"),
  new RegExp(`version \`(${SEMVER})\``, "g"),
];

/** A prose place: every mention of {@linkcode MENTIONS}. */
function prosePlace(files: string[], required = false): Place {
  return {
    files,
    required,
    read(text, file) {
      const found: Stated[] = [];
      for (const pattern of MENTIONS) {
        for (const match of text.matchAll(pattern)) {
          const line = text.slice(0, match.index).split("\n").length;
          found.push({ file, where: `line ${line}`, value: match[1] });
        }
      }
      if (required && found.length === 0) {
        found.push({ file, where: "anywhere", value: undefined });
      }
      return found;
    },
    write(text, version) {
      let out = text;
      for (const pattern of MENTIONS) {
        out = out.replace(pattern, (whole, old: string) => whole.replace(old, version));
      }
      return out;
    },
  };
}

const SOURCE = /export const VERSION = "([^"]*)";/;

/** Every place (see the module doc). */
const PLACES: readonly Place[] = [
  {
    files: ["lib/version.ts"],
    required: true,
    read: (text, file) => [{ file, where: "VERSION", value: SOURCE.exec(text)?.[1] }],
    write: (text, version) => text.replace(SOURCE, `export const VERSION = "${version}";`),
  },
  jsonPlace(["deno.json"], ["version"], true),
  jsonPlace(["server.json"], ["version", "packages[].version"], true),
  jsonPlace([".claude-plugin/plugin.json", "plugin.json"], ["version"]),
  jsonPlace([".claude-plugin/marketplace.json"], ["metadata.version", "plugins[].version"]),
  jsonPlace(["testdata/check/golden-mixed.json"], ["tool.version"], true),
  prosePlace(["README.md"], true),
  prosePlace(["docs/"]),
];

/** The files a place covers under `root` (a folder's `*.md` files, sorted). */
async function filesOf(root: string, place: Place): Promise<string[]> {
  const files: string[] = [];
  for (const file of place.files) {
    if (!file.endsWith("/")) {
      files.push(file);
      continue;
    }
    const names = await readdir(join(root, file)).catch(() => [] as string[]);
    files.push(...names.filter((name) => name.endsWith(".md")).sort().map((n) => file + n));
  }
  return files;
}

/** The text of `file` under `root`, or `undefined` when it is not there. */
async function textOf(root: string, file: string): Promise<string | undefined> {
  try {
    return await readFile(join(root, file), "utf8");
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Everything the places of `root` state, with the required files that are missing. */
export async function stated(root: string): Promise<{ found: Stated[]; missing: string[] }> {
  const found: Stated[] = [];
  const missing: string[] = [];
  for (const place of PLACES) {
    for (const file of await filesOf(root, place)) {
      const text = await textOf(root, file);
      if (text === undefined) {
        if (place.required) missing.push(file);
        continue;
      }
      found.push(...place.read(text, file));
    }
  }
  return { found, missing };
}

/** The lines of `check`'s report for `root`, and whether every place states `lib/version.ts`'s version. */
export async function check(
  root: string,
): Promise<{ ok: boolean; lines: string[]; version?: string }> {
  const { found, missing } = await stated(root);
  const version = found.find((s) => s.file === "lib/version.ts")?.value;
  const lines = missing.map((file) => `missing: ${file}`);
  for (const s of found) {
    if (s.value !== version) {
      lines.push(`${s.file} (${s.where}): ${s.value ?? "no version"}, not ${version}`);
    }
  }
  return { ok: version !== undefined && lines.length === 0, lines, version };
}

/** Rewrites every place of `root` to `version` (see the module doc). */
export async function set(root: string, version: string): Promise<string[]> {
  if (!VERSION_SHAPE.test(version)) throw new Error(`Not a version: ${version}`);
  const changed: string[] = [];
  for (const place of PLACES) {
    for (const file of await filesOf(root, place)) {
      const text = await textOf(root, file);
      if (text === undefined) continue;
      const next = place.write(text, version);
      if (next === text) continue;
      await writeWhole(join(root, file), next, { within: root });
      changed.push(file);
    }
  }
  return changed;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--root");
  const root = resolve(at >= 0 ? args.splice(at, 2)[1] : new URL("..", import.meta.url).pathname);
  const [command, version] = args;
  if (command === "set" && version !== undefined) {
    const changed = await set(root, version);
    console.log(`set ${version} in ${changed.length} files: ${changed.join(", ")}`);
  } else if (command !== "check") {
    console.error("Usage: scripts/version.ts check | set <version> [--root <dir>]");
    process.exit(2);
  }
  const result = await check(root);
  for (const line of result.lines) console.error(line);
  if (!result.ok) {
    console.error(`Versions out of step with lib/version.ts (${result.version ?? "none"})`);
    process.exit(1);
  }
  const places = (await stated(root)).found.length;
  console.log(`${result.version} in all ${places} places`);
}
