import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithQuery } from '#web/test/render';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { AuthForm } from './auth-form';

const server = setupScriptedApi({ signedIn: false });

const renderAt = (path: string) =>
  renderWithQuery(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/register" element={<AuthForm mode="register" />} />
        <Route path="/dashboard" element={<p>Dashboard</p>} />
      </Routes>
    </MemoryRouter>,
  );

describe('Registering with a referral link (/register?ref=CODE)', () => {
  it('fills the code in and says the invited person gets a welcome bonus', () => {
    renderAt('/register?ref=FRIEND1');
    expect((screen.getByLabelText(/Referral code/) as HTMLInputElement).value).toBe('FRIEND1');
    expect(screen.getByTestId('referral-invited').textContent).toBe('You were invited: you get a welcome bonus on your first top-up.');
  });

  it('says nothing of an invitation without a link', () => {
    renderAt('/register');
    expect((screen.getByLabelText(/Referral code/) as HTMLInputElement).value).toBe('');
    expect(screen.queryByTestId('referral-invited')).toBeNull();
  });

  it('sends the code and shows the server refusal of an unknown one on the field', async () => {
    server.on('POST', '/api/register', {
      status: 400,
      body: { error: 'Unknown referral code', code: 'VALIDATION_ERROR', details: { fields: { referralCode: 'Unknown referral code' } } },
    });
    renderAt('/register?ref=NOSUCH');
    fireEvent.change(screen.getByLabelText('Username'), { target: { value: 'newcomer' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'newcomer@example.com' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'correct horse battery staple' } });
    fireEvent.click(screen.getByLabelText("I'm not a robot"));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Create account' })));
    await waitFor(() => expect(server.requests.filter((r) => r.path === '/api/register')).toHaveLength(1));
    expect((server.requests.find((r) => r.path === '/api/register')!.body as { referralCode: string }).referralCode).toBe('NOSUCH');
    const field = screen.getByLabelText(/Referral code/);
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById(field.getAttribute('aria-describedby')!)!.textContent).toBe('Unknown referral code');
    expect(screen.queryByTestId('referral-invited')).toBeNull();
  });
});
