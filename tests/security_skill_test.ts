// Hostile SKILL.md files that a cloned project or a Git source can plant:
// (8) hidden characters written as YAML escapes in an ASCII-only file, and
// (11) an author's `disable-model-invocation` opt-out in a frontmatter the
// strict splitter does not accept. Unit tests first, then the real CLI and the
// real MCP server.
import { deepEqual, equal, match, ok } from "node:assert/strict";
import { join } from "node:path";
import { findHiddenCharacters } from "../lib/skill/_hidden.ts";
import { declaredOptOut } from "../lib/skill/_opt_out.ts";
import { type ParsedSkill, parseSkillMarkdown } from "../lib/skill/_parse.ts";
import { checkSkill } from "../lib/check/_check.ts";
import { parseFrontmatterYaml } from "../lib/skill/_yaml.ts";
import { runCli, withTempDir, writeTree } from "./helpers.ts";
import {
  cli,
  type Sandbox,
  textOf,
  type ToolResult,
  withSandbox,
  withSession,
  writeProjectSkill,
} from "./mcp_helpers.ts";

// ---------------------------------------------------------------------------
// 8. Hidden characters after YAML decoding

/** ASCII only: every hidden character is a double-quoted YAML escape. */
const ESCAPED = [
  "---",
  "name: escaped",
  'description: "Summarise files.\\u202e\\u200b\\U000E0041\\e[8m"',
  "metadata:",
  '  author: "Eve\\u2066"',
  '  "k\\u200dey": plain',
  "  list:",
  '    - "x\\u00ady"',
  "---",
  "Body.",
  "",
].join("\n");

Deno.test("hostile: the escaped file is ASCII only, yet its decoded description holds RLO, ZWSP, a tag and ESC", () => {
  ok(/^[\x20-\x7e\n]*$/.test(ESCAPED));
  const yaml = ESCAPED.split("\n---\n")[0].slice(4);
  const decoded = parseFrontmatterYaml(yaml);
  ok(decoded.ok);
  const { description } = decoded.value as { description: string };
  for (const cp of ["\u202e", "\u200b", "\u{E0041}", "\u001b"]) {
    ok(description.includes(cp), `description lacks ${JSON.stringify(cp)}`);
  }
});

Deno.test("served text: description and whenToUse carry hidden characters only as visible escapes", () => {
  const text = ESCAPED.replace("metadata:", 'when-to-use: "On \\u2067request"\nmetadata:');
  for (const lenient of [true, false]) {
    const result = parseSkillMarkdown(text, { fallbackName: "escaped", lenient });
    ok(result.ok);
    const { description, whenToUse, warnings } = result.skill;
    equal(description, "Summarise files.\\u202e\\u200b\\u{e0041}\\u001b[8m");
    equal(whenToUse, "On \\u2067request");
    deepEqual(findHiddenCharacters(description + whenToUse), []);
    ok(
      warnings.includes("description held hidden characters; written as \\u escapes"),
      `${warnings}`,
    );
    ok(
      warnings.includes("whenToUse held hidden characters; written as \\u escapes"),
      `${warnings}`,
    );
  }
  // Allowed sequences (emoji joiners, flags) and plain text are served unchanged.
  const flag = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}";
  const fine = parseSkillMarkdown(
    `---\nname: a\ndescription: Team ${flag} \u{1F468}\u200D\u{1F469}\n---\nB`,
  );
  ok(fine.ok);
  equal(fine.skill.description, `Team ${flag} \u{1F468}\u200D\u{1F469}`);
  deepEqual(fine.skill.warnings, []);
  // A derived description is cleaned too.
  const derived = parseSkillMarkdown("Use this\u200b when\u{E0041} asked.\n", {
    fallbackName: "d",
  });
  ok(derived.ok);
  equal(derived.skill.description, "Use this\\u200b when\\u{e0041} asked.");
});

Deno.test("hidden characters: parsed keys and values are scanned, each finding names its fields", () => {
  const report = checkSkill(ESCAPED, { fallbackName: "escaped", directoryName: "escaped" });
  const byCode = new Map(report.surface.hiddenCharacters.map((h) => [h.codePoint, h]));
  const fields = (cp: string) => byCode.get(cp)?.fields;
  deepEqual(fields("U+202E"), ["description"]);
  deepEqual(fields("U+200B"), ["description"]);
  deepEqual(fields("U+E0000..U+E007F"), ["description"]);
  deepEqual(fields("U+001B"), ["description"]);
  deepEqual(fields("U+2066"), ["metadata.author"]);
  deepEqual(fields("U+200D"), ['metadata["k\\u200dey"]']);
  deepEqual(fields("U+00AD"), ["metadata.list[0]"]);
  // Escapes never occur in the raw bytes: no raw count, no lines.
  equal(byCode.get("U+202E")?.count, 0);
  deepEqual(byCode.get("U+202E")?.lines, []);
  equal(byCode.get("U+001B")?.kind, "control");
});

Deno.test("hidden characters: a raw character keeps its line and gains the field it sits in", () => {
  const text = "---\nname: raw\ndescription: A\u200bB\n---\nC\u200bD\n";
  deepEqual(findHiddenCharacters(text, { frontmatter: { name: "raw", description: "A\u200bB" } }), [
    {
      codePoint: "U+200B",
      name: "ZERO WIDTH SPACE",
      kind: "zero-width",
      count: 2,
      lines: [3, 5],
      fields: ["description"],
    },
  ]);
  // Body only: no field.
  deepEqual(findHiddenCharacters("x\u202ey")[0].fields, []);
});

Deno.test("hidden characters: control characters are reported; tab, LF and CRLF are not", () => {
  deepEqual(findHiddenCharacters("a\tb\r\nc\n"), []);
  const found = findHiddenCharacters("a\u001b[8mb\u0007c\rd\u009be\u007f");
  deepEqual(found.map((h) => [h.codePoint, h.name, h.kind]), [
    ["U+0007", "BELL", "control"],
    ["U+000D", "CARRIAGE RETURN", "control"],
    ["U+001B", "ESCAPE", "control"],
    ["U+007F", "DELETE", "control"],
    ["U+009B", "CONTROL SEQUENCE INTRODUCER", "control"],
  ]);
});

Deno.test("hidden characters: emoji joiners and flag tags stay allowed inside parsed values", () => {
  const flag = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}";
  const family = "\u{1F468}\u200D\u{1F469}";
  deepEqual(findHiddenCharacters("x", { frontmatter: { description: flag + family } }), []);
});

Deno.test("check CLI: --fail-on-hidden-characters fails the escaped file and names the field", async () => {
  await withTempDir(async (dir) => {
    await writeTree(dir, { "escaped/SKILL.md": ESCAPED });
    const gated = await runCli([
      "check",
      "--fail-on-hidden-characters",
      "--cwd",
      dir,
      "escaped/SKILL.md",
    ]);
    equal(gated.code, 1, gated.stdout + gated.stderr);
    match(gated.stdout, /^FAILED "escaped\/SKILL.md"/);
    match(
      gated.stdout,
      /Hidden characters: U\+202E RIGHT-TO-LEFT OVERRIDE, field "description" \(decoded from a YAML escape\) \(not allowed\)\n/,
    );
    match(gated.stdout, /Hidden characters: U\+001B ESCAPE, field "description"/);
    match(
      gated.stdout,
      /Hidden characters: U\+2066 LEFT-TO-RIGHT ISOLATE, field "metadata.author"/,
    );
    // Human output never carries the characters themselves.
    for (const ch of ["\u001b", "\u202e", "\u200b", "\u2066"]) ok(!gated.stdout.includes(ch));
    const json = await runCli([
      "check",
      "--fail-on-hidden-characters",
      "--json",
      "--cwd",
      dir,
      "escaped/SKILL.md",
    ]);
    equal(json.code, 1);
    const report = JSON.parse(json.stdout);
    equal(report.files[0].status, "failed");
    const codes = report.files[0].report.surface.hiddenCharacters.map(
      (h: { codePoint: string; fields: string[] }) => `${h.codePoint} ${h.fields.join(",")}`,
    );
    for (
      const expected of [
        "U+001B description",
        "U+200B description",
        "U+202E description",
        "U+E0000..U+E007F description",
      ]
    ) ok(codes.includes(expected), `${expected} missing from ${codes}`);
    // Without the gate the file still passes (strict parse is fine), but lists the findings.
    const plain = await runCli(["check", "--cwd", dir, "escaped/SKILL.md"]);
    equal(plain.code, 0);
    match(plain.stdout, /Hidden characters: U\+200B ZERO WIDTH SPACE, field "description"/);
  });
});

// ---------------------------------------------------------------------------
// 11. The author's opt-out fails closed

const OPT_OUT = "disable-model-invocation: true";

function lines(...parts: string[]): string {
  return parts.join("\n");
}

/** Opt-outs the strict splitter rejects, by variant name (also the directory and skill name). */
const SLOPPY: Record<string, string> = {
  "unclosed": lines("---", "name: unclosed", "description: Sloppy.", OPT_OUT, "", "SECRET-BODY"),
  "four-dashes": lines("---", "name: four-dashes", OPT_OUT, "----", "SECRET-BODY", ""),
  "blank-first": lines("", "---", "name: blank-first", OPT_OUT, "---", "SECRET-BODY", ""),
  "space-first": lines(" ---", "name: space-first", OPT_OUT, "---", "SECRET-BODY", ""),
  "cr-only": ["---", "name: cr-only", "description: Sloppy.", OPT_OUT, "---", "SECRET-BODY", ""]
    .join("\r"),
  "bom-blank": "\uFEFF" + lines("", "---", "name: bom-blank", OPT_OUT, "---", "SECRET-BODY", ""),
  "bom-cr": "\uFEFF" + ["---", "name: bom-cr", OPT_OUT, "---", "SECRET-BODY", ""].join("\r"),
  "key-in-body": lines(OPT_OUT, "", "# Deploy", "", "SECRET-BODY deploys production.", ""),
  "after-closer": lines(
    "---",
    "name: after-closer",
    "description: Late.",
    "---",
    OPT_OUT,
    "",
    "SECRET-BODY",
  ),
};

function parseOk(text: string, fallbackName: string, lenient = true): ParsedSkill {
  const result = parseSkillMarkdown(text, { fallbackName, lenient });
  if (!result.ok) throw new Error(`${fallbackName}: ${result.message}`);
  return result.skill;
}

Deno.test("opt-out: every sloppy variant parses leniently as not model-invocable, with a warning", () => {
  for (const [name, text] of Object.entries(SLOPPY)) {
    const skill = parseOk(text, name);
    equal(skill.invocation.modelInvocable, false, name);
    equal(skill.invocation.userInvocable, true, name);
    ok(
      skill.warnings.some((w) => w.includes('"disable-model-invocation"')),
      `${name}: ${skill.warnings}`,
    );
  }
});

Deno.test("opt-out: a strict parse never yields an invocable skill for the sloppy variants", () => {
  for (const [name, text] of Object.entries(SLOPPY)) {
    const result = parseSkillMarkdown(text, { fallbackName: name, lenient: false });
    ok(!result.ok || !result.skill.invocation.modelInvocable, name);
  }
});

Deno.test("opt-out: true values in any quoting and case, and the legacy keys", () => {
  const truthy = [
    "disable-model-invocation: true",
    "disable-model-invocation: True",
    "disable-model-invocation: TRUE",
    "disable-model-invocation: yes",
    "disable-model-invocation: on",
    'disable-model-invocation: "true"',
    "disable-model-invocation: 'True'",
    "disable-model-invocation:true",
    "disable-model-invocation: true # keep it to people",
    '"disable-model-invocation": true',
    "  disable-model-invocation: true",
    "\tdisable-model-invocation: yes",
    "disableModelInvocation: true",
    "modelInvocable: false",
    "modelInvocable: 'no'",
  ];
  for (const line of truthy) {
    equal(declaredOptOut(`---\nname: x\n${line}\n`), true, line);
    equal(parseOk(`---\nname: x\n${line}\n`, "x").invocation.modelInvocable, false, line);
  }
});

Deno.test("opt-out: false values, other keys and prose later in the body stay invocable", () => {
  const invocable: Record<string, string> = {
    "closed-false": lines(
      "---",
      "name: a",
      "description: d",
      "disable-model-invocation: false",
      "---",
      "Body.",
    ),
    "unclosed-false": lines("---", "name: a", "disable-model-invocation: false", "", "Body."),
    "legacy-true": lines(
      "---",
      "name: a",
      "description: d",
      "modelInvocable: true",
      "---",
      "Body.",
    ),
    "prose": lines("# Skills", "", "Set `disable-model-invocation: true` to hide a skill.", ""),
    "prose-after-heading": lines("# Skills", "", OPT_OUT, ""),
    "fenced": lines("```yaml", OPT_OUT, "```", "", "Use this skill.", ""),
    "other-key": lines(
      "---",
      "name: a",
      "description: d",
      "disable-model-invocation-x: true",
      "---",
      "B.",
    ),
    "value-prefix": lines("disable-model-invocation: trueish", "", "Body."),
  };
  for (const [name, text] of Object.entries(invocable)) {
    equal(declaredOptOut(text), false, name);
    equal(parseOk(text, "a").invocation.modelInvocable, true, name);
  }
  // The key deep in a long YAML-looking head is past the bounded scan.
  const long = Array.from({ length: 200 }, (_, i) => `k${i}: v`).join("\n") + `\n${OPT_OUT}\n`;
  equal(declaredOptOut(long), false);
});

Deno.test("opt-out: the scan is bounded (a huge one-line head answers at once)", () => {
  const huge = "a: " + "b".repeat(2_000_000) + "\n" + OPT_OUT + "\n";
  equal(declaredOptOut(huge), false);
  equal(declaredOptOut(":".repeat(100_000)), false);
});

// ---------------------------------------------------------------------------
// 11 end to end: the real MCP server and `list --json`

async function plantSloppy(box: Sandbox): Promise<void> {
  for (const [name, text] of Object.entries(SLOPPY)) await writeProjectSkill(box, name, text);
  await writeProjectSkill(
    box,
    "visible",
    lines(
      "---",
      "name: visible",
      "description: Visible skill.",
      "disable-model-invocation: false",
      "---",
      "Visible body.",
      "",
    ),
  );
}

Deno.test("opt-out end to end: the MCP server never lists, finds or opens a sloppy opt-out", async () => {
  await withSandbox(async (box) => {
    await plantSloppy(box);
    await withSession(box, "legacy", async (s) => {
      const listed = (await s.call("list_skills")) as ToolResult;
      const names = (listed.structuredContent?.skills as { name: string }[]).map((x) => x.name);
      deepEqual(names, ["visible"]);
      ok(!textOf(listed).includes("SECRET-BODY"));
      for (const name of Object.keys(SLOPPY)) {
        const found =
          (await s.call("find_skills", { query: name.replace("-", " ") })) as ToolResult;
        const matches = found.structuredContent?.matches as { name: string }[];
        ok(!matches.some((m) => m.name === name), name);
        const opened = (await s.call("open_skill", { name })) as ToolResult;
        equal(opened.isError, true, `${name}: ${textOf(opened)}`);
        match(textOf(opened), /disabled by its author/, name);
        ok(!textOf(opened).includes("SECRET-BODY"), name);
      }
      const visible = (await s.call("open_skill", { name: "visible" })) as ToolResult;
      ok(visible.isError !== true, textOf(visible));
    });
  });
});

Deno.test("opt-out end to end: list --json marks each sloppy opt-out with a warning", async () => {
  await withSandbox(async (box) => {
    await plantSloppy(box);
    const run = await cli(box, ["list", "--json"]);
    equal(run.code, 0, run.stderr);
    const skills = JSON.parse(run.stdout).skills as {
      name: string;
      path: string;
      warnings: string[];
    }[];
    for (const name of Object.keys(SLOPPY)) {
      const entry = skills.find((x) =>
        x.path === join(box.project, ".claude/skills", name, "SKILL.md")
      );
      ok(entry !== undefined, `${name} missing from list --json`);
      ok(
        entry.warnings.some((w) => /"disable-model-invocation".*not offered to the model/.test(w)),
        `${name}: ${entry.warnings}`,
      );
    }
    const visible = skills.find((x) => x.name === "visible");
    deepEqual(visible?.warnings ?? [], []);
  });
});
