// dsh/cordis.patch.yml restates each row's defaults as a sample config block: every value it
// writes must equal what the row's schema gives when the value is left out (the provider's schema
// is derived from the catalog's one table of settings, CONFIG_FIELDS), so the sample cannot drift.
import { deepEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { load } from "js-yaml";
import { ProviderConfig, ToolsConfig } from "../dsh/config.ts";
import { ROOT } from "./helpers.ts";

interface Row {
  id: string;
  name: string;
  disabled?: boolean;
  config: Record<string, unknown>;
}

const SCHEMAS: Record<string, { parse(value: unknown): unknown }> = {
  "skills-anywhere": ProviderConfig,
  "skills-anywhere-tools": ToolsConfig,
};

Deno.test("cordis.patch.yml: each row's sample config states the schema's defaults", async () => {
  const text = await Deno.readTextFile(join(ROOT, "dsh", "cordis.patch.yml"));
  const patch = load(text) as { insert: Row[] }[];
  equal(patch.length, 1);
  const rows = patch[0].insert;
  deepEqual(rows.map((row) => row.id), Object.keys(SCHEMAS));
  for (const row of rows) {
    const defaults = SCHEMAS[row.id].parse({}) as Record<string, unknown>;
    ok(Object.keys(row.config).length > 0, row.id);
    for (const [key, value] of Object.entries(row.config)) {
      deepEqual(value, defaults[key], `${row.id}.${key}`);
    }
  }
  // The provider is on; the model tools are opt-in (they would join every agent preset).
  deepEqual(rows.map((row) => [row.id, row.disabled ?? false]), [
    ["skills-anywhere", false],
    ["skills-anywhere-tools", true],
  ]);
});
