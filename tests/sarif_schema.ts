/**
 * The official SARIF 2.1.0 JSON schema (`sarif-2.1.0-rtm.5.json`, the
 * 2.1.0 release, MIT, shipped in Microsoft's `@microsoft/jest-sarif` package)
 * and a validator for it (the Ajv 6 that package depends on, with the
 * draft-04 meta-schema the schema is written in), both installed from npm
 * into `.cache/npm-tools/` on first use.
 *
 * @module
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { npmTool } from "../scripts/npm_tools.ts";

const PACKAGE = "@microsoft/jest-sarif@1.0.0-beta.0";
const SCHEMA = "@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json";

interface AjvError {
  dataPath: string;
  message?: string;
}
interface Ajv {
  addMetaSchema(schema: unknown): void;
  compile(schema: unknown): ((data: unknown) => boolean) & { errors?: AjvError[] | null };
}

let validator: Promise<(log: unknown) => string[]> | undefined;

async function build(): Promise<(log: unknown) => string[]> {
  const modules = await npmTool(PACKAGE, SCHEMA);
  const require = createRequire(join(modules, "index.js"));
  const AjvClass = require("ajv") as new (options: object) => Ajv;
  const ajv = new AjvClass({ schemaId: "auto", allErrors: true, format: "full" });
  ajv.addMetaSchema(require("ajv/lib/refs/json-schema-draft-04.json"));
  const schema = JSON.parse(await Deno.readTextFile(join(modules, SCHEMA)));
  const validate = ajv.compile(schema);
  return (log) =>
    validate(log) ? [] : (validate.errors ?? []).map((e) => `${e.dataPath} ${e.message}`);
}

/** The schema violations of `log` (empty when it is a valid SARIF 2.1.0 log). */
export function sarifErrors(log: unknown): Promise<string[]> {
  validator ??= build();
  return validator.then((validate) => validate(log));
}
