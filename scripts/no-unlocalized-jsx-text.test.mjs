import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The rule olympus/no-unlocalized-jsx-text of eslint.config.js (docs/translating.md#checks), run through
// the repository's own configuration on made-up files at real paths.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const eslint = new ESLint({ cwd: ROOT, overrideConfigFile: path.join(ROOT, 'eslint.config.js') });
const RULE = 'olympus/no-unlocalized-jsx-text';

async function reported(code, filePath = 'src/web/features/language/example.tsx') {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, filePath) });
  return result.messages.filter((m) => m.ruleId === RULE).map((m) => code.split('\n')[m.line - 1].trim());
}

describe('olympus/no-unlocalized-jsx-text', () => {
  it('reports text between tags, strings given as children and strings given to text props', async () => {
    const code = [
      "import { Field } from '#web/components/ui/field';",
      'export function Example({ busy }: { busy: boolean }) {',
      '  return (',
      '    <form>',
      '      <h1>Sign in</h1>',
      "      <p>{busy ? 'Saving…' : null}</p>",
      '      <input aria-label="Search" placeholder="Your name" />',
      '      <span title="More about this">?</span>',
      '      <Field label="Password" />',
      '    </form>',
      '  );',
      '}',
    ].join('\n');
    expect(await reported(code)).toEqual([
      '<h1>Sign in</h1>',
      "<p>{busy ? 'Saving…' : null}</p>",
      '<input aria-label="Search" placeholder="Your name" />',
      '<input aria-label="Search" placeholder="Your name" />',
      '<span title="More about this">?</span>',
      '<Field label="Password" />',
    ]);
  });

  it('lets messages, props that are not text, data and symbols through', async () => {
    const code = [
      "import { t } from '@lingui/core/macro';",
      "import { Link } from 'react-router';",
      'export function Example({ name, fieldProps }: { name: string; fieldProps: (n: string) => object }) {',
      '  return (',
      '    <main className="page narrow" data-testid="example-page">',
      '      <h1>{t`Welcome, ${name}`}</h1>',
      '      <Link to="/dashboard/wallet" className="btn btn-primary">{t`Top up`}</Link>',
      '      <input {...fieldProps(\'username\')} type="email" name="email" autoComplete="email" id="x-email" />',
      "      <span>{name === 'admin' ? t`Staff` : name}</span>",
      '      <span>Olympus</span> <span>·</span> <span>{42}</span>',
      '    </main>',
      '  );',
      '}',
    ].join('\n');
    expect(await reported(code)).toEqual([]);
  });

  it('lets codes, symbols and props that name things rather than say them through', async () => {
    const code = [
      "import { t } from '@lingui/core/macro';",
      "import { ComponentNotice } from '#web/features/status/notice';",
      'export function Example() {',
      '  return (',
      '    <div>',
      '      <input autoCapitalize="none" list="coins" />',
      '      <ComponentNotice component="swap-provider" action="swaps" />',
      '      <span>USD</span> <span>SLA</span> <span>—</span> <span>≈</span>',
      '      <p>{t`Saved`}</p>',
      '    </div>',
      '  );',
      '}',
    ].join('\n');
    expect(await reported(code)).toEqual([]);
  });

  it('skips test files; every folder of src/web is checked (NOT_YET_TRANSLATED is empty)', async () => {
    const code = 'export const Example = () => <h1>Sign in</h1>;';
    expect(await reported(code, 'src/web/features/language/example.test.tsx')).toEqual([]);
    expect(await reported(code, 'src/web/features/tickets/components/example.tsx')).toEqual([
      'export const Example = () => <h1>Sign in</h1>;',
    ]);
    expect(await reported(code, 'src/web/features/sandbox/components/example.tsx')).toEqual([
      'export const Example = () => <h1>Sign in</h1>;',
    ]);
    expect(await reported(code, 'src/web/app/layout/example.tsx')).toEqual(['export const Example = () => <h1>Sign in</h1>;']);
  });
});
