/// <reference lib="dom" />
/**
 * The browser half of the dsh web card: a dsh client plugin (the npm
 * package's `./client` export, declared in its `dsh.client` field) that
 * registers a card in dsh's `settings.plugin.item` slot under the settings
 * namespace `skills-anywhere`, so it appears in Settings → Plugins → Plugin
 * configuration beside dsh's own cards. It is built on dsh's client services
 * (no dsh package is imported, as dsh's client bundles must not):
 * `ctx.slots` (the slot), `ctx.locale` (the English and Chinese words of
 * `strings.ts`), `ctx.settingsScope` (the namespace, read and written through
 * dsh's settings API with its revision fence) and dsh's React. npm/build.ts
 * wraps the bundle in dsh's lazy-CJS module format.
 *
 * The card is collapsible; opening it loads the report
 * (`POST /api/skills-anywhere/report`), and every settings change loads it
 * again. It renders text only: every value from the report is a text child
 * (React escapes it), nothing is set as HTML.
 *
 * @example
 * ```ts ignore
 * import { clientPlugin } from "./card.ts";
 * const plugin = clientPlugin(React); // { inject, apply }
 * ```
 * @module
 */
import { fill, type StringKey, STRINGS } from "./strings.ts";
import {
  type CatalogSettings,
  excluded,
  hidden,
  matches,
  parseBudget,
  pinned,
  shown,
  unpinned,
} from "./model.ts";
import type { ReportView, SkillView } from "../report.ts";

/** The namespace of the card, its settings and its words. */
const NS = "skills-anywhere";
const REPORT_PATH = "/api/skills-anywhere/report";

/** The part of React the card uses (dsh's, handed to {@linkcode clientPlugin}). */
export interface ReactApi {
  createElement(
    type: unknown,
    props?: Record<string, unknown> | null,
    ...children: unknown[]
  ): unknown;
  useState<T>(initial: T): [T, (next: T | ((previous: T) => T)) => void];
  useEffect(effect: () => void | (() => void), deps?: unknown[]): void;
  useRef<T>(initial: T): { current: T };
  useSyncExternalStore<T>(subscribe: (listener: () => void) => () => void, get: () => T): T;
}

/** The settings namespace as dsh's `settingsScope.bind` gives it. */
interface Scope {
  getSnapshot(): {
    status: "loading" | "ready" | "unavailable";
    value: { catalog: CatalogSettings; excludeSkills: string[] } | undefined;
    revision: number | undefined;
    writable: boolean;
  };
  subscribe(listener: () => void): () => void;
  set(field: string, value: unknown): Promise<void>;
}

/** The dsh client context, as far as the card uses it. */
interface ClientContext {
  slots: {
    inject(name: string, register: () => unknown): void;
    register(options: Record<string, unknown>, component: unknown): unknown;
  };
  locale: {
    register(ns: string, dictionaries: Record<string, Record<string, string>>): () => void;
    bind(ns: string): (key: string) => string;
  };
  settingsScope: { bind(spec: { namespace: string }): Scope };
  effect(execute: () => () => void, label?: string): void;
}

type Translate = (key: StringKey, values?: Record<string, string | number>) => string;

/** The report route's answer, as the card reads it. */
type Answer = { ok: true; value: ReportView } | { ok: false; error?: { message?: string } };

/** Asks the host for the report (same origin, so dsh's page may). */
async function loadReport(): Promise<Answer> {
  const response = await fetch(REPORT_PATH, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  return await response.json() as Answer;
}

const CSS = `
.sa-card{list-style:none;border:1px solid var(--dsw-alias-border-l1,#ddd);border-radius:12px;margin:0 0 8px;overflow:hidden}
.sa-head{all:unset;box-sizing:border-box;display:flex;width:100%;gap:8px;align-items:center;padding:12px 16px;cursor:pointer}
.sa-head-text{display:flex;flex-direction:column;flex:1;min-width:0}
.sa-name{font-weight:600}
.sa-muted{color:var(--dsw-alias-label-tertiary,#777);font-size:12px}
.sa-body{padding:0 16px 16px;display:flex;flex-direction:column;gap:10px}
.sa-field{display:flex;flex-direction:column;gap:4px}
.sa-field input{padding:4px 8px;border:1px solid var(--dsw-alias-border-l1,#ccc);border-radius:6px;background:transparent;color:inherit}
.sa-error{color:var(--dsw-alias-state-error-primary,#c00)}
.sa-group{font-weight:600;margin-top:6px}
.sa-skills{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:6px}
.sa-skill{display:flex;flex-wrap:wrap;gap:6px;align-items:baseline;border-top:1px solid var(--dsw-alias-border-l2,#eee);padding-top:6px}
.sa-skill-name{font-family:monospace}
.sa-state{font-size:12px;border-radius:4px;padding:0 4px;border:1px solid currentColor}
.sa-desc{flex-basis:100%;font-size:12px}
.sa-actions{display:flex;gap:4px;margin-left:auto}
.sa-actions button,.sa-retry{font-size:12px;padding:2px 8px;border-radius:6px;border:1px solid var(--dsw-alias-border-l1,#ccc);background:transparent;color:inherit;cursor:pointer}
.sa-actions button:disabled{opacity:.5;cursor:default}
`;

/**
 * The dsh client plugin of the card, built on `React` (dsh's): `inject` names the client
 * services it needs, `apply` registers its words and the card.
 */
export function clientPlugin(React: ReactApi): {
  inject: string[];
  apply(ctx: ClientContext): void;
} {
  const h = React.createElement;
  /** Set by `apply`: the namespace's scope and the locale's words (when the slot gives none). */
  let bound: {
    scope: Scope;
    subscribe: (listener: () => void) => () => void;
    getSnapshot: () => ReturnType<Scope["getSnapshot"]>;
    t: (key: string) => string;
  } | undefined;

  function Card(props: { t?: (key: string) => string }) {
    const { scope, subscribe, getSnapshot } = bound!;
    const translate = props.t ?? bound?.t;
    const t: Translate = (key, values) => {
      const text = translate?.(key);
      return fill(typeof text === "string" && text !== key ? text : STRINGS.en[key], values);
    };
    const snapshot = React.useSyncExternalStore(subscribe, getSnapshot);
    const [open, setOpen] = React.useState(false);
    const [report, setReport] = React.useState<ReportView | undefined>(undefined);
    const [error, setError] = React.useState<string | undefined>(undefined);
    const [filter, setFilter] = React.useState("");
    const [draft, setDraft] = React.useState<string | undefined>(undefined);
    const [budgetError, setBudgetError] = React.useState(false);
    const loads = React.useRef(0);

    const load = async () => {
      const mine = ++loads.current;
      try {
        const answer = await loadReport();
        if (mine !== loads.current) return;
        if (answer.ok) {
          setReport(answer.value);
          setError(undefined);
        } else setError(answer.error?.message ?? "");
      } catch (caught) {
        if (mine === loads.current) setError(String(caught));
      }
    };
    // Opened: load; while open, every settings revision loads again.
    React.useEffect(() => {
      if (open) void load();
    }, [open, snapshot.revision]);

    const value = snapshot.value ?? report;
    const catalog: CatalogSettings = value?.catalog ?? { limit: 50, pin: [], hide: [] };
    const exclude = value?.excludeSkills ?? [];
    const writable = snapshot.status === "ready" && snapshot.writable;
    const setCatalog = (next: CatalogSettings) => void scope.set("catalog", next);
    const setExclude = (next: string[]) => void scope.set("excludeSkills", next);
    const commitBudget = () => {
      if (draft === undefined) return;
      const limit = parseBudget(draft);
      if (limit === undefined) return setBudgetError(true);
      setBudgetError(false);
      setDraft(undefined);
      if (limit !== catalog.limit) setCatalog({ ...catalog, limit });
    };

    const title = t("title");
    const header = h(
      "button",
      {
        type: "button",
        className: "sa-head",
        "aria-expanded": open,
        "aria-label": `${t(open ? "collapse" : "expand")}: ${title}`,
        onClick: () => setOpen(!open),
      },
      h(
        "span",
        { className: "sa-head-text" },
        h("span", { className: "sa-name" }, title),
        h("span", { className: "sa-muted" }, t("description")),
      ),
      h("span", { "aria-hidden": true }, open ? "▴" : "▾"),
    );
    if (!open) return h("li", { className: "sa-card", "data-skills-anywhere": "card" }, header);

    const stateWord = (skill: SkillView) =>
      skill.state === "visible"
        ? t("listed")
        : skill.state === "disabled"
        ? t("authorDisabled")
        : t("notListed");
    const button = (action: string, label: string, onClick: () => void) =>
      h("button", { type: "button", "data-action": action, disabled: !writable, onClick }, label);
    const row = (skill: SkillView) =>
      h(
        "li",
        {
          key: skill.name,
          className: "sa-skill",
          "data-skill": skill.name,
          "data-state": skill.state,
        },
        h("span", { className: "sa-skill-name" }, skill.name),
        h("span", { className: "sa-state" }, stateWord(skill)),
        h("span", { className: "sa-muted" }, skill.origin),
        skill.renamedFrom === undefined
          ? null
          : h("span", { className: "sa-muted" }, t("renamed", { name: skill.renamedFrom })),
        skill.warnings.length === 0 ? null : h(
          "span",
          { className: "sa-muted", title: skill.warnings.join("\n") },
          t("warnings", {
            n: skill.warnings.length,
          }),
        ),
        h(
          "span",
          { className: "sa-actions" },
          skill.pinned
            ? button("unpin", t("unpin"), () => setCatalog(unpinned(catalog, skill.name)))
            : button("pin", t("pin"), () => setCatalog(pinned(catalog, skill.name))),
          skill.hidden
            ? button("show", t("show"), () => setCatalog(shown(catalog, skill.name)))
            : button("hide", t("hide"), () => setCatalog(hidden(catalog, skill.name))),
          button("exclude", t("exclude"), () => setExclude(excluded(exclude, skill.name, true))),
        ),
        h("span", { className: "sa-desc" }, skill.description),
      );

    const children: unknown[] = [];
    if (!writable && snapshot.status !== "loading") {
      children.push(h("p", { role: "status", className: "sa-muted" }, t("readOnly")));
    }
    children.push(
      h(
        "label",
        { className: "sa-field" },
        h("span", null, t("budget")),
        h("input", {
          type: "number",
          min: 0,
          step: 1,
          inputMode: "numeric",
          name: "skills-anywhere-budget",
          disabled: !writable,
          value: draft ?? String(catalog.limit),
          "aria-invalid": budgetError,
          onChange: (event: { target: { value: string } }) => setDraft(event.target.value),
          onBlur: commitBudget,
          onKeyDown: (event: { key: string }) => {
            if (event.key === "Enter") commitBudget();
          },
        }),
        h(
          "span",
          { className: budgetError ? "sa-error" : "sa-muted" },
          budgetError ? t("budgetInvalid") : t("budgetHint"),
        ),
      ),
      h(
        "label",
        { className: "sa-field" },
        h("span", null, t("filter")),
        h("input", {
          type: "search",
          name: "skills-anywhere-filter",
          placeholder: t("filterHint"),
          value: filter,
          onChange: (event: { target: { value: string } }) => setFilter(event.target.value),
        }),
      ),
    );
    if (error !== undefined) {
      children.push(
        h("p", { className: "sa-error", role: "alert" }, t("failed", { message: error })),
        h(
          "button",
          { type: "button", className: "sa-retry", onClick: () => void load() },
          t("retry"),
        ),
      );
    }
    if (report === undefined && error === undefined) {
      children.push(h("p", { className: "sa-muted" }, t("loading")));
    }
    if (report !== undefined) {
      children.push(
        h(
          "p",
          { "data-skills-anywhere": "summary" },
          t("summary", { listed: report.listed, total: report.skills.length }),
        ),
      );
      const notes = [
        report.dropped.length > 0 ? t("dropped", { n: report.dropped.length }) : "",
        report.invalid.length > 0 ? t("invalid", { n: report.invalid.length }) : "",
        report.complete ? "" : t("incomplete"),
      ].filter((note) => note !== "");
      if (notes.length > 0) children.push(h("p", { className: "sa-muted" }, notes.join(" · ")));
      const shownSkills = report.skills.filter((skill) => matches(skill, filter));
      if (shownSkills.length === 0) children.push(h("p", { className: "sa-muted" }, t("noMatch")));
      const groups = new Map<string, SkillView[]>();
      for (const skill of shownSkills) {
        groups.set(skill.group, [...groups.get(skill.group) ?? [], skill]);
      }
      for (const [group, skills] of groups) {
        children.push(
          h("div", { key: `g:${group}`, className: "sa-group" }, group),
          h("ul", { key: `l:${group}`, className: "sa-skills" }, ...skills.map(row)),
        );
      }
      if (exclude.length > 0) {
        children.push(
          h("div", { className: "sa-group" }, t("excluded")),
          h(
            "ul",
            { className: "sa-skills" },
            ...exclude.map((name) =>
              h(
                "li",
                { key: name, className: "sa-skill", "data-excluded": name },
                h("span", { className: "sa-skill-name" }, name),
                h(
                  "span",
                  { className: "sa-actions" },
                  button("restore", t("restore"), () => setExclude(excluded(exclude, name, false))),
                ),
              )
            ),
          ),
        );
      }
      const existing = report.roots.filter((root) => root.exists);
      const missing = report.roots.length - existing.length;
      children.push(
        h("div", { className: "sa-group" }, t("folders")),
        h(
          "ul",
          { className: "sa-skills", "data-skills-anywhere": "folders" },
          ...existing.map((root, index) =>
            h(
              "li",
              { key: `r:${index}`, className: "sa-skill" },
              h("span", null, root.label),
              h("span", { className: "sa-muted" }, root.path),
              h("span", { className: "sa-muted" }, t("folderCount", { n: root.count })),
            )
          ),
        ),
        missing === 0
          ? null
          : h("p", { className: "sa-muted" }, t("folderMissing", { n: missing })),
      );
    }
    return h(
      "li",
      { className: "sa-card", "data-skills-anywhere": "card" },
      header,
      h("div", { className: "sa-body" }, ...children),
    );
  }

  return {
    inject: ["slots", "locale", "settingsScope"],
    apply(ctx: ClientContext) {
      ctx.effect(() => ctx.locale.register(NS, STRINGS), "skills-anywhere: dictionaries");
      ctx.effect(() => {
        const style = document.createElement("style");
        style.dataset.skillsAnywhereStyle = "card";
        style.textContent = CSS;
        document.head.appendChild(style);
        return () => style.remove();
      }, "skills-anywhere: card style");
      const scope = ctx.settingsScope.bind({ namespace: NS });
      // Bound once: dsh's scope methods need their `this`, and React a stable subscribe.
      bound = {
        scope,
        subscribe: (listener) => scope.subscribe(listener),
        getSnapshot: () => scope.getSnapshot(),
        t: ctx.locale.bind(NS),
      };
      ctx.slots.inject("settings.plugin.item", () =>
        ctx.slots.register(
          { name: "settings.plugin.item", key: NS, locale: NS },
          Card,
        ));
    },
  };
}
