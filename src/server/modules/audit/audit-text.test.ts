import { describe, expect, it } from 'vitest';
import { auditChanges, auditSentence } from './audit-text.js';
import { redactForAudit } from './staff-audit.hook.js';

describe('the audit log as sentences', () => {
  it('says who took how much from whom, with the balance before and after', () => {
    const sentence = auditSentence({
      action: 'credits.adjusted',
      actorLabel: 'ana (admin)',
      targetLabel: 'bob@example.com',
      before: { balanceCents: 1500 },
      after: { balanceCents: 1250, amountCents: -250 },
    });
    expect(sentence).toBe('ana (admin) adjusted the balance of bob@example.com by -2.50 credits: 15.00 → 12.50');
  });

  it('lists only the fields that changed, with names for the accounts they point at', () => {
    const names = new Map([['7c9e6679-7425-40de-944b-e07fc1f90ae7', 'support_anna']]);
    const changes = auditChanges(
      { status: 'open', priority: 'normal', assignedTo: null },
      { status: 'pending', priority: 'normal', assignedTo: '7c9e6679-7425-40de-944b-e07fc1f90ae7' },
      names,
    );
    expect(changes).toEqual([
      { field: 'status', before: 'open', after: 'pending' },
      { field: 'assigned to', before: null, after: 'support_anna' },
    ]);
  });

  it('keeps the length of free text written in a staff call, never the words', () => {
    const kept = redactForAudit({
      message: 'My card number is 4111 1111 1111 1111',
      internal: false,
      password: 'pw',
      title: 'x'.repeat(300),
    });
    expect(kept).toEqual({ message: { length: 37 }, internal: false, password: '[redacted]', title: { length: 300 } });
  });
});
