// `npm run build` second half: the typed SDK (packages/sdk/dist) and the web application (dist/web).
// Each is skipped when its sources are what the last build saw (a hash of their files), so a restart
// without changes does not rebuild them. `--force` builds anyway.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const force = process.argv.includes('--force');

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
