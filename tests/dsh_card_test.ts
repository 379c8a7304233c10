// The dsh web card's host half in a booted DeepSeek Harness (issue 31): dsh 0.1.0-rc.8's web
// profile (tests/dsh_boot_helpers.ts) with this repository's packed npm package added by
// `dsh plugin add`, against the scripted model of tests/dsh_model.ts. One boot: the report route
// before the provider registered (the profile's own patch turns dsh's skill registry off) and
// after (the patch rewritten: dsh's hmr reloads the row), its hostile inputs, then a change made
// through dsh's settings API (`settings.mutate`) reaching the model's `<available_skills>` on the
// next prompt; then the card itself in headless Chromium (tests/browser.ts, playwright-core):
// Settings → Plugins → Plugin configuration, filter, pin, budget, restore, and the model sees it.
// The screenshot in docs/dsh.md is rewritten only with UPDATE_SCREENSHOT=1. See docs/dsh.md
// ("The web card").
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { chromium, type Page } from "playwright-core";
import { findBrowser } from "./browser.ts";
import { LAUNCH_ARGS } from "./web_page_helpers.ts";
import { ROOT, skillMd } from "./helpers.ts";
import type { ChatRequest } from "./dsh_model.ts";
import { type DshWorld, runDsh, WebDsh, withDshWorld } from "./dsh_boot_helpers.ts";

/** Our row, restated complete: a budget of 3, no Git sync, no Claude plugins. */
const PROVIDER_ROW = `- id: skills-anywhere
  config:
    agents: true
    claudePlugins: false
    sources: []
    sync: false
    watch: true
    catalog: { limit: 3, pin: [], hide: [] }
`;
/** dsh's skill registry off: our row activates, its provider waits. */
const NO_REGISTRY = "- id: skill\n  disabled: true\n";
const ROUTE = "/api/skills-anywhere/report";
/** The card's screenshot in docs/dsh.md: rewritten only when `UPDATE_SCREENSHOT=1`. */
const SCREENSHOT = join(ROOT, "docs", "dsh-card.png");
const UPDATE_SCREENSHOT = Deno.env.get("UPDATE_SCREENSHOT") === "1";

interface RouteAnswer {
  status: number;
  body: {
    ok: boolean;
    value?: Report;
    error?: { code: string; message: string; details: unknown };
  };
  text: string;
}

interface Report {
  skills: {
    name: string;
    state: string;
    pinned: boolean;
    hidden: boolean;
    authorDisabled: boolean;
    origin: string;
    group: string;
  }[];
  dropped: { name: string; reason: string; winner: string }[];
  roots: { label: string; path: string; exists: boolean; count: number }[];
  catalog: { limit: number; pin: string[]; hide: string[] };
  excludeSkills: string[];
  listed: number;
  complete: boolean;
}

/** One raw HTTP request to dsh's server (node:http, so `Host` can be set). */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array },
): Promise<RouteAnswer> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({
      host: "127.0.0.1",
      port: Number(port),
      path: ROUTE,
      method: options.method ?? "POST",
      headers: { host: `127.0.0.1:${port}`, ...options.headers },
    }, (res) => {
      const chunks: Uint8Array[] = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => {
        const text = new TextDecoder().decode(
          chunks.reduce((all, c) => new Uint8Array([...all, ...c]), new Uint8Array()),
        );
        let body: RouteAnswer["body"];
        try {
          body = JSON.parse(text);
        } catch {
          body = { ok: false };
        }
        resolve({ status: res.statusCode ?? 0, body, text });
      });
    });
    req.on("error", (error) => {
      // The server closes a too-large upload: an EPIPE/ECONNRESET while sending is expected.
      reject(error);
    });
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** The route, as the card calls it (fetch, same origin). */
async function report(web: WebDsh, body: unknown): Promise<RouteAnswer> {
  const response = await fetch(`${web.url}${ROUTE}`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: web.url },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), text };
}

/** Asks the route until it answers ok (at most 150 times, 200 ms apart). */
async function reportWhenReady(web: WebDsh, body: unknown): Promise<Report> {
  let last: RouteAnswer | undefined;
  for (let attempt = 0; attempt < 150; attempt++) {
    last = await report(web, body);
    if (last.body.ok && last.body.value !== undefined) return last.body.value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the route never answered ok: ${last?.text}\n${web.output}`);
}

async function writeSkills(world: DshWorld): Promise<void> {
  const ours = join(world.home, ".claude", "skills");
  const put = async (dir: string, name: string, description: string, front: string[] = []) => {
    await mkdir(join(dir, name), { recursive: true });
    await writeFile(
      join(dir, name, "SKILL.md"),
      skillMd(name, description, `Body of ${name}.`, front),
    );
  };
  for (const name of ["ours-a", "ours-b", "ours-c", "ours-d", "ours-e"]) {
    await put(ours, name, `Ours ${name} skill.`);
  }
  await put(ours, "ours-off", "Ours, author-disabled.", ["disable-model-invocation: true"]);
}

/**
 * The latest `<available_skills>` block dsh put into a request (earlier turns keep theirs in the
 * history).
 */
function availableSkills(request: ChatRequest): string {
  const all = JSON.stringify(request);
  const found = [...all.matchAll(/<available_skills>[\s\S]*?<\/available_skills>/g)];
  ok(found.length > 0, `no <available_skills> in ${all.slice(0, 2000)}`);
  return found[found.length - 1][0];
}

async function prompt(web: WebDsh, world: DshWorld, sessionId: string): Promise<ChatRequest> {
  const before = world.model.requests.length;
  await web.api("session.prompt", {
    sessionId,
    mode: "queue",
    content: [{ type: "text", text: "Which skills do you have?" }],
  });
  // dsh may also ask the model for a title (no tools): the agent turn is the one with tools.
  for (let count = before + 1;; count++) {
    const request = await world.model.received(count);
    if ((request.tools ?? []).length > 0) return request;
  }
}

Deno.test("dsh booted (web): the report route before and after the provider, hostile input, settings reach the model", async () => {
  await withDshWorld({ skills: writeSkills }, async (world, tarball, work) => {
    const added = await runDsh(world, ["plugin", "--profile", "web", "add", tarball]);
    equal(added.code, 0, added.stderr);
    const profilePatch = join(world.dshHome, "profiles", "web", "cordis.patch.yml");
    await writeFile(profilePatch, PROVIDER_ROW + NO_REGISTRY);
    const web = await WebDsh.start(world, ["--patch", join(work, "hmr.patch.yml")]);
    try {
      await exercise(web, world, profilePatch);
      await driveCard(web, world, work);
    } finally {
      await web.stop();
    }
  });
});

async function exercise(web: WebDsh, world: DshWorld, profilePatch: string): Promise<void> {
  // Before the provider registered (no skill registry in the profile): not-ready, as JSON.
  const early = await report(web, { cwd: world.project });
  equal(early.status, 200);
  equal(early.body.ok, false, early.text);
  equal(early.body.error?.code, "skills-anywhere/not-ready");
  equal((await report(web, "{not json")).body.error?.code, "skills-anywhere/not-ready");

  // The registry back (the profile's patch rewritten; dsh's hmr reloads the layer): ready.
  await writeFile(profilePatch, PROVIDER_ROW);
  const first = await reportWhenReady(web, { cwd: world.project });
  deepEqual(first.catalog, { limit: 3, pin: [], hide: [] });
  deepEqual(first.excludeSkills, []);
  const state = (view: Report, name: string) => view.skills.find((s) => s.name === name)?.state;
  equal(state(first, "ours-off"), "disabled");
  equal(first.skills.find((s) => s.name === "ours-off")?.authorDisabled, true);
  equal(first.skills.find((s) => s.name === "ours-a")?.origin, "claude-code (user)");
  equal(first.skills.find((s) => s.name === "ours-a")?.group, "User skill directories");
  ok(first.roots.some((root) => root.path.endsWith(join(".claude", "skills")) && root.count === 6));
  equal(first.complete, true);

  // Hostile input: each answered in words, the server and the route still up after all.
  const bad = async (body: unknown) => (await report(web, body)).body.error?.code;
  equal(await bad({ cwd: 42 }), "skills-anywhere/invalid-cwd");
  equal(await bad({ cwd: ["/"] }), "skills-anywhere/invalid-cwd");
  equal(await bad({ cwd: "relative/dir" }), "skills-anywhere/invalid-cwd");
  equal(await bad({ cwd: "/" + "x".repeat(5000) }), "skills-anywhere/invalid-cwd");
  const missing = join(world.project, "no-such-dir-secret");
  const gone = await report(web, { cwd: missing });
  equal(gone.body.error?.code, "skills-anywhere/invalid-cwd");
  ok(!gone.text.includes("no-such-dir-secret"), "the answer does not repeat the path");
  const file = await report(web, { cwd: join(world.project, ".git", "..", ".git") });
  equal(file.body.ok, true, "a directory reached through .. is still a directory");
  // Not JSON, not an object, extra keys: taken as {} (no project), or the keys ignored.
  for (const body of ["{", "[1,2]", "null", '"text"']) {
    equal((await report(web, body)).body.ok, true, body);
  }
  const extra = await report(
    web,
    `{"cwd": ${JSON.stringify(world.project)}, "limit": 1, "__proto__": {"cwd": "/"}}`,
  );
  equal(extra.body.value?.listed, first.listed);
  // A huge body announced: 413 before it is read, the connection closed. Sent without one (chunked):
  // 413 once 64 KiB arrived, or the connection closed under the upload.
  const announced = await raw(web.url, {
    headers: { origin: web.url, "content-length": String(64 * 1024 * 1024) },
  });
  equal(announced.status, 413);
  equal(announced.body.error?.code, "skills-anywhere/too-large");
  const huge = await raw(web.url, {
    headers: { origin: web.url, "transfer-encoding": "chunked" },
    body: JSON.stringify({ cwd: world.project, pad: "x".repeat(1024 * 1024) }),
  }).catch((error) => ({ status: -1, body: { ok: false }, text: String(error) }) as RouteAnswer);
  ok(huge.status === 413 || huge.status === -1, `${huge.status} ${huge.text.slice(0, 200)}`);
  if (huge.status === 413) equal(huge.body.error?.code, "skills-anywhere/too-large");
  // Another site's page, a rebound DNS name, a GET: refused.
  const foreign = await raw(web.url, { headers: { origin: "http://evil.example" }, body: "{}" });
  equal(foreign.status, 403);
  equal(foreign.body.error?.code, "skills-anywhere/forbidden");
  const rebound = await raw(web.url, { headers: { host: "evil.example" }, body: "{}" });
  equal(rebound.status, 403);
  const crossSite = await raw(web.url, { headers: { "sec-fetch-site": "cross-site" }, body: "{}" });
  equal(crossSite.status, 403);
  equal((await raw(web.url, { method: "GET", headers: {} })).status, 405);
  equal((await report(web, { cwd: world.project })).body.ok, true);

  // The namespace, seeded from the row: dsh's settings API describes it.
  const described = await web.api("settings.describe", {});
  const namespaces = described.namespaces as { ns: string; value: unknown; base: unknown }[];
  const ours = namespaces.find((entry) => entry.ns === "skills-anywhere");
  ok(ours, JSON.stringify(namespaces.map((entry) => entry.ns)));
  deepEqual(ours.value, { catalog: { limit: 3, pin: [], hide: [] }, excludeSkills: [] });
  // A limit dsh's schema refuses (not an integer ≥ 0) is refused there, nothing stored.
  const refused = await web.call("settings.mutate", {
    ns: "skills-anywhere",
    ops: [{ op: "set", path: ["catalog"], value: { limit: -1, pin: [], hide: [] } }],
  });
  const refusedResult = refused.body.result as { ok?: boolean } | undefined;
  ok(refusedResult?.ok !== true, JSON.stringify(refused.body));

  // Before the change: the model sees ours-a..c (budget 3), not ours-d.
  const session = (await web.api("session.create", { cwd: world.project })).sessionId as string;
  const before = availableSkills(await prompt(web, world, session));
  for (const name of ["ours-a", "ours-b", "ours-c"]) ok(before.includes(name), before);
  ok(!before.includes("ours-d"), before);

  // Pin ours-d, hide ours-a, exclude ours-b, through dsh's settings API.
  await web.api("settings.mutate", {
    ns: "skills-anywhere",
    ops: [
      { op: "set", path: ["catalog"], value: { limit: 3, pin: ["ours-d"], hide: ["ours-a"] } },
      { op: "set", path: ["excludeSkills"], value: ["ours-b"] },
    ],
  });
  const after = availableSkills(await prompt(web, world, session));
  for (const name of ["ours-d", "ours-c", "ours-e"]) ok(after.includes(name), after);
  for (const name of ["ours-a", "ours-b", "ours-off"]) ok(!after.includes(name), after);
  ok(after.indexOf("ours-d") >= 0);

  const changed = await reportWhenReady(web, { cwd: world.project });
  deepEqual(changed.catalog, { limit: 3, pin: ["ours-d"], hide: ["ours-a"] });
  deepEqual(changed.excludeSkills, ["ours-b"]);
  equal(changed.skills.find((s) => s.name === "ours-d")?.pinned, true);
  equal(changed.skills.find((s) => s.name === "ours-a")?.hidden, true);
  equal(state(changed, "ours-a"), "hidden");
  ok(!changed.skills.some((s) => s.name === "ours-b"));
  deepEqual(
    changed.dropped.filter((d) => d.reason === "excluded").map((d) => d.name),
    ["ours-b"],
  );
  equal(changed.listed, 3);
  // The change is in dsh's settings document, not in the profile's patch.
  match(await readFile(profilePatch, "utf8"), /limit: 3, pin: \[\]/);
  match(await readFile(join(world.dshHome, "settings.yaml"), "utf8"), /skills-anywhere:/);
}

/** The skill rows the card shows, name → state. */
async function rows(page: Page): Promise<Map<string, string>> {
  const found = await page.locator("li[data-skills-anywhere=card] [data-skill]").evaluateAll((
    elements,
  ) =>
    elements.map((
      element,
    ) => [element.getAttribute("data-skill"), element.getAttribute("data-state")])
  );
  return new Map(found as [string, string][]);
}

/** Waits (at most 10 s) until the card's rows satisfy `done`; fails with the last rows. */
async function rowsWhen(
  page: Page,
  done: (rows: Map<string, string>) => boolean,
): Promise<Map<string, string>> {
  let last = new Map<string, string>();
  for (let attempt = 0; attempt < 100; attempt++) {
    last = await rows(page);
    if (done(last)) return last;
    await page.waitForTimeout(100);
  }
  throw new Error(`the card never showed the rows wanted: ${JSON.stringify([...last])}`);
}

/** The skills-anywhere namespace's value, as dsh's settings API describes it. */
async function described(web: WebDsh): Promise<unknown> {
  const value = await web.api("settings.describe", {});
  return (value.namespaces as { ns: string; value: unknown }[])
    .find((entry) => entry.ns === "skills-anywhere")?.value;
}

/**
 * The card in headless Chromium, on the state `exercise` left (budget 3, ours-d pinned, ours-a
 * hidden, ours-b excluded): budget 1, filter, pin ours-e, budget 2, ours-e listed; restore
 * ours-b; the next prompt lists ours-d and ours-e.
 */
async function driveCard(web: WebDsh, world: DshWorld, work: string): Promise<void> {
  const found = await findBrowser();
  const browser = await chromium.launch({
    executablePath: found.executablePath,
    env: { ...Deno.env.toObject(), ...found.env },
    args: [...LAUNCH_ARGS],
  });
  const problems: string[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console: ${message.text()}`);
    });
    await page.goto(web.url);
    const settings = page.getByRole("button", { name: "Settings", exact: true });
    await settings.first().waitFor();
    // A first visit shows dsh's onboarding dialog (it may come up a moment after the page), which
    // makes the rest inert: dismiss it whenever it is there, until Settings opens (10 tries).
    const onboarding = page.getByRole("button", { name: "Continue", exact: true });
    for (let attempt = 0;; attempt++) {
      if (await onboarding.count() > 0) await onboarding.first().click().catch(() => {});
      const opened = await settings.first().click({ timeout: 2000 }).then(() => true, () => false);
      if (opened) break;
      ok(attempt < 10, "the Settings button never took a click");
    }
    await page.getByRole("button", { name: "Plugins", exact: true }).click();
    // The tab (role tab) is the section's first, selected by default; clicked all the same.
    await page.locator("button", { hasText: "Plugin configuration" }).click();
    const card = page.locator("li[data-skills-anywhere=card]");
    const header = card.locator("button.sa-head");
    equal(await header.getAttribute("aria-expanded"), "false");
    equal(await card.locator("[data-skill]").count(), 0, "collapsed: nothing loaded");
    await header.click();
    equal(await header.getAttribute("aria-expanded"), "true");
    let shown = await rowsWhen(page, (r) => r.size > 0);
    deepEqual([...shown.keys()].sort(), ["ours-a", "ours-c", "ours-d", "ours-e", "ours-off"]);
    equal(shown.get("ours-off"), "disabled");
    match(await card.locator("[data-skill=ours-off] .sa-state").innerText(), /author disabled/);
    match(await card.locator("[data-skill=ours-a] .sa-state").innerText(), /not listed/);
    ok(await card.locator("[data-excluded=ours-b]").count() === 1);
    match(await card.innerText(), /Scanned folders/);
    match(await card.locator("[data-skills-anywhere=folders]").innerText(), /\.claude\/skills/);

    // The budget: 1, committed with Enter; an invalid one is refused in words, not committed.
    const budget = card.locator("input[name=skills-anywhere-budget]");
    await budget.fill("1");
    await budget.press("Enter");
    shown = await rowsWhen(page, (r) => r.get("ours-c") === "hidden");
    equal(shown.get("ours-d"), "visible");
    equal(shown.get("ours-e"), "hidden");

    // The filter: every term must match (name, description or origin).
    const filter = card.locator("input[name=skills-anywhere-filter]");
    await filter.fill("ours-e claude-code");
    shown = await rowsWhen(page, (r) => r.size === 1);
    deepEqual([...shown.keys()], ["ours-e"]);
    await filter.fill("ours-e nowhere");
    await rowsWhen(page, (r) => r.size === 0);
    match(await card.innerText(), /No skill matches the filter/);
    await filter.fill("ours-e");
    await rowsWhen(page, (r) => r.size === 1);

    // Pin ours-e: still not listed under a budget of 1 (ours-d, pinned too, comes first) ...
    await card.locator("[data-skill=ours-e] [data-action=pin]").click();
    await card.locator("[data-skill=ours-e] [data-action=unpin]").waitFor();
    equal((await rows(page)).get("ours-e"), "hidden");
    // ... the budget 2, committed on blur: listed.
    await budget.fill("2");
    await budget.blur();
    await rowsWhen(page, (r) => r.get("ours-e") === "visible");
    await budget.fill("1.5");
    await budget.press("Enter");
    match(await card.innerText(), /Enter a whole number, 0 or more/);
    await budget.fill("2");
    await budget.press("Enter");

    // Restore the excluded ours-b (the filter cleared): it is back, not listed (budget 2).
    await filter.fill("");
    await card.locator("[data-excluded=ours-b] [data-action=restore]").click();
    shown = await rowsWhen(page, (r) => r.has("ours-b"));
    equal(shown.get("ours-b"), "hidden");
    match(
      await card.locator("[data-skills-anywhere=summary]").innerText(),
      /2 of 6 skills listed/,
    );
    deepEqual(await described(web), {
      catalog: { limit: 2, pin: ["ours-d", "ours-e"], hide: ["ours-a"] },
      excludeSkills: [],
    });
    // Pinning the hidden ours-a unhides it; hiding it again unpins it.
    await card.locator("[data-skill=ours-a] [data-action=pin]").click();
    await card.locator("[data-skill=ours-a] [data-action=unpin]").waitFor();
    await card.locator("[data-skill=ours-a] [data-action=hide]").waitFor();
    await card.locator("[data-skill=ours-a] [data-action=hide]").click();
    await card.locator("[data-skill=ours-a] [data-action=show]").waitFor();
    await card.locator("[data-skill=ours-a] [data-action=pin]").waitFor();
    deepEqual(await described(web), {
      catalog: { limit: 2, pin: ["ours-d", "ours-e"], hide: ["ours-a"] },
      excludeSkills: [],
    });

    // The next prompt: the model is listed ours-d and ours-e, pinned, within the budget of 2.
    const session = (await web.api("session.create", { cwd: world.project })).sessionId as string;
    const catalog = availableSkills(await prompt(web, world, session));
    for (const name of ["ours-d", "ours-e"]) ok(catalog.includes(name), catalog);
    for (const name of ["ours-a", "ours-b", "ours-c"]) ok(!catalog.includes(name), catalog);

    // Every value is a text node: no element of the card came from a string of HTML.
    equal(await card.locator("script, iframe, object, embed").count(), 0);
    const shot = UPDATE_SCREENSHOT ? SCREENSHOT : join(work, "dsh-card.png");
    await filter.fill("");
    await header.evaluate((element) => element.scrollIntoView({ block: "start" }));
    await page.screenshot({ path: shot });
    ok((await Deno.stat(shot)).size > 0);
    // Chinese: dsh's locale preference switched through its settings API; the card follows live.
    await web.api("settings.mutate", {
      ns: "locale",
      ops: [{ op: "set", path: ["preference"], value: "zh" }],
    });
    await card.getByText("预算", { exact: true }).waitFor();
    match(await card.innerText(), /向模型列出 2 \/ 6 个技能/);
    match(await card.locator("[data-skill=ours-d] .sa-state").innerText(), /已列出/);
    match(await card.locator("[data-skill=ours-off] .sa-state").innerText(), /作者已禁用/);
    const ours = problems.filter((problem) => /skills-anywhere/.test(problem));
    deepEqual(ours, [], ours.join("\n"));
  } finally {
    await browser.close();
  }
}
