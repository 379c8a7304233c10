/**
 * Helpers of the push tests (`mcp_push_test.ts`, `mcp_balancer_test.ts`): a counter of the
 * notifications a real SDK client received, and the add, edit, remove sequence that each must be
 * told about. Waits are bounded (hang guards), never timed assertions.
 *
 * @module
 */
import { join } from "node:path";
import { settlesWithin } from "./helpers.ts";
import { type Sandbox, skillMd, writeProjectSkill } from "./mcp_helpers.ts";

/** Generous upper bound for a notification to arrive (a hang guard, not a timed assertion). */
export const HANG = 10_000;

/** Counts the notifications a client received and lets a test wait for the next one. */
export class Notes {
  #count = 0;
  #waiters: (() => void)[] = [];

  /** The handler to give the client. */
  readonly heard = (): void => {
    this.#count++;
    for (const wake of this.#waiters.splice(0)) wake();
  };

  /** How many arrived so far. */
  get count(): number {
    return this.#count;
  }

  /** Resolves once more than `seen` arrived (fails after {@linkcode HANG}). */
  async after(seen: number, what: string): Promise<void> {
    const arrived = (async () => {
      while (this.#count <= seen) await new Promise<void>((wake) => this.#waiters.push(wake));
    })();
    await settlesWithin(arrived, HANG).catch((error) => {
      throw new Error(`no list_changed after ${what}: ${error.message}`);
    });
  }
}

/** Writes `path` in one rename, so an edit is one change (never a half-written file). */
async function replace(path: string, text: string): Promise<void> {
  const temp = `${path}.tmp-${crypto.randomUUID()}`;
  await Deno.writeTextFile(temp, text);
  await Deno.rename(temp, path);
}

/** Adds, edits and removes a skill, waiting after each for one more notification. */
export async function addEditRemove(box: Sandbox, notes: Notes, name = "pushed"): Promise<void> {
  let seen = notes.count;
  const dir = await writeProjectSkill(box, name, skillMd(name, "Added while idle.", "A"));
  await notes.after(seen, "an add");
  seen = notes.count;
  await replace(join(dir, "SKILL.md"), skillMd(name, "Edited while idle.", "B"));
  await notes.after(seen, "an edit");
  seen = notes.count;
  await Deno.remove(dir, { recursive: true });
  await notes.after(seen, "a removal");
}
