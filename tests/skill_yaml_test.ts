// parseFrontmatterYaml: the YAML 1.2 core schema, and every scalar as a string on request.
import { deepStrictEqual, ok } from "node:assert/strict";
import { parseFrontmatterYaml } from "../lib/skill/yaml.ts";

Deno.test("yaml: YAML 1.2 core schema (yes/on are strings, no timestamps)", () => {
  const result = parseFrontmatterYaml(
    "a: yes\nb: on\nc: 1.0\nd: 0x1F\ne: 2001-12-14\nf: ~\ng: true",
  );
  ok(result.ok);
  deepStrictEqual(result.value, {
    a: "yes",
    b: "on",
    c: 1,
    d: 31,
    e: "2001-12-14",
    f: null,
    g: true,
  });
});

Deno.test("yaml: scalarsAsStrings reads every scalar as a string", () => {
  const result = parseFrontmatterYaml("a: 1.0\nb: true\nc: [1, 2]", { scalarsAsStrings: true });
  ok(result.ok);
  deepStrictEqual(result.value, { a: "1.0", b: "true", c: ["1", "2"] });
});

Deno.test("yaml: modest alias use still parses", () => {
  const result = parseFrontmatterYaml("base: &b [x, y]\nuse: *b\nagain: *b");
  ok(result.ok);
  deepStrictEqual(result.value, { base: ["x", "y"], use: ["x", "y"], again: ["x", "y"] });
});

Deno.test("yaml: moderate nesting is fine", () => {
  const result = parseFrontmatterYaml("a: " + "[".repeat(20) + "x" + "]".repeat(20));
  ok(result.ok);
});
