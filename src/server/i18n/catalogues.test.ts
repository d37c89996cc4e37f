import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '#shared/constants.js';
import { formatMessage } from './message-format.js';
import { parsePo } from './po.js';
import { LOCALES_FOLDER, localeOf, translatorFor } from './translator.js';

/** Every entry of a catalogue, empty translations included (parsePo leaves those out). */
function entries(locale: string): Array<{ id: string; translation: string }> {
  const text = readFileSync(path.join(LOCALES_FOLDER, locale, 'messages.po'), 'utf8');
  const found: Array<{ id: string; translation: string }> = [];
  const unquote = (s: string) => JSON.parse(s) as string;
  for (const block of text.split(/\r?\n\r?\n/)) {
    const id = /^msgid (".*")$/m.exec(block)?.[1];
    const translation = /^msgstr (".*")$/m.exec(block)?.[1];
    if (id === undefined || translation === undefined || id === '""') continue;
    found.push({ id: unquote(id), translation: unquote(translation) });
  }
  return found;
}

const placeholders = (message: string) => [...message.matchAll(/\{(\w+)/g)].map((m) => m[1]).sort();

describe('the server catalogues (docs/decisions/0328)', () => {
  const english = entries('en');

  it('has English messages', () => {
    expect(english.length).toBeGreaterThan(50);
  });

  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    it(`${locale}: every message is translated, with the same placeholders`, () => {
      const translated = new Map(entries(locale).map((e) => [e.id, e.translation]));
      expect([...translated.keys()].sort()).toEqual(english.map((e) => e.id).sort());
      const empty = [...translated].filter(([, t]) => t.trim() === '').map(([id]) => id);
      expect(empty).toEqual([]);
      for (const [id, translation] of translated) expect(placeholders(translation), `${locale}: ${id}`).toEqual(placeholders(id));
    });
  }

  it('parsePo reads what the extractor writes, quotes and escapes included', () => {
    const catalogue = parsePo(readFileSync(path.join(LOCALES_FOLDER, 'de', 'messages.po'), 'utf8'));
    expect(catalogue.get('Support answered your ticket "{subject}".')).toBe('Der Support hat auf dein Ticket „{subject}“ geantwortet.');
    expect(parsePo('msgid ""\nmsgstr "Header: x\\n"\n\nmsgid "a\\\\b"\nmsgstr ""\n"two "\n"lines"\n')).toEqual(
      new Map([['a\\b', 'two lines']]),
    );
  });
});

describe('translatorFor', () => {
  it('answers English for null and for anything it does not speak', () => {
    expect(localeOf(null)).toBe('en');
    expect(localeOf('fr')).toBe('en');
    expect(translatorFor(undefined).t('Payment credited')).toBe('Payment credited');
  });

  it('translates with the placeholders filled in, and leaves a message no catalogue has in English', () => {
    const es = translatorFor('es');
    expect(es.t('Payment credited: {credits} credits', { credits: es.cents(9700) })).toBe('Pago acreditado: 97,00 créditos');
    expect(es.t('A message nobody wrote {x}' as string, { x: 1 })).toBe('A message nobody wrote 1');
  });

  it('writes amounts and dates as each language does; English as before', () => {
    const when = new Date('2026-03-05T14:07:00Z');
    expect(translatorFor('en').cents(123456)).toBe('1234.56');
    expect(translatorFor('de').cents(123456)).toBe('1.234,56');
    expect(translatorFor('es').cents(123456)).toBe('1234,56');
    expect(translatorFor('ru').cents(123456)).toBe('1\u00a0234,56');
    expect(translatorFor('en').dateTime(when)).toBe(when.toUTCString());
    expect(translatorFor('de').dateTime(when)).toBe('5. März 2026 um 14:07 UTC');
    expect(translatorFor('en').crypto('12345.000000001')).toBe('12345.000000001');
    expect(translatorFor('de').crypto('12345.000000001')).toBe('12.345,000000001');
    expect(translatorFor('ru').crypto('0.5')).toBe('0,5');
  });

  it('formats plural and select arguments by the language’s rules', () => {
    const message = '{n, plural, one {# day} few {# days (few)} other {# days}} {kind, select, a {A} other {B}}';
    expect(formatMessage('en', message, { n: 1, kind: 'a' })).toBe('1 day A');
    expect(formatMessage('ru', message, { n: 3, kind: 'z' })).toBe('3 days (few) B');
    expect(formatMessage('en', '{n, plural, =0 {none} other {#}}', { n: 0 })).toBe('none');
  });
});
