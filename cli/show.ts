/**
 * The `show` command: one skill as a model would get it from `open_skill`
 * (its name, description, origin, path, SHA-256 of SKILL.md and of the
 * bundle, declared tools, invocation flags, then the instructions), read
 * fresh with the same checks (`openSkill`), so a file that changed into
 * something unreadable since it was listed is refused, never shown wrong.
 * A skill its author keeps from the model is still shown, marked; so is a
 * renamed one (`renamed_because`, as `list --json` says it: `locked` when the
 * project's lock keeps its declared name for another skill). Every
 * string from the skill is escaped for the terminal, except with `--raw`,
 * which prints the file's bytes as they are.
 *
 * @example
 * ```ts
 * import { runShow } from "./show.ts";
 * import { processIo } from "./io.ts";
 * // Type-checked, not run by the doc test: it runs the command on the project at /repo and the user's home, printing to this process's stdout.
 * async function example() {
 *   const code = await runShow(["pdf"], { json: true }, "/repo", processIo()); // 1 if unknown
 * }
 * ```
 * @module
 */
import type { DiscoveredSkill } from "../lib/catalog/mod.ts";
import { originLabel } from "../lib/catalog/mod.ts";
import { ReadError } from "../lib/fs/mod.ts";
import { type LoadedSkill, type OpenOptions, openSkill } from "../lib/load/mod.ts";
import { readSkillNow } from "../lib/load/mod.ts";
import { isSkillName } from "../lib/skill/mod.ts";
import { didYouMean } from "../lib/text.ts";
import { type OptionValues, UsageError } from "./args.ts";
import { cliCatalog } from "./catalog.ts";
import { EXIT, PROGRAM } from "./program.ts";
import { escapeTerminal, jsonText, quote } from "./escape.ts";
import { type Io, PREFIX } from "./io.ts";
import { outStyles } from "./style.ts";
import { tildePath } from "./table.ts";
import { counted } from "../lib/text.ts";

/** Runs `show`: 0 shown, 1 unknown name or a file that cannot be read now. */
export async function runShow(
  positionals: string[],
  values: OptionValues,
  cwd: string,
  io: Io,
): Promise<number> {
  if (positionals.length !== 1) {
    throw new UsageError(`show takes one skill name (got ${positionals.length})`, "show");
  }
  if (values.raw && values.json) {
    throw new UsageError("--raw and --json exclude each other", "show");
  }
  const [name] = positionals;
  const { config, report } = await cliCatalog(cwd, io);
  const skill = isSkillName(name) ? report.skills.find((s) => s.name === name) : undefined;
  if (skill === undefined) {
    io.err(unknownName(name, report.skills.map((s) => s.name)));
    return EXIT.failed;
  }
  if (values.raw) return showRaw(skill, config.lenient, io);
  return await showSkill(skill, {
    lenient: config.lenient,
    json: values.json === true,
    home: config.home,
  }, io);
}

/** The line for a name the catalog does not publish, with the closest names. */
function unknownName(name: string, names: readonly string[]): string {
  const hint = didYouMean(name, names, { show: quote });
  return `${PREFIX}no skill named ${quote(name)}${hint}; run "${PROGRAM} list" to see them\n`;
}

/** `--raw`: SKILL.md's bytes as read now (same checks as every fresh read), nothing added. */
function showRaw(skill: DiscoveredSkill, lenient: boolean, io: Io): number {
  let why: string;
  try {
    const now = readSkillNow(skill.path, {
      fallbackName: skill.name,
      lenient,
      confineTo: skill.confineTo,
    });
    if (now.ok) {
      // Strict UTF-8 was checked; keeping the BOM makes the text encode to the same bytes.
      io.out(new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(now.bytes));
      return EXIT.ok;
    }
    why = now.message;
  } catch (error) {
    if (!(error instanceof ReadError)) throw error;
    why = error.message;
  }
  io.err(`${PREFIX}cannot read ${escapeTerminal(skill.path)}: ${escapeTerminal(why)}\n`);
  return EXIT.failed;
}

/** Options of {@linkcode showSkill}. */
export interface ShowOptions {
  /** Parse leniently (the catalog's setting). */
  lenient: boolean;
  /** One JSON document instead of text. */
  json: boolean;
  /**
   * The home folder: text output shows paths below it as `~/…`, as `list` does.
   *
   * @default none
   */
  home?: string;
}

/** The loaded skill and, when its bundle digest could not be computed, why. */
type Opened = { ok: true; loaded: LoadedSkill; bundleUnavailable?: string } | {
  ok: false;
  why: string;
};

/** Opens `skill` as `open_skill` would (disabled or not), with its bundle when it can be read. */
async function openForPerson(skill: DiscoveredSkill, lenient: boolean): Promise<Opened> {
  const warnings: string[] = [];
  const options: OpenOptions = {
    lenient,
    includeDisabled: true,
    warn: (message) => warnings.push(message),
  };
  let bundleUnavailable: string | undefined;
  let result = await openSkill(skill, { ...options, includeBundle: true });
  if (!result.ok && result.kind === "bundle-invalid") {
    bundleUnavailable = result.message;
    result = await openSkill(skill, options);
  }
  if (!result.ok) return { ok: false, why: warnings.at(-1) ?? result.message };
  return { ok: true, loaded: result.skill, bundleUnavailable };
}

/**
 * Shows one catalog skill, read now (see the module doc): 0 when shown, 1
 * (one line on stderr, nothing on stdout) when its file cannot be read now.
 *
 * @example
 * ```ts
 * import type { DiscoveredSkill } from "../lib/catalog/mod.ts";
 * import { showSkill } from "./show.ts";
 * import { processIo } from "./io.ts";
 * async function example(skill: DiscoveredSkill) {
 *   await showSkill(skill, { lenient: true, json: false }, processIo());
 * }
 * ```
 */
export async function showSkill(
  skill: DiscoveredSkill,
  options: ShowOptions,
  io: Io,
): Promise<number> {
  const opened = await openForPerson(skill, options.lenient);
  if (!opened.ok) {
    io.err(`${PREFIX}${escapeTerminal(opened.why)}\n`);
    return EXIT.failed;
  }
  const { loaded, bundleUnavailable } = opened;
  if (options.json) io.out(jsonText(showDoc(skill, loaded, bundleUnavailable)));
  else io.out(showText(skill, loaded, bundleUnavailable, io, options.home));
  return EXIT.ok;
}

/** The `show --json` document. */
function showDoc(
  skill: DiscoveredSkill,
  loaded: LoadedSkill,
  bundleUnavailable: string | undefined,
): Record<string, unknown> {
  const bundle = loaded.bundle;
  return {
    name: loaded.name,
    description: loaded.description,
    from: originLabel(skill.origin),
    source: skill.source,
    origin: skill.origin,
    path: loaded.path,
    directory: loaded.directory,
    sha256: loaded.sha256,
    bundle_sha256: bundle?.sha256 ?? null,
    bundle_files: bundle?.files.length ?? null,
    bundle_bytes: bundle?.total_bytes ?? null,
    bundle_unavailable: bundleUnavailable ?? null,
    declared_tools: loaded.declared_tools ?? [],
    model_invocable: skill.invocation.modelInvocable,
    user_invocable: skill.invocation.userInvocable,
    renamed_from: skill.renamedFrom ?? null,
    renamed_because: skill.renamedBecause ?? null,
    instructions: loaded.content,
  };
}

/** The header rows of the text output: [label, escaped value]. */
function headerRows(
  skill: DiscoveredSkill,
  loaded: LoadedSkill,
  bundleUnavailable: string | undefined,
  home: string | undefined,
): [string, string][] {
  const bundle = loaded.bundle;
  const tools = loaded.declared_tools ?? [];
  const rows: [string, string][] = [
    ["name", loaded.name],
    ["description", loaded.description],
    ["from", originLabel(skill.origin)],
    ["path", home === undefined ? loaded.path : tildePath(loaded.path, home)],
    ["sha256", loaded.sha256],
    [
      "bundle",
      bundle !== undefined
        ? `${bundle.sha256} (${counted(bundle.files.length, "file")}, ${
          counted(bundle.total_bytes, "byte")
        })`
        : `not computed: ${bundleUnavailable ?? "unknown"}`,
    ],
    ["tools", tools.length === 0 ? "none declared" : tools.join(", ")],
    [
      "model",
      skill.invocation.modelInvocable
        ? "offered to the model"
        : "not offered to the model (its author disabled model invocation)",
    ],
    [
      "person",
      skill.invocation.userInvocable ? `may invoke it as /${loaded.name}` : "not user-invocable",
    ],
  ];
  if (skill.renamedFrom !== undefined) rows.push(["renamed from", renamedText(skill)]);
  return rows.map(([label, value]) => [label, escapeTerminal(value)]);
}

/**
 * The name a renamed skill's file declares; marked `: locked`, as `list` marks it, with why, when
 * the project's lock keeps that name for another skill.
 */
function renamedText(skill: DiscoveredSkill): string {
  const from = skill.renamedFrom ?? "";
  return skill.renamedBecause === "locked"
    ? `${from}: locked (the project's lock keeps the name "${from}" for another skill)`
    : from;
}

/** Escapes instructions line by line, keeping line breaks and tabs. */
function escapeLines(text: string): string {
  return text.split(/\r?\n/).map((line) => line.split("\t").map(escapeTerminal).join("\t"))
    .join("\n");
}

/** The text output: the header (labels dim, the opt-out marked), a blank line, the instructions. */
function showText(
  skill: DiscoveredSkill,
  loaded: LoadedSkill,
  bundleUnavailable: string | undefined,
  io: Io,
  home: string | undefined,
): string {
  const style = outStyles(io);
  const rows = headerRows(skill, loaded, bundleUnavailable, home);
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  const lines = rows.map(([label, value]) => {
    const shown = label === "name"
      ? style.bold(value)
      : (label === "model" && !skill.invocation.modelInvocable) || label === "renamed from"
      ? style.warn(value)
      : value;
    return `${style.dim(`${label}:`.padEnd(width))}${shown}`;
  });
  const body = escapeLines(loaded.content);
  return `${lines.join("\n")}\n\n${body}${body.endsWith("\n") || body === "" ? "" : "\n"}`;
}
