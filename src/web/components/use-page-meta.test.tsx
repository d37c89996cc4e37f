import { i18n } from '@lingui/core';
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_DESCRIPTION, usePageMeta } from './use-page-meta';

// The shared components translate their own words; English, as the app starts (decision 0326).
i18n.loadAndActivate({ locale: 'en', messages: {} });

afterEach(() => cleanup());

function Page({ title, description }: { title: string; description?: string }) {
  usePageMeta(title, description);
  return null;
}

const description = () => document.head.querySelector('meta[name="description"]')?.getAttribute('content');

describe('usePageMeta', () => {
  it('sets "Title · Olympus" and the meta description while the page is shown', () => {
    const { unmount } = render(<Page title="Jobs" description="Open roles at Olympus." />);
    expect(document.title).toBe('Jobs · Olympus');
    expect(description()).toBe('Open roles at Olympus.');

    unmount();
    expect(document.title).toBe('Olympus');
    expect(description()).toBe(DEFAULT_DESCRIPTION);
  });

  it('follows a change of page', () => {
    const { rerender } = render(<Page title="Jobs" />);
    rerender(<Page title="Reviews" description="What customers say." />);
    expect(document.title).toBe('Reviews · Olympus');
    expect(description()).toBe('What customers say.');
    expect(document.head.querySelectorAll('meta[name="description"]')).toHaveLength(1);
  });
});
