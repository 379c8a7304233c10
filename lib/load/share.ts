/**
 * Whether one skill can be shared as a directory of files with per-file
 * digests, and its files if so: a `SKILL.md` directory (not a flat file)
 * that stays inside its boundary, that the bundle reader accepts (no links,
 * regular files only, at most 512 files), and whose files together stay
 * within {@linkcode MAX_SHARED_SKILL_BYTES}, and whose `SKILL.md`, parsed
 * from the bytes just read, still lets the model invoke it (the author's
 * opt-out is read fresh, never taken from the catalog). The files come from one bundle
 * read, so they are exactly the rows a bundle of that directory reports.
 *
 * @example
 * ```ts
 * import { readShareable } from "./share.ts";
 * import type { DiscoveredSkill } from "../catalog/discover.ts";
 * declare const skill: DiscoveredSkill;
 * const shared = await readShareable(skill);
 * if (!shared.ok) console.log(shared.kind, shared.message);
 * ```
 * @module
 */
import { basename } from "node:path";
import type { BundleFile } from "../bundle/manifest.ts";
import { BundleError } from "../bundle/manifest.ts";
import type { DigestCache } from "../bundle/digests.ts";
import { readBundle } from "../bundle/read.ts";
import type { DiscoveredSkill } from "../catalog/discover.ts";
import { type Failure, failure } from "../errors.ts";
import { formatBytes, MAX_SHARED_SKILL_BYTES } from "../limits.ts";
import { parseSkillBytes, staysInside } from "./fresh.ts";

/** Why a skill cannot be shared. `too-many-files` and `too-large` are the size limits. */
export type ShareRefusal =
  | "flat-file"
  | "outside"
  | "too-many-files"
  | "too-large"
  | "bundle"
  | "invalid"
  | "disabled";

/** A skill that can be shared: its directory's files, their bundle digest and its SKILL.md bytes. */
export interface Shareable {
  ok: true;
  files: BundleFile[];
  bundleSha256: string;
  skillBytes: Uint8Array<ArrayBuffer>;
}

/**
 * Reads `skill`'s directory as a bundle (through `options.digests` when given), checks the
 * sharing limits and the author's opt-out (parsing leniently with `options.lenient`); see the
 * module doc.
 *
 * @example
 * ```ts
 * import { readShareable } from "./share.ts";
 * import { DigestCache } from "../bundle/digests.ts";
 * import type { DiscoveredSkill } from "../catalog/discover.ts";
 * declare const skill: DiscoveredSkill;
 * const shared = await readShareable(skill, { digests: new DigestCache() });
 * if (shared.ok) console.log(shared.files.length);
 * ```
 */
export async function readShareable(
  skill: DiscoveredSkill,
  options: { digests?: DigestCache; lenient?: boolean } = {},
): Promise<Shareable | Failure<ShareRefusal>> {
  if (basename(skill.path) !== "SKILL.md") {
    return failure("flat-file", "a single Markdown file, not a SKILL.md directory");
  }
  if (!staysInside(skill.directory, skill.confineTo)) {
    return failure("outside", "the skill folder leaves its boundary");
  }
  try {
    const { manifest, skillBytes } = await readBundle(skill.directory, options);
    const now = parseSkillBytes(skillBytes, {
      fallbackName: skill.renamedFrom ?? skill.name,
      lenient: options.lenient ?? false,
    });
    if (!now.ok) return now;
    if (!now.skill.invocation.modelInvocable) {
      return failure("disabled", "its author disabled model invocation");
    }
    const total = manifest.files.reduce((sum, file) => sum + file.bytes, 0);
    if (total > MAX_SHARED_SKILL_BYTES) {
      return failure(
        "too-large",
        `its files hold ${total} bytes, over the ${formatBytes(MAX_SHARED_SKILL_BYTES)} limit`,
      );
    }
    return { ok: true, files: manifest.files, bundleSha256: manifest.sha256, skillBytes };
  } catch (error) {
    if (!(error instanceof BundleError)) throw error;
    const kind = error.kind === "too-many-files" || error.kind === "too-large"
      ? error.kind
      : "bundle";
    return failure(kind, error.message.replace(/\.$/, ""));
  }
}
