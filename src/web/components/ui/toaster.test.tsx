import { act, cleanup, render, screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOAST_DURATION_MS, TOAST_LIMIT } from '#shared/constants';
import { Toaster, toastOptions } from './toaster';

/** After dismissal react-hot-toast keeps a toast for its exit animation (removeDelay, 1 s) before removal. */
const REMOVE_DELAY_MS = 1000;

beforeAll(() => {});

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  act(() => {
    toast.remove();
  });
  cleanup();
  vi.useRealTimers();
});

const advance = (ms: number) =>
  act(() => {
    vi.advanceTimersByTime(ms);
  });

/** Shows a toast, then checks it is still there just before its duration and gone after it. */
function expectLifetime(show: () => void, text: string, durationMs: number) {
  act(show);
  expect(screen.getByText(text)).toBeTruthy();
  advance(durationMs - 50);
  expect(screen.queryByText(text)).not.toBeNull();
  advance(100); // dismissed now; the removal is scheduled once React has re-rendered
  advance(REMOVE_DELAY_MS + 50);
  expect(screen.queryByText(text)).toBeNull();
}

describe('Toaster', () => {
  it('uses the documented durations: default 4000, success 2000, error 4000, loading until resolved', () => {
    expect(toastOptions.duration).toBe(4000);
    expect(toastOptions.success?.duration).toBe(2000);
    expect(toastOptions.error?.duration).toBe(4000);
    expect(toastOptions.loading?.duration).toBe(Number.POSITIVE_INFINITY);
    expect(TOAST_DURATION_MS).toEqual({ default: 4000, success: 2000, error: 4000, loading: Number.POSITIVE_INFINITY });
  });

  it('removes a plain toast after 4 s', () => {
    render(<Toaster />);
    expectLifetime(() => toast('Saved your settings'), 'Saved your settings', 4000);
  });

  it('removes a success toast after 2 s', () => {
    render(<Toaster />);
    expectLifetime(() => toast.success('Discord account connected successfully!'), 'Discord account connected successfully!', 2000);
  });

  it('removes an error toast after 4 s', () => {
    render(<Toaster />);
    expectLifetime(() => toast.error('Failed to claim pending rewards'), 'Failed to claim pending rewards', 4000);
  });

  it('keeps a loading toast until its caller dismisses it', () => {
    render(<Toaster />);
    let id = '';
    act(() => {
      id = toast.loading('Redeeming your rewards...');
    });
    advance(10 * 60 * 1000);
    expect(screen.getByText('Redeeming your rewards...')).toBeTruthy();

    act(() => toast.dismiss(id));
    advance(REMOVE_DELAY_MS + 50);
    expect(screen.queryByText('Redeeming your rewards...')).toBeNull();
  });

  it(`shows at most ${TOAST_LIMIT} toasts at once, newest first`, () => {
    expect(TOAST_LIMIT).toBe(20);
    render(<Toaster />);
    act(() => {
      for (let i = 1; i <= TOAST_LIMIT + 5; i++) toast(`Message ${i}`);
    });

    const shown = screen.getAllByText(/^Message \d+$/).map((el) => el.textContent);
    expect(shown).toHaveLength(TOAST_LIMIT);
    expect(shown).toContain(`Message ${TOAST_LIMIT + 5}`);
    expect(shown).not.toContain('Message 1');
  });

  it('sits at the top right of the screen', () => {
    render(<Toaster />);
    act(() => {
      toast('Where am I?');
    });
    // Each toast is wrapped in a positioned box; top-right means anchored to the top, aligned to the end.
    const wrapper = screen.getByText('Where am I?').closest<HTMLElement>('div[style*="position"]');
    expect(wrapper?.style.top).toBe('0px');
    expect(wrapper?.style.justifyContent).toBe('flex-end');
  });
});
