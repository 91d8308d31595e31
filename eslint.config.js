// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/** A receiver parses with its own link's parser (protocol/src/links.ts), never the any-way one. */
const ANY_DIRECTION = {
  name: '@browser-agent/protocol',
  importNames: ['parseFrame', 'frameSchema'],
  message: 'Parse with the parser of the link this code receives on (protocol/src/links.ts).',
};

/** Schemas are built with the configured zod (protocol/src/zod.ts says why). */
const ZOD_THROUGH_PROTOCOL = {
  name: 'zod',
  allowTypeImports: true,
  message:
    "Import z from the protocol ('./zod.js' inside it, '@browser-agent/protocol' outside): it is configured before any schema is built.",
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/test-results/**',
      '**/playwright-report/**',
      'mcp-server/bin/**',
      // Type declarations beside the build scripts (the bundler configs import them).
      'scripts/*.d.mts',
      // Browser code of the framework apps, in each framework's own dialect (JSX, Svelte, AMD).
      'e2e/fixtures/apps/src/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: [
            'vitest.config.ts',
            'eslint.config.js',
            'scripts/*.mjs',
            'e2e/fixtures/*/*.mjs',
            'mcp-server/build/*.mjs',
            'packaging/*/*.mjs',
          ],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { globals: globals.node },
  },
  {
    // The MCP server speaks MCP on stdout: nothing else may print there.
    files: ['mcp-server/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    languageOptions: { globals: globals.node },
    rules: { 'no-console': 'error' },
  },
  {
    // The extension runs in Chrome: no Node built-ins, no ws.
    files: ['extension/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    languageOptions: { globals: { ...globals.browser, chrome: 'readonly' } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'ws'], message: 'The extension runs in Chrome, not Node.' },
          ],
          paths: [ANY_DIRECTION, ZOD_THROUGH_PROTOCOL],
        },
      ],
    },
  },
  {
    // Test support for the real-Chromium tests: runs in Node under vitest, never in the extension.
    files: ['extension/src/background/testing/pageServer.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [ANY_DIRECTION, ZOD_THROUGH_PROTOCOL] }],
    },
  },
  {
    files: ['mcp-server/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [ANY_DIRECTION] }] },
  },
  {
    // The protocol package is shared by both sides and depends on zod only.
    files: ['protocol/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ regex: '^(?!zod$|\\.).*', message: 'protocol imports only zod.' }],
          paths: [ZOD_THROUGH_PROTOCOL],
        },
      ],
    },
  },
  {
    // The one module that configures zod before any schema is built.
    files: ['protocol/src/zod.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['e2e/**/*.ts', '**/*.test.ts'],
    languageOptions: { globals: globals.node },
  },
);
