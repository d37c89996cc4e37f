import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { User } from '#shared/schemas/auth';
import { authenticatedState, clearedState, guestState, runLoginHooks, useSessionStore } from '#web/features/auth/stores/session-store';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { activateLocale, currentLocale, followAccountLocale, LanguageSwitch, RichText } from '#web/features/language';
import { SiteHeader } from './site-header';

const server = setupScriptedApi({ signedIn: false });

const user = (locale: User['locale']): User => ({
  _id: 'user-1',
  username: 'ada',
  email: 'ada@example.com',
  emailVerified: true,
  role: 'user',
  subroles: [],
  credits: 0,
  discord: null,
  telegram: null,
  onboardingCompleted: true,
  referralCode: 'ADA123',
  locale,
  createdAt: '2026-01-01T00:00:00.000Z',
});

function renderHeader() {
  const router = createMemoryRouter([{ path: '*', element: <SiteHeader /> }], { initialEntries: ['/'] });
  render(<RouterProvider router={router} />);
}

afterEach(async () => {
  useSessionStore.setState(clearedState());
  await act(() => activateLocale('en'));
});

describe('the language menu (decision 0326)', () => {
  it('is a select labelled Language in the header, each language named in itself', () => {
    useSessionStore.setState(clearedState());
    renderHeader();
    const select = screen.getByRole<HTMLSelectElement>('combobox', { name: 'Language' });
    expect(select.value).toBe('en');
    const options = within(select).getAllByRole<HTMLOptionElement>('option');
    expect(options.map((o) => o.textContent)).toEqual(['English', 'Español', 'Русский', 'Deutsch']);
    expect(options.map((o) => o.lang)).toEqual(['en', 'es', 'ru', 'de']);
  });

  it('turns the header Spanish for a visitor, keeps the choice on the device and asks the server nothing', async () => {
    useSessionStore.setState(clearedState());
    renderHeader();
    fireEvent.change(screen.getByRole('combobox', { name: 'Language' }), { target: { value: 'es' } });

    const nav = await screen.findByRole('navigation', { name: 'Principal' });
    expect(within(nav).getByRole('link', { name: 'Inicio' })).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Acceder' })).toBeTruthy();
    expect(within(nav).getByRole('link', { name: 'Registrarse' })).toBeTruthy();
    expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Idioma' }).value).toBe('es');
    expect(document.documentElement.lang).toBe('es');
    expect(localStorage.getItem('locale')).toBe('es');
    // And as a cookie, so the server writes the next page's head in Spanish too (decision 0331).
    expect(document.cookie).toContain('locale=es');
    expect(server.requests).toHaveLength(0);
  });

  it('stores a signed-in person’s choice on the account', async () => {
    useSessionStore.setState(authenticatedState(user(null), 'token'));
    server.on('PUT', '/api/users/locale', (request) => ({ body: { user: user((request.body as { locale: 'de' }).locale) } }));
    render(<LanguageSwitch />);
    fireEvent.change(screen.getByRole('combobox', { name: 'Language' }), { target: { value: 'de' } });

    await waitFor(() => expect(screen.getByRole<HTMLSelectElement>('combobox', { name: 'Sprache' }).value).toBe('de'));
    await waitFor(() => expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['PUT /api/users/locale']));
    expect(server.requests[0]?.body).toEqual({ locale: 'de' });
    expect(localStorage.getItem('locale')).toBe('de');
  });

  it('keeps the choice on the device when the account cannot store it', async () => {
    useSessionStore.setState(authenticatedState(user(null), 'token'));
    server.on('PUT', '/api/users/locale', { status: 500, body: { error: 'Broken', code: 'INTERNAL' } });
    render(<LanguageSwitch />);
    fireEvent.change(screen.getByRole('combobox', { name: 'Language' }), { target: { value: 'ru' } });
    await waitFor(() => expect(currentLocale()).toBe('ru'));
    await waitFor(() => expect(server.requests).toHaveLength(1));
    expect(localStorage.getItem('locale')).toBe('ru');
  });

  it('does not store a guest’s choice on the server', async () => {
    useSessionStore.setState(guestState('guest-1', 'token'));
    render(<LanguageSwitch />);
    fireEvent.change(screen.getByRole('combobox', { name: 'Language' }), { target: { value: 'es' } });
    await waitFor(() => expect(currentLocale()).toBe('es'));
    expect(server.requests).toHaveLength(0);
  });
});

describe("the account's language", () => {
  it("applies after a sign-in when the device has no choice of its own, and never over the device's", async () => {
    followAccountLocale();
    runLoginHooks(user('ru'));
    await waitFor(() => expect(currentLocale()).toBe('ru'));
    expect(document.documentElement.lang).toBe('ru');

    await act(() => activateLocale('en'));
    localStorage.setItem('locale', 'en');
    runLoginHooks(user('de'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(currentLocale()).toBe('en');
  });

  it('applies at the start-up check of a stored session', async () => {
    followAccountLocale();
    useSessionStore.getState().userChecked(user('es'), 'token');
    await waitFor(() => expect(currentLocale()).toBe('es'));
  });
});

describe('RichText', () => {
  it('puts the tagged words inside the given elements, as the translation placed them', () => {
    render(
      <p data-testid="text">
        <RichText
          message="Acepta los <0>términos</0> y la <1>política</1>."
          elements={[<a key="t" href="/terms" />, <a key="p" href="/privacy" />]}
        />
      </p>,
    );
    const paragraph = screen.getByTestId('text');
    expect(paragraph.textContent).toBe('Acepta los términos y la política.');
    expect(within(paragraph).getByRole('link', { name: 'términos' }).getAttribute('href')).toBe('/terms');
    expect(within(paragraph).getByRole('link', { name: 'política' }).getAttribute('href')).toBe('/privacy');
  });
});
