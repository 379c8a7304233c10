/// <reference lib="dom" />
/**
 * The page's entry, bundled by `web/build.ts` into one classic script (so the
 * page also works opened from `file://`): reads the example pair that the
 * build recorded into the page and wires every section.
 *
 * @example
 * ```ts
 * // <script src="page.js" defer></script> in web/dist/index.html
 * ```
 * @module
 */
import { type ExamplePair, setupCompare } from "./compare.ts";
import { setupCheck } from "./check.ts";
import { byId } from "./dom.ts";
import { setupExplorer } from "./explorer.ts";
import { setupResources } from "./resources.ts";

function examplePair(): ExamplePair {
  const data = JSON.parse(byId("example-pair").textContent ?? "");
  if (
    typeof data?.name !== "string" || typeof data?.reviewed !== "string" ||
    typeof data?.current !== "string"
  ) {
    throw new Error("The page's example pair is missing; rebuild it with deno task build:web");
  }
  return data as ExamplePair;
}

setupCompare(examplePair());
setupCheck();
setupExplorer();
setupResources();
