import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogueProblems, checkRepository } from './check-translations.mjs';

const HEADER = (locale) => `msgid ""
msgstr ""
"Content-Type: text/plain; charset=utf-8\\n"
"Language: ${locale}\\n"
`;

function po(locale, entries) {
  return [HEADER(locale), ...entries.map(([id, str]) => `msgid ${JSON.stringify(id)}\nmsgstr ${JSON.stringify(str)}\n`)].join('\n');
}

const ENGLISH = [
  ['Sign in', 'Sign in'],
  ['Welcome, {name}', 'Welcome, {name}'],
  ['{count, plural, one {# ticket} other {# tickets}}', '{count, plural, one {# ticket} other {# tickets}}'],
];

let dirs = [];
function catalogues(files) {
  const dir = mkdtempSync(path.join(tmpdir(), 'check-translations-'));
  dirs.push(dir);
  for (const [locale, entries] of Object.entries(files)) {
    mkdirSync(path.join(dir, locale), { recursive: true });
    writeFileSync(path.join(dir, locale, 'messages.po'), po(locale, entries));
  }
  return dir;
}

afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

describe('check-translations', () => {
  it('passes when every language translates every message', async () => {
    const dir = catalogues({
      en: ENGLISH,
      es: [
        ['Sign in', 'Iniciar sesión'],
        ['Welcome, {name}', 'Hola, {name}'],
        ['{count, plural, one {# ticket} other {# tickets}}', '{count, plural, one {# ticket} other {# tickets}}'],
      ],
      pseudo: [],
    });
    expect(await catalogueProblems(dir, { label: 'locales' })).toEqual([]);
  });

  it('fails on a message a language lacks, naming the language and the message', async () => {
    const dir = catalogues({
      en: ENGLISH,
      de: [
        ['Sign in', 'Anmelden'],
        ['{count, plural, one {# ticket} other {# tickets}}', '{count, plural, one {# Ticket} other {# Tickets}}'],
      ],
    });
    const problems = await catalogueProblems(dir, { label: 'locales' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^de: locales\/de\/messages\.po lacks 1 message/);
    expect(problems[0]).toContain('"Welcome, {name}"');
  });

  it('fails on an empty msgstr', async () => {
    const dir = catalogues({
      en: ENGLISH,
      ru: [
        ['Sign in', ''],
        ['Welcome, {name}', 'Здравствуйте, {name}'],
        ['{count, plural, one {# ticket} other {# tickets}}', ''],
      ],
    });
    const problems = await catalogueProblems(dir, { label: 'locales' });
    expect(problems).toEqual([
      'ru: locales/ru/messages.po has 2 message(s) without a translation (empty msgstr): "Sign in", "{count, plural, one {# ticket} other {# tickets}}"',
    ]);
  });

  it('does not ask the pseudo-locale for translations, and names only the first five messages', async () => {
    const many = Array.from({ length: 8 }, (_, i) => [`Message ${i}`, `Message ${i}`]);
    const dir = catalogues({ en: many, pseudo: [], es: many.map(([id]) => [id, '']) });
    const problems = await catalogueProblems(dir, { label: 'locales' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^es: .*8 message\(s\).*"Message 4" and 3 more$/);
  });

  it('checks the server catalogues too when they exist, and passes on an absent folder', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'check-translations-root-'));
    dirs.push(root);
    expect(await checkRepository(root)).toEqual([]);
    for (const [locale, entries] of Object.entries({ en: ENGLISH.slice(0, 1), es: [['Sign in', '']] })) {
      mkdirSync(path.join(root, 'src/server/locales', locale), { recursive: true });
      writeFileSync(path.join(root, 'src/server/locales', locale, 'messages.po'), po(locale, entries));
    }
    const problems = await checkRepository(root);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^es: src\/server\/locales\/es\/messages\.po has 1 message/);
  });
});
