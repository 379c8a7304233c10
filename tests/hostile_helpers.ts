/**
 * What the hostile-input and guard tests share, over the one sandbox of `./helpers.ts`: a
 * lock-down step (DSH_HOME created, git limited to local repositories) and a tree fingerprint.
 *
 * @module
 */
import { lstat, readdir, readFile, readlink } from "node:fs/promises";
import { join } from "node:path";
import { sha256Hex } from "../lib/hash.ts";
import type { Sandbox } from "./helpers.ts";

/**
 * Prepares a sandbox for hostile input: DSH_HOME exists (so a fingerprint taken before a run
 * already holds it), and every git the CLI or the server runs may use local repositories only, so
 * a mistake can never reach the network. Returns the box.
 */
export async function lockDown(box: Sandbox): Promise<Sandbox> {
  await Deno.mkdir(box.dshHome, { recursive: true });
  box.env.GIT_ALLOW_PROTOCOL = "file";
  return box;
}

/**
 * One line per entry below `root` (sorted): path, type, permission bits, modification time,
 * size and SHA-256 of the bytes (or the link target). Paths under `exclude` are left out, and
 * so are the times of their ancestors (creating the excluded directory touches its parent).
 */
export async function fingerprint(root: string, exclude: string[] = []): Promise<string[]> {
  const out: string[] = [];
  const skipTime = (path: string) => exclude.some((e) => e.startsWith(`${path}/`));
  const visit = async (path: string, rel: string) => {
    const info = await lstat(path, { bigint: true });
    const mode = (info.mode & 0o7777n).toString(8);
    const time = skipTime(path) ? "-" : info.mtimeNs.toString();
    if (info.isSymbolicLink()) {
      out.push(`${rel}\tlink\t${mode}\t${time}\t${await readlink(path)}`);
    } else if (info.isFile()) {
      const sha = sha256Hex(await readFile(path));
      out.push(`${rel}\tfile\t${mode}\t${time}\t${info.size}\t${sha}`);
    } else if (info.isDirectory()) {
      out.push(`${rel}\tdir\t${mode}\t${time}`);
      for (const name of (await readdir(path)).sort()) {
        const child = join(path, name);
        if (!exclude.includes(child)) await visit(child, `${rel}/${name}`);
      }
    } else {
      out.push(`${rel}\tother\t${mode}\t${time}`);
    }
  };
  await visit(root, ".");
  return out;
}
