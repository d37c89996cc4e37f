import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { aliasFor, rewrite } from './use-import-aliases.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const at = (file) => path.join(ROOT, file);
const rewritten = (file, text) => rewrite(at(file), text).text;

describe('use-import-aliases: which imports become aliases', () => {
  const cases = [
    // [importer, specifier, expected (null: stays as written)]
    ['src/web/features/exchange/components/panel.tsx', '../../../lib/api-client', '#web/lib/api-client'],
    ['src/web/features/exchange/components/panel.tsx', '../../../../shared/schemas/exchange', '#shared/schemas/exchange'],
    ['src/web/features/exchange/components/panel.tsx', '../../auth/stores/session-store', '#web/features/auth/stores/session-store'],
    ['src/web/features/exchange/components/panel.tsx', '../api/exchange-api', null],
    ['src/web/features/exchange/components/panel.tsx', './format', null],
    ['src/web/features/exchange/register.ts', './components/panel', null],
    ['src/web/app/router.tsx', '../features/marketing/pages/home-page', '#web/features/marketing/pages/home-page'],
    ['src/web/app/layout/site-header.tsx', '../route-error-boundary', null],
    ['src/web/main.tsx', './app/app', null],
    ['src/web/main.tsx', './styles.css', null],
    ['src/server/modules/credits/credits.tables.ts', '../../../shared/schemas/credits.js', '#shared/schemas/credits.js'],
    ['src/server/modules/ads/ads.tables.ts', '../users/users.tables.js', '#server/modules/users/users.tables.js'],
    ['src/server/modules/ads/ads.service.ts', '../../context.js', '#server/context.js'],
    ['src/server/modules/ads/ads.service.ts', './ads.tables.js', null],
    ['src/server/sandbox/telegram/telegram.sandbox.ts', '../discord/html-page.js', '#server/sandbox/discord/html-page.js'],
    ['src/server/sandbox/sandbox.routes.ts', './discord/discord.sandbox.js', null],
    ['src/server/db/schema.ts', '../modules/users/users.tables.js', '#server/modules/users/users.tables.js'],
    ['src/server/db/schema.ts', './client.js', null],
    ['src/server/app.ts', './modules/auth/auth.routes.js', null],
    ['src/server/cli.ts', '../shared/constants.js', '#shared/constants.js'],
    ['src/shared/schemas/auth.ts', '../constants.js', '#shared/constants.js'],
    ['src/shared/schemas/auth.ts', './common.js', null],
    ['e2e/status/status-page.spec.ts', '../../src/shared/schemas/status.js', '#shared/schemas/status.js'],
    ['e2e/status/status-page.spec.ts', '../foundation/fixtures.js', null],
    ['e2e/staff/staff-login.ts', '../staff-accounts.json', null],
    // Packages, aliases, folder imports and paths leaving src/ stay as they are.
    ['src/web/features/exchange/components/panel.tsx', 'react', null],
    ['src/web/features/exchange/components/panel.tsx', '#web/lib/api-client', null],
    ['src/web/features/exchange/components/panel.tsx', '../../..', null],
    ['src/web/features/exchange/components/panel.tsx', '../../../lib/', null],
    ['src/server/modules/ads/ads.test.ts', '../../../../scripts/tool.mjs', null],
    // Vite-style suffixes survive.
    ['src/web/features/exchange/components/panel.tsx', '../../../public/logo.svg?raw', '#web/public/logo.svg?raw'],
  ];
  it.each(cases)('%s imports %s', (importer, specifier, expected) => {
    expect(aliasFor(at(importer), specifier)).toBe(expected);
  });
});

describe('use-import-aliases: rewriting a file', () => {
  const file = 'src/web/features/payments/components/top-up-panel.test.tsx';
  const before = [
    "import '../../../styles.css';",
    "import type { User } from '../../../../shared/schemas/auth';",
    "import { apiFetch } from '../../../lib/api-client';",
    'import { useX, type X } from "../../../lib/x";',
    "import { local } from '../api/payments-api';",
    "export { a } from '../../../lib/a';",
    "export * from '../../../lib/b';",
    "export type { C } from '../../../lib/c';",
    "vi.mock('../../../lib/api-client', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../../lib/api-client')>()) }));",
    "vi.doMock('../../../lib/d');",
    "const real = await vi.importActual<typeof import('../../../lib/e')>('../../../lib/e');",
    "const lazy = () => import('../../../lib/f');",
    'const tpl = () => import(`../../../lib/g`);',
    "// a comment naming '../../../lib/h' is left alone",
    "const notAnImport = path.resolve(dir, '../../../lib/i');",
    "const text = 'from \\'../../../lib/j\\'';",
  ].join('\n');
  const after = [
    "import '#web/styles.css';",
    "import type { User } from '#shared/schemas/auth';",
    "import { apiFetch } from '#web/lib/api-client';",
    'import { useX, type X } from "#web/lib/x";',
    "import { local } from '../api/payments-api';",
    "export { a } from '#web/lib/a';",
    "export * from '#web/lib/b';",
    "export type { C } from '#web/lib/c';",
    "vi.mock('#web/lib/api-client', async (importOriginal) => ({ ...(await importOriginal<typeof import('#web/lib/api-client')>()) }));",
    "vi.doMock('#web/lib/d');",
    "const real = await vi.importActual<typeof import('#web/lib/e')>('#web/lib/e');",
    "const lazy = () => import('#web/lib/f');",
    'const tpl = () => import(`#web/lib/g`);',
    "// a comment naming '../../../lib/h' is left alone",
    "const notAnImport = path.resolve(dir, '../../../lib/i');",
    "const text = 'from \\'../../../lib/j\\'';",
  ].join('\n');

  it('rewrites every kind of module path and nothing else', () => {
    expect(rewritten(file, before)).toBe(after);
  });

  it('changes nothing on a second run', () => {
    expect(rewrite(at(file), after).edits).toEqual([]);
  });

  it('keeps .js extensions on the server side and leaves require() of packages alone', () => {
    const server = [
      "import { users } from '../users/users.tables.js';",
      "import type { Role } from '../../../shared/constants.js';",
      "const json = require('@zxcvbn-ts/language-common/src/passwords.json');",
      "import pg = require('../../db/pg.js');",
    ].join('\n');
    expect(rewritten('src/server/modules/auth/passwords.ts', server)).toBe(
      [
        "import { users } from '#server/modules/users/users.tables.js';",
        "import type { Role } from '#shared/constants.js';",
        "const json = require('@zxcvbn-ts/language-common/src/passwords.json');",
        "import pg = require('#server/db/pg.js');",
      ].join('\n'),
    );
  });
});
