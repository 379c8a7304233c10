/// <reference lib="dom" />
// The browser page (manifest comparison, skill check, racing selections) in headless Chromium driven
// by playwright-core. The page is built by web/build.ts, served from web/dist by a loopback-only
// static server, and also opened from file://. Every request the pages make is recorded, and so is
// every uncaught page error and console error (a Content-Security-Policy violation is one).
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { buildManifest, BUNDLE_LIMITS, type BundleManifest } from "../lib/bundle/_manifest.ts";
import { findBrowser } from "./browser.ts";
import { downloadText, LAUNCH_ARGS, servePage, text, upload } from "./web_page_helpers.ts";
import { ROOT, run, runCli, withTempDir } from "./helpers.ts";

const DIST = join(ROOT, "web", "dist");
/**
 * The page's screenshot in docs/web.md: rewritten only when `UPDATE_SCREENSHOT=1` (`deno task
 * screenshot`); a plain test run writes it into a temporary folder, so it changes no tracked file.
 */
const SCREENSHOT = join(ROOT, "docs", "web-page.png");
const UPDATE_SCREENSHOT = Deno.env.get("UPDATE_SCREENSHOT") === "1";
const SOURCES_FIXTURE = "testdata/check/sources/SKILL.md";
const NO_FRONTMATTER_FIXTURE = "testdata/check/no-frontmatter/SKILL.md";

async function buildPage(): Promise<void> {
  const { code, stderr } = await run(Deno.execPath(), ["run", "-A", "web/build.ts"]);
  equal(code, 0, stderr);
}

function pretty(value: unknown): string {
  return JSON.stringify(value, null, 2) + "\n";
}

async function sideState(page: Page, side: "reviewed" | "current"): Promise<string | undefined> {
  return await page.locator(`#${side}-side`).getAttribute("data-state") ?? undefined;
}

/** Waits until neither side is loading. */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      Array.from(document.querySelectorAll<HTMLElement>(".side")).every((side) =>
        side.dataset.state !== "loading"
      ),
    undefined,
    { timeout: 10_000 },
  );
}

async function exampleShown(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getElementById("verdict")?.textContent !== "");
}

/** Chooses files on both sides and waits for both to settle. */
async function choose(
  page: Page,
  reviewed: ReturnType<typeof upload> | string,
  current: ReturnType<typeof upload> | string,
): Promise<void> {
  await page.setInputFiles("#reviewed-file", reviewed);
  await page.setInputFiles("#current-file", current);
  await settled(page);
}

/** Checks one SKILL.md in the page (with the folder name typed) and downloads its report. */
async function checkInPage(page: Page, file: string, folder: string) {
  await page.fill("#skill-folder", folder);
  await page.setInputFiles("#skill-file", file);
  await page.waitForSelector("#check-result[data-state=ready]");
  const report = await downloadText(page, () => page.click("#download-report"));
  equal(report.name, "skill-check.json");
  return JSON.parse(report.text);
}

/** A valid manifest of 512 files with long paths: more than 300 KB of JSON, under 1 MiB. */
async function largeManifest(): Promise<string> {
  const rows = [{ path: "SKILL.md", bytes: 10, sha256: "a".repeat(64) }];
  for (let i = 1; i < BUNDLE_LIMITS.maxFiles; i++) {
    const path = `assets/${String(i).padStart(4, "0")}-${"x".repeat(900)}.bin`;
    rows.push({ path, bytes: i, sha256: i.toString(16).padStart(64, "0") });
  }
  const json = pretty(await buildManifest(rows));
  ok(json.length > 300_000 && json.length < BUNDLE_LIMITS.maxManifestBytes);
  return json;
}

Deno.test("browser page: compare manifests and check a SKILL.md, offline, in Chromium", async (t) => {
  await buildPage();
  const reviewedText = await Deno.readTextFile(join(DIST, "examples", "reviewed.bundle.json"));
  const currentText = await Deno.readTextFile(join(DIST, "examples", "current.bundle.json"));
  const reviewed = JSON.parse(reviewedText) as BundleManifest;
  const current = JSON.parse(currentText) as BundleManifest;
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
    const env = { ...Deno.env.toObject(), ...found.env };
    browser = await chromium.launch({
      executablePath: found.executablePath,
      env,
      args: [...LAUNCH_ARGS],
    });
    const context: BrowserContext = await browser.newContext({
      acceptDownloads: true,
      viewport: { width: 1280, height: 900 },
    });
    context.on("request", (request) => requests.push(request.url()));
    const open = async (init?: () => void): Promise<Page> => {
      const page = watch(await context.newPage());
      if (init !== undefined) await page.addInitScript(init);
      await page.goto(`${origin}/index.html`, { waitUntil: "domcontentloaded" });
      return page;
    };

    const page = await open();
    await exampleShown(page);

    await t.step(
      "on open: the example pair reads REVIEW REQUIRED naming scripts/review.py",
      async () => {
        equal(await text(page, "#verdict"), "REVIEW REQUIRED");
        equal((await text(page, "#paths")).trim(), "CHANGED scripts/review.py");
        equal(await text(page, "#skill-md-change"), "SKILL.md unchanged");
        match(await text(page, "#counts"), /^1 changed, 0 added, 0 removed/);
        match(await text(page, "#reviewed-status"), new RegExp(reviewed.sha256));
        match(await text(page, "#current-status"), new RegExp(current.sha256));
        deepEqual(JSON.parse(await text(page, "#open-skill-args")), {
          name: "review-helper",
          expected_bundle_sha256: reviewed.sha256,
        });
      },
    );

    await t.step("the example manifests download unchanged, by mouse and by keyboard", async () => {
      const byMouse = await downloadText(page, () => page.click("#download-reviewed"));
      deepEqual(byMouse, { name: "reviewed.bundle.json", text: reviewedText });
      await page.focus("#download-current");
      const byKeyboard = await downloadText(page, () => page.keyboard.press("Enter"));
      deepEqual(byKeyboard, { name: "current.bundle.json", text: currentText });
    });

    await t.step(
      "accessible: labelled inputs, reviewed then current first, visible focus",
      async () => {
        const inputs = await page.evaluate(() =>
          Array.from(document.querySelectorAll("input")).map((input) => ({
            id: input.id,
            type: input.type,
            labelled: (input.labels?.length ?? 0) > 0,
          }))
        );
        deepEqual(
          inputs.filter((input) => input.type === "file").map((input) => input.id),
          // Issue 32 added the explorer's catalog, lock and verify report, and the resource
          // check's folder.
          [
            "reviewed-file",
            "current-file",
            "skill-file",
            "catalog-file",
            "lock-file",
            "verify-file",
            "resource-folder",
          ],
        );
        ok(inputs.every((input) => input.labelled), JSON.stringify(inputs));
        const focused = () =>
          page.evaluate(() => {
            const active = document.activeElement as HTMLElement;
            return {
              id: active.id || active.className,
              outline: getComputedStyle(active).outlineStyle,
              visible: active.getBoundingClientRect().left >= 0,
            };
          });
        await page.focus(".skip"); // the first stop in keyboard order: a skip link, shown on focus
        await page.keyboard.press("Tab");
        deepEqual(await focused(), { id: "reviewed-file", outline: "solid", visible: true });
        await page.keyboard.press("Tab");
        deepEqual(await focused(), { id: "current-file", outline: "solid", visible: true });
        await page.focus(".skip");
        deepEqual(await focused(), { id: "skip", outline: "solid", visible: true });
      },
    );

    await t.step(
      "two identical uploads: MATCH, and the inputs are cleared for re-selection",
      async () => {
        await choose(page, upload("one.json", currentText), upload("two.json", currentText));
        equal(await text(page, "#verdict"), "MATCH");
        match(await text(page, "#counts"), /^0 changed, 0 added, 0 removed/);
        equal(await page.locator("#paths").isVisible(), false);
        deepEqual(
          await page.evaluate(
            () => [
              document.querySelector<HTMLInputElement>("#reviewed-file")!.value,
              document
                .querySelector<HTMLInputElement>("#current-file")!.value,
            ],
          ),
          ["", ""],
        );
      },
    );

    await t.step(
      "a changed upload: REVIEW REQUIRED naming each changed, added, removed file",
      async () => {
        await choose(
          page,
          join(DIST, "examples", "reviewed.bundle.json"),
          join(DIST, "examples", "current.bundle.json"),
        );
        equal(await text(page, "#verdict"), "REVIEW REQUIRED");
        equal((await text(page, "#paths")).trim(), "CHANGED scripts/review.py");
        const row = (path: string, sha: string, bytes = 3) => ({
          path,
          bytes,
          sha256: sha.repeat(64),
        });
        const before = await buildManifest([row("SKILL.md", "1"), row("docs/old.md", "2")]);
        const after = await buildManifest([row("SKILL.md", "3"), row("docs/new.md", "2")]);
        await choose(
          page,
          upload("before.json", pretty(before)),
          upload("after.json", pretty(after)),
        );
        equal(await text(page, "#verdict"), "REVIEW REQUIRED");
        equal(await text(page, "#skill-md-change"), "SKILL.md changed");
        match(await text(page, "#counts"), /^1 changed, 1 added, 1 removed/);
        deepEqual(
          await page.locator("#paths li").allTextContents(),
          ["CHANGED SKILL.md", "ADDED docs/new.md", "REMOVED docs/old.md"],
        );
        equal(
          JSON.parse(await text(page, "#open-skill-args")).expected_bundle_sha256,
          before.sha256,
        );
      },
    );

    await t.step("invalid input clears that side's verdict and says why", async () => {
      const cases: Array<[string | Uint8Array, string]> = [
        ["{ not json", "Manifest is not valid JSON."],
        [new Uint8Array([0x7b, 0xff, 0x7d]), "Manifest is not valid UTF-8."],
        ['{"schema":"skills-anywhere-bundle-1"}', "Expected a skills-anywhere-bundle-1 manifest."],
      ];
      for (const [content, message] of cases) {
        await choose(page, upload("r.json", reviewedText), upload("r.json", reviewedText));
        equal(await text(page, "#verdict"), "MATCH");
        await page.setInputFiles("#current-file", upload("bad.json", content));
        await settled(page);
        equal(await sideState(page, "current"), "error");
        equal(await sideState(page, "reviewed"), "ready");
        match(await text(page, "#current-status"), new RegExp(`^Refused bad\\.json: ${message}`));
        equal(await text(page, "#verdict"), "");
        equal(await page.locator("#verdict").isVisible(), false);
        equal(await page.locator("#details").isVisible(), false);
        equal(
          await text(page, "#verdict-note"),
          `No verdict: the current manifest was refused. ${message}`,
        );
      }
    });

    await t.step(
      "a tampered manifest is refused (row hash or total edited, digest kept)",
      async () => {
        const edits: Array<(m: BundleManifest) => void> = [
          (m) => (m.files[2].sha256 = "0".repeat(64)),
          (m) => (m.total_bytes += 1),
          (m) => (m.files[1].bytes += 1),
        ];
        for (const edit of edits) {
          const tampered = JSON.parse(currentText) as BundleManifest;
          edit(tampered);
          await choose(
            page,
            upload("r.json", reviewedText),
            upload("tampered.json", pretty(tampered)),
          );
          equal(await sideState(page, "current"), "error");
          match(
            await text(page, "#current-status"),
            /Manifest digest or total bytes disagrees with its inventory\./,
          );
          equal(await text(page, "#verdict"), "");
        }
      },
    );

    await t.step("over 1 MiB is refused; exactly 1 MiB is read", async () => {
      const limit = BUNDLE_LIMITS.maxManifestBytes;
      const padded = (size: number) => reviewedText + " ".repeat(size - reviewedText.length);
      await choose(page, upload("r.json", reviewedText), upload("big.json", padded(limit + 1)));
      equal(await sideState(page, "current"), "error");
      match(await text(page, "#current-status"), /Manifest exceeds 1 MiB\./);
      equal(await text(page, "#verdict"), "");
      await page.setInputFiles("#current-file", upload("limit.json", padded(limit)));
      await settled(page);
      equal(await text(page, "#verdict"), "MATCH");
    });

    await t.step("the same file can be chosen again after an error", async () => {
      await withTempDir(async (dir) => {
        const file = join(dir, "current.bundle.json");
        await Deno.writeTextFile(file, currentText.slice(0, 40));
        await page.setInputFiles("#current-file", file);
        await settled(page);
        equal(await sideState(page, "current"), "error");
        equal(await page.locator("#current-file").inputValue(), "");
        await Deno.writeTextFile(file, currentText);
        await page.setInputFiles("#current-file", file);
        await settled(page);
        equal(await sideState(page, "current"), "ready");
        equal(await text(page, "#verdict"), "REVIEW REQUIRED");
      });
    });

    await t.step(
      "choices made while either side is hashing; the last one wins",
      async () => {
        const big = await largeManifest();
        // Slow hashing down (large inputs far more) so every race below is certain to happen: the
        // example pair is still hashing when the current side is chosen twice, the first (large)
        // choice finishes last, and the reviewed side is chosen while both are pending.
        const race = await open(() => {
          const digest = SubtleCrypto.prototype.digest;
          SubtleCrypto.prototype.digest = function (
            this: SubtleCrypto,
            algorithm: AlgorithmIdentifier,
            data: BufferSource,
          ) {
            const wait = data.byteLength > 100_000 ? 2500 : 600;
            return new Promise<void>((resolve) => setTimeout(resolve, wait))
              .then(() => digest.call(this, algorithm, data));
          } as typeof digest;
        });
        deepEqual([await sideState(race, "reviewed"), await sideState(race, "current")], [
          "loading",
          "loading",
        ]);
        await race.setInputFiles("#current-file", upload("large.json", big));
        await race.setInputFiles("#current-file", upload("final.json", reviewedText));
        await race.setInputFiles("#reviewed-file", upload("chosen.json", reviewedText));
        equal(await sideState(race, "current"), "loading");
        await settled(race);
        const check = async () => {
          deepEqual([await sideState(race, "reviewed"), await sideState(race, "current")], [
            "ready",
            "ready",
          ]);
          match(await text(race, "#reviewed-status"), /^chosen\.json: /);
          match(await text(race, "#current-status"), /^final\.json: /);
          equal(await text(race, "#verdict"), "MATCH");
        };
        await check();
        await race.waitForTimeout(2600); // the large, older selection has finished hashing by now
        await check();
        // The example on one side while the other side is chosen: neither side stays loading.
        await race.click("#show-example");
        await race.setInputFiles("#current-file", upload("mine.json", currentText));
        await settled(race);
        match(await text(race, "#reviewed-status"), /^example reviewed\.bundle\.json: /);
        match(await text(race, "#current-status"), /^mine\.json: /);
        equal(await text(race, "#verdict"), "REVIEW REQUIRED");
        await race.close();
      },
    );

    await t.step("the skill check gives the CLI's check --json file entry", async () => {
      await withTempDir(async (dir) => {
        const badDir = join(dir, "latin1");
        await Deno.mkdir(badDir);
        const bad = join(badDir, "SKILL.md");
        await Deno.writeFile(bad, new Uint8Array([0x2d, 0x2d, 0x2d, 0x0a, 0xe9, 0x0a]));
        const cli = await runCli(["check", "--json", SOURCES_FIXTURE, NO_FRONTMATTER_FIXTURE, bad]);
        equal(cli.code, 2, cli.stderr);
        const [sources, noFrontmatter, latin1] = JSON.parse(cli.stdout).files;
        const cases = [
          [SOURCES_FIXTURE, "sources", sources, "PASSED"],
          [NO_FRONTMATTER_FIXTURE, "no-frontmatter", noFrontmatter, "FAILED"],
        ] as const;
        for (const [fixture, folder, expected, verdict] of cases) {
          const entry = await checkInPage(page, join(ROOT, fixture), folder);
          deepEqual(Object.keys(entry), Object.keys(expected));
          deepEqual(entry.report, expected.report);
          equal(entry.sha256, expected.sha256);
          equal(entry.status, expected.status);
          equal(entry.path, `${folder}/SKILL.md`);
          equal(await text(page, "#check-verdict"), verdict);
        }
        const entry = await checkInPage(page, bad, "latin1");
        deepEqual(entry, { ...latin1, path: "latin1/SKILL.md" });
        equal(entry.error, "Input is not valid UTF-8");
        equal(await text(page, "#check-verdict"), "INPUT ERROR");
      });
      const shown = await checkInPage(page, join(ROOT, SOURCES_FIXTURE), "sources");
      equal(shown.status, "passed");
      const result = await text(page, "#check-result");
      for (
        const expected of [
          "raw.githubusercontent.com pinned",
          "docs.example.com not pinned",
          "U+200B ZERO WIDTH SPACE (zero-width) ×1, line 9",
          "model may invoke: yes, user may invoke: yes (strict parse)",
          "None declared",
        ]
      ) ok(result.includes(expected), `missing "${expected}" in ${result}`);
      ok(!result.includes("name-directory-mismatch"));
      await page.fill("#skill-folder", "renamed"); // re-checks the same bytes under a new folder
      match(await text(page, "#check-result"), /name-directory-mismatch/);
    });

    await t.step(
      "screenshots: 1280 px for the README, and nothing overflows at 375 px",
      async () => {
        // The README image is the page as a reviewer first sees it: the example verdict. (A checked
        // SKILL.md below it would push the PNG past the ~300 KB kept in the repository.)
        const shot = await open();
        await exampleShown(shot);
        const scratch = UPDATE_SCREENSHOT ? undefined : await Deno.makeTempDir();
        const path = scratch === undefined ? SCREENSHOT : join(scratch, "web-page.png");
        // The page's top, down to the end of the comparison (the explorer below has its own image,
        // docs/web-explorer.png, from tests/web_explorer_test.ts).
        const bottom = await shot.locator("#compare-title").evaluate((title) =>
          Math.ceil(title.parentElement!.getBoundingClientRect().bottom + scrollY + 16)
        );
        await shot.screenshot({
          path,
          fullPage: true,
          clip: { x: 0, y: 0, width: 1280, height: bottom },
        });
        const { size } = await Deno.stat(path);
        ok(size < 300_000, `the screenshot is ${size} bytes (docs/web-page.png must stay small)`);
        if (scratch !== undefined) await Deno.remove(scratch, { recursive: true });
        // At phone width, with the longest content the tests show (the example's digests and
        // arguments, the sources fixture's URLs), nothing may scroll sideways.
        await checkInPage(shot, join(ROOT, SOURCES_FIXTURE), "sources");
        await shot.setViewportSize({ width: 375, height: 800 });
        const widths = await shot.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          inner: globalThis.innerWidth,
        }));
        ok(widths.scroll <= widths.inner, JSON.stringify(widths));
        await shot.close();
      },
    );

    await t.step("opened from file:// the page works too", async () => {
      const local = await browser!.newContext();
      try {
        local.on("request", (request) => fileRequests.push(request.url()));
        const filePage = watch(await local.newPage());
        await filePage.goto(pathToFileURL(join(DIST, "index.html")).href);
        await exampleShown(filePage);
        equal(await text(filePage, "#verdict"), "REVIEW REQUIRED");
        equal((await text(filePage, "#paths")).trim(), "CHANGED scripts/review.py");
        await filePage.setInputFiles("#current-file", upload("same.json", reviewedText));
        await settled(filePage);
        equal(await text(filePage, "#verdict"), "MATCH");
      } finally {
        await local.close();
      }
    });

    await t.step("no request left the page's origin; no page or console error", async () => {
      ok(requests.length > 0);
      const foreign = requests.filter((url) =>
        !url.startsWith(`${origin}/`) && !url.startsWith("blob:") && !url.startsWith("data:")
      );
      deepEqual(foreign, []);
      const dist = pathToFileURL(DIST).href + "/";
      deepEqual(
        fileRequests.filter((url) =>
          !url.startsWith(dist) && !url.startsWith("blob:") && !url.startsWith("data:")
        ),
        [],
      );
      deepEqual(problems, []);
      // Nothing was put in the address or stored by the page that did all of the above.
      equal(page.url(), `${origin}/index.html`);
      deepEqual(
        await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie]),
        [0, 0, ""],
      );
    });
  } finally {
    await browser?.close();
    await server.shutdown();
  }
});
