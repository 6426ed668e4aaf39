import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { i18n } from './i18n-plugin.ts';

export default defineProject({
  // The catalogues' virtual modules; messages stay unparsed text in tests (the parser is there).
  plugins: [react(), ...i18n('serve')],
  test: { name: 'web', include: ['src/**/*.test.{ts,tsx}'], environment: 'jsdom' },
});
