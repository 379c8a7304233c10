// `deno task --quiet demo` (the README's command): the main job on the bundled demo workspace (scripts/demo_workspace.ts: a copy
// of testdata/demo in a temporary folder, the project at `~/project`), so nothing ever touches your
// real home: HOME and DSH_HOME point into the copy. Then it runs `list --all` and `doctor` in the
// project as a user would.
// The CLI runs with `--quiet`, and the README runs this task as `deno task --quiet demo`, so Deno
// prints none of its per-package `Download`/`Initialize` lines. Instead, on the first run on this
// checkout, this script says in one line what is fetched (the task runner fetches the packages
// of deno.lock before the task starts; `deno run` of this script fetches only those the CLI
// imports), then leaves a marker in node_modules/ so that a warm run says nothing.
import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { demoWorkspace } from "./demo_workspace.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const MARKER = join(ROOT, "node_modules", ".dsh-skills-anywhere-demo");
const present = (path: string) => stat(path).then(() => true, () => false);
if (!(await present(MARKER))) {
  console.log(
    "First run: Deno fetches the CLI's npm packages once (about 30 MB, into node_modules/).\n",
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
  await mkdir(join(ROOT, "node_modules"), { recursive: true });
  await writeFile(
    MARKER,
    "The demo ran once on this checkout: it no longer says what it fetches.\n",
  );
} finally {
  await rm(work, { recursive: true, force: true });
}
