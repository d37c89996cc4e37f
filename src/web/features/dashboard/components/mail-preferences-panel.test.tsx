import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithQuery as render } from '#web/test/render';
import { setupScriptedApi } from '#web/test/scripted-api-server';
import { MailPreferencesPanel } from './mail-preferences-panel';

const server = setupScriptedApi();

describe('MailPreferencesPanel', () => {
  it('marks the first load busy, then shows the switches as saved', async () => {
    server.on('GET', '/api/users/mail-preferences', { body: { paymentCredited: true, ticketReply: false, orderUpdates: true } });
    render(<MailPreferencesPanel />);
    expect(screen.getByText('Loading…').getAttribute('aria-busy')).toBe('true');
    const support = (await screen.findByRole('checkbox', { name: 'Support replies' })) as HTMLInputElement;
    expect(support.checked).toBe(false);
    expect((screen.getByRole('checkbox', { name: 'Payment credited' }) as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByText('Loading…')).toBeNull();
  });

  it('says when the settings cannot be loaded and tries again on request', async () => {
    server.on('GET', '/api/users/mail-preferences', { status: 500, body: { error: 'Internal server error', code: 'INTERNAL' } });
    render(<MailPreferencesPanel />);
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Could not load your notification settings.')).toBeTruthy();
    expect(screen.queryByRole('checkbox')).toBeNull();
    server.on('GET', '/api/users/mail-preferences', { body: { paymentCredited: true, ticketReply: true, orderUpdates: true } });
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(((await screen.findByRole('checkbox', { name: 'Orders' })) as HTMLInputElement).checked).toBe(true);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
