import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_REFERRAL_SETTINGS, type Referral, type ReferralSummary } from '#shared/schemas/referrals';
import { renderWithQuery } from '#web/test/render';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import MyReferralsPage from '../pages/my-referrals-page';

const server = setupScriptedApi();

const SUMMARY: ReferralSummary = {
  code: 'ADA123',
  linkPath: '/register?ref=ADA123',
  joined: 3,
  qualified: 1,
  rewarded: 1,
  refused: 1,
  heldCents: 970,
  paidCents: 1_250,
  clawedBackCents: 300,
  nextReleaseAt: '2026-12-21T10:00:00.000Z',
  settings: DEFAULT_REFERRAL_SETTINGS,
};

const referral = (over: Partial<Referral>): Referral => ({
  _id: 'r1',
  maskedName: 'bo•••b',
  joinedAt: '2026-12-01T09:00:00.000Z',
  status: 'qualified',
  refusalReason: null,
  refusalNote: null,
  rewardsUntil: '2027-03-01T09:00:00.000Z',
  heldCents: 970,
  paidCents: 0,
  clawedBackCents: 0,
  ...over,
});

const REFERRALS = [
  referral({}),
  referral({
    _id: 'r2',
    maskedName: 'ca•••l',
    status: 'refused',
    refusalReason: 'refused_by_staff',
    refusalNote: 'Both accounts belong to one person',
    heldCents: 0,
  }),
  referral({ _id: 'r3', maskedName: 'da•••e', status: 'rewarded', heldCents: 0, paidCents: 1_250, clawedBackCents: 300 }),
];

function answer(summary: ReferralSummary = SUMMARY, referrals: Referral[] = REFERRALS, total = referrals.length) {
  server.on('GET', '/api/referrals/summary', { body: summary });
  server.on('GET', '/api/referrals', (req) => {
    const page = Number(new URLSearchParams(req.query).get('page') ?? '1');
    return { body: { referrals, page, pageSize: 20, total } };
  });
}

const renderPage = () =>
  renderWithQuery(
    <MemoryRouter>
      <MyReferralsPage />
    </MemoryRouter>,
  );

const originalShare = Object.getOwnPropertyDescriptor(navigator, 'share');
afterEach(() => {
  if (originalShare) Object.defineProperty(navigator, 'share', originalShare);
  else delete (navigator as { share?: unknown }).share;
});

describe('My referrals', () => {
  it('shows my code, my link on this site, the programme in words and what it earned', async () => {
    answer();
    renderPage();
    expect(screen.getByText('Loading your referral link…')).toBeTruthy();
    const link = (await screen.findByTestId('referral-link')) as HTMLInputElement;
    expect(link.value).toBe(`${window.location.origin}/register?ref=ADA123`);
    expect(screen.getByTestId('referral-code').textContent).toBe('ADA123');
    expect(
      screen.getByText('You earn 10% of each top-up of the people who join with your link for 90 days, up to 50.00 credits each.'),
    ).toBeTruthy();
    expect(screen.getByText('They get a 2.00 credit welcome bonus on their first top-up.')).toBeTruthy();
    expect(screen.getByText('Rewards can be spent 14 days after they are earned.')).toBeTruthy();
    expect(screen.getByText('You can earn up to 200.00 credits a day and 5,000.00 credits in all.')).toBeTruthy();
    expect(screen.getByTestId('referral-held').textContent).toBe('9.70 credits');
    expect(screen.getByTestId('referral-paid').textContent).toBe('12.50 credits');
    expect(screen.getByTestId('referral-clawed-back').textContent).toBe('3.00 credits');
    expect(screen.getByTestId('referral-next-release').textContent).toMatch(/2026/);
    expect(screen.getByText(/3 people joined with your link/)).toBeTruthy();
  });

  it('words the programme from the settings it is given', async () => {
    answer({
      ...SUMMARY,
      settings: { ...DEFAULT_REFERRAL_SETTINGS, shareBasisPoints: 250, rewardDays: 1, holdDays: 0, welcomeBonusCents: 0 },
    });
    renderPage();
    expect(
      await screen.findByText('You earn 2.5% of each top-up of the people who join with your link for 1 day, up to 50.00 credits each.'),
    ).toBeTruthy();
    expect(screen.getByText('Rewards can be spent as soon as they are earned.')).toBeTruthy();
    expect(screen.queryByText(/welcome bonus on their first top-up/)).toBeNull();
  });

  it('lists the people who joined: masked name, status, the refusal in words with the staff note, held and paid', async () => {
    answer();
    renderPage();
    const table = await screen.findByRole('table', { name: 'People who joined with your link' });
    const refused = within(table).getByTestId('referral-r2');
    expect(within(refused).getByText('ca•••l')).toBeTruthy();
    expect(within(refused).getByText('Refused')).toBeTruthy();
    expect(within(refused).getByText('Our staff refused it.')).toBeTruthy();
    expect(within(refused).getByText('Note from our staff: Both accounts belong to one person')).toBeTruthy();
    const held = within(table).getByTestId('referral-r1');
    expect(within(held).getByText('Topped up')).toBeTruthy();
    expect(within(held).getAllByRole('cell')[3]!.textContent).toBe('9.70 credits');
    const rewarded = within(table).getByTestId('referral-r3');
    expect(within(rewarded).getAllByRole('cell')[4]!.textContent).toBe('12.50 credits3.00 credits taken back');
    const request = server.requests.find((r) => r.path === '/api/referrals')!;
    expect(new URLSearchParams(request.query).get('pageSize')).toBe('20');
  });

  it('pages through the people who joined', async () => {
    answer(SUMMARY, REFERRALS, 45);
    renderPage();
    await screen.findByText('Page 1 of 3');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Page 2 of 3');
    // The page number moves at once; the second page's request follows it.
    const pages = () => server.requests.filter((r) => r.path === '/api/referrals').map((r) => new URLSearchParams(r.query).get('page'));
    await waitFor(() => expect(pages()).toEqual(['1', '2']));
  });

  it('says when no one has joined yet', async () => {
    answer({ ...SUMMARY, joined: 0, heldCents: 0, paidCents: 0, clawedBackCents: 0, nextReleaseAt: null }, []);
    renderPage();
    expect(await screen.findByText('No one has joined with your link yet.')).toBeTruthy();
    expect((await screen.findByTestId('referral-next-release')).textContent).toBe('Nothing held');
    expect(screen.queryByRole('navigation', { name: 'Pages of people who joined' })).toBeNull();
  });

  it('reports a failure to load my link and tries again', async () => {
    server.on('GET', '/api/referrals/summary', { status: 403, body: { error: 'Guests have no referral code', code: 'FORBIDDEN' } });
    server.on('GET', '/api/referrals', { body: { referrals: [], page: 1, pageSize: 20, total: 0 } });
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Guests have no referral code');
    answer();
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('referral-link')).toBeTruthy();
  });

  it('copies the link and says so to screen readers', async () => {
    answer();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderPage();
    const copy = await screen.findByRole('button', { name: 'Copy your referral link' });
    await act(async () => fireEvent.click(copy));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/register?ref=ADA123`);
    const said = screen.getByText('Copied!');
    expect(said.getAttribute('aria-live')).toBe('polite');
  });

  it('offers Share only where the browser has a share sheet', async () => {
    answer();
    delete (navigator as { share?: unknown }).share;
    const first = renderPage();
    await screen.findByTestId('referral-link');
    expect(screen.queryByRole('button', { name: 'Share' })).toBeNull();
    first.unmount();

    const share = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'share', { value: share, configurable: true, writable: true });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Share' }));
    await waitFor(() => expect(share).toHaveBeenCalledTimes(1));
    expect(share.mock.calls[0]![0]).toMatchObject({ url: `${window.location.origin}/register?ref=ADA123` });
  });
});
