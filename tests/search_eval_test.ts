/**
 * The search evaluation (issue 30): the committed natural queries over real public skills
 * (`testdata/search-eval/`, licences in its README.md), ranked by the one ranker and by a plain
 * BM25 baseline over name and description in the same run (`bench/search_eval.ts`). The ranker
 * must reach the committed floor (`queries.json`'s `floor`: MRR@5 and hit@3) and beat the
 * baseline on both figures. No timing is asserted; `deno task bench search` reports the figures.
 *
 * @module
 */
import { deepEqual, equal, ok } from "node:assert/strict";
import { baselineOf, evaluate, loadEval, rankerOf, score } from "../bench/search_eval.ts";

const data = loadEval();

Deno.test("search eval: the data is whole (40+ queries, every accepted id in the corpus, licences noted)", () => {
  ok(data.queries.length >= 40, `${data.queries.length} queries`);
  const ids = new Set(data.skills.map((s) => s.id));
  equal(ids.size, data.skills.length, "ids are unique");
  for (const q of data.queries) {
    ok(q.accept.length > 0, q.query);
    for (const id of q.accept) ok(ids.has(id), `${q.query}: ${id}`);
  }
  for (const s of data.skills) {
    ok(
      ["Apache-2.0", "MIT", "CC-BY-SA-4.0"].includes((s as { licence?: string }).licence ?? ""),
      s.id,
    );
    ok(s.excerpt.length <= 402, `${s.id}: the excerpt is short`);
  }
  ok(data.floor.mrr_at_5 >= 0.9 && data.floor.hit_at_3 >= 0.95, "the floor is the issue's target");
});

Deno.test("search eval: the ranker reaches the committed floor and beats plain BM25", () => {
  const { ranker, baseline } = evaluate(data);
  const misses = ranker.ranks.filter((r) => r.rank !== 1).map((r) => `${r.query} → ${r.top}`);
  ok(ranker.mrrAt5 >= data.floor.mrr_at_5, `MRR@5 ${ranker.mrrAt5}; ${misses.join("; ")}`);
  ok(ranker.hitAt3 >= data.floor.hit_at_3, `hit@3 ${ranker.hitAt3}; ${misses.join("; ")}`);
  ok(ranker.mrrAt5 > baseline.mrrAt5, `MRR@5 ${ranker.mrrAt5} vs baseline ${baseline.mrrAt5}`);
  ok(ranker.hitAt3 > baseline.hitAt3, `hit@3 ${ranker.hitAt3} vs baseline ${baseline.hitAt3}`);
});

Deno.test("search eval: MRR@5 and hit@3 as defined, and both rankers deterministic", () => {
  const queries = [
    { query: "a", accept: ["x"] },
    { query: "b", accept: ["y"] },
    { query: "c", accept: ["z"] },
    { query: "d", accept: ["w"] },
  ];
  const tops: Record<string, string[]> = {
    a: ["x"],
    b: ["q", "y"],
    c: ["q", "q", "q", "z"],
    d: ["q", "q", "q", "q", "q", "w"],
  };
  const s = score(queries, (q) => tops[q]);
  deepEqual(s.ranks.map((r) => r.rank), [1, 2, 4, 0]);
  equal(s.mrrAt5, (1 + 1 / 2 + 1 / 4 + 0) / 4);
  equal(s.hitAt3, 2 / 4);
  const reversed = [...data.skills].reverse();
  for (const q of data.queries.slice(0, 10)) {
    deepEqual(rankerOf(reversed)(q.query), rankerOf(data.skills)(q.query), q.query);
    deepEqual(baselineOf(data.skills)(q.query), baselineOf(data.skills)(q.query), q.query);
  }
});
