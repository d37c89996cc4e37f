import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AdjustmentRequest } from '#shared/schemas/credits';
import { useSessionStore } from '#web/features/auth';
import { renderWithQuery as render } from '#web/test/render';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { AdjustmentRequestsPanel } from './adjustment-requests-panel';

const LIST = '/api/admin/credits/adjustment-requests';
const request = (over: Partial<AdjustmentRequest> = {}): AdjustmentRequest => ({
  _id: 'r1',
  user: { userId: 'user-1', username: 'alice' },
  amountCents: 150_000,
  reason: 'Refund of the failed bank transfer',
  customerNote: 'Sorry for the trouble',
  requestedBy: { userId: 'admin-a', username: 'ann' },
  requestedAt: '2026-01-04T10:00:00.000Z',
  status: 'pending',
  decidedBy: null,
  decidedAt: null,
  decisionNote: null,
  ledgerEntryId: null,
  ...over,
});

const server = setupScriptedApi();
beforeEach(() => {
  server.on('GET', '/api/auth/2fa', { body: { twoFactor: { totp: false, passkeys: 0, recoveryCodesLeft: 0 }, requiredForStaff: false } });
});
afterEach(() => {
  useSessionStore.setState({ isAuthenticated: false, userId: null });
});

/** Signed in as this admin (the panel tells the asker from another admin by id). */
function renderAs(adminId: string, userId: string | null = null) {
  useSessionStore.setState({ isAuthenticated: true, isGuest: false, userId: adminId });
  render(
    <MemoryRouter>
      <AdjustmentRequestsPanel userId={userId} />
    </MemoryRouter>,
  );
  return screen.getByRole('region', { name: 'Waiting for a second admin' });
}

/** The list answers the requests still pending: a decided one leaves it. */
function scriptList(initial: AdjustmentRequest[]) {
  let pending = initial;
  server.on('GET', LIST, () => ({ body: { requests: pending } }));
  return (next: AdjustmentRequest[]) => {
    pending = next;
  };
}

describe('AdjustmentRequestsPanel (four eyes)', () => {
  it('lists who asked, the amount, the reason and when; a second admin approves with their own code', async () => {
    const setPending = scriptList([request()]);
    server.on('GET', '/api/auth/2fa', { body: { twoFactor: { totp: true, passkeys: 0, recoveryCodesLeft: 10 }, requiredForStaff: true } });
    server.on('POST', `${LIST}/r1/approve`, () => {
      setPending([]);
      return { body: { request: request({ status: 'approved', decidedBy: { userId: 'admin-b', username: 'bea' }, ledgerEntryId: 'l1' }) } };
    });
    const panel = renderAs('admin-b');
    const list = await within(panel).findByRole('list', { name: 'Adjustments waiting for a second admin' });
    const item = within(list).getByRole('listitem');
    expect(within(item).getByText('+1500.00 credits', { selector: 'strong' })).toBeTruthy();
    expect(within(item).getByRole('link', { name: 'alice' }).getAttribute('href')).toBe('/dashboard/staff/users/user-1');
    expect(within(item).getByText('ann')).toBeTruthy();
    expect(within(item).getByText('Refund of the failed bank transfer')).toBeTruthy();
    expect(within(item).getByText('Sorry for the trouble')).toBeTruthy();
    expect(within(item).getByText(new Date('2026-01-04T10:00:00.000Z').toLocaleString())).toBeTruthy();
    expect(server.requests.find((r) => r.path === LIST)!.query).toBe('status=pending');

    fireEvent.click(within(item).getByRole('button', { name: 'Approve +1500.00 credits for alice' }));
    const form = within(item).getByRole('form', { name: /Approve \+1500\.00 credits for alice\?/ });
    fireEvent.change(await within(form).findByLabelText('Authentication code or recovery code'), { target: { value: '123456' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Approve +1500.00 credits' }));

    await waitFor(() =>
      expect(within(panel).getByRole('status').textContent).toBe('Approved: +1500.00 credits posted to the balance of alice.'),
    );
    expect(await within(panel).findByText('No adjustment is waiting.')).toBeTruthy();
    expect(server.requests.find((r) => r.path === `${LIST}/r1/approve`)!.body).toEqual({ twoFactorCode: '123456' });
  });

  it('does not let the admin who asked approve, and says why; they can withdraw it with a note', async () => {
    const setPending = scriptList([request()]);
    server.on('POST', `${LIST}/r1/reject`, () => {
      setPending([]);
      return { body: { request: request({ status: 'rejected' }) } };
    });
    const panel = renderAs('admin-a', 'user-1');
    const item = await within(panel).findByRole('listitem');
    expect(within(item).getByText('ann (you)')).toBeTruthy();
    // On one user's page the account is not repeated.
    expect(within(item).queryByRole('link', { name: 'alice' })).toBeNull();
    const approve = within(item).getByRole('button', { name: /^Approve/ }) as HTMLButtonElement;
    expect(approve.disabled).toBe(true);
    expect(approve.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(approve.getAttribute('aria-describedby')!)!.textContent).toBe(
      'You asked for this one: another admin must approve it.',
    );
    expect(server.requests.find((r) => r.path === LIST)!.query).toBe('status=pending&userId=user-1');

    fireEvent.click(within(item).getByRole('button', { name: 'Withdraw +1500.00 credits' }));
    const form = within(item).getByRole('form', { name: 'Withdraw +1500.00 credits for alice' });
    // A note is asked for before anything is sent.
    fireEvent.click(within(form).getByRole('button', { name: 'Withdraw request' }));
    expect((await within(form).findByRole('alert')).textContent).toBe('Say why (at least 3 characters)');
    expect(server.requests.some((r) => r.method === 'POST')).toBe(false);

    fireEvent.change(within(form).getByLabelText('Why are you withdrawing it?'), { target: { value: 'Wrong account' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Withdraw request' }));
    await waitFor(() =>
      expect(within(panel).getByRole('status').textContent).toBe('Withdrawn: +1500.00 credits for alice. Nothing was posted.'),
    );
    expect(server.requests.find((r) => r.path === `${LIST}/r1/reject`)!.body).toEqual({ note: 'Wrong account' });
    expect(await within(panel).findByText('No adjustment for this user is waiting.')).toBeTruthy();
  });

  it('lets another admin reject with a note', async () => {
    const setPending = scriptList([request({ amountCents: -200_000 })]);
    server.on('POST', `${LIST}/r1/reject`, () => {
      setPending([]);
      return { body: { request: request({ status: 'rejected' }) } };
    });
    const panel = renderAs('admin-b');
    const item = await within(panel).findByRole('listitem');
    fireEvent.click(within(item).getByRole('button', { name: 'Reject -2000.00 credits for alice' }));
    const form = within(item).getByRole('form', { name: 'Reject -2000.00 credits for alice' });
    fireEvent.change(within(form).getByLabelText('Why are you rejecting it?'), { target: { value: 'No ticket backs this up' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Reject request' }));
    await waitFor(() =>
      expect(within(panel).getByRole('status').textContent).toBe('Rejected: -2000.00 credits for alice. Nothing was posted.'),
    );
    expect(server.requests.find((r) => r.path === `${LIST}/r1/reject`)!.body).toEqual({ note: 'No ticket backs this up' });
  });

  it("shows the server's refusals: four eyes, and a request someone else decided first", async () => {
    const setPending = scriptList([request(), request({ _id: 'r2', amountCents: 120_000, user: { userId: 'user-2', username: 'bob' } })]);
    server.on('POST', `${LIST}/r1/approve`, {
      status: 403,
      body: { error: 'Another admin must approve an adjustment you asked for (four eyes).', code: 'FOUR_EYES_REQUIRED' },
    });
    server.on('POST', `${LIST}/r2/approve`, () => {
      setPending([request()]);
      return {
        status: 409,
        body: { error: 'This adjustment was already rejected', code: 'ALREADY_DECIDED', details: { status: 'rejected' } },
      };
    });
    const panel = renderAs('admin-b');
    const items = await within(panel).findAllByRole('listitem');

    fireEvent.click(within(items[0]!).getByRole('button', { name: 'Approve +1500.00 credits for alice' }));
    const form = within(items[0]!).getByRole('form', { name: /Approve/ });
    fireEvent.click(within(form).getByRole('button', { name: 'Approve +1500.00 credits' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(
      'Another admin must approve an adjustment you asked for (four eyes).',
    );

    fireEvent.click(within(items[1]!).getByRole('button', { name: 'Approve +1200.00 credits for bob' }));
    fireEvent.click(
      within(within(items[1]!).getByRole('form', { name: /Approve/ })).getByRole('button', { name: 'Approve +1200.00 credits' }),
    );
    await waitFor(() =>
      expect(within(panel).getByRole('status').textContent).toBe('This adjustment was already rejected. The list is up to date.'),
    );
    await waitFor(() => expect(within(panel).getAllByRole('listitem')).toHaveLength(1));
  });

  it('says when nothing is waiting, and when the list could not be loaded', async () => {
    let fail = true;
    server.on('GET', LIST, () =>
      fail ? { status: 500, body: { error: 'Internal error', code: 'INTERNAL' } } : { body: { requests: [] } },
    );
    const panel = renderAs('admin-b');
    const alert = await within(panel).findByRole('alert');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await within(panel).findByText('No adjustment is waiting.')).toBeTruthy();
  });
});
