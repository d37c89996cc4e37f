import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TICKET_STATUSES } from '#shared/schemas/tickets';
import { TicketStatusBadge } from './ticket-status-badge';

afterEach(cleanup);

describe('TicketStatusBadge', () => {
  it("tells the requester whose turn it is: support's after they wrote, theirs after support answered", () => {
    const shown = TICKET_STATUSES.map((status) => {
      render(<TicketStatusBadge status={status} reader="requester" />);
      const text = screen.getByText(/./).textContent;
      cleanup();
      return [status, text];
    });
    expect(Object.fromEntries(shown)).toEqual({
      open: 'Waiting for support',
      pending: 'Waiting for you',
      resolved: 'Resolved',
      closed: 'Closed',
    });
  });

  it('tells staff the same from their side', () => {
    render(<TicketStatusBadge status="pending" reader="staff" />);
    expect(screen.getByText('Waiting for customer').className).toBe('ticket-status ticket-status-pending');
    cleanup();
    render(<TicketStatusBadge status="open" reader="staff" />);
    expect(screen.getByText('Open')).toBeTruthy();
  });
});
