/**
 * The floor for `list` and `show`: walk the skill folders below a home (`<folder>/<skill>/SKILL.md`
 * for each folder named), read each SKILL.md and pull `name:` and `description:` out of its
 * frontmatter with one regular expression each, then print them as JSON sorted by name: nothing
 * else (no YAML, no limits, no identity checks, no dedupe, no other agents' roots). Run as a whole
 * process (`deno run -A bench/floor_list.ts <home> <folder>...`) for the start-up ratios.
 *
 * @module
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";

const NAME = /^name:\s*(.*)$/m;
const DESCRIPTION = /^description:\s*(.*)$/m;

/** The name and description of every `<folder>/<skill>/SKILL.md` below `home`. */
export function floorList(home: string, folders: readonly string[]): [string, string][] {
  const found: [string, string][] = [];
  for (const folder of folders) {
    let entries: string[];
    try {
      entries = readdirSync(join(home, folder));
    } catch {
      continue;
    }
    for (const entry of entries) {
      let text: string;
      try {
        text = readFileSync(join(home, folder, entry, "SKILL.md"), "utf8");
      } catch {
        continue;
      }
      found.push([NAME.exec(text)?.[1] ?? entry, DESCRIPTION.exec(text)?.[1] ?? ""]);
    }
  }
  return found.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

if (import.meta.main) {
  const [home, ...folders] = process.argv.slice(2);
  const skills = floorList(home, folders);
  process.stdout.write(
    JSON.stringify(skills.map(([name, description]) => ({ name, description }))),
  );
}
