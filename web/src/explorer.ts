/// <reference lib="dom" />
/**
 * The controller of section 3 of the page, "Explore a catalog": the demo
 * catalog recorded by `web/build.ts`, or a `list --json` export (and its
 * project lock) chosen by the reader, shown through {@linkcode explore}. Every
 * name, path and description is set as text, never parsed as HTML, and shown
 * with invisible characters revealed. The demo's settings live in the address
 * fragment (copy the link to share them); a catalog of your own is never put
 * in the address: it is kept in this page's memory until the page is closed.
 *
 * @example
 * ```ts
 * import { setupExplorer } from "./explorer.ts";
 * // Type-checked, not run by the doc test: it needs a browser page's document.
 * function example() {
 *   setupExplorer();
 * }
 * ```
 * @module
 */
import {
  type CatalogDoc,
  catalogFromValue,
  type CatalogParse,
  catalogRefusal,
  type CatalogSkill,
  MAX_CATALOG_BYTES,
  parseCatalog,
} from "./catalog_doc.ts";
import { byId, download, el, plural, reveal, takeFile, UNREADABLE_MESSAGE } from "./dom.ts";
import {
  defaultState,
  explore,
  type ExplorerRow,
  type ExplorerState,
  fragmentOf,
  MAX_QUERY_LENGTH,
  parseFragment,
  type RowState,
  SCENARIOS,
} from "./explorer_model.ts";
import { MAX_LOCK_BYTES as MAX_VERIFY_BYTES } from "../../lib/limits.ts";
import { type Origin, originLabel } from "../../lib/catalog/portable.ts";
import {
  compareLock,
  type LockComparison,
  readLockFile,
  readVerifyReport,
  type VerifyMarks,
  withVerify,
} from "./lock_view.ts";
import type { ProjectLock } from "../../lib/lock/portable.ts";

/** The workspace the build recorded: the authored files and their catalog. */
interface Workspace {
  files: Record<string, string>;
  catalog: unknown;
}

/** The most rows drawn at once (a search narrows a large catalog). */
const MAX_ROWS_SHOWN = 200;

const STATE_WORDS: Record<RowState, string> = {
  visible: "listed",
  pinned: "listed, pinned",
  "hidden-by-budget": "not listed: over the budget",
  "hidden-by-you": "not listed: hidden",
  disabled: "author disabled: never offered to a model",
};

/** The origin kinds `list` writes (an export's other kinds are shown by their kind). */
const ORIGIN_KINDS = new Set(["agent", "custom", "claude-plugins", "source"]);

/** A skill's origin in the words of `list` (the CLI's own {@linkcode originLabel}). */
export function originWords(origin: Record<string, string>): string {
  return ORIGIN_KINDS.has(origin.kind) ? originLabel(origin as unknown as Origin) : origin.kind;
}

class Explorer {
  readonly status = byId("catalog-status");
  readonly rowsList = byId<HTMLOListElement>("skill-rows");
  readonly counts = byId("explorer-counts");
  readonly budget = byId<HTMLInputElement>("budget");
  readonly budgetValue = byId<HTMLOutputElement>("budget-value");
  readonly search = byId<HTMLInputElement>("search");
  readonly inspect = byId("inspect");
  readonly diagnostics = byId<HTMLUListElement>("diagnostics");
  readonly shareLink = byId<HTMLInputElement>("share-link");
  readonly copyStatus = byId("copy-status");
  readonly copyButton = byId<HTMLButtonElement>("copy-link");
  readonly scenarioNote = byId("scenario-note");
  readonly demoDoc: CatalogDoc;
  doc: CatalogDoc;
  demo = true;
  /** The chosen lock, compared with each catalog shown until the demo is shown again. */
  lockFile: ProjectLock | undefined;
  /** The chosen `verify --json` report, laid over the lock while both are chosen. */
  verifyMarks: VerifyMarks | undefined;
  lock: LockComparison | undefined;
  state: ExplorerState;
  /** The latest catalog choice: an older read that finishes later is dropped. */
  token = 0;
  /** The latest lock choice, likewise. */
  lockToken = 0;

  constructor(readonly workspace: Workspace) {
    const parsed = catalogFromValue(workspace.catalog);
    if (!parsed.ok) throw new Error("The page's demo catalog is malformed; rebuild the page");
    this.demoDoc = parsed.doc;
    this.doc = parsed.doc;
    this.state = parseFragment(location.hash, this.doc);
    this.budget.addEventListener("input", () => this.change({ budget: Number(this.budget.value) }));
    this.search.addEventListener(
      "input",
      () => this.change({ q: this.search.value.slice(0, MAX_QUERY_LENGTH) }),
    );
    this.copyButton.addEventListener("click", () => this.copyLink());
    byId("show-demo").addEventListener("click", () => this.showDemo());
    byId("download-workspace").addEventListener(
      "click",
      () =>
        download(
          "skills-anywhere-sample-workspace.json",
          JSON.stringify(this.workspace, null, 2) + "\n",
        ),
    );
    for (const button of document.querySelectorAll<HTMLButtonElement>("[data-scenario]")) {
      button.addEventListener("click", () => this.scenario(button.dataset.scenario ?? ""));
    }
    const catalogInput = byId<HTMLInputElement>("catalog-file");
    catalogInput.addEventListener("change", () => this.openCatalog(takeFile(catalogInput)));
    const lockInput = byId<HTMLInputElement>("lock-file");
    lockInput.addEventListener("change", () => this.openLock(takeFile(lockInput)));
    const verifyInput = byId<HTMLInputElement>("verify-file");
    verifyInput.addEventListener("change", () => this.openVerify(takeFile(verifyInput)));
    addEventListener("hashchange", () => {
      if (!this.demo) return;
      this.state = parseFragment(location.hash, this.doc);
      this.render();
    });
    setupTabs();
    this.render();
  }

  /** Applies a change of settings, then writes the demo's fragment. */
  change(patch: Partial<ExplorerState>, note = ""): void {
    this.state = { ...this.state, ...patch };
    this.scenarioNote.textContent = note;
    if (this.demo) {
      const fragment = fragmentOf(this.state);
      history.replaceState(
        null,
        "",
        fragment === "" ? location.pathname + location.search : `#${fragment}`,
      );
    }
    this.render();
  }

  scenario(id: string): void {
    const found = SCENARIOS.find((s) => s.id === id);
    if (found === undefined || !this.demo) return;
    this.state = structuredClone(found.state);
    this.change({}, found.note);
  }

  toggle(list: "pin" | "hide", name: string): void {
    const other = list === "pin" ? "hide" : "pin";
    const current = this.state[list];
    const next = current.includes(name) ? current.filter((n) => n !== name) : [...current, name];
    this.change({ [list]: next, [other]: this.state[other].filter((n) => n !== name) });
  }

  showDemo(): void {
    this.token++;
    this.demo = true;
    this.doc = this.demoDoc;
    this.lockToken++;
    this.lockFile = undefined;
    this.verifyMarks = undefined;
    this.lock = undefined;
    this.status.textContent = "";
    this.change(defaultState());
  }

  async openCatalog(file: File | undefined): Promise<void> {
    if (file === undefined) return;
    const token = ++this.token;
    this.status.textContent = `Reading ${reveal(file.name)}…`;
    let parsed: CatalogParse;
    if (file.size > MAX_CATALOG_BYTES) {
      parsed = catalogRefusal("too-large"); // refused unread
    } else {
      let bytes: Uint8Array;
      try {
        bytes = new Uint8Array(await file.arrayBuffer());
      } catch {
        if (token !== this.token) return;
        this.status.dataset.state = "error";
        this.status.textContent = `Refused ${reveal(file.name)}: ${UNREADABLE_MESSAGE}.`;
        return;
      }
      if (token !== this.token) return;
      parsed = parseCatalog(bytes);
    }
    if (!parsed.ok) {
      const detail = parsed.detail !== undefined ? ` (${reveal(parsed.detail)})` : "";
      this.status.dataset.state = "error";
      this.status.textContent = `Refused ${reveal(file.name)}: ${parsed.message}${detail}.`;
      return;
    }
    this.demo = false;
    this.doc = parsed.doc;
    this.lock = this.compared();
    this.status.dataset.state = "ready";
    this.status.textContent =
      `${reveal(file.name)}: ${plural(parsed.doc.skills.length, "skill")}, ` +
      "kept in this page only (not in the address).";
    history.replaceState(null, "", location.pathname + location.search);
    this.change(defaultState());
  }

  async openLock(file: File | undefined): Promise<void> {
    if (file === undefined) return;
    const token = ++this.lockToken;
    const read = await readLockFile(file);
    if (token !== this.lockToken) return;
    if (!read.ok) {
      this.status.dataset.state = "error";
      this.status.textContent = `Refused ${reveal(file.name)}: ${read.message}.`;
      return;
    }
    this.lockFile = read.lock;
    this.lock = this.compared();
    this.status.dataset.state = "ready";
    this.status.textContent =
      `${reveal(file.name)}: ${plural(read.lock.skills.length, "locked skill")} ` +
      `compared with ${this.demo ? "the demo catalog" : "your catalog"}.`;
    this.render();
  }

  /** The chosen lock beside the catalog shown, with the verify report over it when chosen. */
  compared(): LockComparison | undefined {
    if (this.lockFile === undefined) return undefined;
    const lock = compareLock(this.doc, this.lockFile);
    return this.verifyMarks === undefined ? lock : withVerify(lock, this.verifyMarks);
  }

  async openVerify(file: File | undefined): Promise<void> {
    if (file === undefined) return;
    const token = ++this.lockToken;
    let bytes: Uint8Array | undefined;
    if (file.size <= MAX_VERIFY_BYTES) {
      try {
        bytes = new Uint8Array(await file.arrayBuffer());
      } catch {
        bytes = undefined;
      }
    }
    if (token !== this.lockToken) return;
    const read = bytes === undefined
      ? { ok: false as const, message: "The report is larger than a lock may be, or unreadable" }
      : readVerifyReport(bytes);
    if (!read.ok) {
      this.status.dataset.state = "error";
      this.status.textContent = `Refused ${reveal(file.name)}: ${read.message}.`;
      return;
    }
    this.verifyMarks = read.marks;
    this.lock = this.compared();
    this.status.dataset.state = "ready";
    this.status.textContent = this.lockFile === undefined
      ? `${reveal(file.name)}: ${
        plural(read.marks.byName.size, "difference")
      }; choose its lock too to see them on the rows.`
      : `${reveal(file.name)}: ${plural(read.marks.byName.size, "difference")} laid over the lock.`;
    this.render();
  }

  async copyLink(): Promise<void> {
    const link = this.shareLink.value;
    try {
      if (navigator.clipboard === undefined) throw new Error("no clipboard");
      await navigator.clipboard.writeText(link);
      this.copyStatus.textContent = "Link copied.";
    } catch {
      // Fallback: select the link for the reader to copy.
      this.shareLink.focus();
      this.shareLink.select();
      this.copyStatus.textContent =
        "The browser refused the clipboard: the link is selected, press Ctrl+C (⌘C) to copy it.";
    }
  }

  render(): void {
    const { rows, byName, counts } = explore(this.doc, this.state);
    this.budget.value = String(this.state.budget);
    this.budgetValue.textContent = this.state.budget === 0 ? "no limit" : String(this.state.budget);
    if (this.search.value !== this.state.q) this.search.value = this.state.q;
    for (const button of document.querySelectorAll<HTMLButtonElement>("[data-scenario]")) {
      button.disabled = !this.demo;
    }
    this.counts.textContent =
      `${counts.visible} of ${plural(counts.eligible, "skill")} listed to a model` +
      (counts.disabled > 0 ? `; ${counts.disabled} author disabled` : "") +
      (this.state.q.trim() !== "" ? `; ${plural(rows.length, "match")} for the search` : "");
    this.rowsList.after(this.inspect); // out of the rows before they are drawn again
    const shown = rows.slice(0, MAX_ROWS_SHOWN);
    this.rowsList.replaceChildren(...shown.map((row) => this.rowElement(row)));
    if (rows.length > shown.length) {
      this.rowsList.append(el("li", {
        className: "empty",
        id: "rows-cut",
        text: `Showing the first ${MAX_ROWS_SHOWN} of ${rows.length.toLocaleString("en-US")}: ` +
          "search to narrow them down.",
      }));
    }
    if (rows.length === 0) {
      this.rowsList.append(
        el("li", {
          className: "empty",
          text: this.state.q.trim() !== ""
            ? "No skill matches the search."
            : "The catalog has no skills.",
        }),
      );
    }
    const inspected = this.state.skill === undefined ? undefined : byName.get(this.state.skill);
    this.renderInspect(inspected);
    // The details open under their row when it is shown, else under the list.
    const host = inspected === undefined ? undefined : Array.from(this.rowsList.children)
      .find((li) => (li as HTMLElement).dataset.name === inspected.skill.name);
    if (host !== undefined) host.append(this.inspect);
    this.renderDiagnostics();
    if (this.demo) {
      const fragment = fragmentOf(this.state);
      this.shareLink.value = location.href.replace(/#.*$/, "") +
        (fragment === "" ? "" : `#${fragment}`);
      this.copyButton.disabled = false;
    } else {
      this.shareLink.value = "";
      this.copyButton.disabled = true;
      this.copyStatus.textContent =
        "A catalog of your own is not put in a link: share its file instead.";
    }
  }

  rowElement(row: ExplorerRow): HTMLLIElement {
    const { skill } = row;
    const disabled = row.state === "disabled";
    const pinned = this.state.pin.includes(skill.name);
    const hidden = this.state.hide.includes(skill.name);
    const button = (label: string, action: () => void, pressed?: boolean) => {
      const b = el("button", { text: label });
      b.type = "button";
      b.disabled = disabled;
      if (pressed !== undefined) b.setAttribute("aria-pressed", String(pressed));
      b.setAttribute("aria-label", `${label} ${reveal(skill.name)}`);
      b.addEventListener("click", action);
      return b;
    };
    const marks: string[] = [];
    if (skill.renamed_from !== null) marks.push(`renamed from ${skill.renamed_from}`);
    if (skill.repaired) marks.push("repaired");
    const locked = this.lock?.byName.get(skill.name);
    if (locked !== undefined) marks.push(locked.words);
    const item = el(
      "li",
      { className: `skill-row state-${row.state}` },
      el(
        "div",
        { className: "skill-head" },
        el("code", { className: "skill-name", text: reveal(skill.name) }),
        el("span", { className: "skill-state", text: STATE_WORDS[row.state] }),
        ...(marks.length > 0
          ? [el("span", { className: "skill-marks", text: reveal(`(${marks.join("; ")})`) })]
          : []),
      ),
      el("p", { className: "skill-description", text: reveal(skill.description) }),
      el("p", {
        className: "hint",
        text: reveal(originWords(skill.origin)) +
          (row.score !== undefined ? ` · score ${row.score}: ${reasons(row)}` : ""),
      }),
      el(
        "div",
        { className: "row-actions" },
        button(pinned ? "Unpin" : "Pin", () => this.toggle("pin", skill.name), pinned),
        button(hidden ? "Unhide" : "Hide", () => this.toggle("hide", skill.name), hidden),
        button(
          "Inspect",
          () => this.change({ skill: this.state.skill === skill.name ? undefined : skill.name }),
        ),
      ),
    );
    item.dataset.name = skill.name;
    item.dataset.state = row.state;
    return item;
  }

  renderInspect(row: ExplorerRow | undefined): void {
    this.inspect.hidden = row === undefined;
    if (row === undefined) return;
    const s: CatalogSkill = row.skill;
    byId("inspect-title").textContent = `Inspect ${reveal(s.name)}`;
    const fields: Array<[string, string]> = [
      ["name", s.name],
      ["state", STATE_WORDS[row.state]],
      ["description", s.description],
      ["from", originWords(s.origin)],
      ["path", s.path],
      ["precedence", `${row.order + 1} of ${this.doc.skills.length} (rank ${s.rank}, ${s.source})`],
      ["model may invoke", s.model_invocable ? "yes" : "no (author disabled)"],
      ...(s.renamed_from !== null
        ? [
          ["renamed from", `${s.renamed_from} (${s.renamed_because ?? "collision"})`] as [
            string,
            string,
          ],
        ]
        : []),
      ["repaired", s.repaired ? "yes" : "no"],
      ...s.warnings.map((w) => ["warning", w] as [string, string]),
      ...(this.lock !== undefined
        ? [["lock", this.lock.byName.get(s.name)?.words ?? "not locked"] as [string, string]]
        : []),
    ];
    byId("inspect-fields").replaceChildren(
      ...fields.flatMap((
        [term, value],
      ) => [el("dt", { text: term }), el("dd", { text: reveal(value) })]),
    );
  }

  renderDiagnostics(): void {
    const doc = this.doc;
    const items: HTMLLIElement[] = [];
    const add = (label: string, lines: string[]) => {
      items.push(el(
        "li",
        { className: "diagnostic" },
        el("strong", { text: label }),
        ...(lines.length > 0
          ? [el("ul", {}, ...lines.map((line) => el("li", { text: reveal(line) })))]
          : []),
      ));
    };
    const dropped = doc.dropped ?? [];
    add(
      `Duplicates: ${dropped.length}${
        doc.dropped === undefined ? " (exported without --all: not known)" : ""
      }`,
      dropped.map((d) => `${d.name} at ${d.path}: ${d.reason}, kept ${d.winner}`),
    );
    add(
      `Skipped files: ${doc.invalid.length}`,
      doc.invalid.map((i) => `${i.path}: ${i.kind}, ${i.reason}`),
    );
    const renamed = doc.skills.filter((s) => s.renamed_from !== null);
    add(
      `Renamed: ${renamed.length}`,
      renamed.map((s) =>
        `${s.name} (declares ${s.renamed_from}; ${s.renamed_because ?? "collision"})`
      ),
    );
    const repaired = doc.skills.filter((s) => s.repaired);
    add(`Repaired: ${repaired.length}`, repaired.map((s) => `${s.name}: ${s.warnings.join("; ")}`));
    if (!doc.complete) add("Incomplete: some folder could not be read completely", []);
    if (this.lock !== undefined) {
      const l = this.lock;
      add(
        `Lock: ${l.locked} locked, ${l.changed.length} changed, ${l.unlocked.length} not locked, ${l.missing.length} locked but not found`,
        [
          ...l.changed.map((c) => `${c.name}: ${c.words}`),
          ...l.unlocked.map((n) => `${n}: not locked`),
          ...l.missing.map((n) => `${n}: locked but not in the catalog`),
        ],
      );
    }
    this.diagnostics.replaceChildren(...items);
  }
}

/** Why a row matched: `name: pdf; description: forms`. */
function reasons(row: ExplorerRow): string {
  return (row.matched ?? []).map((m) => `${m.term} in ${m.fields.join(", ")}`).join("; ");
}

/** The install tabs: one panel shown; arrow keys move between tabs. */
function setupTabs(): void {
  const tabs = Array.from(document.querySelectorAll<HTMLButtonElement>('[role="tab"]'));
  const select = (tab: HTMLButtonElement) => {
    for (const other of tabs) {
      const selected = other === tab;
      other.setAttribute("aria-selected", String(selected));
      other.tabIndex = selected ? 0 : -1;
      byId(other.getAttribute("aria-controls") ?? "").hidden = !selected;
    }
  };
  tabs.forEach((tab, i) => {
    tab.addEventListener("click", () => select(tab));
    tab.addEventListener("keydown", (event) => {
      const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
      if (step === 0) return;
      const next = tabs[(i + step + tabs.length) % tabs.length];
      select(next);
      next.focus();
    });
  });
}

/**
 * Wires section 3 to the demo workspace that the build recorded into the page.
 *
 * @example
 * ```ts
 * import { setupExplorer } from "./explorer.ts";
 * // Type-checked, not run by the doc test: it needs a browser page's document.
 * function example() {
 *   setupExplorer();
 * }
 * ```
 */
export function setupExplorer(): void {
  const data = JSON.parse(byId("demo-catalog").textContent ?? "");
  if (typeof data?.files !== "object" || data?.catalog === undefined) {
    throw new Error("The page's demo catalog is missing; rebuild it with deno task build:web");
  }
  new Explorer(data as Workspace);
}
