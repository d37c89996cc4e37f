import { describe, expect, it } from 'vitest';
import { createTestDatabase, enginesFor } from '#server/test/test-app.js';
import { loadBusinessCalendar, loadSlaTargets } from './support-calendar.js';
import { addBusinessMs, businessMsBetween, DEFAULT_BUSINESS_CALENDAR, isValidCalendar, type BusinessCalendar } from './business-hours.js';

const HOUR = 3_600_000;
const berlin: BusinessCalendar = {
  timeZone: 'Europe/Berlin',
  days: [1, 2, 3, 4, 5],
  startMinute: 9 * 60,
  endMinute: 17 * 60,
  holidays: ['2026-12-25'],
};

describe('business hours', () => {
  it('counts only the working window of working days', () => {
    // Friday 2026-03-06 16:00 UTC to Monday 2026-03-09 10:00 UTC: one hour Friday, one hour Monday.
    const from = new Date('2026-03-06T16:00:00Z');
    const to = new Date('2026-03-09T10:00:00Z');
    expect(businessMsBetween(DEFAULT_BUSINESS_CALENDAR, from, to)).toBe(2 * HOUR);
    expect(addBusinessMs(DEFAULT_BUSINESS_CALENDAR, from, 2 * HOUR)?.toISOString()).toBe(to.toISOString());
  });

  it('skips a weekend and a holiday in the calendar time zone', () => {
    // Thursday 24 Dec 2026 16:30 Berlin (15:30 UTC); Friday 25th is a holiday, then the weekend.
    const from = new Date('2026-12-24T15:30:00Z');
    const due = addBusinessMs(berlin, from, 2 * HOUR);
    // 30 minutes on Thursday, then Monday 28th from 09:00 Berlin (08:00 UTC) for 90 minutes.
    expect(due?.toISOString()).toBe('2026-12-28T09:30:00.000Z');
    expect(businessMsBetween(berlin, from, due!)).toBe(2 * HOUR);
  });

  it('follows the wall clock across a daylight-saving change', () => {
    // Berlin moves to summer time on Sunday 29 March 2026: 09:00 is 08:00 UTC before, 07:00 UTC after.
    const friday = new Date('2026-03-27T08:00:00Z');
    const monday = new Date('2026-03-30T07:00:00Z');
    expect(businessMsBetween(berlin, friday, monday)).toBe(8 * HOUR);
  });

  it('answers nothing for a reversed interval and refuses a calendar without working time', () => {
    expect(businessMsBetween(berlin, new Date('2026-03-10T12:00:00Z'), new Date('2026-03-10T10:00:00Z'))).toBe(0);
    expect(isValidCalendar({ ...berlin, days: [] })).toBe(false);
    expect(isValidCalendar({ ...berlin, startMinute: 600, endMinute: 600 })).toBe(false);
    expect(isValidCalendar({ ...berlin, timeZone: 'Mars/Olympus' })).toBe(false);
    expect(isValidCalendar(berlin)).toBe(true);
  });
});

describe.each(enginesFor('logic'))('the stored calendar (%s)', (engine) => {
  it('starts a new installation on weekdays 09:00-17:00 UTC with a target for every priority', async () => {
    const t = await createTestDatabase(engine);
    try {
      expect(await loadBusinessCalendar(t.database.db)).toEqual(DEFAULT_BUSINESS_CALENDAR);
      const targets = await loadSlaTargets(t.database.db);
      expect([...targets.keys()].sort()).toEqual(['high', 'low', 'normal', 'urgent']);
      expect(targets.get('urgent')).toMatchObject({ firstResponseMinutes: 60, resolutionMinutes: 480 });
    } finally {
      await t.dispose();
    }
  });
});
