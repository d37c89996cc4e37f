/// <reference types="node" />
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderWithQuery as render } from '#web/test/render';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '#web/lib/api-client';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { ChangePasswordForm } from './change-password-form';

const server = setupScriptedApi();

const PATH = '/api/users/change-password';
const hits = () => server.requests.filter((r) => r.path === PATH);

function renderForm() {
  const onChanged = vi.fn();
  render(<ChangePasswordForm onChanged={onChanged} />);
  const current = screen.getByLabelText('Current password') as HTMLInputElement;
  const next = screen.getByLabelText('New password') as HTMLInputElement;
  const submit = (currentPassword: string, newPassword: string) => {
    fireEvent.change(current, { target: { value: currentPassword } });
    fireEvent.change(next, { target: { value: newPassword } });
    fireEvent.click(screen.getByRole('button', { name: 'Update password' }));
  };
  return { onChanged, current, next, submit };
}

describe('ChangePasswordForm', () => {
  it('needs the current password and a new one of 8 to 128 characters before sending anything', async () => {
    const { current, next, submit } = renderForm();
    submit('', 'a long new passphrase');
    expect(await screen.findByText('Current password is required')).toBeTruthy();
    expect(document.activeElement).toBe(current);
    expect(current.getAttribute('aria-invalid')).toBe('true');

    submit('the old one', 'short');
    expect(await screen.findByText('Password must be at least 8 characters')).toBeTruthy();
    expect(document.activeElement).toBe(next);

    submit('the old one', 'x'.repeat(129));
    expect(await screen.findByText('Password must be at most 128 characters')).toBeTruthy();
    expect(hits()).toHaveLength(0);
  });

  it('sends both passwords, clears the fields and says the other sessions were signed out', async () => {
    server.on('POST', PATH, { body: { message: 'Password updated' } });
    const { onChanged, current, next, submit } = renderForm();
    submit('the old passphrase', 'a brand new passphrase');
    expect(await screen.findByText('Password updated. Your other sessions have been signed out.')).toBeTruthy();
    expect(hits()[0]?.body).toEqual({ currentPassword: 'the old passphrase', newPassword: 'a brand new passphrase' });
    expect(current.value).toBe('');
    expect(next.value).toBe('');
    expect(onChanged).toHaveBeenCalledTimes(1);
  });

  it("shows the server's refusal on its field, and the catalogue text when nothing answered", async () => {
    server.on('POST', PATH, {
      status: 400,
      body: {
        error: 'Current password is incorrect',
        code: 'WRONG_PASSWORD',
        details: { fields: { currentPassword: 'Current password is incorrect' } },
      },
    });
    const { onChanged, current, submit } = renderForm();
    submit('not it at all', 'a brand new passphrase');
    await waitFor(() => expect(current.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByRole('alert').textContent).toBe('Current password is incorrect');
    expect(onChanged).not.toHaveBeenCalled();

    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    configureApiClient({ baseUrl: `http://127.0.0.1:${port}`, redirectToLogin: () => undefined });
    submit('not it at all', 'a brand new passphrase');
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Failed to update password'));
    expect(onChanged).not.toHaveBeenCalled();
  });
});
