// The dsh web card's pure rules (dsh/client/model.ts) and its two dictionaries
// (dsh/client/strings.ts); the card itself runs in a booted dsh in tests/dsh_card_test.ts.
import { deepEqual, equal } from "node:assert/strict";
import {
  excluded,
  hidden,
  matches,
  parseBudget,
  pinned,
  shown,
  unpinned,
} from "../dsh/client/model.ts";
import { fill, STRINGS } from "../dsh/client/strings.ts";

const pdf = { name: "pdf-forms", description: "Fill PDF forms", origin: "codex (user)" };

Deno.test("card filter: every whitespace-separated term, in name, description or origin", () => {
  equal(matches(pdf, ""), true);
  equal(matches(pdf, "   "), true);
  equal(matches(pdf, "PDF"), true);
  equal(matches(pdf, "fill codex"), true);
  equal(matches(pdf, "forms claude"), false);
  equal(matches(pdf, "(user)"), true);
  // A term is matched as text, never as a pattern.
  equal(matches(pdf, ".*"), false);
});

Deno.test("card budget: a whole number >= 0, empty is 0, anything else refused", () => {
  equal(parseBudget("12"), 12);
  equal(parseBudget(" 7 "), 7);
  equal(parseBudget(""), 0);
  equal(parseBudget("0"), 0);
  for (const text of ["-1", "1.5", "1e3", "two", "0x10", "1234567890", "Infinity"]) {
    equal(parseBudget(text), undefined, text);
  }
});

Deno.test("card buttons: pinning unhides, hiding unpins, lists sorted without repeats", () => {
  const catalog = { limit: 3, pin: ["b"], hide: ["c", "a"] };
  deepEqual(pinned(catalog, "a"), { limit: 3, pin: ["a", "b"], hide: ["c"] });
  deepEqual(pinned(catalog, "b"), { limit: 3, pin: ["b"], hide: ["a", "c"] });
  deepEqual(hidden(catalog, "b"), { limit: 3, pin: [], hide: ["a", "b", "c"] });
  deepEqual(unpinned(catalog, "b"), { limit: 3, pin: [], hide: ["c", "a"] });
  deepEqual(shown(catalog, "c"), { limit: 3, pin: ["b"], hide: ["a"] });
  deepEqual(excluded(["z", "x"], "y", true), ["x", "y", "z"]);
  deepEqual(excluded(["z", "x"], "x", true), ["x", "z"]);
  deepEqual(excluded(["z", "x"], "x", false), ["z"]);
});

Deno.test("card words: English and Chinese have the same keys and placeholders", () => {
  deepEqual(Object.keys(STRINGS.zh).sort(), Object.keys(STRINGS.en).sort());
  const holes = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  for (const key of Object.keys(STRINGS.en) as (keyof typeof STRINGS.en)[]) {
    deepEqual(holes(STRINGS.zh[key]), holes(STRINGS.en[key]), key);
  }
  equal(fill("{listed} of {total}", { listed: 2, total: 6 }), "2 of 6");
  equal(fill("{missing} stays", {}), "{missing} stays");
});
