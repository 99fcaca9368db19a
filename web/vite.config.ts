// The web application's build: React + TypeScript into dist/web with content-hashed file names, plus a
// gzip and a brotli copy of every text asset for the server to send as they are (no compression per request).
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));
const outDir = path.resolve(here, '../dist/web');
const api = process.env.LEADFLOW_DEV_API ?? 'http://127.0.0.1:8080';

function precompress(): Plugin {
  return {
    name: 'leadflow-precompress',
    apply: 'build',
    async closeBundle() {
      const files = await readdir(outDir, { recursive: true });
      for (const file of files) {
        if (!/\.(js|css|html|svg|json)$/.test(file)) continue;
        const full = path.join(outDir, file);
        const body = await readFile(full);
        if (body.length < 1024) continue;
        await writeFile(`${full}.gz`, gzipSync(body, { level: 9 }));
        await writeFile(
          `${full}.br`,
          brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

export default defineConfig({
  root: here,
  plugins: [react(), precompress()],
  resolve: {
    alias: { '@leadflow/sdk': path.resolve(here, '../packages/sdk/src/index.ts') },
  },
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    chunkSizeWarningLimit: 700,
  },
  server: {
    port: 5173,
    proxy: {
      '^/[a-z0-9-]+/api(/|$)': api,
      '/openapi.json': api,
      '/docs': api,
      '/cloud-browser': { target: api, ws: true },
    },
  },
});
