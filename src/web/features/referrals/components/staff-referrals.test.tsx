import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_REFERRAL_SETTINGS, type AdminReferral, type ReferralSettingsResponse } from '#shared/schemas/referrals';
import { renderWithQuery } from '#web/test/render';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { ReferralReport } from './referral-report';
import { ReferralSettingsPanel } from './referral-settings-form';
import { decisionsFor, StaffReferralsList } from './staff-referrals-list';

const server = setupScriptedApi();

beforeAll(() => {
  // jsdom has no modal dialogs: open and close just toggle the attribute, as a browser would.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.removeAttribute('open');
    this.dispatchEvent(new Event('close'));
  };
});

const row = (over: Partial<AdminReferral>): AdminReferral => ({
  _id: 'r1',
  referrer: { userId: 'u-ada', username: 'ada' },
  referred: { userId: 'u-bob', username: 'bob' },
  joinedAt: '2026-12-01T09:00:00.000Z',
  status: 'qualified',
  refusalReason: null,
  refusalNote: null,
  signals: { sameEmail: false, sameDevice: true, sameAddress: false, samePayoutAddress: true },
  heldCents: 970,
  paidCents: 0,
  clawedBackCents: 0,
  ...over,
});

const ROWS = [
  row({}),
  row({
    _id: 'r2',
    referred: { userId: 'u-cy', username: 'cy' },
    status: 'rewarded',
    signals: { sameEmail: false, sameDevice: false, sameAddress: false, samePayoutAddress: false },
    heldCents: 0,
    paidCents: 500,
  }),
  row({ _id: 'r3', referred: { userId: 'u-di', username: 'di' }, status: 'refused', refusalReason: 'same_email', heldCents: 0 }),
];

const renderList = () =>
  renderWithQuery(
    <MemoryRouter>
      <StaffReferralsList />
    </MemoryRouter>,
  );

describe('Staff referrals list', () => {
  it('lists referrals with their signals as chips and the actions each allows', async () => {
    server.on('GET', '/api/admin/referrals', { body: { referrals: ROWS, page: 1, pageSize: 20, total: 3 } });
    renderList();
    const first = await screen.findByTestId('staff-referral-r1');
    expect(within(first).getByRole('link', { name: 'ada' }).getAttribute('href')).toBe('/dashboard/staff/users/u-ada');
    const chips = within(first).getByRole('list', { name: 'Shared signals' });
    expect(
      within(chips)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Same device', 'Same payout address']);
    // Qualified, nothing paid yet: refused (held shares cancelled) or reversed (the welcome bonus taken back too).
    expect(
      within(first)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Refuse bob, invited by ada', 'Reverse bob, invited by ada']);
    expect(within(first).getAllByRole('cell')[3]!.textContent).toBe('Held 9.70 creditsPaid 0.00 credits');
    const rewarded = screen.getByTestId('staff-referral-r2');
    expect(within(rewarded).getAllByRole('button')).toHaveLength(1);
    expect(within(rewarded).getByText('None')).toBeTruthy();
    expect(within(rewarded).getByRole('button', { name: 'Reverse cy, invited by ada' })).toBeTruthy();
    const refused = screen.getByTestId('staff-referral-r3');
    expect(within(refused).getByText('Same email')).toBeTruthy();
    expect(within(refused).queryByRole('button')).toBeNull();
  });

  it('offers refuse before a top-up qualified the referral, both after, reverse once paid, nothing once refused', () => {
    expect(decisionsFor(row({ status: 'joined', heldCents: 0 }))).toEqual(['refuse']);
    expect(decisionsFor(row({ status: 'qualified' }))).toEqual(['refuse', 'reverse']);
    expect(decisionsFor(row({ status: 'qualified', paidCents: 100 }))).toEqual(['reverse']);
    expect(decisionsFor(row({ status: 'rewarded', paidCents: 970 }))).toEqual(['reverse']);
    expect(decisionsFor(row({ status: 'refused' }))).toEqual([]);
  });

  it('filters by status and by a username or email', async () => {
    server.on('GET', '/api/admin/referrals', { body: { referrals: ROWS, page: 1, pageSize: 20, total: 3 } });
    renderList();
    await screen.findByTestId('staff-referral-r1');
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'refused' } });
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: 'ada@example.com' } });
    await waitFor(() => {
      const last = server.requests.at(-1)!;
      const query = new URLSearchParams(last.query);
      expect([query.get('status'), query.get('q'), query.get('page')]).toEqual(['refused', 'ada@example.com', '1']);
    });
  });

  it('refuses with a note of 3 to 500 characters, confirmed in a dialog', async () => {
    server.on('GET', '/api/admin/referrals', { body: { referrals: ROWS, page: 1, pageSize: 20, total: 3 } });
    server.on('POST', '/api/admin/referrals/r1/refuse', (req) => ({
      body: { referral: row({ status: 'refused', refusalReason: 'refused_by_staff', refusalNote: (req.body as { note: string }).note }) },
    }));
    renderList();
    fireEvent.click(await screen.findByRole('button', { name: 'Refuse bob, invited by ada' }));
    const dialog = screen.getByRole('dialog', { name: 'Refuse this referral?' });
    const note = within(dialog).getByLabelText('Note to ada');
    fireEvent.change(note, { target: { value: 'no' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Refuse referral' })));
    expect(within(dialog).getByRole('alert').textContent).toBe('Say why (at least 3 characters)');
    expect(server.requests.filter((r) => r.method === 'POST')).toEqual([]);

    fireEvent.change(note, { target: { value: '  Same person, two accounts  ' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Refuse referral' })));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const post = server.requests.find((r) => r.method === 'POST')!;
    expect(post.path).toBe('/api/admin/referrals/r1/refuse');
    expect(post.body).toEqual({ note: 'Same person, two accounts' });
    expect(screen.getByRole('status').textContent).toBe('Refused: bob, invited by ada. ada reads your note.');
    // The list is asked again after the decision.
    await waitFor(() => expect(server.requests.filter((r) => r.path === '/api/admin/referrals').length).toBeGreaterThanOrEqual(2));
  });

  it('reverses a rewarded referral and shows the server refusal in the dialog', async () => {
    server.on('GET', '/api/admin/referrals', { body: { referrals: ROWS, page: 1, pageSize: 20, total: 3 } });
    server.on('POST', '/api/admin/referrals/r2/reverse', {
      status: 409,
      body: { error: 'This referral was already reversed', code: 'CONFLICT' },
    });
    renderList();
    fireEvent.click(await screen.findByRole('button', { name: 'Reverse cy, invited by ada' }));
    const dialog = screen.getByRole('dialog', { name: 'Reverse this referral?' });
    expect(dialog.textContent).toContain('what it earned ada (5.00 credits) is taken back');
    fireEvent.change(within(dialog).getByLabelText('Note to ada'), { target: { value: 'Top-up charged back' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Reverse referral' })));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('This referral was already reversed');
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('says when nothing matches', async () => {
    server.on('GET', '/api/admin/referrals', { body: { referrals: [], page: 1, pageSize: 20, total: 0 } });
    renderList();
    expect(await screen.findByText('No referral matches these filters.')).toBeTruthy();
  });
});

const { createObjectURL, revokeObjectURL } = URL;
afterEach(() => {
  URL.createObjectURL = createObjectURL;
  URL.revokeObjectURL = revokeObjectURL;
});

describe('Referral report', () => {
  it('shows the weeks and downloads them as CSV', async () => {
    server.on('GET', '/api/admin/referrals/report', {
      body: {
        weeks: [
          {
            weekStart: '2026-11-23',
            referrers: 0,
            joined: 0,
            qualified: 0,
            refused: 0,
            paidCents: 0,
            clawedBackCents: 0,
            welcomeBonusCents: 0,
          },
          {
            weekStart: '2026-11-30',
            referrers: 2,
            joined: 5,
            qualified: 3,
            refused: 1,
            paidCents: 1_250,
            clawedBackCents: 0,
            welcomeBonusCents: 600,
          },
        ],
      },
    });
    server.on('GET', '/api/admin/referrals/report.csv', { body: 'week_start,referrers\r\n2026-11-30,2\r\n' });
    URL.createObjectURL = vi.fn(() => 'blob:test');
    URL.revokeObjectURL = vi.fn();
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    renderWithQuery(<ReferralReport />);
    const table = await screen.findByRole('table', { name: 'Week by week' });
    // The newest week first.
    const [, newest, oldest] = within(table).getAllByRole('row');
    expect(
      within(newest!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['November 30, 2026', '2', '5', '3', '1', '12.50', '0.00', '6.00']);
    expect(within(oldest!).getAllByRole('cell')[0]!.textContent).toBe('November 23, 2026');
    expect(new URLSearchParams(server.requests[0]!.query).get('weeks')).toBe('12');
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(clicked).toEqual(['olympus-referrals-12-weeks.csv']));
    expect(server.requests.at(-1)!.path).toBe('/api/admin/referrals/report.csv');
  });
});

const SETTINGS: ReferralSettingsResponse = {
  settings: DEFAULT_REFERRAL_SETTINGS,
  history: [
    {
      _id: 'c2',
      settings: DEFAULT_REFERRAL_SETTINGS,
      changedBy: { userId: 'u-admin', username: 'root' },
      changedAt: '2026-12-02T10:00:00.000Z',
    },
    {
      _id: 'c1',
      settings: { ...DEFAULT_REFERRAL_SETTINGS, shareBasisPoints: 500, holdDays: 7 },
      changedBy: null,
      changedAt: '2026-11-01T10:00:00.000Z',
    },
  ],
};

describe('Referral settings', () => {
  it('shows the settings as a percentage, days and credits, and who changed what', async () => {
    server.on('GET', '/api/admin/referrals/settings', { body: SETTINGS });
    renderWithQuery(<ReferralSettingsPanel />);
    expect(((await screen.findByLabelText('Share of each top-up (%)')) as HTMLInputElement).value).toBe('10');
    expect((screen.getByLabelText('Earning period (days)') as HTMLInputElement).value).toBe('90');
    expect((screen.getByLabelText('Most per person invited (credits)') as HTMLInputElement).value).toBe('50.00');
    expect((screen.getByLabelText('Welcome bonus (credits)') as HTMLInputElement).value).toBe('2.00');
    const history = screen.getByRole('table', { name: 'Changes' });
    const [, latest, first] = within(history).getAllByRole('row');
    expect(within(latest!).getByText('root')).toBeTruthy();
    expect(
      within(latest!)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Share of each top-up (%): 5% → 10%', 'Held for (days): 7 days → 14 days']);
    expect(within(first!).getByText('Defaults')).toBeTruthy();
    expect(within(first!).getAllByRole('listitem')).toHaveLength(7);
  });

  it('refuses values out of bounds without sending, then saves the settings in the API units', async () => {
    server.on('GET', '/api/admin/referrals/settings', { body: SETTINGS });
    server.on('PUT', '/api/admin/referrals/settings', (req) => ({
      body: { settings: req.body, history: SETTINGS.history },
    }));
    renderWithQuery(<ReferralSettingsPanel />);
    const share = await screen.findByLabelText('Share of each top-up (%)');
    fireEvent.change(share, { target: { value: '60' } });
    fireEvent.change(screen.getByLabelText('Held for (days)'), { target: { value: '2.5' } });
    fireEvent.change(screen.getByLabelText('Welcome bonus (credits)'), { target: { value: '1.234' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save settings' })));
    expect(screen.getByText('Enter a percentage between 0 and 50')).toBeTruthy();
    expect(screen.getByText('Enter a whole number of days')).toBeTruthy();
    expect(screen.getByText('Enter an amount with at most two decimals')).toBeTruthy();
    expect(document.activeElement).toBe(share);
    expect(server.requests.filter((r) => r.method === 'PUT')).toEqual([]);

    fireEvent.change(share, { target: { value: '12,5' } });
    fireEvent.change(screen.getByLabelText('Held for (days)'), { target: { value: '0' } });
    fireEvent.change(screen.getByLabelText('Welcome bonus (credits)'), { target: { value: '3.5' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save settings' })));
    await waitFor(() => expect(server.requests.filter((r) => r.method === 'PUT')).toHaveLength(1));
    expect(server.requests.find((r) => r.method === 'PUT')!.body).toEqual({
      ...DEFAULT_REFERRAL_SETTINGS,
      shareBasisPoints: 1250,
      holdDays: 0,
      welcomeBonusCents: 350,
    });
  });

  it('puts the server field errors on the fields', async () => {
    server.on('GET', '/api/admin/referrals/settings', { body: SETTINGS });
    server.on('PUT', '/api/admin/referrals/settings', {
      status: 400,
      body: {
        error: 'Invalid settings',
        code: 'VALIDATION_ERROR',
        details: { fields: { lifetimeCapCents: 'Too small for the daily cap' } },
      },
    });
    renderWithQuery(<ReferralSettingsPanel />);
    await screen.findByLabelText('Share of each top-up (%)');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save settings' })));
    expect(await screen.findByText('Too small for the daily cap')).toBeTruthy();
  });
});
