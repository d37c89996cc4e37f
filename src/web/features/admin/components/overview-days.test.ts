import { plural } from '@lingui/core/macro';
import { afterEach, describe, expect, it } from 'vitest';
import { activateLocale } from '#web/features/language';

/** The count of days the staff overview ("{sum} in {daysText}") and the requester's "Member for" share. */
const daysText = (days: number) => plural(days, { one: '# day', other: '# days' });

afterEach(async () => {
  await activateLocale('en');
});

describe('the days of the overview and of "Member for"', () => {
  it('reads after a preposition in each language (German: the dative plural)', async () => {
    expect(daysText(30)).toBe('30 days');
    await activateLocale('de');
    expect(daysText(30)).toBe('30 Tagen');
    expect(daysText(1)).toBe('1 Tag');
    await activateLocale('es');
    expect(daysText(30)).toBe('30 días');
    await activateLocale('ru');
    expect(daysText(30)).toBe('30 дней');
    expect(daysText(2)).toBe('2 дня');
    expect(daysText(21)).toBe('21 день');
  });
});
