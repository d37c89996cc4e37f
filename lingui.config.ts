import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';

// One PO catalogue per language and side (decisions 0326 and 0328). `npm run i18n:extract` fills the
// web's from the macros in src/web and the server's from the messages marked /*i18n*/ in src/server;
// `pseudo` is written by scripts/pseudo-locale.mjs from English, for tests that look for text left
// untranslated or cut short.
export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'es', 'ru', 'de', 'pseudo'],
  fallbackLocales: { default: 'en' },
  catalogs: [
    {
      path: '<rootDir>/src/web/locales/{locale}/messages',
      include: ['<rootDir>/src/web'],
      exclude: ['**/*.test.ts', '**/*.test.tsx', '**/node_modules/**', '<rootDir>/src/server/**'],
    },
    {
      path: '<rootDir>/src/server/locales/{locale}/messages',
      include: ['<rootDir>/src/server'],
      exclude: ['**/*.test.ts', '**/node_modules/**', '<rootDir>/src/web/**', '<rootDir>/src/server/test/**'],
    },
  ],
  // Source references without line numbers, so moving code does not rewrite every catalogue.
  format: formatter({ lineNumbers: false }),
  // By where a message is used (file, then line): the same order on every run, and a translator reads
  // a screen's messages together. Lingui's default ("message") left the server's messages, whose English
  // is their id, in a different order each time.
  orderBy: 'origin',
});
