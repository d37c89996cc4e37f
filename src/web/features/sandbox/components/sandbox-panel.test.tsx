import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_PAYMENT_STATUSES } from '#shared/schemas/sandbox';
import { renderWithQuery as render } from '#web/test/render';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { SandboxPanel } from './sandbox-panel';

const server = setupScriptedApi({ signedIn: false });
const PAYMENT_ID = '0b6c1f0e-4a8e-4a53-9f57-1f1d3c0f2a11';

describe('the sandbox panel', () => {
  afterEach(cleanup);

  it('moves the payment by its Olympus id to the status clicked, then asks the page to look again', async () => {
    server.on('GET', '/api/sandbox', { body: { sandboxes: ['nowpayments'], controls: { payments: true, exchanges: false } } });
    server.on('POST', `/sandbox/nowpayments/payments/${PAYMENT_ID}/status`, { body: { payment: {}, ipn: { delivered: true } } });
    let moved = 0;
    render(<SandboxPanel target={{ kind: 'payment', id: PAYMENT_ID }} onMoved={() => (moved += 1)} />);
    const group = await screen.findByRole('group', { name: 'Move this payment to' });
    expect(screen.getByText('Sandbox')).toBeTruthy();
    expect([...group.querySelectorAll('button')].map((b) => b.textContent)).toEqual(
      SANDBOX_PAYMENT_STATUSES.map((s) => (s.charAt(0).toUpperCase() + s.slice(1)).replace(/_/g, ' ')),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Partially paid' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Moved to "Partially paid".'));
    expect(moved).toBe(1);
    expect(server.requests.filter((r) => r.method === 'POST').map((r) => [r.path, r.body])).toEqual([
      [`/sandbox/nowpayments/payments/${PAYMENT_ID}/status`, { status: 'partially_paid' }],
    ]);
  });

  it('shows nothing when the server offers no controls (a real provider, or production)', async () => {
    server.on('GET', '/api/sandbox', { body: { sandboxes: ['discord'], controls: { payments: false, exchanges: false } } });
    const { container } = render(<SandboxPanel target={{ kind: 'payment', id: PAYMENT_ID }} onMoved={() => {}} />);
    await waitFor(() => expect(server.requests.some((r) => r.path === '/api/sandbox')).toBe(true));
    await new Promise((r) => setTimeout(r, 50));
    expect(container.innerHTML).toBe('');
  });
});
