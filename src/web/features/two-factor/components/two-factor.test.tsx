import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { renderWithQuery } from '#web/test/render';
import { LoginSecondStep } from './login-second-step';
import { TwoFactorSettings } from './two-factor-settings';

const server = setupScriptedApi();
const USER = {
  _id: 'u1',
  username: 'alice',
  email: 'a@example.com',
  role: 'user',
  subroles: [],
  credits: 0,
  discord: null,
  telegram: null,
  onboardingCompleted: true,
  referralCode: 'ABCDEFGH',
  createdAt: '2026-01-01T00:00:00.000Z',
};
const CHALLENGE = { twoFactorRequired: true as const, challenge: 'challenge-token', methods: ['totp' as const, 'recovery' as const] };

describe('the second step of a sign-in', () => {
  it('sends the code without any session header, shows a refusal, then signs in with a recovery code', async () => {
    const onSignedIn = vi.fn();
    let calls = 0;
    server.on('POST', '/api/login/2fa', () => {
      calls += 1;
      return calls === 1
        ? {
            status: 400,
            body: {
              error: 'That code is not right. Check your authenticator app and try again.',
              code: 'INVALID_TWO_FACTOR_CODE',
              details: { attemptsLeft: 4 },
            },
          }
        : { body: { user: USER, token: 'new-token' } };
    });
    renderWithQuery(<LoginSecondStep challenge={CHALLENGE} onSignedIn={onSignedIn} onRestart={() => undefined} />);

    const code = screen.getByLabelText('Authentication code');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(document.activeElement).toBe(code);
    fireEvent.change(code, { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Enter the 6-digit code');
    expect(server.requests).toHaveLength(0);

    fireEvent.change(code, { target: { value: '123 456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('That code is not right'));
    expect(server.requests[0]!.body).toEqual({ challenge: 'challenge-token', code: '123456' });
    // A refused code is not a failed session: no bearer token, no refresh, no redirect.
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(server.requests.some((r) => r.path === '/api/refresh-token')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    fireEvent.change(screen.getByLabelText('Recovery code'), { target: { value: 'abcd-efgh-ijkl' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith({ user: USER, token: 'new-token' }));
    expect(server.requests[1]!.body).toEqual({ challenge: 'challenge-token', recoveryCode: 'abcd-efgh-ijkl' });
  });

  it('sends the person back to the password when the challenge has expired', async () => {
    const onRestart = vi.fn();
    server.on('POST', '/api/login/2fa', {
      status: 401,
      body: { error: 'This sign-in has expired. Enter your password again.', code: 'CHALLENGE_EXPIRED' },
    });
    renderWithQuery(<LoginSecondStep challenge={CHALLENGE} onSignedIn={() => undefined} onRestart={onRestart} />);
    fireEvent.change(screen.getByLabelText('Authentication code'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('This sign-in has expired'));
    fireEvent.click(screen.getByRole('button', { name: 'Back to sign in' }));
    expect(onRestart).toHaveBeenCalled();
  });
});

describe('two-factor settings', () => {
  it('sets up the authenticator app: password, QR and secret, first code, then the recovery codes once', async () => {
    let on = false;
    server.on('GET', '/api/auth/2fa', () => ({
      body: { twoFactor: { totp: on, passkeys: 0, recoveryCodesLeft: on ? 10 : 0 }, requiredForStaff: false },
    }));
    server.on('GET', '/api/auth/2fa/passkeys', { body: { passkeys: [], available: true, reason: null } });
    server.on('POST', '/api/auth/2fa/totp/setup', {
      body: {
        secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
        otpauthUrl: 'otpauth://totp/Olympus:alice?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Olympus',
      },
    });
    const codes = Array.from({ length: 10 }, (_, i) => `aaaa-bbbb-cc${String.fromCharCode(97 + i)}${String.fromCharCode(97 + i)}`);
    server.on('POST', '/api/auth/2fa/totp/enable', () => {
      on = true;
      return { body: { recoveryCodes: codes } };
    });
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });

    renderWithQuery(<TwoFactorSettings />);
    const section = await screen.findByRole('region', { name: 'Two-factor sign-in' });
    await within(section).findByText('Off');
    fireEvent.click(within(section).getByRole('button', { name: 'Set up authenticator app' }));
    fireEvent.click(within(section).getByRole('button', { name: 'Continue' }));
    expect(await within(section).findByText('Current password is required')).toBeTruthy();
    fireEvent.change(within(section).getByLabelText('Current password'), { target: { value: 'my password' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Continue' }));

    expect((await within(section).findByLabelText('Secret for manual entry')).textContent).toContain(
      'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP',
    );
    expect(within(section).getByRole('img', { name: 'QR code for your authenticator app' })).toBeTruthy();
    expect(server.requests.find((r) => r.path === '/api/auth/2fa/totp/setup')!.body).toEqual({ currentPassword: 'my password' });
    fireEvent.change(within(section).getByLabelText('Enter the 6-digit code the app shows'), { target: { value: '654321' } });
    // Signing out every other session is offered, and checked unless the person unticks it.
    expect((within(section).getByLabelText('Sign out every other session') as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(section).getByRole('button', { name: 'Turn on' }));

    const list = await within(section).findByRole('list', { name: 'Recovery codes' });
    expect(server.requests.find((r) => r.path === '/api/auth/2fa/totp/enable')!.body).toEqual({
      code: '654321',
      signOutOtherSessions: true,
    });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(codes);
    fireEvent.click(within(section).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(codes.join('\n')));
    fireEvent.click(within(section).getByRole('button', { name: 'I have saved them' }));
    expect(await within(section).findByText('10 of 10 recovery codes left.')).toBeTruthy();
    expect(within(section).queryByRole('list', { name: 'Recovery codes' })).toBeNull();
  });

  it('turns two-factor off with the code in the same form: refused without it, with a visible message, then done with it', async () => {
    let on = true;
    server.on('GET', '/api/auth/2fa', () => ({
      body: { twoFactor: { totp: on, passkeys: 0, recoveryCodesLeft: on ? 10 : 0 }, requiredForStaff: false },
    }));
    server.on('GET', '/api/auth/2fa/passkeys', { body: { passkeys: [], available: true, reason: null } });
    server.on('POST', '/api/auth/2fa/disable', (request) => {
      const body = request.body as { twoFactorCode?: string };
      if (!body.twoFactorCode) {
        return {
          status: 403,
          body: {
            error:
              'Two-factor sign-in is on for this account: confirm this change with a code from your authenticator app or a recovery code.',
            code: 'TWO_FACTOR_REQUIRED',
            details: { methods: ['totp', 'recovery'] },
          },
        };
      }
      on = false;
      return { body: { twoFactor: { totp: false, passkeys: 0, recoveryCodesLeft: 0 } } };
    });

    renderWithQuery(<TwoFactorSettings />);
    const section = await screen.findByRole('region', { name: 'Two-factor sign-in' });
    fireEvent.click(await within(section).findByRole('button', { name: 'Turn off two-factor' }));
    const code = within(section).getByLabelText('Authentication code or recovery code');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(within(section).queryByRole('button', { name: 'Use a passkey' })).toBeNull();
    fireEvent.change(within(section).getByLabelText('Current password'), { target: { value: 'my password' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Turn off two-factor' }));
    // The server's refusal is announced on the field (role="alert").
    await waitFor(() =>
      expect(
        within(section)
          .getAllByRole('alert')
          .map((a) => a.textContent),
      ).toContain(
        'Two-factor sign-in is on for this account: confirm this change with a code from your authenticator app or a recovery code.',
      ),
    );
    expect(code.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(code));

    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Turn off two-factor' }));
    expect(await within(section).findByText('Off')).toBeTruthy();
    const sent = server.requests.filter((r) => r.path === '/api/auth/2fa/disable').map((r) => r.body);
    expect(sent).toEqual([{ currentPassword: 'my password' }, { currentPassword: 'my password', twoFactorCode: '123456' }]);
  });

  it('offers a passkey for the second factor when the account has one', async () => {
    server.on('GET', '/api/auth/2fa', { body: { twoFactor: { totp: true, passkeys: 1, recoveryCodesLeft: 10 }, requiredForStaff: false } });
    server.on('GET', '/api/auth/2fa/passkeys', { body: { passkeys: [], available: true, reason: null } });
    renderWithQuery(<TwoFactorSettings />);
    const section = await screen.findByRole('region', { name: 'Two-factor sign-in' });
    fireEvent.click(await within(section).findByRole('button', { name: 'New recovery codes' }));
    const group = within(section).getByRole('group', { name: 'Two-factor confirmation' });
    expect(within(group).getByLabelText('Authentication code or recovery code')).toBeTruthy();
    // jsdom has no WebAuthn: the field says so instead of offering a button that cannot work.
    expect(within(group).queryByRole('button', { name: 'Use a passkey' }) ?? within(group).getByRole('note')).toBeTruthy();
  });
});
