/**
 * The browser the browser tests drive, found or fetched by the tests themselves (no fixed path, no
 * setup step outside `deno task test`). In order:
 *
 * 1. `CHROME_PATH`, when set (it must name an executable file);
 * 2. a Chromium on PATH (`chromium`, `chromium-browser`, `google-chrome`, `google-chrome-stable`);
 * 3. the headless Chromium shipped inside the npm package `@sparticuz/chromium` (MIT; Chromium is
 *    BSD-licensed), installed by scripts/npm_tools.ts into the git-ignored `.cache/` and unpacked
 *    once into `.cache/browser/` with the shared libraries (NSS) and the fonts it ships, so it
 *    runs on a machine with only Node.js and npm.
 *
 * @module
 */
import { brotliDecompress } from "node:zlib";
import { promisify } from "node:util";
import { delimiter, join } from "node:path";
import { npmTool } from "../scripts/npm_tools.ts";
import { ROOT } from "./helpers.ts";

/** The npm package shipping a headless Chromium, at an exact version. */
const SHIPPED_CHROMIUM = "@sparticuz/chromium@153.0.0";
const NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];
const inflate = promisify(brotliDecompress);

/** What to launch: the executable and the environment it needs (empty for a system browser). */
export interface BrowserFound {
  executablePath: string;
  env: Record<string, string>;
  /** Where it came from: "CHROME_PATH", "PATH" or the npm package. */
  origin: string;
}

async function isFile(path: string): Promise<boolean> {
  return await Deno.stat(path).then((info) => info.isFile, () => false);
}

/** The first of NAMES in the PATH directories, or undefined. */
async function onPath(path: string | undefined): Promise<string | undefined> {
  for (const dir of (path ?? "").split(delimiter).filter((part) => part !== "")) {
    for (const name of NAMES) {
      if (await isFile(join(dir, name))) return join(dir, name);
    }
  }
  return undefined;
}

/** Extracts an uncompressed tar (regular files and folders only) into `dir`. */
async function untar(tar: Uint8Array, dir: string): Promise<void> {
  const decoder = new TextDecoder();
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    const name = decoder.decode(header.subarray(0, 100)).replace(/\0.*$/s, "");
    if (name === "") break;
    const size = parseInt(decoder.decode(header.subarray(124, 136)).replace(/\0.*$/s, ""), 8) || 0;
    const type = String.fromCharCode(header[156]);
    const target = join(dir, name);
    if (name.split("/").includes("..")) throw new Error(`unsafe tar path ${name}`);
    if (type === "5") await Deno.mkdir(target, { recursive: true });
    if (type === "0" || type === "\0") {
      await Deno.mkdir(join(target, ".."), { recursive: true });
      await Deno.writeFile(target, tar.subarray(at + 512, at + 512 + size));
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
}

async function unpacked(bin: string, name: string): Promise<Uint8Array> {
  return new Uint8Array(await inflate(await Deno.readFile(join(bin, name))));
}

/** Unpacks the shipped browser into `.cache/browser/<version>` once (staged, then renamed). */
async function shippedChromium(): Promise<BrowserFound> {
  const modules = await npmTool(SHIPPED_CHROMIUM, "@sparticuz/chromium/bin/chromium.br");
  const folder = join(ROOT, ".cache", "browser", SHIPPED_CHROMIUM.replace(/[@/]/g, "_"));
  const executablePath = join(folder, "chromium");
  if (!(await isFile(executablePath))) {
    const bin = join(modules, "@sparticuz", "chromium", "bin");
    await Deno.mkdir(join(folder, ".."), { recursive: true });
    const staging = await Deno.makeTempDir({ dir: join(folder, ".."), prefix: ".unpack-" });
    try {
      await Deno.writeFile(join(staging, "chromium"), await unpacked(bin, "chromium.br"));
      await Deno.chmod(join(staging, "chromium"), 0o755);
      await untar(await unpacked(bin, "al2023.tar.br"), staging);
      await untar(await unpacked(bin, "fonts.tar.br"), staging);
      await Deno.rename(staging, folder).catch(async (error) => {
        if (!(await isFile(executablePath))) throw error; // another test file unpacked it first
      });
    } finally {
      await Deno.remove(staging, { recursive: true }).catch(() => {});
    }
  }
  const fontsConf = join(folder, "fonts.local.conf");
  if (!(await isFile(fontsConf))) {
    const xml = `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>` +
      `<dir>${join(folder, "fonts")}</dir><cachedir>${join(folder, "fonts-cache")}</cachedir>` +
      `</fontconfig>\n`;
    await Deno.writeTextFile(fontsConf, xml);
  }
  const env = { LD_LIBRARY_PATH: join(folder, "lib"), FONTCONFIG_FILE: fontsConf };
  return { executablePath, env, origin: SHIPPED_CHROMIUM };
}

/**
 * The browser to launch: `CHROME_PATH`, else a Chromium on PATH, else the npm-shipped one.
 *
 * @example
 * ```ts ignore
 * const found = await findBrowser();
 * await chromium.launch({ executablePath: found.executablePath, env: { ...Deno.env.toObject(), ...found.env } });
 * ```
 */
export async function findBrowser(): Promise<BrowserFound> {
  const override = Deno.env.get("CHROME_PATH");
  if (override !== undefined && override !== "") {
    if (!(await isFile(override))) throw new Error(`CHROME_PATH names no file: ${override}`);
    return { executablePath: override, env: {}, origin: "CHROME_PATH" };
  }
  const system = await onPath(Deno.env.get("PATH"));
  if (system !== undefined) return { executablePath: system, env: {}, origin: "PATH" };
  return await shippedChromium();
}
