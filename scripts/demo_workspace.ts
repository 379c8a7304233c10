// The demo workspace, built the same way for `deno task demo` and for tests/readme_test.ts (which
// runs the README's commands in it): a copy of testdata/demo in a temporary folder, the home with
// the project inside it at `~/project` (a `.git` marker of its own: git cannot track one inside
// this repository), and the Claude Code plugin `discord@demo-market` recorded as installed and
// enabled, as Claude Code would write it (its install path must be absolute, so it is written
// here). Nothing outside the temporary folder is read or written.
import { cp, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const ROOT = new URL("..", import.meta.url).pathname;

/** Where a demo workspace lives: remove `root` when done. */
export interface DemoWorkspace {
  root: string;
  home: string;
  project: string;
}

/** Builds a fresh demo workspace in a temporary folder. */
export async function demoWorkspace(): Promise<DemoWorkspace> {
  const root = await mkdtemp(join(tmpdir(), "dsh-skills-anywhere-demo-"));
  const home = join(root, "home");
  const project = join(home, "project");
  await cp(join(ROOT, "testdata", "demo", "home"), home, { recursive: true });
  await cp(join(ROOT, "testdata", "demo", "project"), project, { recursive: true });
  await mkdir(join(project, ".git"));
  const plugins = join(home, ".claude", "plugins");
  const installed = {
    version: 2,
    plugins: {
      "discord@demo-market": [{
        scope: "user",
        installPath: join(plugins, "marketplaces", "demo-market", "plugins", "discord"),
        version: "1.0.0",
      }],
    },
  };
  await writeFile(join(plugins, "installed_plugins.json"), JSON.stringify(installed, null, 2));
  const settings = { enabledPlugins: { "discord@demo-market": true } };
  await writeFile(join(home, ".claude", "settings.json"), JSON.stringify(settings, null, 2));
  return { root, home, project };
}
