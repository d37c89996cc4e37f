import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { Ticket, TicketListResponse } from '#shared/schemas/tickets';
import { dedupeTickets, mergeTicket, putMyTicket } from './my-ticket-cache';
import { ticketKeys } from './ticket-keys';

const t = (id: string, extra: Partial<Ticket> = {}) => ({ _id: id, ...extra }) as Ticket;
const page = (tickets: Ticket[]): TicketListResponse => ({ tickets, total: tickets.length, page: 1, pageSize: 20 }) as TicketListResponse;

describe('my tickets in the query cache', () => {
  it('puts a new ticket at the front and merges a known _id in place', () => {
    const list = mergeTicket(mergeTicket([t('a', { subject: 'First', status: 'open' })], t('b')), t('a', { status: 'resolved' }));
    expect(list).toEqual([t('b'), t('a', { subject: 'First', status: 'resolved' })]);
  });

  it('keeps one ticket per _id', () => {
    expect(dedupeTickets([t('a'), t('b'), t('a')]).map((x) => x._id)).toEqual(['a', 'b']);
  });

  it('an answer becomes the detail and is merged into the first page, not into a later page that lacks it', () => {
    const client = new QueryClient();
    client.setQueryData(ticketKeys.mineList(true, 1), page([t('a', { subject: 'Old' })]));
    client.setQueryData(ticketKeys.mineList(true, 2), page([t('z')]));
    putMyTicket(client, true, { ticket: t('a', { status: 'pending' }) });
    putMyTicket(client, true, { ticket: t('n') });
    expect(client.getQueryData<TicketListResponse>(ticketKeys.mineList(true, 1))?.tickets).toEqual([
      t('n'),
      t('a', { subject: 'Old', status: 'pending' }),
    ]);
    expect(client.getQueryData<TicketListResponse>(ticketKeys.mineList(true, 2))?.tickets).toEqual([t('z')]);
    expect(client.getQueryData(ticketKeys.mineDetail(true, 'n'))).toEqual({ ticket: t('n') });
  });
});
