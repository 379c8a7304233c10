// `deno task demo`: the main job on the bundled demo workspace (scripts/demo_workspace.ts: a copy
// of testdata/demo in a temporary folder, the project at `~/project`), so nothing ever touches your
// real home: HOME and DSH_HOME point into the copy. Then it runs `list --all` and `doctor` in the
// project as a user would.
// The CLI runs with `--quiet`: on the first run Deno fetches only the npm packages the CLI imports
// (deno.json turns on lazy npm caching), and this script says so in one line instead of Deno's
// per-package progress.
import { rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { demoWorkspace } from "./demo_workspace.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const fetched = await stat(join(ROOT, "node_modules", "js-yaml")).then(() => true, () => false);
if (!fetched) {
  console.log(
    "First run: fetching the npm packages the CLI uses into node_modules/ (about 20 MB, once).\n",
  );
}
const { root: work, home, project } = await demoWorkspace();
try {
  // Deno keeps its cache under HOME unless told otherwise; keep using the real one.
  const info = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output();
  const denoDir = JSON.parse(new TextDecoder().decode(info.stdout)).denoDir;
  const env = {
    HOME: home,
    DSH_HOME: join(home, ".dsh"),
    DENO_DIR: denoDir,
    NO_COLOR: "1",
  };
  for (const args of [["list", "--all"], ["doctor"]]) {
    console.log(
      `$ dsh-skills-anywhere ${args.join(" ")}    (in the demo project, HOME = demo home)\n`,
    );
    const { code } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--quiet", join(ROOT, "main.ts"), ...args],
      cwd: project,
      env,
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    console.log(`\n(exit ${code})\n`);
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
