import { i18n } from '@lingui/core';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BarChart } from './bar-chart';

// The shared components translate their own words; English, as the app starts (decision 0326).
i18n.loadAndActivate({ locale: 'en', messages: {} });

afterEach(cleanup);

const credits = (n: number) => `${n.toFixed(2)} credits`;

function chart(bars: { label: string; short?: string; value: number }[]) {
  return render(
    <BarChart title="Spend per day" bars={bars} format={credits} xAxis="UTC day" yAxis="Spend in credits" empty="No spend yet." />,
  );
}

describe('BarChart (docs/decisions/0319-charts-a-person-can-read.md)', () => {
  it('draws a y axis of round ticks from zero, x labels, and one named bar per value', () => {
    chart([
      { label: '1 December 2026', short: '1 Dec', value: 3.2 },
      { label: '2 December 2026', short: '2 Dec', value: 0 },
      { label: '3 December 2026', short: '3 Dec', value: 7.9 },
    ]);
    const group = screen.getByRole('group', { name: 'Spend per day: Spend in credits by UTC day' });
    const ticks = [...group.querySelectorAll('.bar-chart-grid text')].map((t) => t.textContent);
    expect(ticks[0]).toBe('0.00 credits');
    // Round steps up to at least the largest value.
    expect(ticks.at(-1)).toMatch(/^(8|10)\.00 credits$/);
    expect([...group.querySelectorAll('.bar-chart-x text')].map((t) => t.textContent)).toEqual(['1 Dec', '2 Dec', '3 Dec']);
    expect(
      within(group)
        .getAllByRole('img')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['1 December 2026: 3.20 credits', '2 December 2026: 0.00 credits', '3 December 2026: 7.90 credits']);
    // Taller for a larger value; a zero draws no height.
    const [a, zero, c] = within(group)
      .getAllByRole('img')
      .map((b) => Number(b.getAttribute('height')));
    expect(zero).toBe(0);
    expect(c).toBeGreaterThan(a!);
    expect(screen.getByText('Spend in credits (up) by UTC day (across).')).toBeTruthy();
  });

  it('says a bar’s value when it is pointed at or reached with the keyboard, and the total otherwise', () => {
    chart([
      { label: '1 December 2026', value: 3 },
      { label: '2 December 2026', value: 5 },
    ]);
    const value = screen.getByTestId('bar-chart-value');
    expect(value.textContent).toBe('2 bars, 8.00 credits in all. Point at or tab to a bar for its value.');
    const [first, second] = screen.getAllByRole('img');
    expect(first!.getAttribute('tabindex')).toBe('0');
    fireEvent.focus(second!);
    expect(value.textContent).toBe('2 December 2026: 5.00 credits');
    fireEvent.blur(second!);
    fireEvent.pointerEnter(first!);
    expect(value.textContent).toBe('1 December 2026: 3.00 credits');
    fireEvent.pointerLeave(first!);
    expect(value.textContent).toMatch(/in all/);
  });

  it('labels only as many days as fit, while every bar keeps its words', () => {
    chart(Array.from({ length: 30 }, (_, i) => ({ label: `Day ${i + 1}`, value: i })));
    const labels = document.querySelectorAll('.bar-chart-x text');
    expect(labels.length).toBeLessThanOrEqual(9);
    expect(labels.length).toBeGreaterThan(1);
    expect(screen.getAllByRole('img')).toHaveLength(30);
  });

  it('says so instead of drawing an empty frame when there is nothing', () => {
    chart([]);
    expect(screen.getByText('No spend yet.')).toBeTruthy();
    expect(screen.queryByRole('group')).toBeNull();
    expect(screen.getByRole('figure', { name: 'Spend per day' })).toBeTruthy();
  });
});
