import { QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import toast from 'react-hot-toast';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Toaster } from '#web/components/ui/toaster';
import { configureApiClient } from '#web/lib/api-client';
import { makeToken, startScriptedApiServer, type RecordedRequest, type ScriptedApiServer } from '#web/test/scripted-api-server';
import { initialSessionState, startGuestSession, useSessionStore } from '#web/features/auth';
import { sessionKeys } from '#web/features/auth/credits';
import { useRegister } from '#web/features/auth/mutations';
import { queryClient } from '#web/lib/query-client';
import '#web/test/render';
import { registerRewardRedemption } from '../register-reward-redemption';
import { redeemClaims, redeemPendingGuestRewards, validateClaims } from './redeem-guest-rewards';
import { readClaims, saveClaim } from './reward-claims';

const KEY = 'olympus_reward_claims';
const USER_ID = '7b0a6f0e-3c1e-4a57-9d1c-2f6b7d2c9e11';
const user = {
  _id: USER_ID,
  username: 'ada',
  email: 'ada@example.com',
  role: 'user',
  subroles: [],
  credits: 0,
  discord: null,
  telegram: null,
  onboardingCompleted: true,
  referralCode: 'ADA123',
  createdAt: '2026-01-01T00:00:00.000Z',
};

let server: ScriptedApiServer;

beforeAll(async () => {
  server = await startScriptedApiServer();
  registerRewardRedemption();
});
afterAll(() => server.close());

beforeEach(() => {
  server.reset();
  localStorage.clear();
  useSessionStore.setState(initialSessionState);
  configureApiClient({ baseUrl: server.url, redirectToLogin: () => undefined });
  render(<Toaster />);
});
afterEach(() => {
  act(() => {
    toast.remove();
  });
  cleanup();
  configureApiClient(null);
});

const requestsTo = (path: string): RecordedRequest[] => server.requests.filter((r) => r.path === path);

/** The server's answers: which claims are valid, which are claimed, and the balance afterwards. */
function scriptServer(options: { valid: string[]; claimed: string[]; credited: number; balance: number }) {
  server.on('POST', '/api/exchange/guest-rewards-status', (req) => {
    const claims = (req.body as { claims: { exchangeId: string }[] }).claims;
    return {
      body: {
        success: true,
        data: {
          totalPotentialRewards: 9,
          claims: claims.map((c) => ({ exchangeId: c.exchangeId, valid: options.valid.includes(c.exchangeId) })),
        },
      },
    };
  });
  server.on('POST', '/api/exchange/claim-guest-rewards', (req) => {
    const claims = (req.body as { claims: { exchangeId: string }[] }).claims;
    return {
      body: {
        success: true,
        data: {
          totalCredited: options.credited,
          results: claims.map((c) => ({ exchangeId: c.exchangeId, claimed: options.claimed.includes(c.exchangeId) })),
        },
      },
    };
  });
  server.on('GET', `/api/users/${USER_ID}/credits`, { body: { credits: options.balance } });
}

/** Registers through the app's mutation (its sign-in hooks run the redemption). */
function signIn() {
  server.on('POST', '/api/register', { status: 201, body: { user, token: makeToken({ sub: USER_ID }) } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  const { result } = renderHook(useRegister, { wrapper });
  return act(async () => {
    await result.current.mutateAsync({ username: 'ada', email: 'ada@example.com', password: 'a long passphrase', turnstileToken: 'ok' });
  });
}

describe('guest rewards after sign-in (docs/product.md#guest-claims)', () => {
  it('validates, drops invalid and expired claims, redeems the valid ones, toasts the total and refreshes the balance', async () => {
    saveClaim('ex-valid', { claimCode: 'code-a', potentialRewards: 3.25 });
    saveClaim('ex-valid-2', { claimCode: 'code-b', potentialRewards: 1.5 });
    saveClaim('ex-invalid', { claimCode: 'code-c', potentialRewards: 2 });
    saveClaim('ex-expired', { claimCode: 'code-d', potentialRewards: 7 }, Date.now() - 721 * 3600_000);
    scriptServer({ valid: ['ex-valid', 'ex-valid-2'], claimed: ['ex-valid', 'ex-valid-2'], credited: 4.75, balance: 4.75 });

    await signIn();

    expect(await screen.findByText('Claimed 4.75 credits from previous exchanges!')).toBeTruthy();
    const status = requestsTo('/api/exchange/guest-rewards-status');
    expect(status).toHaveLength(1);
    // The expired claim is never sent; the invalid one is not redeemed.
    expect((status[0]!.body as { claims: { exchangeId: string }[] }).claims.map((c) => c.exchangeId)).toEqual([
      'ex-valid',
      'ex-valid-2',
      'ex-invalid',
    ]);
    const [redeem] = requestsTo('/api/exchange/claim-guest-rewards');
    expect(redeem!.body).toEqual({
      claims: [
        { exchangeId: 'ex-valid', claimCode: 'code-a', potentialRewards: 3.25 },
        { exchangeId: 'ex-valid-2', claimCode: 'code-b', potentialRewards: 1.5 },
      ],
      userId: USER_ID,
    });
    expect(redeem!.headers.authorization).toMatch(/^Bearer /);
    // The balance in the query cache is read again (sign-in had put the user's 0 there).
    await waitFor(() => expect(queryClient.getQueryData(sessionKeys.credits(USER_ID))).toBe(4.75));
    await waitFor(() => expect(localStorage.getItem(KEY)).toBeNull());
  });

  it('shows the loading toast while redeeming', async () => {
    saveClaim('ex-1', { claimCode: 'code', potentialRewards: 1 });
    scriptServer({ valid: ['ex-1'], claimed: ['ex-1'], credited: 1, balance: 1 });
    server.on('POST', '/api/exchange/claim-guest-rewards', {
      delayMs: 300,
      body: { success: true, data: { totalCredited: 1, results: [{ exchangeId: 'ex-1', claimed: true }] } },
    });
    await signIn();
    expect(await screen.findByText('Redeeming your rewards...')).toBeTruthy();
    expect(await screen.findByText('Claimed 1.00 credits from previous exchanges!')).toBeTruthy();
    await waitFor(() => expect(localStorage.getItem(KEY)).toBeNull());
  });

  it('says a claim on an exchange still running is taken, credited when it finishes', async () => {
    saveClaim('ex-running', { claimCode: 'code', potentialRewards: 2 });
    scriptServer({ valid: ['ex-running'], claimed: ['ex-running'], credited: 0, balance: 0 });
    await signIn();
    expect(await screen.findByText('Rewards from exchanges still in progress will be credited when they finish.')).toBeTruthy();
    expect(screen.queryByText('Failed to claim pending rewards')).toBeNull();
    await waitFor(() => expect(localStorage.getItem(KEY)).toBeNull());
  });

  it('says so when the redemption fails, and force-clears what is left', async () => {
    saveClaim('ex-1', { claimCode: 'code', potentialRewards: 1 });
    scriptServer({ valid: ['ex-1'], claimed: [], credited: 0, balance: 0 });
    server.on('POST', '/api/exchange/claim-guest-rewards', { status: 500, body: { error: 'Something broke', code: 'INTERNAL' } });
    await signIn();
    expect(await screen.findByText('Failed to claim pending rewards')).toBeTruthy();
    await waitFor(() => expect(localStorage.getItem(KEY)).toBeNull());
  });

  it('does nothing without stored claims, and nothing after a guest sign-in', async () => {
    await signIn();
    saveClaim('ex-1', { claimCode: 'code', potentialRewards: 1 });
    server.on('POST', '/api/guest', {
      status: 201,
      body: { guestId: 'g_x', token: makeToken({ isGuest: true, sub: 'g_x' }), user: { _id: 'g_x', role: 'guest', isGuest: true } },
    });
    await act(async () => {
      await startGuestSession();
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(server.requests.filter((r) => r.path.startsWith('/api/exchange'))).toHaveLength(0);
    expect(Object.keys(readClaims())).toEqual(['ex-1']);
  });
});

describe('claim calls', () => {
  it('answer zero totals when validation fails', async () => {
    server.on('POST', '/api/exchange/guest-rewards-status', { status: 503, body: { error: 'Down', code: 'UNAVAILABLE' } });
    await expect(validateClaims([{ exchangeId: 'a', claimCode: 'b', potentialRewards: 1 }])).resolves.toEqual({
      totalPotentialRewards: 0,
      claims: [],
    });
  });

  it("answer zero totals and the server's error when redemption fails", async () => {
    server.on('POST', '/api/exchange/claim-guest-rewards', {
      status: 403,
      body: { error: 'Rewards can only be claimed for your own account', code: 'FORBIDDEN' },
    });
    await expect(redeemClaims([{ exchangeId: 'a', claimCode: 'b', potentialRewards: 1 }], 'someone')).resolves.toEqual({
      totalCredited: 0,
      results: [],
      error: 'Rewards can only be claimed for your own account',
    });
  });

  it('toasts a failure and clears the claims when the validation itself fails', async () => {
    saveClaim('ex-1', { claimCode: 'code', potentialRewards: 1 });
    server.on('POST', '/api/exchange/guest-rewards-status', { status: 503, body: { error: 'Down', code: 'UNAVAILABLE' } });
    await act(async () => {
      await redeemPendingGuestRewards(USER_ID);
    });
    expect(await screen.findByText('Failed to claim pending rewards')).toBeTruthy();
    expect(requestsTo('/api/exchange/claim-guest-rewards')).toHaveLength(0);
    expect(localStorage.getItem(KEY)).toBeNull();
  });
});
