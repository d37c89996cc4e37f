import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ThemeToggle } from '#web/app/layout/theme-toggle';
import { AppearancePanel } from '#web/features/dashboard/components/appearance-panel';
import { readThemeChoice, resolveTheme, setThemeChoice, THEME_STORAGE_KEY } from './theme';

const html = () => document.documentElement;

/** The device's answer to prefers-color-scheme (jsdom has no real one; the setup answers "no" to all). */
function devicePrefers(scheme: 'dark' | 'light') {
  window.matchMedia = ((query: string) => ({
    matches: query.includes(`prefers-color-scheme: ${scheme}`),
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
}

beforeEach(() => {
  localStorage.clear();
  delete html().dataset.theme;
});
afterEach(cleanup);

describe('theme choice', () => {
  it('follows the system until the visitor chooses, also when storage holds something unknown', () => {
    expect(readThemeChoice()).toBe('system');
    localStorage.setItem(THEME_STORAGE_KEY, 'purple');
    expect(readThemeChoice()).toBe('system');
  });

  it('applies a choice to the page at once and remembers it; System forgets it again', () => {
    setThemeChoice('light');
    expect(html().dataset.theme).toBe('light');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    expect(readThemeChoice()).toBe('light');

    setThemeChoice('system');
    expect(html().dataset.theme).toBe('system');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
    expect(readThemeChoice()).toBe('system');
  });

  it('shows the device preference for System, and the choice otherwise', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });
});

describe('theme controls', () => {
  it('the header button switches to the other palette and names what it will do', () => {
    devicePrefers('dark');
    render(<ThemeToggle />);
    fireEvent.click(screen.getByRole('button', { name: 'Switch to light theme' }));
    expect(html().dataset.theme).toBe('light');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');

    fireEvent.click(screen.getByRole('button', { name: 'Switch to dark theme' }));
    expect(html().dataset.theme).toBe('dark');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
  });

  it('on a light device the header button offers the dark palette first', () => {
    devicePrefers('light');
    render(<ThemeToggle />);
    fireEvent.click(screen.getByRole('button', { name: 'Switch to dark theme' }));
    expect(html().dataset.theme).toBe('dark');
  });

  it('settings offers System, Light and Dark as one radio group that stays in step with the header button', () => {
    devicePrefers('dark');
    render(
      <>
        <ThemeToggle />
        <AppearancePanel />
      </>,
    );
    const group = screen.getByRole('group', { name: 'Theme' });
    expect(group).toBeTruthy();
    expect(screen.getAllByRole('radio').map((r) => r.closest('label')?.querySelector('.segmented-title')?.textContent)).toEqual([
      'System',
      'Light',
      'Dark',
    ]);
    expect((screen.getByRole('radio', { name: /^System/ }) as HTMLInputElement).checked).toBe(true);

    fireEvent.click(screen.getByRole('radio', { name: /^Light/ }));
    expect(html().dataset.theme).toBe('light');
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    expect(screen.getByRole('button', { name: 'Switch to dark theme' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Switch to dark theme' }));
    expect((screen.getByRole('radio', { name: /^Dark/ }) as HTMLInputElement).checked).toBe(true);
  });

  it('follows a choice made in another tab', () => {
    render(<AppearancePanel />);
    act(() => {
      localStorage.setItem(THEME_STORAGE_KEY, 'dark');
      window.dispatchEvent(new StorageEvent('storage', { key: THEME_STORAGE_KEY, newValue: 'dark' }));
    });
    expect((screen.getByRole('radio', { name: /^Dark/ }) as HTMLInputElement).checked).toBe(true);
    expect(html().dataset.theme).toBe('dark');
  });
});
