// What the catalog's discovery tests share: a flat root of an agent folder.
import type { Origin } from "../lib/catalog/_origin.ts";
import type { Root } from "../lib/catalog/_roots.ts";

/** A flat root (`<name>/SKILL.md` and `<name>.md`) of a user's (rank ≥ 500) or a project's agent folder. */
export function flatRoot(path: string, rank: number, origin: Origin): Root {
  return {
    path,
    mode: "flat",
    source: rank < 500 ? "anywhere-project" : "anywhere-user",
    rank,
    origin,
    label: "test",
    maxDepth: 1,
  };
}
