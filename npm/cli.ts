#!/usr/bin/env node
// The npm package's bin: runs the CLI unconditionally (import.meta.main is not set under Node).
import process from "node:process";
import { main } from "../lib/cli/mod.ts";

process.exitCode = await main(process.argv.slice(2));
