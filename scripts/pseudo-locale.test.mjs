import { readFileSync } from 'node:fs';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import PO from 'pofile';
import { describe, expect, it } from 'vitest';
import { pseudoLocalize } from './pseudo-locale.mjs';

describe('the pseudo-locale', () => {
  it('accents text, keeps placeholders, tags and the cases of a plural whole, and pads', () => {
    expect(pseudoLocalize('Hello')).toBe('[Ĥéļļö ·]');
    expect(pseudoLocalize('Welcome, {name}. <0>Sign in</0>')).toBe('[Ŵéļçöɱé, {name}. <0>Šîĝñ îñ</0> ·····]');
    expect(pseudoLocalize('{count, plural, one {# day (around {when})} other {# days (around {when})}}')).toBe(
      '[{count, plural, one {# ðàý (àŕöûñð {when})} other {# ðàýš (àŕöûñð {when})}} ···]',
    );
    expect(pseudoLocalize('{0}')).toBe('{0}');
  });

  it('writes catalogues whose every message still compiles (a broken one failed the build)', () => {
    for (const file of ['src/web/locales/pseudo/messages.po', 'src/server/locales/pseudo/messages.po']) {
      const { items } = PO.parse(readFileSync(file, 'utf8'));
      expect(items.length).toBeGreaterThan(100);
      const broken = items.filter((item) => {
        try {
          compileMessage(item.msgstr[0] ?? '', (error) => {
            throw error;
          });
          return false;
        } catch {
          return true;
        }
      });
      expect(broken.map((item) => item.msgid)).toEqual([]);
    }
  });
});
