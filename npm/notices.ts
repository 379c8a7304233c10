// The third-party notices of what the npm package (and the binaries compiled from it) bundles:
// every npm package esbuild read an input from (its metafile), with its name, version, licence
// and the text of its licence file, so a redistributed copy carries the notices those licences
// (MIT, ISC, Apache-2.0, …) require. esbuild's legal comments are dropped from the minified code.
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, sep } from "node:path";

/** The folder of the npm package that holds `file` (the nearest `node_modules/<name>`). */
function packageDir(file: string): string | undefined {
  const parts = file.split(sep);
  const at = parts.lastIndexOf("node_modules");
  if (at < 0 || at + 1 >= parts.length) return undefined;
  const width = parts[at + 1].startsWith("@") ? 3 : 2;
  return parts.slice(0, at + width).join(sep);
}

async function licenceText(dir: string): Promise<string | undefined> {
  const names = (await readdir(dir)).filter((n) => /^(licen[cs]e|copying|notice)/i.test(n)).sort();
  const texts = await Promise.all(names.map((n) => readFile(join(dir, n), "utf8")));
  return texts.length === 0 ? undefined : texts.join("\n");
}

/**
 * The notices file for the bundle whose esbuild metafile is at `metafile` (input paths relative to
 * `root`); throws when a bundled package has neither a licence file nor a `license` field.
 */
export async function thirdPartyNotices(root: string, metafile: string): Promise<string> {
  const meta = JSON.parse(await readFile(metafile, "utf8")) as { inputs: Record<string, unknown> };
  const dirs = new Set<string>();
  for (const input of Object.keys(meta.inputs)) {
    const dir = packageDir(join(root, input));
    if (dir !== undefined) dirs.add(dir);
  }
  const entries: string[] = [];
  for (const dir of dirs) {
    const pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
    const text = await licenceText(dir);
    if (text === undefined && typeof pkg.license !== "string") {
      throw new Error(`${dirname(dir)}: ${pkg.name} has no licence`);
    }
    entries.push(
      `## ${pkg.name}@${pkg.version} (${pkg.license ?? "see below"})\n\n` +
        (text === undefined
          ? `Licensed under ${pkg.license}.\n`
          : "```text\n" + text.trim() + "\n```\n"),
    );
  }
  entries.sort();
  return "# Third-party notices\n\nThis package bundles the following npm packages.\n\n" +
    entries.join("\n");
}
