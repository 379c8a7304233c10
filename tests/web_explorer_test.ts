/// <reference lib="dom" />
// The browser page's catalog explorer and resource check in headless Chromium (playwright-core):
// the demo catalog the build records with the real CLI, every control, the URL fragment round
// trip, the guided scenarios, a real `list --json` of a generated home with its lock, hostile
// catalog files, the resource check on a chosen folder, and no request leaving the page.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { createHash } from "node:crypto";
import { join, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { VERSION } from "../lib/version.ts";
import { findBrowser } from "./browser.ts";
import { downloadText, LAUNCH_ARGS, servePage, text, upload } from "./web_page_helpers.ts";
import { withSession } from "./mcp_helpers.ts";
import { ROOT, run, runCli, runGit, withSandbox, withTempDir, writeTree } from "./helpers.ts";

/** The page, built into a folder of this test's own (web_test.ts builds web/dist meanwhile). */
const DIST = await Deno.makeTempDir({ prefix: "dsa-web-explorer-" });
/** The explorer's screenshot in docs/web.md: rewritten only when `UPDATE_SCREENSHOT=1`. */
const SCREENSHOT = join(ROOT, "docs", "web-explorer.png");
const UPDATE_SCREENSHOT = Deno.env.get("UPDATE_SCREENSHOT") === "1";

/** The names of the explorer's rows, in order, with their states. */
async function rows(page: Page): Promise<string[]> {
  return await page.locator("#skill-rows > li[data-name]").evaluateAll((items) =>
    items.map((item) =>
      `${(item as HTMLElement).dataset.name} ${(item as HTMLElement).dataset.state}`
    )
  );
}

function fragment(page: Page): string {
  return new URL(page.url()).hash;
}

function rowButton(page: Page, name: string, label: string) {
  return page.locator(`#skill-rows > li[data-name="${name}"] button`, {
    hasText: new RegExp(`^${label}$`),
  });
}

/** The fenced block of docs/install.md holding `needle`. */
async function installBlock(needle: string): Promise<string> {
  const doc = await Deno.readTextFile(join(ROOT, "docs", "install.md"));
  const block = [...doc.matchAll(/^```[a-z]*\n([\s\S]*?)^```$/gm)].map((m) => m[1])
    .find((b) => b.includes(needle));
  ok(block !== undefined, needle);
  return block;
}

const DEMO_DEFAULT = [
  "review-helper visible",
  "test-writer visible",
  "deploy-checklist disabled",
  "pdf-forms visible",
  "release-notes hidden-by-budget",
  "github-tools-configure hidden-by-budget",
  "ci-tools-configure hidden-by-budget",
];

Deno.test("browser page: the catalog explorer and the resource check, offline, in Chromium", async (t) => {
  const built = await run(Deno.execPath(), ["run", "-A", "web/build.ts", "--out", DIST]);
  equal(built.code, 0, built.stderr);
  const server = servePage(DIST);
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const requests: string[] = [];
  const fileRequests: string[] = [];
  const problems: string[] = [];
  let browser: Browser | undefined;
  const watch = (page: Page) => {
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console: ${message.text()}`);
    });
    return page;
  };
  try {
    const found = await findBrowser();
    browser = await chromium.launch({
      executablePath: found.executablePath,
      env: { ...Deno.env.toObject(), ...found.env },
      args: [...LAUNCH_ARGS],
    });
    const context: BrowserContext = await browser.newContext({
      acceptDownloads: true,
      viewport: { width: 1280, height: 900 },
    });
    context.on("request", (request) => requests.push(request.url()));
    const open = async (hash = "", init?: () => void): Promise<Page> => {
      const page = watch(await context.newPage());
      if (init !== undefined) await page.addInitScript(init);
      await page.goto(`${origin}/index.html${hash}`, { waitUntil: "domcontentloaded" });
      await page.waitForSelector("#skill-rows > li");
      return page;
    };
    const page = await open();

    await t.step("on open: the demo catalog recorded by list --json over nine files", async () => {
      deepEqual(await rows(page), DEMO_DEFAULT);
      equal(
        await text(page, "#explorer-counts"),
        "3 of 6 skills listed to a model; 1 author disabled",
      );
      equal(await page.inputValue("#budget"), "3");
      const diagnostics = await page.locator("#diagnostics > li").allTextContents();
      match(
        diagnostics[0],
        /^Duplicates: 1pdf-forms at ~\/\.codex\/skills\/pdf-forms\/SKILL\.md: same-content, kept ~\/\.claude\/skills\/pdf-forms\/SKILL\.md$/,
      );
      match(
        diagnostics[1],
        /^Skipped files: 1~\/\.claude\/skills\/broken-yaml\/SKILL\.md: yaml, invalid YAML frontmatter/,
      );
      equal(
        diagnostics[2],
        "Renamed: 2github-tools-configure (declares configure; third-party)ci-tools-configure (declares configure; third-party)",
      );
      match(
        diagnostics[3],
        /^Repaired: 1release-notes: line 3: value holding an unquoted ": " read as a quoted string$/,
      );
      equal(fragment(page), "");
      // Author-disabled: Pin, Hide and Inspect are disabled on its row.
      for (const label of ["Pin", "Hide", "Inspect"]) {
        equal(await rowButton(page, "deploy-checklist", label).isDisabled(), true, label);
        equal(await rowButton(page, "pdf-forms", label).isDisabled(), false, label);
      }
    });

    await t.step(
      "the recorded catalog is the CLI's list --json over the workspace it offers",
      async () => {
        const workspace = await downloadText(page, () => page.click("#download-workspace"));
        equal(workspace.name, "skills-anywhere-sample-workspace.json");
        const doc = JSON.parse(workspace.text);
        equal(doc.schema, "skills-anywhere-sample-workspace-1");
        equal(doc.version, VERSION);
        const markdown = Object.keys(doc.files).filter((path) => path.endsWith(".md"));
        equal(markdown.length, 9);
        // Laying the workspace out again and running the CLI there gives the same catalog.
        await withSandbox(async (box) => {
          for (const [path, content] of Object.entries(doc.files as Record<string, string>)) {
            const target = path.startsWith("project/")
              ? join(box.home, "project", path.slice("project/".length))
              : join(box.root, path);
            await writeTree(join(target, ".."), {
              [target.split(sep).pop()!]: content.replaceAll(
                "$PLUGINS",
                join(box.home, ".claude", "plugins"),
              ),
            });
          }
          await Deno.mkdir(join(box.home, "project", ".git"), { recursive: true });
          const cli = await runCli(["list", "--json", "--all"], {
            cwd: join(box.home, "project"),
            env: box.env,
            clearEnv: true,
          });
          equal(cli.code, 0, cli.stderr);
          deepEqual(JSON.parse(cli.stdout.replaceAll(box.home, "~")), doc.catalog);
        });
      },
    );

    await t.step(
      "manifest.json lists every page file with its digest, size and commit",
      async () => {
        const manifest = JSON.parse(await Deno.readTextFile(join(DIST, "manifest.json")));
        equal(manifest.version, VERSION);
        equal(manifest.source_commit, await runGit(ROOT, ["rev-parse", "HEAD"]));
        equal(typeof manifest.dirty, "boolean");
        const listed = manifest.files.map((f: { path: string }) => f.path);
        deepEqual(listed, [
          "examples/current.bundle.json",
          "examples/reviewed.bundle.json",
          "index.html",
          "page.css",
          "page.js",
        ]);
        for (const file of manifest.files) {
          const data = await Deno.readFile(join(DIST, file.path));
          equal(file.bytes, data.byteLength);
          equal(file.sha256, createHash("sha256").update(data).digest("hex"));
        }
      },
    );

    await t.step("budget slider: 0 lists every offered skill, 1 only the first", async () => {
      await page.fill("#budget", "0");
      equal(await text(page, "#budget-value"), "no limit");
      equal(
        await text(page, "#explorer-counts"),
        "6 of 6 skills listed to a model; 1 author disabled",
      );
      equal(fragment(page), "#budget=0");
      await page.focus("#budget");
      await page.keyboard.press("ArrowRight");
      equal(await text(page, "#budget-value"), "1");
      deepEqual((await rows(page)).filter((r) => r.endsWith(" visible")), [
        "review-helper visible",
      ]);
      await page.fill("#budget", "6");
      equal(
        await text(page, "#explorer-counts"),
        "6 of 6 skills listed to a model; 1 author disabled",
      );
      await page.fill("#budget", "3");
      equal(fragment(page), "");
    });

    await t.step(
      "search: the one ranker, budget-hidden included, author-disabled never",
      async () => {
        await page.fill("#search", "configure");
        deepEqual(await rows(page), [
          "ci-tools-configure hidden-by-budget",
          "github-tools-configure hidden-by-budget",
        ]);
        match(await text(page, "#skill-rows"), /score [\d.]+: configure in name, description/);
        equal(fragment(page), "#q=configure");
        await page.fill("#search", "deploy checklist");
        deepEqual(await rows(page), []);
        equal(await text(page, "#skill-rows"), "No skill matches the search.");
        await page.fill("#search", "release notes");
        deepEqual(await rows(page), ["release-notes hidden-by-budget"]);
        await page.fill("#search", "");
        deepEqual(await rows(page), DEMO_DEFAULT);
      },
    );

    await t.step("Pin, Hide and Inspect per row", async () => {
      await rowButton(page, "ci-tools-configure", "Pin").click();
      equal((await rows(page))[6], "ci-tools-configure pinned");
      equal(
        await rowButton(page, "ci-tools-configure", "Unpin").getAttribute("aria-pressed"),
        "true",
      );
      deepEqual((await rows(page)).filter((r) => / (visible|pinned)$/.test(r)), [
        "review-helper visible",
        "test-writer visible",
        "ci-tools-configure pinned",
      ]);
      await rowButton(page, "review-helper", "Hide").click();
      equal((await rows(page))[0], "review-helper hidden-by-you");
      equal(fragment(page), "#pin=ci-tools-configure&hide=review-helper");
      // Hidden skills are still found by the search.
      await page.fill("#search", "review");
      deepEqual(await rows(page), ["review-helper hidden-by-you"]);
      await page.fill("#search", "");
      await rowButton(page, "github-tools-configure", "Inspect").click();
      equal(await page.locator("#inspect").isVisible(), true);
      const inspected = await text(page, "#inspect");
      for (
        const expected of [
          "Inspect github-tools-configure",
          "renamed fromconfigure (third-party)",
          "fromclaude plugin github-tools@team-tools",
          'warningname "configure" collides with another skill; published as "github-tools-configure"',
          "path~/.claude/plugins/cache/team-tools/github-tools/1.2.0/skills/configure/SKILL.md",
        ]
      ) ok(inspected.includes(expected), `missing ${expected} in ${inspected}`);
      match(fragment(page), /&skill=github-tools-configure$/);
      await rowButton(page, "github-tools-configure", "Inspect").click();
      equal(await page.locator("#inspect").isVisible(), false);
      await rowButton(page, "ci-tools-configure", "Unpin").click();
      await rowButton(page, "review-helper", "Unhide").click();
      deepEqual(await rows(page), DEMO_DEFAULT);
      equal(fragment(page), "");
    });

    await t.step("guided scenarios: default, collision, budget", async () => {
      await page.click("[data-scenario=collision]");
      equal(fragment(page), "#q=configure&skill=github-tools-configure");
      deepEqual(await rows(page), [
        "ci-tools-configure hidden-by-budget",
        "github-tools-configure hidden-by-budget",
      ]);
      match(await text(page, "#scenario-note"), /Two plugins both ship a skill named configure/);
      equal(await page.locator("#inspect").isVisible(), true);
      await page.click("[data-scenario=budget]");
      equal(fragment(page), "#budget=2&pin=release-notes&hide=review-helper");
      deepEqual(await rows(page), [
        "review-helper hidden-by-you",
        "test-writer visible",
        "deploy-checklist disabled",
        "pdf-forms hidden-by-budget",
        "release-notes pinned",
        "github-tools-configure hidden-by-budget",
        "ci-tools-configure hidden-by-budget",
      ]);
      await page.click("[data-scenario=default]");
      equal(fragment(page), "");
      deepEqual(await rows(page), DEMO_DEFAULT);
      equal(await page.locator("#inspect").isVisible(), false);
    });

    await t.step("the URL fragment round trip; invalid values are ignored", async () => {
      const hash = "#budget=2&q=pdf&pin=release-notes&hide=test-writer&skill=pdf-forms";
      const shared = await open(hash);
      equal(await shared.inputValue("#budget"), "2");
      equal(await shared.inputValue("#search"), "pdf");
      deepEqual(await rows(shared), ["pdf-forms hidden-by-budget"]);
      match(await text(shared, "#inspect"), /Inspect pdf-forms/);
      equal(await shared.inputValue("#share-link"), `${origin}/index.html${hash}`);
      // The copied link opens the same view.
      const again = await open(new URL(await shared.inputValue("#share-link")).hash);
      deepEqual(await rows(again), await rows(shared));
      await again.close();
      // Each invalid value is dropped, the valid ones kept.
      await shared.goto(
        `${origin}/index.html#budget=9&q=forms&pin=deploy-checklist,nope,pdf-forms&hide=pdf-forms,%00&skill=nope`,
      );
      await shared.waitForSelector("#skill-rows > li");
      equal(await shared.inputValue("#budget"), "3");
      deepEqual(await rows(shared), ["pdf-forms pinned"]);
      equal(await shared.locator("#inspect").isVisible(), false);
      for (const bad of ["#budget=-1", "#budget=1.5", "#budget=", "#skill=%E0%A4%A", "#q=%01x"]) {
        await shared.goto(`${origin}/index.html${bad}`);
        await shared.waitForSelector("#skill-rows > li");
        deepEqual(await rows(shared), DEMO_DEFAULT, bad);
      }
      // A fragment edited by hand while the page is open is applied too.
      await shared.evaluate(() => (location.hash = "#budget=1"));
      await shared.waitForFunction(() =>
        document.getElementById("budget-value")?.textContent === "1"
      );
      await shared.close();
    });

    await t.step("copy link: the clipboard, else the link selected for the reader", async () => {
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
      await page.click("[data-scenario=budget]");
      await page.click("#copy-link");
      await page.waitForFunction(() => document.getElementById("copy-status")?.textContent !== "");
      equal(await text(page, "#copy-status"), "Link copied.");
      equal(
        await page.evaluate(() => navigator.clipboard.readText()),
        `${origin}/index.html#budget=2&pin=release-notes&hide=review-helper`,
      );
      const noClipboard = await open("#q=pdf", () => {
        Object.defineProperty(Navigator.prototype, "clipboard", { get: () => undefined });
      });
      await noClipboard.click("#copy-link");
      match(await text(noClipboard, "#copy-status"), /the link is selected, press Ctrl\+C/);
      equal(
        await noClipboard.evaluate(() =>
          getSelection()?.toString() || (document.activeElement as HTMLInputElement).value.slice(
            (document.activeElement as HTMLInputElement).selectionStart ?? 0,
            (document.activeElement as HTMLInputElement).selectionEnd ?? 0,
          )
        ),
        `${origin}/index.html#q=pdf`,
      );
      await noClipboard.close();
      await page.click("[data-scenario=default]");
    });

    await t.step(
      "install tabs: the exact commands of docs/install.md, by mouse and arrow keys",
      async () => {
        const panels = {
          cli: await installBlock("npm install -g dsh-skills-anywhere@"),
          dsh: await installBlock("dsh plugin --profile web add dsh-skills-anywhere"),
          mcp: await installBlock('"mcpServers"'),
        };
        const shown = async () =>
          await page.locator('[role="tabpanel"]:not([hidden])').evaluateAll((els) =>
            els.map((e) => [e.id, e.textContent])
          );
        deepEqual(await shown(), [["install-panel-cli", panels.cli]]);
        await page.click("#install-tab-mcp");
        deepEqual(await shown(), [["install-panel-mcp", panels.mcp]]);
        await page.focus("#install-tab-mcp");
        await page.keyboard.press("ArrowLeft");
        deepEqual(await shown(), [["install-panel-dsh", panels.dsh]]);
        equal(await page.evaluate(() => document.activeElement?.id), "install-tab-dsh");
        equal(await page.getAttribute("#install-tab-dsh", "aria-selected"), "true");
        await page.keyboard.press("ArrowRight");
        await page.keyboard.press("ArrowRight");
        deepEqual(await shown(), [["install-panel-cli", panels.cli]]);
      },
    );

    await t.step(
      "open your own catalog: a real list --json of a generated home, and its lock",
      async () => {
        await withSandbox(async (box) => {
          const skill = (name: string, description: string, extra = "") =>
            `---\nname: ${name}\ndescription: ${description}\n${extra}---\n# ${name}\n\nSteps.\n`;
          await writeTree(box.project, {
            ".claude/skills/lint-fixer/SKILL.md": skill(
              "lint-fixer",
              "Fix lint errors in changed files.",
            ),
            ".claude/skills/api-docs/SKILL.md": skill(
              "api-docs",
              "Write API reference docs from the code.",
            ),
            ".claude/skills/ship-it/SKILL.md": skill(
              "ship-it",
              "Ship the release.",
              "disable-model-invocation: true\n",
            ),
          });
          await writeTree(box.home, {
            ".claude/skills/sql-helper/SKILL.md": skill(
              "sql-helper",
              "Write and explain SQL queries.",
            ),
          });
          const locked = await box.cli("lock");
          equal(locked.code, 0, locked.stderr);
          // After the lock, one skill moves to another folder: the lock no longer holds it there.
          await Deno.rename(
            join(box.project, ".claude", "skills", "api-docs"),
            join(box.project, ".claude", "skills", "api-reference"),
          );
          const listed = await box.cli("list", "--json", "--all");
          equal(listed.code, 0, listed.stderr);
          const cliNames = JSON.parse(listed.stdout).skills.map((s: { name: string }) => s.name);
          const before = page.url();
          await page.setInputFiles("#catalog-file", upload("team.json", listed.stdout));
          await page.waitForFunction(() =>
            document.getElementById("catalog-status")?.dataset.state === "ready"
          );
          match(
            await text(page, "#catalog-status"),
            /^team\.json: 4 skills, kept in this page only/,
          );
          deepEqual((await rows(page)).map((r) => r.split(" ")[0]), cliNames);
          equal(
            await text(page, "#explorer-counts"),
            "3 of 3 skills listed to a model; 1 author disabled",
          );
          equal(await page.isDisabled("[data-scenario=collision]"), true);
          equal(await page.isDisabled("#copy-link"), true);
          // The page ranks as the MCP server's find_skills does, over the same skills a model
          // may be offered (no body holds these terms, and an export carries none).
          let served: string[] = [];
          await withSession(box, "auto", async (session) => {
            const found = await session.call("find_skills", { query: "write queries" });
            served = (found.structuredContent as { matches: Array<{ name: string }> }).matches
              .map((m) => m.name);
          });
          await page.fill("#search", "write queries");
          deepEqual((await rows(page)).map((r) => r.split(" ")[0]), served);
          deepEqual(served, ["sql-helper", "api-docs"]);
          await page.fill("#search", "sql");
          deepEqual(await rows(page), ["sql-helper visible"]);
          await rowButton(page, "sql-helper", "Hide").click();
          equal(
            page.url(),
            before.replace(/#.*$/, ""),
            "a catalog of your own is never put in the address",
          );
          await page.fill("#search", "");
          const lockFile = join(box.project, "skills-anywhere.lock.json");
          await page.setInputFiles("#lock-file", lockFile);
          await page.waitForFunction(() =>
            /locked skill/.test(document.getElementById("catalog-status")?.textContent ?? "")
          );
          const lockLine = (await page.locator("#diagnostics > li").allTextContents()).find((l) =>
            l.startsWith("Lock:")
          );
          equal(
            lockLine,
            "Lock: 2 locked, 1 changed, 1 not locked, 0 locked but not found" +
              "api-docs: changed: locked at api-docs/SKILL.md, now elsewhere" +
              "sql-helper: not locked",
          );
          match(
            await text(page, '#skill-rows > li[data-name="api-docs"]'),
            /\(changed: locked at api-docs\/SKILL\.md, now elsewhere\)/,
          );
          match(await text(page, '#skill-rows > li[data-name="lint-fixer"]'), /\(locked\)/);
          // A lock that is not one is refused with the CLI's reason; the comparison shown stays.
          await page.setInputFiles("#lock-file", upload("bad-lock.json", '{"schema": "nope"}'));
          await page.waitForFunction(() =>
            document.getElementById("catalog-status")?.dataset.state === "error"
          );
          match(await text(page, "#catalog-status"), /^Refused bad-lock\.json: \S/);
          match(await text(page, '#skill-rows > li[data-name="lint-fixer"]'), /\(locked\)/);
          // Choosing the catalog again keeps the lock and compares it with the new export.
          await page.setInputFiles("#catalog-file", upload("team.json", listed.stdout));
          await page.waitForFunction(() =>
            document.getElementById("catalog-status")?.dataset.state === "ready"
          );
          match(await text(page, '#skill-rows > li[data-name="lint-fixer"]'), /\(locked\)/);
          // A change of content at the same place: an export cannot show it, verify --json can.
          await Deno.writeTextFile(
            join(box.project, ".claude", "skills", "lint-fixer", "SKILL.md"),
            skill("lint-fixer", "Fix lint errors in changed files.") + "\nAlso push to main.\n",
          );
          const verified = await box.cli("verify", "--json");
          equal(verified.code, 1, verified.stderr);
          await page.setInputFiles("#verify-file", upload("verify.json", verified.stdout));
          await page.waitForFunction(() =>
            /laid over the lock/.test(document.getElementById("catalog-status")?.textContent ?? "")
          );
          match(
            await text(page, '#skill-rows > li[data-name="lint-fixer"]'),
            /\(changed since it was locked: SKILL\.md\)/,
          );
          const withReport = (await page.locator("#diagnostics > li").allTextContents()).find((
            l,
          ) => l.startsWith("Lock:"));
          ok(withReport?.startsWith("Lock: 1 locked, 2 changed, 1 not locked"), withReport);
          // A report that is not verify's is refused; the rows keep what they showed.
          for (
            const [name, body] of [
              ["lock-as-report.json", await Deno.readTextFile(lockFile)],
              [
                "bad-entry.json",
                '{"schema":"skills-anywhere-verify-1","changed":[{"name":1}],"unverifiable":[]}',
              ],
              ["not-json.json", "\u0000{"],
            ]
          ) {
            await page.setInputFiles("#verify-file", upload(name, body));
            await page.waitForFunction(() =>
              document.getElementById("catalog-status")?.dataset.state === "error"
            );
            match(
              await text(page, "#catalog-status"),
              new RegExp(`^Refused ${name.replace(".", "\\.")}: `),
            );
            match(
              await text(page, '#skill-rows > li[data-name="lint-fixer"]'),
              /\(changed since it was locked: SKILL\.md\)/,
            );
            // The next choice must be told apart from this refusal.
            await page.evaluate(() => {
              const status = document.getElementById("catalog-status");
              if (status) status.dataset.state = "";
            });
          }
        });
      },
    );

    await t.step(
      "hostile catalog files are refused with a reason; the catalog shown stays",
      async () => {
        const shownBefore = await rows(page);
        const named = (name: string) =>
          JSON.stringify({
            skills: [{
              name,
              description: "x",
              source: "anywhere-user",
              rank: 1,
              path: "/p/SKILL.md",
              origin: { kind: "agent", agent: "claude-code", scope: "user" },
              model_invocable: true,
              renamed_from: null,
              renamed_because: null,
              repaired: false,
              warnings: [],
            }],
            invalid: [],
            complete: true,
          });
        const cases: Array<[string | Uint8Array, string]> = [
          [" ".repeat(16 * 1024 * 1024 + 1), "The catalog exceeds 16 MiB."],
          [new Uint8Array([0x7b, 0xff, 0x7d]), "The catalog is not valid UTF-8."],
          ["{ skills: ", "The catalog is not valid JSON."],
          [
            '{"schema": "skills-anywhere-bundle-1"}',
            "Expected the output of list --json (skills is not a list).",
          ],
          [
            '{"skills": [{"name": 1}]}',
            "Expected the output of list --json (skills[0].name is not a string).",
          ],
          [
            named("evil\u001b[2Jname"),
            "A name or a path holds a control character (skills[0].name).",
          ],
          [named("a\u0085b"), "A name or a path holds a control character (skills[0].name)."],
          [
            JSON.stringify({
              skills: [JSON.parse(named("a")).skills[0], JSON.parse(named("a")).skills[0]],
            }),
            "The catalog lists one name twice.",
          ],
        ];
        for (const [content, message] of cases) {
          await page.setInputFiles("#catalog-file", upload("bad.json", content));
          await page.waitForFunction(() =>
            document.getElementById("catalog-status")?.dataset.state === "error"
          );
          equal(await text(page, "#catalog-status"), `Refused bad.json: ${message}`);
          deepEqual(await rows(page), shownBefore);
          await page.evaluate(() =>
            delete document.getElementById("catalog-status")!.dataset.state
          );
        }
        // A large catalog: the first 200 rows are drawn, the search reaches every skill.
        const many = JSON.parse(named("s-0"));
        many.skills = Array.from(
          { length: 2500 },
          (_, i) => ({ ...many.skills[0], name: `s-${i}` }),
        );
        await page.setInputFiles("#catalog-file", upload("many.json", JSON.stringify(many)));
        await page.waitForFunction(() =>
          document.getElementById("catalog-status")?.dataset.state === "ready"
        );
        equal(await page.locator("#skill-rows > li[data-name]").count(), 200);
        equal(
          await text(page, "#rows-cut"),
          "Showing the first 200 of 2,500: search to narrow them down.",
        );
        await page.fill("#search", "s-2499");
        deepEqual(await rows(page), ["s-2499 hidden-by-budget"]);
        await rowButton(page, "s-2499", "Inspect").click();
        equal(
          await page.locator('#skill-rows > li[data-name="s-2499"] #inspect').isVisible(),
          true,
        );
        await page.fill("#search", "");
        await page.click("#show-demo");
        const shownBefore2 = await rows(page);
        deepEqual(shownBefore2, DEMO_DEFAULT);
        // Markup in a name or a description is text, and reordering characters are shown escaped.
        const markup = JSON.parse(named(`<img src="${origin}/x.png">`));
        markup.skills[0].description = "Looks safe\u202e; it is not <b>bold</b>";
        await page.setInputFiles("#catalog-file", upload("markup.json", JSON.stringify(markup)));
        await page.waitForFunction(() =>
          document.getElementById("catalog-status")?.dataset.state === "ready"
        );
        equal(await page.locator("#skill-rows img, #skill-rows b").count(), 0);
        match(await text(page, "#skill-rows"), /<img src="[^"]+\/x\.png">/);
        match(await text(page, "#skill-rows"), /Looks safe\\u202e; it is not <b>bold<\/b>/);
        await page.click("#show-demo");
        // A file name with control characters is shown revealed, never raw.
        await page.setInputFiles("#catalog-file", upload("a\u202eb.json", "[]"));
        await page.waitForFunction(() =>
          document.getElementById("catalog-status")?.dataset.state === "error"
        );
        match(await text(page, "#catalog-status"), /^Refused a\\u202eb\.json: /);
        await page.click("#show-demo");
        deepEqual(await rows(page), DEMO_DEFAULT);
        equal(await page.isDisabled("#copy-link"), false);
      },
    );

    await t.step(
      "resource check: a chosen folder, the CLI's check --resources verdicts",
      async () => {
        await withTempDir(async (dir) => {
          const folder = join(dir, "form-filler");
          await writeTree(folder, {
            "SKILL.md": "---\nname: form-filler\ndescription: Fill forms.\n---\n# Form filler\n\n" +
              "1. Read [the field guide](Reference/fields.md).\n" +
              "2. Run `python3 scripts/fill.py` on the form.\n" +
              "3. Compare with [the example](examples/filled.pdf) and [the template](templates/).\n" +
              "4. See [the missing notes](notes.md) and [outside](../other/SKILL.md).\n",
            "reference/fields.md": "# Fields\n",
            "scripts/fill.py": "print('fill')\n",
            "templates/form.txt": "form\n",
            "nested/SKILL.md": "---\nname: nested\ndescription: Nested.\n---\nSee [it](IT.md).\n",
            "nested/it.md": "it\n",
          });
          const cli = await runCli([
            "check",
            "--fail-on-resource-issues",
            "--json",
            join(folder, "SKILL.md"),
            join(folder, "nested", "SKILL.md"),
          ]);
          equal(cli.code, 1, cli.stderr);
          const expected = JSON.parse(cli.stdout).files.map((f: { resources: unknown }) =>
            f.resources
          );
          await page.setInputFiles("#resource-folder", folder);
          await page.waitForFunction(() =>
            ["ready", "error"].includes(
              document.getElementById("resource-status")?.dataset.state ?? "",
            )
          );
          equal(
            await text(page, "#resource-status"),
            "2 SKILL.mds checked against 6 files: 5 issues.",
          );
          deepEqual(await page.locator("#resource-results > li").allTextContents(), [
            "form-filler/SKILL.md" + "Local resources: 1/5 present" +
            'Resource wrong-case, line 7: "Reference/fields.md" — differs in letter case from the name on disk, so it breaks on case-sensitive file systems; the folder has reference/fields.md' +
            'Resource missing, line 9: "examples/filled.pdf" — no such file or directory in the skill' +
            'Resource missing, line 10: "notes.md" — no such file or directory in the skill' +
            'Resource outside, line 10: "../other/SKILL.md" — points outside the skill directory',
            "form-filler/nested/SKILL.md" + "Local resources: 0/1 present" +
            'Resource wrong-case, line 5: "IT.md" — differs in letter case from the name on disk, so it breaks on case-sensitive file systems; the folder has it.md',
          ]);
          const report = await downloadText(page, () => page.click("#download-resources"));
          equal(report.name, "resource-check.json");
          const files = JSON.parse(report.text).files;
          deepEqual(files.map((f: { path: string }) => f.path), [
            "form-filler/SKILL.md",
            "form-filler/nested/SKILL.md",
          ]);
          // The page's reports are the CLI's, but for how presence was checked.
          deepEqual(
            files.map((f: { resources: object }) => ({ ...f.resources, method: "filesystem" })),
            expected,
          );
          // More than 10,000 files is refused before anything is read.
          const many = join(dir, "many");
          const tree: Record<string, string> = {
            "SKILL.md": "---\nname: many\ndescription: M.\n---\n",
          };
          for (let i = 0; i < 10_000; i++) tree[`f/${i}.txt`] = "";
          await writeTree(many, tree);
          await page.setInputFiles("#resource-folder", many);
          await page.waitForFunction(() =>
            document.getElementById("resource-status")?.dataset.state === "error"
          );
          match(
            await text(page, "#resource-status"),
            /^Refused: the folder has 10,001 files, more than 10,000/,
          );
          equal(await page.locator("#resource-results > li").count(), 0);
          equal(await page.isDisabled("#download-resources"), true);
        });
      },
    );

    await t.step("screenshot of the explorer; nothing overflows at 375 px", async () => {
      const shot = await open("#budget=2&pin=release-notes&hide=review-helper&skill=release-notes");
      const scratch = UPDATE_SCREENSHOT ? undefined : await Deno.makeTempDir();
      const path = scratch === undefined ? SCREENSHOT : join(scratch, "web-explorer.png");
      await shot.locator("#explorer").screenshot({ path });
      const { size } = await Deno.stat(path);
      ok(size < 400_000, `the screenshot is ${size} bytes`);
      if (scratch !== undefined) await Deno.remove(scratch, { recursive: true });
      await shot.setViewportSize({ width: 375, height: 800 });
      const widths = await shot.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        inner: globalThis.innerWidth,
      }));
      ok(widths.scroll <= widths.inner, JSON.stringify(widths));
      await shot.close();
    });

    await t.step("opened from file:// the explorer works too", async () => {
      const local = await browser!.newContext();
      try {
        local.on("request", (request) => fileRequests.push(request.url()));
        const filePage = watch(await local.newPage());
        await filePage.goto(pathToFileURL(join(DIST, "index.html")).href + "#q=configure");
        await filePage.waitForSelector("#skill-rows > li");
        deepEqual(await rows(filePage), [
          "ci-tools-configure hidden-by-budget",
          "github-tools-configure hidden-by-budget",
        ]);
        await filePage.fill("#budget", "0");
        equal(new URL(filePage.url()).hash, "#budget=0&q=configure");
      } finally {
        await local.close();
      }
    });

    await t.step("no request left the page's origin; no page or console error", async () => {
      ok(requests.length > 0);
      deepEqual(
        requests.filter((url) =>
          !url.startsWith(`${origin}/`) && !url.startsWith("blob:") && !url.startsWith("data:")
        ),
        [],
      );
      // Only the page's own files were fetched (no markup from a catalog ever loaded an image).
      deepEqual(
        [
          ...new Set(
            requests.filter((url) => url.startsWith(`${origin}/`)).map((url) =>
              new URL(url).pathname
            ),
          ),
        ]
          .filter((path) => !["/index.html", "/page.js", "/page.css"].includes(path)),
        [],
      );
      const dist = pathToFileURL(DIST).href + "/";
      deepEqual(
        fileRequests.filter((url) =>
          !url.startsWith(dist) && !url.startsWith("blob:") && !url.startsWith("data:")
        ),
        [],
      );
      deepEqual(problems, []);
      deepEqual(
        await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie]),
        [0, 0, ""],
      );
    });
  } finally {
    await browser?.close();
    await server.shutdown();
    await Deno.remove(DIST, { recursive: true });
  }
});
