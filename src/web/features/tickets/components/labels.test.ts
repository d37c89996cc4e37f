import { afterEach, describe, expect, it } from 'vitest';
import { activateLocale } from '#web/features/language';
import { ticketEventText } from './labels';

// The server's sources, where the event lines are written (a rewording there must be matched here too).
const serverSources = import.meta.glob<string>(
  ['../../../../server/modules/support/rules/auto-close.ts', '../../../../server/modules/support/tickets/staff-changes.ts'],
  { eager: true, query: '?raw', import: 'default' },
);

afterEach(async () => {
  await activateLocale('en');
});

describe("a ticket thread's event lines", () => {
  const closed = (days: number) => `Closed automatically: resolved ${days} day${days === 1 ? '' : 's'} ago without a reply.`;

  it('are the lines the server writes', () => {
    const source = Object.values(serverSources).join('\n');
    expect(Object.keys(serverSources)).toHaveLength(2);
    expect(source).toContain("`Closed automatically: resolved ${days} day${days === 1 ? '' : 's'} ago without a reply.`");
    expect(source).toContain('`Ticket #${source.number} was merged into this ticket.`');
    expect(source).toContain('`Merged into #${target.number}.`');
  });

  it('read in English as the server wrote them', async () => {
    await activateLocale('en');
    for (const line of [closed(1), closed(7), 'Ticket #12 was merged into this ticket.', 'Merged into #13.', 'Something else.']) {
      expect(ticketEventText(line)).toBe(line);
    }
  });

  it("are worded in the reader's language, the number kept", async () => {
    await activateLocale('es');
    expect(ticketEventText(closed(7))).toBe('Cerrado automáticamente: resuelto hace 7 días sin respuesta.');
    await activateLocale('de');
    expect(ticketEventText(closed(1))).toBe('Automatisch geschlossen: vor 1 Tag gelöst, ohne Antwort.');
    expect(ticketEventText('Merged into #13.')).toBe('Zusammengeführt in #13.');
    await activateLocale('ru');
    expect(ticketEventText(closed(3))).toBe('Закрыто автоматически: решено 3 дня назад, ответа не было.');
    expect(ticketEventText('Ticket #12 was merged into this ticket.')).toBe('Обращение №12 объединено с этим обращением.');
    expect(ticketEventText('Something else.')).toBe('Something else.');
  });
});
