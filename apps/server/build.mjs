import { build } from 'esbuild';

// Bundles the server and the workspace's TypeScript packages; npm dependencies stay external.
// Every entry lands in dist/ itself: the bundled database client starts ./pglite-worker.js beside it.
await build({
  entryPoints: {
    server: 'src/server.ts',
    'migrate-cli': 'src/db/migrate-cli.ts',
    'pglite-worker': 'src/db/pglite-worker.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
  plugins: [
    {
      name: 'externalize-npm-packages',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@cats/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
