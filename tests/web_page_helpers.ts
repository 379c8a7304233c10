/// <reference lib="dom" />
/**
 * What the browser page's two test files share (tests/web_test.ts, tests/web_explorer_test.ts):
 * Chromium's launch flags, a loopback-only static server for a built page, and small Playwright
 * helpers for files, text and downloads.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import { extname, join, normalize, sep } from "node:path";
import type { Page } from "playwright-core";

/** Chromium's flags for these tests: headless, no background traffic of its own. */
export const LAUNCH_ARGS: readonly string[] = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
};

/** A static server for the built page in `dist` on 127.0.0.1 (random port), refusing paths outside it. */
export function servePage(dist: string): Deno.HttpServer<Deno.NetAddr> {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const { pathname } = new URL(request.url);
    const relative = normalize(decodeURIComponent(pathname === "/" ? "/index.html" : pathname));
    const file = join(dist, relative);
    if (!file.startsWith(dist + sep)) return new Response("not found", { status: 404 });
    try {
      const body = await Deno.readFile(file);
      const type = TYPES[extname(file)] ?? "application/octet-stream";
      return new Response(body, { headers: { "content-type": type } });
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
}

/** A file for `page.setInputFiles`, named `name`, holding `content`. */
export function upload(name: string, content: string | Uint8Array) {
  return { name, mimeType: "application/json", buffer: Buffer.from(content) };
}

/** The text of the first element `selector` finds ("" when it has none). */
export async function text(page: Page, selector: string): Promise<string> {
  return (await page.locator(selector).textContent()) ?? "";
}

/** What `trigger` makes the page download: the suggested name and the text. */
export async function downloadText(page: Page, trigger: () => Promise<void>) {
  const [download] = await Promise.all([page.waitForEvent("download"), trigger()]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: await Deno.readTextFile(path) };
}
