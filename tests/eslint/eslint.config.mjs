// The JavaScript lint of the page (web/js) and the service worker (web/sw.js): eslint's recommended rules, which
// catch real mistakes (undefined names, unused variables, unreachable code, duplicate keys), and a few that keep the
// style one: strict equality, const where nothing is reassigned, no var.
import js from '@eslint/js';
import globals from 'globals';

export default [
  js.configs.recommended,
  {
    files: ['web/js/**/*.js', 'web/js/**/*.mjs'],
    languageOptions: { ecmaVersion: 2024, sourceType: 'module', globals: { ...globals.browser } },
  },
  {
    files: ['web/sw.js'],
    // __FILES__ and the build's ids are filled in by build.py
    languageOptions: { ecmaVersion: 2024, sourceType: 'script', globals: { ...globals.serviceworker, __FILES__: 'readonly' } },
  },
  {
    rules: {
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-var': 'error',
      'prefer-const': 'error',
      'no-unused-vars': ['error', { args: 'none', ignoreRestSiblings: true }],  // { dropped, ...kept } drops keys
    },
  },
];
