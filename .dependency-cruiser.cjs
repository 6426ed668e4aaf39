/**
 * The allowed import graph of the server and the web app, written down once and enforced by
 * `npm run lint` (dependency-cruiser; issue 47). docs/architecture.md draws it and says where a new
 * module goes. Tests are left out: a test may import whatever it exercises.
 *
 * Server: the lower layers come first, bottom to top; each may import only the layers before it and
 * never a module. The domain modules follow, bottom to top; each may import the lower layers and the
 * modules before it, never one after it. What two modules both need moves below both; a module that
 * must react to another's action subscribes to an event (`events/`) instead of being imported by it.
 */

/** Lower layers, bottom to top (a layer is a folder of apps/server/src, or a file for config). */
const SERVER_LAYERS = [
  ['config', '(config|secrets)\\.ts$'],
  ['lib', 'lib/'],
  ['db', 'db/'],
  ['media', 'media/'],
  ['i18n', 'i18n/'],
  ['plugins', 'plugins/'],
  ['events', 'events/'],
];

/**
 * Domain modules (apps/server/src/modules/<name>), bottom to top. The shared ones first: where things
 * are and who may see what (location, visibility), then sending mail, then the product's own modules
 * in the order they build on each other. A new module goes above everything it imports.
 */
const SERVER_MODULES = [
  'location',
  'visibility',
  'mail',
  'health',
  'metrics',
  'suspensions',
  'auth',
  'posts',
  'social',
  'notifications',
  'push',
  'explore',
  'cats',
  'moderation',
  'groups',
  'profiles',
  'data-export',
  'email-change',
  'password-reset',
  'account',
  'backup',
];

const SRC = '^apps/server/src/';
/** Where the app is put together: imports everything, imported by nothing below it. */
const ASSEMBLY = `${SRC}(app|bootstrap|server)\\.ts$|${SRC}seed/`;
const alternatives = (patterns) => `(${patterns.join('|')})`;

const layerRules = SERVER_LAYERS.map(([name, pattern], i) => ({
  name: `server-layer-${name}`,
  severity: 'error',
  comment: `${name} may import only the layers below it (${
    SERVER_LAYERS.slice(0, i)
      .map(([n]) => n)
      .join(', ') || 'none'
  }), never a module`,
  from: { path: `${SRC}${pattern}` },
  to: {
    path: [`${SRC}modules/`, ASSEMBLY, ...SERVER_LAYERS.slice(i + 1).map(([, above]) => `${SRC}${above}`)],
  },
}));

const moduleRules = SERVER_MODULES.map((name, i) => ({
  name: `server-module-${name}`,
  severity: 'error',
  comment: `modules/${name} may import only the modules below it in .dependency-cruiser.cjs`,
  from: { path: `${SRC}modules/${name}/` },
  to: {
    path: [
      ASSEMBLY,
      ...(i + 1 < SERVER_MODULES.length
        ? [`${SRC}modules/${alternatives(SERVER_MODULES.slice(i + 1))}/`]
        : []),
    ],
  },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    ...moduleRules,
    {
      name: 'server-module-listed',
      severity: 'error',
      comment: 'every server module has its place in SERVER_MODULES (.dependency-cruiser.cjs)',
      from: { path: `${SRC}modules/` },
      to: { path: `${SRC}modules/`, pathNot: `${SRC}modules/${alternatives(SERVER_MODULES)}/` },
    },
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment: 'no two folders import each other, directly or through others',
      scope: 'folder',
      from: { path: SRC },
      to: { circular: true },
    },
    {
      name: 'web-feature-apart',
      severity: 'error',
      comment: 'a web feature never imports another feature: shared pieces live in components/ and lib/',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/features/', pathNot: '^apps/web/src/features/$1/' },
    },
    {
      name: 'web-shared-below-features',
      severity: 'error',
      comment: 'components/, lib/ and i18n/ serve the features and the app, and import neither',
      from: { path: '^apps/web/src/(components|lib|i18n)/' },
      to: { path: '^apps/web/src/(features|app)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['\\.test\\.tsx?$', '^apps/server/test/', '/test-support/'] },
    tsPreCompilationDeps: true,
    combinedDependencies: false,
    moduleSystems: ['es6'],
  },
};
