import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import react from '@vitejs/plugin-react';
import { VitePWA } from 'vite-plugin-pwa';
import { i18n } from './i18n-plugin.ts';
import { SHARE_TARGET_FIELD, SHARE_TARGET_PATH } from './src/lib/offline-cache-rules.ts';

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
    closeBundle(error) {
      // A failed build has nothing to compress: let its own error be the one reported.
      if (error || !existsSync(outDir)) return;
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
 * The lazily loaded code of the screens people most often open first, by path. Their chunks are only
 * requested once the main bundle has run and the router has matched the URL; boot.ts preloads them
 * from the start instead (lib/early-requests.ts), one round trip earlier. Member screens include the
 * query cache's chunk and the members' navigation, which they always load with them (router.tsx,
 * root-layout.tsx); /explore includes its map.
 */
const MEMBER_SHELL = ['src/app/query-provider.tsx', 'src/app/layouts/top-nav.tsx'];
const ROUTE_MODULES: Record<string, string[]> = {
  '/': ['src/features/landing/routes/landing-page.tsx'],
  '/login': ['src/features/auth/routes/login-page.tsx'],
  '/feed': ['src/features/feed/routes/feed-page.tsx', ...MEMBER_SHELL],
  '/explore': [
    'src/features/explore/routes/explore-page.tsx',
    'src/features/explore/components/explore-map.tsx',
    ...MEMBER_SHELL,
  ],
};

/**
 * `<script type="application/json" id="route-modules">`: for each path of ROUTE_MODULES, the files
 * its modules need (their chunks, the chunks those import, and their CSS), less what the main entry
 * already loads. A data block is never executed, so the content security policy has nothing to allow.
 */
function routeModulesTag(bundle: Rollup.OutputBundle): string {
  const chunks = Object.values(bundle).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const closure = (start: Rollup.OutputChunk, into: Set<string>) => {
    const visit = (chunk: Rollup.OutputChunk) => {
      if (into.has(chunk.fileName)) return;
      into.add(chunk.fileName);
      for (const css of chunk.viteMetadata?.importedCss ?? []) into.add(css);
      for (const file of chunk.imports) visit(byFile.get(file)!);
    };
    visit(start);
    return into;
  };
  const entry = chunks.find((c) => c.isEntry && c.name === 'index');
  if (!entry) throw new Error('main entry missing from the bundle');
  const loaded = closure(entry, new Set());
  const table: Record<string, string[]> = {};
  for (const [path, modules] of Object.entries(ROUTE_MODULES)) {
    const files = new Set<string>();
    for (const module of modules) {
      const chunk = chunks.find((c) => c.facadeModuleId?.endsWith(`/${module}`));
      if (!chunk) throw new Error(`route module ${module} is not a chunk of its own`);
      closure(chunk, files);
    }
    table[path] = [...files].filter((file) => !loaded.has(file)).map((file) => `/${file}`);
  }
  // Each catalogue part of each language but English (which has none), as `catalogue:es:visitor`: the
  // app asks for the visitor part before its first render and the member part with a member screen's
  // code, each only once the bundle has run; boot.ts starts them at once (lib/early-requests.ts).
  for (const chunk of chunks) {
    const part = /^\0virtual:messages\/([a-z]+)\/(visitor|member)$/.exec(chunk.facadeModuleId ?? '');
    if (!part) continue;
    const files = closure(chunk, new Set());
    table[`catalogue:${part[1]}:${part[2]}`] = [...files]
      .filter((file) => !loaded.has(file))
      .map((file) => `/${file}`);
  }
  return `<script type="application/json" id="route-modules">${JSON.stringify(table)}</script>`;
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
          ...(ctx.bundle ? [routeModulesTag(ctx.bundle)] : []),
        ].join('\n    ');
        // Module scripts run in document order: boot goes right before the app's own script.
        const at = html.indexOf('<script type="module"');
        if (at < 0) throw new Error('index.html has no module script');
        return `${html.slice(0, at)}${tags}\n    ${html.slice(at)}`;
      },
    },
  };
}

/**
 * React Router 7's package exports point only at its development build, which carries its dev warnings
 * and their checks (remix-run/react-router#12532, #14102: "intended to be temporary"). The package
 * ships a production build beside it; the app's build uses that one. The dev server keeps the warnings.
 */
const REACT_ROUTER_PRODUCTION = join(
  dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

/**
 * The installable app and its service worker (issue 28). The worker is sw/sw.ts, built to /sw.js with
 * the build's file list injected for precaching (injectManifest: the caching rules are code we read,
 * not generated). Registration is the app's own few lines (lib/register-service-worker.ts), not the
 * plugin's, to keep workbox-window off the landing page's JavaScript.
 */
const pwa = () =>
  VitePWA({
    strategies: 'injectManifest',
    srcDir: 'sw',
    filename: 'sw.ts',
    injectRegister: false,
    manifestFilename: 'manifest.webmanifest',
    injectManifest: {
      // The shell: scripts, styles and the page, plus the icons the manifest and notifications use.
      // Not the source maps, nor the .gz/.br copies (the server picks those per request).
      globPatterns: ['**/*.{js,css,html}', 'icons/*.png', 'favicon.svg'],
      globIgnores: ['sw-push.js'],
      maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
    },
    manifest: {
      name: 'Neighbourhood Cats',
      short_name: 'Cats',
      description:
        'Photograph the cats in your street, share them, and see on a map where they were spotted.',
      id: '/',
      start_url: '/feed',
      scope: '/',
      display: 'standalone',
      theme_color: '#2f2a4a',
      background_color: '#f3f0fa',
      icons: [
        { src: '/icons/app-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
        { src: '/icons/app-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
        { src: '/icons/app-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      ],
      shortcuts: [
        {
          name: 'Snap a cat',
          short_name: 'Spot',
          url: '/spot',
          icons: [{ src: '/icons/app-192.png', sizes: '192x192' }],
        },
        {
          name: 'Explore the map',
          short_name: 'Explore',
          url: '/explore',
          icons: [{ src: '/icons/app-192.png', sizes: '192x192' }],
        },
      ],
      // Android's share sheet: a photo shared to the app opens Spot with it (sw/sw.ts).
      share_target: {
        action: SHARE_TARGET_PATH,
        method: 'POST',
        enctype: 'multipart/form-data',
        params: {
          files: [{ name: SHARE_TARGET_FIELD, accept: ['image/jpeg', 'image/png', '.jpg', '.jpeg', '.png'] }],
        },
      },
    },
  });

export default defineConfig(({ command }) => ({
  plugins: [react(), ...i18n(command), precompress(), bootEntry(), pwa()],
  resolve: {
    alias: command === 'build' ? [{ find: /^react-router$/, replacement: REACT_ROUTER_PRODUCTION }] : [],
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000', '/media': 'http://localhost:3000' },
  },
  build: { outDir: 'dist', sourcemap: true, assetsInlineLimit: 0 },
}));
