// The one configuration definition: the catalog's table of settings (lib/catalog/_config.ts),
// `resolveConfig` built on it, and the dsh provider schema derived from it (dsh/config.ts).
import { deepEqual, equal, ok, throws } from "node:assert/strict";
import {
  CONFIG_FIELDS,
  ConfigError,
  DEFAULT_RANKS,
  expandHome,
  resolveConfig,
  SHARED_RANKS,
} from "../lib/catalog/_config.ts";
import { DEFAULT_GIT_TIMEOUT_MS } from "../lib/limits.ts";
import { catalogConfig, ProviderConfig, ToolsConfig } from "../dsh/config.ts";

Deno.test("config: defaults with HOME from the given environment", () => {
  const config = resolveConfig({}, { HOME: "/tmp/fake-home" });
  equal(config.home, "/tmp/fake-home");
  equal(config.dshHome, "/tmp/fake-home/.dsh");
  equal(config.stateDir, "/tmp/fake-home/.dsh/skills-anywhere");
  equal(config.cacheDir, "/tmp/fake-home/.dsh/skills-anywhere/cache");
  equal(config.lockFile, "/tmp/fake-home/.dsh/skills-anywhere/lock.json");
  deepEqual(config.ranks, { project: 250, user: 550, claudePlugins: 580, sources: 700 });
  deepEqual(DEFAULT_RANKS, config.ranks);
  deepEqual(SHARED_RANKS, { project: 200, user: 500 });
  equal(config.agents, true);
  equal(config.sharedDirs, false);
  equal(config.claudePlugins, true);
  equal(config.dedupe, true);
  equal(config.lenient, true);
  equal(config.maxDepth, 5);
  equal(config.syncTimeoutMs, DEFAULT_GIT_TIMEOUT_MS);
  deepEqual(config.excludeAgents, []);
  deepEqual(config.excludeSkills, []);
  deepEqual(config.sources, []);
});

Deno.test("config: every field of the table with a default resolves to it (a copy)", () => {
  const config = resolveConfig({}, { HOME: "/h" }) as unknown as Record<string, unknown>;
  for (const [name, field] of Object.entries(CONFIG_FIELDS)) {
    if (!("default" in field)) continue;
    deepEqual(config[name], field.default, name);
    if (typeof field.default === "object") ok(config[name] !== field.default, `${name} copied`);
  }
});

Deno.test("config: explicit home, DSH_HOME, ~ expansion, extra dirs and ranks", () => {
  const env = { HOME: "/h", DSH_HOME: "/elsewhere/dsh" };
  equal(resolveConfig({}, env).dshHome, "/elsewhere/dsh");
  equal(resolveConfig({ dshHome: "~/d" }, env).dshHome, "/h/d");
  equal(resolveConfig({ home: "/other" }, env).home, "/other");
  equal(resolveConfig({ cacheDir: "~/c" }, env).cacheDir, "/h/c");
  const config = resolveConfig({
    extraProjectDirs: ["./team/skills", "/abs/skills", "plain"],
    extraUserDirs: ["~/mine", "/opt/skills", "rel/skills"],
    ranks: { sources: 10 },
  }, env);
  deepEqual(config.extraProjectDirs, ["team/skills", "abs/skills", "plain"]);
  deepEqual(config.extraUserDirs, ["/h/mine", "/opt/skills", "/h/rel/skills"]);
  deepEqual(config.ranks, { project: 250, user: 550, claudePlugins: 580, sources: 10 });
  equal(expandHome("~", "/h"), "/h");
  equal(expandHome("~/x", "/h"), "/h/x");
  equal(expandHome("~x", "/h"), "~x");
});

Deno.test("config: a value of the wrong type or range is a ConfigError naming the field", () => {
  const env = { HOME: "/h" };
  const cases: [Record<string, unknown>, string][] = [
    [{ agents: "yes" }, "agents"],
    [{ excludeAgents: "claude-code" }, "excludeAgents"],
    [{ maxDepth: "5" }, "maxDepth"],
    [{ maxDepth: -1 }, "maxDepth"],
    [{ syncTimeoutMs: 0 }, "syncTimeoutMs"],
    [{ syncIntervalMs: Infinity }, "syncIntervalMs"],
    [{ ranks: { user: "1" } }, "ranks.user"],
    [{ ranks: [] }, "ranks"],
    [{ sources: [42] }, "sources"],
    [{ home: 1 }, "home"],
  ];
  for (const [raw, field] of cases) {
    throws(() => resolveConfig(raw, env), (error: unknown) => {
      ok(error instanceof ConfigError, field);
      equal(error.kind, "invalid-field");
      equal(error.field, field);
      ok(!error.message.includes("skills-anywhere"), error.message);
      return true;
    });
  }
});

Deno.test("config: settings only dsh has are not catalog settings", () => {
  for (const name of ["providerName", "watch", "catalog"]) {
    ok(!(name in CONFIG_FIELDS), name);
    ok(!(name in resolveConfig({}, { HOME: "/h" })), name);
  }
});

Deno.test("dsh config: the provider schema has every catalog field with its default", () => {
  const parsed = ProviderConfig.parse({}) as unknown as Record<string, unknown>;
  for (const [name, field] of Object.entries(CONFIG_FIELDS)) {
    if (field.type === "ranks") deepEqual(parsed[name], {}, name);
    else if ("default" in field) deepEqual(parsed[name], field.default, name);
    else equal(parsed[name], undefined, name);
  }
  equal(parsed.providerName, "skills-anywhere");
  equal(parsed.watch, true);
  deepEqual(parsed.catalog, { limit: 50, pin: [], hide: [] });
  deepEqual(ToolsConfig.parse({}), {
    findLimit: 10,
    findMaxLimit: 50,
    find: true,
    open: true,
    provider: "skills-anywhere",
  });
});

Deno.test("dsh config: the schema refuses what resolveConfig refuses", () => {
  for (
    const bad of [
      { agents: "yes" },
      { maxDepth: 1.5 },
      { syncTimeoutMs: 0 },
      { syncIntervalMs: -1 },
      { ranks: { user: "1" } },
      { sources: [42] },
      { excludeAgents: "claude-code" },
      { catalog: { limit: "many" } },
      { catalog: { limit: Infinity } },
      { providerName: "" },
    ]
  ) {
    equal(ProviderConfig.safeParse(bad).success, false, JSON.stringify(bad));
  }
});

Deno.test("dsh config: catalogConfig resolves paths and clamps the budget limit", () => {
  const config = catalogConfig(ProviderConfig.parse({
    home: "/h",
    dshHome: "~/d",
    ranks: { user: 123 },
    catalog: { limit: 2.9, pin: ["a"], hide: ["b"] },
  }));
  equal(config.dshHome, "/h/d");
  equal(config.lockFile, "/h/d/skills-anywhere/lock.json");
  equal(config.ranks.user, 123);
  equal(config.providerName, "skills-anywhere");
  deepEqual(config.catalog, { limit: 2, pin: ["a"], hide: ["b"] });
  equal(
    catalogConfig(ProviderConfig.parse({ home: "/h", catalog: { limit: -4 } })).catalog.limit,
    0,
  );
});
