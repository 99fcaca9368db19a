// `npm run dev`: the API (restarting on source changes) and the web application's Vite dev server with
// hot reload, which proxies API paths to it. Open http://127.0.0.1:5173/.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const port = process.env.PORT ?? '8080';
const children = [
  spawn(bin('tsx'), ['watch', '--clear-screen=false', 'src/cli.ts', 'serve'], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      PORT: port,
      LEADFLOW_PUBLIC_URL: process.env.LEADFLOW_PUBLIC_URL ?? 'http://127.0.0.1:5173',
    },
  }),
  spawn(bin('vite'), ['--config', 'web/vite.config.ts', '--host', '127.0.0.1'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, LEADFLOW_DEV_API: `http://127.0.0.1:${port}` },
  }),
];
const stop = () => {
  for (const child of children) child.kill('SIGINT');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', stop);
