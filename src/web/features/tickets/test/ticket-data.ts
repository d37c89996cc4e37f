import type { Ticket, TicketMessage } from '#shared/schemas/tickets';

/** Ticket answers for the tickets feature's tests: a staff-queue default, changed by `over`. */
export const message = (over: Partial<TicketMessage> = {}): TicketMessage => ({
  _id: 'm1',
  author: 'requester',
  authorName: 'alice',
  body: 'My deposit is missing.',
  createdAt: '2026-01-01T10:00:00.000Z',
  kind: 'reply',
  attachments: [],
  ...over,
});

export const ticket = (over: Partial<Ticket> = {}): Ticket => ({
  _id: 't1',
  number: 1001,
  subject: 'Deposit not showing',
  category: 'payments',
  priority: 'high',
  status: 'open',
  requester: { type: 'user', name: 'alice' },
  assignedTo: null,
  messageCount: 1,
  createdAt: '2026-01-01T10:00:00.000Z',
  updatedAt: '2026-01-01T10:00:00.000Z',
  lastMessageAt: '2026-01-01T10:00:00.000Z',
  firstResponseAt: null,
  mergedInto: null,
  rating: null,
  ...over,
});
