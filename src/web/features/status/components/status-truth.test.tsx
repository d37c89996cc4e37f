import { i18n } from '@lingui/core';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { STATUS_HISTORY_DAYS, type Incident, type StatusComponentReport, type StatusDay } from '#shared/schemas/status';
import { ComponentIncidents } from './component-incidents';
import { OVERALL_LABEL } from './status-labels';
import { UptimeBar } from './uptime-bar';

/** 90 days, oldest first: the last `measured` have checks (all up but one failed check on the last day). */
function history(measured: number): StatusDay[] {
  const days: StatusDay[] = [];
  for (let i = STATUS_HISTORY_DAYS - 1; i >= 0; i -= 1) {
    const day = new Date(Date.now() - i * 86_400_000).toISOString().slice(0, 10);
    days.push(
      i < measured
        ? { day, uptimePercent: i === 0 ? 99 : 100, up: i === 0 ? 99 : 100, degraded: 0, down: i === 0 ? 1 : 0 }
        : { day, uptimePercent: null, up: 0, degraded: 0, down: 0 },
    );
  }
  return days;
}

const swap: StatusComponentReport = {
  id: 'swap-provider',
  name: 'Swap provider',
  state: 'down',
  checkState: 'up',
  latencyMs: 12,
  detail: null,
  checkedAt: new Date().toISOString(),
  uptimePercent: 99.92,
  measuredDays: 12,
  history: history(12),
};

const incident = (over: Partial<Incident>): Incident => ({
  _id: 'i1',
  title: 'Swaps are failing',
  impact: 'major',
  status: 'investigating',
  components: ['swap-provider'],
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  resolvedAt: null,
  updates: [],
  ...over,
});

describe('the status page tells the truth', () => {
  afterEach(cleanup);

  it('shows days without checks as "No data" and the uptime over the measured days only', () => {
    const { container } = render(
      <UptimeBar name="Swap provider" history={swap.history} uptimePercent={swap.uptimePercent} measuredDays={swap.measuredDays} />,
    );
    expect(screen.getByTestId('uptime-summary').textContent).toContain('99.92% uptime over 12 days measured');
    expect(screen.getByTestId('uptime-summary').textContent).toContain('No data');
    const days = [...container.querySelectorAll('.uptime-day')];
    expect(days).toHaveLength(STATUS_HISTORY_DAYS);
    expect(days.filter((d) => d.getAttribute('data-level') === 'none')).toHaveLength(78);
    expect(days[0]!.getAttribute('title')).toMatch(/: No data$/);
    expect(days.at(-1)!.getAttribute('title')).toContain('99.00% uptime (1 failed checks)');
    // Screen readers hear the same.
    expect(screen.getByRole('img').getAttribute('aria-label')).toBe(
      'Swap provider, last 90 days: 99.92% uptime over 12 days measured, 78 days with no data; 1 day with failed checks, 0 days degraded.',
    );
  });

  it('never claims an uptime when no day was measured', () => {
    render(<UptimeBar name="API" history={history(0)} uptimePercent={null} measuredDays={0} />);
    expect(screen.getByTestId('uptime-summary').textContent).toContain('No data yet');
    expect(screen.getByTestId('uptime-summary').textContent).not.toContain('%');
  });

  it("names the open incidents that set a component's state, and not the resolved ones", () => {
    render(
      <ComponentIncidents
        component={swap}
        incidents={[
          incident({}),
          incident({ _id: 'i2', title: 'Old trouble', status: 'resolved' }),
          incident({ _id: 'i3', title: 'Top-ups slow', components: ['payment-provider'] }),
        ]}
      />,
    );
    const item = screen.getByRole('listitem');
    expect(item.textContent).toBe('Major incident: Swaps are failing (investigating)');
    expect(screen.getByRole('link', { name: 'Swaps are failing' }).getAttribute('href')).toBe('#incident-i1');
    expect(screen.queryByText('Old trouble')).toBeNull();
  });

  it('has a headline for maintenance under way', () => {
    expect(i18n._(OVERALL_LABEL.maintenance)).toBe('Maintenance in progress');
    expect(i18n._(OVERALL_LABEL.down)).not.toMatch(/operational/i);
  });
});
