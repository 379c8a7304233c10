/**
 * `lockLines` (lib/lock/_lines.ts): the line of each locked skill and source in the lock's text,
 * for the canonical text `serialiseLock` writes, a hand-formatted lock, names that need JSON
 * escapes, members in another order, and text that is not JSON.
 *
 * @module
 */
import { deepEqual, equal } from "node:assert/strict";
import { serialiseLock } from "../lib/lock/_format.ts";
import { lockLines } from "../lib/lock/_lines.ts";

/** The line of `needle` in `text`, found by the test. */
function lineOf(text: string, needle: string): number {
  return text.split("\n").findIndex((line) => line.includes(needle)) + 1;
}

Deno.test("lockLines: each skill's name line and each source's key line in the canonical text", () => {
  const skill = (name: string) => ({
    name,
    origin: { kind: "project" },
    path: `.claude/skills/${name}`,
    skill_sha256: "0".repeat(64),
    bundle_sha256: null,
    files: [],
  });
  const text = serialiseLock({
    schema: "skills-anywhere-lock-1",
    // deno-lint-ignore no-explicit-any
    skills: [skill("excel"), skill('we"ird\\name')] as any,
    sources: [{ key: "o/r", url: "https://example.com/o/r", ref: null, commit: null }],
  });
  const lines = lockLines(text);
  deepEqual([...lines.skills.keys()], ["excel", 'we"ird\\name']);
  equal(lines.skills.get("excel"), lineOf(text, '"name": "excel"'));
  equal(lines.skills.get('we"ird\\name'), lineOf(text, '"name": "we\\"ird\\\\name"'));
  equal(lines.sources.get("o/r"), lineOf(text, '"key": "o/r"'));
});

Deno.test("lockLines: any formatting and member order; a name elsewhere is not an entry; a fault keeps what came before", () => {
  const text = '{"sources": [{"url": "x", "key": "a/b"}], "signers": {"name": "no"},\n' +
    ' "skills": [\n  {"files": [{"path": "name", "n": [1, true, null]}],\n   "name": "pdf"}]}';
  const lines = lockLines(text);
  deepEqual([...lines.skills], [["pdf", 4]]);
  deepEqual([...lines.sources], [["a/b", 1]]);
  const broken = lockLines('{"skills": [{"name": "one"}, {"name": "two"');
  deepEqual([...broken.skills.keys()], ["one", "two"]);
  deepEqual([...lockLines("not json").skills], []);
  deepEqual([...lockLines("").sources], []);
});
