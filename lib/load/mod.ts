/**
 * Opening one skill for a consumer (the MCP server now, dsh later): a fresh
 * bounded read, the author's opt-out read from disk again, the reviewer's
 * pins (`expected_sha256`, `expected_bundle_sha256`,
 * `expected_source_commit`), the rendered text and a load receipt. No MCP
 * here. Failures never carry instruction text.
 *
 * Checks run in this order: read and parse (or read the whole bundle and take
 * SKILL.md from the same bytes), author opt-out, SKILL.md digest, bundle
 * digest, source commit. A later check never runs when an earlier one failed,
 * so a rejected digest never runs git.
 *
 * @example
 * ```ts
 * import { openSkill } from "./mod.ts";
 * const result = await openSkill({
 *   name: "pdf",
 *   path: "/home/me/.claude/skills/pdf/SKILL.md",
 *   directory: "/home/me/.claude/skills/pdf",
 *   source: "anywhere-user",
 *   origin: { kind: "agent", agent: "claude-code", scope: "user" },
 * }, { lenient: true, expectedSha256: "0".repeat(64) });
 * if (result.ok) console.log(result.skill.text);
 * ```
 * @module
 */
import { createHash, randomUUID } from "node:crypto";
import { basename } from "node:path";
import { BundleError, type BundleManifest } from "../bundle/manifest.ts";
import { readBundle } from "../bundle/read.ts";
import type { Origin } from "../catalog/origin.ts";
import { ReadError } from "../fs/mod.ts";
import { type FreshRead, parseSkillBytes, readSkillNow, staysInside } from "./fresh.ts";
import { TOOL_NAME, VERSION } from "../version.ts";
import { renderSkill } from "./render.ts";
import { type SourceCommit, sourceCommit } from "./source_commit.ts";

export { renderSkill } from "./render.ts";

/** The catalog facts a load starts from. */
export interface LoadTarget {
  /** The published name (after collision renaming). */
  name: string;
  /** Absolute path of the Markdown file. */
  path: string;
  /** The skill directory. */
  directory: string;
  /** dsh source label, such as `anywhere-user`. */
  source: string;
  origin: Origin;
  /** The real directory no link may leave (the discovered skill's boundary, when it has one). */
  confineTo?: string;
}

/** Options of {@linkcode openSkill}. */
export interface OpenOptions {
  /** Parse leniently (the catalog's setting). */
  lenient: boolean;
  /** Inspect the whole skill directory and return its manifest. */
  includeBundle?: boolean;
  /** Refuse unless SKILL.md's bytes hash to this (64 lowercase hex). */
  expectedSha256?: string;
  /** Refuse unless the directory's bundle digest is this (implies `includeBundle`). */
  expectedBundleSha256?: string;
  /**
   * Refuse unless the skill's Git checkout is provably at this commit (40 lowercase hex):
   * its own git dir says so and no file under the skill differs from that commit.
   */
  expectedSourceCommit?: string;
  /** Look up `source_commit` for the receipt (Git-source skills only). */
  sourceCommit?: { cacheDir: string; warn?: (message: string) => void };
}

/** The `skills-anywhere-load-1` receipt: what was loaded, never the text itself. */
export interface LoadReceipt {
  schema: "skills-anywhere-load-1";
  load_id: string;
  loaded_at: string;
  provider: string;
  provider_version: string;
  name: string;
  skill_sha256: string;
  content_sha256: string;
  bundle_sha256: string | null;
  declared_tools: string[] | null;
  permissions_enforced: false;
  source_commit?: string | null;
}

/** A successful load. */
export interface LoadedSkill {
  name: string;
  description: string;
  directory: string;
  path: string;
  source: string;
  /** The instructions (body without frontmatter). */
  content: string;
  /** SHA-256 of SKILL.md's original bytes (frontmatter and BOM included). */
  sha256: string;
  declared_tools?: string[];
  bundle?: BundleManifest;
  receipt: LoadReceipt;
  /** The rendered text an agent reads. */
  text: string;
}

/** Why a load was refused. */
export type LoadFailure =
  | "unreadable"
  | "disabled"
  | "sha-mismatch"
  | "bundle-mismatch"
  | "bundle-invalid"
  | "not-git"
  | "commit-unproven"
  | "commit-mismatch";

/** The outcome of {@linkcode openSkill}. */
export type LoadResult =
  | { ok: true; skill: LoadedSkill }
  | { ok: false; failure: LoadFailure; error: string };

function sha256Hex(bytes: Uint8Array | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function refuse(failure: LoadFailure, error: string): LoadResult {
  return { ok: false, failure, error };
}

/** The message for an author opt-out (shared by every consumer). */
export function disabledMessage(name: string): string {
  return `skill "${name}" is not available for model invocation (disabled by its author)`;
}

/**
 * The one commit probe of a load: `undefined` for a skill that is not from a
 * Git source, else the proven commit of its checkout or why there is none.
 */
async function provenCommit(
  target: LoadTarget,
  lookup: OpenOptions["sourceCommit"],
): Promise<SourceCommit | undefined> {
  const origin = target.origin;
  if (origin.kind !== "source") return undefined;
  if (lookup === undefined) {
    return { ok: false, kind: "missing", reason: "no source cache is configured" };
  }
  if (origin.checkout === undefined) {
    return { ok: false, kind: "missing", reason: "the checkout of the source is not known" };
  }
  return await sourceCommit(target.directory, {
    checkout: origin.checkout,
    cacheDir: lookup.cacheDir,
  });
}

/** Opens one skill; see the module doc for the order of checks. Never throws for bad files. */
export async function openSkill(target: LoadTarget, options: OpenOptions): Promise<LoadResult> {
  const { name, path, directory } = target;
  const unreadable = () => refuse("unreadable", `skill "${name}" is no longer readable at ${path}`);
  const wantBundle = options.includeBundle === true || options.expectedBundleSha256 !== undefined;
  let now: FreshRead;
  let bundle: BundleManifest | undefined;
  const parse = { fallbackName: name, lenient: options.lenient, confineTo: target.confineTo };
  if (wantBundle) {
    if (basename(path) !== "SKILL.md") {
      return refuse(
        "bundle-invalid",
        `skill "${name}" is a single Markdown file, not a SKILL.md directory; it has no bundle`,
      );
    }
    if (!staysInside(directory, target.confineTo)) return unreadable();
    try {
      const read = await readBundle(directory);
      bundle = read.manifest;
      now = parseSkillBytes(read.skillBytes, parse);
    } catch (error) {
      if (error instanceof BundleError) return refuse("bundle-invalid", error.message);
      throw error;
    }
  } else {
    try {
      now = readSkillNow(path, parse);
    } catch (error) {
      if (error instanceof ReadError) return unreadable();
      throw error;
    }
  }
  if (now.status !== "ok") return unreadable();
  const { skill, bytes } = now;
  if (!skill.invocation.modelInvocable) return refuse("disabled", disabledMessage(name));
  const sha256 = sha256Hex(bytes);
  if (options.expectedSha256 !== undefined && options.expectedSha256 !== sha256) {
    return refuse(
      "sha-mismatch",
      "SKILL.md changed: expected_sha256 does not match; review the current file before loading instructions",
    );
  }
  if (
    options.expectedBundleSha256 !== undefined && options.expectedBundleSha256 !== bundle?.sha256
  ) {
    return refuse(
      "bundle-mismatch",
      "Skill bundle changed: expected_bundle_sha256 does not match; review scripts and resources before loading instructions",
    );
  }
  let commit: string | null | undefined;
  const expected = options.expectedSourceCommit;
  if (expected !== undefined || options.sourceCommit !== undefined) {
    const probe = await provenCommit(target, options.sourceCommit);
    if (probe === undefined) {
      if (expected !== undefined) {
        return refuse(
          "not-git",
          `skill "${name}" is not from a Git source; expected_source_commit cannot be checked`,
        );
      }
      commit = null;
    } else if (!probe.ok) {
      options.sourceCommit?.warn?.(
        `skills-anywhere: source commit unavailable for ${name}: ${probe.reason}`,
      );
      if (expected !== undefined) {
        return refuse(
          "commit-unproven",
          `the Git source commit of "${name}" could not be proven: ${probe.reason}`,
        );
      }
      commit = null;
    } else if (expected !== undefined && probe.commit !== expected) {
      return refuse(
        "commit-mismatch",
        `Git source commit changed for "${name}": expected ${expected}, found ${probe.commit}`,
      );
    } else {
      commit = probe.commit;
    }
  }
  const tools = Array.isArray(skill.metadata.allowedTools)
    ? [...(skill.metadata.allowedTools as string[])]
    : [];
  const receipt: LoadReceipt = {
    schema: "skills-anywhere-load-1",
    load_id: randomUUID(),
    loaded_at: new Date().toISOString(),
    provider: TOOL_NAME,
    provider_version: VERSION,
    name,
    skill_sha256: sha256,
    content_sha256: sha256Hex(skill.content),
    bundle_sha256: bundle?.sha256 ?? null,
    declared_tools: tools.length > 0 ? [...tools] : null,
    permissions_enforced: false,
  };
  if (commit !== undefined) receipt.source_commit = commit;
  const loaded: LoadedSkill = {
    name,
    description: skill.description,
    directory,
    path,
    source: target.source,
    content: skill.content,
    sha256,
    receipt,
    text: renderSkill({ name, directory, content: skill.content, declaredTools: tools }),
  };
  if (tools.length > 0) loaded.declared_tools = tools;
  if (bundle !== undefined) loaded.bundle = bundle;
  return { ok: true, skill: loaded };
}
