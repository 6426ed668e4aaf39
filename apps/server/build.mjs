import { build } from 'esbuild';

// Bundles the server and the workspace's TypeScript packages; npm dependencies stay external.
await build({
  entryPoints: ['src/server.ts', 'src/db/migrate-cli.ts'],
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
