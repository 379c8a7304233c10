// The dsh web card's host half in a booted DeepSeek Harness (issue 31): dsh 0.1.0-rc.8's web
// profile (tests/dsh_boot_helpers.ts) with this repository's packed npm package added by
// `dsh plugin add`, against the scripted model of tests/dsh_model.ts. One boot: the report route
// before the provider registered (the profile's own patch turns dsh's skill registry off) and
// after (the patch rewritten: dsh's hmr reloads the row), its hostile inputs, then a change made
// through dsh's settings API (`settings.mutate`) reaching the model's `<available_skills>` on the
// next prompt. See docs/dsh.md ("The web card").
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { request as httpRequest } from "node:http";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { skillMd, withTempDir } from "./helpers.ts";
import { packPlugin } from "./dsh_pack.ts";
import { type ChatRequest, ScriptedModel } from "./dsh_model.ts";
import { type DshWorld, installDsh, runDsh, WebDsh } from "./dsh_boot_helpers.ts";

const HMR_PATCH = "- id: hmr\n  disabled: false\n";
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
  const install = await installDsh();
  await withTempDir(async (work) => {
    const model = new ScriptedModel();
    const world: DshWorld = {
      install,
      home: join(work, "home"),
      dshHome: join(work, "home", ".dsh"),
      project: join(work, "project"),
      model,
    };
    try {
      await mkdir(join(world.project, ".git"), { recursive: true });
      await mkdir(world.dshHome, { recursive: true });
      await writeFile(join(work, "hmr.patch.yml"), HMR_PATCH);
      await writeSkills(world);
      const tarball = await packPlugin(work);
      const added = await runDsh(world, ["plugin", "--profile", "web", "add", tarball]);
      equal(added.code, 0, added.stderr);
      const profilePatch = join(world.dshHome, "profiles", "web", "cordis.patch.yml");
      await writeFile(profilePatch, PROVIDER_ROW + NO_REGISTRY);
      const web = await WebDsh.start(world, ["--patch", join(work, "hmr.patch.yml")]);
      try {
        await exercise(web, world, profilePatch);
      } finally {
        await web.stop();
      }
    } finally {
      await model.close();
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
  const extra = await report(web, { cwd: world.project, limit: 1, __proto__: { x: 1 } });
  equal(extra.body.value?.listed, first.listed);
  // A huge body: 413, nothing parsed; the route answers the next request.
  const huge = await raw(web.url, {
    headers: { origin: web.url, "content-type": "application/json" },
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
  // The change is in the profile's settings document, not in its patch.
  match(await readFile(profilePatch, "utf8"), /limit: 3, pin: \[\]/);
}
