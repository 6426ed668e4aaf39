import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Writes file.br and file.gz beside every text asset of the build, once, at maximum compression; the
 * server sends them to browsers that accept them (@fastify/static's preCompressed) and spends no CPU
 * compressing per request. Source maps stay uncompressed: browsers do not fetch them.
 */
function precompress(): Plugin {
  const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;
  let outDir = 'dist';
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? walk(path) : [path];
    });
  return {
    name: 'cats-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir.startsWith('/')
        ? config.build.outDir
        : join(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const path of walk(outDir)) {
        if (!COMPRESSIBLE.test(path)) continue;
        const body = readFileSync(path);
        if (body.length < 1024) continue;
        writeFileSync(`${path}.gz`, gzipSync(body, { level: 9 }));
        writeFileSync(
          `${path}.br`,
          brotliCompressSync(body, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
            },
          }),
        );
      }
    },
  };
}

/**
 * src/boot.ts as its own entry, loaded before the app's bundle. Listed in index.html beside main.tsx,
 * Vite would fold both into one bundle and boot's requests would wait for all of it
 * (lib/early-requests.ts says why they must not).
 */
function bootEntry(): Plugin {
  const BOOT = 'src/boot.ts';
  return {
    name: 'cats-boot-entry',
    config: (config) => ({
      build: {
        rollupOptions: {
          input: { index: join(config.root ?? process.cwd(), 'index.html'), boot: BOOT },
        },
      },
    }),
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const boot = Object.values(ctx.bundle ?? {}).find(
          (chunk) => chunk.type === 'chunk' && chunk.isEntry && chunk.name === 'boot',
        );
        if (ctx.bundle && boot?.type !== 'chunk') throw new Error('boot entry missing from the bundle');
        const src = boot?.type === 'chunk' ? `/${boot.fileName}` : `/${BOOT}`;
        const preloads = boot?.type === 'chunk' ? boot.imports : [];
        const tags = [
          `<script type="module" crossorigin src="${src}"></script>`,
          ...preloads.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
        ].join('\n    ');
        // Module scripts run in document order: boot goes right before the app's own script.
        const at = html.indexOf('<script type="module"');
        if (at < 0) throw new Error('index.html has no module script');
        return `${html.slice(0, at)}${tags}\n    ${html.slice(at)}`;
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress(), bootEntry()],
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000', '/media': 'http://localhost:3000' },
  },
  build: { outDir: 'dist', sourcemap: true, assetsInlineLimit: 0 },
});
