#!/usr/bin/env node
// The `leadflow` command runs the compiled CLI (built by `npm install` / `npm run build`).
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('Leadflow is not built yet: run `npm install` (or `npm run build`) first.\n');
  process.exit(1);
}
await import(cli.href);
