import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';

// One PO catalogue per language (decision 0326). `npm run i18n:extract` fills them from the macros in
// src/web; `pseudo` is written by scripts/pseudo-locale.mjs from English, for tests that look for text
// left untranslated or cut short.
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'es', 'ru', 'de', 'pseudo'],
  fallbackLocales: { default: 'en' },
  catalogs: [
    {
      path: '<rootDir>/src/web/locales/{locale}/messages',
      include: ['<rootDir>/src/web'],
      exclude: ['**/*.test.ts', '**/*.test.tsx', '**/node_modules/**'],
    },
  ],
  // Source references without line numbers, so moving code does not rewrite every catalogue.
  format: formatter({ lineNumbers: false }),
});
