/**
 * The web card's words, English and Chinese, registered under the locale
 * namespace `skills-anywhere` (dsh's `ctx.locale`). `{n}`-style placeholders
 * are filled by the card.
 *
 * @example
 * ```ts
 * import { STRINGS } from "./strings.ts";
 * console.log(STRINGS.en.title, STRINGS.zh.title);
 * ```
 * @module
 */

/** The English dictionary; every key the card uses. */
const en = {
  title: "Skills Anywhere",
  description: "Which Agent Skills the model is listed: budget, pins, hidden and excluded skills",
  expand: "Expand",
  collapse: "Collapse",
  loading: "Loading the catalog…",
  failed: "The catalog could not be loaded: {message}",
  retry: "Reload",
  readOnly: "These settings are read-only here: the settings document does not accept changes",
  budget: "Budget",
  budgetHint: "Skills listed to the model at most; 0 = no limit",
  budgetInvalid: "Enter a whole number, 0 or more",
  filter: "Filter",
  filterHint: "Name, description or origin; every word must match",
  summary: "{listed} of {total} skills listed to the model",
  dropped: "{n} duplicates or excluded skills left out",
  invalid: "{n} files skipped (not valid skills)",
  incomplete: "Some folders could not be read completely",
  listed: "listed",
  notListed: "not listed",
  authorDisabled: "author disabled",
  renamed: "renamed from {name}",
  warnings: "{n} warnings",
  pin: "Pin",
  unpin: "Unpin",
  hide: "Hide",
  show: "Show",
  exclude: "Exclude",
  restore: "Restore",
  excluded: "Excluded skills",
  noMatch: "No skill matches the filter",
  folders: "Scanned folders",
  folderCount: "{n} skills",
  folderMissing: "{n} more folders looked at do not exist",
};

/** The dictionary's keys. */
export type StringKey = keyof typeof en;

/** The Chinese dictionary. */
const zh: Record<StringKey, string> = {
  title: "Skills Anywhere",
  description: "模型可见哪些 Agent Skills：预算、置顶、隐藏与排除的技能",
  expand: "展开",
  collapse: "收起",
  loading: "正在加载技能目录…",
  failed: "无法加载技能目录：{message}",
  retry: "重新加载",
  readOnly: "此处的设置为只读：设置文档不接受修改",
  budget: "预算",
  budgetHint: "最多向模型列出的技能数；0 表示不限",
  budgetInvalid: "请输入 0 或更大的整数",
  filter: "筛选",
  filterHint: "名称、描述或来源；每个词都须匹配",
  summary: "向模型列出 {listed} / {total} 个技能",
  dropped: "{n} 个重复或已排除的技能未收录",
  invalid: "跳过 {n} 个文件（不是有效技能）",
  incomplete: "部分文件夹未能完整读取",
  listed: "已列出",
  notListed: "未列出",
  authorDisabled: "作者已禁用",
  renamed: "原名 {name}",
  warnings: "{n} 条警告",
  pin: "置顶",
  unpin: "取消置顶",
  hide: "隐藏",
  show: "显示",
  exclude: "排除",
  restore: "恢复",
  excluded: "已排除的技能",
  noMatch: "没有符合筛选条件的技能",
  folders: "已扫描的文件夹",
  folderCount: "{n} 个技能",
  folderMissing: "另有 {n} 个查找过的文件夹不存在",
};

/** Both dictionaries. */
export const STRINGS: { en: Record<StringKey, string>; zh: Record<StringKey, string> } = { en, zh };

/**
 * `text` with each `{name}` replaced by `values[name]`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { fill } from "./strings.ts";
 * assert.equal(fill("{n} skills", { n: 3 }), "3 skills");
 * ```
 */
export function fill(text: string, values: Record<string, string | number> = {}): string {
  return text.replace(
    /\{(\w+)\}/g,
    (all, key: string) => key in values ? String(values[key]) : all,
  );
}
