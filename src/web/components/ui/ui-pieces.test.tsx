import { i18n } from '@lingui/core';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CheckboxField, SelectField, TextField } from './forms';
import { QueryState } from './query-state';

// The shared components translate their own words; English, as the app starts (decision 0326).
i18n.loadAndActivate({ locale: 'en', messages: {} });

afterEach(cleanup);

describe('QueryState', () => {
  const list = (data: string[] | undefined, error: string | null = null) =>
    render(
      <QueryState data={data} error={error} loading="Loading things…" isEmpty={(d) => d.length === 0} empty="No things yet.">
        {(d) => (
          <ul aria-label="things">
            {d.map((x) => (
              <li key={x}>{x}</li>
            ))}
          </ul>
        )}
      </QueryState>,
    );

  it('marks the first load busy, then shows the content', () => {
    list(undefined);
    expect(screen.getByText('Loading things…').getAttribute('aria-busy')).toBe('true');
    cleanup();
    list(['a', 'b']);
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['a', 'b']);
    expect(screen.queryByText('Loading things…')).toBeNull();
  });

  it('gives an empty answer its own sentence instead of an empty list', () => {
    list([]);
    expect(screen.getByText('No things yet.')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('announces an error above the last answer, and alone when nothing (or nothing but emptiness) arrived', () => {
    list(['a'], 'Could not refresh');
    expect(screen.getByRole('alert').textContent).toBe('Could not refresh');
    expect(screen.getByRole('listitem').textContent).toBe('a');
    cleanup();
    list(undefined, 'Failed to fetch');
    expect(screen.getByRole('alert').textContent).toBe('Failed to fetch');
    expect(screen.queryByText('Loading things…')).toBeNull();
    cleanup();
    list([], 'Failed to fetch');
    expect(screen.getByRole('alert').textContent).toBe('Failed to fetch');
    expect(screen.queryByText('No things yet.')).toBeNull();
  });

  it('offers "Try again" inside the announced error when given a retry, and only then', () => {
    const retry = vi.fn();
    list(undefined, 'Could not load the things.');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    cleanup();
    render(
      <QueryState data={undefined} error="Could not load the things." onRetry={retry} loading="Loading things…">
        {() => null}
      </QueryState>,
    );
    const alert = screen.getByRole('alert');
    expect(within(alert).getByText('Could not load the things.')).toBeTruthy();
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('Loading things…')).toBeNull();
  });
});

describe('form fields', () => {
  it('TextField: labelled, described by its note, then by its error, which marks it invalid', () => {
    const { rerender } = render(<TextField label="Email" note="We never share it." name="email" />);
    const input = screen.getByLabelText('Email');
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toBe('We never share it.');
    rerender(<TextField label="Email" note="We never share it." name="email" error="Enter a valid email" />);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toBe('Enter a valid email');
    expect(screen.queryByText('We never share it.')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    rerender(<TextField label="Email" name="email" error="Enter a valid email" errorAlert />);
    expect(screen.getByRole('alert').textContent).toBe('Enter a valid email');
  });

  it('SelectField: a labelled select of its options, plain strings being their own labels', () => {
    render(<SelectField label="Priority" options={['low', { value: 'high', label: 'High' }]} defaultValue="high" />);
    const select = screen.getByLabelText('Priority') as HTMLSelectElement;
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ['low', 'low'],
      ['high', 'High'],
    ]);
    expect(select.value).toBe('high');
  });

  it('CheckboxField: a checkbox named by the label beside it and described by its note', () => {
    render(<CheckboxField label="Support replies" note="When our team answers." defaultChecked role="switch" />);
    const box = screen.getByRole('switch', { name: 'Support replies' }) as HTMLInputElement;
    expect(box.type).toBe('checkbox');
    expect(box.checked).toBe(true);
    expect(box.closest('.check-field')).toBeTruthy();
    expect(document.getElementById(box.getAttribute('aria-describedby')!)?.textContent).toBe('When our team answers.');
  });
});
