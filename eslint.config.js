import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const SERVER_CODE = { group: ['**/server/**'], message: 'The web app must not import server code.' };

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'src/server/db/migrations/**', 'test-results/**', '.tmp/**'] },
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
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      // Boundaries: the browser never imports server code.
      'no-restricted-imports': ['error', { patterns: [SERVER_CODE] }],
    },
  },
  {
    // Layers run one way: shared (components/, lib/, stores/, config) → features → app (docs/decisions/0094).
    // A feature uses another only through what it exports: the files at its root, usually index.ts,
    // never its api/, components/, hooks/, lib/, stores/, pages/ or content/ (app/ may compose them).
    files: ['src/web/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            SERVER_CODE,
            {
              regex: '^(\\.\\./){1,3}[^./][^/]*/(api|components|hooks|lib|stores|pages|content)/',
              message: "Import another feature through its public entry (features/<name>/index.ts), not its internals.",
            },
            { group: ['**/app/*', '**/app/**'], message: 'Features do not import the app: it composes them.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/web/components/**/*.{ts,tsx}', 'src/web/lib/**/*.{ts,tsx}', 'src/web/stores/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            SERVER_CODE,
            { group: ['**/features/**', '**/app/**'], message: 'Shared web code depends on no feature and not on the app.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/server/**', '**/web/**'], message: 'Shared code depends on nothing but itself and zod.' }] },
      ],
    },
  },
  // Server layering (docs/decisions/0100-server-layout.md). The database layer sits below every module:
  // it imports nothing from outside src/server/db. Modules reach each other through services, tables
  // and other helpers, never through another module's routes or module wiring (that is the app's job).
  {
    files: ['src/server/db/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['../*'], message: 'The database layer imports nothing from modules or the app above it.' }] },
      ],
    },
  },
  {
    files: ['src/server/modules/**/*.ts'],
    // Tests build the whole app on purpose.
    ignores: ['src/server/modules/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*/*.routes.js', '../*/*.module.js', '**/app.js', '**/server.js'],
              message: "Use another module's service or tables file; routes and module wiring are composed in app.ts.",
            },
          ],
        },
      ],
    },
  },
);
