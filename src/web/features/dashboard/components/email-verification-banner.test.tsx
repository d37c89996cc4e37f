import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { User } from '#shared/schemas/auth';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { renderWithQuery } from '#web/test/render';
import { EmailVerificationBanner } from './email-verification-banner';

const USER: User = {
  _id: 'u1',
  username: 'ada',
  email: 'ada@example.com',
  emailVerified: false,
  role: 'user',
  subroles: [],
  credits: 0,
  discord: null,
  telegram: null,
  onboardingCompleted: true,
  referralCode: 'ABCDEFGH',
  locale: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};

const server = setupScriptedApi();

describe('EmailVerificationBanner', () => {
  it('is not shown once the address is confirmed', () => {
    renderWithQuery(<EmailVerificationBanner user={{ ...USER, emailVerified: true }} />);
    expect(screen.queryByRole('region', { name: 'Confirm your email address' })).toBeNull();
  });

  it('names the address and resends the link', async () => {
    server.on('POST', '/api/auth/resend-verification', {
      status: 202,
      body: { success: true, message: 'We sent a new confirmation link. Check your inbox.' },
    });
    renderWithQuery(<EmailVerificationBanner user={USER} />);
    const banner = screen.getByRole('region', { name: 'Confirm your email address' });
    expect(banner.textContent).toContain('ada@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Resend confirmation email' }));
    expect(await screen.findByText('We sent a new confirmation link. Check your inbox.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Link sent' })).toHaveProperty('disabled', true);
    expect(server.requests.filter((r) => r.path === '/api/auth/resend-verification')).toHaveLength(1);
  });

  it('shows the server reason when resending is refused', async () => {
    server.on('POST', '/api/auth/resend-verification', {
      status: 429,
      body: { error: 'Too many requests. Try again in 600 seconds.', code: 'RATE_LIMITED' },
    });
    renderWithQuery(<EmailVerificationBanner user={USER} />);
    fireEvent.click(screen.getByRole('button', { name: 'Resend confirmation email' }));
    expect(await screen.findByText('Too many requests. Try again in 600 seconds.')).toBeTruthy();
  });
});
