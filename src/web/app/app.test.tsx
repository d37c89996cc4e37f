import { act, cleanup, render, screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { App } from './app';

beforeAll(async () => {
  // jsdom has neither layout nor matchMedia; the shell and the toast library ask for both.
  Element.prototype.scrollIntoView = vi.fn();
  window.scrollTo = vi.fn() as typeof window.scrollTo;
  // The toast outlet is a chunk of its own. Beside the browser tests, compiling it on first import took
  // longer than the test's wait (seen in CI); compile it here, under the hook's longer limit. The app
  // still loads it lazily, after the toast is raised.
  await import('#web/components/ui/toaster');
}, 60_000);
afterEach(() => {
  act(() => toast.remove());
  cleanup();
});

describe('App', () => {
  it('renders the shell with its landmarks and shows a toast raised before the toast outlet loaded', async () => {
    localStorage.clear();
    render(<App />);
    act(() => {
      // Kept until seen: the library counts a toast's 2 s from when it is raised, and beside the browser
      // tests the outlet's chunk once mounted after that, so the toast had already expired (seen in CI).
      toast.success('Discord account connected successfully!', { duration: Infinity });
    });

    // The home page and the toast outlet are separate chunks: beside the browser tests, loading them can
    // take longer than findBy's default second. Wait for them, with a bound that says "it never came".
    const loaded = { timeout: 10_000 };
    expect(await screen.findByRole('heading', { level: 1 }, loaded)).toBeTruthy();
    expect(screen.getByRole('banner')).toBeTruthy();
    expect(screen.getByRole('main')).toBeTruthy();
    expect(screen.getByRole('contentinfo')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Skip to main content' }).getAttribute('href')).toBe('#main');
    expect(await screen.findByText('Discord account connected successfully!', {}, loaded)).toBeTruthy();
  });
});
