import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithQuery as render } from '#web/test/render';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { ClaimRewardForm } from './claim-reward-form';

const server = setupScriptedApi();
const CODE = 'k3J9x_Q2mZ8vB1nR4tY7wE0aS5dF6gH2';
const EXCHANGE = '3f2b8c1e-0d4a-4e6b-9a7c-5d8e2f1b0c3a';

const claimRequests = () => server.requests.filter((r) => r.path === '/api/exchange/claim-guest-rewards');

function fill(exchangeId: string, claimCode: string) {
  const form = screen.getByRole('form', { name: 'Claim a reward' });
  fireEvent.change(within(form).getByLabelText('Exchange id'), { target: { value: exchangeId } });
  fireEvent.change(within(form).getByLabelText('Claim code'), { target: { value: claimCode } });
  fireEvent.click(within(form).getByRole('button', { name: 'Claim reward' }));
  return form;
}

describe('ClaimRewardForm', () => {
  it('asks for both fields before sending anything, and focuses the first one missing', async () => {
    render(<ClaimRewardForm userId="user-1" />);
    const form = fill('', '   ');
    expect(await within(form).findByText('Enter the exchange id')).toBeTruthy();
    expect(within(form).getByText('Enter the claim code')).toBeTruthy();
    expect(within(form).getByLabelText('Exchange id').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(within(form).getByLabelText('Exchange id'));
    expect(claimRequests()).toHaveLength(0);
  });

  it('sends the one claim, trimmed, for the signed-in user, says what was credited and clears the fields', async () => {
    server.on('POST', '/api/exchange/claim-guest-rewards', {
      body: { success: true, data: { totalCredited: 3.25, results: [{ exchangeId: EXCHANGE, claimed: true }] } },
    });
    render(<ClaimRewardForm userId="user-1" />);
    const form = fill(` ${EXCHANGE} `, `${CODE}\n`);
    expect(await screen.findByText('Claimed: 3.25 credits were added to your balance.')).toBeTruthy();
    expect(claimRequests().map((r) => r.body)).toEqual([{ claims: [{ exchangeId: EXCHANGE, claimCode: CODE }], userId: 'user-1' }]);
    expect((within(form).getByLabelText('Claim code') as HTMLInputElement).value).toBe('');
  });

  it('says when the exchange is still running: the reward comes when it finishes', async () => {
    server.on('POST', '/api/exchange/claim-guest-rewards', {
      body: { success: true, data: { totalCredited: 0, results: [{ exchangeId: EXCHANGE, claimed: true }] } },
    });
    render(<ClaimRewardForm userId="user-1" />);
    fill(EXCHANGE, CODE);
    expect(await screen.findByText(/the exchange is still running, and its reward will be credited/)).toBeTruthy();
  });

  it('says nothing is waiting for a wrong or used code, and keeps what was typed to correct it', async () => {
    server.on('POST', '/api/exchange/claim-guest-rewards', {
      body: { success: true, data: { totalCredited: 0, results: [{ exchangeId: EXCHANGE, claimed: false }] } },
    });
    render(<ClaimRewardForm userId="user-1" />);
    const form = fill(EXCHANGE, CODE);
    expect(await screen.findByText(/^No reward is waiting for this exchange id and claim code/)).toBeTruthy();
    expect((within(form).getByLabelText('Claim code') as HTMLInputElement).value).toBe(CODE);
  });

  it("shows the server's refusal when too many wrong codes were tried, and the button is usable again", async () => {
    server.on('POST', '/api/exchange/claim-guest-rewards', {
      status: 429,
      body: { error: 'Too many wrong claim codes. Try again in 60 seconds.', code: 'RATE_LIMITED' },
    });
    render(<ClaimRewardForm userId="user-1" />);
    const form = fill(EXCHANGE, CODE);
    expect(await screen.findByRole('alert')).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Too many wrong claim codes. Try again in 60 seconds.'));
    expect(within(form).getByRole('button', { name: 'Claim reward' })).toHaveProperty('disabled', false);
  });
});
