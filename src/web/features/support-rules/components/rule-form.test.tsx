import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '#shared/error-codes';
import type { RuleBody } from '#shared/schemas/support-rules';
import { activateLocale } from '#web/features/language';
import { ApiError } from '#web/lib/api-client';
import { RuleForm } from './rule-form';

const STAFF = [{ _id: '11111111-1111-4111-8111-111111111111', username: 'support_anna' }];
const CANNED = [{ _id: '22222222-2222-4222-8222-222222222222', title: 'Got it' }];

function setup(onSave = vi.fn(async (_body: RuleBody) => {})) {
  render(<RuleForm rule={null} staff={STAFF} cannedReplies={CANNED} onSave={onSave} onCancel={() => {}} />);
  return onSave;
}

afterEach(async () => {
  cleanup();
  await activateLocale('en');
});

describe('RuleForm', () => {
  it('builds the rule the API takes: trigger, conditions and actions in order', async () => {
    const onSave = setup();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Refunds' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add condition' }));
    fireEvent.change(screen.getByLabelText('Text'), { target: { value: 'refund' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add action' }));
    fireEvent.change(screen.getByLabelText('Tag'), { target: { value: 'Refund' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add action' }));
    fireEvent.change(screen.getByLabelText('Action 2'), { target: { value: 'set_priority' } });
    fireEvent.change(screen.getByLabelText('Priority'), { target: { value: 'urgent' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add action' }));
    fireEvent.change(screen.getByLabelText('Action 3'), { target: { value: 'canned_reply' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create rule' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![0]).toEqual({
      name: 'Refunds',
      enabled: true,
      trigger: { type: 'ticket_created' },
      conditions: [{ type: 'subject_contains', text: 'refund' }],
      actions: [
        { type: 'add_tag', tag: 'Refund' },
        { type: 'set_priority', priority: 'urgent' },
        { type: 'canned_reply', cannedReplyId: CANNED[0]!._id },
      ],
    });
  });

  it('asks for the hours of the no-reply trigger and the status of a status trigger', async () => {
    const onSave = setup();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Escalate' } });
    fireEvent.change(screen.getByLabelText('Trigger'), { target: { value: 'no_staff_reply' } });
    fireEvent.change(screen.getByLabelText('Business hours without a staff reply'), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add action' }));
    fireEvent.change(screen.getByLabelText('Action 1'), { target: { value: 'assign' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create rule' }));
    expect(await screen.findByText('At least 1 business hour')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('Business hours without a staff reply'), { target: { value: '4' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create rule' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0]![0]).toMatchObject({
      trigger: { type: 'no_staff_reply', hours: 4 },
      actions: [{ type: 'assign', assigneeId: STAFF[0]!._id }],
    });

    fireEvent.change(screen.getByLabelText('Trigger'), { target: { value: 'status_changed' } });
    fireEvent.change(screen.getByLabelText('To status'), { target: { value: 'resolved' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create rule' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(2));
    expect(onSave.mock.calls[1]![0]).toMatchObject({ trigger: { type: 'status_changed', to: 'resolved' } });
  });

  it('refuses a rule without actions or with a bad tag, and removes parts', async () => {
    const onSave = setup();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Nothing' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create rule' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Add at least one action');
    fireEvent.click(screen.getByRole('button', { name: 'Add action' }));
    fireEvent.change(screen.getByLabelText('Tag'), { target: { value: 'two words' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create rule' }));
    expect(await screen.findByText(/letters, digits/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add condition' }));
    fireEvent.change(screen.getByLabelText('Condition 1'), { target: { value: 'priority_in' } });
    const conditions = screen.getByRole('list', { name: 'Conditions' });
    fireEvent.click(within(conditions).getByLabelText('high'));
    fireEvent.click(within(conditions).getByRole('button', { name: 'Remove condition 1' }));
    expect(within(conditions).queryByLabelText('high')).toBeNull();
    expect(onSave).not.toHaveBeenCalled();
  });

  it('shows the error the server answers', async () => {
    const refusal = new ApiError(422, 'Tickets can be assigned only to an active support or admin account', ErrorCode.RULE_BROKEN);
    setup(vi.fn(async () => Promise.reject(refusal)));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Reply' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add action' }));
    fireEvent.change(screen.getByLabelText('Action 1'), { target: { value: 'close' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create rule' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Tickets can be assigned only to an active support or admin account');
  });

  it("shows the server's fixed refusal in the page's language", async () => {
    const refusal = new ApiError(422, 'Tickets can be assigned only to an active support or admin account', ErrorCode.RULE_BROKEN);
    setup(vi.fn(async () => Promise.reject(refusal)));
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Reply' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add action' }));
    fireEvent.change(screen.getByLabelText('Action 1'), { target: { value: 'close' } });
    // The reader's language is German by the time the server refuses.
    await act(() => activateLocale('de'));
    fireEvent.click(screen.getByRole('button', { name: 'Regel erstellen' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Tickets können nur einem aktiven Support- oder Admin-Konto zugewiesen werden',
    );
  });
});
