import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import prettier from 'eslint-config-prettier';
import formatjs from 'eslint-plugin-formatjs';
import { NOT_YET_TRANSLATED } from './apps/web/src/i18n/not-yet-translated.js';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-pseudo/**',
      '**/node_modules/**',
      'data/**',
      '.data*/**',
      'apps/server/drizzle/**',
      'bench/.work/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Issue 28: every user-visible text of the web app is a message (src/i18n/message.tsx), never a
    // literal in JSX, including the attributes people read or hear.
    files: ['apps/web/src/**/*.tsx'],
    ignores: ['apps/web/src/**/*.test.tsx', ...NOT_YET_TRANSLATED],
    plugins: { formatjs },
    settings: {
      formatjs: {
        additionalComponentNames: ['Message'],
        additionalFunctionNames: ['t', 'translate', 'translateParts'],
      },
    },
    rules: {
      'formatjs/no-literal-string-in-jsx': [
        'error',
        {
          props: {
            include: [
              ['*', '{aria-label,aria-description,aria-roledescription,alt,title,placeholder,label}'],
            ],
          },
        },
      ],
      'formatjs/enforce-placeholders': 'error',
      'formatjs/no-multiple-whitespaces': 'error',
      'formatjs/no-offset': 'error',
      'formatjs/enforce-plural-rules': ['error', { one: true, other: true }],
    },
  },
  {
    // Issue 47: a file holds one responsibility. Past 500 lines, split it along them, or say at its top
    // why it stays whole (`/* eslint-disable max-lines -- why */`).
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: { 'max-lines': ['error', { max: 500 }] },
  },
  {
    // Service worker scripts, served as they are (apps/web/public).
    files: ['apps/web/public/**/*.js'],
    languageOptions: { globals: { ...globals.serviceworker }, sourceType: 'script' },
  },
  prettier,
);
