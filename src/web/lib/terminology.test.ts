import PO from 'pofile';
import { describe, expect, it } from 'vitest';

/**
 * The words for money in every catalogue (the web's and the server's): a balance is "Guthaben", "saldo",
 * "баланс"; the unit is "Credits", "créditos", "кредиты" (docs/translating.md). German never puts the
 * balance's word after an amount ("10,00 Guthaben").
 */
const catalogues = import.meta.glob<string>(['../locales/{de,es,ru}/messages.po', '../../server/locales/{de,es,ru}/messages.po'], {
  eager: true,
  query: '?raw',
  import: 'default',
});

const UNIT: Record<string, RegExp> = { de: /\bCredits?\b/, es: /créditos?/i, ru: /кредит/i };
const BALANCE: Record<string, RegExp> = { de: /Guthaben/, es: /saldo/i, ru: /баланс/i };

describe('the words for a balance and for its unit', () => {
  it('are the same in every message of every language', () => {
    expect(Object.keys(catalogues)).toHaveLength(6);
    const problems: string[] = [];
    for (const [file, text] of Object.entries(catalogues)) {
      const lang = /\/(de|es|ru)\/messages\.po$/.exec(file)![1]!;
      for (const item of PO.parse(text).items) {
        const said = item.msgstr.join('');
        if (/\{\w+\} credits\b/.test(item.msgid) && !UNIT[lang]!.test(said)) problems.push(`${file}: unit: ${item.msgid} => ${said}`);
        if (/\byour balance\b/i.test(item.msgid) && !BALANCE[lang]!.test(said)) problems.push(`${file}: balance: ${item.msgid} => ${said}`);
        if (lang === 'de' && /(\{\w+\}|\d) Guthaben\b/.test(said)) problems.push(`${file}: an amount of "Guthaben": ${said}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
