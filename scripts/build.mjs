// `npm run build`: the server (tsc into dist), the typed SDK (packages/sdk/dist) and the web application
// (dist/web). Each step is skipped when its inputs are what its last build saw (a hash of their files,
// stamped beside its output), so `npm start` without source changes starts at once instead of waiting
// for tsc to re-check the whole program. `--force` builds anyway; step names (server, sdk, web) pick steps.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const force = args.includes('--force');
const only = args.filter((arg) => !arg.startsWith('--'));

function filesOf(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [full];
  return readdirSync(full, { recursive: true })
    .map((name) => path.join(full, String(name)))
    .filter((file) => !file.includes(`${path.sep}node_modules${path.sep}`) && statSync(file).isFile())
    .sort();
}

function hashOf(entries) {
  const hash = createHash('sha256');
  for (const file of entries.flatMap(filesOf)) {
    hash.update(path.relative(root, file));
    hash.update(readFileSync(file));
  }
  return hash.digest('hex');
}

function step(name, inputs, stamp, command, args) {
  if (only.length > 0 && !only.includes(name.split(' ')[0])) return;
  const stampFile = path.join(root, stamp);
  const hash = hashOf(inputs);
  if (!force && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === hash) {
    process.stdout.write(`${name}: up to date\n`);
    return;
  }
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  writeFileSync(stampFile, hash);
  process.stdout.write(`${name}: built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

const bin = (name) => path.join(root, 'node_modules', '.bin', name);
step(
  'server',
  ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'],
  'dist/.build-hash',
  bin('tsc'),
  ['-p', 'tsconfig.build.json'],
);
step(
  'sdk',
  ['packages/sdk/src', 'packages/sdk/tsconfig.json', 'packages/sdk/package.json'],
  'packages/sdk/dist/.build-hash',
  bin('tsc'),
  ['-p', 'packages/sdk/tsconfig.json'],
);
step(
  'web app',
  [
    'web/src',
    'web/public',
    'web/index.html',
    'web/vite.config.ts',
    'packages/sdk/src',
    'src/http/web-sections.ts',
    'package-lock.json',
  ],
  'dist/web/.build-hash',
  bin('vite'),
  ['build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'],
);
