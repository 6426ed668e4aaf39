import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { i18n } from './i18n-plugin.ts';

export default defineProject({
  // The catalogues' virtual modules; messages stay unparsed text in tests (the parser is there).
  plugins: [react(), ...i18n('serve')],
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    // One module graph and jsdom per worker, not per file (docs/performance.md, "CI"): each test renders
    // into a DOM that Testing Library empties after it, with a query client of its own.
    isolate: false,
  },
});
