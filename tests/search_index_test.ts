/**
 * The search index (`SearchIndex` in `lib/catalog/_search.ts`, issue 29): on the search-eval corpus
 * (`testdata/search-eval/`, see tests/search_eval_test.ts) every query and its variants (prefixes,
 * fallback prefixes, phrases, stop words) rank exactly as `searchSkills` ranks them over the same
 * skills and bodies, for every list the index is brought to (reordered, a subset, the same object
 * twice, bodies missing, camelCase names, `whenToUse`, `source` and `provider`). Bodies are read
 * only for skills new to the index (counted through the `bodyOf` passed); an edited skill (a new
 * object) is indexed again and an unchanged one is not (nor, with a version key, an unchanged one
 * handed over as a new object); removed skills and their words disappear.
 * `findSkills` with an index gives what it gives without one, `total` counting the matches; the MCP
 * server's `find_skills` (real SDK client, real server child) answers from its index as skills
 * are added and removed. No timing is asserted (`deno task bench search` reports the figures).
 *
 * @module
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { type SearchableSkill, SearchIndex, searchSkills } from "../lib/catalog/_search.ts";
import { findLimits, findSkills } from "../lib/load/_find.ts";
import { type EvalSkill, loadEval } from "../bench/search_eval.ts";
import { skillMd, withSandbox, writeTree } from "./helpers.ts";
import { CATALOG_BOX } from "./catalog_cli_helpers.ts";
import { textOf, withSession } from "./mcp_helpers.ts";

const data = loadEval();

/** A skill of the corpus with the optional fields the ranker reads. */
interface Skill extends SearchableSkill {
  id: string;
  body?: string;
}

const corpus: Skill[] = data.skills.map((s: EvalSkill) => ({
  id: s.id,
  name: s.name,
  description: s.description,
  body: s.excerpt,
}));

const bodyOf = (s: Skill) => s.body;

/** The committed queries and, per query, variants that take every path of the ranker. */
function queries(): string[] {
  const out = new Set<string>(["the and", "a", "pl", "playwr", "auth*", '"pull request"', "oed"]);
  for (const { query } of data.queries) {
    out.add(query);
    const words = query.split(/\s+/).filter((w) => w.length > 0);
    out.add(words.map((w) => (w.length > 3 ? `${w.slice(0, 3)}*` : w)).join(" "));
    out.add(words.map((w) => (w.length > 5 ? w.slice(0, w.length - 2) : w)).join(" "));
    if (words.length >= 2) out.add(`"${words[0]} ${words[1]}" ${words.slice(2).join(" ")}`);
    if (words.length >= 3) out.add(`${words[0]} "${words.slice(1).join(" ")}"`);
  }
  return [...out];
}

/** The committed queries, a phrase, a prefix, a fallback prefix and stop words. */
const SHORT = [...data.queries.map((q) => q.query), '"pull request"', "auth*", "playwr", "the and"];

/**
 * Asserts the index ranks every query as `searchSkills` does over `skills`, at each limit (a
 * limit's result is the first that many of the whole ranking, as `searchSkills` cuts it).
 */
function sameRanking(
  index: SearchIndex<Skill>,
  skills: readonly Skill[],
  limits: number[],
  asked: readonly string[] = SHORT,
) {
  for (const query of asked) {
    const all = searchSkills(skills, query, skills.length, { body: bodyOf });
    deepEqual(index.search(query, skills.length), all, query);
    for (const limit of limits) {
      deepEqual(index.search(query, limit), all.slice(0, limit), `${query} (limit ${limit})`);
      equal(index.rank(query, limit).total, all.length, `${query}: total`);
    }
  }
}

Deno.test("search index: every eval query and its variants rank exactly as searchSkills", () => {
  const index = new SearchIndex<Skill>();
  index.update(corpus, bodyOf);
  equal(index.size, corpus.length);
  ok(queries().length > 300, `${queries().length} queries`);
  sameRanking(index, corpus, [10, 3], queries());
});

Deno.test("search index: the same over any list: reordered, a subset, one object twice, optional fields, bodies missing", () => {
  const varied: Skill[] = corpus.map((s, i) => ({
    ...s,
    // camelCase humps are words of a name; whenToUse, source and provider are fields of their own.
    name: i % 7 === 0 ? s.name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()) : s.name,
    whenToUse: i % 3 === 0 ? s.body?.slice(0, 120) : undefined,
    source: i % 4 === 0 ? "github.com/acme/skills" : undefined,
    provider: i % 5 === 0 ? "claude-code" : undefined,
    body: i % 6 === 0 ? undefined : i % 11 === 0 ? "" : s.body,
  }));
  const index = new SearchIndex<Skill>();
  index.update(varied, bodyOf);
  sameRanking(index, varied, [5]);
  const reordered = [...varied].reverse();
  index.update(reordered, bodyOf);
  sameRanking(index, reordered, [8]);
  const subset = varied.filter((_, i) => i % 2 === 0);
  index.update(subset, bodyOf);
  equal(index.size, subset.length);
  sameRanking(index, subset, []);
  const twice = [...subset, subset[0], subset[3]];
  index.update(twice, bodyOf);
  equal(index.size, subset.length, "one entry per object");
  sameRanking(index, twice, [7]);
});

Deno.test("search index: bodies read once per skill object; an edited skill is indexed again, a removed one is gone", () => {
  const reads: string[] = [];
  const counted = (s: Skill) => {
    reads.push(s.id);
    return s.body;
  };
  const index = new SearchIndex<Skill>();
  index.update(corpus, counted);
  equal(reads.length, corpus.length, "every body read once");
  const words = index.words;
  reads.length = 0;
  index.update(corpus, counted);
  index.update([...corpus], counted);
  deepEqual(reads, [], "an unchanged list reads nothing");

  // The catalog hands over a new object for a skill that changed: only that one is read.
  const edited = corpus.map((s) => s);
  const at = 17;
  edited[at] = { ...corpus[at], body: "Zebrafish imaging and quokka census." };
  index.update(edited, counted);
  deepEqual(reads, [corpus[at].id]);
  deepEqual(index.search("zebrafish", 5).map((m) => m.skill), [edited[at]]);
  deepEqual(index.search("quokka", 5), searchSkills(edited, "quokka", 5, { body: bodyOf }));
  for (const query of [corpus[at].name, corpus[at].body ?? ""]) {
    const found = index.search(query, corpus.length).map((m) => m.skill);
    ok(!found.includes(corpus[at]), "the skill as it was is no longer searched");
  }
  sameRanking(index, edited, [10]);

  // Removed skills disappear, and so do the words only they had.
  reads.length = 0;
  const removed = edited.filter((_, i) => i !== at && i % 10 !== 0);
  index.update(removed, counted);
  deepEqual(reads, [], "removing reads nothing");
  equal(index.size, removed.length);
  deepEqual(index.search("zebrafish quokka", 5), []);
  ok(index.words < words, `${index.words} words, ${words} before`);
  for (const s of edited.filter((_, i) => i === at || i % 10 === 0)) {
    ok(!index.search(s.name, removed.length).some((m) => m.skill === s), s.name);
  }
  sameRanking(index, removed, []);
  index.update([], counted);
  equal(index.size, 0);
  equal(index.words, 0, "an empty index holds no words");
  deepEqual(index.search("pdf", 5), []);
});

Deno.test("search index: with a key, a new object for an unchanged skill is taken as it, a changed key is read", async () => {
  let reads = 0;
  const counted = (s: Skill) => (reads++, s.body);
  const key = (s: Skill) => JSON.stringify([s.id, s.name, s.description, s.body]);
  const index = new SearchIndex<Skill>();
  index.update(corpus, counted, { key });
  reads = 0;
  // A catalog that rescans hands over new objects for every skill, most of them unchanged.
  const rescanned = corpus.map((s) => ({ ...s }));
  rescanned[5] = { ...rescanned[5], body: "Zebrafish imaging." };
  await index.updateAsync(rescanned, counted, { key });
  equal(reads, 1, "only the changed skill is read");
  equal(index.size, corpus.length);
  ok(rescanned.every((s) => index.has(s)) && !corpus.some((s) => index.has(s)));
  deepEqual(index.search("zebrafish", 3).map((m) => m.skill), [rescanned[5]]);
  sameRanking(index, rescanned, [10]);
  reads = 0;
  index.update(rescanned, counted);
  equal(reads, 0);
});

Deno.test("search index: concurrent asynchronous updates read each body once and let the event loop run", async () => {
  let reads = 0;
  const slow = async (s: Skill) => {
    reads++;
    await Promise.resolve();
    return s.body;
  };
  const index = new SearchIndex<Skill>();
  let timerRan = false;
  setTimeout(() => (timerRan = true), 0);
  await Promise.all([
    index.updateAsync(corpus, slow, { yieldEvery: 20 }),
    index.updateAsync(corpus, slow, { yieldEvery: 20 }),
  ]);
  ok(timerRan, "a timer queued before the update ran during it");
  equal(reads, corpus.length);
  sameRanking(index, corpus, [10]);
});

Deno.test("findSkills with an index: the result without one, total counting matches, bodies read once", async () => {
  const limits = findLimits(5, 50);
  let reads = 0;
  const body = (s: Skill) => (reads++, Promise.resolve(s.body));
  const index = new SearchIndex<Skill>();
  const openable = (s: Skill) => !s.name.includes("test");
  for (const { query } of data.queries.slice(0, 20)) {
    const plain = await findSkills(corpus, { query }, { limits, body });
    const indexed = await findSkills(corpus, { query }, { limits, body, index });
    deepEqual(indexed, plain, query);
    const all = searchSkills(corpus, query, corpus.length, { body: bodyOf });
    equal(indexed.ok && indexed.total, all.length, `${query}: total is the number of matches`);
    deepEqual(
      await findSkills(corpus, { query, limit: 50 }, { limits, body, index, openable }),
      await findSkills(corpus, { query, limit: 50 }, { limits, body, openable }),
      `${query}, openable only`,
    );
  }
  reads = 0;
  await findSkills(corpus, { query: "pdf" }, { limits, body, index });
  equal(reads, 0, "an indexed search reads no body it has");
});

Deno.test("MCP find_skills (real SDK client) answers from its index: skills added are found by their instructions, removed ones are not", async () => {
  await withSandbox(async (box) => {
    await writeTree(box.home, {
      ".claude/skills/charts/SKILL.md": skillMd("charts", "Draw charts.", "Plot bar charts."),
      ".claude/skills/notes/SKILL.md": skillMd("notes", "Take notes.", "Write meeting notes."),
    });
    await withSession(box, "auto", async (session) => {
      const first = await session.call("find_skills", { query: "meeting" });
      deepEqual(first.structuredContent, {
        total: 1,
        matches: [{ name: "notes", description: "Take notes.", source: "claude-code (user)" }],
      });
      await writeTree(box.home, {
        ".claude/skills/zebra/SKILL.md": skillMd("zebra", "Count animals.", "Zebrafish census."),
      });
      const added = await session.call("find_skills", { query: "zebrafish" });
      ok(!added.isError, textOf(added));
      deepEqual(
        (added.structuredContent as { matches: { name: string }[] }).matches.map((m) => m.name),
        ["zebra"],
      );
      await rm(join(box.home, ".claude/skills/notes"), { recursive: true });
      const gone = await session.call("find_skills", { query: "meeting notes" });
      deepEqual(gone.structuredContent, { total: 0, matches: [] });
      ok(textOf(gone).includes("2 skills searched"), textOf(gone));
    });
  }, CATALOG_BOX);
});
