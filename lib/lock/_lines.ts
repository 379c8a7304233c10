/**
 * Where a lock's entries sit in its text: the 1-based line of each skill
 * entry's `name` member and of each source entry's `key` member, so a
 * report can point at the line of a locked entry (a skill locked but not
 * found, a source whose commit moved). Pure: it scans the JSON text as
 * written (any formatting, a hand-edited lock included) without evaluating
 * anything; text that is not JSON gives what was found before the fault.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lockLines } from "./_lines.ts";
 * const text = '{\n  "schema": "skills-anywhere-lock-1",\n  "skills": [\n    {\n      "name": "pdf"\n    }\n  ],\n  "sources": []\n}\n';
 * assert.equal(lockLines(text).skills.get("pdf"), 5);
 * ```
 * @module
 */

/** The line of each locked skill (by name) and each locked source (by key). */
export interface LockLines {
  skills: Map<string, number>;
  sources: Map<string, number>;
}

/** A JSON scanner over `text` that tracks the line of its position. */
class Scanner {
  at = 0;
  line = 1;
  constructor(readonly text: string) {}

  /** Skips whitespace; returns the next character (undefined at the end). */
  peek(): string | undefined {
    while (this.at < this.text.length && /[ \t\r\n]/.test(this.text[this.at])) {
      if (this.text[this.at] === "\n") this.line++;
      this.at++;
    }
    return this.text[this.at];
  }

  expect(char: string): void {
    if (this.peek() !== char) throw new SyntaxError(`expected ${char}`);
    this.at++;
  }

  /** A string token (the scanner is on its opening quote); its value. */
  string(): string {
    this.expect('"');
    let end = this.at;
    while (end < this.text.length && this.text[end] !== '"') end += this.text[end] === "\\" ? 2 : 1;
    if (end >= this.text.length) throw new SyntaxError("unterminated string");
    const raw = this.text.slice(this.at - 1, end + 1);
    this.at = end + 1;
    return JSON.parse(raw);
  }

  /** Skips one value of any kind. */
  skip(): void {
    const next = this.peek();
    if (next === '"') this.string();
    else if (next === "{") this.members(() => this.skip());
    else if (next === "[") this.elements(() => this.skip());
    else {
      const token = /^[^\s,\]}]+/.exec(this.text.slice(this.at));
      if (token === null) throw new SyntaxError("expected a value");
      this.at += token[0].length;
    }
  }

  /** An object: `member(key, line)` for each member, the scanner on its value. */
  members(member: (key: string, line: number) => void): void {
    this.expect("{");
    if (this.peek() === "}") return void this.at++;
    for (;;) {
      this.peek();
      const line = this.line;
      const key = this.string();
      this.expect(":");
      member(key, line);
      if (this.peek() === "}") return void this.at++;
      this.expect(",");
    }
  }

  /** An array: `element()` for each element. */
  elements(element: () => void): void {
    this.expect("[");
    if (this.peek() === "]") return void this.at++;
    for (;;) {
      element();
      if (this.peek() === "]") return void this.at++;
      this.expect(",");
    }
  }
}

/**
 * The lines of the entries of the lock `text`: each skill's `name` member
 * and each source's `key` member (a later duplicate wins, as in parsing).
 *
 * @example
 * ```ts
 * import { lockLines } from "./_lines.ts";
 * const lines = lockLines('{"skills": [{"name": "pdf"}],\n "sources": [{"key": "o/r"}]}');
 * console.log(lines.skills.get("pdf"), lines.sources.get("o/r")); // 1 2
 * ```
 */
export function lockLines(text: string): LockLines {
  const found: LockLines = { skills: new Map(), sources: new Map() };
  const scanner = new Scanner(text);
  const entries = (into: Map<string, number>, id: string) =>
    scanner.elements(() => {
      if (scanner.peek() !== "{") return scanner.skip();
      scanner.members((key, line) => {
        if (key === id && scanner.peek() === '"') into.set(scanner.string(), line);
        else scanner.skip();
      });
    });
  try {
    scanner.members((key) => {
      if (key === "skills" && scanner.peek() === "[") entries(found.skills, "name");
      else if (key === "sources" && scanner.peek() === "[") entries(found.sources, "key");
      else scanner.skip();
    });
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
  }
  return found;
}
