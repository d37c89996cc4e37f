import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { SupportReport } from '#shared/schemas/support-reports';
import { renderWithQuery as render } from '#web/test/render';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { defaultRange, formatMinutes, SupportReportsPanel } from './support-reports-panel';

const att = (met: number, counted: number) => ({ met, counted, percent: counted === 0 ? null : Math.round((met / counted) * 1000) / 10 });
const REPORT: SupportReport = {
  from: '2026-03-02',
  to: '2026-03-15',
  generatedAt: '2026-11-27T00:00:00.000Z',
  tickets: 6,
  resolved: 4,
  firstResponse: { count: 5, medianMinutes: 60, p90Minutes: 180 },
  resolution: { count: 4, medianMinutes: 240, p90Minutes: 510 },
  sla: {
    firstResponse: att(4, 6),
    resolution: att(3, 6),
    byPriority: [
      { priority: 'urgent', tickets: 1, firstResponse: att(0, 1), resolution: att(0, 1) },
      { priority: 'high', tickets: 1, firstResponse: att(1, 1), resolution: att(0, 1) },
      { priority: 'normal', tickets: 3, firstResponse: att(3, 3), resolution: att(3, 3) },
      { priority: 'low', tickets: 1, firstResponse: att(0, 1), resolution: att(0, 1) },
    ],
  },
  byTag: [
    { tag: 'billing', tickets: 3 },
    { tag: 'refund', tickets: 1 },
    { tag: null, tickets: 2 },
  ],
  byAssignee: [
    {
      assigneeId: '11111111-1111-4111-8111-111111111111',
      name: 'ana',
      tickets: 2,
      firstResponseMedianMinutes: 30,
      resolved: 2,
      ratings: 2,
      averageRating: 4.5,
    },
    { assigneeId: null, name: null, tickets: 2, firstResponseMedianMinutes: 10, resolved: 1, ratings: 0, averageRating: null },
  ],
  ratings: { count: 4, average: 3.5, stars: [1, 2, 3, 4, 5].map((stars) => ({ stars, count: stars === 1 ? 0 : 1 })) },
  weeks: [
    {
      weekStart: '2026-03-02',
      isoWeek: '2026-W10',
      opened: 4,
      resolved: 3,
      firstResponseMedianMinutes: 60,
      firstResponse: att(3, 4),
      resolution: att(2, 4),
    },
    {
      weekStart: '2026-03-09',
      isoWeek: '2026-W11',
      opened: 2,
      resolved: 2,
      firstResponseMedianMinutes: 10,
      firstResponse: att(1, 2),
      resolution: att(1, 2),
    },
  ],
};

const server = setupScriptedApi();
beforeEach(() => {
  server.on('GET', '/api/staff/support/report', { body: REPORT });
});

const figure = (label: string) => {
  const summary = screen.getByLabelText('Summary');
  const term = within(summary).getByText(label, { selector: 'dt' });
  return term.nextElementSibling!.textContent;
};

const cells = (row: HTMLElement) => [...row.children].map((c) => c.textContent);

describe('support reports panel', () => {
  it('formats business minutes as people read them', () => {
    expect(formatMinutes(null)).toBe('—');
    expect(formatMinutes(0.4)).toBe('< 1 min');
    expect(formatMinutes(45)).toBe('45 min');
    expect(formatMinutes(60)).toBe('1 h');
    expect(formatMinutes(510)).toBe('8 h 30 min');
  });

  it('asks for the last 8 weeks first, then shows the figures, the chart in words and every table', async () => {
    render(<SupportReportsPanel />);
    expect(screen.getByText('Loading the report…')).toBeTruthy();
    await screen.findByLabelText('Summary');
    const { from, to } = defaultRange();
    expect(server.requests[0]!.query).toBe(`from=${from}&to=${to}`);
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe(from);

    expect(figure('Tickets')).toBe('6');
    expect(figure('First response, median')).toBe('1 h90th percentile 3 h');
    expect(figure('Resolution, median')).toBe('4 h90th percentile 8 h 30 min');
    expect(figure('First response SLA')).toBe('66.7%4 of 6');
    expect(figure('Resolution SLA')).toBe('50%3 of 6');
    expect(figure('Average rating')).toBe('3.504 rated');

    const chart = screen.getByRole('img', { name: 'Tickets opened and resolved per week' });
    expect(document.getElementById(chart.getAttribute('aria-describedby')!)!.textContent).toBe(
      '2 weeks from 2026-W10 to 2026-W11: 6 opened and 5 resolved in all; the most opened in one week was 4, in 2026-W10.',
    );

    const weekly = screen.getByRole('table', { name: /Weekly/ });
    expect(cells(within(weekly).getByRole('row', { name: /2026-W10/ }))).toEqual([
      '2026-W10 from 2026-03-02',
      '4',
      '3',
      '1 h',
      '75%',
      '50%',
    ]);
    const tags = screen.getByRole('table', { name: 'By tag' });
    expect(within(tags).getAllByRole('row').slice(1).map(cells)).toEqual([
      ['billing', '3'],
      ['refund', '1'],
      ['Untagged', '2'],
    ]);
    const people = screen.getByRole('table', { name: 'By assignee' });
    expect(cells(within(people).getByRole('row', { name: /ana/ }))).toEqual(['ana', '2', '30 min', '2', '4.50 (2)']);
    expect(cells(within(people).getByRole('row', { name: /Unassigned/ }))).toEqual(['Unassigned', '2', '10 min', '1', '—']);
    const priorities = screen.getByRole('table', { name: 'SLA by priority' });
    expect(cells(within(priorities).getByRole('row', { name: /urgent/ }))).toEqual(['urgent', '1', '0% (0 of 1)', '0% (0 of 1)']);
    expect(
      within(screen.getByRole('table', { name: 'Ratings' }))
        .getAllByRole('row')
        .slice(1)
        .map(cells),
    ).toEqual([
      ['5 stars', '1'],
      ['4 stars', '1'],
      ['3 stars', '1'],
      ['2 stars', '1'],
      ['1 star', '0'],
    ]);
  });

  it('refuses an inverted range before asking, and asks again for a good one', async () => {
    render(<SupportReportsPanel />);
    await screen.findByLabelText('Summary');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-15' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-02' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show report' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The end date must not be before the start date');
    expect(server.requests).toHaveLength(1);

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-03-02' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2026-03-15' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show report' }));
    await waitFor(() => expect(server.requests.at(-1)!.query).toBe('from=2026-03-02&to=2026-03-15'));
  });

  it('says when a range has no tickets, and offers to try again after a failure', async () => {
    server.on('GET', '/api/staff/support/report', {
      body: { ...REPORT, tickets: 0, weeks: REPORT.weeks.map((w) => ({ ...w, opened: 0, resolved: 0 })) },
    });
    render(<SupportReportsPanel />);
    expect(await screen.findByText('No tickets were created in this range. Pick other days.')).toBeTruthy();

    server.on('GET', '/api/staff/support/report', { status: 500, body: { error: 'Database unavailable', code: 'INTERNAL' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-01-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show report' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
