// ESLint: typescript-eslint's recommended rules and the module boundary (eslint/module-boundary.js): `npm run lint`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import boundary from './eslint/module-boundary.js';
import debt from './eslint/boundary-debt.json' with { type: 'json' };

// Node's globals, for the plain JavaScript files (TypeScript checks its own)
const node = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'URLSearchParams',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'fetch',
    'performance',
    'AbortController',
    'AbortSignal',
    'TextEncoder',
    'TextDecoder',
    'structuredClone',
    'queueMicrotask',
    'globalThis',
    'Blob',
    'Response',
    'Request',
    'Headers',
    'crypto',
  ].map((g) => [g, 'readonly']),
);

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'artifacts/**',
      'cache/**',
      'circuits/build/**',
      'contracts/artifacts/**',
      'console/**',
      'sdk/**',
      'data/**',
      '.scratch/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ['**/*.{js,mjs}'], languageOptions: { globals: node } },
  {
    plugins: { credence: { rules: { 'module-boundary': boundary } } },
    rules: {
      'credence/module-boundary': ['error', { allow: debt.imports }],
      // a leading underscore names what is deliberately unused (a destructured field left out, a callback's argument)
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
);
