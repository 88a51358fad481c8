// Lint for the whole tree, and the layering the architecture rests on:
// - src/core/** is plain Node: it imports neither `vscode` nor anything under src/host;
// - webview/** runs in a browser: from src/ it may import only the shared activity types
//   (src/core/activity*), and never `vscode`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeGlobals = Object.fromEntries(
  ['process', 'console', 'Buffer', 'URL', 'fetch', 'AbortController', 'AbortSignal', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'structuredClone']
    .map((name) => [name, 'readonly']),
);

export default tseslint.config(
  {
    ignores: ['dist/**', 'out/**', 'node_modules/**', 'test/host/node_modules/**', 'test/host/.state/**', '**/*.vsix', '.tmp/**', 'test/unit/core/tools/astGrep/fixtures/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { globals: nodeGlobals },
  },
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'src/core runs under plain Node: ask for what you need through a port that src/host implements.' }],
        patterns: [{ regex: '(^|/)host(/|$)', message: 'src/core must not depend on src/host (the host depends on the core).' }],
      }],
    },
  },
  {
    files: ['webview/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'The webview runs in a browser: talk to the extension with postMessage.' }],
        patterns: [{ regex: '^(\\.\\./)+src/(?!core/activity)', message: 'The webview shares only the activity types (src/core/activity*) with the extension.' }],
      }],
    },
  },
);
