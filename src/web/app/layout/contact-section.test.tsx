import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONTACT_EMAIL } from '#web/features/marketing/content/site';
import { ContactSection } from './contact-section';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('contact section', () => {
  it('shows the contact address as a mail link', () => {
    render(<ContactSection />);
    expect(screen.getByRole('heading', { name: 'Contact' })).toBeTruthy();
    expect(screen.getByRole('link', { name: CONTACT_EMAIL }).getAttribute('href')).toBe(`mailto:${CONTACT_EMAIL}`);
  });

  it('opens an email to us with the topic as subject and the message as body', () => {
    const location = { href: 'http://localhost/' };
    vi.stubGlobal('location', location);
    render(<ContactSection />);

    fireEvent.change(screen.getByLabelText('Your name (optional)'), { target: { value: 'Ada' } });
    fireEvent.change(screen.getByLabelText('Topic'), { target: { value: 'payments' } });
    fireEvent.change(screen.getByLabelText('Message'), { target: { value: 'Where is my deposit? Tx 0xabc & more' } });
    fireEvent.click(screen.getByRole('button', { name: 'Write email' }));

    const url = new URL(location.href);
    expect(url.protocol).toBe('mailto:');
    expect(url.pathname).toBe(CONTACT_EMAIL);
    expect(url.searchParams.get('subject')).toBe('[Olympus] Payments and credits');
    expect(url.searchParams.get('body')).toBe('Where is my deposit? Tx 0xabc & more\n\n— Ada');
    expect(screen.getByRole('status').textContent).toMatch(/email app should now open/);
  });
});
