/**
 * The fixture of the lock's trusted-signer tests: keys made by the real
 * `ssh-keygen` outside the project, skills signed by the real CLI, and a
 * project locked with a `signers` block requiring them.
 *
 * @module
 */
import { equal } from "node:assert/strict";
import { join } from "node:path";
import { run, type Sandbox, skillMd, writeTree } from "./helpers.ts";

/** The project lock's file name. */
export const LOCK = "skills-anywhere.lock.json";
/** Where the fixture's skills live in the project. */
export const SKILLS = ".claude/skills";

/** Runs the real ssh-keygen; returns its stdout. */
export async function sshKeygen(args: string[]): Promise<string> {
  const result = await run("ssh-keygen", args);
  if (result.code !== 0) throw new Error(`ssh-keygen ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

/** A new Ed25519 key `<root>/<name>` (outside the project); returns its public key text. */
export async function newKey(box: Sandbox, name: string): Promise<string> {
  await sshKeygen(["-q", "-t", "ed25519", "-N", "", "-C", name, "-f", join(box.root, name)]);
  return (await Deno.readTextFile(join(box.root, `${name}.pub`))).split(" ").slice(0, 2).join(" ");
}

/** The `SHA256:` fingerprint `ssh-keygen -lf` prints for the key `<root>/<name>`. */
export async function fingerprintOf(box: Sandbox, name: string): Promise<string> {
  return (await sshKeygen(["-lf", join(box.root, `${name}.pub`)])).split(" ")[1];
}

/** Signs `<SKILLS>/<skill>` with the key `<root>/<key>` through the CLI. */
export async function signSkill(box: Sandbox, skill: string, key = "ana"): Promise<void> {
  const signed = await box.cli("sign", `${SKILLS}/${skill}`, "--key", join(box.root, key));
  equal(signed.code, 0, signed.stderr);
}

/** Sets the lock's signers block by hand, as a reviewer would. */
export async function setSigners(box: Sandbox, signers: unknown): Promise<void> {
  const file = join(box.project, LOCK);
  const lock = JSON.parse(await Deno.readTextFile(file));
  const { schema, skills, sources } = lock;
  await Deno.writeTextFile(file, JSON.stringify({ schema, signers, skills, sources }, null, 2));
}

/**
 * A project with `pdf` (and a script) and `excel`, both signed by ana (trusted as ana@example.com
 * in `.github/allowed_signers`), locked with `require: true`.
 */
export async function signedProject(box: Sandbox): Promise<void> {
  await writeTree(box.project, {
    [`${SKILLS}/pdf/SKILL.md`]: skillMd("pdf", "Fill PDF forms.", "Run the script."),
    [`${SKILLS}/pdf/scripts/fill.py`]: "print('fill')\n",
    [`${SKILLS}/excel/SKILL.md`]: skillMd("excel", "Edit spreadsheets.", "Body."),
  });
  const pub = await newKey(box, "ana");
  await writeTree(box.project, {
    ".github/allowed_signers": `ana@example.com namespaces="skills-anywhere" ${pub}\n`,
  });
  await signSkill(box, "pdf");
  await signSkill(box, "excel");
  equal((await box.cli("lock")).code, 0);
  await setSigners(box, { allowed_signers: ".github/allowed_signers", require: true });
}
