// "Did you mean": the distance (with swaps), the closeness rule, order and ties.
import { deepEqual, equal } from "node:assert/strict";
import { closest, didYouMean, editDistance, suggestion } from "../lib/text.ts";

Deno.test("editDistance counts insertions, deletions, substitutions and neighbour swaps as 1", () => {
  equal(editDistance("list", "list"), 0);
  equal(editDistance("lsit", "list"), 1);
  equal(editDistance("--jsn", "--json"), 1);
  equal(editDistance("bundel", "bundle"), 1);
  equal(editDistance("kitten", "sitting"), 3);
  equal(editDistance("", "abc"), 3);
  equal(editDistance("abcdefgh", "zzzzzzzz", 2), 3, "stops past the limit");
});

Deno.test("closest: within a third of the length, or a prefix of three or more; closest first", () => {
  const commands = [
    "list",
    "agents",
    "doctor",
    "sources",
    "add",
    "remove",
    "sync",
    "search",
    "show",
  ];
  deepEqual(closest("lsit", commands), ["list"]);
  deepEqual(closest("serch", commands), ["search"]);
  deepEqual(closest("sorces", commands), ["sources"]);
  deepEqual(closest("zzz", commands), []);
  deepEqual(closest("ad", commands), ["add"]);
  deepEqual(closest("LIST", commands), ["list"], "case does not matter");
  deepEqual(closest("--res", ["--resources", "--ref", "--rank"]), ["--ref", "--resources"]);
  deepEqual(closest("pdf", ["pdf-forms", "docx", "pdf"]), ["pdf", "pdf-forms"]);
  equal(closest("a", ["b", "c", "d", "e"], 2).length, 2, "at most max");
});

Deno.test("didYouMean: the closest candidates as one aside, shown as the caller says, or nothing", () => {
  equal(didYouMean("lsit", ["list", "show"]), " (did you mean list?)");
  equal(
    didYouMean("pdf-form", ["pdf-forms", "pdf-form-x", "docx"], { show: (n) => `"${n}"` }),
    ' (did you mean "pdf-forms" or "pdf-form-x"?)',
  );
  equal(
    didYouMean("--jsn", ["--json", "--js", "--jsonl"], { max: 2 }),
    " (did you mean --json or --js?)",
  );
  equal(didYouMean("zzz", ["list"]), "");
  equal(
    didYouMean("dmeo", ["demo", "other"], { max: 1, form: "sentence", show: (n) => `skills/${n}` }),
    " Did you mean skills/demo?",
  );
});

Deno.test("suggestion: one wording for every did-you-mean, aside or sentence", () => {
  equal(suggestion(['"a"', '"b"']), ' (did you mean "a" or "b"?)');
  equal(suggestion(["notes/SKILL.md"], "sentence"), " Did you mean notes/SKILL.md?");
  equal(suggestion([]), "");
  equal(suggestion([], "sentence"), "");
});
